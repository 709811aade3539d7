"""A plan's trust from its own shape (:mod:`services.memory_upserter.commit.shape`): an answer
strict decoding could have written is held to the conversation, one that needed the lenient
reader is held strictly. Sentences of their own (none from a fixture)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import msgspec

from contracts.plan import LLMAnswer, PlanFact
from services.memory_upserter.commit.grounding import Said, ground
from services.memory_upserter.commit.shape import conforms, trust_of

NOW = datetime(2026, 5, 12, 18, 0, tzinfo=UTC)


def _complete(**fact: Any) -> dict[str, Any]:
    """An answer as strict decoding writes it: every field, null/[]/false where nothing."""
    plan = msgspec.to_builtins(LLMAnswer(reply="ok").plan)
    full = msgspec.to_builtins(PlanFact(memory_type="PROFILE", predicate="p", text="t", **fact))
    full = {k: full.get(k) for k in _fact_fields()}
    return {"reply": "ok", "plan": {**plan, "facts": [full]}}


def _fact_fields() -> list[str]:
    from services.envelope_validator.answer_format import response_format

    schema = response_format().json_schema.schema
    return list(schema["properties"]["plan"]["properties"]["facts"]["items"]["properties"])


def test_an_answer_strict_decoding_could_write_is_held_to_the_session() -> None:
    answer = _complete(value="Lisbon")
    assert conforms(json.dumps(answer))
    assert trust_of(json.dumps(answer)) == "session"
    assert trust_of(None, answer["plan"]) == "session"  # a plan the flow sent as an object


def test_an_answer_that_needed_the_lenient_reader_is_held_strictly() -> None:
    answer = _complete(value="Lisbon")
    fenced = f"```json\n{json.dumps(answer)}\n```"
    missing = json.loads(json.dumps(answer))
    del missing["plan"]["facts"][0]["valid_to"]
    upper = json.loads(json.dumps(answer))
    upper["plan"]["facts"][0]["memory_type"] = "PERSONAL"
    extra = json.loads(json.dumps(answer))
    extra["plan"]["facts"][0]["status"] = "done"
    loose = {"reply": "ok", "facts": answer["plan"]["facts"]}
    for raw in (fenced, json.dumps(missing), json.dumps(upper), json.dumps(extra)):
        assert trust_of(raw) == "strict", raw[:80]
    assert trust_of(json.dumps(loose)) == "strict"
    assert trust_of(json.dumps({"reply": "ok"})) == "strict"  # no plan: strict mode writes one
    assert trust_of("Here is the JSON: " + json.dumps(answer)) == "strict"
    assert trust_of(None, None) == "strict"


def _said(this_turn: str, trust: str, earlier: tuple[str, ...] = ()) -> Said:
    return Said(NOW, (this_turn,), earlier, trust=trust)  # type: ignore[arg-type]


def test_someone_elses_clause_drops_a_fact_held_strictly_and_lowers_one_in_shape() -> None:
    # the person tells of their dog; "he" is the dog, the fact is the dog's and fair
    said = "we got a rescue greyhound, hes called rocket. he was adopted from a shelter in leeds"
    fact = PlanFact(
        memory_type="PEOPLE",
        subject="Rocket",
        predicate="adopted_from",
        value="a shelter in Leeds",
        text="User adopted Rocket from a shelter in Leeds",
    )
    assert ground(fact, _said(said, "session")).verdict == "lowered"
    assert ground(fact, _said(said, "strict")).verdict == "dropped"


def test_a_relation_never_said_is_unsure_for_the_session_and_dropped_when_strict() -> None:
    said = "off to a gig tonight with farid, cant wait"
    fact = PlanFact(
        memory_type="PEOPLE",
        predicate="partner",
        value="Farid",
        text="Farid is the user's partner",
    )
    assert ground(fact, _said(said, "strict")).verdict == "dropped"
    assert ground(fact, _said(said, "session")).verdict == "lowered"


def test_a_value_the_model_normalised_rests_on_the_facts_own_words_in_shape() -> None:
    fact = PlanFact(
        memory_type="PROFILE",
        predicate="occupation",
        value="professional baker",
        text="User makes a living from baking sourdough",
    )
    said = "the sourdough stall pays the rent now, i make a living baking!!"
    assert ground(fact, _said(said, "session")).verdict == "kept"
    assert ground(fact, _said(said, "strict")).verdict == "dropped"


def test_a_hedge_is_kept_out_whatever_the_shape() -> None:
    fact = PlanFact(
        memory_type="PROFILE", predicate="works_at", value="Zalando", text="User works at Zalando"
    )
    for trust in ("session", "strict"):
        said = _said("i think im taking the zalando offer, maybe", trust)
        assert ground(fact, said).verdict == "hedged", trust


def test_a_liking_without_its_words_is_dropped_strictly_and_lowered_in_shape() -> None:
    fact = PlanFact(
        memory_type="PROFILE", predicate="likes", value="quizzes", text="User likes quizzes"
    )
    said = "pub quiz time with the team tonight"
    assert ground(fact, _said(said, "strict")).verdict == "dropped"
    assert ground(fact, _said(said, "session")).verdict == "lowered"


def test_a_thing_said_only_as_what_is_not_is_no_fact_of_it() -> None:
    gigs = PlanFact(
        memory_type="PROFILE", predicate="hobby", value="gigs", text="User goes to gigs"
    )
    said = "stuck at the office till friday so no gigs for me this week"
    assert ground(gigs, _said(said, "strict")).verdict == "dropped"
    assert ground(gigs, _said(said, "session")).verdict == "lowered"
    plain = "cant wait for the gigs on friday, no joke"  # a negator elsewhere is none
    assert ground(gigs, _said(plain, "strict")).verdict == "kept"
    nuts = PlanFact(
        memory_type="PROFILE", predicate="allergy", value="nuts", text="User is allergic to nuts"
    )
    assert ground(nuts, _said("no nuts for me, allergic", "strict")).verdict == "kept"
