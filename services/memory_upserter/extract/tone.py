"""How a message is meant, beyond its words (pure): sarcasm, a hedge said after the statement,
and a past the clock cannot date.

- **Sarcasm** ("oh great, i love being stuck in traffic 🙄", "yeah i just love doing taxes lol",
  "i love mondays. not."): the likes and dislikes it states are the opposite of what the person
  means, so none is written; other facts in the message stand ("im a nurse, night shifts are
  killing me 🙄" is still a nurse).
- **A hedge after the statement** ("i live in porto, i think", "allergic to nuts i guess",
  "i have a dog, kinda", "… not sure"): the sentence is not an assertion, like a hedge before it
  (:mod:`.assertion`).
- **A past the clock cannot date** ("last summer", "at university", "a while ago", "back in
  the day"): an event said so is not dated today; it stays with the episode. A state said of
  such a past ("i moved to berlin when i was 20", "… as a kid") is not the person's now; the
  phrase governs only its own verb group, and a group in the present ("i'm a junior in high
  school") or one that began then ("… started when i was young") is (:func:`then_spans`).
"""

from __future__ import annotations

import re

from services.core.when import past_tense

# What sarcasm inverts: the person's likes and dislikes.
SARCASM_INVERTS = frozenset({"LIKES", "DISLIKES", "LOVES", "HATES", "FAVORITE", "ENJOYS"})

_SARCASM = re.compile(
    r"(?i)(?:🙄|🙃|😒|😑|/s\b|\bsarcasm\b|\bnot\W*$|\blol\s+not\b|\byeah\s+right\b|"
    r"^\W*(?:oh\s+)?(?:great|wonderful|fantastic|perfect|lovely|awesome|sure|yeah|yay)\b\W+"
    r"(?:I|we)\s+(?:just\s+|totally\s+|really\s+|absolutely\s+|sure\s+do\s+)?(?:love|adore|enjoy)|"
    r"\b(?:yeah|oh|sure)\W+I\s+(?:just|totally|sure|absolutely)\s+(?:love|adore|enjoy)|"
    r"\b(?:yeah|oh|sure)\W+(?:I'm|I\s+am)\s+(?:totally|definitely|such)\s+(?:an?\s+)?\w+|"
    r"\bI\s+(?:just\s+)?(?:totally|absolutely)\s+love\s+(?:being|getting|waiting|when|how|doing)\b)"
)
_HEDGE_AFTER = re.compile(
    r"(?i)(?:,|\s)\s*(?:I\s+think|I\s+guess|I\s+believe|I\s+suppose|I\s+reckon|I\s+assume|"
    r"I'm\s+not\s+sure|not\s+sure|not\s+100\s*%(?:\s+sure)?|idk|i\s+dunno|dunno|maybe|"
    r"probably|perhaps|kinda|kind\s+of|sort\s+of|I\s+feel\s+like|or\s+something|"
    r"or\s+so\s+I\s+think|apparently)\W*(?:lol|haha)?\W*$"
)
_HEDGE_OPEN = re.compile(
    r"(?i)^\W*(?:I\s+feel\s+like|I\s+have\s+a\s+feeling|I\s+suspect|I\s+doubt|not\s+sure\s+(?:if|whether)?|"
    r"idk\s+(?:if|whether)?|I\s+dunno|dunno|apparently|it\s+seems|seems\s+like|looks\s+like)\b"
)
_VAGUE_PAST = re.compile(
    r"(?i)\b(?:last\s+(?:summer|spring|autumn|fall|winter)|a\s+while\s+(?:ago|back)|"
    r"ages\s+ago|long\s+ago|(?:a\s+few\s+|some\s+|many\s+|several\s+)?(?:years?|months|decades?)\s+"
    r"(?:ago|back)|back\s+in(?:\s+the\s+day)?|back\s+(?:then|when)|once\s+upon|"
    r"(?:at|in)\s+(?:uni|university|college|grad\s+school|(?:high\s+|primary\s+|middle\s+)?school)|"
    r"as\s+a\s+(?:student|teen\w*|kid|child)|when\s+I\s+was|in\s+my\s+(?:teens|twenties|youth|"
    r"\w+\s+year)|the\s+other\s+day|before\s+the\s+pandemic|growing\s+up)\b"
)


_THEN = re.compile(
    r"(?i)\b(?:when\s+I\s+was\b|as\s+a\s+(?:kid|child|teen\w*|little\s+\w+|student)|growing\s+up|"
    r"back\s+(?:then|in\s+the\s+day|in\s+\d{4}|when)|in\s+my\s+(?:teens|twenties|youth|student\s+days)|"
    r"(?<!still\s)(?<!I'm\s)(?<!am\s)in\s+high\s+school)\b"
)


_SINCE_THEN = re.compile(
    r"(?i)\b(?:started|began|since|still|always|ever\s+since|(?:have|'ve|has|'s)\s+been)\b"
)
# where one verb group ends and the next begins inside a clause ("I love soccer because I
# played it in high school"): a past phrase governs only its own group
_GROUP = re.compile(
    r"(?i)\s*(?:,\s*)?\b(?:because|'?cause|cuz|cos|which|who|while|though|although|whereas|"
    r"(?:and|but|so)(?=\s+(?:I|I'm|I've|we|he|she|they|it|my)\b))\b\s*|\s*,\s*(?=\w)"
)
_PRESENT = re.compile(
    r"(?i)\b(?:am|'m|is|are|'re|have|has|'ve|do|does|don't|doesn't)\b|"
    r"\b(?:I|we|you|they)\s+(?:\w+ly\s+|really\s+|still\s+|just\s+)?(?!was\b|were\b|had\b|did\b|"
    r"used\b|could\b|would\b)[a-z]+(?<!ed)\b"
)
_IRREGULAR_PAST = re.compile(
    r"(?i)\b(?:rode|grew|ate|drove|saw|ran|swam|wrote|sang|taught|thought|felt|knew|spent|kept|"
    r"won|fell|flew|wore|built|sat|stood|spoke|broke|chose|led|fought|heard|paid|sold|told|"
    r"learnt|dreamt|hung|lived|loved|liked|played)\b"
)


_WORDS = re.compile(r"(?i)\b(?:a|an|young|little|small|younger|kid|child|teen\w*|\d+)\b")


def said_of_then(clause: str) -> bool:
    """The clause puts what it states in a past of the person's life ("when I was 20", "as
    a kid", "back then") (:func:`then_spans`)."""
    return bool(then_spans(clause))


def then_spans(clause: str) -> list[tuple[int, int]]:
    """Where the clause states things of a past of the person's life: the verb group a past
    phrase governs, when that group's verb is past ("I moved to Berlin when I was 20", "I
    played soccer in high school"). A group in the present ("I'm a junior in high school")
    or one that began then ("my passion for cooking started when I was young", "I've loved
    painting ever since I was a kid") is the person's now; so is every other group of the
    clause ("I love soccer because I played it in high school": the like stands)."""
    cuts = [0, *(p for m in _GROUP.finditer(clause) for p in (m.start(), m.end())), len(clause)]
    groups = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
    spans: list[tuple[int, int]] = []
    for phrase in _THEN.finditer(clause):
        span = _governed(clause, groups, phrase)
        if span is not None and span not in spans:
            spans.append(span)
    return spans


def _governed(
    clause: str, groups: list[tuple[int, int]], phrase: re.Match[str]
) -> tuple[int, int] | None:
    """The verb group the phrase sits in (a group of the phrase alone, "…, as a kid": the one
    before it), when its verb is past; None when it is the person's now."""
    at = next((i for i, (a, b) in enumerate(groups) if a <= phrase.start() <= b), 0)
    start, end = groups[at]
    rest = clause[start : phrase.start()] + " " + clause[phrase.end() : end]
    if not _WORDS.sub("", rest).strip(" ,.!?") and at > 0:
        start = groups[at - 1][0]  # "I lived in Paris, as a kid": the group it follows
        rest = clause[start : phrase.start()]
    if _SINCE_THEN.search(rest):
        return None
    if past_tense(rest) or _IRREGULAR_PAST.search(rest) or not _PRESENT.search(rest):
        return start, end
    return None


def sarcastic(message: str) -> bool:
    """The message says the opposite of what it means (module docstring)."""
    return bool(_SARCASM.search(message.strip()))


_UNDECIDED = re.compile(
    r"(?i)\b(?:can'?t|cannot|can\s+not|couldn'?t)\s+decide\b|\bundecided\b|\bstill\s+deciding\b|"
    r"\bhaven'?t\s+decided\b|\bnot\s+decided\b"
)


def hedged_after(sentence: str) -> bool:
    """The sentence states something and then takes the certainty back ("…, i think", "porto
    or lisbon, can't decide"), or opens on a hunch ("i feel like …", "apparently …")."""
    stripped = sentence.strip()
    return bool(
        _HEDGE_AFTER.search(stripped) or _HEDGE_OPEN.match(stripped) or _UNDECIDED.search(stripped)
    )


# "jk", "just kidding": what was said before it, in its sentence or the one before, is taken back.
_RETRACT = re.compile(r"(?i)(?<![\w'])(?:jk|j/k|just\s+(?:kidding|joking)|kidding)(?![\w'])\W*")


def retracted(sentence: str) -> tuple[str, bool] | None:
    """What a sentence still says after a "jk" in it (None: it takes nothing back), and
    whether the "jk" opens it (so the sentence before is what it takes back)."""
    found = next(reversed([*_RETRACT.finditer(sentence)]), None)
    if found is None:
        return None
    return sentence[found.end() :], not sentence[: found.start()].strip(" .,!?")


def vague_past(sentence: str) -> bool:
    """The sentence puts what it tells in a past no date is said for ("last summer", "at
    university", "a while ago"): an event it tells is not dated today."""
    return bool(_VAGUE_PAST.search(sentence))
