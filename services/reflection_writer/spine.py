"""The summary spine (000 SummarySpine), pure: when to write a version and what it says.

A user gets a new version once :data:`SPINE_EVERY` (20) or more of their messages, across all
agents, were logged since the last version (``through_message_seq``). The content has three
sections — PROFILE, PROJECTS, PEOPLE (one line per person, their facts joined) — built from
active global facts ordered pinned → importance → recency. Every agent reads the spine
(graph-hydrator returns it in GRAPH), so it holds no agent's own data: 000's OPEN_LOOPS
section is left out, since open loops are todos and each agent keeps its own (they reach the
envelope as GRAPH's commitments and threads). The rendered
text is at most :data:`SPINE_CHARS` (1,200) characters: sections are filled round-robin, one
item each per round, so a long PROFILE never crowds out PEOPLE or OPEN_LOOPS; an item that no
longer fits closes its section.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.reflection_writer.text import clip, fold

SPINE_EVERY = 20
SPINE_CHARS = 1200
ITEM_CHARS = 200
SECTIONS = ("PROFILE", "PROJECTS", "PEOPLE")
_SECTION_OF = {"PROFILE": "PROFILE", "PROJECT": "PROJECTS", "PEOPLE": "PEOPLE"}


@dataclass(frozen=True, slots=True)
class SpineFact:
    memory_type: str
    text: str
    subject: str  # the subject entity's name


@dataclass(frozen=True)
class Spine:
    content: dict[str, list[str]]
    text: str


def due(new_messages: int) -> bool:
    return new_messages >= SPINE_EVERY


def sections(facts: Sequence[SpineFact]) -> dict[str, list[str]]:
    """Every candidate item of each section, best first (facts arrive already ordered)."""
    out: dict[str, list[str]] = {name: [] for name in SECTIONS}
    people: dict[str, tuple[str, list[str]]] = {}
    for fact in facts:
        section = _SECTION_OF.get(fact.memory_type)
        if section == "PEOPLE":
            key = fold(fact.subject)
            if key not in people:
                people[key] = (fact.subject, [])
                out["PEOPLE"].append(key)  # placeholder keeps the person's rank
            people[key][1].append(fact.text.strip().rstrip("."))
        elif section is not None:
            out[section].append(clip(fact.text, ITEM_CHARS))
    out["PEOPLE"] = [
        clip(f"{people[k][0]}: " + "; ".join(_dedupe(people[k][1])), ITEM_CHARS)
        for k in out["PEOPLE"]
    ]
    for name in SECTIONS:
        out[name] = _dedupe(out[name])
    return out


def build(facts: Sequence[SpineFact]) -> Spine:
    candidates = sections(facts)
    chosen: dict[str, list[str]] = {name: [] for name in SECTIONS}
    open_sections = [name for name in SECTIONS if candidates[name]]
    index = 0
    while open_sections:
        for name in list(open_sections):
            if index >= len(candidates[name]):
                open_sections.remove(name)
                continue
            chosen[name].append(candidates[name][index])
            if len(render(chosen)) > SPINE_CHARS:
                chosen[name].pop()
                open_sections.remove(name)
        index += 1
    return Spine(chosen, render(chosen))


def render(content: dict[str, list[str]]) -> str:
    return "\n".join(f"{name}: " + "; ".join(items) for name, items in content.items() if items)


def _dedupe(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        if fold(item) not in seen:
            seen.add(fold(item))
            out.append(item)
    return out
