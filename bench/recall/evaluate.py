"""Recall tables from ranked item lists: per method, per budget, per category."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bench.common import table
from bench.recall.data import ADVERSARIAL, CATEGORIES, Question
from bench.recall.metrics import Item, Tally, covered, within_items, within_tokens

ITEM_BUDGETS = (5, 10, 20)
TOKEN_BUDGETS = (100, 200, 400, 800)
GROUPS = ("all", *CATEGORIES.values())


def groups_of(questions: Sequence[Question]) -> tuple[str, ...]:
    """ "all" and the questions' groups: LoCoMo's categories in their order, else as met."""
    present = dict.fromkeys(q.group for q in questions)
    known = [g for g in (*CATEGORIES.values(), *ADVERSARIAL.values()) if g in present]
    return ("all", *known, *(g for g in present if g not in known))


Ranked = Mapping[str, Sequence[Item]]  # qid → items, best first


def counted_in(q: Question) -> tuple[str, ...]:
    """The groups a question counts in: "all" and its own, except LoCoMo's adversarial
    questions, which count only in their own (so "all" stays categories 1-4)."""
    return (q.group,) if q.category in ADVERSARIAL else ("all", q.group)


def budgets() -> list[tuple[str, Callable[[Sequence[Item]], list[Item]]]]:
    out: list[tuple[str, Callable[[Sequence[Item]], list[Item]]]] = []
    for k in ITEM_BUDGETS:
        out.append((f"@{k}", lambda items, k=k: within_items(items, k)))
    for t in TOKEN_BUDGETS:
        out.append((f"@{t}t", lambda items, t=t: within_tokens(items, t)))
    return out


def tally(
    ranked: Ranked, questions: Sequence[Question], cut: Callable[[Sequence[Item]], list[Item]]
) -> Tally:
    result = Tally()
    for q in questions:
        found = covered(cut(ranked.get(q.qid, ())))
        result.add(counted_in(q), found, q.evidence)
    return result


def evaluate(
    methods: Mapping[str, Ranked], questions: Sequence[Question]
) -> dict[str, dict[str, dict[str, tuple[float, float]]]]:
    """``{method: {budget: {group: (recall, all-evidence rate)}}}`` for every budget."""
    out: dict[str, dict[str, dict[str, tuple[float, float]]]] = {}
    groups = groups_of(questions)
    for method, ranked in methods.items():
        out[method] = {}
        for name, cut in budgets():
            t = tally(ranked, questions, cut)
            out[method][name] = {g: (t.recall(g), t.all_rate(g)) for g in groups}
    return out


def matched(
    twin: Ranked,
    baselines: Mapping[str, Ranked],
    questions: Sequence[Question],
    label: str = "Twin Core (all returned)",
) -> dict[str, dict[str, tuple[float, float]]]:
    """Everything Twin Core returned for each question, against each baseline cut at the same
    number of tokens for that question: ``{method: {group: (recall, all-evidence)}}``."""
    out = {label: tally(twin, questions, list)}
    for name, ranked in baselines.items():
        result = Tally()
        for q in questions:
            spent = sum(i.tokens for i in twin.get(q.qid, ()))
            found = covered(within_tokens(ranked[q.qid], spent))
            result.add(counted_in(q), found, q.evidence)
        out[name] = result
    groups = groups_of(questions)
    return {name: {g: (t.recall(g), t.all_rate(g)) for g in groups} for name, t in out.items()}


def fmt(value: float) -> str:
    return "–" if value != value else f"{value:.3f}"  # NaN → dash


def headline(results, methods: Sequence[str]) -> str:
    names = [n for n, _ in budgets()]
    rows = [[m, *(fmt(results[m][b]["all"][0]) for b in names)] for m in methods]
    header = ["method", *(f"R{b}" if not b.endswith("t") else f"R@{b[1:-1]} tok" for b in names)]
    return table(header, rows)


def per_category(results, methods: Sequence[str], budget: str, which: int) -> str:
    groups = list(results[methods[0]][budget])
    rows = [[m, *(fmt(results[m][budget][g][which]) for g in groups)] for m in methods]
    return table(["method", *groups], rows)


def counts(questions: Sequence[Question]) -> dict[str, int]:
    out = {g: 0 for g in groups_of(questions)}
    for q in questions:
        for group in counted_in(q):
            out[group] += 1
    return out
