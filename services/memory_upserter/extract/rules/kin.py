"""Relations said in passing — the way people mention their life without stating it: "my kids",
"my husband and I", "the wife and kids", "our dog", "our one-year-old, his name is Kyle",
"back home in Sweden", "my home country, Sweden", "losing my job was hard", "lost my job as a
banker", "I got promoted", "my new job", "I work at the shelter".

Conservative: a role word with no name says only that the person has one — never an entity
named after the role, never a single-valued predicate (``HAS_WIFE``, ``HAS_MOTHER`` …), so "my
wife and I" cannot replace a known "my wife Sofia": a spouse is ``HAS_SPOUSE``, a partner
``DATING``, children ``HAS_CHILDREN``, a pet ``HAS_PET``, the role word as value, undated unless
had ("walking my dog this morning"), none for a partner left ("my boyfriend and I broke up").
Mother, father and siblings without a name are left to the rules that say something about them.
These rules come last in the table: a named relation of the same kind in the turn wins.
"""

from __future__ import annotations

import re
from functools import lru_cache

from services.memory_upserter.extract import casual
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    NAME,
    ORG,
    _article,
    _name,
    _place,
    _relationship,
    rule,
)
from services.memory_upserter.extract.vocabulary import ROLES

# role word → (predicate, value) for a role said without a name
_UNNAMED = {
    "husband": ("HAS_SPOUSE", "husband"),
    "hubby": ("HAS_SPOUSE", "husband"),
    "wife": ("HAS_SPOUSE", "wife"),
    "missus": ("HAS_SPOUSE", "wife"),
    "spouse": ("HAS_SPOUSE", "spouse"),
    "partner": ("DATING", "partner"),
    "boyfriend": ("DATING", "boyfriend"),
    "girlfriend": ("DATING", "girlfriend"),
    "fiance": ("DATING", "fiance"),
    "fiancé": ("DATING", "fiance"),
    "fiancée": ("DATING", "fiancee"),
    "kids": ("HAS_CHILDREN", "kids"),
    "children": ("HAS_CHILDREN", "children"),
    "son": ("HAS_SON", "son"),
    "daughter": ("HAS_DAUGHTER", "daughter"),
    "dog": ("HAS_PET", "dog"),
    "cat": ("HAS_PET", "cat"),
    "puppy": ("HAS_PET", "puppy"),
    "kitten": ("HAS_PET", "kitten"),
    "dogs": ("HAS_PET", "dogs"),
    "pets": ("HAS_PET", "pets"),
    "cats": ("HAS_PET", "cats"),
    "turtle": ("HAS_PET", "turtle"),
    "turtles": ("HAS_PET", "turtles"),
    "hamster": ("HAS_PET", "hamster"),
    "bunny": ("HAS_PET", "bunny"),
    "parrot": ("HAS_PET", "parrot"),
    "guinea pig": ("HAS_PET", "guinea pig"),
    "brother": ("HAS_BROTHER", "brother"),
    "sister": ("HAS_SISTER", "sister"),
    "cousin": ("HAS_COUSIN", "cousin"),
    "mentor": ("HAS_MENTOR", "mentor"),
    "therapist": ("HAS_THERAPIST", "therapist"),
}
# Relatives said only as company ("my brother and I", "with my cousin"): the role alone says
# little, so only in these frames (never "my sister's dog", "my sister lives in Rome").
_COMPANY = ("brother", "sister", "cousin")
_GRAND = {"grandma": "grandma", "grandmother": "grandma", "grandpa": "grandpa"}
_GRAND["grandfather"] = "grandpa"
_WORDS = "|".join(sorted(map(re.escape, [*_UNNAMED, *_GRAND]), key=len, reverse=True))
# "our kids" is as often a town's as theirs
_OURS = "son|daughter|dogs?|cats?|puppy|kitten|baby|turtles?|hamster|bunny|parrot|guinea pig"
_KIN_ADJ = (
    r"(?:(?:two|three|four|five|2|3|4|5)\s+)?(?:late\s+|little\s+|older\s+|younger\s+|big\s+|"
)
_KIN_ADJ += r"baby\s+|eldest\s+|oldest\s+|youngest\s+|first\s+|second\s+|third\s+|new\s+)?"
_NAMED_NEXT = (
    rf"(?!['’]s\b|-)(?!,?\s+{_CAP})(?!(?:'s\s+name)?\s+(?i:is|was)\s+(?:called\s+|named\s+)?{_CAP})"
)
_NAMED_NEXT += r"(?!\s+(?i:is\s+called|named|called)\b)"
_WORKPLACE = (
    r"shelter|hospital|clinic|school|university|college|library|museum|bank|bakery|cafe|café|"
    r"restaurant|bar|hotel|store|shop|supermarket|warehouse|factory|farm|gym|studio|lab|"
    r"company|firm|agency|startup|nonprofit|non-profit|charity|center|centre|daycare|"
    r"kindergarten|pharmacy|newspaper|magazine|theater|theatre|church|office|garage"
)
_AT_WORKPLACE = rf"(?P<article>the|a|an)\s+(?P<place>(?:[a-z][\w-]*\s+){{0,3}}?(?:{_WORKPLACE}))\b"


def _unnamed(out: Emitter, word: str) -> None:
    """The person has one of these (a role said without a name): the non-exclusive fact."""
    word = word.lower()
    if word in _GRAND:
        _relationship(out, _GRAND[word], _GRAND[word].capitalize())
        return
    predicate, value = _UNNAMED[word]
    if any(k[0] == "user" and k[1] == predicate and f.object for k, f in out.facts.items()):
        return  # a named one in this turn says more
    plural = value in ("kids", "children") or value.endswith(("dogs", "cats", "turtles", "pets"))
    out.fact(
        predicate,
        f"{out.who} has {value if plural else _article(value)}",
        value=value,
        memory_type="PEOPLE",
        fact_type="relationship",
        importance=2,
        confidence=0.8,
    )


@rule(
    "role_unnamed",
    rf"(?<!\bis\s)(?<!\bwas\s)(?i:\b(?:my|(?P<our>our)|(?P<the>the))\s+{_KIN_ADJ})"
    rf"(?P<role>(?i:{_WORDS}))\b{_NAMED_NEXT}",
)
def _role_unnamed(m: re.Match[str], out: Emitter) -> None:
    role = m["role"].lower()
    if _lowercase_name_next(m):
        return  # "our dog rex": a name typed in lowercase, not a role without one
    if m["the"] and role not in ("wife", "missus", "hubby") and not _our_kids(m, _near(m, out)):
        return  # "the kids", "the dog": anyone's
    if m["our"] and not re.fullmatch(_OURS, role):
        return
    if role in _COMPANY and not _as_company(role, _near(m, out)):
        return
    if m["the"] and _OF.match(m.string, m.end()):
        return  # "the wife of my boss"
    if _UNNAMED.get(role, ("",))[0] in ("DATING", "HAS_SPOUSE") and _ENDED.search(_near(m, out)):
        return  # "me and my boyfriend broke up": no partner now
    _unnamed(out, role)  # undated unless a beginning is said (Emitter.fact: _BEGINS)


_ENDED = re.compile(r"(?i)\b(?:(?:broke|break\w*|split)\s+up|separated|divorc\w+|dumped|ex)\b")


def _near(m: re.Match[str], out: Emitter) -> str:
    """The sentence's words around the match (its clause may be cut at "and I"), bounded, so a
    long message stays linear."""
    at = out.sentence.find(m.string)
    if at < 0:
        return m.string  # the clause as the rules read it (its time words taken out)
    return out.sentence[max(0, at + m.start() - 80) : at + m.end() + 20]


def _our_kids(m: re.Match[str], sentence: str) -> bool:
    """ "We went camping with the kids", "I'm off to go swimming with the kids": the person's
    own, said as their company (never "the kids at school", "the kids I teach", "she took the
    kids")."""
    role = m["role"].lower()
    if role not in ("kids", "children") or _OTHERS_KIDS.match(m.string, m.end()):
        return False
    company = (
        rf"(?i)(?:\b(?:I|we)\b[^.!?]{{0,60}}\bwith|\b(?:me|I)\s+and|\b(?:I|we)\s+took)\s+the\s+"
        rf"{role}\b|\bthe\s+{role}\s+and\s+I\b"
    )
    return bool(re.search(company, sentence))


_OTHERS_KIDS = re.compile(
    r"(?i)\s+(?:at|in|from|of|on)\s|\s+(?:I|we)\s+(?:teach|taught|mentor|coach|tutor)"
)


def _as_company(role: str, sentence: str) -> bool:
    """ "My brother and I went fishing", "hiking with my cousin": the relative as company."""
    return bool(re.search(rf"(?i)\b(?:(?:with|me\s+and)\s+my\s+{role}\b|my\s+{role}\s+and\s+"
                          rf"(?:I|me)\b)", sentence))  # fmt: skip


def _lowercase_name_next(m: re.Match[str]) -> bool:
    """In a message typed without capitals, the word after the role is a name when it is not
    a common word (:func:`..casual.is_name`)."""
    nxt = _NEXT_WORD.match(m.string, m.end())
    return bool(nxt and _typed_lower(m.string) and casual.is_name(nxt.group(1)))


_OF = re.compile(r"\s+of\b")
_NEXT_WORD = re.compile(r"\s+([a-z][\w'-]*)")


@lru_cache(maxsize=8)
def _typed_lower(text: str) -> bool:
    """No capital but "I": once per clause, not once per role in it (linear in the message)."""
    return not re.search(r"[A-Z]", re.sub(r"\bI(?:'\w+)?\b", "", text))


@rule(
    "spouse_and_kids",
    r"(?i:\b(?:my|the)\s+(?:wife|missus|husband|hubby)\s*,?\s+and\s+(?:(?:the|my|our)\s+)?"
    r"(?P<role>kids|children))\b",
)
def _spouse_and_kids(m: re.Match[str], out: Emitter) -> None:
    _unnamed(out, m["role"])


@rule(
    "child_named_by_pronoun",
    rf"(?i:\b(?:my|our)\s+(?:(?:\w+|\d+)[- ](?:year|month|week)s?[- ]old|baby|newborn|"
    rf"little\s+one|son|daughter)\b[^.!?;]{{0,40}}?\b(?P<pron>his|her)\s+name\s+is)\s+{NAME}",
)
def _child_named(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name:
        _relationship(out, "son" if m["pron"].lower() == "his" else "daughter", name)


@rule(
    "home_country",
    rf"(?i:\b(?:my\s+(?:home\s*(?:country|town|land)|native\s+(?:country|land)|motherland)"
    rf"(?:\s*,\s*|\s+(?:of|is|was|in)\s+|\s+)|back\s+home\s+in\s+))(?P<place>{_CAP}[^,.;:!?]*?){_STOP}",
)
def _home_country(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    if place:
        out.entity(place, "Location")
        out.fact("FROM", f"{out.who} is from {place}", obj=place, importance=2, confidence=0.8)


def _lost_job(out: Emitter, value: str = "unemployed") -> None:
    out.fact("JOB_STATUS", f"{out.who} lost their job", value=value, importance=2)


@rule(
    "losing_my_job",
    r"(?i:(?:^\W*|\b(?:since|after)\s+)(?:losing|getting\s+laid\s+off\s+from)\s+my\s+job)\b",
)
def _losing_my_job(m: re.Match[str], out: Emitter) -> None:
    """ "Losing my job was hard", "since losing my job": a job lost before (not "afraid of
    losing my job": only at the clause's start or after since/after)."""
    _lost_job(out, "lost job")


@rule(
    "lost_job_as_at",
    rf"(?i:\bI\s+(?:just\s+)?lost\s+my\s+job\s+(?:as\s+an?\s+(?P<role>{_JOBS})|at\s+"
    rf"(?:{_AT_WORKPLACE}|(?:the\s+)?(?={_CAP})))){ORG}?",
)
def _lost_job_as_at(m: re.Match[str], out: Emitter) -> None:
    """ "I lost my job as a banker / at the mechanical engineering company / at Acme": the job,
    ended at the time said (else the turn)."""
    out.valid_to, out.valid_from = out.valid_from or out.now, None
    if m["role"]:
        role = m["role"].lower()
        out.fact("JOB_TITLE", f"{out.who} worked as {_article(role)}", value=role, importance=2)
    elif m["place"]:
        text = f"{out.who} worked at {m['article'].lower()} {m['place']}"
        out.fact("WORKS_AT", text, value=m["place"], importance=2, confidence=0.8)
    elif m["org"] and _name(m["org"]):
        org = str(_name(m["org"]))
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} worked at {org}", obj=org, importance=2, confidence=0.85)


@rule("promoted", r"(?i:\bI\s+(?:just\s+|finally\s+)?got\s+(?:a\s+)?promot(?:ed|ion))\b")
def _promoted(m: re.Match[str], out: Emitter) -> None:
    out.fact("JOB_STATUS", f"{out.who} got promoted at work", value="promoted", importance=2)


@rule(
    "new_job",
    r"(?i:\b(?:my\s+new\s+job|I\s+(?:just\s+)?(?:started|got|found|landed)\s+a\s+new\s+job))\b"
    r"(?!\s+(?:at|with|as)\b)",
)
def _new_job(m: re.Match[str], out: Emitter) -> None:
    out.fact("JOB_STATUS", f"{out.who} has a new job", value="employed", importance=2)


@rule(
    "works_at_place",
    rf"(?i:\bI\s+(?:still\s+)?work\s+(?:(?:night|day|long|double|weekend)?\s*shifts?\s+|nights\s+|"
    rf"weekends\s+|part-time\s+|full-time\s+)?(?:at|in)\s+){_AT_WORKPLACE}{_STOP}",
)
def _works_at_place(m: re.Match[str], out: Emitter) -> None:
    """ "I work at the shelter / in a hospital", "I work night shifts at the hospital": the
    workplace as words (no named org)."""
    text = f"{out.who} works at {m['article'].lower()} {m['place']}"
    out.fact("WORKS_AT", text, value=m["place"], importance=2, confidence=0.75)


assert all(
    r in ROLES or r in ("hubby", "missus", "kids", "children") or p == "HAS_PET"
    for r, (p, _) in _UNNAMED.items()
)
