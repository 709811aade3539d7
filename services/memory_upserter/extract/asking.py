"""The shapes of a question about the person that a short answer completes (pure; used by
:mod:`.answered`). Each shape turns the question and the answer into the sentence the person
would have said: "where did you grow up?" + "in a small town in ohio" → "I grew up in a small
town in ohio"; "do you like sushi?" + "love it!!" → "I like sushi". A question that names the
asker's things ("my", "me"), someone else ("your sister"), or an invitation or offer has no
shape here, nor has a past one-off ("did you…") or a mood ("are you ok?").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from services.memory_upserter.extract import restating as r

_ASKER = re.compile(r"(?i)\b(?:I|me|my|mine|myself|we|us|our|ours)\b")
_Q_WORD = re.compile(
    r"(?i)(?:^|(?<=[,;:]\s)|(?<=[,;:]))\s*((?:and\s+|so\s+|but\s+)?(?:how|what|what's|whats|where|"
    r"do|does|are|r|any|got|have)\b.*)$"
)
_TRAILING = re.compile(
    r"(?i)(?:\s+(?:too|as\s+well|yourself|btw|these\s+days|right\s+now|now|at\s+the\s+moment|"
    r"currently|at\s+home|by\s+the\s+way|then|though|lol|haha))+$"
)
Build = Callable[[re.Match[str], bool, str], str | None]


@dataclass(frozen=True)
class Shape:
    pattern: re.Pattern[str]
    build: Build
    asker_ok: bool = False  # "what should I call you": the "I" is the asker's, not a thing


def opening(sentence: str) -> str | None:
    """The question from its question word on ("Aw, do you have a dog too?" → "do you have a
    dog"), without its trailing fillers; None when no question word opens a clause."""
    found = _Q_WORD.search(sentence.strip().rstrip("?!. "))
    if found is None:
        return None
    q = re.sub(r"(?i)^(?:and|so|but)\s+", "", found.group(1))
    q = re.sub(r"(?i)\bwhats\b", "what's", re.sub(r"(?i)\bwhat\s+is\b", "what's", q))
    q = re.sub(
        r"(?i)\bur\b", "your", re.sub(r"(?i)\bu\b", "you", re.sub(r"(?i)\br\s+u\b", "are u", q))
    )
    return _TRAILING.sub("", q.strip(" ?!.,"))


def _shape(pattern: str, build: Build, *, asker_ok: bool = False) -> Shape:
    return Shape(re.compile(rf"(?i){pattern}"), build, asker_ok)


SHAPES = (
    _shape(
        r"what's\s+your\s+name|what\s+should\s+I\s+call\s+you|your\s+name|"
        r"what\s+do\s+(?:people|I|your\s+friends)\s+call\s+you",
        r.name,
        asker_ok=True,
    ),
    _shape(rf"what's\s+your\s+(?P<role>{r.KIN})'s\s+name", r.their_name),
    _shape(rf"what\s+are\s+your\s+(?P<role>{r.KIN})s?'\s+names", r.their_name),
    _shape(
        rf"what's\s+(?:your\s+(?P<role>{r.KIN})\s+called|"
        rf"the\s+name\s+of\s+your\s+(?P<role2>{r.KIN}))",
        r.their_name,
    ),
    _shape(
        r"what\s+(?:got|gets|made|inspired|drew|led)\s+you\s+(?:to\s+)?(?:into|get\s+into|"
        r"start|try|pick\s+up|take\s+up|begin)\s+(?P<x>.+)|how\s+did\s+you\s+(?:get\s+into|"
        r"start|get\s+started\s+(?:with|in)|pick\s+up|take\s+up)\s+(?P<x2>.+)",
        r.presumed,
    ),
    _shape(
        r"what\s+do\s+you\s+(?:love|like|enjoy)\s+(?:the\s+)?(?:most\s+)?about\s+(?P<love>.+)|"
        r"what's\s+your\s+(?:favou?rite|fave?)\s+(?:part|thing)\s+(?:about|of)\s+(?P<love2>.+)",
        r.presumed,
    ),
    _shape(r"what's\s+your\s+(?:favou?rite|fave?)\s+(?P<x>.+)", r.favourite),
    _shape(
        r"what\s+(?:kind|sort|type|genre)s?\s+of\s+(?P<x>.+?)\s+do\s+you\s+"
        r"(?:like|enjoy|listen\s+to|read|watch|play)",
        r.kind_of,
    ),
    _shape(
        r"what\s+do\s+you\s+(?:like\s+to\s+)?do\s+(?:for\s+fun|in\s+your\s+(?:free|spare)\s+time|"
        r"on\s+(?:the\s+)?weekends)|what\s+are\s+your\s+hobbies|any\s+hobbies|"
        r"what's\s+your\s+hobby|how\s+do\s+you\s+(?:relax|unwind|de-?stress)",
        r.fun,
    ),
    _shape(
        r"what\s+do\s+you\s+do(?:\s+for\s+(?:work|a\s+living))?|what\s+do\s+you\s+work\s+as|"
        r"what's\s+your\s+(?:job|profession|occupation|line\s+of\s+work)|"
        r"what\s+(?:kind\s+of\s+)?work\s+do\s+you\s+do|"
        r"(?P<field>what\s+(?:field|industry|line\s+of\s+work)\s+are\s+you\s+in)",
        r.job,
    ),
    _shape(
        r"where\s+do\s+you\s+(?:live|stay)(?P<live>)|"
        r"where\s+are\s+you\s+(?:based|living|located|staying)(?P<live2>)|"
        r"where\s+do\s+you\s+work(?P<work>)|where\s+did\s+you\s+grow\s+up(?P<grew>)|"
        r"where\s+were\s+you\s+born(?P<born>)|"
        r"where\s+(?:are\s+you|do\s+you\s+come)\s+(?:originally\s+)?from(?:\s+originally)?(?P<origin>)",
        r.where,
    ),
    _shape(r"how\s+old\s+are\s+you", r.age),
    _shape(
        r"how\s+many\s+(?P<x>kids|children|siblings|brothers|sisters|dogs|cats|pets|grandkids|"
        r"grandchildren)\s+do\s+you\s+have",
        r.how_many,
    ),
    _shape(
        r"how\s+long\s+have\s+you\s+(?P<vp>been\s+(?:married|together|vegetarian|vegan|"
        r"an?\s+\w+(?:\s+\w+)?)|(?:lived|worked|been\s+(?:living|working|studying|at|with|in))"
        r"\s+.+|(?:played|had|known|studied|practi[cs]ed|owned|run|taught)\s+.+)",
        r.how_long,
    ),
    _shape(
        r"how\s+long\s+have\s+you\s+(?P<vp>been\s+(?:\w+ing)(?:\s+.+)?|been\s+into\s+.+)",
        r.how_long_doing,
    ),
    _shape(
        rf"(?:do\s+you\s+(?:still\s+)?have|got|any)\s+(?:any\s+|a\s+|an\s+|some\s+)?"
        rf"(?P<x>{r.HAVE}|(?:food\s+)?allergies)",
        r.have,
    ),
    _shape(r"are\s+you\s+(?P<x>allergic)\s+to\s+anything", r.have),
    _shape(r"do\s+you\s+(?:still\s+)?(?:like|love|enjoy|adore)\s+(?P<x>.+)", r.like),
    _shape(rf"do\s+you\s+(?:still\s+)?(?P<verb>{r.ACTS})(?:\s+(?P<x>.+))?", r.act),
    _shape(rf"are\s+you\s+(?:still\s+)?(?P<x>{r.BEING})", r.being),
    _shape(
        r"what\s+are\s+you\s+(?:currently\s+)?"
        r"(?P<verb>working\s+on|building|writing|making|creating)",
        r.making,
    ),
)


def restate(q: str, yes: bool, rest: str) -> str | None:
    """The answer as the person's own sentence, by the first shape the whole question has."""
    for shape in SHAPES:
        found = shape.pattern.fullmatch(q)
        if found is not None:
            if not shape.asker_ok and _ASKER.search(q):
                return None
            return shape.build(found, yes, rest)
    return None


def full(q: str, rest: str) -> str | None:
    """An answer typed as a sentence is read as it stands, but for a name question ("im kenji":
    the name) and a question that presumes what the person does, which an answer that does not
    deny it confirms ("what got you into pottery?" → "I'm into pottery")."""
    for shape in SHAPES:
        found = shape.pattern.fullmatch(q)
        if found is not None:
            if shape.build not in (r.name, r.presumed):
                return None
            return (
                shape.build(found, True, rest) if shape.asker_ok or not _ASKER.search(q) else None
            )
    return None
