"""The plan's pure vocabulary (no I/O): text folded as Postgres folds it, and the words a plan
is read with — the handles that mean the user, the categories an ``entity_ref`` or a
predicate's object implies, what counts as a feeling, the words grounding ignores. The turn's
stages (:mod:`.turn_read`, :mod:`.turn_plan`, :mod:`.turn_response`) decide with these."""

from __future__ import annotations

import re
import unicodedata

SELF_HANDLES = frozenset({"user", "me", "self", "i", "myself", "self:user", "the user"})
SELF = -1  # the handle index of the user's own entity
REF_CATEGORIES = {
    "person": "Person",
    "place": "Location",
    "org": "Org",
    "project": "Project",
    "goal": "Goal",
    "food": "Food",
    "habit": "Habit",
    "pet": "Pet",
    "thing": "Thing",
    "event": "Event",
}
OBJECT_CATEGORIES = {
    "LIVES_IN": "Location",
    "BORN_IN": "Location",
    "FROM": "Location",
    "VISITED": "Location",
    "HOMETOWN": "Location",
    "WORKS_AT": "Org",
    "STUDIES_AT": "Org",
    "MEMBER_OF": "Org",
    "WORKS_ON": "Project",
    "HAS_PET": "Pet",
}
AFFECT_PREDICATES = frozenset(
    {"FEELS", "FEELING", "MOOD", "EMOTION", "AFFECT", "IS_FEELING", "FEELS_LIKE", "EMOTIONAL_STATE"}
)
# Words that say nothing about what a fact or a todo is (grounding, picking the todo done).
STOP_WORDS = frozenset("the a an of and or in at to my our for on with is are user".split())
NUMBER_WORDS = {
    w: str(n) for n, w in enumerate("one two three four five six seven eight nine ten".split(), 1)
}

# "done", and what makes it not (yet) done: "not done", "I'll be finished", "once it's done".
DONE = re.compile(
    r"\b(?:done|finished|completed|I\s+did\s+(?:it|that)|checked\s+(?:it\s+)?off|"
    r"ticked\s+(?:it\s+)?off)\b",
    re.IGNORECASE,
)
NEGATED = re.compile(
    r"(?:\bnot|n't|\bnever|\balmost|\bnearly|\bhalf|\bbarely|\bwill|'ll|"
    r"\bgonna|\bgoing\s+to|\bwhen|\bif|\bonce|\buntil)\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)
# A todo's source sentence: how a message splits, and what sounds like a todo.
SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
TODO_CUES = re.compile(
    r"(?i)\b(?:remind|i'll|i will|going to|gonna|promise|add|list|need to|"
    r"have to|goal|tomorrow|tonight|today|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|next week)\b"
)


def fold(text: str) -> str:
    """Case- and accent-insensitive form, close to Postgres's ``twin_normalize``."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())
