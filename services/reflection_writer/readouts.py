"""Readouts are not evidence (pure): an assistant sentence that only reads memory back.

A statement (not a question) that reports memory ("you told me…", "I remember…", "as far as I
know…"), restates the person or their people ("You live in Lisbon.", "Your sister Marta lives
in Madrid."), or whose content words are all in the session's user messages or the names of
known entities ("Marta, Madrid.") is a readout. The offline engine drops readouts before any of
its rules sees the assistant's messages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.reflection_writer.model import KnownEntity, Message
from services.reflection_writer.text import content_stems, fold, sentences

_REPORTS_MEMORY = re.compile(
    r"\b(?:you (?:told|tell) me|you(?:'ve| have)? (?:mentioned|said|shared)|i (?:remember|recall)|"
    r"if i remember|as far as i know|from what i know|from what you(?:'ve)? told me|"
    r"according to (?:my|what)|my (?:notes|memory) say|i have (?:it|you) down)\b"
)
_RESTATES = re.compile(
    r"^(?:(?:yes|yeah|right|sure|of course|indeed|correct)\W+)?(?:"
    r"you(?:'re| are| were|'ve| have| had| live| lived| work| worked| study| grew up| come from|"
    r"moved| like| love| hate| prefer| own| do| did)\b"
    r"|your [\w' -]{1,40}? (?:is|are|was|were|lives|lived|works|worked|has|had|likes|loves)\b"
    r"|(?:that|it)(?:'s| is| was) (?:your|in)\b)"
)


def is_readout(sentence: str, said: set[str]) -> bool:
    """Whether an assistant sentence only reads memory back (see the module docstring);
    ``said`` = content stems of the session's user messages and the known entities' names."""
    folded = fold(sentence)
    if folded.endswith("?"):
        return False
    if _REPORTS_MEMORY.search(folded) or _RESTATES.search(folded):
        return True
    roots = _roots(sentence)
    return bool(roots) and roots <= said


def _roots(text: str) -> set[str]:
    """Content stems with a final "e" dropped, so "live" and "lives" (stem "liv") agree."""
    return {s[:-1] if s.endswith("e") and len(s) > 3 else s for s in content_stems(text)}


def without_readouts(
    messages: Sequence[Message], known: Sequence[KnownEntity] = ()
) -> list[Message]:
    """The messages with every assistant readout sentence taken out (an assistant message
    left empty stays, with no text, so it still answers the user)."""
    said = {root for m in messages if m.role == "user" for root in _roots(m.text)}
    said |= {root for e in known for root in _roots(e.name)}
    out = []
    for m in messages:
        if m.role == "assistant":
            kept = [s for s in sentences(m.text) if not is_readout(s, said)]
            m = Message(m.message_id, m.seq, m.role, " ".join(kept), m.ts, m.speaker)
        out.append(m)
    return out
