"""The one disambiguation question of 003 §10 — pure.

"Which Marta do you mean — work Marta (colleague) or family Marta (sister)?": each candidate is
named by an alias that contains the mention ("work Marta"), else by its name, and described by
the first of: a descriptive attribute (``relationship``, ``role``…), what it is to the person
("sister" for ``user HAS_SISTER Marta``), its strongest relation as subject ("sister" for
``SISTER_OF``, "works at Acme" for ``WORKS_AT``), its category. Candidates
that would still read the same get when they were last mentioned, then a number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import msgspec

from contracts.slots import Candidate, Disambiguation, GraphEntity
from services.core.text import fold
from services.core.which import numbered, phrase, which_question
from services.graph_hydrator.resolve import Found
from services.graph_hydrator.rows import EdgeRow, EntityRow
from services.graph_hydrator.text import dedupe_key

MAX_CANDIDATES = 5
DESCRIPTIVE_ATTRIBUTES = (
    "relationship",
    "relation",
    "role",
    "description",
    "occupation",
    "job",
    "context",
    "note",
)
_MAX_DETAIL = 60


def humanize(predicate: str) -> str:
    return predicate.lower().replace("_", " ").strip()


def _relation_detail(entity: EntityRow, edges: Iterable[EdgeRow]) -> str | None:
    own = [e for e in edges if e.subject.entity_id == entity.entity_id]
    if not own:
        return None
    best = min(
        own,
        key=lambda e: (
            not e.predicate.upper().endswith("_OF"),
            -e.confidence,
            -e.updated_at.timestamp(),
            e.rel_id,
        ),
    )
    if best.predicate.upper().endswith("_OF"):
        return humanize(best.predicate[:-3])
    target = best.obj.name if best.obj is not None else best.value
    if isinstance(target, str | int | float) and not isinstance(target, bool):
        return f"{humanize(best.predicate)} {target}"
    return humanize(best.predicate)


def describe(
    entity: EntityRow, mention_key: str, edges: Iterable[EdgeRow], *, kin: bool = True
) -> tuple[str, str]:
    """(label, detail) of one candidate, e.g. ("work Marta", "colleague"); ``kin``: what it is
    to the person tells the candidates apart (not two sisters)."""
    mention_words = set(dedupe_key(mention_key).split())
    label = next(
        (
            a
            for a in entity.aliases
            if fold(a) != mention_key and mention_words <= set(dedupe_key(a).split())
        ),
        entity.name,
    )
    for name in DESCRIPTIVE_ATTRIBUTES:
        value = entity.attributes.get(name)
        if isinstance(value, str) and value.strip():
            return label, value.strip()[:_MAX_DETAIL]
    detail = (_kin_detail(entity) if kin else None) or _relation_detail(entity, edges)
    return label, (detail or entity.category.lower())[:_MAX_DETAIL]


def _kin_detail(entity: EntityRow) -> str | None:
    """What the candidate is to the person ("sister", "colleague"), from ``user HAS_SISTER
    Marta`` (or ``Marta SISTER_OF user``): the plainest way to tell two of one name apart."""
    for predicate in entity.kin:
        said = predicate.upper()
        if said.startswith("HAS_") or (said.startswith("^") and said.endswith("_OF")):
            return humanize(said.lstrip("^").removeprefix("HAS_").removesuffix("_OF"))
    return None


def ask(found: Found, edges: Sequence[EdgeRow]) -> Disambiguation:
    """The question for an ambiguous mention, with its candidates (most recently seen first)."""
    ordered = sorted(
        found.considered,
        key=lambda c: (
            c.last_seen is None,
            -(c.last_seen.timestamp() if c.last_seen else 0),
            c.name,
            c.entity_id,
        ),
    )[:MAX_CANDIDATES]
    apart = len({_kin_detail(c) for c in ordered}) == len(ordered)
    phrases = [phrase(*describe(c, found.key, edges, kin=apart)) for c in ordered]
    repeated = {p for p in phrases if phrases.count(p) > 1}
    phrases = numbered(
        [
            f"{p[:-1]}, last mentioned {c.last_seen:%Y-%m-%d})"
            if p in repeated and c.last_seen is not None
            else p
            for p, c in zip(phrases, ordered, strict=True)
        ]
    )
    if found.role is not None:  # "my sister": "Which sister do you mean — …?"
        shown = found.role
    elif {fold(c.name) for c in ordered} == {found.key}:
        shown = ordered[0].name
    else:  # "marta" typed in lower case is still a name: "Which Marta …"
        shown = found.text.title() if found.text.islower() else found.text
    return Disambiguation(
        mention=found.text,
        question=which_question(shown, phrases),
        candidates=[
            Candidate(entity_id=c.entity_id, name=c.name, hint=phrase)
            for c, phrase in zip(ordered, phrases, strict=True)
        ],
    )


def namesakes_told_apart(
    entities: list[GraphEntity], rows: Sequence[EntityRow], edges: Sequence[EdgeRow]
) -> list[GraphEntity]:
    """``entities`` (one per row of ``rows``, in order) with a ``hint`` on each that shares
    its name with another: what :func:`describe` would call it in the question ("brother",
    "colleague"), so two bare "Nikos" lines never read the same."""
    names = Counter(fold(e.name) for e in entities)
    shared = [row for row in rows if names[fold(row.name)] > 1]
    apart = len({_kin_detail(row) for row in shared}) == len(shared)
    hints = {row.entity_id: describe(row, fold(row.name), edges, kin=apart)[1] for row in shared}
    return [
        msgspec.structs.replace(e, hint=hints[e.entity_id]) if e.entity_id in hints else e
        for e in entities
    ]
