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
        "MARRIED_TO",
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
    }
)
PREDICATE_SYNONYMS = {
    "RESIDES_IN": "LIVES_IN",
    "LIVES_AT": "LIVES_IN",
    "BASED_IN": "LIVES_IN",
    "CURRENT_CITY": "LIVES_IN",
    "HOME_CITY": "LIVES_IN",
    "WORKS_FOR": "WORKS_AT",
    "EMPLOYER": "WORKS_AT",
    "EMPLOYED_AT": "WORKS_AT",
    "EMPLOYED_BY": "WORKS_AT",
    "OCCUPATION": "JOB_TITLE",
    "PROFESSION": "JOB_TITLE",
    "JOB": "JOB_TITLE",
    "ROLE": "JOB_TITLE",
    "FULL_NAME": "NAME",
    "FIRST_NAME": "NAME",
    "IS_NAMED": "NAME",
    "ALLERGIC_TO": "ALLERGY",
    "HAS_ALLERGY": "ALLERGY",
    "DIETARY_PREFERENCE": "DIET",
    "HAS_MOM": "HAS_MOTHER",
    "HAS_DAD": "HAS_FATHER",
    "PROJECT_STATUS": "STATUS",
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


def canonical_predicate(predicate: str) -> str:
    upper = re.sub(r"[^A-Za-z0-9_]", "_", predicate.strip()).upper()
    return PREDICATE_SYNONYMS.get(upper, upper)


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
