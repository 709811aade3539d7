"""Claim-level grounding (issue 27 §3, :mod:`services.memory_upserter.commit.claims`): a fact's
claim — a habit, an identity, a relation, a like, a state — must be how the person said it, not
only share their words. Each rule as a pair on sentences of its own (none from a fixture): the
invented reading is kept out, the fair one kept."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.plan import PlanFact
from services.memory_upserter.commit.claims import claim_words
from services.memory_upserter.commit.grounding import Said, ground

NOW = datetime(2026, 5, 12, 18, 0, tzinfo=UTC)


def _user(predicate: str, value: str, text: str) -> PlanFact:
    return PlanFact(memory_type="PROFILE", predicate=predicate, value=value, text=text)


def _people(predicate: str, value: str, text: str) -> PlanFact:
    return PlanFact(memory_type="PEOPLE", predicate=predicate, value=value, text=text)


# (said this turn, said earlier, the reply, fact, expected verdict)
ROWS = [
    # the reply's own suggestion is not the person's fact …
    ("i can ride 3x a week, tue thu sun", (), "Nice! Let's make Sunday your long ride day 🚴",
     _user("long_ride", "sunday", "User does long rides on sunday"), "dropped"),
    # … what the person said is, whatever the reply says
    ("my long rides are on sundays", (), "Let's keep Sunday your long ride day 🚴",
     _user("long_ride", "sunday", "User does long rides on sunday"), "kept"),
    ("physio appt thursday at 5", (), "Got it, I'll add the physio appointment Thursday at 5",
     _user("appointment", "thursday", "User has a physio appointment on thursday"), "kept"),
    # a hedge on the claim, though the person named its someone firmly
    ("my aunt rosa just moved to faro!! i might visit her in march idk", (), "",
     _user("trip", "rosa", "User is visiting rosa in march"), "hedged"),
    ("my aunt rosa just moved to faro!! visiting her in march, flights booked", (), "",
     _user("trip", "rosa", "User is visiting rosa in march"), "kept"),
    # someone else's wish for the person is no fact of theirs: said of her ("she wants me…")
    ("mara called about the wedding, she wants me to give a speech", (), "",
     _user("speech", "speech", "User is giving a speech at mara's wedding"), "dropped"),
    ("mara called about the wedding, im giving a speech!!", (), "",
     _user("speech", "speech", "User is giving a speech at mara's wedding"), "kept"),
    # a state to come, a hope, a readiness: never a current state or job
    ("it'll be hard as a first-time dad but we're excited", (), "",
     _user("status", "dad", "User is a dad"), "hedged"),
    ("became a dad last night!! a baby boy", (), "", _user("status", "dad", "User is a dad"),
     "kept"),
    ("im keen on nursing, would love to work in a hospital", (), "",
     _user("job", "nursing", "User works in nursing"), "hedged"),
    ("ive worked in nursing for six years", (), "",
     _user("job", "nursing", "User works in nursing"), "kept"),
    ("finally ready to be a mom, we start the adoption paperwork soon", (), "",
     _user("role", "mom", "User is a mom"), "hedged"),
    # a relation to the person needs a word of it, or their own framing
    ("lena from work just got a puppy", (), "",
     _people("friend_of", "lena", "Lena is the user's friend"), "dropped"),
    ("my friend lena just got a puppy", (), "",
     _people("friend_of", "lena", "Lena is the user's friend"), "kept"),
    ("lena from work just got a puppy", (), "",
     _people("colleague_of", "lena", "Lena is the user's colleague"), "kept"),
    ("i report to tomas from june", (), "",
     _people("manager", "tomas", "Tomas is the user's manager"), "kept"),
    # never said: a plan held strictly (these rows: :mod:`.shape`) needs the relation's word;
    # one held to the conversation keeps it lowered (test_shape_trust.py)
    ("tomas is one today!", (), "", _people("son", "tomas", "Tomas is the user's son"),
     "dropped"),
    # a habit needs how often, or a habitual way of saying it
    ("need to renew my pool pass this week", (), "",
     _user("hobby", "pool", "User goes to the pool regularly"), "dropped"),
    ("i go to the pool 3x a week", (), "",
     _user("hobby", "pool", "User goes to the pool regularly"), "kept"),
    ("switching to mon wed fri swims from next week", (), "",
     _user("swim_schedule", "mon wed fri", "User swims on Monday, Wednesday and Friday"),
     "kept"),
    # a one-off is no habit, and no identity
    ("went bouldering once with my cousin, so fun", (), "",
     _user("hobby", "bouldering", "User goes bouldering every week"), "dropped"),
    ("went running once last year lol", (), "", _user("identity", "runner", "User is a runner"),
     "dropped"),
    ("took up running last month, loving it", (), "",
     _user("identity", "runner", "User is a runner"), "kept"),
    # a like needs a liking word where the liked thing is said
    ("my sister does ceramics. what glaze should she use?", ("i love a slow sunday",), "",
     _user("likes", "ceramics", "User likes ceramics"), "dropped"),
    ("ceramics class tonight, i love it", (), "", _user("likes", "ceramics", "User likes ceramics"),
     "kept"),
    ("oolong is great too", (), "", _user("likes", "oolong", "User likes oolong"), "kept"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "earlier", "reply", "fact", "expected"), ROWS)
def test_a_claim_is_kept_only_as_the_person_said_it(
    said: str, earlier: tuple[str, ...], reply: str, fact: PlanFact, expected: str
) -> None:
    found = ground(fact, Said(NOW, (said,), earlier, (), reply))
    assert found.verdict == expected, found.reason


def test_a_claim_is_the_text_after_the_user_up_to_the_first_preposition() -> None:
    assert claim_words(_user("trip", "rosa", "User is visiting rosa in march")) == ["visiting"]
    assert claim_words(_user("status", "single parent", "User is a single parent")) == [
        "single",
        "parent",
    ]
    assert claim_words(_people("friend_of", "lena", "Lena is the user's friend")) == []


def test_both_sides_measured_on_these_sentences() -> None:
    """The pairs above, counted as the replay counts them: no fair reading dropped, no invented
    one kept (a lowered fact is kept)."""
    fair = [r for r in ROWS if r[4] in ("kept", "lowered")]
    invented = [r for r in ROWS if r[4] in ("dropped", "hedged")]
    verdicts = {id(r): ground(r[3], Said(NOW, (r[0],), r[1], (), r[2])).verdict for r in ROWS}
    assert not [r[0] for r in fair if verdicts[id(r)] in ("dropped", "hedged")]
    assert not [r[0] for r in invented if verdicts[id(r)] in ("kept", "lowered")]
