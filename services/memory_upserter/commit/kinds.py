"""The category a name in a model's plan takes when nothing declares it (pure; issue 27 §5).

A plan that names someone or something new should declare it in ``entities``; a sloppy model
often does not, and writes ``{"memory_type": "PEOPLE", "subject": "Pixel", …}``. The memory
type is no category: a PEOPLE fact is about the person's life, a dog's as well as a sister's.
So a name is

- what the predicate of a fact naming it as the object implies (:func:`object_category`:
  ``has_dog`` → Pet, ``works_at`` → Org, ``has_sister`` → Person);
- else what a predicate about it as the subject implies (:func:`subject_category`: only a person
  works somewhere, has a job title or a sister; only a pet has a breed);
- else what the person called it ("my dog pixel", "marta my sister", "jonas from work":
  :func:`said_category`), or the fact's own words did ("User's sister priya wants…");
- else a PROJECT fact's subject is a Project;
- else nothing: the commit makes it an ``Other`` entity — never a Person by default — and says
  so with an ``entity_category_unknown`` warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from contracts.plan import MemoryWritePlan
from contracts.relations import ROLES, SYMMETRIC, of_predicate
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.commit.read import OBJECT_CATEGORIES, SELF_HANDLES
from services.memory_upserter.text import fold

PERSON_LABELS = frozenset(label for label in ROLES.values() if label != "PET")
PERSON_PREDICATES = frozenset(
    {f"HAS_{label}" for label in PERSON_LABELS}
    | {of_predicate(label) for label in PERSON_LABELS}
    | {p for ps in SYMMETRIC.values() for p in ps}
    | {"HAS_CHILD", "HAS_KID", "HAS_MOM", "HAS_DAD", "KNOWS", "MET", "DATING", "HAS_EX"}
)
PET_PREDICATES = frozenset(
    {f"HAS_{word.upper()}" for word, label in ROLES.items() if label == "PET"}
    | {"HAS_PET", "OWNS_PET", "HAS_BIRD", "HAS_FISH", "OWNS_DOG", "OWNS_CAT"}
)
# What only a person does or has, as the subject of a fact (canonical predicates).
PERSON_SUBJECT = frozenset(
    "WORKS_AT JOB_TITLE STUDIES_AT LIVES_IN MARRIED_TO ENGAGED_TO PREGNANT EXPECTING "
    "BIRTHDAY OCCUPATION PROFESSION NATIONALITY SPEAKS".split()
)
PET_SUBJECT = frozenset("BREED SPECIES VET".split())
_PLACES_PEOPLE_MEET = r"(?:work|uni|school|college|the\s+office)"
_USERS = re.compile(r"(?i)\b(?:the\s+)?user['’]s\b")


def object_category(predicate: str, memory_type: str) -> str | None:
    """The category the object of ``predicate`` must be, when the predicate says."""
    pred = canonical_predicate(predicate)
    if pred in PET_PREDICATES:
        return "Pet"
    if pred in PERSON_PREDICATES:
        return "Person"
    return OBJECT_CATEGORIES.get(pred) or ("Project" if memory_type == "PROJECT" else None)


def subject_category(predicate: str) -> str | None:
    """The category the subject of ``predicate`` must be, when the predicate says."""
    pred = canonical_predicate(predicate)
    if pred in PET_SUBJECT:
        return "Pet"
    if pred in PERSON_SUBJECT or pred in PERSON_PREDICATES:
        return "Person"
    return None


def said_category(name: str, said: Sequence[str]) -> str | None:
    """What the person called ``name`` right beside it ("my dog pixel", "pixel my cat",
    "marta (my sister)"): a Pet or a Person; None when they said no such word."""
    text, named = " ".join(said), re.escape(name)
    for found in (
        re.search(rf"(?i)\bmy\s+((?:[\w-]+\s)?[\w-]+)\s+{named}\b", text),
        re.search(rf"(?i)\b{named}\s*[,(]?\s*(?:is\s+)?my\s+((?:[\w-]+\s)?[\w-]+)", text),
    ):
        if found is None:
            continue
        phrase = found[1].lower()
        label = ROLES.get(phrase) or ROLES.get(phrase.split()[-1])
        if label is not None:
            return "Pet" if label == "PET" else "Person"
    if re.search(
        rf"(?i)\b{named}\s*[,(]?\s*from\s+(?:work|uni|school|college|the\s+office)\b", text
    ):
        return "Person"  # "jonas from work", "ana (from uni)": someone the person knows
    return None


def category_hints(plan: MemoryWritePlan, said: Sequence[str]) -> dict[str, str]:
    """Each handle's category as the plan or the person's words imply it (module docstring),
    by its folded name."""
    hints: dict[str, str] = {fold(e.name).strip(): e.category for e in plan.entities}
    for fact in plan.facts:
        if fact.object is not None:
            implied = object_category(fact.predicate, fact.memory_type)
            if implied is not None:
                hints.setdefault(fold(fact.object).strip(), implied)
    for fact in plan.facts:
        key = fold(fact.subject).strip()
        if key in SELF_HANDLES or re.fullmatch(r"[a-z_]+:[^\s:]+", fact.subject):
            continue
        # the fact's own words too: "User's sister priya wants…" is "my sister priya"
        own = _USERS.sub("my", fact.text)
        implied = subject_category(fact.predicate) or said_category(
            fact.subject.strip(), [*said, own]
        )
        if implied is None and fact.memory_type == "PROJECT":
            implied = "Project"
        if implied is not None:
            hints.setdefault(key, implied)
    return hints
