"""A value as a whole phrase (pure): the place, the person or the thing an event's object
continues into ("bought air tickets" + "to Toronto", "watched a movie" + "with my kids"), never
a word cut at the first preposition, and never a time word ("for May", "on Sunday": the time
belongs to the clause, :mod:`.temporal`)."""

from __future__ import annotations

import re

from services.memory_upserter.extract.vocabulary import CHAT_WORDS

_TIME = (
    r"(?:next|last|this|every|tomorrow|tonight|today|yesterday|the\s+weekend|weekend|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|christmas|easter|\d+(?:st|nd|rd|th)?|"
    r"a\s+(?:bit|while|few)|ages|years?|months?|weeks?|days?|hours?|now|then|good|sure|real|fun)\b"
)
_WORD = (
    r"(?!(?:and|but|so|or|because|since|until|till|when|while|then|if|though|I|we|it|that|"
    r"which|who|to|for|with|in|on|at|from|about|near|into|by|of|as|like|than|over|under|around|"
    r"after|before|during|through|last|next|this|every)\b)[\w'’-]+"
)
_TAIL = re.compile(
    rf"\s+(?P<prep>to|from|in|at|into|with|for|about|near|on)\s+(?!{_TIME})"
    rf"(?P<words>(?:(?:the|a|an|my|our|his|her|their)\s+)?{_WORD}(?:\s+{_WORD}){{0,2}})"
    r"(?=\s*(?:[,.;:!?)]|$|\s))",
    re.IGNORECASE,
)


_OPEN_END = re.compile(
    r"(?i)\b(?:the|a|an|my|our|his|her|their|your|off|up|out|surrounded|including|featuring|"
    r"called|named)$"
)


def object_tail(text: str, at: int, *, most: int = 2) -> str:
    """The prepositional phrases (at most ``most``) that continue an object ending at ``at``."""
    tail, pos = "", at
    for _ in range(most):
        m = _TAIL.match(text, pos)
        if m is None or _OPEN_END.search(m["words"]):
            break  # "to show off my" (the rest cut off): the object ends before it
        tail += m.group(0)
        pos = m.end()
    return tail


# What a value may end on that is no part of it: chat words, sentence adverbs and tags ("hiking
# tbh", "peanuts lowkey", "marathon for real", "the piano you know").
_FILLERS = (
    *sorted(CHAT_WORDS, key=len, reverse=True),
    *"""honestly basically literally actually seriously obviously sadly luckily unfortunately
    hopefully mostly mainly really totally definitely probably apparently clearly truly
    genuinely frankly personally like lol haha""".split(),
    r"you\s+know",
    r"or\s+(?:whatever|something|so|smth)",
    r"and\s+(?:stuff|all|everything|things|whatnot|so\s+on)",
    r"to\s+be\s+honest",
    r"for\s+real",
    r"in\s+general",
    r"a\s+lot",
    r"(?:way\s+)?(?:so|that|too|very)\s+much",
    r"more\s+than\s+(?:anything|anyone|ever|life)(?:\s+else)?",
    r"at\s+all",
    r"so\s+bad(?:ly)?",
    r"like\s+crazy",
    r"to\s+death",
    r"(?:a\s+)?ton",
    r"(?:I|they)\s+(?:swear|guess|think|mean|suppose)",
)
_FILLER_TAIL = re.compile(
    r"(?i)(?:[\s,]+(?:" + "|".join(f.replace("-", r"\-") for f in _FILLERS) + r"))+[\s,.!]*$"
)
EMPTY = frozenset(
    """stuff whatever all everything things something that it this myself yourself ourselves
    himself herself themselves me you us them him her huge big massive total complete real
    true great little bit""".split()
)  # no value: a pronoun, or an intensifier whose noun was lost ("a huge nerd" → "huge")
# A comparison a value ends on ("my dog more than my husband"): the value is before it.
_COMPARED = re.compile(r"(?i)\s+(?:way\s+|much\s+|even\s+)?(?:more|less|better)\s+than\s+.*$")


def without_filler(value: str) -> str:
    """The value without the chat words it ends on ("hiking tbh" → "hiking", "sushi that
    much" → "sushi"); a value that is nothing but one ("stuff", "whatever") is empty."""
    kept = _FILLER_TAIL.sub("", value).strip()
    return "" if kept.lower() in EMPTY else kept


# A list's next item opened by a connective ("peanuts, also latex"): the connective is no part.
_LEAD = re.compile(r"(?i)^(?:also|and|plus|even|too|maybe|especially)\s+(?=\w)")
# A value that is a clause of its own ("allergic to cats, dogs are fine"): a subject of one or
# two words and its verb — not a relative clause ("an app that is …").
_CLAUSE = re.compile(
    r"(?i)^(?:(?:the|my|our|a|an)\s+)?(?!(?:that|which|who)\b)\w+(?:\s+(?!(?:that|which|who)\b)"
    r"\w+)?\s+(?:are|is|was|were|isn't|aren't|wasn't|don't|doesn't|do|does|seem|seems)\b"
)
# Words about the listener ("chatting with you", "your memory"): said to the assistant.
_LISTENER = re.compile(
    r"(?i)(?:^|\s)(?:with|to|for|at|from|about|of|like|than)\s+(?:you|u|ya)(?:\s+(?:guys|all))?"
    r"(?=[\s,.!?]|$)|(?:^|\s)(?:your|ur|yours)(?=[\s,.!?]|$)|^(?:you|u)$"
)


def whole(value: str) -> str:
    """A value as the whole phrase it names: its chat tail and a list's connective cut
    ("also latex" → "latex"); empty when it is no value of the person's — a clause of its own
    ("dogs are fine") or words about the listener ("talking to you")."""
    kept = without_filler(_LEAD.sub("", _COMPARED.sub("", without_filler(value))))
    if _CLAUSE.match(kept) or _LISTENER.search(kept):
        return ""
    return kept


# How often or how lately, said after an activity ("go hiking with my kids most weekends", "go
# to the gym at least [three times a week]", "baking recently"): the habit's rhythm, no part of
# what is done. The clause's time words (:mod:`.temporal`) take the dated ones first.
_RHYTHM_TAIL = re.compile(
    r"(?i)(?:\s+(?:(?:(?:on|in|during)\s+)?(?:most|many|some|all|the)\s+(?:days?|nights?|evenings?|mornings?|weekends?|"
    r"weeks?|sundays|saturdays|summers?|winters?)|at\s+least|at\s+most|whenever\s+.*|"
    r"(?:when|if)\s+I\s+can|as\s+(?:much|often)\s+as\s+I\s+can|recently|lately|these\s+days|"
    r"nowadays|regularly|often|more(?:\s+often)?|a\s+ton|daily|weekly|all\s+the\s+time|a\s+(?:couple|few)(?:\s+of)?"
    r"(?:\s+times)?|(?:about|around|like|roughly)|(?:once|twice)(?:\s+or\s+twice)?|"
    r"every\s+(?:so\s+often|now\s+and\s+then|chance\s+I\s+get)))+\s*$"
)
# "doing a lot of baking": the baking.
_AMOUNT_HEAD = re.compile(r"(?i)^doing\s+(?:a\s+lot\s+of|lots\s+of|some|more|a\s+bit\s+of)\s+")


def without_rhythm(value: str) -> str:
    """An activity without how often it is done ("hiking with my kids most weekends": hiking
    with my kids); a value that is nothing else stays as it was."""
    kept = _AMOUNT_HEAD.sub("", _RHYTHM_TAIL.sub("", value)).strip()
    return kept or value
