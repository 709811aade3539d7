"""Words the offline extractor's rules know: relationship roles, and what is never a name."""

from __future__ import annotations

from contracts.relations import ROLES  # the relation vocabulary graph-hydrator reads too

__all__ = ["FOUNDATION_ROLES", "LANGUAGES", "NAMED_BY_ROLE", "NOT_NAMES", "OCCUPATIONS", "ROLES"]

# Relationships that are the person's foundation (family, partners, friends): importance 2.
FOUNDATION_ROLES = frozenset(
    {
        "SISTER",
        "BROTHER",
        "MOTHER",
        "FATHER",
        "WIFE",
        "HUSBAND",
        "PARTNER",
        "BOYFRIEND",
        "GIRLFRIEND",
        "SON",
        "DAUGHTER",
        "CHILD",
        "SPOUSE",
        "FIANCE",
        "FRIEND",
        "GRANDMOTHER",
        "GRANDFATHER",
        "COUSIN",
        "AUNT",
        "UNCLE",
        "NIECE",
        "NEPHEW",
        "PET",
    }
)
# Roles people use as a name ("Mom lives in Seattle"): an entity may be named after them.
NAMED_BY_ROLE = {
    "mom": "Mom",
    "mum": "Mum",
    "mother": "Mom",
    "dad": "Dad",
    "father": "Dad",
    "grandma": "Grandma",
    "grandmother": "Grandma",
    "grandpa": "Grandpa",
    "grandfather": "Grandpa",
}
NOT_NAMES = frozenset(
    """i i'm i've i'll i'd my me we he she they it this that the a an and but
so then just also maybe yes no ok okay hi hey monday tuesday wednesday thursday friday saturday
sunday january february march april may june july august september october november december
today tomorrow tonight yesterday mom dad who whom whose what where when why how which
is are was were do does did can could would should will not never actually""".split()
)
# Occupations "I'm a …" names (one or two words may precede: "software engineer").
OCCUPATIONS = frozenset(
    """nurse teacher doctor engineer developer programmer designer lawyer
attorney accountant architect chef cook baker barista waiter waitress bartender pilot
firefighter paramedic pharmacist dentist surgeon physician therapist psychologist
psychiatrist counselor counsellor social\\ worker student researcher scientist professor
lecturer tutor librarian journalist writer author editor photographer artist painter musician
singer actor actress dancer filmmaker producer director manager consultant analyst
entrepreneur founder freelancer mechanic electrician plumber carpenter builder farmer
gardener driver trucker cashier clerk secretary receptionist salesperson realtor banker
trader economist marketer recruiter translator interpreter veterinarian vet midwife
caregiver nanny babysitter cleaner janitor soldier officer detective policeman policewoman
paralegal judge pastor priest rabbi imam coach trainer instructor athlete biologist chemist
physicist mathematician statistician technician administrator officer intern apprentice
housewife homemaker retiree pensioner""".replace("\\ ", "\x00").split()
)
OCCUPATIONS = frozenset(w.replace("\x00", " ") for w in OCCUPATIONS)
LANGUAGES = frozenset(
    """English Portuguese Spanish French German Italian Dutch Russian
Ukrainian Polish Czech Greek Turkish Arabic Hebrew Persian Farsi Hindi Urdu Bengali Punjabi
Tamil Chinese Mandarin Cantonese Japanese Korean Vietnamese Thai Indonesian Malay Tagalog
Swahili Swedish Norwegian Danish Finnish Icelandic Hungarian Romanian Bulgarian Serbian
Croatian Slovak Slovenian Catalan Basque Galician Irish Welsh Latin Esperanto""".split()
)
