"""Words the offline extractor's rules know: relationship roles, and what is never a name."""

from __future__ import annotations

ROLES = {
    "sister": "SISTER", "brother": "BROTHER", "mom": "MOTHER", "mum": "MOTHER",
    "mother": "MOTHER", "dad": "FATHER", "father": "FATHER", "wife": "WIFE",
    "husband": "HUSBAND", "partner": "PARTNER", "boyfriend": "BOYFRIEND",
    "girlfriend": "GIRLFRIEND", "son": "SON", "daughter": "DAUGHTER", "best friend": "FRIEND",
    "friend": "FRIEND", "boss": "BOSS", "manager": "MANAGER", "colleague": "COLLEAGUE",
    "coworker": "COLLEAGUE", "co-worker": "COLLEAGUE", "cofounder": "COFOUNDER",
    "co-founder": "COFOUNDER", "cousin": "COUSIN", "aunt": "AUNT", "uncle": "UNCLE",
    "grandma": "GRANDMOTHER", "grandmother": "GRANDMOTHER", "grandpa": "GRANDFATHER",
    "grandfather": "GRANDFATHER", "niece": "NIECE", "nephew": "NEPHEW", "roommate": "ROOMMATE",
    "flatmate": "ROOMMATE", "neighbor": "NEIGHBOR", "neighbour": "NEIGHBOR",
    "therapist": "THERAPIST", "doctor": "DOCTOR", "coach": "COACH", "mentor": "MENTOR",
    "fiance": "FIANCE", "fiancé": "FIANCE", "fiancée": "FIANCE", "dog": "PET", "cat": "PET",
}
# Roles people use as a name ("Mom lives in Seattle"): an entity may be named after them.
NAMED_BY_ROLE = {"mom": "Mom", "mum": "Mum", "mother": "Mom", "dad": "Dad", "father": "Dad",
                 "grandma": "Grandma", "grandmother": "Grandma", "grandpa": "Grandpa",
                 "grandfather": "Grandpa"}
NOT_NAMES = frozenset("""i i'm i've i'll i'd my me we he she they it this that the a an and but
so then just also maybe yes no ok okay hi hey monday tuesday wednesday thursday friday saturday
sunday january february march april may june july august september october november december
today tomorrow tonight yesterday mom dad""".split())
