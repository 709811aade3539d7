"""The pure half of the memory store: slugs, canonical predicates and the memory key."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from uuid import UUID

SELF_REF = "self:user"
ENTITY_TYPES = {"Person": "person", "Location": "place", "Org": "org", "Project": "project"}
EXCLUSIVE_PREDICATES = frozenset(
    {
        "NAME",
        "LIVES_IN",
        "WORKS_AT",
        "JOB_TITLE",
        "AGE",
        "BIRTHDAY",
        "DIET",
        "FEELS",
        "GENDER",
        "PRONOUNS",
        "TIMEZONE",
        "HOMETOWN",
        "BORN_IN",
        "MARRIED_TO",
        "MARITAL_STATUS",
        "HAS_WIFE",
        "HAS_HUSBAND",
        "HAS_PARTNER",
        "HAS_BOYFRIEND",
        "HAS_GIRLFRIEND",
        "HAS_MOTHER",
        "HAS_FATHER",
        "HAS_BOSS",
        "HAS_MANAGER",
        "STATUS",
        "DEADLINE",
        "TEAM",  # one team at a time: "im on the ml platform team now" ends the payments team
    }
)
# The one predicate vocabulary (docs/schema.md, "Predicate vocabulary", lists the same): each
# canonical predicate and the spellings a model or a judge writes for it, so a correction never
# depends on spelling ("location" then "lives_in" is one memory key).
VOCABULARY: dict[str, tuple[str, ...]] = {
    "NAME": ("FULL_NAME", "FIRST_NAME", "IS_NAMED", "CALLED", "NAMED"),
    "LIVES_IN": (
        "LOCATION", "CURRENT_LOCATION", "HOME", "CITY", "CURRENT_CITY", "HOME_CITY",
        "RESIDENCE", "RESIDES_IN", "LIVES_AT", "LIVE_IN", "LIVES", "LIVING_IN", "BASED_IN",
        "LOCATED_IN", "MOVED_TO", "RELOCATED_TO",
    ),
    "WORKS_AT": (
        "WORKS_FOR", "WORK_AT", "WORKING_AT", "EMPLOYER", "EMPLOYED_AT",
        "EMPLOYED_BY", "COMPANY", "WORKPLACE",
    ),
    "JOB_TITLE": ("OCCUPATION", "PROFESSION", "ROLE", "TITLE", "POSITION", "WORKS_AS"),
    "HOMETOWN": ("FROM", "COMES_FROM", "ORIGIN", "GREW_UP_IN"),
    "BORN_IN": ("BIRTHPLACE", "PLACE_OF_BIRTH"),
    "BIRTHDAY": ("BIRTH_DATE", "BIRTHDATE", "DATE_OF_BIRTH", "DOB", "BORN_ON"),
    "AGE": ("HAS_AGE", "YEARS_OLD", "AGED"),
    "MARRIED_TO": ("SPOUSE", "HAS_SPOUSE", "IS_MARRIED_TO"),
    "MARITAL_STATUS": ("RELATIONSHIP_STATUS",),
    "STUDIES_AT": ("STUDIES", "STUDENT_AT", "ATTENDS", "SCHOOL", "UNIVERSITY"),
    "ALLERGY": ("ALLERGIC_TO", "HAS_ALLERGY", "ALLERGIES"),
    "DIET": ("DIETARY_PREFERENCE", "DIET_TYPE"),
    "LIKES": ("LIKE", "ENJOYS", "ENJOY", "LOVES", "LOVE", "FAN_OF", "INTO"),
    "DISLIKES": ("DISLIKE", "HATES", "HATE"),
    "PREFERS": ("PREFER", "PREFERENCE"),
    "HAS_MOTHER": ("HAS_MOM", "HAS_MUM", "MOTHER", "MOM"),
    "HAS_FATHER": ("HAS_DAD", "FATHER", "DAD"),
    "HAS_PET": ("PET", "OWNS_PET"),
    "STATUS": ("PROJECT_STATUS",),
}  # fmt: skip
# Spellings whose meaning depends on the fact's shape: "job: Acme" (an entity) is WORKS_AT,
# "job: nurse" (a literal) JOB_TITLE; (with an object, with a value).
BY_SHAPE: dict[str, tuple[str, str]] = {
    "JOB": ("WORKS_AT", "JOB_TITLE"),
    "WORK": ("WORKS_AT", "JOB_TITLE"),
    "WORKS": ("WORKS_AT", "JOB_TITLE"),
    "CAREER": ("WORKS_AT", "JOB_TITLE"),
    "MARRIED": ("MARRIED_TO", "MARITAL_STATUS"),
    "IS_MARRIED": ("MARRIED_TO", "MARITAL_STATUS"),
}
# What the fact's own words say, for those spellings: the word before the value, or the verb.
_OBJECT_WORDS = re.compile(
    r"(?i)\b(?:at|for|with|by|to|joined|joining|join|left|leaves|leaving|leave|quit|quitting|"
    r"from|employed|(?:employer|company|workplace)(?:\s+(?:is|was))?)\W*$"
)
_LITERAL_WORDS = re.compile(r"(?i)\b(?:as|is|was|an?|title|role|position)\W*$")
_OBJECT_VERB = re.compile(
    r"(?i)\b(?:works?|working|worked|employed|job|hired)\s+(?:at|for|by|with)\b|"
    r"\bmarried\s+to\b|\b(?:joined|joins|quit|left)\b"
)
_LITERAL_VERB = re.compile(r"(?i)\b(?:works?|working|worked|job)\s+as\b|\bis\s+an?\b")
PREDICATE_SYNONYMS = {
    alias: canonical for canonical, aliases in VOCABULARY.items() for alias in aliases
}


def slug(text: str, limit: int = 60) -> str:
    """000 slug rule: lower-case, accents and punctuation dropped, spaces/hyphens → ``_``."""
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c)
    )
    words = re.sub(r"[^\w\s-]", "", plain)
    out = re.sub(r"[\s_-]+", "_", words).strip("_")
    if len(out) > limit:
        out = out[: limit - 9].rstrip("_") + "_" + hashlib.sha1(out.encode()).hexdigest()[:8]
    return out or "x" + hashlib.sha1(text.encode()).hexdigest()[:8]


def entity_type(category: str) -> str:
    return ENTITY_TYPES.get(category, category.lower())


def _upper(predicate: str) -> str:
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", predicate.strip())
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", snake)).strip("_").upper()


def canonical_predicate(predicate: str, *, literal: bool = False) -> str:
    """The vocabulary's predicate for a spelling: upper snake case ("livesIn", "lives in" →
    LIVES_IN), a synonym mapped to its canonical predicate; ``literal``: the fact has a value,
    not an object (for the spellings :data:`BY_SHAPE` reads by the fact's shape)."""
    upper = _upper(predicate)
    if upper in BY_SHAPE:
        return BY_SHAPE[upper][1 if literal else 0]
    return PREDICATE_SYNONYMS.get(upper, upper)


def shaped_predicate(predicate: str, value: str | None, text: str) -> str | None:
    """For a spelling :data:`BY_SHAPE` reads by shape ("job"), written with a value (no
    object): the canonical predicate the fact's own words name — the word before the value
    ("works at Spotify" → WORKS_AT, "works as a nurse" → JOB_TITLE), else its verb ("User
    works at Spotify" with no value). None: not such a spelling, or the words do not tell
    (the shape then decides, :func:`canonical_predicate`)."""
    upper = _upper(predicate)
    if upper not in BY_SHAPE:
        return None
    with_object, literal = BY_SHAPE[upper]
    at = text.casefold().find(value.casefold()) if value and value.strip() else -1
    if at > 0:
        before = text[:at]
        if _OBJECT_WORDS.search(before):
            return with_object
        if _LITERAL_WORDS.search(before):
            return literal
    if _LITERAL_VERB.search(text):
        return literal
    return with_object if _OBJECT_VERB.search(text) else None


def primary_ref(entity_ref: str | None, entity_id: UUID | str) -> str:
    if entity_ref == SELF_REF:
        return "self"
    return entity_ref.split(":", 1)[1] if entity_ref else str(entity_id)


def memory_key(
    *,
    memory_type: str,
    category: str,
    subject_ref: str,
    fact_type: str,
    predicate: str,
    object_ref: str | None = None,
    value: str | None = None,
) -> str:
    """The dedup key (module docstring); ``subject_ref``/``object_ref`` from :func:`primary_ref`."""
    pred = canonical_predicate(predicate)
    parts = [memory_type.lower(), entity_type(category), subject_ref, fact_type, pred.lower()]
    if pred not in EXCLUSIVE_PREDICATES:
        parts.append(object_ref if object_ref is not None else "v:" + slug(value or "", 48))
    return "|".join(parts)


def user_lock_key(user_id: str) -> int:
    digest = hashlib.blake2b(f"twin-core:user:{user_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
