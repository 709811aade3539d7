"""What a message is about, for the offline readout (pure): its todo ask, its people, its words.

- **An ask about the person** ("what do you know about me?", "who am I?").
- **A todo ask**: a question (a "?" or a question word first) about what is left to do ("what do
  I have to do?", "anything due this week?", "my todos?", "what's on my list").
- **Its people**: the entities graph-hydrator found named in the message (``seed`` "mention"),
  by name and aliases, plus a name asked about ("who is Marta?").
- **Its words**: content words (stop words out), compared folded, with a plural "s" dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from services.core.text import fold

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_STOP = frozenset(
    """a an the and or but if of to in on at for from by with about as into is am are was were
be been do does did have has had will would can could should may might must it its this that
these those there here what which who whom whose when where why how i me my mine we us our you
your he him his she her they them their not no so too very just also still any some all much
many more up out off again tell know remember anything something everything thing things
i'm i've i'll i'd it's what's who's don't didn't please thanks ok okay hey hi yes""".split()
)
_QUESTION_START = re.compile(
    r"^(?:(?:so|ok|okay|hey|um|btw)\W+)*(?:what|whats|wat|wot|which|who|whos|whom|whose|when|"
    r"where|wheres|why|how|hows|do|does|did|is|are|am|was|were|can|could|should|will|would|any|"
    r"anything|list|show|tell|remind)\b"
)
_TODO_WORDS = re.compile(
    r"\b(?:to ?-?dos?|to do|have to|has to|need to|got to|gotta|should i|left|pending|due|"
    r"remind(?:ers?)?|tasks?|plans?|planned|commitments?|agenda|my list|on my plate|deadlines?)\b"
)
_ABOUT_ME = re.compile(
    r"\b(?:about me|about myself|who am i|what do you know|what do you remember|my profile|"
    r"what have i told you|what i told you)\b"
)
_ASKED_NAME = re.compile(r"\bwho(?:'s| is| was| are)\s+([^\W\d_][\w'-]*(?:\s+[A-Z][\w'-]*)?)")


@dataclass(frozen=True)
class Focus:
    asks_todos: bool
    asks_about_me: bool  # "what do you know about me?": the person's foundation is the answer
    names: tuple[str, ...]  # folded names and aliases of the people the message is about
    words: frozenset[str]  # its content words (folded, "s" dropped)
    people: tuple[str, ...] = ()  # the name of each person it names, once (not their aliases)

    def touches(self, text: str) -> bool:
        """Whether ``text`` names one of the message's people or shares a content word."""
        return self.names_someone(text) or bool(self.words & content_words(text))

    def names_someone(self, text: str) -> bool:
        folded = fold(text)
        return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", folded) for n in self.names)


def focus_of(message: str, graph: Mapping[str, Any]) -> Focus:
    """What ``message`` is about, with GRAPH (the envelope's, as JSON) naming its people."""
    folded = " ".join(fold(message).split())
    is_question = folded.endswith("?") or bool(_QUESTION_START.search(folded))
    named = [
        entity
        for entity in graph.get("entities", [])
        if entity.get("seed") == "mention"
        and not str(entity.get("entity_ref") or "").startswith("self:")  # "me": the person
    ]
    names = [n for e in named for n in (e.get("name", ""), *e.get("aliases", []))]
    names += [m.group(1) for m in _ASKED_NAME.finditer(message)]
    return Focus(
        asks_todos=is_question and bool(_TODO_WORDS.search(folded)),
        asks_about_me=bool(_ABOUT_ME.search(folded)),
        names=tuple(dict.fromkeys(n for n in map(_folded, names) if n and n not in _STOP)),
        words=content_words(message),
        people=tuple(dict.fromkeys(_folded(e.get("name", "")) for e in named)),
    )


def content_words(text: str) -> frozenset[str]:
    return frozenset(_root(w) for w in _WORD.findall(fold(text)) if w not in _STOP and len(w) > 1)


def _folded(name: str) -> str:
    return " ".join(fold(name).split())


def _root(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def ordered(lines: Iterable[str]) -> list[str]:
    """``lines`` once each, in first-seen order, empty ones dropped."""
    return list(dict.fromkeys(line for line in lines if line))
