"""A question whose answer is gathered across sessions. Pure.

"How many times did I…", "…across my sessions?", "…in total?", "Did Jon and Gina both…": the
answer is a count or a list whose parts were said in different sessions. For such a question
the recalled turns get no session context (:func:`.fusion.session_context`): that signal lifts
every turn of the session where the topic came up best, which is right when the answer is in
one session and crowds the others out when it is in several. The question is told by its
words alone.

Fitted on split A only (BEAM chats 1-5, LoCoMo conv-26/30; ``bench/recall/fit.py``, offline
over raw turns): BEAM multi-session reasoning R@10 0.533 → 0.567 (10 questions), the other
abilities unchanged, LoCoMo R@10 0.812 → 0.811. Measured and not taken: spreading over
sessions sooner for such a question (after 3 turns instead of 10: 0.533 → 0.523, LoCoMo
0.804), a wh-word asking for a plural noun as a cue ("What books has…": LoCoMo 0.810, no
gain), and "how many" or "total" alone as a cue (they also ask for a current value, "How many
commits have been merged?": BEAM knowledge updates 0.975 → 0.900).
"""

from __future__ import annotations

import re

_ACROSS = re.compile(
    r"\b(across|in total|both|combined|each time|every time|how many times|how many different"
    r"|how much did \w+ (improve|change|grow)|between the two)\b",
    re.IGNORECASE,
)


def asks_across(message: str) -> bool:
    """The question asks for a count or a list whose parts may be in several sessions."""
    return _ACROSS.search(message) is not None
