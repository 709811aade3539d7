"""A model's JSON that almost parses, mended where only one reading exists (pure).

Small local models write JSON with a comma before a closing bracket (``{"a": 1,}``), and an
answer cut at the token limit stops mid-way (``…"valid_to": "29/``). Neither is JSON, and
reading the whole text as the reply sends the person the raw JSON and loses the plan.

:func:`mend` returns the text mended and what was done, or None when there is nothing it can
mend: a comma before ``}``/``]`` is removed; a text that ends inside an open object or list is
cut back to the last complete member (an unfinished string, key or value is dropped, never
completed; a fact or todo not closed is dropped whole) and its brackets closed. Strings are
respected: a comma or bracket inside one is text."""

from __future__ import annotations

_CLOSE = {"{": "}", "[": "]"}


class _Scan:
    """One pass over the text: what it reads as without commas before a closing bracket
    (``out``), the brackets open at its end (``stack``), the length of ``out``'s longest
    prefix that ends after a whole member (``safe``, 0: none), and whether the brackets
    were unbalanced."""

    def __init__(self, text: str) -> None:
        self.out: list[str] = []
        self.stack: list[str] = []
        self.safe = 0
        self.broken = False
        in_string = escaped = False
        for ch in text:
            if in_string:
                self.out.append(ch)
                in_string, escaped = _string_goes_on(ch, escaped)
            elif not self._mark(ch):
                return
            else:
                in_string = ch == '"'

    def _mark(self, ch: str) -> bool:
        """Read one character outside a string; False when the brackets do not match."""
        if ch in "}]":
            while self.out and self.out[-1].isspace():
                self.out.pop()
            if self.out and self.out[-1] == ",":  # a comma before the bracket: nothing follows
                self.out.pop()
            if not self.stack or _CLOSE[self.stack.pop()] != ch:
                self.broken = True
                return False
            self.out.append(ch)
            self.safe = len(self.out) if _whole(self.stack) else self.safe
            return True
        if ch in _CLOSE:
            self.stack.append(ch)
        elif ch == "," and _whole(self.stack):
            self.safe = len(self.out)  # every member before this comma is whole
        self.out.append(ch)
        return True


def _string_goes_on(ch: str, escaped: bool) -> tuple[bool, bool]:
    """(still inside the string, the next character escaped) after ``ch``."""
    if escaped:
        return True, False
    if ch == "\\":
        return True, True
    return ch != '"', False


def _whole(stack: list[str]) -> bool:
    """Whether a cut here keeps only whole parts: in a list, or in the answer's own objects
    (the answer, its plan); never inside a fact or todo, which would lose its later fields (a
    stay cut before its ``valid_to`` would become a home)."""
    return bool(stack) and ("[" not in stack or "{" not in stack[stack.index("[") :])


def _open_at(text: str) -> list[str]:
    """The brackets still open at the end of ``text`` (a prefix :class:`_Scan` found safe)."""
    return _Scan(text).stack


def mend(text: str) -> tuple[str, str] | None:
    """``(the mended JSON text, what was done)``, or None when the text cannot be mended
    (or needs nothing)."""
    start = text.find("{")
    if start < 0:
        return None
    body = text[start:].rstrip()
    scan = _Scan(body)
    if scan.broken:
        return None
    cleaned, stack, safe = "".join(scan.out), scan.stack, scan.safe
    if not stack:
        end = cleaned.rfind("}")
        if cleaned == body or end < 0:
            return None
        return cleaned[: end + 1], "a comma before a closing bracket removed"
    if safe == 0:
        return None
    kept = cleaned[:safe].rstrip().rstrip(",")
    opened = _open_at(kept)
    closing = "".join(_CLOSE[b] for b in reversed(opened))
    return kept + closing, "cut off: read up to its last complete member"
