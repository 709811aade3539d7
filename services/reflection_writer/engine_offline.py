"""The deterministic offline engine: an extractive reflection, summary and psyche (pure).

It only ever copies what was said; it never writes a link the user did not make. The rules:

- **Observation**: user sentences that are first-person statements (I/my/me/we…, ≥ 3 words,
  not questions).
- **Readouts are not evidence** (``readouts.py``): an assistant sentence that only reads
  memory back to the person is dropped before any rule below sees it — a statement (not a
  question) that reports memory ("you told me…", "I remember…", "as far as I know…"), restates
  the person or their people ("You live in Lisbon.", "Your sister Marta lives in Madrid."), or
  whose content words are all in the session's user messages or the names of known entities
  ("Marta, Madrid."). An assistant message made only of readouts adds no Action and names no
  people; it still answers the user's last message (it is not "Unanswered").
- **Action**: the first two sentences of each assistant message (readouts left out).
- **Evidence** (``links.py``): user sentences that state an explicit link of the person's
  own — causal ("because", "that's why", ", so I…", "due to", "made me"…) or temporal
  ("after" an event, "whenever", "ever since") — each citing its message; not a question,
  not words to the other side, not a greeting's "since we last talked"; a bare "It made me…"
  is quoted with the sentence before it. The quote passes the grounding check.
- **Unresolved**: user questions, needs ("I need to", "I should", "I have to", "not sure"…),
  and the last user message when no assistant message answered it (its last sentence that is
  not a goodbye, thanks or nod: "nah thats it. bye" leaves nothing unanswered).
- **Commitments**: "I'll", "I will", "I'm going to", "remind me", "I promise", "I plan to".
- **People** (``people.py``): the user's known Person entities named in the session, plus
  names the person used for someone ("my sister Marta", "met Ana", "Tom said"), never a
  speaker's own name, a greeting's, a place's or a title's.
- **One-liner** (``gist.py``): the person's weightiest statement, quoted (``The user said:
  "…"``), with the people it left out.
- **Tone** (``tone.py``): the one or two most frequent labels of a small lexicon over user
  messages, else "neutral".
- **Psyche**: "I value / I care about / … matters to me" → value; "I believe / I think that /
  I'm convinced" → belief; "I always / I never / I tend to / I'm the kind of person" → trait;
  only about the person: a sentence that speaks to the other side ("I believe in you, Dave",
  "I believe in us!", "Your help matters to me") is none, nor a passing state ("I feel like I
  can't stop writing"); confidence 0.4 (low authority).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from contracts.reflection_draft import (
    LIST_CAP,
    EvidenceLine,
    PsycheItem,
    PsycheKind,
    Reflection,
    ReflectionDraft,
    SessionSummary,
)
from services.reflection_writer.gist import one_liner
from services.reflection_writer.links import evidence_quotes
from services.reflection_writer.model import KnownEntity, Message
from services.reflection_writer.people import find_people
from services.reflection_writer.readouts import without_readouts
from services.reflection_writer.text import clip, fold, sentences, unique
from services.reflection_writer.tone import emotional_hits, tone

PSYCHE_CONFIDENCE = 0.4
# A goodbye, thanks or a nod closing a chat ("nah thats it. bye", "thanks!! ttyl"): nothing
# was asked, so it is never "Unanswered".
_CLOSING = re.compile(
    r"\W*(?:(?:bye+|goodbye|cya|see\s+(?:ya|you)(?:\s+later|\s+soon)?|later|ttyl|gn|good\s*night|"
    r"night|thanks?|thank\s+you(?:\s+so\s+much)?|thx|ty|ok(?:ay)?|k|cool|great|nice|perfect|"
    r"awesome|lol|haha\w*|nah|no|yes|yeah|yep|sure|that'?s\s+(?:it|all)|all\s+good|"
    r"talk\s+(?:soon|later)|take\s+care|x+o*x*)\W*)+"
)

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|my|me|mine|myself|we|we're|our|us)\b")
_NEED = re.compile(
    r"\b(?:i need to|i should|i have to|i must|i've got to|i ought to|not sure|"
    r"don't know|can't decide|wondering|no idea)\b"
)
_COMMIT = re.compile(
    r"\b(?:i'll|i will|i'm going to|i am going to|i'm gonna|remind me|"
    r"i promise|i plan to|i intend to)\b"
)
_VALUE = re.compile(
    r"\b(?:i value|i care (?:a lot |deeply )?about|i believe in|"
    r"(?:matters|matter) (?:a lot |so much )?to me|"
    r"(?:is|are) (?:really |very )?important to me)\b"
)
_BELIEF = re.compile(
    r"\b(?:i believe|i think that|i'm convinced|i am convinced|"
    r"i'm sure that|i feel like(?! i\b| i'm\b| i've\b| i'll\b))\b"
)
_TRAIT = re.compile(
    r"\b(?:i always|i never|i tend to|i usually|i'm (?:the )?kind of person|"
    r"i am (?:the )?kind of person|i'm someone who|i am someone who|"
    r"i'm (?:not )?(?:a|an) \w+ person|i am (?:not )?(?:a|an) \w+ person)\b"
)

_NOT_ABOUT_ME = re.compile(r"\b(?:you|your|yours|yourself|u|ur)\b|\bbelieve in us\b")


def draft(messages: Sequence[Message], known: Sequence[KnownEntity] = ()) -> ReflectionDraft:
    """The extractive reflection, summary and psyche of one session range."""
    messages = without_readouts(messages, known)
    text = fold(" ".join(m.text for m in messages))
    known = [e for e in known if re.search(rf"(?<!\w){re.escape(fold(e.name))}(?!\w)", text)]
    user = [(m, s) for m in messages if m.role == "user" for s in sentences(m.text)]
    reflection = Reflection(
        observation=_observations(user),
        action=unique(
            (
                clip(" ".join(sentences(m.text)[:2]), 200)
                for m in messages
                if m.role == "assistant" and m.text.strip()
            ),
            LIST_CAP,
        ),
        evidence=_evidence(messages),
        unresolved=_unresolved(messages, user),
    )
    people = find_people(messages, known)
    summary = SessionSummary(
        one_liner=one_liner(messages, people),
        what_mattered=_what_mattered(reflection, user, people),
        open_loops=[clip(line, 160) for line in reflection.unresolved][:6],
        commitments=unique((clip(s, 160) for _, s in user if _COMMIT.search(fold(s))), 6),
        people=people[:10],
        tone=tone(messages),
    )
    return ReflectionDraft(reflection=reflection, summary=summary, psyche=psyche(user))


def _observations(user: list[tuple[Message, str]]) -> list[str]:
    return unique(
        (
            clip(s, 300)
            for _, s in user
            if not s.endswith("?") and len(s.split()) >= 3 and _FIRST_PERSON.search(fold(s))
        ),
        LIST_CAP,
    )


def _evidence(messages: Sequence[Message]) -> list[EvidenceLine]:
    quotes = [(m, quote) for m in messages if m.role == "user" for quote in evidence_quotes(m.text)]
    lines: list[EvidenceLine] = []
    seen: set[str] = set()
    for message, quote in quotes:
        if fold(quote) in seen:
            continue
        seen.add(fold(quote))
        lines.append(EvidenceLine(text=clip(quote, 300), message_id=message.message_id))
        if len(lines) >= LIST_CAP:
            break
    return lines


def _unresolved(messages: Sequence[Message], user: list[tuple[Message, str]]) -> list[str]:
    items = [s for _, s in user if s.endswith("?") or _NEED.search(fold(s))]
    spoken = [m for m in messages if m.role == "user" and m.text.strip() or m.role == "assistant"]
    if spoken and spoken[-1].role == "user":
        last = [s for s in sentences(spoken[-1].text) if not _CLOSING.fullmatch(fold(s))][-1:]
        if last:
            items = [s for s in items if s != last[0]] + [f"Unanswered: {last[0]}"]
    return unique((clip(item, 300) for item in items), LIST_CAP)


def _what_mattered(
    reflection: Reflection, user: list[tuple[Message, str]], people: list[str]
) -> list[str]:
    names = [fold(p) for p in people]
    weighty = [s for _, s in user if emotional_hits(s) or any(n in fold(s) for n in names)]
    ranked = [e.text for e in reflection.evidence] + weighty + list(reflection.observation)
    return unique((clip(s, 160) for s in ranked), 5)


def psyche(user: list[tuple[Message, str]]) -> list[PsycheItem]:
    items: list[PsycheItem] = []
    seen: set[str] = set()
    for message, sentence in user:
        folded = fold(sentence)
        if sentence.endswith("?") or folded in seen or _NOT_ABOUT_ME.search(folded):
            continue
        kind: PsycheKind | None = (
            "value"
            if _VALUE.search(folded)
            else "belief"
            if _BELIEF.search(folded)
            else "trait"
            if _TRAIT.search(folded)
            else None
        )
        if kind is None:
            continue
        seen.add(folded)
        items.append(
            PsycheItem(
                kind=kind,
                text=clip(sentence, 300),
                message_ids=[message.message_id],
                confidence=PSYCHE_CONFIDENCE,
            )
        )
        if len(items) >= LIST_CAP:
            break
    return items
