"""Issue 31, item 8: zero-width and bidi characters never reach an entity's name, alias or ref."""

from __future__ import annotations

import httpx
import pytest

from services.core.deps import Clients
from services.core.memory_store.shapes import EntityWrite
from services.core.text import visible
from services.memory_upserter.text import fold
from tests.memory_upserter.conftest import commit, fact, rows, turn

HIDDEN = "".join(map(chr, [*range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065)]))
HIDDEN += "\ufeff"


@pytest.mark.pure
def test_every_listed_character_is_dropped_and_nothing_else() -> None:
    assert visible(f"Ma{HIDDEN}rta") == "Marta"
    assert visible("Zoë 👩‍💻"[:3]) == "Zoë"
    assert visible("São Paulo\u00a0") == "São Paulo\u00a0"  # visible characters stay
    assert fold("Mar\u200dta  Silva\ufeff") == "marta silva"


@pytest.mark.pure
def test_an_entity_write_holds_its_name_aliases_and_ref_visible() -> None:
    write = EntityWrite("Mar\u200dta", aliases=("\u202eMartinha",), ref="person:mar\u200bta")
    assert (write.name, write.aliases, write.ref) == ("Marta", ("Martinha",), "person:marta")
    assert EntityWrite("\u200b").name == "\u200b"  # nothing else: kept, a name is never empty


async def test_a_hidden_character_names_the_same_marta(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    said = [("Marta is my sister", "Marta"), ("Mar\u200dta is my sister", "Mar\u200dta")]
    for text, name in said:
        await commit(
            client,
            turn(
                user_id,
                text,
                plan={
                    "entities": [{"name": name, "aliases": [f"\u202e{name} S"]}],
                    "facts": [
                        fact(
                            "HAS_SISTER",
                            "Marta is the user's sister",
                            obj=name,
                            memory_type="PEOPLE",
                            fact_type="relationship",
                        )
                    ],
                },
            ),
        )
    people = await rows(
        resources,
        "SELECT e.name, array_agg(a.alias ORDER BY a.alias) AS aliases FROM entities e "
        "LEFT JOIN entity_aliases a ON a.entity_id = e.entity_id "
        "WHERE e.user_id = $1 AND e.name <> 'me' GROUP BY e.name",
        user_id,
    )
    assert [(p["name"], list(p["aliases"])) for p in people] == [("Marta", ["Marta S"])]
