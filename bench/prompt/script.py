"""The scripted conversation: Telegram-style messages, each with the reply and the memory plan
a careful model would answer (fixed, so every build is measured on the same turns).

Two sessions a day apart in one chat, the first consolidated in between (its episode, its
summary, and the psyche guess "i always overthink…" stored at confidence 0.4), so the second
session's prompts carry the first one's tail, recalled turns and what it stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

DAY1 = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)
DAY2 = DAY1 + timedelta(days=1, hours=-10)


@dataclass(frozen=True)
class Say:
    text: str
    reply: str
    plan: dict[str, Any] = field(default_factory=dict)
    at: datetime = DAY1


def _fact(predicate: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"memory_type": "PROFILE", "predicate": predicate, "text": text, **extra}


CONVERSATION = [
    Say(
        "hiii im ana, i live in lisbon and work as a nurse at santa maria",
        "Nice to meet you, Ana! Nursing at Santa Maria must keep you busy.",
        {
            "facts": [
                _fact("NAME", "User's name is Ana", value="Ana", importance=3),
                _fact("LIVES_IN", "User lives in Lisbon", object="Lisbon", importance=2),
                _fact("WORKS_AT", "User works as a nurse at Santa Maria", value="Santa Maria"),
            ]
        },
    ),
    Say(
        "my sister marta lives in porto, shes a teacher",
        "Porto is lovely. Do you get to see Marta often?",
        {
            "entities": [{"name": "Marta", "category": "Person"}],
            "facts": [
                _fact("HAS_SISTER", "Marta is the user's sister", object="Marta", importance=2),
                {
                    "memory_type": "PEOPLE",
                    "subject": "Marta",
                    "predicate": "LIVES_IN",
                    "object": "Porto",
                    "text": "Marta lives in Porto",
                },
            ],
        },
    ),
    Say(
        "remind me to call marta on friday",
        "Sure, I'll keep that on your list for Friday.",
        {"todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "2026-03-06"}]},
    ),
    Say(
        "i adopted a beagle called pixel last week!!",
        "Congratulations! How is Pixel settling in?",
        {
            "entities": [{"name": "Pixel", "category": "Pet"}],
            "facts": [_fact("HAS_DOG", "User has a beagle called Pixel", object="Pixel")],
        },
    ),
    Say(
        "so nervous about my exam on monday tbh",
        "That's understandable. What's the exam on?",
        {"promote_affect": {"label": "nervous", "user_statement": "so nervous about my exam"}},
    ),
    Say(
        "its the specialist nursing exam, been studying for months",
        "Months of study count. You're more ready than it feels.",
        {"todos": [{"kind": "THREAD", "text": "Specialist nursing exam on Monday"}]},
    ),
    Say(
        "i always overthink things before exams",
        "Lots of people do. What helps you switch off?",
    ),
    Say("morning! pixel chewed my shoes lol", "Ha, beagles! Which pair?", at=DAY2),
    Say(
        "called marta yesterday btw",
        "Good, one thing off the list.",
        {"complete_commitment": True},
        at=DAY2 + timedelta(minutes=2),
    ),
    Say(
        "what do you remember about my sister?",
        "Marta is your sister; she lives in Porto and teaches.",
        at=DAY2 + timedelta(minutes=4),
    ),
    Say(
        "we moved to porto last weekend, near her",
        "Big change! And near Marta, too.",
        {"facts": [_fact("LIVES_IN", "User lives in Porto", object="Porto", importance=2)]},
        at=DAY2 + timedelta(minutes=6),
    ),
]


def timed() -> list[Say]:
    """Each turn with its time: a minute apart within a session."""
    out, last = [], None
    for say in CONVERSATION:
        at = say.at if say.at != DAY1 or last is None else last + timedelta(minutes=1)
        out.append(Say(say.text, say.reply, say.plan, at))
        last = at
    return out
