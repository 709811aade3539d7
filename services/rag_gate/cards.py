"""Entity cards (000): the people, places and projects the top facts name, each with its other
facts. Pure: no I/O.

For the entity keys of the top facts, in the order they first appear:
other facts of that entity with importance >= 2 or pinned, sorted pinned → importance →
newest (SQL does that), top 3, never a fact already among the relevant ones nor the same text
twice; rendered ``[person:john]: fact1; fact2; fact3``.

The user's own entity (``self:user``, subject of every PROFILE fact) is not an entity key
here: it would score every PROFILE fact as "most discussed" and make a card of the user's
foundation facts, which graph-hydrator already returns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from contracts.slots import EntityCard
from services.rag_gate.gate import normalize
from services.rag_gate.ranking import dedupe_key

_SLUG_DROP = re.compile(r"[^\w\s-]")
_SLUG_JOIN = re.compile(r"[\s_-]+")
_REF_PREFIX = {"Person": "person", "Org": "org", "Location": "place", "Project": "project"}
SELF_PREFIX = "self:"  # the user's own entity (memory-upserter writes it as ``self:user``)


@dataclass(frozen=True, slots=True)
class Entity:
    entity_id: str
    ref: str
    label: str


def entity_key(entity_ref: str | None, name: str, category: str) -> str:
    """The entity's 000 key: its stored ``entity_ref``, else ``<type>:<slug of the name>``
    (lower-case, accents and punctuation dropped, spaces and hyphens → underscores)."""
    if entity_ref:
        return entity_ref
    prefix = _REF_PREFIX.get(category, category.lower())
    slug = _SLUG_JOIN.sub("_", _SLUG_DROP.sub("", normalize(name))).strip("_")
    return f"{prefix}:{slug or 'unnamed'}"


def is_self(ref: str) -> bool:
    """Whether an entity key is the user's own entity."""
    return ref.startswith(SELF_PREFIX)


def card_entities(entities_of_top_facts: Iterable[Iterable[Entity]], limit: int) -> list[Entity]:
    """The entities to expand, in the order the ranked facts name them, one per key."""
    out: list[Entity] = []
    refs: set[str] = set()
    for entities in entities_of_top_facts:
        for entity in entities:
            if entity.ref not in refs and len(out) < limit:
                refs.add(entity.ref)
                out.append(entity)
    return out


def build_cards(
    entities: Sequence[Entity],
    card_rows: Mapping[str, Sequence[tuple[str, str]]],
    *,
    exclude_ids: Iterable[str],
    exclude_texts: Iterable[str],
    per_card: int,
) -> list[EntityCard]:
    """Cards from ``entity_id → [(fact id, text), …]`` (already sorted by SQL), capped, with
    no fact of ``exclude_ids`` and no text twice; an entity with nothing left has no card."""
    skip_ids = set(exclude_ids)
    seen = {dedupe_key(t) for t in exclude_texts}
    cards = []
    for entity in entities:
        facts: list[str] = []
        ids: list[str] = []
        for fact_id, text in card_rows.get(entity.entity_id, ()):
            key = dedupe_key(text)
            if fact_id in skip_ids or key in seen or len(facts) >= per_card:
                continue
            seen.add(key)
            skip_ids.add(fact_id)
            facts.append(text)
            ids.append(fact_id)
        if facts:
            cards.append(
                EntityCard(entity_ref=entity.ref, label=entity.label, facts=facts, fact_ids=ids)
            )
    return cards


def format_card(card: EntityCard) -> str:
    """``[person:john]: fact1; fact2; fact3``: 000's card notation (envelope-validator renders
    each card fact as a fact line of its own, with its handle)."""
    return f"[{card.entity_ref}]: " + "; ".join(card.facts)
