"""What in a person's message is their own word about themselves, as grounding reads it (data:
:mod:`.grounding` applies these patterns).

- A shared photo's caption (``[shares a photo: a man in a suit dancing]``) is a machine's
  description of a picture, not the person's statement: it grounds nothing.
- For a fact about the person, the other speaker's things — "your store", "your new job" — are
  not the person's: "whoa, your store looks great!" grounds no store of the user's. A fact
  that says whose the thing is ("User follows deanna's couch-to-5k plan" ← "I'm on your
  couch-to-5k plan") rests on them as said.
- A hedge ("i think", "maybe", "may have", "my ideal studio", "my dream job", "we'll see", "i
  wish i could") is no firm fact —
  unless the fact says the hedge itself ("User's dream job is…"), which is then what was said.
- A correction ("correction", "actually", "i meant", "its not may 18 its may 25", "wrong") restates
  a fact the person gave before, maybe sessions ago: its words may rest on the person's live
  facts, which were grounded when they were stored.
- A wish ("want to", "should", "keen on", "ready to", "it'll be") says what is wished, not
  what is: :func:`wish_split` tells the words said as wished from the rest.
- A hedge stops where a presupposed thing begins ("maybe i should learn italian before our trip
  to rome": the trip is real); an idea closed by a refusal ("… but nah") was turned down.
"""

from __future__ import annotations

import re

CAPTION = re.compile(
    r"\[\s*(?:shares?|shared|sends?|sent|posts?|posted)\b[^\]]*\]|"
    r"\[\s*(?:photo|picture|image|video|sticker|gif)\b[^\]]*\]",
    re.IGNORECASE,
)
# "your store", "your new store", "yours": the other speaker's things (a connective ends it)
YOURS = re.compile(
    r"(?i)\byours?\b(?:\s+(?!(?:on|in|at|to|for|of|with|and|or|is|are|was|were|looks?|"
    r"really|so|too)\b)[\w'’-]+){0,2}"
    # … and where it is: "your work at the homeless shelter"
    r"(?:\s+(?:at|in|on|to|of|with|for|from)\s+(?:the\s+|a\s+|an\s+)?[\w'’-]+(?:\s+[\w'’-]+)?)?"
)
HEDGE = re.compile(
    r"(?i)\b(?:i\s+think|i\s+guess|i\s+suppose|i\s+believe|maybe|might|may\s+have|"
    r"probably|prob|perhaps|possibly|not\s+sure|unsure|thinking\s+(?:about|of)|considering|"
    r"hopefully|hoping|wondering|what\s+if|if\s+i|idk|not\s+decided|undecided|ideal|dream|"
    r"someday|some\s+day|one\s+day|pretty\s+sure|fairly\s+sure|i\s+reckon|fingers\s+crossed|"
    # a non-answer ("i said well see") and a counterfactual ("i wish i could do a course")
    r"we['’]?ll\s+see|well\s+see|wish(?:ing)?\s+i\s+(?:could|had|was|were|did|knew)|if\s+only)\b"
)

# a hedge on a name only: "boulderbar wienzeile i think it's called" is no doubt of the climbing
HEDGED_NAME = re.compile(
    r"(?i)\s+(?:it|that|the\s+\w+|she|he)\s*(?:['’]?s|\s+is|\s+was)\s+(?:called|named|spelled)\b"
)

# A hedged decision about something said before: "i think im taking it", "maybe ill go with
# that one", "probably taking the offer" (``noun``: what it points at, when it names it;
# :mod:`.whose`).
DECISION = re.compile(
    r"(?i)\b(?:tak(?:e|es|ing)|accept\w*|join\w*|mov(?:e|es|ing)|start\w*|switch\w*|quit\w*|"
    r"leav(?:e|es|ing)|sign\w*|go(?:ing)?\s+(?:with|for))\b.*\b(?:it|that|this|there|them|one|"
    r"(?:the|that|this)\s+(?P<noun>offer|job|place|flat|apartment|house|one))\b"
)

# what follows a hedge that is about someone else: "<name>'s", "<name> is…", "he", "my brother
# is…" (never the person: "i", "im", "we", nor "it's", "that's"; :mod:`.whose`)
HEDGED_OTHER = re.compile(
    r"(?i)\s+(?:that\s+)?(?:he|she|they|(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|was|will|has|"
    r"might|may|gets?|got|['’]s)|(?!(?:it|that|this|there|what|who|i|im|ill|ive|id|we|everything|nothing|"
    r"something|someone)\b)[a-z]+(?:['’]s|\s+(?:is|was|will|has|might|may|gets?|got))\b)"
)

# "deanna's plan", "Gina's store": the fact names another's thing ("User's" is the person's)
OTHERS = re.compile(r"(?i)\b(?!user['’]s\b)[a-z]+['’]s\b|\byour\b")

CORRECTION = re.compile(
    r"(?i)\b(?:correction|actually|i\s+meant|i\s+mean|oops|my\s+bad|typo|wrong|mistake|sorry|"
    r"no\s+wait|wait\s*,?\s*no|not\s+the\s+\d+(?:st|nd|rd|th)?|"
    r"scratch\s+that|switch\w*\s+to|chang\w*\s+(?:it\s+)?to|instead|not\s+\w+(?:\s+\w+)?\s*,?\s*(?:it'?s|its|but|shes|hes|she'?s|he'?s)|"
    r"(?:is|was|are|were)n'?t|(?:is|was)\s+not)\b"
)

# A hedge stops where a presupposed thing begins: in "maybe i should learn italian before our
# trip in june" the trip is no less real for the hedge on the lessons (a split point, read by
# :mod:`.grounding`'s clauses).
PRESUPPOSED = r"\s(?=(?:before|after|until|till|during|for)\s+(?:our|my|the|his|her|their)\s)"
# An idea the person turned down ("mom says i should move back but nah", "… . nope"): the
# refusal closes the sentence; the idea before it is never a current fact (:mod:`.whose`).
REFUSAL = re.compile(
    r"(?i)(?:^|\s|,)(?:but\s+|so\s+)?(?:nah+|nope|no\s+way|hard\s+pass|not\s+happening|"
    r"no\s+thanks|never\s+again)\W*$"
)
# A fact that states the refusal itself ("User does not want to move back")
NEGATED = re.compile(
    r"(?i)\b(?:not|doesn['’]?t|don['’]?t|won['’]?t|never|no\s+longer|against|turned\s+down|"
    r"declin\w*|refus\w*|reject\w*|rul\w*\s+out)\b"
)

_SENTENCES = re.compile(r"[.!?\n]+")
# a value that only says the fact holds or not ("pregnant": "yes"): the text says what it is
YES_NO = frozenset({"yes", "no", "true", "false", "y", "n", "1", "0", "none", "null", "n/a"})


def refused(message: str) -> tuple[list[str], list[str]]:
    """The message's sentences as ideas the person turned down — a sentence closed by a refusal
    ("… but nah"), or the one before a refusal said alone ("nope.") — and the rest."""
    ideas: list[str] = []
    rest: list[str] = []
    for sentence in (s for s in _SENTENCES.split(message) if s.strip()):
        if (no := REFUSAL.search(sentence)) is None:
            rest.append(sentence)
        elif sentence[: no.start()].strip():
            ideas.append(sentence[: no.start()].strip())
        elif rest:
            ideas.append(rest.pop())
    return ideas, rest


WISH = re.compile(
    r"(?i)\b(?:wants?\s+(?:me\s+)?to|wanna|would\s+(?:like|love)\s+to|"
    r"[i'’]d\s+(?:like|love)\s+to|hop(?:e|es|ing)\s+to|should|shoulda|could|"
    r"keeps?\s+(?:saying|telling\s+me)|wish(?:es)?|keen\s+on|ready\s+to|towards?\s+becoming|"
    # a state to come: "it'll be tough as a single parent", "i'd be a great mom"
    r"(?:will|['’]ll|gonna|going\s+to|would|[i'’]d)\s+be)\b"
)
WISH_END = re.compile(
    r"(?i)\b(?:after|before|since|because|cause|cuz|bc|when|until|till|once|while|during|but)\b"
)


def wish_split(sentence: str) -> tuple[str, str]:
    """The sentence's words said as wished — after a wish, up to "after", "but"… or a comma
    that opens more than an aside of three words ("i want to fix up my old area, West County,
    too") — and the rest."""
    inside, outside, last = [], [], 0
    for m in WISH.finditer(sentence):
        if m.start() < last:
            continue
        end = _wish_end(sentence, m.end())
        outside.append(sentence[last : m.start()])
        inside.append(sentence[m.end() : end])
        last = end
    outside.append(sentence[last:])
    return " ".join(inside), " ".join(outside)


def _wish_end(sentence: str, start: int) -> int:
    stop = WISH_END.search(sentence, start)
    limit = stop.start() if stop else len(sentence)
    for comma in re.finditer(r"[,;]|\s[-—–]\s", sentence[start:limit]):
        after = sentence[start + comma.end() : limit]
        if len(re.split(r"[,;]|\s[-—–]\s", after)[0].split()) > 3:
            return start + comma.start()
    return limit


# Someone else's wish: "siobhan wants to do the camino", "mom wants me to move back" — a
# subject before the wish that is not the person ("i", "we", or an adverb after them).
OTHERS_WISH = re.compile(
    r"(?i)\b(?!(?:i|we|id|i['’]d|we['’]d|really|also|still|so|just|kinda|totally|always|"
    r"def|definitely|actually|who|that|which|everyone|anyone)\b)(?:[a-z]+)\s+(?:really\s+|"
    r"also\s+|still\s+)?(?:wants?|wanna|would\s+(?:like|love)|hopes?|wishes|keeps?\s+saying)"
    r"\s+(?:(?:me|us)\s+)?(?:to|of|for)\b"
)
# where their wish ends: the person's own words start ("… in may i said well see")
_OTHERS_END = re.compile(r"(?i)[,;.!?]|\b(?:so|but|and\s+(?:i|we)|i|we|im|i['’]m)\b")


def others_wishes(message: str) -> list[str]:
    """What someone else wishes in the message ("do the camino in may" of "siobhan wants to do
    the camino in may i said well see"): each span after their wish, to the person's next
    words."""
    spans = []
    for m in OTHERS_WISH.finditer(message):
        end = _OTHERS_END.search(message, m.end())
        spans.append(message[m.end() : end.start() if end else len(message)])
    return spans
