"""A correction a turn later succeeds what was just said, whatever its predicate.

"mon wed sat" then "wait no, wed doesnt work… make it tue instead": a model that sees no
handle (a persona's own notes are not in its prompt) or never names one writes the new fact
alone. Only the vocabulary's exclusive predicates (lives_in, works_at…) share a memory key, so
for any other ("run_days", "gym_schedule") the old fact stayed current beside the new one.

In a turn that corrects (:data:`.spoken.CORRECTION`: "wait no", "actually", "not 4x"), a plan
fact that names no handle succeeds the person's live fact of the same subject, predicate and
scope written in the week before the turn (what was said lately) when the words the old fact
has and the new one lacks are said in this turn's message ("wed", "4x"): the correction names
what it takes back. "actually i also like tea" takes back nothing ("coffee" is not said):
both stay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from services.core.deps import Connection
from services.core.memory_store.fact_ops import FactWrite
from services.memory_upserter.commit.grounding import bag_of, stem
from services.memory_upserter.commit.spoken import CORRECTION
from services.memory_upserter.commit.turn import TurnPlan
from services.memory_upserter.text import STOP_WORDS

# The person's live facts of one subject and predicate in one scope, just written, newest first.
JUST_SAID = """
SELECT r.rel_id, r.text
  FROM relations r
 WHERE r.user_id = $1 AND r.subject_id = $2 AND r.predicate = $3 AND r.scope = $4
   AND r.agent_id IS NOT DISTINCT FROM $5 AND r.status = 'ACTIVE'
   AND r.memory_key IS DISTINCT FROM $6
   AND (r.valid_to IS NULL OR r.valid_to > $7)
   AND r.created_at > $7 - interval '7 days'
 ORDER BY r.created_at DESC
"""


def _content(text: str) -> set[str]:
    """Its words as grounding meets them: a form ("fridays") or a short name ("fri") alike."""
    return {stem(w) for w in bag_of([text]) if w not in STOP_WORDS}


def takes_back(old: str, new: str, message: str) -> bool:
    """Whether the message names what ``old`` says and ``new`` does not."""
    lost = _content(old) - _content(new)
    return bool(lost & _content(message))


async def corrected(
    conn: Connection, plan: TurnPlan, writes: Sequence[FactWrite]
) -> list[FactWrite]:
    """The writes, each one a correction succeeds given the fact it takes back."""
    said = [r.text for r in plan.turn.user_rows]
    if not any(CORRECTION.search(text) for text in said):
        return list(writes)
    message = " ".join(said)
    out = []
    for w in writes:
        if w.replaces is None:
            rows = await conn.fetch(
                JUST_SAID, plan.turn.req.user_id, w.subject_entity_id, w.predicate, w.scope,
                w.agent_id, w.memory_key, plan.turn.now,
            )  # fmt: skip
            old = next((r["rel_id"] for r in rows if takes_back(r["text"], w.text, message)), None)
            w = replace(w, replaces=old) if old is not None else w
        out.append(w)
    return out
