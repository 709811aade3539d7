"""Which of the person's sentences state an explicit link (pure): the offline engine's Evidence.

003 §11: Evidence is a link the person stated between two things of their own life. A link word
is not enough (issue 28: 16 of 21 offline Evidence lines linked nothing). A sentence is
Evidence when it has a link word (``text.has_link``) and none of these:

- it is a question, or it speaks to the other side ("you", "your": advice, praise, "glad you
  got some rest after the drive"), or it is advice or a guess ("Don't forget…, since…", "so it
  must have been tough");
- its only link word is a greeting's or a time's "since" ("since we last talked", "since I was
  17"): "since" counts only as "ever since", "since" + a reason ("since the wait is long") or
  + the event a change dates from ("since I started running I sleep better");
- a "so" that is an intensifier or a sentence opener ("so glad", "so many people", "So I
  wanna…"): "so" counts after a comma, before a clause ("…, so I started…");
- an "after" that is no event ("after work", "go after my goals", "I'm after Marley flooring");
- the link has nothing on one side: a reason alone ("Because it's fun!"), or a cause that is
  a bare "it/this/that" or none ("It made me feel accepted", "Makes me feel connected",
  "That's why I…") — then the sentence before it in the same message, when there is one, is
  quoted with it (one contiguous quote of the message, so grounding still holds).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.reflection_writer.text import fold, has_link, sentences

_YOU = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b")
_ADVICE = re.compile(
    r"^(?:don't|do not|make sure|remember to|try to|let's|be sure)\b|\bmust have been\b|"
    r"\bhow (?:it|this|that) makes me feel\b"
)
_SINCE_REASON = re.compile(
    r"\bsince (?:the|it|it's|they|they're|he|she|there|this|that)\b|"
    r"\bsince (?:i|we) (?:started|began|stopped|quit|moved|switched|changed|left|joined|lost|"
    r"got|gave up|cut out)\b"
)  # a reason, or the event a change dates from ("since i started running i sleep better")
_SINCE_TIME = re.compile(r"\b(?<!ever )since\b")
_SO_CLAUSE = re.compile(
    r",\s*so (?:i|i'm|i've|i'll|we|we're|my|it|it's|he|she|they|that|now|now i)\b"
)
_SO_ANY = re.compile(r"(?:^|[,;:—–-]\s*|\.\s+)so\b")
_AFTER_NON_EVENT = re.compile(
    r"\b(?:(?:go|goes|going|went|chase|chasing|chased|look|looking|looked|i'm|be|run|running|"
    r"named|take|takes|took|taking|come|came|coming) after|after (?:work|school|class|all|"
    r"a while|during|lunch|dinner|breakfast|hours)\b)"
)
_OTHER_LINKS = re.compile(
    r"\b(?:because|'cause|cause|that's why|thats why|which is why|that is why|therefore|"
    r"so that|due to|caused|causes|causing|made me|makes me|making me|as a result|hence|thus|"
    r"led to|leads to|result of|ever since|whenever|every time|after)\b"
)
_OPENS_WITH_LINK = re.compile(r"^(?:because|'cause|cause|so)\b[^,]*$")
_ANAPHORIC_CAUSE = re.compile(
    r"^(?:(?:makes|made|making) me\b|"
    r"(?:really|it|this|that|which|these|those)(?:'s| has| have| had| is| was| really| "
    r"just| even| always| also)* (?:made|makes|making|led|leads|caused|causes|is why|'s why|"
    r"why)\b|that's why|thats why|which is why)"
)


def evidence_quotes(text: str) -> list[str]:
    """The explicit links in one message of the person's, each as it will be quoted: the
    sentence, or the sentence before it and the sentence when its cause is a bare "it"."""
    said = sentences(text)
    quotes = []
    for i, sentence in enumerate(said):
        folded = fold(sentence)
        if folded.endswith("?") or _YOU.search(folded) or _ADVICE.search(folded):
            continue
        if not has_link(sentence) or not _link_words(folded) or _OPENS_WITH_LINK.search(folded):
            continue
        if _ANAPHORIC_CAUSE.search(folded):
            before = _before(said, i)
            if before is None:
                continue
            sentence = f"{before} {sentence}"
        quotes.append(sentence)
    return quotes


def _before(said: Sequence[str], i: int) -> str | None:
    """The sentence before ``said[i]`` when it is a statement of the person's own."""
    if i == 0:
        return None
    before = said[i - 1]
    folded = fold(before)
    if folded.endswith("?") or _YOU.search(folded) or len(folded.split()) < 3:
        return None
    return before


def _link_words(folded: str) -> bool:
    """Whether a link word of ``folded`` is a real one (not a time's "since", an intensifier's
    "so" or a non-event's "after")."""
    rest = _AFTER_NON_EVENT.sub(" ", folded)
    if _SINCE_REASON.search(rest) or _SO_CLAUSE.search(rest):
        return True
    rest = _SO_ANY.sub(" ", _SINCE_TIME.sub(" ", rest))
    return bool(_OTHER_LINKS.search(rest))
