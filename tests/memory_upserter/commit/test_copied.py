"""A plan fact whose text copies the person's words is weighed as the claim it makes of them
(:mod:`.copied`; the blind v8 set's small model: "i think i might do the goethe b1 exam in
february", "i live in levenshulme")."""

from __future__ import annotations

from datetime import UTC, datetime

from contracts.plan import PlanFact
from services.memory_upserter.commit.copied import as_claim
from services.memory_upserter.commit.grounding import Said
from services.memory_upserter.commit.plan import weigh

NOW = datetime(2026, 12, 9, 7, 45, tzinfo=UTC)


def _fact(text: str, predicate: str = "note", value: str | None = None) -> PlanFact:
    return PlanFact(memory_type="PROFILE", predicate=predicate, value=value, text=text)


def test_first_person_words_are_read_as_the_persons() -> None:
    said = ("i think i might do the goethe b1 exam in february",)
    assert as_claim(_fact(said[0])).text == (
        "User think User might do the goethe b1 exam in february"
    )
    assert as_claim(_fact("im vegetarian")).text == "User is vegetarian"


def test_a_copy_is_weighed_and_kept_as_the_model_wrote_it() -> None:
    """A hedged copy is dropped as hedged (its "i think" is the person's, not the fact's); a
    fair copy is kept, its text as written."""
    said = Said(NOW, ("i think i might do the goethe b1 exam in february but idk yet",))
    kept, notes = weigh([_fact("i think i might do the goethe b1 exam in february")], said)
    assert kept == [] and notes[0].code == "fact_hedged"
    home = _fact("i live in levenshulme (manchester)", "lives_in", "levenshulme")
    kept, _ = weigh([home], Said(NOW, ("i live in levenshulme (manchester) and work at boots",)))
    assert [f.text for f in kept] == ["i live in levenshulme (manchester)"]


def test_a_statement_is_as_it_was_written() -> None:
    for text in (
        "User ran 8k before work this morning",
        "lina starts daycare next monday",  # no first person: maybe someone's name first
        'User\'s coach says "I want you rested on sundays"',  # a quote
        "Sundays are for the long run",  # capitalised: a statement, whatever its words
    ):
        assert as_claim(_fact(text)).text == text, text
