"""The relation vocabulary shared by the writer and the reader of memory.

memory-upserter's offline judge writes "my sister Marta" as ``user HAS_SISTER Marta``
(``HAS_<label>``, subject the person's own entity); an LLM plan may write the inverse
``Marta SISTER_OF user`` or a symmetric predicate (``MARRIED_TO``). graph-hydrator resolves
"my sister" through the same table, so a role word means the same relation on both sides.
"""

from __future__ import annotations

# role word (as the person says it, singular) → relation label
ROLES: dict[str, str] = {
    "sister": "SISTER",
    "brother": "BROTHER",
    "mom": "MOTHER",
    "mum": "MOTHER",
    "mother": "MOTHER",
    "dad": "FATHER",
    "father": "FATHER",
    "wife": "WIFE",
    "husband": "HUSBAND",
    "partner": "PARTNER",
    "boyfriend": "BOYFRIEND",
    "girlfriend": "GIRLFRIEND",
    "son": "SON",
    "daughter": "DAUGHTER",
    "best friend": "FRIEND",
    "friend": "FRIEND",
    "boss": "BOSS",
    "manager": "MANAGER",
    "colleague": "COLLEAGUE",
    "coworker": "COLLEAGUE",
    "co-worker": "COLLEAGUE",
    "cofounder": "COFOUNDER",
    "co-founder": "COFOUNDER",
    "cousin": "COUSIN",
    "aunt": "AUNT",
    "uncle": "UNCLE",
    "grandma": "GRANDMOTHER",
    "grandmother": "GRANDMOTHER",
    "grandpa": "GRANDFATHER",
    "grandfather": "GRANDFATHER",
    "grandad": "GRANDFATHER",
    "granddad": "GRANDFATHER",
    "granny": "GRANDMOTHER",
    "niece": "NIECE",
    "nephew": "NEPHEW",
    "roommate": "ROOMMATE",
    "flatmate": "ROOMMATE",
    "neighbor": "NEIGHBOR",
    "neighbour": "NEIGHBOR",
    "therapist": "THERAPIST",
    "doctor": "DOCTOR",
    "coach": "COACH",
    "mentor": "MENTOR",
    "fiance": "FIANCE",
    "fiancé": "FIANCE",
    "fiancée": "FIANCE",
    "dog": "PET",
    "cat": "PET",
    "kid": "CHILD",
    "child": "CHILD",
    "stepson": "SON",
    "stepdaughter": "DAUGHTER",
    "spouse": "SPOUSE",
    "puppy": "PET",
    "kitten": "PET",
    "parrot": "PET",
    "hamster": "PET",
    "rabbit": "PET",
    "bunny": "PET",
    "horse": "PET",
    "turtle": "PET",
    "client": "CLIENT",
    "teammate": "COLLEAGUE",
    "classmate": "CLASSMATE",
    "landlord": "LANDLORD",
    "stepmom": "MOTHER",
    "stepdad": "FATHER",
    "sister-in-law": "SISTER_IN_LAW",
    "brother-in-law": "BROTHER_IN_LAW",
    "mother-in-law": "MOTHER_IN_LAW",
    "father-in-law": "FATHER_IN_LAW",
}

# plural role words whose labels are not one singular's: "my parents" = mother and father
GROUPS: dict[str, tuple[str, ...]] = {
    "parents": ("MOTHER", "FATHER"),
    "kids": ("SON", "DAUGHTER"),
    "children": ("SON", "DAUGHTER"),
    "grandparents": ("GRANDMOTHER", "GRANDFATHER"),
    "siblings": ("SISTER", "BROTHER"),
    "pets": ("PET",),
}

# predicates that name the same relation from either side, beside HAS_<label> / <label>_OF
SYMMETRIC: dict[str, tuple[str, ...]] = {
    "WIFE": ("MARRIED_TO", "SPOUSE", "HAS_SPOUSE"),
    "HUSBAND": ("MARRIED_TO", "SPOUSE", "HAS_SPOUSE"),
    "PARTNER": ("PARTNER_OF", "DATING"),
    "FRIEND": ("FRIEND_OF", "FRIENDS_WITH"),
    "COLLEAGUE": ("COLLEAGUE_OF", "WORKS_WITH"),
    "ROOMMATE": ("LIVES_WITH",),
}


def has_predicate(label: str) -> str:
    """The predicate the person's entity holds towards the relative: ``HAS_SISTER``."""
    return f"HAS_{label}"


def of_predicate(label: str) -> str:
    """The predicate the relative holds towards the person: ``SISTER_OF``."""
    return f"{label}_OF"
