"""Standing instructions: what the person said about how to be answered, to hold from then on.

"Always format code snippets with syntax highlighting when I ask about implementation
details", "Never use emoji", "From now on, answer in bullet points", "Whenever I ask about
recipes, give metric units". Such a message is found later by a question that shares few of
its words ("Could you show me how to implement a login feature?"), and it matters most
exactly then. The commit marks its point in the ``messages`` index (payload ``standing``),
and rag-gate looks for the best few on every retrieve, beside the ordinary turn search
(:mod:`services.rag_gate.standing`).

Pure and cheap (one regular expression over the message's first sentences): it runs on every
message the commit indexes. Only the person's own messages (role ``user``) can be standing.
"""

from __future__ import annotations

import re

# How far into a message a standing instruction may start (a greeting or "ok," before it).
HEAD_CHARS = 400

_OPENER = (
    r"(?:^|[.!?\n]\s*|^\s*(?:ok(?:ay)?|also|and|oh|btw|hey|hi|please|pls|so)[,!.]?\s+)"
    r"(?:please\s+|pls\s+|and\s+|also\s+)?"
)
# what an instruction to the assistant asks it to do: the verb right after "always"/"never"
# ("Always here to help", "Never give up!", "Never had a chance" are no instructions)
_VERBS = (
    r"answer|respond|reply|format|include|provide|use|give(?!\s+up\b)|show|explain|write|"
    r"mention|list|report|add|cite|keep|start|begin|end|suggest|recommend|remind|tell|call|"
    r"address|refer|ask|combine|put|check|double-check|highlight|break|structure|focus|avoid|"
    r"assume|consider|be|make|offer|present|stick|limit|translate|round|express|label|link|"
    r"note|specify|summari[sz]e|compare|clarify|prioriti[sz]e|follow|walk|send|speak|talk|"
    r"describe|illustrate|outline|quote|spell|state|return|wrap|comment|annotate|document|"
    r"emphasi[sz]e|bold|number|sort|order|capitali[sz]e|share|go|define|convert|"
    r"reference|attach|contain|display|print|split|indent|wait|confirm"
)
_RULE = re.compile(
    _OPENER + r"(?:(?:make\s+sure\s+(?:to\s+|you\s+)?)?(?:always|never)|(?:do\s+not|don'?t)\s+ever)"
    r"\s+(?:" + _VERBS + r")\b"
    r"|" + _OPENER + r"(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)\b",
    re.IGNORECASE,
)
# "... when I ask about X" / "whenever I ask for X" / "every time I ask": a rule scoped to a topic
_SCOPED = re.compile(
    r"\b(?:when(?:ever)?|every\s+time|each\s+time|any\s*time)\s+I\s+ask\s+(?:you\s+)?(?:about|for|regarding)\b",
    re.IGNORECASE,
)


# a stated preference ("I prefer step-by-step explanations", "I'd rather keep it short")
_PREFERS = re.compile(r"\bI(?:'d|\s+would)?\s+(?:really\s+|much\s+)?(?:prefer|rather)\b", re.I)
PREFERENCES = True


def is_standing(role: str, text: str) -> bool:
    """A message of the person's that lays down how they want to be answered from now on."""
    if role != "user" or not text:
        return False
    head = text[:HEAD_CHARS]
    if _RULE.search(head) or _SCOPED.search(head):
        return True
    return PREFERENCES and bool(_PREFERS.search(head))
