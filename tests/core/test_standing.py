"""Which of the person's messages are standing instructions (pure)."""

from __future__ import annotations

import pytest

from services.core import standing
from services.core.standing import is_standing


@pytest.mark.parametrize(
    "text",
    [
        "Always format all code snippets with syntax highlighting when I ask about implementation.",
        "Never use emoji.",
        "ok, always reply in Portuguese",
        "From now on, answer in bullet points",
        "Thanks! Please always include version numbers.",
        "Give me the metric units whenever I ask about recipes",
        "Make sure to never mention my ex.",
        "I prefer short replies",
        "I'd rather keep the explanations brief, can you show me the loop again?",
    ],
)
def test_an_instruction_about_how_to_be_answered_is_standing(text: str) -> None:
    assert is_standing("user", text)


@pytest.mark.parametrize(
    "text",
    [
        "No prob! Always here to help. Can't wait to see the vid!",  # LoCoMo chit-chat
        "You're doing great. Never give up!",
        "Never had a chance to visit it. Been only to Rome once.",
        "Acting was my first passion. Never say never!",
        "What happens when I ask the API for a token?",
        "This always fails when I run it",
        "Can you show me how to implement a login feature?",
    ],
)
def test_chat_that_only_says_always_or_never_is_not(text: str) -> None:
    assert not is_standing("user", text)


def test_only_the_persons_own_messages_and_preferences_only_when_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not is_standing("assistant", "Always include version numbers when I ask about libs.")
    monkeypatch.setattr(standing, "PREFERENCES", False)
    assert not is_standing("user", "I prefer short replies")
    assert is_standing("user", "Never use emoji.")
