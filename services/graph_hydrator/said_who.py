"""How the person's own words tell two of one name apart within one message — pure.

003 §10 asks "which Marta?" only when nothing says whom the person means. Three ways the
message itself says it, each only when exactly one namesake fits:

- a relation word right before the name: "my sister marta" (:func:`named_by_kin`);
- a place word beside it: "work marta", "marta from work" (:func:`placed`);
- a relation word elsewhere in the message that already named one of them
  (:func:`told_apart`): "my brother lol not luca from footy" means the brother, the name being
  the one set aside; "my brother and luca are coming" sets the brother apart, so "luca" is
  the other one.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from services.core.text import fold
from services.graph_hydrator import kin
from services.graph_hydrator.rows import EntityRow
from services.graph_hydrator.text import Span

if TYPE_CHECKING:
    from services.graph_hydrator.resolve import Found

_SET_ASIDE = {"not", "no", "nor"}  # "not luca from footy", "no, not the other luca"


def named_by_kin(
    span: Span, candidates: Sequence[EntityRow], kin_words: Sequence[kin.KinWord]
) -> EntityRow | None:
    """ "my sister Marta" with two Martas: the relation word right before a same-name mention
    picks the one it names, when exactly one candidate is that relative."""
    for word in kin_words:
        if word.last + 1 == span.first and not word.plural:
            fitting = [c for c in candidates if kin.matches(word, c.kin)]
            if len(fitting) == 1:
                return fitting[0]
    return None


def placed(message: str, span: Span, candidates: Sequence[EntityRow]) -> EntityRow | None:
    """ "work marta" / "marta from work" with two Martas: the one the place word fits (an
    alias word, or a relation of that place), when exactly one does."""
    before = fold(message[: span.start]).split()[-1:]
    after = re.match(r"\W*from\s+(?:the\s+|my\s+)?(\w+)", fold(message[span.end :]))
    for word in [*before, *([after[1]] if after else [])]:
        labels = kin.PLACES.get(word, ())
        fitting = [
            c
            for c in candidates
            if word in fold(" ".join(c.aliases)).split()
            or any(label in k for k in c.kin for label in labels)
        ]
        if len(fitting) == 1:
            return fitting[0]
    return None


def told_apart(message: str, mentions: Sequence[Found]) -> tuple[Found, ...]:
    """Each still ambiguous name whose namesakes include the one a relation word of the same
    message named: set aside ("not luca") it is that relative; else it is the only other."""
    by_relation = {m.chosen.entity_id for m in mentions if m.role is not None and m.chosen}
    out = []
    for mention in mentions:
        ids = {c.entity_id for c in mention.considered}
        if mention.resolution == "ambiguous" and mention.role is None and ids & by_relation:
            negated = _SET_ASIDE & set(fold(message[: mention.span.start]).split()[-3:])
            fitting = [
                c for c in mention.considered if (c.entity_id in by_relation) == bool(negated)
            ]
            if len(fitting) == 1:
                mention = dataclasses.replace(mention, chosen=fitting[0], resolution="relation")
        out.append(mention)
    return tuple(out)
