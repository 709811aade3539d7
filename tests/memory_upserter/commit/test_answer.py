"""The answer to a which-question (003 §10): whom a short reply picks, and what it stores."""

from __future__ import annotations

import pytest

from services.core.which import which_question
from services.memory_upserter.commit.answer import answer
from services.memory_upserter.extract.people import Known

pytestmark = pytest.mark.pure

SISTER = Known("Marta", "person:marta", ("HAS_SISTER",), entity_id="a")
SILVA = Known("Marta Silva", "person:marta_silva", ("HAS_COLLEAGUE",), entity_id="b")
QUESTION = which_question("Marta", ["Marta (sister)", "Marta Silva (colleague)"])
OPEN = [(QUESTION, ("m1",))]


@pytest.mark.parametrize(
    ("reply", "who", "alias"),
    [
        ("the work one", SILVA, "work Marta"),
        ("my sister", SISTER, "sister Marta"),
        ("Marta Silva", SILVA, None),
        ("the colleague", SILVA, "colleague Marta"),
        ("the second one", SILVA, None),
        ("family", SISTER, "family Marta"),
    ],
)
def test_a_short_answer_picks_one_and_names_the_alias(
    reply: str, who: Known, alias: str | None
) -> None:
    got = answer(OPEN, [SISTER, SILVA], reply)
    assert got is not None and (got.chosen, got.alias) == (who, alias)
    assert got.waiting == ("m1",) and got.closes == (QUESTION,)
    assert got.others == tuple(k.entity_id for k in (SISTER, SILVA) if k is not who)


@pytest.mark.parametrize(
    "reply", ["ok", "marta", "what a day, I went to the market with my friends and then home"]
)
def test_no_answer_leaves_the_question_open(reply: str) -> None:
    assert answer(OPEN, [SISTER, SILVA], reply) is None
