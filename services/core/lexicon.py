"""Words of other languages that personal facts are made of, as their English (pure data).

People switch languages mid-chat ("meine schwester ana heiratet im mai, in sevilla", "no soy
alérgica a todos los frutos secos, solo a los cacahuetes"). A model writes the fact in English
("Ana is getting married in May in Seville"); grounding compares English words. These tables
give the English of the person's German (de), Spanish (es), Italian (it), Portuguese (pt) and
French (fr) words so that a fair translation is grounded, and so that whose clause it is can
be read ("meine schwester …" is the sister's). :mod:`services.core.gloss` reads them.

Source: written by hand from general knowledge of the five languages (no download, no
dictionary file). Each table is ``english: "forms in de es it pt fr"``, accented as written;
the reader adds each form's folded spelling. Kept small on purpose: the words of home, work,
family, health, hobbies, pets, life events, liking and time.

- :data:`CONTENT`: words that are not English words, read the same in any sentence. Left out
  because they are common English words or mean something else there: "kind" (de child),
  "chef" (de boss), "chat" (fr cat), "cane" (it dog), "latte", "male", "tot" (de dead),
  "casa" (house, and es "marries"), "mann"/"frau"/"femme" (man/woman before wife),
  "due"/"sei"/"sept" (numbers), "tag" (de day), "camera" (it room), "patron", "scale", "stanza".
- :data:`FUNCTION`: each language's pronouns, possessives, articles and connectives, read only
  in a sentence of that language (:func:`services.core.gloss.language`): "mi" is es "my" but
  it "me", "im" de "in the" but typed English "I'm", "ma" it "but" and fr "my".
- :data:`FIRST_PERSON`: verbs said of oneself with no "I" ("vivo en valencia").
- :data:`OWN_KIN`: kin words that, bare ("mama bleibt bis sonntag"), mean the person's own.
- :data:`PLACES`: cities under their English name ("wien" → vienna, "sevilla" → seville).
"""

from __future__ import annotations

CONTENT = {
    # family and relations
    "sister": "schwester schwesterchen hermana hermanita sorella sorellina irmã sœur soeur",
    "brother": "bruder hermano hermanito fratello fratellino irmão frère",
    "mother": "mutter madre mãe mère",
    "father": "vater padre pai père",
    "parents": "eltern padres genitori",
    "son": "sohn hijo figlio filho fils",
    "daughter": "tochter hija figlia filha fille",
    "children": "kinder niños niñas hijos bambini figli filhos crianças enfants",
    "child": "niño niña bambino bambina criança enfant",
    "baby": "bébé bebé bebê neonato",
    "cousin": "cousine primo prima cugino cugina",
    "grandmother": "oma abuela nonna avó vovó mamie",
    "grandfather": "opa abuelo nonno avô vovô papy",
    "aunt": "tante tía zia tia",
    "uncle": "onkel tío zio tio oncle",
    "husband": "ehemann marido esposo marito mari",
    "wife": "ehefrau esposa moglie mujer",
    "boyfriend": "novio fidanzato namorado copain",
    "girlfriend": "novia fidanzata namorada copine",
    "friend": "freund freunde freundin freundinnen amigo amiga amigos amigas amico amica amici "
    "ami amie amis",
    "partner": "partnerin pareja compagno compagna parceiro parceira",
    "colleague": "kollege kollegin kollegen compañero compañera collega colleghi colega colegas "
    "collègue",
    "boss": "jefe jefa capo chefe",
    "family": "familie familia famiglia família famille",
    "neighbour": "nachbar nachbarin vecino vecina vicino vicina vizinho vizinha voisin voisine",
    "flatmate": "mitbewohner mitbewohnerin coinquilino coinquilina colocataire",
    # home and moving
    "flat apartment": "wohnung piso apartamento appartamento appartement",
    "house home": "haus zuhause hogar maison",
    "room": "zimmer habitación quarto chambre",
    "moving move moved": "umzug umziehen ziehe zieht umgezogen mudanza mudarse mudo mudé mudamos "
    "mudado trasloco traslocato trasferito mudança mudei déménagé déménagement emménagé",
    "lives live": "wohnt vive abita mora habite",
    "live lives": "wohnen vivir vivimos abitare morar habiter",
    "city": "stadt ciudad città cidade",
    "new": "neu neue neuen neuer neues nuevo nueva nuovo nuova novo nova nouveau nouvelle",
    "window": "fenster ventana finestra janela fenêtre",
    "windowsill window sill": "fensterbrett alféizar davanzale peitoril",
    "kitchen": "küche cocina cucina cozinha cuisine",
    "garden": "garten jardín giardino jardim jardin",
    "balcony": "balkon balcón balcone varanda",
    "stairs": "treppe escaleras escadas escaliers",
    "tiny small": "winzig klein kleine pequeño pequeña piccolo piccola pequeno pequena petit "
    "petite",
    # work and study
    "job work": "arbeit stelle trabajo curro lavoro emprego trabalho travail boulot",
    "works working": "arbeite arbeitet arbeiten trabaja trabajar lavora lavorare trabalha "
    "trabalhar travaille travailler",
    "company": "firma empresa azienda ditta entreprise société",
    "fired unemployed": "arbeitslos gekündigt despedido despedida licenziato licenziata "
    "demitido demitida licencié licenciée",
    "internship": "praktikum prácticas tirocinio estágio",
    "university": "universität universidad università universidade université",
    "school": "schule escuela colegio scuola escola école",
    "student": "studentin estudiante studente studentessa estudante étudiant étudiante",
    "teacher": "lehrer lehrerin profesor profesora insegnante maestra professora professeur",
    "doctor": "arzt ärztin médico médica medico dottore dottoressa médecin",
    "nurse": "krankenschwester enfermero enfermera infermiere infermiera enfermeiro enfermeira "
    "infirmier infirmière",
    "engineer": "ingenieur ingeniero ingeniera ingegnere engenheiro ingénieur",
    # health and diet
    "allergic allergy": "allergisch alérgico alérgica allergico allergica allergique allergie "
    "alergia allergia alergólogo alergóloga allergologo",
    "peanut peanuts": "erdnuss erdnüsse cacahuete cacahuetes maní arachidi arachide amendoim "
    "amendoins cacahuète cacahuètes",
    "nuts": "nüsse nuss nueces noci nozes noix",
    "walnuts": "walnüsse nueces noci nozes",
    "almonds": "mandeln almendras mandorle amêndoas amandes",
    "vegetarian": "vegetarier vegetarierin vegetariano vegetariana végétarien végétarienne",
    "vegan": "veganer veganerin vegano vegana végane",
    "sick ill": "krank enfermo enferma malato malata doente malade",
    "pregnant": "schwanger embarazada incinta grávida enceinte",
    "hospital": "krankenhaus ospedale hôpital",
    "pain": "schmerzen dolor dolore douleur",
    # hobbies and activities
    "climbing climb": "klettern klettere klettert escalar escalada escalo arrampicata "
    "arrampicare escalade grimper",
    "bouldering": "bouldern",
    "running run": "laufen laufe joggen correr corro correre corsa corrida courir",
    "swimming swim": "schwimmen schwimme nadar nado nuotare nuoto natação nager natation",
    "cycling bike": "radfahren fahrrad bicicleta bici bicicletta vélo",
    "hiking": "wandern wandere senderismo escursionismo caminhada randonnée",
    "cooking cook": "kochen koche cocinar cocino cucinare cucino cozinhar cozinho cuisiner",
    "reading read": "lesen lese leggere leggo lire",
    "painting paint": "malen pintar dipingere peindre",
    "singing sing": "singen singe cantar cantare chanter",
    "dancing dance": "tanzen tanze bailar bailo ballare dançar danser",
    "music": "musik música musica musique",
    "guitar": "gitarre guitarra chitarra guitare",
    "football soccer": "fußball fussball fútbol futbol calcio futebol",
    "gym": "fitnessstudio gimnasio palestra",
    "travel trip": "reisen reise viajar viaje viaggiare viaggio viagem voyager voyage",
    "hobby": "hobbys pasatiempo afición passatempo hobbie loisir",
    "twice": "zweimal",
    "all": "alle todos todas tutti tutte tous toutes",
    # numbers ("uno", "due", "sei", "sept", "otto" left out: English words or names)
    "two": "zwei dos dois duas deux",
    "three": "drei tres tre três trois",
    "four": "vier cuatro quattro quatro quatre",
    "five": "fünf cinco cinque cinq",
    "six": "sechs seis",
    "seven": "sieben siete sette",
    "eight": "acht ocho oito huit",
    "nine": "neun nueve nove neuf",
    "ten": "zehn diez dieci dez dix",
    "times": "veces volte vezes fois",
    "week": "woche wochen semana semanas settimana settimane semaine",
    "month": "monat monate meses mese mesi mês mois",
    "year years": "jahr jahre jahren año años anno anni anos",
    # pets
    "cat": "katze kater gato gata gatto gatta",
    "dog": "hund hündin perro perra cão cachorro chien chienne",
    "pet": "haustier mascota",
    "kitten": "kätzchen gatito gattino gatinho chaton",
    "puppy": "welpe cucciolo chiot",
    # life events
    "married marry wedding": "heiraten heiratet heirate heiratest geheiratet hochzeit "
    "verheiratet casarse casan casó casado casada boda sposarsi sposano sposato sposata "
    "matrimonio casamento casou mariage marié mariée marier épouser",
    "engaged fiance": "verlobt prometido prometida comprometido comprometida noivo noiva",
    "divorced": "scheidung geschieden divorcio divorciado divorciada divorziato divorziata "
    "divórcio divorcé divorcée",
    "separated broke up": "getrennt separados separadas separati lasciati terminamos",
    "born": "geboren nació nacido nacida nato nata nasceu",
    "died deceased dead": "gestorben verstorben starb murió muerto muerta fallecido falleció "
    "morto morta morreu faleceu décédé décédée",
    "funeral": "beerdigung funerale enterrement",
    # liking
    "love loves": "liebe liebt lieben liebst amo encanta encantan adoro adora adoran amano "
    "adore adorent",
    "like likes": "mag magst gefällt gusta gustan piace piacciono gosto gosta aime aimes aiment",
    "hate hates": "hasse hasst hassen odio odia odiare detesto déteste",
    "favourite favorite": "lieblings favorito favorita preferido preferida preferito preferita "
    "préféré préférée",
    # time words the calendar tables leave out (:mod:`services.core.calendar_words`)
    "today": "heute hoy oggi hoje aujourd",
    "tomorrow": "mañana domani amanhã demain",
    "yesterday": "gestern ayer ieri ontem",
    "next": "nächste nächsten nächster próxima próximo prossima prossimo prochaine prochain",
    "last": "letzte letzten pasada pasado scorsa scorso passada passado dernière dernier",
    "weekend": "wochenende",
    "until": "hasta jusqu",
    "since": "seit desde depuis",
    # common verbs of the person's state
    "stays staying": "bleibt bleibe bleiben quedo queda rimane rimango fico fica reste",
    "helps helping": "hilft helfe ayuda aiuta ajuda aide",
    "unpacking unpack": "auspacken desempacar disimballare",
    "officially": "offiziell oficialmente ufficialmente",
    "called": "llama chiama heißt heisst chamada chamado appelle",
    "name": "nome nombre",
    "goes go": "gehe geht voy vado vou vais",
    "already": "schon già déjà",
    "only": "nur solo apenas seulement",
}

# A verb said of oneself without "I" (es, it, pt drop it): "vivo en valencia" is "I live in
# valencia". Read before :data:`CONTENT` in a sentence of another language.
FIRST_PERSON = {
    "i live": "vivo moro abito wohne",
    "i work": "trabajo lavoro trabalho arbeite travaille",
    "my name is": "llamo chiamo chamo heiße heisse",
    "i have": "tengo tenho",
    "i am": "soy estoy sou estou",
}

# Read only in a sentence of that language (module docstring).
FUNCTION = {
    "de": {
        "i": "ich", "me": "mich mir", "my": "mein meine meinen meinem meiner meines",
        "we": "wir", "us": "uns", "our": "unser unsere unseren", "he": "er", "she": "sie",
        "it": "es", "is": "ist", "am": "bin", "are": "sind bist", "and": "und", "but": "aber",
        "because": "weil denn", "not": "nicht", "no": "kein keine", "in the": "im",
        "the": "der die das den dem des", "a": "ein eine einen einem einer", "with": "mit",
        "at the": "beim", "at": "bei", "on the": "am", "until": "bis", "to the": "zum zur",
        "from the": "vom", "of": "von", "for": "für", "maybe": "vielleicht", "think": "glaube",
        "want": "will möchte", "have": "habe hab", "has": "hat", "now": "jetzt", "may": "mai",
        "to": "gegen",
    },
    "es": {
        "i": "yo", "my": "mi mis", "mine": "mío mía", "we": "nosotros nosotras",
        "our": "nuestro nuestra nuestros", "the": "el la los las", "she": "ella",
        "they": "ellos ellas", "his": "su sus suyo suya", "is": "es está", "i am": "soy estoy",
        "are": "son están", "and": "y", "but": "pero", "because": "porque", "not": "no",
        "that": "que", "of": "de", "of the": "del", "a": "un una", "to": "a", "in": "en",
        "with": "con", "without": "sin", "for": "para por", "already": "ya", "went": "fue",
        "i have": "tengo", "has": "tiene", "i want": "quiero", "i think": "creo", "as": "como",
        "maybe": "quizás quizá", "april": "abril", "": "se",
    },
    "it": {
        "i": "io", "me": "mi", "my": "mio mia miei mie", "we": "noi", "our": "nostro nostra",
        "the": "il lo la i gli le", "he": "lui", "she": "lei", "they": "loro", "his": "suo sua",
        "am": "sono", "is": "è", "and": "e", "but": "ma", "because": "perché perche",
        "not": "non", "that": "che", "of": "di", "of the": "del della", "a": "un una uno",
        "with": "con", "for": "per", "until": "fino", "i have": "ho", "has": "ha",
        "i want": "voglio", "i think": "penso credo", "maybe": "forse", "never": "mai", "": "si",
    },
    "pt": {
        "i": "eu", "me": "me", "my": "meu minha meus minhas", "we": "nós", "our": "nosso nossa",
        "the": "o a os as", "he": "ele", "she": "ela", "they": "eles elas", "his": "seu sua",
        "i am": "sou estou", "is": "é está", "and": "e", "but": "mas", "because": "porque",
        "not": "não", "that": "que", "of": "de", "of the": "do da", "a": "um uma", "in": "em",
        "in the": "no na", "with": "com", "for": "para", "until": "até", "i have": "tenho",
        "i want": "quero", "i think": "acho", "maybe": "talvez", "": "se",
    },
    "fr": {
        "i": "je j", "me": "moi", "my": "mon ma mes", "we": "nous", "our": "notre nos",
        "the": "le la les l", "he": "il", "she": "elle", "they": "ils elles",
        "his": "son sa ses", "am": "suis", "is": "est", "are": "sont", "and": "et",
        "but": "mais", "because": "parce car", "not": "ne pas", "that": "que qu", "of": "de d",
        "of the": "du des", "a": "un une", "in": "dans en", "with": "avec", "for": "pour",
        "have": "ai", "i think": "pense crois", "maybe": "peut-être", "may": "mai", "who": "qui",
    },
}  # fmt: skip

# Bare, a kin word of the person's own: "mama bleibt bis sonntag" is the person's mother.
OWN_KIN = {
    "mom": "mama mamá mamma mami mutti maman",
    "dad": "papa papá papà papi vati",
    "grandma": "oma nonna abuela avó vovó mamie",
    "grandpa": "opa nonno abuelo avô vovô papy",
}

PLACES = {
    "vienna": "wien", "munich": "münchen", "cologne": "köln", "zurich": "zürich",
    "geneva": "genf genève", "seville": "sevilla", "lisbon": "lisboa", "rome": "roma",
    "milan": "milano", "naples": "napoli", "florence": "firenze", "venice": "venezia",
    "turin": "torino", "prague": "praha prag", "warsaw": "warszawa warschau",
    "brussels": "bruxelles brüssel", "london": "londres", "berlin": "berlim",
}  # fmt: skip
