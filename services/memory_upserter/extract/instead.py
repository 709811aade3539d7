"""What a correction puts in place of what it ends (pure): "i don't live in porto, it's lisbon"
ends "I live in Porto" (:func:`.assertion.ended`) and states "I live in lisbon" — the ended
statement with its value replaced by the one said after "it's"."""

from __future__ import annotations

import re
from collections.abc import Sequence

_ITS = re.compile(
    r"(?i),\s*(?:(?:it'?s|it\s+is|that'?s)\s+(?:actually\s+|really\s+)?)(?P<new>[^,.;:!?]{2,40}?)"
    r"(?:\s*,?\s*not\s+[^,.;:!?]+)?\s*[.!]*$"
)


def said_instead(clause: str, restated: str, ended: Sequence[str]) -> str | None:
    """The statement a clause makes in place of the one it ended, or None: ``restated`` (the
    ended statement, "I live in porto") with the ended value (one of ``ended``, as the facts
    wrote it) replaced by what follows "it's"."""
    m = _ITS.search(clause)
    if m is None:
        return None
    for value in ended:
        found = re.search(rf"(?i)(?<!\w){re.escape(value)}(?!\w)", restated)
        if found is not None:
            new = m["new"].strip()
            if value[:1].isupper():  # a name for a name: "porto" → "Lisbon"'s casing
                new = " ".join(w[:1].upper() + w[1:] for w in new.split())
            return restated[: found.start()] + new + restated[found.end() :]
    return None


_NOT_X_Y = re.compile(
    r"(?i)^\W*(?:(?:no|nope|nah|sorry|oops|wait|actually|my\s+bad)\W+)*not\s+(?P<old>[^,.;:!?]{2,40}?)"
    r"\s*(?:,|;|:|—|–|\s-)\s*(?:(?:it'?s|it\s+is|but)\s+)?(?P<new>[^,.;:!?]{2,40}?)\W*$"
)


_NOT_VALUES = frozenset(
    """a an the my your it this that me you so too there here now later today tonight tomorrow
yet really bad good great sure thanks thank maybe much quite exactly always never anymore again
lol haha yes no ok okay really really""".split()
)
_HEDGY = re.compile(r"(?i)\b(?:maybe|later|thanks|thank|sure|yet|please|perhaps|probably)\b")


def _bare(words: str) -> str:
    return re.sub(r"(?i)^(?:a|an|the|my|our)\s+", "", words)


def _no_value(words: str) -> bool:
    return all(w in _NOT_VALUES for w in words.lower().split())


def not_this_but(sentence: str, before: str) -> tuple[str, str, str] | None:
    """ "not lisbon, porto" after "i live in lisbon": the person's last sentence that named
    Lisbon, with Porto in its place ("I live in Porto"), what it replaces and what replaces it; None
    when the sentence is no such correction or nothing said before names what it replaces."""
    m = _NOT_X_Y.match(sentence.strip())
    if m is None:
        return None
    old, new = m["old"].strip(), m["new"].strip()
    if _no_value(old) or _no_value(new) or _HEDGY.search(new):
        return None  # "not now, maybe later", "not bad, thanks": no value put in another's place
    for said in reversed(re.split(r"(?<=[.!?])\s+", before[-1000:])):
        found = re.search(rf"(?i)(?<!\w){re.escape(old)}(?!\w)", said)
        if found is not None:
            if found.group(0)[:1].isupper():  # a name for a name: "lisbon" → "Porto"
                new = " ".join(w[:1].upper() + w[1:] for w in new.split())
            return said[: found.start()] + new + said[found.end() :], _bare(old), _bare(new)
    return None


_THERE = re.compile(r"(?i)\bthere\b")
_PLACE_SAID = re.compile(
    r"\b(?P<prep>at|in|for)\s+(?P<where>[A-Z][\w'&-]*(?:\s+[A-Z][\w'&-]*){0,3})"
)


def there_is(statement: str, before: str) -> str:
    """ "I work there" (from "i don't work there anymore") after "I work at Acme": "I work at
    Acme" — "there" is the last place or organisation the speaker named with at/in/for."""
    if _THERE.search(statement) is None:
        return statement
    named = list(_PLACE_SAID.finditer(before[-400:]))
    if not named:
        return statement
    last = named[-1]
    return _THERE.sub(f"{last['prep']} {last['where']}", statement, count=1)


_PHRASE = re.compile(
    r"(?i)(?!(?:I|I'm|we|my|it|it's|that|this|you|he|she|they|not|no|to|what|how)\b)[\w'&-]+(?:\s+[\w'&-]+){0,3}"
)


def bare_value(words: str) -> bool:
    """A phrase of one to four words that states nothing by itself ("porto", "Globex"), the
    value of a correction ("i meant porto")."""
    return bool(_PHRASE.fullmatch(words)) and not _no_value(words) and not _HEDGY.search(words)
