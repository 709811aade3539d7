"""Which entities this turn is about (003 §6.1, §10) — pure.

Mentions: the entities whose normalized name or alias — or, for a person, given name ("marta"
names "Marta Silva") — equals a key of :func:`text.scan`. Where
matches overlap, the longest run of words wins ("Aunt Rosa" over "Rosa"), then the leftmost.

One name, several entities: prefer the one in ``active_entity_ids``; else the one seen most
recently (``last_seen`` strictly newer than every other candidate's; never-seen counts as
oldest, so two never-seen ones tie); else the one whose aliases, attributes or category contain
every word of ``topic_focus``, if exactly one does; else nobody — the mention adds no seed and
the first such mention becomes the turn's one disambiguation question.

Relation words ("my sister", "my boss", "my sisters"; :mod:`.kin`) are mentions too (but one
right before a name is that name's: "call my sister Beatriz" asks nothing however many sisters
there are; how the message's own words pick among namesakes is :mod:`.said_who`): their
candidates are the entities related to the person by that role, and a singular one is resolved
exactly like a name (one → it; several → active → recent → topic → ask "Which sister do you
mean — …?"); a plural one seeds every match.

Seeds are the resolved mentions, plus the still visible ``active_entity_ids`` when the message
uses a pronoun ("she", "them"…) or resolves no mention at all (ellipsis, "and then?"). A
message that names someone new and no pronoun moves the focus: the old active ids are not seeds.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from services.core.text import fold
from services.graph_hydrator import kin, said_who
from services.graph_hydrator.rows import EntityRow
from services.graph_hydrator.text import Scan, Span, dedupe_key

Resolution = Literal["unique", "relation", "active", "recent", "topic", "ambiguous"]
SeedReason = Literal["mention", "active"]
Fallback = Literal["pronoun", "no_mention"]


@dataclass(frozen=True, slots=True)
class Found:
    """A mention: where it is, what it matched, and who it was resolved to (if anyone)."""

    text: str
    key: str
    span: Span
    candidates: tuple[EntityRow, ...]
    chosen: EntityRow | None
    resolution: Resolution
    considered: tuple[EntityRow, ...]  # the candidates still in the running when it was decided
    role: str | None = None  # a relation word's role ("sister"); None for a name


@dataclass(frozen=True, slots=True)
class Seeds:
    mentions: tuple[Found, ...]
    seeds: dict[str, tuple[EntityRow, SeedReason]]  # in order: mentions, then active ids
    fallback: Fallback | None

    @property
    def question_for(self) -> Found | None:
        """The first mention that needs the person to say whom they meant."""
        return next((m for m in self.mentions if m.resolution == "ambiguous"), None)

    @property
    def load_ids(self) -> list[str]:
        """Entities whose 1-hop facts the store must load: the seeds, and the candidates of the
        question (their facts describe them in it; they never reach the subgraph)."""
        ids = list(self.seeds)
        asked = self.question_for
        if asked is not None:
            ids += [c.entity_id for c in asked.considered if c.entity_id not in self.seeds]
        return ids


def valid_ids(ids: Iterable[str]) -> list[str]:
    """Entity ids as the store can look them up: canonical uuids, unique, in order. Anything
    else (a stale or foreign id in the session) cannot be one of this user's entities."""
    out: dict[str, None] = {}
    for raw in ids:
        try:
            out[str(uuid.UUID(raw))] = None
        except ValueError:
            continue
    return list(out)


def keys_of(row: EntityRow) -> tuple[str, ...]:
    """What a mention must equal to name ``row``: its name and aliases, and a person's given
    name alone ("marta" names "Marta Silva"; 003 §10 then tells namesakes apart)."""
    given = fold(row.name).split()
    if row.category == "Person" and len(given) > 1 and len(given[0]) > 1 and row.keys:
        return (*row.keys, given[0])
    return row.keys


def choose(
    candidates: Sequence[EntityRow], active: Sequence[str], topic_focus: str | None = None
) -> tuple[EntityRow | None, Resolution, tuple[EntityRow, ...]]:
    """003 §10: unique → active → most recent → topic → ask (None)."""
    if len(candidates) == 1:
        return candidates[0], "unique", tuple(candidates)
    active_set = set(active)
    pool = [c for c in candidates if c.entity_id in active_set] or list(candidates)
    if len(pool) == 1:
        return pool[0], "active", tuple(pool)
    seen = sorted(
        ((c, c.last_seen) for c in pool if c.last_seen is not None),
        key=lambda pair: pair[1],
        reverse=True,
    )
    if seen and (len(seen) == 1 or seen[0][1] > seen[1][1]):
        return seen[0][0], "recent", tuple(pool)
    if topic_focus:
        words = set(dedupe_key(topic_focus).split())
        fitting = [c for c in pool if words and words <= _context_words(c)]
        if len(fitting) == 1:
            return fitting[0], "topic", tuple(pool)
    return None, "ambiguous", tuple(pool)


def _context_words(entity: EntityRow) -> set[str]:
    texts = [
        *entity.aliases,
        entity.category,
        *(v for v in entity.attributes.values() if isinstance(v, str)),
    ]
    return set(dedupe_key(" ".join(texts)).split())


def resolve(
    message: str,
    scan: Scan,
    rows: Iterable[EntityRow],
    active_ids: Sequence[str],
    topic_focus: str | None = None,
    kin_words: Sequence[kin.KinWord] = (),
) -> Seeds:
    """The turn's mentions and seeds from the rows the entity lookup returned (entities whose
    name or alias is one of the scan's keys, the session's active entities, and the person's
    relatives named by ``kin_words``)."""
    rows = list(rows)
    active = valid_ids(active_ids)
    chosen_runs, taken = _longest_runs(_runs(scan, _matches_by_key(scan, rows)))
    mentions: list[Found] = []
    for span, key, cands in chosen_runs:
        candidates = tuple(sorted(cands.values(), key=lambda c: (c.name, c.entity_id)))
        chosen, how, considered = choose(candidates, active, topic_focus)
        if chosen is None and (
            named := said_who.named_by_kin(span, candidates, kin_words)
            or said_who.placed(message, span, candidates)
        ):
            chosen, how = named, "relation"
        mentions.append(
            Found(message[span.start : span.end], key, span, candidates, chosen, how, considered)
        )
    named_next = {run[0].first for run in chosen_runs}  # "my sister Beatriz": the name says who
    for word in kin_words:
        if taken.isdisjoint(range(word.first, word.last + 1)) and word.last + 1 not in named_next:
            mentions.extend(_kin_mentions(word, rows, active, topic_focus))
    mentions.sort(key=lambda m: m.span.start)
    return _seeds(said_who.told_apart(message, mentions), scan, rows, active)


Run: TypeAlias = tuple[Span, str, dict[str, EntityRow]]  # a run of words, its key, its matches


def _matches_by_key(scan: Scan, rows: Sequence[EntityRow]) -> dict[str, dict[str, EntityRow]]:
    """Each lookup key of the scan with the entities whose name or alias it is."""
    by_key: dict[str, dict[str, EntityRow]] = {}
    for row in rows:
        for key in keys_of(row):
            if key in scan.spans:
                by_key.setdefault(key, {})[row.entity_id] = row
    return by_key


def _runs(scan: Scan, by_key: dict[str, dict[str, EntityRow]]) -> dict[tuple[int, int], Run]:
    """Each run of words with what it matched; a possessive's bare form ends earlier."""
    runs: dict[tuple[int, int], Run] = {}
    for key in scan.keys:
        found = by_key.get(key)
        if not found:
            continue
        for span in scan.spans[key]:
            where = (span.first, span.last)
            if where in runs:
                old_span, old_key, cands = runs[where]
                cands.update(found)
                if span.end < old_span.end:
                    runs[where] = (span, key, cands)
            else:
                runs[where] = (span, key, dict(found))
    return runs


def _longest_runs(runs: dict[tuple[int, int], Run]) -> tuple[list[Run], set[int]]:
    """The longest runs first, none overlapping a longer one, in message order; and the word
    indexes they cover."""
    taken: set[int] = set()
    chosen: list[Run] = []
    for (first, last), run in sorted(
        runs.items(), key=lambda item: (item[0][0] - item[0][1], item[0][0])
    ):
        if taken.isdisjoint(range(first, last + 1)):
            taken.update(range(first, last + 1))
            chosen.append(run)
    chosen.sort(key=lambda run: run[0].first)
    return chosen, taken


def _seeds(
    mentions: tuple[Found, ...], scan: Scan, rows: Sequence[EntityRow], active: Sequence[str]
) -> Seeds:
    """The mentions' chosen entities; with a pronoun or no mention, the session's active ones."""
    seeds: dict[str, tuple[EntityRow, SeedReason]] = {}
    for mention in mentions:
        picked = mention.chosen
        if picked is not None and picked.entity_id not in seeds:
            seeds[picked.entity_id] = (picked, "mention")
    fallback: Fallback | None = None
    if scan.pronouns:
        fallback = "pronoun"
    elif not seeds:
        fallback = "no_mention"
    if fallback is not None:
        active_rows = {row.entity_id: row for row in rows if row.entity_id in set(active)}
        for entity_id in active:
            if entity_id in active_rows and entity_id not in seeds:
                seeds[entity_id] = (active_rows[entity_id], "active")
    return Seeds(mentions, seeds, fallback)


def _kin_mentions(
    word: kin.KinWord, rows: Sequence[EntityRow], active: Sequence[str], topic_focus: str | None
) -> list[Found]:
    """The mention(s) of one relation word: one per match for a plural, else one resolved by
    :func:`choose`; none when the person has no such relative on record."""
    candidates = tuple(
        sorted(
            {r.entity_id: r for r in rows if kin.matches(word, r.kin)}.values(),
            key=lambda c: (c.name, c.entity_id),
        )
    )
    if not candidates:
        return []
    span = Span(word.first, word.last, word.start, word.end)
    key = fold(word.text)
    if word.plural:
        return [
            Found(word.text, key, span, candidates, c, "unique", candidates, word.role)
            for c in candidates
        ]
    chosen, how, considered = choose(candidates, active, topic_focus)
    return [Found(word.text, key, span, candidates, chosen, how, considered, word.role)]
