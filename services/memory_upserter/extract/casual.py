"""How people type, read as the rules read (pure): :func:`normalise` turns a chat message into
the written form the rule table expects, without changing what it says.

- Curly apostrophes become straight; emoji end a sentence (they usually do), a tick (✅) says
  "done"; chat fillers ("lol", "btw", "tbh") go.
- Lowercase pronoun and contraction forms are written out: "i", "im", "ive", "dont", "cant",
  "thats", "u", "gf", "bf".
- Names: the turn's known names (its Known people and the person's own names) are capitalised
  wherever they stand as words. In a message typed without capitals ("where it is safe"), a word
  that a name usually follows — "my sister …", "named …", "I work at …", "I live in …",
  "moved to …", a sentence's first word before "lives/works/got …" — is capitalised when it is
  not a common word (:data:`COMMON`). Text that has its own capitals keeps them: the person's
  casing is trusted over any guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from services.memory_upserter.extract.vocabulary import COMMON, ROLES, TITLES
from services.memory_upserter.text import EMOJI

_EMOJI = re.compile(EMOJI)
_FILLER = re.compile(r"(?i)(?:^|(?<=\s)|(?<=,))(?:lol+|lmao|haha\w*|btw|tbh|ngl|fyi|imo|rn)\b")
# Openers that announce what follows, not hedge or negate it.
_OPENER = re.compile(
    r"(?i)(?:^|(?<=[.!?]\s))\W*(?:guess\s+what|not\s+gonna\s+lie|no\s+joke|fun\s+fact|you\s+know\s+"
    r"what|(?:big|good|great|little|some)\s+(?:news|update))\b[\s?!:,.-]*"
)
_ARROW = re.compile(r"\s*(?:-+>|=+>|→|⇒|<-+|<3+|\s\|\s)\s*")  # a text arrow, a "<3", a bar
_ASIDE = re.compile(r"\s*\(([^()]*\w[^()]*)\)")
_HELLO = re.compile(r"(?i)^(\W*(?:hi|hello|hey|hiya)(?:\s+there)?)\s*!+\s+")
_FORMS = {
    "i": "I",
    "im": "I'm",
    "ive": "I've",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "thats": "that's",
    "whats": "what's",
    "youre": "you're",
    "u": "you",
    "r": "are",
    "gf": "girlfriend",
    "bf": "boyfriend",
    "bff": "best friend",
    "yrs": "years",
    "w": "with",
    "mums": "mum's",
    "moms": "mom's",
    # shorthands and common misspellings of the words the rules key on
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmw": "tomorrow",
    "tmrow": "tomorrow",
    "tomorow": "tomorrow",
    "tommorow": "tomorrow",
    "tommorrow": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "tonite": "tonight",
    "2nite": "tonight",
    "yday": "yesterday",
    "wknd": "weekend",
    "alergic": "allergic",
    "alergy": "allergy",
    "wrok": "work",
    "wokr": "work",
    "sistr": "sister",
    "sistah": "sister",
    "borther": "brother",
    "brotehr": "brother",
    "freind": "friend",
    "frend": "friend",
    "girlfreind": "girlfriend",
    "boyfreind": "boyfriend",
    "vegeterian": "vegetarian",
    "vegitarian": "vegetarian",
    "vegatarian": "vegetarian",
    "daugther": "daughter",
    "doughter": "daughter",
    "husbnad": "husband",
    "appt": "appointment",
    "appts": "appointments",
    "mtg": "meeting",
    "bday": "birthday",
    "cuz": "because",
    "coz": "because",
}
_FORM = re.compile(r"(?i)(?<![\w'])(?:" + "|".join(_FORMS) + r")(?![\w'])")
_ME_AND = re.compile(r"(?i)\bme\s+and\s+(my\s+[a-z]+)\s+(?=(?:live|moved|work|are\s+moving)\b)")
_KIN_SHORT = {"sis": "sister", "bro": "brother", "hubby": "husband", "wifey": "wife"}
_SHORT_KIN = re.compile(r"(?i)\bmy\s+(sis|bro|hubby|wifey)\b")
_I_CONTRACTED = re.compile(r"(?<![\w'])i(?='(?:m|ve|ll|d)\b)")
_ROLE_WORDS = "|".join(sorted((re.escape(r) for r in ROLES), key=len, reverse=True))
_ROLE_S_NAME = re.compile(rf"(?i)\bmy\s+({_ROLE_WORDS})s\s+name\b")
_WORD = r"[^\W\d_][\w'-]*"
_TITLED = re.compile(rf"(?<!\w)(?:{'|'.join(TITLES)})\.\s+(?P<name>{_WORD})")
# Words a name usually follows, when the person types in lowercase.
_NAME_AFTER = re.compile(
    rf"(?i)(?:\b(?:my|our)\s+(?:best\s+|older\s+|younger\s+|little\s+|big\s+)?(?:{_ROLE_WORDS})"
    rf"(?:'s\s+name\s+is|\s+is\s+called|\s+named|\s+called|,)?|\b(?:have|got)\s+an?\s+(?:older\s+|"
    rf"younger\s+|little\s+|big\s+)?(?:{_ROLE_WORDS})(?:\s+named|\s+called|,)?|\b(?:(?:named|called)\s+(?:him|her)|named|called|name\s+is|"
    rf"name's|call\s+me|go\s+by|"
    rf"(?:hi|hello|hey|hiya)(?:\s+there)?\W+(?:I'm|this\s+is|it's)|married\s+to|engaged\s+to|dating|broke\s+up\s+with|me\s+and|his\s+name\s+is|"
    rf"this\s+is|meet|no\s+longer\s+with|not\s+with|se\s+llama|s'appelle|namens|chamad[oa]|"
    rf"her\s+name\s+is)|\b(?:work(?:s|ing|ed)?\s+(?:at|for)|job\s+(?:at|with)|joined|left|"
    rf"quit(?:\s+my\s+job\s+at)?|started\s+(?:a\s+new\s+job\s+)?at|employed\s+(?:at|by)|"
    rf"I'm\s+at|intern(?:ing)?\s+at)(?:\s+the)?|\b(?:live[sd]?\s+in|living\s+in|based\s+in|"
    rf"moved\s+to|from|grew\s+up\s+in|staying\s+in|visiting|I'm\s+in|born\s+in|near|home\s+is\s+in|"
    rf"outside(?:\s+of)?|close\s+to|living\s+with\s+(?:my|our)\s+\w+\s+in))"
    rf"\s+(?P<name>{_WORD})(?=(?P<more>(?:\s+{_WORD}){{0,2}}))"
)
_OPENING = re.compile(
    rf"(?:^|(?<=[.!?,]\s))(?P<name>{_WORD})(?=\s+(?:lives|works|got|moved|is\s+(?:a|an|my|"
    rf"allergic|vegan|pregnant)|just|started|quit|left)\b)"
)
_LISTED = re.compile(
    rf"(?i)\b(?:cats|dogs|kittens|puppies|kids|children|sons|daughters|sisters|brothers)\s*[,:]\s+"
    rf"(?P<name>{_WORD})\s+and\s+(?P<name2>{_WORD})"
)
# A sentence that drops its "I" ("moved to austin", "got laid off today"), and "… and work at".
_BARE = re.compile(
    r"(?i)(?:^|(?<=[.!?]\s))(?:(?:just|finally|also|recently)\s+)?(?P<verb>moved\s+to|started\s+"
    r"(?:a\s+new\s+job|at|working)|work\s+(?:at|for|as)|got\s+(?:laid\s+off|fired|married|"
    r"engaged|divorced|a\s+(?:new\s+)?job)|"
    r"living\s+(?:in|with)|staying\s+in|starting\s+(?:at|a\s+new\s+job)|training\s+for|allergic\s+to|just\s+moved|lost\s+my\s+job|"
    r"got\s+promoted|been\s+(?:living|based|working)\s+(?:in|at|as|for)|grew\s+up\s+in|"
    r"born\s+and\s+raised\s+in|been\s+(?:a\s+)?(?:vegan|vegetarian|pescatarian|gluten[- ]free|"
    r"dairy[- ]free|sober)|(?:hurt|injured|broke|sprained|twisted|tore|pulled)\s+my|"
    r"live\s+with\s+my|moved\s+back\s+(?:home\s+)?to|got\s+an?\s+(?:new\s+)?(?:puppy|kitten|"
    r"dog|cat|pup))\b"
)
_AND_VERB = re.compile(
    r"(?i)\b(and|but)\s+(?=(?:work|live|moved)\s+(?:at|for|in|to)\b|grew\s+up\s+in\b)"
)
_BARE_SUBJECT = {
    "living": "I'm ",
    "staying": "I'm ",
    "training": "I'm ",
    "allergic": "I'm ",
    "starting": "I'm ",
    "been": "I've ",
    "born": "I was ",
}
# An object pronoun right after a word: the word is a verb ("my cat ignores me"), not a name.
_ITS_OBJECT = re.compile(r"(?i)\s+(?:me|him|us|them|everyone|everybody|everything)\b")
_PLACE_LEAD = frozenset("new san santa los las st saint rio sao são cape hong buenos el la".split())


def normalise(text: str, names: Iterable[str] = ()) -> str:
    """The message as the rules read it (module docstring); its meaning unchanged."""
    text = text.replace("’", "'").replace("‘", "'")
    text = re.sub("[\u2705\u2714\u2611]\ufe0f?", ". done. ", text)  # a tick: done
    text = _EMOJI.sub(". ", _ARROW.sub(". ", text))  # "moved to berlin -> loving it", "<3"
    text = re.sub(r"([.!?])\s*,\s*", r"\1 ", _FILLER.sub("", text))  # "…? BTW, I …": "…? I …"
    text = _ASIDE.sub(r", \1,", text)  # "i live in berlin (for now)": an aside, not the place
    text = _OPENER.sub("", text)  # "guess what, i got engaged": the news, not a guess
    text = _HELLO.sub(r"\1, ", text)  # "hey! im ana": the greeting stays with the name
    lowercase = not re.search(r"[A-ZÀ-Þ]", re.sub(r"\b[A-Z]{2,}\b", "", text))  # "AGAIN" shouts
    text = re.sub(r"(?i)(?<!\w)w/(?=\s)", "with", text)  # "w/ my gf" (before "w" is read)
    text = _FORM.sub(lambda m: _FORMS[m.group(0).lower()], text)
    text = _ME_AND.sub(r"\1 and I ", text)  # "me and my bf live in porto": my bf and I live …
    text = _I_CONTRACTED.sub("I", text)  # "i'm", "i've", "i'll", "i'd"
    text = _SHORT_KIN.sub(lambda m: f"my {_KIN_SHORT[m[1].lower()]}", text)  # "my sis": sister
    text = _BARE.sub(lambda m: _BARE_SUBJECT.get(m["verb"].split()[0].lower(), "I ") + m[0], text)
    text = _AND_VERB.sub(r"\1 I ", text)  # "from brazil but live in toronto now": but I live
    text = _ROLE_S_NAME.sub(lambda m: f"my {m.group(1)}'s name", text)
    for name in sorted({n for n in names if n.strip()}, key=len, reverse=True):
        text = re.sub(rf"(?i)(?<!\w){re.escape(name)}(?!\w)", name, text)
    if lowercase:  # "dr. patel": "Dr. Patel"
        text = _TITLED.sub(lambda m: m[0].title() if is_name(m["name"]) else m[0], text)
        found = [*_NAME_AFTER.finditer(text), *_OPENING.finditer(text), *_LISTED.finditer(text)]
        text = _capitalised(text, found)
    return re.sub(r"\s+([,.!?])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()


def _capitalised(text: str, matches: list[re.Match[str]]) -> str:
    """The text with the name words each match points at capitalised: up to three words that
    are not common ones ("new york", "cape town": a place's leading word too)."""
    chars = list(text)
    for m in matches:
        if m.groupdict().get("name2"):
            pos = m.start("name2")
            chars[pos] = chars[pos].upper() if is_name(m["name2"]) else chars[pos]
        words = (m["name"] + (m.groupdict().get("more") or "")).split()
        pos = m.start("name")
        for i, word in enumerate(words):
            lead = word.lower() in _PLACE_LEAD and i + 1 < len(words) and is_name(words[i + 1])
            if not (is_name(word) or lead):
                break
            pos = text.index(word, pos)
            if _ITS_OBJECT.match(text, pos + len(word)):
                break  # "my cat ignores me": a verb, its object after it
            chars[pos] = chars[pos].upper()
            pos += len(word)
    return "".join(chars)


def is_name(word: str) -> bool:
    """A word that may be a name typed in lowercase: not a common word, not verb-like."""
    bare = word.lower().removesuffix("'s")
    verbish = (len(bare) > 4 and bare.endswith(("ed", "ing"))) or (
        len(bare) > 5 and bare.endswith("ly")
    )
    return len(bare) >= 2 and bare.isalpha() and bare not in COMMON and not verbish


# A pasted exchange ("him: i live in paris. me: cool"): a speaker's label before a colon.
_LABEL = re.compile(r"(?i)(?:^|(?<=[\s.!?]))(me|him|her|he|she|they|them|mum|mom|dad|boss)\s*:\s+")


def own_turns(text: str) -> str:
    """In a pasted exchange with the person's own "me:" turns, only those turns; other text
    as it is."""
    labels = list(_LABEL.finditer(text))
    if not any(m[1].lower() == "me" for m in labels) or len(labels) < 2:
        return text
    ends = [m.start() for m in labels[1:]] + [len(text)]
    head = text[: labels[0].start()]
    turns = zip(labels, ends, strict=True)
    mine = [text[m.end() : end] for m, end in turns if m[1].lower() == "me"]
    return " ".join(t.strip() for t in (head, *mine) if t.strip())
