"""Where the person comes from, said by the move that brought them (issue 28, round 9): "I moved
here from Sweden a few years ago", "I came to the US from Mexico", "I immigrated from Vietnam".

Only a move *here* (or to a country, or with no destination) says an origin; "I moved from
Boston to Chicago" says where the person lives now (:mod:`.basics`' ``lives_in``), and Boston was
only a stop. "My friend moved here from Spain" is the friend's. Their place in the rule table:
:mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import _CAP, _STOP, _place, rule


@rule(
    "moved_here_from",
    rf"(?i:\b(?:I|we)(?:'ve|\s+have)?\s+(?:originally\s+|first\s+)?(?:moved|came|immigrated|"
    rf"emigrated|relocated)\s+(?:(?:over\s+)?here\s+|over\s+|to\s+(?:the\s+(?:US|USA|UK|"
    rf"States)|America|this\s+country)\s+)?from\s+)(?P<place>{_CAP}(?:\s+{_CAP}){{0,2}}){_STOP}"
    rf"(?!\s+to\b)",
)
def _moved_here_from(m: re.Match[str], out: Emitter) -> None:
    """ "I moved here from Sweden a few years ago": the person is from Sweden."""
    place = _place(m["place"])
    if place and out.is_user:
        out.entity(place, "Location")
        out.fact("FROM", f"{out.who} moved here from {place}", obj=place, importance=2,
                 confidence=0.75)  # fmt: skip
