"""The words the commit and the offline judge read text with (pure): text folded as Postgres
folds it, a text's words, the words that say nothing about what a fact or a todo is, "done" and
what makes it not done, near-quotes, and how a message splits into sentences."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from services.core import text as core_text
from services.core.text import squeeze

# Words that say nothing about what a fact or a todo is (grounding, picking the todo done):
# connectives, pronouns and determiners ("tattoos of her dogs" is about tattoos and dogs).
STOP_WORDS = frozenset(
    """the a an of and or in at to for on with by from as since until till is are was were be
    been user s i me my mine myself you your yours yourself he him his himself she her hers
    herself it its itself we us our ours ourselves they them their theirs themselves this that
    these those who whom whose which some any each every all both either neither no another
    other such much many few several""".split()
)
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


# A chat command ("/start", "/help", "/forget Lisbon", Telegram's "/start@my_bot"): an
# instruction to the bot, never something the person said about their life.
COMMAND = re.compile(r"^\s*/[A-Za-z][\w-]*(?:@\w+)?(?:\s|$)")


def is_command(text: str) -> bool:
    """The message is a slash command: the judge extracts nothing from it."""
    return bool(COMMAND.match(text))


def fold(text: str) -> str:
    """A text as this package compares it: Postgres's ``twin_normalize``
    (:func:`services.core.text.fold`), zero-width and bidi characters dropped
    (:func:`services.core.text.visible`, as entity names are stored), whitespace squeezed:
    ``"Márta’s  cat"`` → ``"marta's cat"``.
    """
    return squeeze(core_text.fold(core_text.visible(text)))


_WORDS = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return _WORDS.findall(fold(text))


def says_done(text: str) -> bool:
    """The user says something is done/finished/completed — not "not done yet", not "I'll be
    finished tomorrow", not "once it's done"."""
    for match in DONE.finditer(text):
        before, after = text[: match.start()], text[match.end() :]
        if not NEGATED.search(before) and not re.match(r"\W*yet\b", after, re.IGNORECASE):
            return True
    return False


def statement_in(statement: str, texts: Sequence[str], *, ratio: float = 0.85) -> bool:
    """Near-quote: the statement's words appear in one of the texts, in order, give or take a
    few letters (a typo, a contraction)."""
    wanted = words(statement)
    if not wanted:
        return False
    target = " ".join(wanted)
    for text in texts:
        have = words(text)
        for start in range(max(1, len(have) - len(wanted) + 1)):
            window = " ".join(have[start : start + len(wanted)])
            if window == target or SequenceMatcher(None, target, window).ratio() >= ratio:
                return True
    return False
