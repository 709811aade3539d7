"""What the reply confirms to the person of what they asked memory to do this turn (pure):
a forget they asked for ("please forget that I told you about Marta Silva") and each fact their
words ended ("that's wrong, I'm only allergic to peanuts"). One line each, in the person's
terms, for the node that sends the reply (``twin chat`` prints them, the fast brain appends
them to the reply); a forget that reached nothing says so too, so the person is never told a
thing was forgotten that was not. The notices in ``warnings`` say the same for machines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from contracts.memory import FactWritten
from services.memory_upserter.commit.asked import reached_before

KINDS = ("facts", "todos", "episodes", "messages", "entities")


def confirmations(
    forget: Sequence[str],
    forgotten: Mapping[str, int],
    facts: Sequence[FactWritten],
    said: Sequence[str] = (),
) -> list[str]:
    """``said``: this turn's user messages (a forget of them is not news to the person)."""
    lines = []
    if forget:
        named = ", ".join(f'"{t}"' for t in forget)
        before = reached_before(forget, forgotten, said)
        reached = any(before.get(k) for k in KINDS)
        lines.append(
            f"✓ Forgotten, as you asked: {named}."
            if reached
            else f"Nothing I remember matched {named}: nothing was forgotten."
        )
    lines += [f'✓ No longer noted: "{f.text}".' for f in facts if f.outcome == "ended"]
    return lines
