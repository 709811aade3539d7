"""What the real Bot API does with ``sendMessage``'s ``text`` and ``parse_mode``: the visible
text, or the same ``Bad Request`` it answers.

As strict as Telegram where our flows could go wrong: HTML accepts only Telegram's tags and
the four named entities (``&lt; &gt; &amp; &quot;``) or numeric ones — a bare ``<`` or ``&``
is refused; legacy Markdown refuses an unclosed ``*``, ``_``, `````` ` `````` or ``[``; MarkdownV2
also refuses any reserved character not escaped with ``\\``. Lengths are counted as Telegram
counts them, in UTF-16 code units of the text after entity parsing (at most 4096).
"""

from __future__ import annotations

import html
import re

MAX_TEXT = 4096
HTML_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "code",
    "pre",
    "blockquote",
    "tg-emoji",
}
_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)((?:\s+[\w-]+(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*>")
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")
V2_RESERVED = set("_*[]()~`>#+-=|{}.!")


class BadRequest(ValueError):
    """The ``description`` Telegram answers with ``400 Bad Request``."""


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def visible_text(text: str, parse_mode: str | None) -> str:
    """The message as the person sees it; :class:`BadRequest` where Telegram refuses it."""
    if not text:
        raise BadRequest("Bad Request: message text is empty")
    if parse_mode in (None, ""):
        shown = text
    elif parse_mode == "HTML":
        shown = _html(text)
    elif parse_mode == "Markdown":
        shown = _markdown(text)
    elif parse_mode == "MarkdownV2":
        shown = _markdown_v2(text)
    else:
        raise BadRequest(f"Bad Request: unsupported parse_mode {parse_mode!r}")
    if not shown.strip():
        raise BadRequest("Bad Request: message text is empty")
    if utf16_len(shown) > MAX_TEXT:
        raise BadRequest("Bad Request: message is too long")
    return shown


def _offset(text: str, index: int) -> int:
    return len(text[:index].encode())


def _html(text: str) -> str:
    out, stack, i = [], [], 0
    while i < len(text):
        char = text[i]
        if char == "<":
            tag = _TAG.match(text, i)
            if not tag or tag.group(2).lower() not in HTML_TAGS:
                raise BadRequest(
                    "Bad Request: can't parse entities: Unsupported start tag "
                    f"at byte offset {_offset(text, i)}"
                )
            name = tag.group(2).lower()
            if tag.group(1):
                if not stack or stack.pop() != name:
                    raise BadRequest(
                        "Bad Request: can't parse entities: Unexpected end tag "
                        f"at byte offset {_offset(text, i)}"
                    )
            else:
                stack.append(name)
            i = tag.end()
        elif char == "&":
            entity = _ENTITY.match(text, i)
            if not entity:
                raise BadRequest(
                    "Bad Request: can't parse entities: Unsupported HTML entity "
                    f"at byte offset {_offset(text, i)}"
                )
            out.append(html.unescape(entity.group(0)))
            i = entity.end()
        elif char == ">":
            raise BadRequest(
                "Bad Request: can't parse entities: Unexpected '>' at byte offset "
                f"{_offset(text, i)}"
            )
        else:
            out.append(char)
            i += 1
    if stack:
        raise BadRequest(
            f"Bad Request: can't parse entities: Can't find end tag corresponding "
            f'to start tag "{stack[-1]}"'
        )
    return "".join(out)


def _markdown(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        char = text[i]
        if text.startswith("```", i):
            end = text.find("```", i + 3)
            if end < 0:
                raise _unclosed(text, i)
            out.append(text[i + 3 : end])
            i = end + 3
        elif char in "*_`":
            end = text.find(char, i + 1)
            if end < 0:
                raise _unclosed(text, i)
            out.append(text[i + 1 : end])
            i = end + 1
        elif char == "[":
            link = re.compile(r"\[([^\]]*)\]\(([^)]*)\)").match(text, i)
            if not link:
                raise _unclosed(text, i)
            out.append(link.group(1))
            i = link.end()
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _markdown_v2(text: str) -> str:
    out, open_marks, i = [], [], 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        elif char in "*_~`|":
            mark = text[i : i + 2] if text[i : i + 2] in ("__", "||") else char
            if open_marks and open_marks[-1][0] == mark:
                open_marks.pop()
            else:
                open_marks.append((mark, i))
            i += len(mark)
        elif char in V2_RESERVED:
            raise BadRequest(
                f"Bad Request: can't parse entities: Character '{char}' is "
                "reserved and must be escaped with the preceding '\\'"
            )
        else:
            out.append(char)
            i += 1
    if open_marks:
        raise _unclosed(text, open_marks[-1][1])
    return "".join(out)


def _unclosed(text: str, index: int) -> BadRequest:
    return BadRequest(
        "Bad Request: can't parse entities: Can't find end of the entity "
        f"starting at byte offset {_offset(text, index)}"
    )
