"""How a short answer and the question it answers become the person's sentence (pure; the
builders of :mod:`.asking`'s shapes). Each builder takes the question's match, whether the answer
said yes, and what it names beyond the yes; it returns the sentence, or None when the answer
does not fit the question (a clause where a value is asked, a pronoun, the asker's things).
"""

from __future__ import annotations

import re

from services.memory_upserter.extract.casual import is_name

_ASKER = re.compile(r"(?i)\b(?:I|me|my|mine|myself|we|us|our|ours)\b")
_PRONOUN = re.compile(r"(?i)^(?:it|that|this|them|those|these|there|one|so|any)\b")
_ADVERBS = re.compile(r"(?i)^(?:mostly|mainly|mostly\s+just|just|originally|currently|actually)\s+")
_NOT_VALUE = re.compile(
    r"(?i)^(?:why|what|who|how|when|you|your|he|she|they|it|that|this|here|there|home|nowhere|"
    r"everywhere|around|somewhere|anywhere|nothing|everything|same|me\s+too)\b"
)
_TIME_AMOUNT = (
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"\d+|a\s+few|a\s+couple(?:\s+of)?|several|many)\s+(?:years?|months?|weeks?|decades?)"
)
_DURATION = re.compile(
    rf"(?i)^(?:like|about|around|almost|nearly|over|roughly|just|oh|maybe)?\s*(?:(?P<since>(?:ever\s+)?"
    rf"since\s+.+?)|(?:for\s+)?(?P<amount>{_TIME_AMOUNT}))(?:\s+(?:now|already|so\s+far|or\s+so|"
    rf"ish|give\s+or\s+take|at\s+least))*$"
)
_CLAUSE = re.compile(
    r"(?i)\b(?:is|are|was|were|am|has|have|had|does|did|will|would)\b|'s\s+(?:\w+\s+)?"
    r"(?:my|a|the|so|really|all|just|been|got)\b|'(?:re|ve|ll|d)\b"
)
_EVER = re.compile(r"(?i)^(?:ever\s+)?since")
_ABOUT = re.compile(r"(?i)\s+(?:or\s+so|ish)$")
_OFTEN = re.compile(
    r"(?i)^(?:every|each|once|twice|\w+\s+times|daily|weekly|most\s+days|on\s+weekends|"
    r"a\s+lot|regularly|often|sometimes|whenever)\b"
)
BEING = (
    r"married|engaged|single|divorced|pregnant|expecting|vegetarian|vegan|pescatarian|retired|"
    r"allergic\s+to\s+.+|a\s+fan\s+of\s+.+|into\s+.+|an?\s+(?!bit\b|little\b|fan\b)\w+(?:\s+\w+)?|"
    r"(?:working|living|studying|based)\s+(?:at|in|for|as)\s+.+|from\s+.+"
)
HAVE = (
    r"pets?|animals?|dogs?|cats?|pupp(?:y|ies)|kittens?|fish|birds?|rabbits?|bunn(?:y|ies)|"
    r"hamsters?|kids?|children|child|sons?|daughters?|siblings?|brothers?|sisters?|"
    r"(?:a\s+)?(?:partner|boyfriend|girlfriend|husband|wife)"
)
ACTS = (
    r"play|speak|do|practi[cs]e|run|swim|cook|bake|paint|draw|write|sing|dance|knit|surf|ski|"
    r"skate|climb|hike|cycle|bike|garden|volunteer|meditate|collect|work\s+out|go\s+\w+ing"
)
KIN = (
    r"mom|mum|mother|dad|father|sister|brother|son|daughter|wife|husband|partner|boyfriend|"
    r"girlfriend|dog|cat|puppy|kitten|pet|bird|rabbit|hamster|best\s+friend|friend|cousin|"
    r"grandma|grandpa|baby|kid|niece|nephew|aunt|uncle"
)
_JOBLIKE = re.compile(r"(?i)(?:er|or|ist|ant|ent|ian|nurse|chef|cook|vet|dev|medic|pilot|clerk)$")
_NUMBER = re.compile(
    r"(?i)^(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\b(?:\s+(?P<rest>\w+))?$"
)


def _chunk(rest: str) -> str:
    """The value an answer names: its first comma or dash chunk, adverbs aside."""
    value = re.split(r"\s*[,;(]\s*|\s+[-–—]\s+|\s+but\s+", rest)[0]
    return _ADVERBS.sub("", value).strip(" .!")


def _proper(value: str) -> str:
    """A place or a name typed in lowercase, capitalised ("zalando" → "Zalando")."""
    if value != value.lower():
        return value
    return " ".join(
        w.capitalize() if is_name(w) or i == 0 else w for i, w in enumerate(value.split())
    )


def _mine(words: str) -> str | None:
    """The question's words as the person says them ("your dog" → "my dog"); None for the
    asker's things."""
    if _ASKER.search(words) or _PRONOUN.match(words):
        return None
    return re.sub(r"(?i)\byour\b", "my", re.sub(r"(?i)\byourself\b", "myself", words))


def _value(rest: str) -> str | None:
    """What the answer names, when it is a value (not a clause: "Guitar's mostly my thing")."""
    value = _chunk(rest)
    if not value or _NOT_VALUE.match(value) or _CLAUSE.search(value):
        return None
    return value if len(value.split()) <= 8 else None


def how_long(m: re.Match[str], yes: bool, rest: str) -> str | None:
    vp = _mine(m["vp"])
    time = _DURATION.match(_chunk(rest))
    if (
        vp is None
        or time is None
        or re.match(
            r"(?i)been\s+(?:here|there|up|on|at|away|out|sick|feeling|stuck|awake|gone|online|busy)",
            vp,
        )
    ):
        return None
    since = time["since"]
    when = _EVER.sub("since", since) if since else f"for {time['amount'].lower()}"
    return f"I've {vp} {_ABOUT.sub('', when)}."


def how_long_doing(m: re.Match[str], yes: bool, rest: str) -> str | None:
    """ "how long have you been painting?": an activity, never waiting or sitting."""
    if re.fullmatch(
        r"(?i)been\s+(?:waiting|sitting|standing|driving|walking|looking|trying|thinking|doing\s+\w+|feeling\s+\w+|dealing\s+\w+)",
        m["vp"],
    ):
        return None
    return how_long(m, yes, rest) if m["vp"].lower() != "been" else None


def have(m: re.Match[str], yes: bool, rest: str) -> str | None:
    x = m["x"]
    if re.match(r"(?i)(?:food\s+)?allerg", x):
        value = _value(rest)
        return f"I'm allergic to {value}." if value else None
    if rest:
        value = rest if not _NOT_VALUE.match(rest) else None
        return f"I have {_ADVERBS.sub('', value)}." if value else None
    plural = x.endswith("s") or x in ("children", "fish")
    return f"I have {x}." if yes and not plural else None


def like(m: re.Match[str], yes: bool, rest: str) -> str | None:
    x = _mine(m["x"])
    return f"I like {x}." if x and yes and not rest else None


def act(m: re.Match[str], yes: bool, rest: str) -> str | None:
    verb, x = m["verb"], m["x"] or ""
    generic = re.match(r"(?i)(?:any|an?|some)\s", x)
    if rest and _OFTEN.match(rest) and not generic:
        return f"I {verb} {x} {rest}.".replace("  ", " ") if _mine(x or "ok") else None
    if rest and generic:
        value = _value(rest)
        return f"I {verb} {value}." if value else None
    if yes and x and not rest and not generic:
        return f"I {verb} {x}." if _mine(x) else None
    return None


def being(m: re.Match[str], yes: bool, rest: str) -> str | None:
    x = _mine(m["x"])
    if not yes or x is None:
        return None
    since = _DURATION.match(rest.strip(" .!")) if rest else None
    tail = " " + _EVER.sub("since", since["since"]) if since and since["since"] else ""
    return f"I'm {x}{tail}." if not rest or since else f"I'm {x}."


_WHERE = {
    "live": "I live in",
    "live2": "I live in",
    "work": "I work at",
    "grew": "I grew up in",
    "born": "I was born in",
    "origin": "I'm from",
}


def where(m: re.Match[str], yes: bool, rest: str) -> str | None:
    value = _value(rest)
    if value is None:
        return None
    value = re.sub(r"(?i)^(?:still|now|currently|actually|mostly|just|right\s+now)\s+", "", value)
    prep = re.match(r"(?i)(in|at|near|outside|around|from|for)\s+", value)
    if prep is not None:
        value = value[prep.end() :]
    return f"{_WHERE[m.lastgroup or 'live']} {_proper(value)}."


def job(m: re.Match[str], yes: bool, rest: str) -> str | None:
    value = _value(rest)
    if value is None:
        return None
    if m.groupdict().get("field"):
        return f"I work in {value}."
    bare = re.sub(r"(?i)^an?\s+", "", value)
    if not _JOBLIKE.search(bare.split()[-1]):
        return f"I work in {value}." if len(bare.split()) <= 3 else None
    return f"I'm {'an' if bare[:1].lower() in 'aeiou' else 'a'} {bare}."


def fun(m: re.Match[str], yes: bool, rest: str) -> str | None:
    value = _value(re.sub(r"(?i)\bmostly\b", "", rest))
    return f"I enjoy {value}." if value else None


def favourite(m: re.Match[str], yes: bool, rest: str) -> str | None:
    x, value = _mine(m["x"]), _value(rest)
    return f"My favorite {x} is {value}." if x and value else None


def kind_of(m: re.Match[str], yes: bool, rest: str) -> str | None:
    x, value = _mine(m["x"]), _value(re.sub(r"(?i)\bmostly\b", "", rest))
    return f"I like {value}." if x and value else None


def name(m: re.Match[str], yes: bool, rest: str) -> str | None:
    value = re.sub(r"(?i)^(?:I'm|im|i am|it's|its|call\s+me|my\s+name\s+is|name's)\s+", "", rest)
    value = re.sub(r"(?i)(?:\s+(?:is\s+fine|works|please|here|is\s+good))+$", "", _chunk(value))
    words = value.split()
    if not 1 <= len(words) <= 3 or not all(w.isalpha() and is_name(w) for w in words):
        return None
    return f"My name is {' '.join(w.capitalize() for w in words)}."


def their_name(m: re.Match[str], yes: bool, rest: str) -> str | None:
    role = m["role"] or m.groupdict().get("role2") or ""
    names = [n.strip(" .!") for n in re.split(r"\s*(?:,|\band\b|&)\s*", _chunk(rest) or rest)]
    if not names or not all(n and n.isalpha() and is_name(n) for n in names):
        return None
    return " ".join(f"{n.capitalize()} is my {role}." for n in names)


def age(m: re.Match[str], yes: bool, rest: str) -> str | None:
    found = re.fullmatch(r"(\d{1,3})(?:\s*(?:years?\s*old|yo|y/o|yrs?))?", rest.strip(" .!"))
    return f"I'm {found[1]} years old." if found else None


def how_many(m: re.Match[str], yes: bool, rest: str) -> str | None:
    found = _NUMBER.match(rest.strip(" .!"))
    if found is None:
        return None
    return f"I have {rest.strip(' .!')}." if found["rest"] else f"I have {found[1]} {m['x']}."


def making(m: re.Match[str], yes: bool, rest: str) -> str | None:
    value = _value(rest)
    return f"I'm {m['verb']} {value}." if value else None


def presumed(m: re.Match[str], yes: bool, rest: str) -> str | None:
    """ "What got you into pottery?" → "I'm into pottery"; "what do you love most about camping
    with your fam?" → "I love camping with my fam" — said by any answer that does not deny it;
    never about a one-off ("the trip") or a pronoun ("it", "this biz")."""
    groups = m.groupdict()
    loved = groups.get("love") or groups.get("love2")
    x = _mine(loved or groups.get("x") or groups.get("x2") or "")
    if not x or len(x.split()) > 6 or re.match(r"(?i)(?:the|a|an|some|being|having)\b", x):
        return None
    if not loved and _VENTURE.search(x):  # "what inspired you to start your business?"
        return f"I started {x}." if re.search(r"(?i)\b(?:start|begin)\b", m.string) else None
    return f"I love {x}." if loved else f"I'm into {x}."


_VENTURE = re.compile(
    r"(?i)\b(?:business|biz|company|store|shop|studio|startup|bakery|restaurant|cafe|brand|"
    r"channel|blog|podcast|charity|foundation|nonprofit|job|career)\b"
)
