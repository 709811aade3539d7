"""A clause whose subject the person dropped, as chat does ("Got a new job at a marketing firm",
"Moved to Denver last spring", "Just joined a hiking club", "Started my own bakery", "Love
hiking with my dog"): the subject is the person, so the clause is read again with "I" put back,
by every other fact rule, with the same guards the judge gives any clause (a hedge before the
match, a past of the person's life: :func:`.tone.then_spans`).

Only a clause that opens on a verb of a closed list — a change of state or a habit said in the
first person, in the past (:data:`_OPENERS`) — after at most a few chat words ("yeah", "just",
"finally"). A present verb is left out: a dropped subject and an imperative look alike ("Enjoy
the weekend!", "Love the pic!", "Have fun"). "Got it" and "Started to rain" write nothing because
the rules read them as they would "I got it". Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract import assertion, tone
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import rule

_OPENERS = (
    r"got|started|began|finished|joined|moved|adopted|bought|quit|left|lost|landed|graduated|"
    r"retired|opened|launched|signed\s+up|enrolled|switched|took\s+up|picked\s+up|"
    r"got\s+engaged|got\s+married|got\s+promoted|started\s+working"
)
_LONGEST = 300
_SELF = re.compile(r"(?i)^(?:I|I'm|I've|I'd|we|we're|my|our|me)\b")


@rule(
    "dropped_subject",
    rf"^\W*(?P<chat>(?:(?i:yeah|yep|yes|oh|so|and|but|well|also|anyway|btw|haha|lol|plus)\W+)*)"
    rf"(?P<rest>(?:(?i:just|finally|recently|also|still|actually|officially)\s+)*"
    rf"(?i:{_OPENERS})\b.*)",
)
def _dropped_subject(m: re.Match[str], out: Emitter) -> None:
    """Read "Got a new job at a marketing firm" as "I got a new job at a marketing firm"."""
    if out.clause_said or not out.is_user:
        return
    rest = m["rest"][:_LONGEST]  # the statement is its clause's opening: the re-read is bounded
    text = f"I {rest[:1].lower()}{rest[1:]}"
    _read_again(text, out)


def _read_again(text: str, out: Emitter) -> None:
    from services.memory_upserter.extract.rules import FACT_RULES  # the table holds this module

    hedges, then = assertion.Hedges(text), tone.then_spans(text)
    for r in FACT_RULES:
        if r.name == "dropped_subject" or r.module.endswith(".did"):
            continue  # a one-off event ("Bought a new couch") belongs to the episode
        for match in r.pattern.finditer(text):
            if hedges.before(match.start(), about_self=bool(_SELF.match(match.group(0)))):
                continue
            before = set(out.facts)
            r.apply(match, out)
            if any(a <= match.start() < b for a, b in then):
                for key in out.facts.keys() - before:
                    if out.facts[key].fact_type != "relationship":
                        del out.facts[key]
