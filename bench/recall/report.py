"""The Markdown section bench/recall writes: headline, per-category tables, same-token
comparisons, grounded credit (the cost tables are in :mod:`bench.recall.cost`)."""

from __future__ import annotations

from bench.common import machine_line, table
from bench.recall import evaluate, updates
from bench.recall.cost import cost_section
from bench.recall.run_product import ProductRun

COMMAND = "uv run python -m bench.recall"
NAN = (float("nan"), float("nan"))

BASELINE_NAMES = {
    "bm25": "BM25 (raw turns)",
    "dense": "MiniLM dense (raw turns)",
    "fusion": "RRF fusion (raw turns)",
}
TWIN_NAMES = {
    ("default", "retrieval"): "Twin Core",
    ("default", "envelope"): "Twin Core, envelope order",
    ("default", "sections"): "Twin Core, 001 section order (before)",
    ("open", "retrieval"): "Twin Core, cutoffs off (diagnostic)",
    ("uncut", "retrieval"): "Twin Core, no cutoff on raw turns (diagnostic)",
}
ENVELOPE_ALL = "Twin Core (all the envelope renders, default budget)"
README_TABLE = {
    "BM25 (raw turns)": (0.541, 0.594, 0.649, 0.277),
    "MiniLM dense (raw turns)": (0.412, 0.531, 0.625, 0.322),
    "RRF fusion (raw turns)": (0.518, 0.609, 0.678, 0.299),
}


def report(
    args,
    info,
    questions,
    results,
    session_results,
    update_counts,
    derived,
    run: ProductRun | None,
    baseline_s: dict[str, float],
    wall_s: float,
) -> str:
    grounded_results, matched = derived.grounded, derived.matched
    matched_grounded = derived.matched_grounded
    counts = evaluate.counts(questions)
    twin = [n for n in TWIN_NAMES.values() if n in results]
    base = list(BASELINE_NAMES.values())
    beam = bool(args.beam)
    command = (
        COMMAND
        + (" --quick" if args.quick else "")
        + (f" --beam {args.beam}" if beam else "")
        + (" --baselines-only" if args.baselines_only else "")
        + (f" --embedder {args.embedder}" if getattr(args, "embedder", "") else "")
        + (" --adversarial" if getattr(args, "adversarial", False) else "")
    )
    lines = [
        f"## Memory recall on {'BEAM 100K' if beam else 'LoCoMo'} (`bench/recall`)",
        "",
        f"`{command}` — {machine_line(info)} · whole run {wall_s / 60:.1f} min.",
        "",
        f"Data: {', '.join(c for c in args.selected)} ({sum(counts.values()) - counts['all']} "
        + ("questions with source messages (abstention has none): " if beam else "")
        + ("" if beam else "questions with evidence: ")
        + ", ".join(f"{g} {counts[g]}" for g in list(counts)[1:])
        + "). "
        "R@k = mean share of a question's evidence turns covered by the first k items; "
        "R@N tok = the same within N tokens (whitespace words of the returned text, items "
        "taken in order until the next one does not fit). An item covers the turns in its "
        "provenance (see bench/README.md for the item order and the text counted).",
        "",
        "### Evidence recall, all categories"
        + ("" if beam else " (1–4; the adversarial category 5 only in its own column)"),
        "",
        evaluate.headline(results, base + twin),
    ]
    if not args.quick and not args.selected_subset and not beam:
        check = []
        for name, (r5, r10, r20, mh) in README_TABLE.items():
            got = results[name]
            check.append(
                [
                    name,
                    f"{fmt3(got['@5']['all'][0])} ({r5})",
                    f"{fmt3(got['@10']['all'][0])} ({r10})",
                    f"{fmt3(got['@20']['all'][0])} ({r20})",
                    f"{fmt3(got['@10']['multi-hop'][0])} ({mh})",
                ]
            )
        lines += [
            "",
            "Baselines against the data README's table (README in brackets):",
            "",
            table(["baseline", "R@5", "R@10", "R@20", "multi-hop R@10"], check),
        ]
    lines += ["", *session_section(results, session_results, base + twin)]
    if update_counts:
        lines += ["", *updates_section(update_counts)]
    for budget, label in (("@10", "10 items"), ("@400t", "400 tokens")):
        lines += [
            "",
            f"### Per category at {label}: evidence recall",
            "",
            evaluate.per_category(results, base + twin, budget, 0),
            "",
            f"All-evidence rate (every evidence turn covered) at {label}:",
            "",
            evaluate.per_category(results, base + twin, budget, 1),
        ]
    if matched:
        rows = [
            [name, *(f"{fmt3(v[g][0])} / {fmt3(v[g][1])}" for g in counts)]
            for name, v in matched.items()
        ]
        lines += [
            "",
            "### Everything Twin Core returned vs the baselines at the same tokens",
            "",
            "Per question, each baseline gets exactly as many tokens as Twin Core "
            "returned for that question (recall / all-evidence rate). "
            "`hydrate + retrieve`: everything the two nodes return; `envelope`: every "
            "memory item the envelope renders to the model (foundation, relevant "
            "memories within the default 800-word budget, todos, the previous "
            "session's tail, the latest summary), each baseline at that question's "
            "same tokens:",
            "",
            table(["method", *counts], rows),
        ]
    if getattr(args, "per_conversation", None):
        lines += [
            "",
            "Per conversation, recall of everything returned vs RRF fusion at the same tokens:",
            "",
            table(
                [
                    "conversation",
                    "questions",
                    "hydrate + retrieve: all",
                    "hydrate + retrieve: temporal",
                    "envelope: all",
                    "envelope: temporal",
                ],
                args.per_conversation,
            ),
        ]
    if grounded_results:
        lines += [
            "",
            "### Grounded credit (Twin Core only)",
            "",
            "The same, crediting a provenance turn only when at least half of its "
            "distinct content words occur in the returned text (a raw turn is always "
            "grounded in itself, so the baselines' figures do not change):",
            "",
            evaluate.headline(grounded_results, list(grounded_results)),
        ]
        if matched_grounded:
            rows = [
                [name, *(f"{fmt3(v[g][0])} / {fmt3(v[g][1])}" for g in counts)]
                for name, v in matched_grounded.items()
            ]
            lines += [
                "",
                "Everything returned, grounded credit, vs the baselines at the same tokens:",
                "",
                table(["method", *counts], rows),
            ]
    if run is not None:
        lines += ["", *cost_section(run)]
    lines += [
        "",
        "Baselines' own cost: BM25 index "
        f"{baseline_s['bm25_index']:.2f} s + queries {baseline_s['bm25_query']:.2f} s; "
        f"MiniLM turns {baseline_s['dense_index']:.1f} s + queries "
        f"{baseline_s['dense_query']:.1f} s (0 when cached in bench/out/cache).",
    ]
    return "\n".join(lines)


def session_section(results, session_results, methods: list[str]) -> list[str]:
    """Session R@k (MemPalace's definition, :mod:`bench.recall.sessions`) beside turn R@10."""
    groups = list(session_results[methods[0]]["@10"])
    rows = [
        [
            m,
            fmt3(results[m]["@10"]["all"][0]),
            *(fmt3(session_results[m][b]["all"][0]) for b in ("@5", "@10", "@20")),
            *(fmt3(session_results[m]["@10"][g][0]) for g in groups[1:]),
        ]
        for m in methods
    ]
    header = ["method", "turn R@10", "session R@5", "session R@10", "session R@20"]
    return [
        "### Session granularity",
        "",
        "Each method's ranked items mapped to their sessions, distinct sessions kept in the "
        "order first met (MemPalace's definition); R@k = mean share of a question's evidence "
        "sessions among the first k. Turn R@10 beside it; per group, session R@10. (A BEAM "
        "chat has 3-5 batches, so its session R@5 and beyond are 1 by construction; LoCoMo "
        "here is categories 1–4, MemPalace's published figure includes category 5.)",
        "",
        table([*header, *(f"{g} @10" for g in groups[1:])], rows),
    ]


def updates_section(counts: dict) -> list[str]:
    """BEAM: newer statement above the older one, per method (:mod:`bench.recall.updates`)."""
    rows = [
        [m, str(sum(c.values())), *(str(c[o]) for o in updates.OUTCOMES)] for m, c in counts.items()
    ]
    return [
        "### Knowledge updates and contradictions: the newer statement first?",
        "",
        "Questions whose older and newer statements are distinct messages, the older one "
        "earlier in the chat; within the first 10 items, which is met first (`same item`: one "
        "item covers both):",
        "",
        table(["method", "questions", *updates.OUTCOMES], rows),
    ]


def per_conversation(methods, base, questions) -> list[list[str]]:
    """Per conversation: everything returned (hydrate + retrieve; the envelope) against RRF
    fusion at the same tokens, all categories and temporal — the margin is not one
    conversation's."""
    rows = []
    for sample in sorted({q.qid.split("#", 1)[0] for q in questions}):
        mine = [q for q in questions if q.qid.startswith(sample + "#")]
        cells = [sample, str(len(mine))]
        for twin in ("Twin Core", "Twin Core, envelope order"):
            got = evaluate.matched(
                methods[twin], {"fusion": base["RRF fusion (raw turns)"]}, mine, label="twin"
            )
            for group in ("all", "temporal"):
                group = group if group in got["twin"] else "temporal_reasoning"  # BEAM's name
                mine_, rrf_ = got["twin"].get(group, NAN), got["fusion"].get(group, NAN)
                cells.append(f"{fmt3(mine_[0])} vs {fmt3(rrf_[0])}")
        rows.append(cells)
    return rows


def fmt3(value: float) -> str:
    return evaluate.fmt(value)
