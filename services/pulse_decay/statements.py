"""First-person feeling statements in a user message (pure): the only text that may boost AFFECT.

A statement is "I'm / I am / I feel / I've been [intensifiers] <word>" with the word in one of
:data:`AFFECT_RULES`. Negated or hedged statements ("I'm not angry", "not sure if I'm happy"),
questions ("am I just stressed?") and idioms ("I'm happy to help") are not statements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

MAX_MARKER_CHARS = 80


@dataclass(frozen=True)
class AffectRule:
    """First-person statements of one feeling: "I'm / I am / I feel / I've been [so] <word>"."""

    label: str
    confidence: float
    words: tuple[str, ...]
    not_followed_by: tuple[str, ...] = ()  # idioms that are not feelings: "I'm happy to help"


AFFECT_RULES: tuple[AffectRule, ...] = (
    AffectRule("furious", 0.9, ("furious", "livid", "enraged", "fuming", "seething")),
    AffectRule("angry", 0.85, ("angry", "pissed", "pissed off", "mad")),
    AffectRule("frustrated", 0.85, ("frustrated", "annoyed", "irritated", "fed up")),
    AffectRule("stressed", 0.85, ("stressed", "stressed out", "under pressure")),
    AffectRule("overwhelmed", 0.85, ("overwhelmed", "swamped")),
    AffectRule("anxious", 0.85, ("anxious", "nervous", "worried", "scared", "panicking")),
    AffectRule("sad", 0.85, ("sad", "depressed", "miserable", "heartbroken", "upset")),
    AffectRule("lonely", 0.85, ("lonely", "isolated")),
    AffectRule("exhausted", 0.85, ("exhausted", "drained", "burned out", "burnt out", "worn out")),
    AffectRule("tired", 0.8, ("tired",)),
    AffectRule(
        "happy", 0.8, ("happy", "thrilled", "delighted", "overjoyed"), not_followed_by=("to",)
    ),
    AffectRule("excited", 0.85, ("excited", "pumped", "stoked", "hyped")),
    AffectRule("calm", 0.8, ("calm", "relaxed")),
)

SUBJECTS = ("i'm", "im", "i am", "i feel", "i've been", "ive been", "i have been")
INTENSIFIERS = (
    "so",
    "really",
    "very",
    "extremely",
    "super",
    "totally",
    "completely",
    "quite",
    "pretty",
    "a bit",
    "a little",
    "kinda",
    "kind of",
    "absolutely",
    "incredibly",
    "utterly",
    "just",
    "honestly",
    "genuinely",
)


@dataclass(frozen=True)
class Signal:
    label: str
    confidence: float
    marker: str  # what AFFECT's markers records


def detect_statements(message: str) -> list[Signal]:
    """Every affirmed first-person feeling statement in the message, in order."""
    text = message.replace("\u2019", "'").replace("\u2018", "'")
    found: list[Signal] = []
    for sentence in _SENTENCE.finditer(text):
        if "?" in sentence.group("end"):
            continue  # "am I just stressed?", "do you think I'm angry?"
        for clause in _CLAUSE_SPLIT.split(sentence.group("body")):
            for match in _STATEMENT.finditer(clause):
                rule = _RULE_OF_WORD[" ".join(match.group("word").lower().split())]
                if _HEDGE.search(clause[: match.start()]):
                    continue
                rest = clause[match.end() :]
                if any(re.match(rf"\s+{re.escape(w)}\b", rest, re.I) for w in rule.not_followed_by):
                    continue
                phrase = " ".join(match.group(0).split())
                found.append(Signal(rule.label, rule.confidence, clip_marker(f"said: {phrase}")))
    return found


def _words_pattern(words: Sequence[str]) -> str:
    ordered = sorted(words, key=len, reverse=True)  # "stressed out" before "stressed"
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in ordered)


_RULE_OF_WORD = {word: rule for rule in AFFECT_RULES for word in rule.words}
_STATEMENT = re.compile(
    rf"\b(?:{_words_pattern(SUBJECTS)})(?:\s+feeling)?(?:\s+(?:{_words_pattern(INTENSIFIERS)}))*"
    rf"\s+(?P<word>{_words_pattern(list(_RULE_OF_WORD))})\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?P<body>[^.!?;\n]+)(?P<end>[.!?;\n]*)")
_CLAUSE_SPLIT = re.compile(r",|\b(?:but|and|though|although|yet|because|while)\b", re.IGNORECASE)
_HEDGE = re.compile(r"n't\b|\b(?:not|never|no longer|if|whether|nobody|no one)\b", re.IGNORECASE)


def clip_marker(marker: str) -> str:
    return marker[:MAX_MARKER_CHARS]
