"""Issue 31, item 8: no entity ref and no turn id ever enters a fact's text ("person:marta
lives in Lisbon (turn Crasha-135" was stored as a fact)."""

from __future__ import annotations

import httpx
import pytest

from services.core.deps import Clients
from services.memory_upserter.commit.fact_text import plain_fact_text
from tests.memory_upserter.conftest import commit, fact, rows, turn

MARTA = [("person:marta", "Marta"), ("person:marta_silva", "Marta Silva")]


@pytest.mark.pure
@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("person:marta lives in Lisbon (turn Crasha-135", "Marta lives in Lisbon"),
        ("person:marta_silva works at the port [turn: t-12]", "Marta Silva works at the port"),
        ("self:user likes green tea (turn 42)", "the user likes green tea"),
        (
            "Lunch with person:marta at 12:30 (http://x.example)",
            "Lunch with Marta at 12:30 (http://x.example)",
        ),
        (
            "We turn 30 in May (turn left at the bakery)",
            "We turn 30 in May (turn left at the bakery)",
        ),
        ("person:martha is someone else", "person:martha is someone else"),  # not a ref written
    ],
)
def test_a_fact_text_reads_refs_as_names_and_drops_turn_notes(given: str, stored: str) -> None:
    assert plain_fact_text(given, MARTA) == stored


async def test_a_plan_fact_naming_a_ref_and_a_turn_is_stored_in_plain_words(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    plan = {
        "entities": [{"name": "Marta", "category": "Person"}],
        "facts": [
            fact(
                "LIVES_IN",
                "person:marta lives in Lisbon (turn Crasha-135",
                subject="Marta",
                value="Lisbon",
                memory_type="PEOPLE",
            )
        ],
    }
    await commit(client, turn(user_id, "My sister Marta lives in Lisbon.", plan=plan))
    facts = await rows(resources, "SELECT text FROM relations WHERE user_id = $1", user_id)
    assert [f["text"] for f in facts] == ["Marta lives in Lisbon"]
