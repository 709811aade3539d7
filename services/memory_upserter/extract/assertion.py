"""Whether the person asserts what a sentence says (pure): only assertions become facts.

A sentence writes no fact when it is a question ("Do I live in Porto or Lisbon?", "Who is my
sister?"), a conditional or hypothetical ("if", "what if", "imagine", "suppose"), or a claim the
person disputes ("He said I work at Acme, but that's wrong"). Within a clause, a statement
writes nothing when the words before it negate it ("I never said I live in London"), put it in
the past ("I used to …", "when I was …"), make it a wish or a maybe ("I'd love to", "I might",
"someday", "I hope"), or report someone else's claim about the person ("he thinks I …").
Quoted text is never the person's own statement.

"No longer" and "not … anymore" are not plain negations: :func:`ended` turns "I don't live in
London anymore" into the statement it ends ("I live in London"), which the extractor writes
with ``valid_to`` = the turn.
"""

from __future__ import annotations

import re
from typing import Literal

Block = Literal["question", "hypothetical", "disputed"]

_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|«[^»]*»|(?<!\w)'[^']{2,}'(?!\w)")
_QUESTION_START = re.compile(
    r"(?i)^\W*(?:(?:so|and|but|hey|um+|uh+|hm+|like|ok|okay|wait|also|btw|lol|quick\s+q(?:uestion)?)"
    r"\W+)*(?:who|whom|whose|what|(?:where|when)(?!\s+(?:I|I'm|I've|we|we're|my|our|you|"
    r"he|she|they|it|it's|the|this|that)\s)|why|how|"
    r"which|do|does|did|am|is|are|was|were|have|has|had|can|could|would|should|will|shall|may|"
    r"might|must|isn't|aren't|don't|doesn't|didn't|wasn't|weren't|won't|wouldn't|shouldn't|"
    r"couldn't|can't)\b(?!\s+you\s+(?:please\s+)?(?:remind|add|note|remember)\b)"
)
_OR_WHAT = re.compile(r"(?i)\bor\s+(?:what|not|nah|no|smth|something)\W*$")
_HYPOTHETICAL = re.compile(
    r"(?i)(?:^|[\s,(])(?:if(?!\s+(?:I'm|I\s+am|I'm\s+being|I\s+am\s+being)\s+(?:honest|real|being\s+honest)\b|"
    r"\s+you\s+(?:ask|must\s+know)\b|\s+I'm\s+being\s+honest\b)|what\s+if|imagine|imagining|suppose|supposing|pretend|hypothetically|"
    r"in\s+theory|let'?s\s+say|say\s+that|in\s+a\s+dream|i\s+dreamt|i\s+dreamed|dreaming|unless|"
    r"in\s+case|as\s+if|in\s+another\s+life|in\s+a\s+parallel)\b"
)
_DISPUTED = re.compile(
    r"(?i)\b(?:that'?s\s+(?:not\s+(?:true|right|correct)|wrong|false|a\s+lie|nonsense)|"
    r"(?:is|was|are|were)\s+(?:wrong|not\s+true|false|a\s+lie|mistaken)|isn't\s+true|"
    r"not\s+true|untrue|just\s+kidding|jk|kidding|joking|lol\s+no|as\s+if|"
    r"rumou?rs?|allegedly|supposedly|i\s+wish)\b"
)
_CLAUSES = re.compile(
    r"\s*(?:;|—|–|\s-\s|,?\s+but\s+|,\s+(?=(?:I|we|my(?!\s+(?:dog|cat|puppy|kitten|"
    r"guinea\s+pig|hamster|rabbit|bunny|parrot|turtle)[.!]?\s*$)|and\s+I|so\s+I)\b)"
    r"|(?<!\b[Mm]e),?\s+(?:and|so)\s+(?=(?:I|I'm|I've|my|we)\b)|,\s+(?:anyway|anyways)\b,?"
    r"|,\s*(?:and\s+)?(?:now|actually)\b,?"
    r"|,?\s+(?:before|after|because|cause|although|though|whereas)\s+(?=(?:I|I'm|I've|we|my)\b))\s*"
)  # "…for 10 years before i became a writer": each clause its own time
_GREETING = re.compile(
    r"(?i)\W*(?:hi|hello|hey|hiya|good\s+(?:morning|evening|afternoon))"
    r"(?:\s+there)?\W*"
)
_NEGATION = re.compile(
    r"(?i)(?:\b(?:not|never|no|nobody|neither|nor|without|hardly|não|nao|nunca|nie|niemals|"
    r"nicht|kein\w*|ne|pas|jamais)\b|n't\b|\bn')"
)  # the other languages' too: "no vivo en…", "não moro…", "ich wohne nicht…", "je ne suis pas…"
_PAST = re.compile(
    r"(?i)\b(?:used\s+to|when\s+i\s+was|back\s+(?:then|when|in)|formerly|previously|"
    r"in\s+the\s+past|as\s+a\s+(?:kid|child|teen|teenager)|once\s+upon|"
    r"years\s+ago|growing\s+up)\b"
)
_WISH = re.compile(
    r"(?i)(?:\b(?:would|wouldn't|could|should|might|may|maybe|perhaps|probably|"
    r"possibly|someday|some\s+day|one\s+day|eventually|wish|wishes|hope|hoping|"
    r"want|wants|wanna|wanted|planning|plan|considering|thinking\s+(?:of|about)|"
    r"(?<!living\smy\s)(?<!living\sthe\s)dream(?!\s+come\s+true)|dreams|fantasi[sz]e|love\s+to|like\s+to|going\s+to|gonna|will|"
    r"try\s+to|trying\s+to|pretend|guess|assume|suppose|doubt)\b|'d\b|'ll\b)"
)
_REPORTED = re.compile(
    r"(?i)\b(?:said|says|say|told|tells|(?:think|thinks|thought)(?!\s+(?:about|of|back)\b)|claim|claims|"
    r"claimed|believe|believes|believed|heard|assume[sd]?|according\s+to|"
    r"insists?|insisted|reckons?|swears?|swore|pretends?|rumou?r)\b"
)
_ENDED = re.compile(
    r"(?i)^(?:actually,?\s+|well,?\s+|so,?\s+)?(?P<who>I|we)(?P<neg>\s+no\s+longer|\s+don't|"
    r"\s+do\s+not|\s+am\s+not|'m\s+not|\s+are\s+not|'re\s+not|\s+aren't|'m\s+no\s+longer|"
    r"\s+am\s+no\s+longer|'re\s+no\s+longer)\s+(?P<rest>[^,;]+?)"
    r"(?P<tail>\s+(?:anymore|any\s+more))?\s*(?:[.!]|,.*)?$"
)


_ASKS = re.compile(
    r"(?i)(?:,|\s-|\s+(?:so|and|but))\s+(?=(?:any|anyone|anybody|anything|ideas?|tips?|"
    r"thoughts|recommendations?|suggestions?|who|what|where|when|why|how|which|do\s+you|"
    r"did\s+you|can\s+you|could\s+you|would\s+you|should\s+I|is\s+it|is\s+there|"
    r"are\s+there)\b)"
)
_CORRECTION = re.compile(
    r"(?i)^\W*(?:(?:wait|hold\s+on|oops|sorry|my\s+bad)\W+)*(?:(?:no|nope|nah|not\s+quite)\b(?!\s+(?:need|longer|one|way|problem|idea|worries|more|"
    r"thanks|matter|doubt|vivo|trabajo|soy|tengo|estoy|como|me|te|lo|la|sé|se|sabes|hablo|"
    r"puedo|quiero|moro|trabalho|sou|tenho|estou|sei|gosto)\b)\W*"
    r"(?:wait\b\W*)?|actually\b\W*|typo\b\W*|correction\b\W*|i\s+meant\b\W*|"
    r"that'?s\s+(?:wrong|not\s+right|not\s+true|incorrect|not\s+it)\b\W*|"
    r"(?:wait|sorry|oops)\b\W*)+(?=\S)"
)
_FORGET = re.compile(
    r"(?i)^\W*(?:(?:please|pls|plz|can\s+you|could\s+you|would\s+you|and|also|ok|hey|oh|so|"
    r"btw)\W+)*"
    r"(?:forget|don't\s+remember|do\s+not\s+remember|stop\s+remembering|unlearn|delete)\s+"
    r"(?:(?:that|what)\s+I\s+(?:told\s+you|said|mentioned)(?:\s+about|\s+that)?\s+|"
    r"about\s+|that\s+)?(?P<target>.+?)\W*(?:\s+(?:please|pls|plz))?\W*$"
)


_CANCELLED = re.compile(
    r"(?i)\b(?:cancell?ed|called\s+off|not\s+(?:doing|happening|needed|going|gonna)|no\s+longer|"
    r"anymore|for\s+now|reminder|to-?do|task)\b"
)  # "forget the passport thing for now", "forget the gym reminder": a todo dropped
_ASKS_YES_NO = re.compile(
    r"(?i)(?:,|\s-)\s+(?=(?:is|are|was|does|do|can|should|will|would|could|am|want|wanna|"
    r"got|have\s+you|did\s+you|you\s+(?:want|wanna))\s+\w[^,]*\?\s*$)"
)


_TAG = re.compile(
    r"(?i)(?:,|\s[-–—])\s+(?=(?:[^,.!?]{0,25},\s*)?(?:huh|right|eh|no|yeah|isn't\s+it|ain't\s+it|"
    r"don't\s+you\s+think|(?:ya|you)\s+know)\s*\?+\s*$)"
)


_CHILDHOOD = re.compile(
    r"(?i)\b(?:as\s+a\s+(?:kid|child|teen|teenager|little\s+\w+)|growing\s+up|when\s+I\s+was\s+"
    r"(?:a\s+kid|a\s+child|little|young|younger|a\s+teen\w*|\d+)|in\s+(?:high\s+school|"
    r"college|my\s+teens|my\s+twenties))\b"
)


def childhood(sentence: str) -> bool:
    """The sentence is about the person's childhood or school years: what it says happened
    then is the past, never dated today."""
    return bool(_CHILDHOOD.search(sentence))


def parts(sentence: str) -> list[str]:
    """A statement and the question asked after it in the same sentence ("I live in Lisbon,
    any good ramen places near Alfama?", "… not so long ago - pretty cool, huh?"): the two
    judged on their own."""
    m = _ASKS.search(sentence) or _ASKS_YES_NO.search(sentence) or _TAG.search(sentence)
    if m is None or m.start() == 0:
        return [sentence]
    return [sentence[: m.start()].strip() + ".", sentence[m.end() :].strip()]


_RHETORICAL = re.compile(
    r"(?i)^\W*(?:(?:oh|and|also|btw|so|hey|omg)\W+)*(?:did\s+I\s+(?:tell|mention|say)(?:\s+(?:to\s+)?"
    r"you)?|have\s+I\s+(?:told|mentioned)(?:\s+(?:to\s+)?you)?|did\s+you\s+know|guess\s+what|"
    r"you\s+know\s+what|(?:I\s+)?forgot\s+to\s+(?:tell|mention)(?:\s+(?:to\s+)?you)?)\W*"
    r"(?:that\s+)?(?=(?:I|I'm|I've|I'll|we|we're|we've|my|our)\b)"
)


def rhetorical(sentence: str) -> str:
    """ "did i tell you i got engaged??" / "did I mention we're moving": a question in form,
    a statement in fact — what it tells, without the asking (only when a statement of the
    person's follows: "did I tell you where I live?" stays a question)."""
    m = _RHETORICAL.match(sentence)
    if m is None:
        return sentence
    rest = sentence[m.end() :].rstrip()
    return re.sub(r"\s*\?+[\W]*$", ".", rest) if not _QUESTION_START.match(rest) else sentence


def corrected(sentence: str) -> tuple[str, bool]:
    """ "That's wrong, I'm only allergic to peanuts" / "wait no, …" / "actually …": the
    statement that corrects, and whether it is one."""
    m = _CORRECTION.match(sentence)
    return (sentence[m.end() :], True) if m else (sentence, False)


def forget_target(sentence: str) -> str | None:
    """ "Please forget that I told you about Marta Silva" → "Marta Silva"; None when the
    sentence asks nothing to be forgotten ("I'll never forget that day", "don't forget to …")."""
    m = _FORGET.match(sentence)
    if m is None or re.match(r"(?i)to\b", m["target"]) or _CANCELLED.search(m["target"]):
        return None  # "forget the dentist thing, cancelled": a todo dropped, not a memory
    if re.fullmatch(r"(?i)(?:about\s+)?(?:it|that|this|them|all\s+that)\W*", m["target"]):
        return None  # "forget it", "nah forget that": never mind, nothing named to forget
    return m["target"].strip() or None


# What a person has a set of, where "only" says the set is complete: "I'm only allergic to
# peanuts" ends every other allergy (the words the commit resolves: :data:`ONLY_PREDICATES`).
ONLY_PREDICATES = frozenset({"ALLERGY", "INTOLERANCE", "SPEAKS", "HAS_PET", "AVOIDS", "CONDITION"})
_ONLY = re.compile(r"(?i)\bonly\b")


def only(clause: str) -> bool:
    """The clause says its facts are all there is of their kind ("I'm only allergic to …")."""
    return bool(_ONLY.search(clause))


def unquoted(text: str) -> str:
    """The text with quoted passages blanked (someone else's words, a joke) — but a title kept,
    without its quotes ("I'm reading "The Lean Startup"": a work, not words said)."""
    return _QUOTED.sub(_blank_unless_title, text)


# A title: 1–7 words, the first and every long one capitalised, no sentence punctuation inside.
_TITLE = re.compile(
    r"[A-Z0-9][\w'’-]*(?:\s+(?:[A-Z0-9][\w'’-]*|of|the|a|an|and|in|on|to|for|at|by|with|from|"
    r"or|is|my|your|our|me|you))*"
)
_SPEECH = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|You|We)\b")


def _blank_unless_title(m: re.Match[str]) -> str:
    inner = m.group(0)[1:-1].strip()
    if len(inner.split()) <= 7 and _TITLE.fullmatch(inner) and not _SPEECH.search(inner):
        return inner
    return " … "


def blocked(sentence: str) -> Block | None:
    """Why no fact of this sentence is an assertion of the person's, or None."""
    stripped = sentence.strip()
    if stripped.endswith("?") or _QUESTION_START.match(stripped) or _OR_WHAT.search(stripped):
        return "question"
    if _HYPOTHETICAL.search(stripped):
        return "hypothetical"
    if _DISPUTED.search(stripped):
        return "disputed"
    return None


def clauses(sentence: str) -> list[str]:
    """The sentence cut where one statement ends and another begins ("…, but …", "; "); a
    greeting stays with what follows it ("Hi, I'm Ana")."""
    parts = [c for c in _CLAUSES.split(sentence) if c and c.strip()]
    if len(parts) > 1 and _GREETING.fullmatch(parts[0]):
        parts[:2] = [f"{parts[0]}, {parts[1]}"]
    return parts


def hedged(prefix: str, *, about_self: bool) -> bool:
    """The words before a statement, in its clause, negate it, date it in the past, make it a
    wish, or (for a statement about the person) report someone else's claim."""
    return Hedges(prefix).before(len(prefix), about_self=about_self)


class Hedges:
    """Where a clause's first hedge ends — read once, so asking for every rule match of a long
    clause costs no more than the clause: :meth:`before` is :func:`hedged` on ``text[:pos]``."""

    def __init__(self, text: str) -> None:
        self.hedge = _first_end(text, _NEGATION, _PAST, _WISH)
        self.reported = _first_end(text, _REPORTED)

    def before(self, pos: int, *, about_self: bool) -> bool:
        return self.hedge <= pos or (about_self and self.reported <= pos)


def _first_end(text: str, *patterns: re.Pattern[str]) -> int | float:
    ends = [m.end() for m in (p.search(text) for p in patterns) if m is not None]
    return min(ends, default=float("inf"))


_STOPPED = re.compile(
    r"(?i)^(?:actually,?\s+|well,?\s+|so,?\s+)?(?P<who>I|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|"
    r"recently\s+)?(?:stopped|quit|gave\s+up)\s+(?P<verb>[a-z]{2,}ing)\s+(?P<rest>[^,;]+?)"
    r"\s*(?:[.!]|,.*)?$"
)
# a gerund's verb that ends in "e" ("smoking": smoke); a doubled consonant drops ("running": run)
_E_VERBS = frozenset(
    "smok danc rid bak skat writ driv hik bik cycl vap mak tak dat liv mov practic cod sav us "
    "serv shar com giv lov car bak jok vot shav scor tast wast".split()
)


def _base(gerund: str) -> str:
    stem = gerund.lower()[:-3]
    if stem in _E_VERBS:
        return stem + "e"
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] in "bdgmnprt":
        return stem[:-1]
    return stem


def ended(clause: str, *, correcting: bool = False) -> str | None:
    """ "I no longer work at Acme" / "I don't live in London anymore" / "I stopped playing
    guitar" → the statement that ended ("I work at Acme", "I play guitar"); in a correction a
    plain negation ends too ("that's wrong, I'm not allergic to shellfish"); None for any
    other clause (a plain negation writes nothing)."""
    if (stopped := _STOPPED.match(clause.strip())) is not None:
        return f"{stopped['who']} {_base(stopped['verb'])} {stopped['rest']}"
    m = _ENDED.match(clause.strip())
    if m is None or ("longer" not in m["neg"].lower() and not m["tail"] and not correcting):
        return None
    neg = m["neg"].lower()
    be = "'re" if m["who"].lower() == "we" else "'m"
    verb = f"{m['who']}{be} " if re.search(r"\bam\b|'m|\bare\b|'re|aren't", neg) else f"{m['who']} "
    return f"{verb}{m['rest']}"
