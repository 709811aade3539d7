"""The offline judge on how people type: lowercase, run-ons, a fact and a question in one
message, corrections, endings, life events, forgetting, and no fragments; and its work stays
linear in the message length."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract import assertion
from services.memory_upserter.extract.extractor import Utterance, extract
from services.memory_upserter.extract.people import Known

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def plan_of(text: str, **kw):
    return extract([Utterance(text)], now=NOW, **kw)


def facts_of(text: str, **kw) -> set[tuple]:
    return {(f.subject, f.predicate, f.object or f.value) for f in plan_of(text, **kw).facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "i live in lisbon btw, any good ramen places near alfama?",
            ("user", "LIVES_IN", "Lisbon"),
        ),
        ("im a nurse, night shifts are killing me 😴", ("user", "JOB_TITLE", "nurse")),
        ("my sister marta lives in porto", ("Marta", "LIVES_IN", "Porto")),
        ("i have a dog named max", ("user", "HAS_PET", "Max")),
        ("ive been vegetarian since 2019", ("user", "DIET", "vegetarian")),
        ("im allergic to gluten, is spelt ok?", ("user", "ALLERGY", "gluten")),
        ("my partner is pregnant!!! 😭❤️", ("user", "EXPECTING", "baby")),
        ("i lost my job last month", ("user", "JOB_STATUS", "unemployed")),
        ("my dad passed away two days ago", ("Dad", "DECEASED", "passed away")),
        ("That's wrong, I'm only allergic to peanuts", ("user", "ALLERGY", "peanuts")),
        (
            "i love going on road trips with friends and family",
            ("user", "LIKES", "road trips with friends and family"),
        ),
        ("eu moro em lisboa", ("user", "LIVES_IN", "Lisboa")),
    ],
)
def test_typed_statements_are_written(text: str, expected: tuple) -> None:
    assert expected in facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "Max is my mother's cat",
        "i love your commitment haha",
        "i love that idea!",
        "if i had a dog id call him bruno",
        "i used to work at ibm",
        "whats my sisters name again?",
        "você sabe onde eu moro?",
    ],
)
def test_what_is_not_the_persons_writes_nothing(text: str) -> None:
    assert facts_of(text) == set()


def test_a_known_name_is_recognised_in_lowercase() -> None:
    known = [Known("Marta Silva", "person:marta_silva", ("HAS_COLLEAGUE",))]
    plan = plan_of("my colleague marta silva moved to porto", known=known)
    assert any(f.predicate == "HAS_COLLEAGUE" for f in plan.facts)
    assert not any(e.name.lower() == "marta silva" and e.distinct_from for e in plan.entities)


def test_a_correction_ends_the_old_job_and_starts_the_new() -> None:
    plan = plan_of("wait no I left Acme in June, I'm at Globex now")
    jobs = {f.object: f for f in plan.facts if f.predicate == "WORKS_AT"}
    assert jobs["Acme"].valid_to is not None and jobs["Acme"].valid_to < NOW.isoformat()
    assert jobs["Globex"].valid_to is None


def test_no_longer_ends_what_was_said() -> None:
    (fact,) = plan_of("i no longer eat meat").facts
    assert (fact.predicate, fact.value, fact.valid_to) == ("EATS", "meat", NOW.isoformat())


def test_a_stay_holds_until_its_end() -> None:
    (fact,) = plan_of("I'm in Porto until Friday").facts
    assert fact.predicate == "STAYING_IN" and fact.valid_to and fact.valid_to > NOW.isoformat()


@pytest.mark.parametrize(
    "text, target",
    [
        ("Please forget that I told you about Marta Silva", "Marta Silva"),
        ("forget what i said about my ex pls", "my ex"),
        ("can you forget my address", "my address"),
    ],
)
def test_forget_from_the_conversation(text: str, target: str) -> None:
    plan = plan_of(text)
    assert plan.forget == [target] and plan.facts == [] and plan.todos == []


@pytest.mark.parametrize(
    "text", ["that trip reminds me to live life fully 🙏", "i'll never forget that day"]
)
def test_reminiscence_is_no_todo_and_no_forget(text: str) -> None:
    plan = plan_of(text)
    assert plan.todos == [] and plan.forget == []


@pytest.mark.parametrize("text", ["well done!", "nicely done, thanks", "im almost done with it"])
def test_praise_is_no_completion(text: str) -> None:
    assert not plan_of(text).complete_commitment


@pytest.mark.parametrize(
    "text",
    ["im almost done with the report", "not done with the report yet", "nearly finished the deck"],
)
def test_almost_done_names_no_todo_done(text: str) -> None:
    plan = plan_of(text)
    assert plan.done == [] and not plan.complete_commitment


def test_starting_a_job_is_the_job_fact_not_an_event() -> None:
    """Issue 28 §2: a one-off event only when it does not change the person's state."""
    plan = plan_of("started a new job at globex last month!! so nervous")
    assert [f.predicate for f in plan.facts] == ["WORKS_AT"]


def test_a_real_done_completes() -> None:
    assert plan_of("i called marta, so that's done").complete_commitment


def test_hedges_are_read_once_per_clause(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long repetitive message with no sentence end: the text the hedge check reads grows
    with the message, not with the message times its rule matches."""
    scanned: list[int] = []
    original = assertion.Hedges.__init__

    def counting(self: assertion.Hedges, text: str) -> None:
        scanned.append(len(text))
        original(self, text)

    monkeypatch.setattr(assertion.Hedges, "__init__", counting)
    unit = "i love going on road trips with my sister marta and i live in lisbon, "

    def work(repeats: int) -> int:
        scanned.clear()
        plan_of(unit * repeats)
        return sum(scanned)

    small, large = work(40), work(160)
    assert small > 0
    assert large <= 4 * small * 1.1  # four times the text: about four times the reading
    assert large <= 3 * len(unit * 160)


def test_my_colleague_by_first_name_is_the_known_one_said_in_full() -> None:
    """ "my colleague Marta" with Marta Silva known: her, and the relation keeps her full name
    (never rewritten as "Marta is the user's colleague")."""
    known = [Known("Marta Silva", "person:marta_silva", ("HAS_COLLEAGUE",))]
    plan = plan_of("my colleague marta is organising the offsite", known=known)
    (rel,) = [f for f in plan.facts if f.predicate == "HAS_COLLEAGUE"]
    assert rel.object == "person:marta_silva"
    assert rel.text == "Marta Silva is the user's colleague"
    assert not [e for e in plan.entities if e.distinct_from]
