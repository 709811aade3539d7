"""An answer read with the question it answers (issue 28): "Since I was 17 or so." after "How long
have you been creating art?" says "I've been creating art since I was 17 or so."

Pure. ``asked`` is the other side's previous turn (the assistant's last reply; in an import, the
other speaker's turn); its last question is the one answered. :func:`restated` gives the
person's answer as the one sentence they would have said, for the rule table to read like any
other (:mod:`.asking` knows the questions' shapes) — or None, and then nothing is read from the
question's words:

- the question is about the person ("you", "your") and has a shape :mod:`.asking` knows; never
  one about the asker ("my drawing"), someone else ("your sister's pets"), an offer or an
  invitation ("do you want…", "should I…"), a past one-off ("did you…"), or a mood ("are you ok");
- the answer is short and elliptic — yes with what it names ("yeah, a golden retriever"), a
  pro-form ("I love to", "I do"), a value ("lisbon", "since 2019", "32") — never negative
  ("nope", "not really", "not yet"), hedged ("maybe", "not sure"), a question back, or a
  statement of its own (the rules read that as it stands) — but for a name ("im kenji") and a
  question that presumes what the person does ("what got you into pottery?"), which any answer
  that does not deny it confirms;
- "what are their names?" asks for the one kind of the person's the asker's turn names ("your
  dogs are adorable!"), never the asker's own ("my dog").
"""

from __future__ import annotations

import re

from services.memory_upserter.extract import asking
from services.memory_upserter.extract.restating import KIN

# What opens an answer without saying anything: courtesy, a yes, interjections.
_COURTESY = re.compile(
    r"(?i)^\W*(?:thanks?(?:\s+(?:so\s+much|a\s+(?:lot|bunch|ton)))?|thank\s+you\w*|ty|"
    r"glad\s+you\s+(?:like|liked|love|loved)\s+(?:it|them)|aw+|wow|oh|ha(?:ha)*|lol|hey|hi|"
    r"hello)\b[^.!?]*[.!?]+\s*$"
)
_YES = re.compile(
    r"(?i)^\W*(?:(?:oh\s+)?(?:yes+|yeah+|yep|yup|ya|yah|yea|ye|mhm|uh\s+huh|sure|"
    r"of\s+course|definitely|absolutely|totally|indeed|correct|right|haha\w*|lol|ha)\b[\s,!.:;-]*)+"
)
_NO = re.compile(
    r"(?i)^\W*(?:no+|nope|nah|not\b|never|none|nothing|neither|i\s+(?:don'?t|do\s+not|"
    r"haven'?t|am\s+not|'?m\s+not)|im\s+not|i'm\s+not|unfortunately)\b"
)
_HEDGE = re.compile(
    r"(?i)\b(?:maybe|perhaps|not\s+sure|unsure|i\s+(?:think|guess|hope|wish)|probably|"
    r"kinda|sort\s+of|idk|dunno|hmm+|one\s+day|someday|might|if\b|why|you\s+tell\s+me|"
    r"it\s+depends|used\s+to|anymore|any\s+more)\b"
)
# A yes with nothing more to say: "I do", "I love to", "love it!!", "a lot", "still there".
_PRO_FORM = re.compile(
    r"(?i)^(?:I\s+)?(?:(?:sure|really|totally|absolutely|still)\s+)?(?:do|am|have|did|"
    r"love\s+(?:to|it|them|that)|like\s+(?:to|it|them)|enjoy\s+(?:it|them)|adore\s+(?:it|them))"
    r"\b[\s!.]*(?:a\s+lot|so\s+much|very\s+much)?[\s!.]*$|"
    r"^(?:a\s+lot|lots|very\s+much|so\s+much|all\s+the\s+time|always|still\s+there|"
    r"for\s+sure|you\s+bet|big\s+time|100\s*%?)[\s!.]*$"
)
_THEIR = re.compile(r"(?i)^what(?:'s|\s+are|\s+is)\s+(?:their|his|her)\s+names?$")
_ROLE_IN = re.compile(rf"(?i)\b(?P<whose>(?:my|our|his|her|their)\s+)?(?P<role>{KIN})s?\b")
_LONGEST = 300  # characters of a question or an answer read: a short answer is short
_FULL = re.compile(r"(?i)^(?:I|I'm|I've|I'd|I'll|im|ive|my|we|we're|our|it's|its|that's)\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|\s+[-–—]\s+")
_DROP = re.compile(r"(?i)[\s,]*\b(?:lol+|haha\w*|lmao|btw|tbh|honestly)\b|[^\w\s'&,.!?/-]+")


def question(asked: str) -> str | None:
    """The last question of the other side's turn, from its question word on."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", asked[-_LONGEST:]) if s.strip()]
    for sentence in reversed(sentences):
        if sentence.endswith("?"):
            return asking.opening(sentence[-_LONGEST:])
    return None


def named(q: str, asked: str) -> str:
    """ "What are their names?" as the name question it is, when the asker's turn names one
    kind of the person's ("Aw, your dogs are adorable!", "Pets sure bring joy") — never the
    asker's own ("my dog")."""
    if not _THEIR.match(q):
        return q
    said = [(m["whose"], m["role"].lower()) for m in _ROLE_IN.finditer(asked)]
    roles = {role for _, role in said}
    if len(roles) != 1 or any(whose for whose, _ in said):
        return q  # two kinds, or someone's named ("my dog", "her friend"): whose is unclear
    return f"what's your {roles.pop()}'s name"


def answer(message: str) -> tuple[bool, str] | None:
    """The person's answer in their message: (said yes, what it names beyond the yes); None when
    it is negative, hedged, a question back, or no answer at all (only courtesy)."""
    head = message[: _LONGEST * 3].replace("’", "'")
    sentences = [s.strip()[:_LONGEST] for s in _SENTENCE.split(head) if s.strip()]
    yes = False
    for sentence in sentences[:3]:
        if _COURTESY.match(sentence) and not yes:
            continue
        if sentence.endswith("?") or _NO.match(sentence) or _HEDGE.search(sentence):
            return None
        said = _YES.match(sentence)
        rest = _DROP.sub(" ", sentence[said.end() :] if said else sentence)
        rest = re.sub(r"\s+", " ", rest).strip(" ,.!;:-")
        if _NO.match(rest):
            return None
        if not rest and said and not yes:  # "Yes! A cat named Pumpkin": the next one names it
            yes = True
            continue
        if not rest or _PRO_FORM.match(rest):
            return (True, "") if said or rest or yes else None
        return bool(said) or yes, rest
    return (True, "") if yes else None


def restated(asked: str | None, message: str) -> str | None:
    """The person's answer to the question just asked, as one sentence of theirs; None when the
    question or the answer is not one this module reads (module docstring)."""
    if not asked:
        return None
    q = question(asked)
    q = named(q, asked) if q else None
    said = answer(message) if q else None
    if q is None or said is None:
        return None
    yes, rest = said
    if rest and _FULL.match(rest):
        said_as = asking.full(q, rest)  # "im kenji": a name question's answer in a sentence
    else:
        said_as = asking.restate(q, yes, rest)
    if said_as is not None and not re.search(r"[A-ZÀ-Þ]", message):
        return said_as.lower()  # typed without capitals: the rules read it as it was typed
    return said_as
