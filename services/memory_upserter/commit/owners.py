"""Whose a clause of the person's message is: theirs, or someone else's (pure data and one
reading, :func:`owners`; :mod:`.whose` weighs facts with it).

A clause is the person's own when they are its subject ("i", "we"…); someone else's when,
without that, it is said of "he", "she", "they" (the person only its object: "nikos told us
hes leaving" is his), or opens on someone else — "my <relative or friend>",
"our kid bo…", a possessive ("tom's new gym…", "callums sister…"), or a name the person uses
for someone ("lara is moving…", "callum got a job…": :func:`people_named`) — unless the person
is a subject of it too ("my sister and i went…"). A clause that says neither goes on with the
one before it in its sentence, or from the sentence before when a fragment of three words at
most ("… had twins!!! two boys"); otherwise a sentence's first clause is the person's, and so
is one that names the person only as object ("me", "us"). A reason ("bc", "because") and a
colon ("news from home: my brother…") open a clause of their own; an emoji ends a sentence.
A clause in another language is read in its English gloss (:mod:`services.core.gloss`): "meine
schwester ana heiratet…", "mi primo ya se fue…" and "mama bleibt…" are someone else's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from services.core import gloss
from services.memory_upserter.text import EMOJI, STOP_WORDS, words

# One family of relation words: a fact naming one rests on the person's "my <any of them>".
RELATIONS = tuple(
    frozenset(family.split())
    for family in (
        "mother mom mum mommy mama father dad daddy papa parent parents family folks stepmom "
        "stepdad",
        "child children kid kids son sons daughter daughters toddler baby babies twins",
        "partner wife husband spouse gf bf girlfriend boyfriend fiance fiancee hubby",
        "sister sisters brother brothers sibling siblings sis bro",
        "friend friends buddy pal mate bestie",
        "coworker coworkers colleague colleagues boss manager teammate",
        "dog cat pet puppy kitten",
        "cousin aunt uncle grandma grandpa grandmother grandfather niece nephew granny gran nan "
        "nani nana nonna oma opa abuela abuelo avo",
        "roommate flatmate neighbor neighbour landlord",
    )
)
_ANY_RELATION = "|".join(sorted({w for family in RELATIONS for w in family}, key=len)[::-1])
FIRST_PERSON = re.compile(
    r"(?i)(?<![\w'’])(?:i|im|i['’]m|ive|i['’]ve|i['’]d|i['’]ll|me|myself|we|we['’]re|"
    r"we['’]ve|we['’]ll|us|our|ours)(?![\w'’])"
)
# said of someone else: a subject pronoun, or an opening "my <relative>" (the other speaker's
# things are :data:`.spoken.YOURS`)
SOMEONE_ELSE = re.compile(
    rf"(?i)(?<![\w'’])(?:he|she|they|hes|he['’]s|shes|she['’]s|theyre|they['’]re|he['’]d|"
    rf"she['’]d|he['’]ll|she['’]ll)(?![\w'’])|"
    rf"^\W*(?:(?:lol|lmao|also|and|oh|btw|omg|ugh|so|well|plus|haha|wow|guess\s+what)\W+)*"
    rf"(?:my\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b|"
    # a bare name said the way people name people: "ana from work", "joe from the gym"
    r"(?!(?:stuff|things?|people|everyone|someone|nothing|emails?|news|calls?)\b)[a-z]+\s+"
    r"from\s+(?:work|uni|school|college|class|church|yoga|the\s+(?:gym|office|team|club)|"
    r"gym|the\s+\w+\s+team)\b)"
)
_SENTENCES = re.compile(rf"[.!?\n]+|{EMOJI}")
# a reason given of someone else opens a clause: "… moving to york bc callum got a job there"
_CLAUSES = re.compile(
    r"[;,:]+|\s(?:but|so|though|although|bc|because|cause|cuz|coz|"
    r"aber|weil|pero|porque|perché|perche|mais)\s"  # the same in other languages
    # a conjunction before "my <relation>": "we were all freaked when my son got into an accident"
    rf"|\s(?:and|when|while|after|since|as|until|till|before|if)\s+(?=(?:my|our)\s+(?:[\w-]+\s+)?"
    rf"(?:{_ANY_RELATION})\b)"
)
# an aside in brackets is a clause of its own, its emoji no sentence end: "my mate tom from uni
# (diff tom, not work tom 😂) is coming up…" goes on being Tom's
_ASIDE = re.compile(r"\(([^()]*)\)")
# the person as the one who does it: a subject pronoun ("our kid bo loves dinos" is Bo's)
SUBJECT_I = re.compile(
    r"(?i)(?<![\w'’])(?:i|im|i['’]m|ive|i['’]ve|i['’]d|i['’]ll|we|we['’]re|we['’]ve|we['’]ll|"
    r"myself)(?![\w'’])"
)
_OPENING = r"^\W*(?:(?:lol|lmao|also|and|oh|btw|omg|ugh|so|well|plus|haha|wow|guess\s+what)\W+)*"
# a clause opening on someone else: a relation ("our kid bo…", "my sister…"), a possessive
# ("tom's new gym…", "callums sister…"), or a name the person uses for someone ("lara is…")
_REL_OPENING = re.compile(
    rf"(?i){_OPENING}(?:(?:my|our|(?:one|some|two|a\s+couple)\s+of\s+my)\s+(?:[\w-]+\s+)?"
    rf"(?:{_ANY_RELATION})\b|(?:a|an|one)\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\s+of\s+(?:mine|ours)\b"
    # someone else's thing: "his flight got moved", "her landlord…"
    r"|(?:his|her|their)\s+\w+)"
)
_POSSESSIVE_OPENING = re.compile(
    rf"(?i){_OPENING}([a-z]+)(?:['’]s\b|s\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b)"
)
_NAMED_OPENING = re.compile(
    rf"(?i){_OPENING}([a-z]+)\s+(?:is|was|has|had|got|gets|just|started|starts|moved|moves|"
    r"moving|ate|loves|likes|said|says|wants|works|lives|goes|went|took|did|does|left|quit|"
    r"bought|called|texted|brought|asked|told|made|booked|runs|plays|ran|played|used)\b"
)


def owners(message: str, names: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    """Each clause of one message, and whether it is someone else's (module docstring): a
    clause that says neither goes on with the one before it in its sentence, or — a fragment
    of three words at most ("… had twins!!! two boys") — in the sentence before. A clause
    that opens on someone else ("our kid bo…", "tom's gym…", ``names``: "lara is…") is theirs
    unless the person is a subject of it too ("my sister and i…")."""
    out: list[tuple[str, bool]] = []
    other = False
    around = gloss.language(message)
    asides = _ASIDE.sub(lambda m: f"; {re.sub(EMOJI, ' ', m[1])};", message)
    for sentence in _SENTENCES.split(asides):
        lang = gloss.language(sentence, around)  # another language's clause read in English
        for n, said in enumerate(c.strip() for c in _CLAUSES.split(sentence.strip())):
            if not said:
                continue
            clause = gloss.english_in(said, lang) if lang else said
            if _opens_on_other(clause, names) and not SUBJECT_I.search(clause):
                other = True
            elif SUBJECT_I.search(clause):
                other = False
            elif SOMEONE_ELSE.search(clause):  # "nikos told us hes leaving": his, not ours
                other = True
            elif FIRST_PERSON.search(clause):
                other = False
            elif n == 0 and len(clause.split()) > 3:
                other = False
            out.append((said, other))
    return out


def _opens_on_other(clause: str, names: frozenset[str]) -> bool:
    """The clause opens on someone else: a relation of the person's or of another's, or a
    name the person uses for someone (``names``)."""
    if _REL_OPENING.match(clause):
        return True
    if (m := _POSSESSIVE_OPENING.match(clause)) and m[1].lower() not in STOP_WORDS | _NOT_NAMES:
        return True
    return bool((m := _NAMED_OPENING.match(clause)) and m[1].lower() in names - STOP_WORDS)


_NOT_NAMES = frozenset("what there here let who where how everything nothing life work".split())
_TITLED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,})\b")
_AFTER_RELATION = re.compile(
    rf"(?i)\b(?:my|our|his|her|their|[a-z]+['’]?s)\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\s+([a-z]+)"
)


_KNOWN = re.compile(r"^(?:Person|Pet):\S")


def people_named(texts: Iterable[str], stored: Iterable[str]) -> frozenset[str]:
    """The names the person uses for people: after a relation ("my sister lara", "callums
    sister lotte"), or written as a name (a capital mid-sentence, a stored fact's name, a
    known entity's: "Person:Lara")."""
    texts = (*texts,)
    found = {m[1].lower() for t in (*texts, *stored) for m in _AFTER_RELATION.finditer(t)}
    found |= {m[1].lower() for t in texts for m in _TITLED.finditer(t)}
    found |= {w.lower() for t in stored for w in re.findall(r"\b[A-Z][a-z]{2,}\b", t)}
    found |= {n.split(":", 1)[1].split()[0].lower() for n in stored if _KNOWN.match(n)}
    return frozenset(found - STOP_WORDS - {"user"})


def families(text: str) -> set[int]:
    said = set(words(text))
    return {i for i, family in enumerate(RELATIONS) if said & family}
