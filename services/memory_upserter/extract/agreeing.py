"""Agreeing with a like of the other side's as one's own (issue 28, round 9): "Yeah, me too!"
after "I love all dances, but contemporary is my top pick" says the person loves them too.

Pure. ``asked`` is the other side's previous turn (in an import, the other speaker's turn).
:func:`agreed` gives the other side's sentences of liking, said now by the person, for the rule
table to read like any other; or None. Only a like is taken over ("I love …", "I'm a big fan of
…", "my favourite … is …", "… is my top pick"): "I just got back from Paris" + "me too" is an
outing of the other's, and "I'm so tired" + "same" a mood, neither a fact. Never when the
agreement is negative ("me neither"), hedged, or is no agreement of its own ("you too!", "same
to you"), nor a like of the other's that names the person ("I love your drawing").
"""

from __future__ import annotations

import re

from services.memory_upserter.text import SENTENCES

_LONGEST = 400  # characters of the other side's turn read: a like is said early and short
# The message opens on agreement: "me too", "same here", "so do I", "same!" — with a yes, a
# name or an interjection before it, and nothing after it but its sentence's end.
_AGREE = re.compile(
    r"^\W*(?:(?:(?i:yeah+|yes+|yep|yup|oh|wow|omg|haha\w*|lol|aw+|totally|honestly)|"
    r"[A-Z][a-z]+)[\s,!.]+){0,3}(?i:me\s+too|me\s+as\s+well|same\s+here|so\s+do\s+I|same)"
    r"(?:\s+[A-Z][a-z]+|\s+(?i:lol|haha\w*|tbh|fr))?\s*(?:[,!.]+|$)"
)
_NOT_AGREEING = re.compile(r"(?i)\b(?:neither|nor|you\s+too|to\s+you|not|never)\b")
# A sentence of the other side's that says a like of theirs.
_LIKE = re.compile(
    r"(?i)(?:^|\W)(?P<like>I\s+(?:(?:really|absolutely|just|totally|also)\s+)?(?:love|like|enjoy|"
    r"adore)\b|I(?:'m|\s+am)\s+(?:(?:a|such\s+a)\s+(?:big\s+|huge\s+)?fan\s+of|(?:really\s+|"
    r"so\s+|super\s+)?into)\b|I(?:'ve|\s+have)\s+(?:always\s+)?(?:loved|been\s+into)\b|"
    r"\bmy\s+(?:fave|favou?rite|top\s+pick)\b|\bis\s+my\s+(?:fave|favou?rite|top\s+pick)\b)"
)
_TO_YOU = re.compile(r"(?i)\b(?:you|your|yours|u|ur)\b")


def agreed(asked: str | None, message: str) -> str | None:
    """The other side's likes, as the person's own sentences, when the message agrees with
    them (module docstring); None otherwise."""
    if not asked or not agreeing(message):
        return None
    said = [s.strip() for s in SENTENCES.split(asked[:_LONGEST]) if s.strip()]
    liked = [like for s in said if (like := likes_said(s))]
    return " ".join(liked) or None


def agreeing(message: str) -> bool:
    """The message opens on agreeing with what was just said ("Yeah, me too!")."""
    opening = SENTENCES.split(message.strip().replace("’", "'"), maxsplit=1)[0]
    return bool(_AGREE.match(opening)) and not _NOT_AGREEING.search(opening)


def likes_said(sentence: str) -> str | None:
    """The clause of a statement (no question) that says the speaker's own like, from where the
    like is said ("I just got back from Paris, I love it there" → "I love it there"); None when
    there is none, or it names anybody of the listener's."""
    found = _LIKE.search(sentence)
    if (
        found is None
        or sentence.endswith("?")
        or _TO_YOU.search(sentence)
        or re.search(r"(?i)\b(?:if|would|wish|hope|used\s+to)\b", sentence)
    ):
        return None
    start = found.start("like")
    if not re.match(r"(?i)I\b", found["like"]):  # "…, but contemporary is my top pick"
        bounds = [b.end() for b in _CLAUSE.finditer(sentence, 0, start)]
        start = bounds[-1] if bounds else 0
    return sentence[start:].strip()


_CLAUSE = re.compile(r"(?i)[,;:]\s*|\s+[-–—]\s+|\bbut\s+|\band\s+|\bso\s+")
