"""Who the person talked about (pure): the summary's ``people``, which holds people only.

Issue 28: a capitalised word is not a person ("Scotland", "The Alchemist", "Bye", "Tues").
``people`` lists, in this order:

1. the person's known Person entities named in the session;
2. a capitalised name in the person's own sentences (not its first word, not a word the
   session also writes in lower case) with a sign of a person next to it: a relation word
   before it ("my sister Marta", "friend Jo", "named Tom"), a verb of meeting or talking
   before it ("met Ana", "told Jo", "with Tom"), or after it ("Tom said", "Ana and I",
   "Jo's birthday", "Tom's wife", "Tom is my…").

3. in a message typed without capitals, the word after a relation ("my sister ana").

Never a name someone is addressed by ("Hey Mel!", "Thanks, Caroline") nor a name of one of
the speakers (the person is not one of their own people; the other side is the persona),
nor a word after "the", "in", "to", "from", "at", "visited" (a place or a title), nor
the second of a pair after one ("to Scotland and Porto").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.reflection_writer.model import KnownEntity, Message
from services.reflection_writer.text import STOPWORDS, clip, fold, sentences, unique

AROUND = 60  # characters either side of a name that its cues are looked for in
_NAME = re.compile(r"(?<![\w'])([A-Z][a-zà-ÿ]+(?:[ -][A-Z][a-zà-ÿ]+)?)(?=$|[^\w']|'s\b)")
RELATIONS = (
    "mom mum mother dad father mama papa sister brother sis bro wife husband partner spouse "
    "boyfriend girlfriend bf gf hubby wifey fiance fiancee fiancé fiancée son daughter kid kids "
    "child baby "
    "grandma grandpa grandmother grandfather granny nana aunt uncle cousin niece nephew "
    "friend friends bestie buddy pal mate colleague coworker co-worker boss manager mentor "
    "teacher coach doctor therapist neighbor neighbour roommate flatmate classmate ex "
    "named called"
).split()
_BEFORE = re.compile(
    r"\b(?:" + "|".join(re.escape(r) for r in RELATIONS) + r"|met|meet|meeting|told|tell|"
    r"telling|asked|ask|with|texted|text|called|call|calling|saw|see|seeing|visit(?:ing)? "
    r"(?:my|our) \w+|hugged|married|dating|miss|love)\s*,?\s*$"
)
_AFTER = re.compile(
    r"^\s*(?:'s (?:birthday|wedding|funeral|party|baby|kids?|son|daughter|wife|husband|mom|"
    r"mum|dad|parents|house|place)\b|"
    r"(?:and i|and me|said|says|told|tells|asked|asks|thinks|thought|wants|"
    r"wanted|called|texted|is my|was my|is a friend|and his|and her|helped|came|come|visited|"
    r"loves|likes|gave|got|passed away|died|is pregnant|was born)\b)"
)
_NOT_PERSON_BEFORE = re.compile(
    r"\b(?:the|in|to|from|at|visited|of|on|a|an|for)\s+(?:[\w'-]+,?\s+(?:and|or)\s+)?$"
)
_GREETING = re.compile(r"(?:^|[.!?]\s*)(?:hey|hi|hello|thanks|thank you|bye|dear|yo)\W*$")
_VOCATIVE_AFTER = re.compile(r"^\s*(?:[!?,]|$)")
_NOT_NAMES = frozenset(
    fold(w)
    for w in """I OK Ok Okay Yes No Hi Hey Thanks Bye Monday Tuesday Wednesday Thursday Friday
Saturday Sunday Mon Tue Tues Wed Thu Thurs Fri Sat Sun January February March April May June
July August September October November December Christmas Easter English God Mom Dad Mum""".split()
)


def find_people(messages: Sequence[Message], known: Sequence[KnownEntity]) -> list[str]:
    """Known Person entities named in the session, then names the person used for someone."""
    names = [e.name for e in known if e.category == "Person"]
    speakers = {fold(w) for m in messages if m.speaker for w in m.speaker.split()}
    lowered = {w for m in messages for w in re.findall(r"\b[a-z][a-z'-]+\b", m.text)}
    for message in messages:
        if message.role != "user":
            continue
        names += _typed_lowercase(message.text, speakers)
        for sentence in sentences(message.text):
            names += [
                name
                for name, before, after in _candidates(sentence)
                if _is_person(name, before, after, speakers, lowered)
            ]
    return unique((clip(n, 80) for n in names), 10)


_RELATION_THEN = re.compile(
    r"\bmy\s+(?:best\s+|little\s+|big\s+|older\s+|younger\s+)?(?:"
    + "|".join(re.escape(r) for r in RELATIONS if r not in ("named", "called", "kids", "friends"))
    + r")\s*,?\s+([a-z][a-z'-]{1,19})\b(?!')"
    r"(?!\s+(?:us|me|him|her|them|it|you|my|our|his|their|a|an|the|to|up|out|off|away|over|"
    r"back|home|some|all|so|really|very)\b)"  # "my dad took us …": a verb, not a name
)
# What follows "my sister …" when it is no name.
_NOT_LOWER_NAMES = frozenset(
    """lives lived works worked says said told tells got gets went goes loves loved likes liked
wants wanted thinks thought called texted came comes visited just always never finally really
also still and or but who which that is was has had will would can could does did doing
getting going being living working moving staying last next this today tonight tomorrow
yesterday now again too lol haha btw tbh rn omg ugh took made gave saw left bought brought
sent kept felt found ran won lost fell heard knew met paid put read sat sold spent stood taught
wrote ate drove flew grew keeps makes takes gives needs hates misses live work go come say
like love want need get make take know think feel do does""".split()
)


def _typed_lowercase(text: str, speakers: set[str]) -> list[str]:
    """In a sentence typed without capitals (its first letter and "I" aside), the name after a
    relation word ("my sister ana", "back from Lisbon! went with my bf tiago"): the capitalised
    rules cannot see it."""
    return [n for s in sentences(text) if _uncapitalised(s) for n in _after_role(s, speakers)]


def _uncapitalised(sentence: str) -> bool:
    body = re.sub(r"\bI\b", "", re.sub(r"^[\W\d_]*\w", "", sentence))
    return not re.search(r"[A-Z]", body)


def _after_role(text: str, speakers: set[str]) -> list[str]:
    out = []
    for m in _RELATION_THEN.finditer(text):
        word = m.group(1)
        if (
            word in _NOT_LOWER_NAMES
            or word in STOPWORDS
            or fold(word) in _NOT_NAMES
            or fold(word) in speakers
            or re.search(r"(?:ed|ing|ly)$", word)
        ):
            continue
        out.append(word.capitalize())
    return out


def _candidates(sentence: str) -> list[tuple[str, str, str]]:
    """Each capitalised name inside ``sentence`` (not its first word), with the text around;
    a calendar word is cut off a two-word match ("On Monday Tom and I…" → "Tom")."""
    out = []
    for m in _NAME.finditer(sentence):
        start, end = m.start(), m.end()
        first, _, last = m.group(1).partition(" ")
        if last and fold(first) in _NOT_NAMES:
            start += len(first) + 1
        elif last and fold(last) in _NOT_NAMES:
            end -= len(last) + 1
        if start > 0:  # the words around it, not the whole text: linear in its length
            before = sentence[max(0, start - AROUND) : start]
            out.append((sentence[start:end], before, sentence[end : end + AROUND]))
    return out


def _is_person(name: str, before: str, after: str, speakers: set[str], lowered: set[str]) -> bool:
    folded = fold(name)
    if folded in _NOT_NAMES or folded in STOPWORDS or name.lower() in lowered:
        return False
    if any(fold(part) in speakers for part in name.split()):
        return False
    head = fold(before) + " "  # fold squeezes the space the patterns end on
    if _GREETING.search(head) or (_VOCATIVE_AFTER.search(after) and head.rstrip().endswith(",")):
        return False
    if _NOT_PERSON_BEFORE.search(head):
        return False
    return bool(_BEFORE.search(head) or _AFTER.search(fold(after)))
