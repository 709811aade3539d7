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
# emoji (and their joiners): in chat they end a sentence or a clause ("omg 🙄 he's my boyfriend")
EMOJI = "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\U000e0000-\U000e007f]+"
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


# Done said of something else: praise ("well done!", "done deal"), someone else's doing ("how
# much they've done"), or experience ("I've done weight training so far").
_PRAISE = re.compile(
    r"(?i)\b(?:well|nicely|good|great|job|so|beautifully|see\s+it|get\s+it)\s+done\b|"
    r"\bdone\s+deal\b|\b(?:you|they|she|he)\s+(?:did\s+it|finished|are\s+done)\b"
)
_OTHERS_DONE = re.compile(
    r"(?i)\b(?:they|he|she|you|it|we)(?:'ve|'s|'re|\s+have|\s+has|\s+are|\s+is|\s+had)?\s+"
    r"(?:\w+\s+)?(?:done|finished|completed)\b"
)
_NOT_A_TASK_DONE = re.compile(
    r"(?i)^\W*(?:(?:I'm|I\s+am|im|we're|all|so|ok|okay)\s+)*done\s+for\s+(?:the\s+)?(?:day|today|"
    r"tonight|now|week|night)\b|"
    r"\bdone\s+(?:talking|arguing|chatting|discussing|here\s+for\s+today)\b|"
    r"\bdone\s+with\s+(?:work|school|uni|college|class(?:es)?|today|the\s+day|this\s+week)\b|"
    r"\bmy\s+[a-z]+(?:\s+[A-Za-z]+)?\s+(?:just\s+|finally\s+)?(?:finished|completed|is\s+done|'s\s+done)\b|"
    r"\b(?:last\s+(?:year|month|summer|spring|fall|autumn|winter)|years?\s+ago|in\s+(?:19|20)\d\d|"
    r"back\s+in|when\s+I\s+was)\b"
)  # the day over ("stretching done for today" names a habit), a talk ended, someone else's
# finishing, an achievement long past
_EXPERIENCE = re.compile(
    r"(?i)\bI(?:'ve|\s+have)\s+(?:\w+\s+)?done\s+[^,.;!?]*?\b(?:so\s+far|before|in\s+the\s+past|"
    r"a\s+lot\s+of|plenty\s+of|lots\s+of)\b"
)


def says_done(text: str) -> bool:
    """The person says something of theirs is done/finished/completed — not "not done yet",
    not "I'll be finished tomorrow", not "once it's done", and not praise or someone else's
    doing ("well done!", "they've done so much"): read sentence by sentence. The one rule the
    offline judge and the commit both close a todo by."""
    return any(_own_done(s) for s in SENTENCES.split(text))


# The words around a done that say nothing of *what* is done ("yesss finally done!!").
_NOT_WHAT = frozenset(
    "yes yess yesss yay woo woohoo omg lol haha phew wow oh ok okay well so just now all "
    "finally officially totally basically really thats its im ive also then".split()
)
_CLAUSE = re.compile(r"[,;:()]|\b(?:and|but|so|then|now|also)\b", re.IGNORECASE)


def done_what(text: str) -> list[str]:
    """The words naming what the person says is done: before the done word in its clause
    ("gym done!" → gym), and after a finished/completed ("finished the report" → report);
    stop words and the words of cheering aside. [] when the done names nothing ("ok finally
    done", "that's done")."""
    out: list[str] = []
    for sentence in SENTENCES.split(text):
        if not _own_done(sentence):
            continue
        for match in DONE.finditer(sentence):
            parts = [_CLAUSE.split(sentence[: match.start()])[-1]]
            if match[0].lower() in ("finished", "completed"):
                parts.append(_CLAUSE.split(sentence[match.end() :])[0])
            out += [
                w
                for part in parts
                for w in words(part)
                if len(w) > 2 and w not in STOP_WORDS and w not in _NOT_WHAT
            ]
    return out


def _own_done(sentence: str) -> bool:
    if any(p.search(sentence) for p in (_PRAISE, _OTHERS_DONE, _EXPERIENCE, _NOT_A_TASK_DONE)):
        return False
    for match in DONE.finditer(sentence):
        before, after = sentence[: match.start()], sentence[match.end() :]
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
