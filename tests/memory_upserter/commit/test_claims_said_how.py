"""Whose the claim is and how it was said (issue 27, round 2: :mod:`.whose` clause owners,
:mod:`.related`, :mod:`.standing`, :mod:`.selves`): a fact resting on the person's words is
kept only when the clause its words come from is the person's, present, firm and theirs.

Sentences of our own (Telegram-style), labelled keep/drop. ``TUNED`` were written with the
rules; ``HELD_OUT`` were written before the rules were run on them and never tuned on: their
figure is reported as it came out (bench/RESULTS.md, block ``invent-wt8``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.plan import PlanFact
from services.memory_upserter.commit.grounding import Said, ground

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
KEEP, DROP = ("kept", "lowered"), ("dropped", "hedged")


def _f(text: str, value: str, predicate: str = "fact", subject: str = "user") -> PlanFact:
    kind = "PEOPLE" if "user's" in text.lower() else "PROFILE"
    return PlanFact(memory_type=kind, subject=subject, predicate=predicate, value=value, text=text)


# (said this turn, the person's stored facts, fact, keep or drop)
TUNED = [
    # a relation word that is someone else's
    ("jakes sister mia is coming over tmrw lol", (),
     _f("Mia is the user's sister", "mia", "sister"), DROP),
    ("my sister mia is coming over tmrw lol", (),
     _f("Mia is the user's sister", "mia", "sister"), KEEP),
    ("his brother tom is a chef, the food was unreal", (),
     _f("Tom is the user's brother", "tom", "brother"), DROP),
    # the person only as object of someone else's news: his, not theirs ("told us hes…")
    ("nikos just told us hes leaving for a job in munich in january 😭 whole floor is sad", (),
     _f("User is leaving for a job in Munich", "munich", "moving_to"), DROP),
    ("he told me i got the job at acme!!", (), _f("User got a job at Acme", "acme", "job"), KEEP),
    # the blind v8 set's (round 10): "a buddy of mine", a conjunction before "my son", an aside
    # in brackets (its emoji no sentence end), "his flight"
    ("Yeah, a buddy of mine adopted last year. It was a long process, but now they're happy", (),
     _f("User adopted a kid last year", "kid", "adopted"), DROP),
    ("my buddy and i adopted a puppy last year", (), _f("User adopted a puppy", "puppy", "adopted"),
     KEEP),
    ("We were all freaked when my son got into an accident. We were so lucky he was okay.", (),
     _f("User got into a car accident", "car accident", "accident"), DROP),
    ("my mate tom from uni (diff tom, not work tom 😂) is coming up to manc on the 12th", (),
     _f("User is coming up to manc on the 12th", "manc", "travel"), DROP),
    ("tom from uni just cancelled 😩 his flight got moved so hes not coming on the 12th anymore",
     (), _f("User's flight got moved", "flight", "flight_changed"), DROP),
    # a colon opens a clause: "news from home: my brother…" is the brother's
    ("NEWS from home: my little brother luca got into medicine in padova!!! 🎉", (),
     _f("User got into medicine in Padova", "medicine padova", "studies"), DROP),
    # an emoji ends a sentence: the hedge after it is another sentence's
    ("jonas and I had a huge fight again omg 🙄 he's my boyfriend btw and I think he's wrong",
     (), _f("Jonas is the user's boyfriend", "jonas", "boyfriend"), KEEP),
    # a fact with no subject of the person's is weighed as "User …"
    ("nikos just told us hes leaving for a job in munich", (),
     _f("Leaving for a job in Munich", "munich", "moving_to"), DROP),
    # an age said as "im 63": a bare number after "I'm" is an age; a count is no age
    ("morning its brendan here, im 63 live in cork with my wife", (),
     _f("User is 63 years old", "63", "age"), KEEP),
    ("turned 40 last week and nobody came lol", (), _f("User is 40 years old", "40", "age"), KEEP),
    ("booked dinner for 5 at 8", (), _f("User is 5 years old", "5", "age"), DROP),
    # the one the person talks to is no friend by being talked to
    ("haha same, what r u up to this weekend, sam?", (),
     _f("Sam is the user's friend", "sam", "friend"), DROP),
    # someone else's like, though the person says "our"
    ("our daughter ella is 6 and obsessed with horses", (),
     _f("User likes horses", "horses", "likes"), DROP),
    # a one-off is no hobby
    ("i rode a horse once in iceland and almost fell off lol", (),
     _f("User rides horses", "horses", "hobby"), DROP),
    # the past is not the present …
    ("i used to live in porto back when i was a student", (),
     _f("User lives in Porto", "porto", "lives_in"), DROP),
    ("i used to live in porto back when i was a student", (),
     _f("User used to live in Porto", "porto", "lived_in"), KEEP),
    ("mum used to bake bread every sunday when we were little", (),
     _f("User's mum bakes bread every sunday", "bread", "bakes"), DROP),
    # … and a jest is no identity
    ("ran a half marathon once, i think im basically a pro athlete now 😂", (),
     _f("User is a pro athlete", "pro athlete", "identity"), DROP),
    # someone named by the person does what the clause says, not the person
    ("maria is moving to berlin for her new job 😭", ("User's friend is Maria",),
     _f("User is moving to berlin", "berlin", "moving_to"), DROP),
    ("were moving to bristol bc dan got a job at the hospital", ("User's husband is Dan",),
     _f("User got a job at the hospital", "hospital", "works_at"), DROP),
    ("were moving to bristol bc dan got a job at the hospital", ("User's husband is Dan",),
     _f("User is moving to bristol", "bristol", "moving_to"), KEEP),
    # a fact naming the person by their name is one of the person's
    ("im ana btw, nurse at st marys. my son loves cats", (),
     _f("Ana is a nurse at st marys", "st marys", "works_at", "ana"), KEEP),
    ("im ana btw, nurse at st marys. my son loves cats", (),
     _f("Ana likes cats", "cats", "likes", "ana"), DROP),
    # a pursuit beside a wish is the person's, the wish come true is not
    ("started guitar lessons!! i wanna play at my brothers wedding", (),
     _f("User is learning guitar", "guitar", "learning"), KEEP),
    ("i wanna learn guitar someday", (), _f("User is learning guitar", "guitar", "learning"),
     DROP),
]  # fmt: skip

HELD_OUT = [
    ("my cousins wife nora just had a baby!!", (),
     _f("Nora is the user's wife", "nora", "wife"), DROP),
    ("nora and me have been besties since school", (),
     _f("Nora is the user's friend", "nora", "friend"), KEEP),
    ("pickle chewed through the charger again 🙄", ("User has a cat named Pickle",),
     _f("Pickle is the user's friend", "pickle", "friend"), DROP),
    ("our son leo plays football every saturday", (),
     _f("User plays football", "football", "hobby"), DROP),
    ("tried surfing last summer in portugal, total disaster", (),
     _f("User surfs", "surfing", "hobby"), DROP),
    ("i surf most weekends, got a new board", (), _f("User surfs", "surfing", "hobby"), KEEP),
    ("i grew up in cork but ive been in dublin 10 yrs", (),
     _f("User lives in Dublin", "dublin", "lives_in"), KEEP),
    ("back in college i played in a band", (),
     _f("User plays in a band", "band", "hobby"), DROP),
    ("i think im a natural at this cooking thing lol, made pasta from scratch", (),
     _f("User is a natural cook", "natural cook", "identity"), DROP),
    ("ive been a nurse for 8 years", (), _f("User is a nurse", "nurse", "job"), KEEP),
    ("tims band played at the pub last night, they were class", (),
     _f("User plays in a band", "band", "hobby"), DROP),
    ("my flatmate jo is vegan so dinners are interesting", (),
     _f("User is vegan", "vegan", "diet"), DROP),
    ("ellie (my sister) just moved to leeds", (),
     _f("Ellie is the user's sister", "ellie", "sister"), KEEP),
    ("had a trial shift at a cafe yesterday, so tired", (),
     _f("User works as a barista", "barista", "job"), DROP),
]  # fmt: skip


def _verdict(said: str, stored: tuple[str, ...], fact: PlanFact) -> str:
    return ground(fact, Said(NOW, (said,), (), stored)).verdict


@pytest.mark.parametrize(("said", "stored", "fact", "expected"), TUNED)
def test_a_claim_stands_on_whose_it_is_and_how_it_was_said(
    said: str, stored: tuple[str, ...], fact: PlanFact, expected: tuple[str, ...]
) -> None:
    assert _verdict(said, stored, fact) in expected


def test_the_held_out_sentences() -> None:
    """Never tuned on: the figure is what it is (each miss printed). It must not fall below
    what was first measured (see bench/RESULTS.md, block ``invent-wt8``)."""
    misses = [r[0] for r in HELD_OUT if _verdict(*r[:3]) not in r[3]]
    print(f"held-out sentences: {len(HELD_OUT) - len(misses)}/{len(HELD_OUT)} right", misses)
    assert len(misses) <= HELD_OUT_MISSES, misses


HELD_OUT_MISSES = 1  # first measured: 13/14 ("my cousins wife nora": "my" reaches the wife)
