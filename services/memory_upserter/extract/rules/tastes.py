"""Tastes said in the other shapes conversation uses: a favourite named after it ("Pizza is my
favorite food", "my fave band is Coldplay"), a kind of person ("I'm a big dog person", "more of
a cat person"), a craving ("I'm addicted to coffee", "I'm crazy about basketball", "a sucker
for romantic comedies", "I live for summer road trips", "Nothing beats a good book"), a liked
thing put first ("Reading is something I really enjoy"), hobbies listed ("One of my hobbies is
woodworking", "My hobbies include hiking and photography") and time spent ("I spend a lot of
time gardening", "I watch a lot of documentaries").

Every frame opens on the person ("I", "my") or closes on them ("something I enjoy"); a
pronoun or the other speaker ("I'm crazy about you", "your cooking is my favorite") writes
nothing. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _own, _whole
from services.memory_upserter.extract.rules.keeps import _like
from services.memory_upserter.extract.rules.registry import liked, rule

_FAVE = r"(?:fave|fav|favou?rite|all[- ]time\s+favou?rite)"
_NOT_THING = re.compile(r"(?i)^(?:you|your|it|this|that|these|those|him|her|them|what|how)\b")


def _fave(out: Emitter, kind: str, thing: str) -> None:
    thing, kind = " ".join(thing.split()).strip(" '\""), " ".join(kind.lower().split())
    if not thing or _NOT_THING.match(thing) or len(thing) > 60 or not out.is_user:
        return
    out.fact("FAVORITE", f"{out.who}'s favorite {kind} is {thing}", value=f"{kind}: {thing}",
             fact_type="preference", confidence=0.75)  # fmt: skip


@rule(
    "fave_is",
    r"(?i:\bmy\s+(?:fave|fav)\s+)(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?i:is|are)\s+"
    r"(?P<thing>[^,.;:!?]{2,60}?)" + _END,
)
def _fave_is(m: re.Match[str], out: Emitter) -> None:
    """ "My fave band is Coldplay"."""
    _fave(out, m["kind"], m["thing"])


@rule(
    "is_my_fave",
    rf"^\W*(?:(?i:and|but|so|yeah|oh|honestly)\W+)*(?P<thing>[A-Za-z][\w'-]*(?:\s+[\w'-]+){{0,3}}?)"
    rf"\s+(?i:is|are|has\s+always\s+been)\s+(?:(?i:definitely|still|probably|totally)\s+)?"
    rf"(?i:my\s+{_FAVE})\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)(?=\s*(?:[,.;:!?]|$)|{_END})",
)
def _is_my_fave(m: re.Match[str], out: Emitter) -> None:
    """ "Pizza is my favorite food" (never "Your cooking is my favorite thing")."""
    thing = m["thing"]
    if re.match(r"(?i)(?:thing|part|way|place|time|one|day|kind|type)\b", m["kind"]):
        return  # "X is my favorite thing/way to …": another rule's frame
    _fave(out, m["kind"], thing[:1].lower() + thing[1:] if thing.split()[0].islower() is False
          and len(thing.split()) == 1 else thing)  # fmt: skip


@rule(
    "kind_of_person",
    r"(?i:\bI(?:'m|\s+am)\s+(?:(?:more\s+of\s+)|(?:(?:such|definitely|totally|really)\s+)?)an?\s+"
    r"(?:(?:big|huge|total|real|massive)\s+)?)(?P<thing>[a-z]+(?:\s+and\s+[a-z]+)?)\s+person\b",
)
def _kind_of_person(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a big dog person", "I'm more of a cat person"."""
    thing = m["thing"].lower()
    if thing in ("people", "morning", "night", "good", "bad", "nice", "different", "private",
                 "shy", "social", "new", "better", "kind", "real", "whole", "grown"):  # fmt: skip
        return  # a trait, not a taste
    _like(out, {"dog": "dogs", "cat": "cats", "beach": "the beach"}.get(thing, thing))


@rule(
    "craving",
    r"(?i:\bI(?:'m|\s+am)\s+(?:(?:totally|so|really|just|kind\s+of|a\s+bit)\s+)*(?:addicted\s+to|"
    r"crazy\s+about|nuts\s+about|mad\s+about|a\s+(?:total\s+|huge\s+|big\s+)?sucker\s+for)|"
    r"\bI\s+(?:just\s+|really\s+)?live\s+for|^\W*nothing\s+(?:beats|makes\s+me\s+(?:happier|"
    r"smile\s+more)\s+than)|^\W*there(?:'s|\s+is)\s+nothing\s+(?:quite\s+)?like|\bI\s+(?:just\s+|"
    r"really\s+)?can(?:'|no)?t\s+get\s+enough\s+of|\bI(?:'ve|\s+have)\s+always\s+been\s+drawn\s+to)"
    r"\s+(?P<what>[^,.;:!?]{3,60}?)" + _END,
)
def _craving(m: re.Match[str], out: Emitter) -> None:
    """ "I'm addicted to coffee", "I live for summer road trips", "Nothing beats a good book",
    "There's nothing like a day at the beach", "I can't get enough of Korean food", "I've always
    been drawn to the ocean"."""
    what = liked(_whole(m["what"], object_=False))
    if what is not None and not _NOT_THING.match(what) and not out.clause_said:
        _like(out, _own(what))


@rule(
    "something_i_enjoy",
    r"^\W*(?:(?i:and|but|so|yeah|oh|honestly)\W+)*(?P<thing>[A-Za-z][a-z]+ing(?:\s+[a-z]+){0,2}|"
    r"[A-Z][a-z]+)\s+(?i:is|has\s+always\s+been)\s+(?i:something|one\s+thing)\s+(?i:I|that\s+I)\s+"
    r"(?:(?i:really|truly|always|genuinely)\s+)?(?i:enjoy|love|like|adore|live\s+for)\b",
)
def _something_i_enjoy(m: re.Match[str], out: Emitter) -> None:
    """ "Reading is something I really enjoy"."""
    thing = m["thing"].lower()
    if thing.split()[0] not in ("this", "that", "it", "everything", "nothing", "something"):
        _like(out, thing)


_ITEM = r"[a-z][a-z' -]{2,30}?"


@rule(
    "my_hobbies",
    rf"(?i:\b(?:one\s+of\s+my\s+(?:favou?rite\s+)?hobbies\s+is|my\s+(?:main\s+|favou?rite\s+)?"
    rf"hobbies\s+(?:include|are)|my\s+(?:main\s+|favou?rite\s+|big\s+)?hobby\s+is))\s+"
    rf"(?P<items>{_ITEM}(?:\s*,\s*{_ITEM})*(?:,?\s+and\s+{_ITEM})?)(?=\s*(?:[.;:!?]|$)|{_END})",
)
def _my_hobbies(m: re.Match[str], out: Emitter) -> None:
    """ "One of my hobbies is woodworking", "My hobbies include hiking and photography"."""
    items = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", m["items"].strip())
    wholes = [liked(_whole(i, object_=False)) for i in items]
    if all(w is not None and len(w.split()) <= 4 for w in wholes):
        for w in wholes:
            _like(out, _own(str(w)))


@rule(
    "time_spent",
    r"(?i:\bI\s+(?:also\s+|usually\s+|still\s+)?spend\s+(?:a\s+lot\s+of|so\s+much|lots\s+of|most\s+of\s+"
    r"my|all\s+my|much\s+of\s+my|my|most)\s+(?:free\s+|spare\s+)?(?:time|weekends|evenings|"
    r"mornings|summers|days)\s+)(?P<verb>[a-z]+ing)\s*(?P<what>[^,.;:!?]{0,60}?)" + _END,
)
def _time_spent(m: re.Match[str], out: Emitter) -> None:
    """ "I spend a lot of time gardening", "I spend most weekends hiking with my dog"."""
    verb = m["verb"].lower()
    what = _whole(m["what"], object_=False) if m["what"].strip() else ""
    if what is None or verb in ("thinking", "worrying", "feeling", "working", "doing", "being"):
        return
    doing = _own(f"{verb} {what}".strip())
    out.fact("DOES", f"{out.who} spends time {doing}", value=doing, fact_type="habit",
             confidence=0.7)  # fmt: skip


@rule(
    "a_lot_of",
    r"(?i:\bI\s+(?:also\s+|still\s+|usually\s+)?(?P<verb>watch|read|listen\s+to|play|cook|bake|"
    r"draw)\s+(?:a\s+lot|lots|tons|loads)\s+of)\s+(?P<what>[^,.;:!?]{3,50}?)" + _END,
)
def _a_lot_of(m: re.Match[str], out: Emitter) -> None:
    """ "I watch a lot of documentaries", "I listen to a lot of jazz"."""
    what = _whole(m["what"], object_=False)
    if what is None or _NOT_THING.match(what) or out.clause_said:
        return
    verb = " ".join(m["verb"].lower().split())
    does = {"watch": "watches", "listen to": "listens to"}.get(verb, verb + "s")
    out.fact("DOES", f"{out.who} {does} {what}", value=f"{verb} {what}", fact_type="habit",
             confidence=0.7)  # fmt: skip
