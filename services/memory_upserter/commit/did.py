"""What the person says they did, read against their pending todos (pure): "booked the train"
closes "Book train to Ålesund", "texted her about the gig" closes "Text Ingrid about Espen's
gig", "vet's booked ✅" closes "Book vet for Loke's vaccines".

A clause of the person's own words names a todo done when it holds a past form of the todo's
verb — its first word, "book" → booked, "buy" → bought (:data:`IRREGULAR`), "cancel" →
cancelled — and at least one other content word of the todo (inflections matched: "sisus" is
"sisu"). Not when the clause negates, doubts or postpones it ("i booked nothing yet", "haven't
called", "if i booked"), asks it ("booked the train?"), or says someone else did it ("she
called kasia"). The todo that shares the most words wins; a tie is for the caller to ask about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.memory_upserter.commit.todos import content_words, overlap
from services.memory_upserter.commit.turn import PendingTodo
from services.memory_upserter.text import SENTENCES, words

# past forms that are not the verb + "ed"
IRREGULAR = {
    "bought": "buy",
    "brought": "bring",
    "built": "build",
    "caught": "catch",
    "did": "do",
    "drove": "drive",
    "fed": "feed",
    "found": "find",
    "gave": "give",
    "got": "get",
    "had": "have",
    "hung": "hang",
    "kept": "keep",
    "left": "leave",
    "lent": "lend",
    "made": "make",
    "met": "meet",
    "paid": "pay",
    "put": "put",
    "ran": "run",
    "rang": "ring",
    "read": "read",
    "rode": "ride",
    "saw": "see",
    "sent": "send",
    "sold": "sell",
    "spoke": "speak",
    "swept": "sweep",
    "taught": "teach",
    "told": "tell",
    "took": "take",
    "went": "go",
    "won": "win",
    "wrote": "write",
}
# a todo's first words that are not its verb ("remind me to call kasia", "to buy milk")
_LEAD = re.compile(r"(?i)^\W*(?:(?:remind\s+me\s+to|need\s+to|have\s+to|must|please|to)\s+)+")
# where one statement ends and the next begins, inside a sentence
_CLAUSE = re.compile(
    r"[,;:()!?]|[^\w\s'’.-]+|\s+-\s+|\b(?:and|also|btw|but|so|then|plus|tho|though)\b", re.I
)
# what makes a clause not a statement of the thing done
_NOT_DONE = re.compile(
    r"(?i)\b(?:not|no|never|nothing|none|yet|if|will|gonna|going\s+to|should|need|needs|must|"
    r"remind|still|maybe|might|tomorrow|didn'?t|haven'?t|hasn'?t|havent|hasnt|didnt|wasn'?t)\b|"
    r"n't\b"
)
_OTHERS = frozenset({"he", "she", "they", "it", "you", "u"})


def verb_of(todo_text: str) -> str | None:
    """The todo's verb: its first word ("Book train to Ålesund" → book), after "remind me to"."""
    first = words(_LEAD.sub("", todo_text))[:1]
    return first[0] if first and first[0].isalpha() and len(first[0]) >= 2 else None


def past_forms(verb: str) -> frozenset[str]:
    """The past forms of ``verb``: irregular ("buy" → bought) and regular (booked, texted,
    renewed, tried, stopped, cancelled/canceled)."""
    forms = {p for p, base in IRREGULAR.items() if base == verb}
    if forms:
        return frozenset(forms)
    if verb.endswith("e"):
        forms.add(verb + "d")
    elif re.search(r"[^aeiou]y$", verb):
        forms.add(verb[:-1] + "ied")
    else:
        forms.add(verb + "ed")
        if re.search(r"[^aeiou][aeiou][bcdfgklmnprstvz]$", verb):
            forms.add(verb + verb[-1] + "ed")  # stopped, planned, cancelled
    return frozenset(forms)


def clauses(said: Sequence[str]) -> list[str]:
    """The person's statements, clause by clause; a question's clauses left out."""
    out: list[str] = []
    for text in said:
        for sentence in SENTENCES.split(text):
            if sentence.strip().endswith("?"):
                continue
            out += [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]
    return out


def done_score(todo_text: str, said: Sequence[str]) -> int:
    """How many of the todo's other words the best clause naming its verb done holds (0: none
    says it is done)."""
    verb = verb_of(todo_text)
    if verb is None:
        return 0
    forms = past_forms(verb)
    rest = [w for w in content_words(todo_text) if w != verb]
    best = 0
    for clause in clauses(said):
        said_words = words(clause)
        at = next((i for i, w in enumerate(said_words) if w in forms), None)
        if at is None or _NOT_DONE.search(clause):
            continue
        if at > 0 and said_words[at - 1] in _OTHERS:
            continue  # "she called kasia": not the person's doing
        others = [w for w in content_words(clause) if w not in forms]
        best = max(best, sum(1 for w in rest if overlap([w], " ".join(others))))
    return best


def done_by_words(pending: Sequence[PendingTodo], said: Sequence[str]) -> list[PendingTodo]:
    """The pending todos the person's words say are done (module docstring): the one that
    shares the most words, the tied ones when several do, none when no clause names one."""
    scored = [(done_score(p.text, said), p) for p in pending]
    best = max((score for score, _ in scored), default=0)
    return [p for score, p in scored if best and score == best]
