"""The English gloss of another language's words (:mod:`services.core.gloss`)."""

from __future__ import annotations

import pytest

from services.core.gloss import english, language, with_english


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        ("ich gehe zweimal pro woche klettern", "de"),
        ("mi primo ya se fue a sevilla", "es"),
        ("io sono a casa con mia sorella", "it"),
        ("eu não moro mais em lisboa", "pt"),
        ("je suis enceinte", "fr"),
        ("im so tired lol my mom came over", None),  # typed English "im" is no German
        ("me and my sister in la", None),
    ],
)
def test_the_language_of_a_sentence(sentence: str, lang: str | None) -> None:
    assert language(sentence) == lang


def test_a_sentence_is_read_word_by_word() -> None:
    assert english("meine schwester ana heiratet im mai") == (
        "my sister ana married marry wedding in the may"
    )


def test_a_short_sentence_takes_the_language_of_its_message() -> None:
    assert "my sister" in english("ich bin wieder da! meine schwester ana heiratet")


def test_a_bare_kin_word_is_the_persons_own() -> None:
    assert english("mama bleibt bis sonntag").startswith("my mom stays")
    assert english("meine mama bleibt bis sonntag").startswith("my mom stays")


def test_an_english_message_is_left_as_it_is() -> None:
    text = "i will be in porto until friday, mama says hi"
    assert english(text) == text
    assert with_english(text) == text


def test_a_foreign_message_is_read_with_its_english() -> None:
    assert with_english("ich bin in wien") == "ich bin in wien\ni am in vienna"
