"""Replay the recorded model answers against running nodes and print issue 27's table.

``TWIN_PORT_OFFSET=700 uv run twin up`` in one terminal (any database), then
``uv run python -m bench.model_loop.report [--offset 700] [--write]``: every conversation of
``tests/fixtures/model_loop`` for a fresh person, once per style; tuned vs held-out, careful vs
sloppy. ``--write`` puts the table into bench/RESULTS.md (section ``model-loop``).
"""

from __future__ import annotations

import argparse
import asyncio
import os

import httpx

from bench.common import NODE_PORTS, machine, machine_line, table, write_section
from bench.model_loop.replay import STYLES, STYLES_V2, Replay, conversations, replay, styles_of

COUNTS = (
    "turns",
    "refused",
    "lost",
    "questions",
    "fair",
    "fair_dropped",
    "invented",
    "invented_kept",
)


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "0/0"


def rows(runs: list[Replay]) -> list[list[object]]:
    out: list[list[object]] = []
    for split in ("tuned", "held-out"):
        for style in (*STYLES, *STYLES_V2):
            chosen = [r for r in runs if r.style == style and r.held_out == (split == "held-out")]
            if not chosen:
                continue
            n = {
                c: sum(len(r.turns) if c == "turns" else r.count(c) for r in chosen) for c in COUNTS
            }
            out.append(
                [
                    split,
                    style,
                    len(chosen),
                    n["turns"],
                    n["refused"],
                    n["lost"],
                    n["questions"],
                    _pct(n["fair_dropped"], n["fair"]),
                    _pct(n["invented_kept"], n["invented"]),
                ]
            )
    return out


def conversation_rows(runs: list[Replay]) -> list[list[object]]:
    """One row per conversation and style, held-out ones last."""
    ordered = sorted(runs, key=lambda r: (r.held_out, r.conversation, r.style))
    return [
        [
            r.conversation,
            "held-out" if r.held_out else "tuned",
            r.style,
            len(r.turns),
            r.count("refused"),
            r.count("lost"),
            _pct(r.count("fair_dropped"), r.count("fair")),
            _pct(r.count("invented_kept"), r.count("invented")),
        ]
        for r in ordered
    ]


PER_CONVERSATION = [
    "conversation",
    "split",
    "style",
    "turns",
    "plans refused",
    "turns lost",
    "fair facts dropped",
    "invented facts kept",
]

HEADER = [
    "split",
    "style",
    "convs",
    "turns",
    "plans refused (4xx)",
    "turns lost",
    "questions",
    "fair facts dropped",
    "invented facts kept",
]


async def run(offset: int) -> list[Replay]:
    base = "http://127.0.0.1:{}"
    async with (
        httpx.AsyncClient(
            base_url=base.format(NODE_PORTS["rag-gate"] + offset), timeout=60
        ) as gate,
        httpx.AsyncClient(
            base_url=base.format(NODE_PORTS["memory-upserter"] + offset), timeout=60
        ) as memory,
    ):
        return [
            await replay(gate, memory, conv, style)
            for conv in conversations()
            for style in styles_of(conv)
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--offset", type=int, default=int(os.environ.get("TWIN_PORT_OFFSET", "0")))
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    runs = asyncio.run(run(args.offset))
    body = table(HEADER, rows(runs))
    detail = table(PER_CONVERSATION, conversation_rows(runs))
    print(body, detail, sep="\n\n")
    for r in runs:
        for t in r.turns:
            for name in t.fair_dropped:
                print(f"  fair dropped  {r.conversation}/{r.style} #{t.index}: {name}")
            for name in t.invented_kept:
                print(f"  invented kept {r.conversation}/{r.style} #{t.index}: {name}")
    if args.write:
        write_section(
            "model-loop",
            f"## Model in the loop (`bench/model_loop`)\n\n{machine_line(machine())}\n\n"
            f"Recorded answers replayed for a fresh person each: `python -m bench.model_loop.report"
            f" --offset N --write` against `twin up`. The held-out split was never tuned on.\n\n"
            f"{body}\n\nPer conversation:\n\n{detail}\n",
        )


if __name__ == "__main__":
    main()
