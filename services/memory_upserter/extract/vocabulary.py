"""Words the offline extractor's rules know: relationship roles, and what is never a name."""

from __future__ import annotations

from contracts.relations import ROLES  # the relation vocabulary graph-hydrator reads too

__all__ = [
    "CHAT_WORDS",
    "FOUNDATION_ROLES",
    "LANGUAGES",
    "NAMED_BY_ROLE",
    "NOT_NAMES",
    "OCCUPATIONS",
    "ROLES",
    "TITLE",
    "TITLES",
]

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
    "grandad": "Grandpa",
    "granddad": "Grandpa",
    "granny": "Grandma",
}
# A title before a name ("Mrs. Lee", "Dr. Patel"): its dot ends no sentence; the name keeps it.
TITLES = ("mrs", "mr", "ms", "mx", "dr", "prof", "rev", "st", "mt")  # "St. Mary's"
TITLE = rf"(?:{'|'.join(t[0].upper() + t[1:] for t in TITLES)})\."
NOT_NAMES = frozenset(
    """i i'm i've i'll i'd my me we he she they it this that the a an and but
so then just also maybe yes no ok okay hi hey monday tuesday wednesday thursday friday saturday
sunday january february march april may june july august september october november december
today tomorrow tonight yesterday mom dad who whom whose what where when why how which
is are was were do does did can could would should will not never actually since after before
because while though although once until if as yeah oh wow well thanks""".split()
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
housewife homemaker retiree pensioner screenwriter filmmaker politician youtuber streamer
choreographer""".replace("\\ ", "\x00").split()
)
OCCUPATIONS = frozenset(w.replace("\x00", " ") for w in OCCUPATIONS)
LANGUAGES = frozenset(
    """English Portuguese Spanish French German Italian Dutch Russian
Ukrainian Polish Czech Greek Turkish Arabic Hebrew Persian Farsi Hindi Urdu Bengali Punjabi
Tamil Chinese Mandarin Cantonese Japanese Korean Vietnamese Thai Indonesian Malay Tagalog
Swahili Swedish Norwegian Danish Finnish Icelandic Hungarian Romanian Bulgarian Serbian
Croatian Slovak Slovenian Catalan Basque Galician Irish Welsh Latin Esperanto""".split()
)
# Common lowercase words that are never taken for a name when a person types without capitals
# (:mod:`..casual`): function words, chat words, and the nouns and verbs that follow "my
# sister …", "I work at …" or "I live in …" in everyday talk.
COMMON = frozenset(
    """a an the my your his her our their its this that these those some any no none one two three
four five six seven eight nine ten i me you he she it we they us them him myself is am are was
were be been being have has had having do does did doing will would can could should shall may
might must not and or but so if then than because since as at by for from in into of off on
onto out over to up down with without about after before again also still already now today
tonight tomorrow yesterday here there where when why how what who which just really very too
quite pretty so such much many more most less least all both each few other another same own
only even ever never always often sometimes usually maybe yes yeah yep nope no ok okay sure well
oh hey hi hello thanks thank please pls plz lol haha hmm ugh wow omg home work school job office
gym bed town city downtown uptown uni university college hospital church shop store cafe
restaurant bar park beach trouble love pain bad good great new old big small little first last
next every week month year day night morning evening afternoon weekend monday tuesday wednesday
thursday friday saturday sunday january february march april may june july august september
october november december tired happy sad sick busy fine late early lives live living lived
works work working worked got get gets getting moved move moving is just started start quit
left leave leaving said says say told tells think thinks thought loves love loved likes like
liked hates hate wants want needs need goes go going went came come comes coming has had makes
made keeps kept calls called named visiting visit staying stay back away there together alone
same kind sort lot bit place area part side family friends friend people guy guys girl boy kids
kid baby man woman someone somebody everyone everybody anyone nobody nothing something everything
anything stuff thing things way time times life world country state street road house apartment
flat room car team company startup business firm agency studio lab bank store factory farm
night shift shifts hours wife husband partner sister brother mom mum dad mother father son
daughter dog cat pet puppy kitten boss colleague coworker friend roommate cousin aunt uncle
grandma grandpa doctor teacher nurse fiance which whose whom while though although until till
during via per mine yours hers ours theirs im ive dont cant didnt doesnt isnt wasnt thats whats
abroad overseas far near nearby close around outside inside across along today's tonight's
mostly only part-time full-time parttime fulltime remote remotely online freelance contract
asleep awake engaged married single divorced pregnant vegan vegetarian allergic there's here's
it's he's she's we're they're i'm i've i'll i'd you're broke split up off
originally died passed lost won ran met saw found turned gave texted sent wrote cooked baked
opened closed fell hurt cried laughed bought took told came went cooks runs plays teaches
walks talks drives lost finally recently currently basically honestly literally
right wrong eh huh innit tho anyways anyway used uses using
threw ate drank slept woke bit hid stole sat stood swam sang caught brought thought taught
fought drove rode spoke chose froze shook forgot hit kept lent lay led paid put read sent set
shut spent stuck tore wore wept sees eats sleeps bites barks meows purrs poops pees throws
chews scratches sits hides hates wants gets does says takes kinda sorta refuses snores
insists complains cries yells screams laughs smiles works lives goes comes believes dances
drinks flies hopes knows reads reckons sings smokes swears texts tries vapes wishes writes
sleeps eats buys sends bakes watches thinks needs asks tells shows sounds seems looks feels
misses fixes helps became becomes celebrates learns moves starts studies turns passes
visits picks stays finishes gives arrives wakes waits leaves returns calls drops brings""".split()
)
# Chat words and adverbs a statement may end on ("i live in porto atm", "… actually"): never part
# of a name or a place.
CHAT_WORDS = frozenset(
    """atm haha hehe xd omg ugh yay yep nope idk ikr smh fr ngl imo lowkey highkey either neither
yet soon lately forever ofc again tbh lmao lmfao rofl now rn too tho though anyway anyways
already full-time part-time fulltime parttime sadly badly obvs obv tbf btw lol lmk imho irl
af asf fyi bc cuz coz pls plz thx nvm jk idc istg deffo probs srsly legit ig fwiw ya yeah
yea""".split()
)
COMMON = COMMON | CHAT_WORDS
