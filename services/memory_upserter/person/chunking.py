"""Markdown → knowledge chunks (pure), one section at a time.

A section is the text under a heading; its heading trail ("Nutrition > Protein") travels with
every chunk of it and into its hash, so the same words under another heading are another chunk.
Paragraphs are packed into chunks of at most :data:`MAX_CHARS` (aiming at :data:`TARGET_CHARS`);
a paragraph too long is split between sentences, a sentence too long between words. Headings
inside fenced code blocks are code, not headings. The document is read line by line from the one
string the request holds: no second copy of it is made.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

TARGET_CHARS = 1000
MAX_CHARS = 1200
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Chunk:
    position: int
    section: tuple[str, ...]
    text: str
    content_hash: str

    @property
    def label(self) -> str:
        return " > ".join(self.section)

    @property
    def embed_text(self) -> str:
        return f"{self.label}\n\n{self.text}" if self.section else self.text


def content_hash(section: tuple[str, ...], text: str) -> str:
    return hashlib.sha256((" > ".join(section) + "\n" + text).encode()).hexdigest()


def lines(text: str) -> Iterator[str]:
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        if end == -1:
            end = len(text)
        yield text[start:end].rstrip("\r")
        start = end + 1


def sections(text: str) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """(heading trail, paragraphs) for each section, in document order."""
    trail: list[tuple[int, str]] = []
    paragraphs: list[str] = []
    current: list[str] = []
    fenced = False
    for line in lines(text):
        if _FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading:
            if current:
                paragraphs.append("\n".join(current))
            if paragraphs:
                yield tuple(t for _, t in trail), paragraphs
            paragraphs, current = [], []
            level = len(heading[1])
            trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, heading[2])]
        elif not line.strip() and not fenced:
            if current:
                paragraphs.append("\n".join(current))
                current = []
        else:
            current.append(line)
    if current:
        paragraphs.append("\n".join(current))
    if paragraphs:
        yield tuple(t for _, t in trail), paragraphs


def _pieces(paragraph: str) -> Iterator[str]:
    """The paragraph, or its sentences, or its words, each at most MAX_CHARS."""
    if len(paragraph) <= MAX_CHARS:
        yield paragraph
        return
    for sentence in _SENTENCE_END.split(paragraph):
        while len(sentence) > MAX_CHARS:
            cut = sentence.rfind(" ", 0, MAX_CHARS)
            cut = cut if cut > MAX_CHARS // 2 else MAX_CHARS
            yield sentence[:cut]
            sentence = sentence[cut:].lstrip()
        if sentence:
            yield sentence


def chunks(text: str) -> Iterator[Chunk]:
    """Every chunk of the document, with its position and hash."""
    position = 0
    for trail, paragraphs in sections(text):
        buffer = ""
        for paragraph in paragraphs:
            for piece in _pieces(paragraph.strip()):
                joiner = "\n\n" if "\n" in piece or len(piece) == len(paragraph.strip()) else " "
                if buffer and (
                    len(buffer) + len(joiner) + len(piece) > MAX_CHARS
                    or len(buffer) >= TARGET_CHARS
                ):
                    yield Chunk(position, trail, buffer, content_hash(trail, buffer))
                    position += 1
                    buffer = ""
                buffer = f"{buffer}{joiner}{piece}" if buffer else piece
        if buffer.strip():
            yield Chunk(position, trail, buffer, content_hash(trail, buffer))
            position += 1
