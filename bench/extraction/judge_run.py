"""The offline judge on single messages and on LoCoMo turns, in process (it is pure code)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bench.extraction.corpus import Fact, Message, Tally, score
from services.core.memory_store import canonical_predicate
from services.memory_upserter.commit.read import fold
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday: the corpus's clock
_ROOT = Path(__file__).resolve().parents[2]
_CANDIDATES = [
    up / "shared" / "bench" / "locomo" / "locomo-dev.json"
    for up in (_ROOT.parent, _ROOT.parent.parent)
]  # beside the repo or its worktree
LOCOMO = Path(
    os.environ.get("TWIN_LOCOMO") or next((c for c in _CANDIDATES if c.exists()), _CANDIDATES[0])
)
_STOP = frozenset(
    """about after again also always been before being could does doing down
during each from have having here into just more most much only other over same should some
such than that their them then there these they this those through very what when where which
while with would your yours really things thing feel feels felt make made like love want""".split()
)


def written_facts(
    text: str,
    speaker: str | None = None,
    *,
    plan_extras: bool = False,
    asked: str | None = None,
) -> list[Fact]:
    """The facts the judge writes for one message (after ``asked``, the question just asked);
    with ``plan_extras`` also its todos (``TODO``), forget targets (``FORGET``) and a
    completion (``DONE``)."""
    plan = extract([Utterance(text, speaker)], now=NOW, asked=asked)
    out = []
    if plan_extras:
        out += [Fact("user", "TODO", (fold(t.text),)) for t in plan.todos]
        out += [Fact("user", "FORGET", (fold(f),)) for f in plan.forget]
        if plan.complete_commitment or plan.done:
            out.append(Fact("user", "DONE", ("yes",)))
    for f in plan.facts:
        value = f.object if f.object is not None else f.value or ""
        out.append(
            Fact(
                fold(f.subject),
                canonical_predicate(f.predicate),  # as the write path stores it
                (fold(value),),
                f.valid_from[:10] if f.valid_from else None,
                f.valid_to[:10] if f.valid_to else None,
            )
        )
    return out


def run_messages(
    messages: Sequence[Message], *, plan_extras: bool = False
) -> tuple[list[Tally], list[float]]:
    """Each message scored, and the judge's time per message (ms)."""
    tallies, times = [], []
    for m in messages:
        start = time.perf_counter()
        facts = written_facts(m.text, plan_extras=plan_extras, asked=m.asked)
        times.append((time.perf_counter() - start) * 1000)
        tallies.append(score(m, facts))
    return tallies, times


def content(text: str, names: set[str]) -> set[str]:
    return {
        w[:6]
        for w in re.findall(r"[a-z0-9]+", fold(text))
        if len(w) >= 4 and w not in _STOP and w not in names
    }


def locomo_coverage(path: Path = LOCOMO) -> dict[str, float | int]:
    """The share of reference observations whose evidence turn produced a fact sharing a
    content word (4+ letters, names and common words aside, 6-letter stems) with it; and the
    share of turns that wrote any fact."""
    data = json.loads(path.read_text())
    turns = with_fact = observations = covered = 0
    for sample in data:
        conv = sample["conversation"]
        names = {fold(conv["speaker_a"]), fold(conv["speaker_b"])}
        facts: dict[str, set[str]] = {}
        for key, session in conv.items():
            if not re.fullmatch(r"session_\d+", key):
                continue
            for turn in session:
                text = turn["text"] + (
                    f" [shares a photo: {turn['blip_caption']}]" if turn.get("blip_caption") else ""
                )
                plan = extract([Utterance(text, turn["speaker"])], now=NOW)
                turns += 1
                with_fact += bool(plan.facts)
                facts[turn["dia_id"]] = set().union(
                    *(
                        content(f"{f.text} {f.value or ''} {f.object or ''}", names)
                        for f in plan.facts
                    )
                )
        for session in sample["observation"].values():
            for items in session.values():
                for text, evidence in items:
                    ids = evidence if isinstance(evidence, list) else [evidence]
                    observations += 1
                    wanted = content(text, names)
                    covered += any(wanted & facts.get(i, set()) for i in ids)
    return {
        "observations": observations,
        "covered": covered,
        "coverage": covered / observations if observations else 0.0,
        "turns": turns,
        "turns_with_fact": with_fact,
        "turn_share": with_fact / turns if turns else 0.0,
    }
