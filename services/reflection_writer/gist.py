"""The offline one-liner (pure): the person's weightiest statement of the session, quoted.

Issue 28: "Talked about great, fun and goals" is a word list. The offline engine writes no
sentence of its own (it would invent), so the one-liner quotes the person: ``The user said:
"…"``, the statement of theirs that weighs most, with the people it left out after it
("Also mentioned Marta."). A statement is a sentence of the person's that is not a question,
not said to the other side ("you", "your"), not small talk ("good to see you", "since we last
talked"), of at least :data:`MIN_WORDS` words. Its weight: its content words (up to 12), +4
for a life event (a job, a move, a birth, a death, a wedding, a diagnosis…), +3 for an
explicit link, +2 for each feeling word and each of the session's people it names. Ties go to
the earliest. Without a statement, the person's first question (``The user asked: "…"``);
with neither, a fixed sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.reflection_writer.links import evidence_quotes
from services.reflection_writer.model import Message
from services.reflection_writer.text import STOPWORDS, clip, fold, sentences, words
from services.reflection_writer.tone import emotional_hits

ONE_LINER_CHARS = 200
MIN_WORDS = 5
NOTHING = "A short exchange with no statements from the user."

_YOU = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b")
_SMALL_TALK = re.compile(
    r"\b(?:good to see|nice to see|how have|how are|how's it going|what's up|long time|"
    r"since (?:we|our) (?:last|talked|spoke|chatted)|talk (?:soon|later)|take care|"
    r"catch up|good morning|good night|bye)\b"
)
_LIFE_EVENT = re.compile(
    r"\b(?:job|work(?:ed|ing)? (?:at|as|for)|hired|fired|quit|promot\w*|laid off|lost my|"
    r"moved|moving|move to|house|apartment|flat|married|wedding|engaged|divorc\w*|"
    r"pregnan\w*|baby|born|adopt\w*|passed away|died|funeral|diagnos\w*|surgery|hospital|"
    r"graduat\w*|degree|school|university|college|started|starting|business|studio|"
    r"broke up|breakup|boyfriend|girlfriend|partner|wife|husband|kids?|daughter|son)\b"
)


def one_liner(messages: Sequence[Message], people: Sequence[str]) -> str:
    """The session's one-liner (see the module doc), at most 200 characters."""
    said = [(m, s) for m in messages if m.role == "user" for s in sentences(m.text)]
    statements = [s for _, s in said if _is_statement(s)]
    if statements:
        best = max(statements, key=lambda s: (weight(s, people), -statements.index(s)))
        return _with_people(f'The user said: "{_quote(best)}"', best, people)
    questions = [
        s for _, s in said if s.endswith("?") and len(s.split()) >= 3 and not _small_talk(s)
    ]
    if questions:
        return f'The user asked: "{_quote(questions[0])}"'
    return NOTHING


def weight(sentence: str, people: Sequence[str]) -> int:
    folded = fold(sentence)
    content = {w for w in words(sentence) if w not in STOPWORDS and len(w) > 2}
    named = sum(1 for p in people if _names(p, sentence))
    return (
        min(len(content), 12)
        + 4 * bool(_LIFE_EVENT.search(folded))
        + 3 * bool(evidence_quotes(sentence))
        + 2 * emotional_hits(sentence)
        + 2 * named
    )


def _is_statement(sentence: str) -> bool:
    folded = fold(sentence)
    return (
        not folded.endswith("?")
        and len(folded.split()) >= MIN_WORDS
        and not _YOU.search(folded)
        and not _small_talk(sentence)
    )


def _small_talk(sentence: str) -> bool:
    return bool(_SMALL_TALK.search(fold(sentence)))


def _names(name: str, text: str) -> bool:
    return bool(re.search(rf"(?<!\w){re.escape(fold(name))}(?!\w)", fold(text)))


def _quote(sentence: str) -> str:
    return clip(sentence.replace('"', "'"), 150)


def _with_people(line: str, quoted: str, people: Sequence[str]) -> str:
    others = [p for p in people if not _names(p, quoted)][:3]
    if others:
        listed = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " and " + others[-1]
        line = f"{line} Also mentioned {listed}."
    return clip(line, ONE_LINER_CHARS)
