"""The person's standing instructions beside the recalled turns.

"Always include version numbers when I ask about software dependencies" is found later by
"Which libraries are used in this project?", a question that shares almost none of its words
and that the ordinary turn search ranks far below the turns about the libraries themselves.
The commit marks such messages (:func:`services.core.standing.is_standing`, payload
``standing`` in the ``messages`` index); rag-gate runs one more small search over them alone
(:data:`SEARCH`, the best few by the same hybrid score) and offers them with the other turn
candidates, each lifted by :func:`lift`: an instruction that matches the question at all is
worth more than one more turn on its topic. Pure but for the constants; the search is
:func:`services.rag_gate.search.search`'s.
"""

from __future__ import annotations

import re

from services.core.vectors import VectorHit

RRF_K = 60
FIRST = 1.0 / (RRF_K + 1)
SEARCH = 3  # standing instructions proposed per retrieve, beside the turn candidates
BOOST = 2.0  # in one list's first places, times the turn's relevance share (see lift)


# A question that looks back at the conversation ("What did I say …", "How did you recommend
# …", "the order in which I brought up …", "a summary of … across our conversations") asks for
# what was said, not for an answer an instruction would shape: no standing search, no lift, and
# its places go to the turns that say it.
LOOKS_BACK = re.compile(
    r"\bdid (?:i|you|we)\b"
    r"|\b(?:i|you|we)(?:'ve| have| had)? (?:said|mentioned|brought up|told|asked|discussed|"
    r"covered|recommended|suggested|outlined|talked)\b"
    r"|\b(?:our|my|these|those|previous|earlier) (?:conversations?|chats?|discussions?|sessions?)\b"
    r"|\bacross (?:my|our|all) \w+|\bsummar(?:y|ise|ize)\b",
    re.IGNORECASE,
)


def applies(message: str) -> bool:
    """Whether the person's standing instructions are searched for and lifted for this
    message: not when it looks back at what was said (:data:`LOOKS_BACK`)."""
    return LOOKS_BACK.search(message) is None


def lift(relevance: float) -> float:
    """A standing instruction's lift, in fused-rank units: ``BOOST`` first places times its
    relevance over two first places (a best-matching instruction gains the whole boost, one the
    question barely touches little)."""
    return BOOST * FIRST * min(1.0, relevance / (2 * FIRST))


def merged(
    turns: list[VectorHit] | None, rules: list[VectorHit] | None
) -> tuple[list[VectorHit] | None, frozenset[str]]:
    """The turn search's hits with the standing search's added (those it did not find), and
    the ids of the standing ones among them. A failed turn search stays failed (None)."""
    if turns is None or not rules:
        return turns, frozenset()
    seen = {hit.id for hit in turns}
    return turns + [hit for hit in rules if hit.id not in seen], frozenset(h.id for h in rules)
