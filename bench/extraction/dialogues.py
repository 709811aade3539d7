"""The multi-turn dialogues through the product: each turn one ``POST /v1/commit`` with no plan
(the offline judge decides), one user per dialogue, the turn's ``now`` its day; then what
memory holds is read back from Postgres (facts true at a time, people of a name, todos).

Checks per dialogue: facts current (and absent) at the end and at earlier times (as-of), the
number of people of a name, todos completed or still pending, and whether the product asked.
Entity resolution: each labelled mention (turn, name, who it really is) is linked to the
entity the turn's commit wrote for that name; over every pair of mentions of one dialogue, a
pair the product kept apart that are one person is a split (recall), a pair it merged that are
two people is a merge (precision); pairs of two people kept apart are counted too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations

import asyncpg
import httpx

from bench.extraction.corpus import parse_fact
from bench.extraction.judge_run import NOW
from services.memory_upserter.commit.read import fold

FACTS_AT = """
SELECT CASE WHEN s.entity_ref = 'self:user' THEN 'user' ELSE s.name END AS subject,
       r.predicate, COALESCE(o.name, r.object_value #>> '{}') AS value
  FROM relations r
  JOIN entities s ON s.user_id = r.user_id AND s.entity_id = r.subject_id
  LEFT JOIN entities o ON o.user_id = r.user_id AND o.entity_id = r.object_id
 WHERE r.user_id = $1 AND r.status IN ('ACTIVE', 'SUPERSEDED')
   AND (r.valid_from IS NULL OR r.valid_from <= $2) AND (r.valid_to IS NULL OR r.valid_to > $2)
"""


@dataclass
class DialogueResult:
    id: str
    category: str
    held_out: bool
    checks: int = 0
    passed: int = 0
    failures: list[str] = field(default_factory=list)
    pairs: dict[str, int] = field(default_factory=lambda: {"tp": 0, "fp": 0, "fn": 0, "tn": 0})

    def check(self, ok: bool, what: str) -> None:
        self.checks += 1
        self.passed += ok
        if not ok:
            self.failures.append(what)


def at(day: float) -> datetime:
    return NOW + timedelta(days=day)


async def run_dialogue(
    client: httpx.AsyncClient, url: str, pool: asyncpg.Pool, d: dict, run: str
) -> DialogueResult:
    user = f"bench-x:{run}:{d['id']}"
    answers = []
    for i, t in enumerate(d["turns"]):
        message = {"role": "user", "text": t["text"]}
        if t.get("speaker"):
            message["speaker"] = t["speaker"]
        response = await client.post(
            f"{url}/v1/commit",
            json={
                "user_id": user,
                "agent_id": "bench",
                "chat_id": "x",
                "turn_id": f"{run}:{i}",
                "messages": [message, {"role": "assistant", "text": "ok"}],
                "now": at(t["day"]).isoformat(),
            },
        )
        response.raise_for_status()
        answers.append(response.json())
    out = DialogueResult(d["id"], d["category"], d["held_out"])
    end = at(max(t["day"] for t in d["turns"]) + 0.5)
    async with pool.acquire() as conn:
        for when, current, absent in [
            (end, d.get("current", []), d.get("absent", [])),
            *(
                (at(a["day"]), a.get("current", []), a.get("absent", []))
                for a in d.get("as_of", [])
            ),
        ]:
            true = {
                (fold(r["subject"]), r["predicate"], fold(str(r["value"])))
                for r in await conn.fetch(FACTS_AT, user, when)
            }
            for label in current:
                f = parse_fact(label)
                out.check(
                    any((f.subject, f.predicate, v) in true for v in f.values),
                    f"not current at {when:%Y-%m-%d}: {label}",
                )
            for label in absent:
                f = parse_fact(label)
                out.check(
                    not any((f.subject, f.predicate, v) in true for v in f.values),
                    f"still current at {when:%Y-%m-%d}: {label}",
                )
        for name, count in d.get("people", {}).items():
            n = await conn.fetchval(
                "SELECT count(*) FROM entities WHERE user_id = $1 AND "
                "active AND name_normalized = $2",
                user,
                fold(name),
            )
            out.check(n == count, f"{n} entities named {name}, not {count}")
        todos = {
            r["text"]: r["status"]
            for r in await conn.fetch("SELECT text, status FROM todos WHERE user_id = $1", user)
        }
        for text in d.get("completed", []):
            out.check(todos.get(text) == "DONE", f"not completed: {text} ({todos})")
        for text in d.get("pending", []):
            out.check(todos.get(text) == "PENDING", f"not pending: {text} ({todos})")
    if "asks" in d:
        asked = any(
            w["code"] in ("entity_ambiguous", "commitment_not_completed")
            for a in answers
            for w in a["warnings"]
        )
        out.check(asked == d["asks"], "asked" if asked else "did not ask")
    _resolution(d, answers, out)
    return out


def _resolution(d: dict, answers: list[dict], out: DialogueResult) -> None:
    linked = []
    for turn, name, who in d.get("mentions", []):
        ids = [e["entity_id"] for e in answers[turn]["entities"] if fold(e["name"]) == fold(name)]
        if ids:
            linked.append((ids[0], who))
        else:
            out.failures.append(f"turn {turn} linked no {name}")
    for (a, who_a), (b, who_b) in combinations(linked, 2):
        same_gold, same_pred = who_a == who_b, a == b
        if same_gold and same_pred:
            out.pairs["tp"] += 1
        elif same_pred:
            out.pairs["fp"] += 1
        elif same_gold:
            out.pairs["fn"] += 1
        else:
            out.pairs["tn"] += 1
