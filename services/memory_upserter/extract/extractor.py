"""The offline shadow judge (001): a memory-write plan from the user's own words, by rule.

Deterministic and pure (``now`` passed in). It reads only user messages, and writes only what
they assert (:mod:`.assertion`): questions, conditionals, hypotheticals, wishes, negations,
disputed claims and quoted text write no fact; "no longer …" / "… anymore" ends the fact it
names (``valid_to`` = the turn). Time phrases date a fact and leave its value
(:mod:`.temporal`); in a correction a plain negation ends what it names ("that's wrong, I'm
not allergic to shellfish"), and "only" ("I'm only allergic to peanuts") ends the kind's other
facts by words in ``ends`` ("ALLERGY except peanuts"). What it recognises — name, age, job,
employer, home, birthplace, languages, family and friends, pets, diet and allergies, likes,
projects, todos and a completion signal — is the rule table of :mod:`.rules.registry` (its
order set in :mod:`.rules`). Psyche and affect are never extracted.

Speakers: a message whose speaker is the user (no speaker, or one of ``self_names``) speaks for
"user"; any other speaker (an import such as LoCoMo commits both sides as user messages with the
speaker's name) speaks for an entity of that name, so "Caroline: I live in Boston" is a fact
about Caroline. Context messages (earlier in the session) only resolve "she"/"he".

Same-name people: ``known`` lists the user's people whose name the turn uses. A relationship
that tells a new person apart from the known ones ("my colleague Marta" when the known Marta
is a sister, "a different Marta") declares a new entity ``distinct_from`` the known one, with a
distinguishing alias ("work Marta"); a todo that names a person two known entities answer to
links nobody and leaves a question in :attr:`Extracted.questions`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from contracts.plan import MemoryWritePlan, PlanFact
from services.memory_upserter.extract import (
    agreeing,
    answered,
    assertion,
    casual,
    instead,
    rules,
    tone,
)
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.people import Known, People
from services.memory_upserter.extract.temporal import validity
from services.memory_upserter.extract.vocabulary import TITLES
from services.memory_upserter.text import fold, says_done

# a sentence ends at ".", "!" or "?" — not at a title's dot ("Mrs. Lee", "Dr. Patel")
_NOT_AFTER_TITLE = "".join(rf"(?<!\b{t}\.)" for t in TITLES)
_SENTENCE = re.compile(rf"(?<=[.!?]){_NOT_AFTER_TITLE}\s+|\n+", re.IGNORECASE)
_Spans = list[tuple[int, int]]
_SELF = re.compile(r"(?i)^(?:I|I'm|I've|I'd|we|we're|my|our|me)\b")


@dataclass(frozen=True)
class Utterance:
    text: str
    speaker: str | None = None  # None: the user


@dataclass(frozen=True)
class Extracted:
    plan: MemoryWritePlan
    questions: list[str] = field(default_factory=list)  # whom a todo means, when unclear


def extract(
    new: Sequence[Utterance],
    *,
    now: datetime,
    context: Sequence[Utterance] = (),
    self_names: Sequence[str] = (),
    known: Sequence[Known] = (),
    asked: str | None = None,
) -> MemoryWritePlan:
    """The plan for this turn's messages; ``context`` only seeds pronoun resolution."""
    return extract_turn(
        new, now=now, context=context, self_names=self_names, known=known, asked=asked
    ).plan


def extract_turn(
    new: Sequence[Utterance],
    *,
    now: datetime,
    context: Sequence[Utterance] = (),
    self_names: Sequence[str] = (),
    known: Sequence[Known] = (),
    asked: str | None = None,
) -> Extracted:
    """The plan for this turn's messages. ``asked`` is the other side's previous turn (the
    assistant's last reply): a short answer to its question is read with it (:mod:`.answered`)."""
    selves = {fold(n) for n in self_names} | {"me", "user"}
    names = [*self_names, *(k.name for k in known), *(a for k in known for a in k.aliases)]
    out = Emitter(now=now, people=People(known), names=names)
    for utterance in context:  # who "she" is, from earlier in the session; nothing is written
        scratch = Emitter(now=now, last_person=out.last_person, heard=out.heard)
        _read(utterance, scratch, selves)
        out.last_person = scratch.last_person
    for i, utterance in enumerate(new):
        _read(utterance, out, selves, asked if i == 0 else None)
    plan = MemoryWritePlan(
        entities=list(out.entities.values()),
        facts=list(out.facts.values()),
        todos=list(out.todos.values()),
        complete_commitment=out.complete,
        forget=list(dict.fromkeys(out.forget)),
        done=list(dict.fromkeys(out.done))[:20],
        dropped=list(dict.fromkeys(out.dropped))[:20],
        ends=list(dict.fromkeys(out.ends))[:20],
    )
    return Extracted(plan, out.people.questions())


def _read(utterance: Utterance, out: Emitter, selves: set[str], asked: str | None = None) -> None:
    speaker = (utterance.speaker or "").strip()
    out.is_user = not speaker or fold(speaker) in selves
    last_person = out.last_person  # the speaker is never "she" in their own words
    out.subject = "user" if out.is_user else out.entity(speaker, "Person")
    out.last_person = last_person
    answer = (
        answered.restated(asked, utterance.text) or agreeing.agreed(asked, utterance.text)
        if out.is_user
        else None
    )  # a short answer to the question just asked, or "me too" to a like just said
    text = casual.normalise(casual.own_turns(utterance.text), out.names)
    out.message = text
    before = set(out.facts)
    said = [casual.normalise(answer, out.names), text] if answer else [text]
    earlier = set(out.facts)  # the facts before the sentence before this one
    for sentence in (s for t in said for s in _SENTENCE.split(t)):
        taken_back, here = tone.retracted(sentence) or (sentence, False), set(out.facts)
        sentence = taken_back[0]
        if taken_back[1]:  # "i'm a doctor. jk im a student": the doctor is taken back
            for key in here - earlier:
                del out.facts[key]
        earlier = here
        for part in assertion.parts(sentence.strip()):
            if part.strip(" .,!?"):
                _sentence(part, out)
                out.heard[out.subject] = f"{out.said_before[-2000:]} {part}"
    if tone.sarcastic(utterance.text):  # "oh great, I love being stuck in traffic 🙄": not a like
        for key in out.facts.keys() - before:
            if key[1] in tone.SARCASM_INVERTS:
                del out.facts[key]


def _named_in(statement: str, out: Emitter) -> list[str]:
    """What a statement the person asks to forget names ("don't remember that I work at
    Quirinal Labs" → "Quirinal Labs"): the objects and values of the facts it would state;
    nothing when it states none ("Marta Silva", "my address")."""
    scratch = Emitter(now=out.now, names=out.names)
    _sentence(statement, scratch)
    said = [f.object or f.value for f in scratch.facts.values()]
    return [s for s in dict.fromkeys(said) if s and s.lower() != "user"]


def _sentence(sentence: str, out: Emitter) -> None:
    out.sentence = sentence
    out.valid_from = out.valid_to = None
    plain = assertion.rhetorical(assertion.unquoted(sentence))
    target = assertion.forget_target(plain) if out.is_user else None
    if target is not None:
        out.forget.extend(_named_in(target, out) or [target])
        return
    plain, out.correcting = assertion.corrected(plain)
    swapped = instead.not_this_but(plain, out.said_before)  # "not lisbon, porto"
    if swapped is None and out.correcting and out.is_user:
        swapped = _meant(plain, out)  # "sorry i meant porto"
    if swapped is not None:
        plain, out.correcting = swapped[0], True
    block = assertion.blocked(plain) or ("hypothetical" if tone.hedged_after(plain) else None)
    _todos(plain, block, out)
    if block is not None:
        return
    before = set(out.facts)
    for clause in assertion.clauses(plain):
        _clause(clause, out)
    out.valid_from = out.valid_to = None
    if swapped is not None and out.is_user:  # the value it replaces was never true: it ends
        new = fold(swapped[2])
        said = {
            f.predicate
            for f in (out.facts[k] for k in out.facts.keys() - before)
            if new and new in fold(f.object or f.value or "")
        }  # "hey! im rita, i live in braga": LIVES_IN Coimbra ends, not the name
        out.ends.extend(f"{predicate} {swapped[1]}"[:120] for predicate in sorted(said))


def _meant(value: str, out: Emitter) -> tuple[str, str, str] | None:
    """ "sorry i meant porto" after "i live in lisbon": that sentence again, with the last value
    it wrote replaced by the one meant (and that value, which ends); None when the correction
    is a statement of its own, or nothing said before wrote a value."""
    value = value.strip(" .!")
    if not instead.bare_value(value):
        return None
    for said in reversed(re.split(r"(?<=[.!?])\s+", out.said_before[-600:])[-3:]):
        for old in reversed(_named_in(said, out)):
            found = re.search(rf"(?i)(?<!\w){re.escape(old)}(?!\w)", said)
            if found is not None and fold(old) != fold(value):
                new = value.title() if old[:1].isupper() and value.islower() else value
                return said[: found.start()] + new + said[found.end() :], old, new
    return None


def _todos(plain: str, block: assertion.Block | None, out: Emitter) -> None:
    """The sentence's todos (a blocked sentence: only the requested ones), and whether the
    person says a todo of theirs is done."""
    for rule in rules.TODO_RULES:
        if block is None or rule.requested:
            for match in rule.pattern.finditer(plain):
                rule.apply(match, out)
    if out.is_user and block is None and says_done(plain):
        out.complete = True


def _clause(clause: str, out: Emitter) -> None:
    """One clause's facts, with its time; a hedged match writes nothing."""
    restated = assertion.ended(clause, correcting=out.correcting)
    if restated is not None:  # "i don't work there anymore": where "there" is
        restated = instead.there_is(restated, out.said_before)
    before = set(out.facts)
    out.clause_start = len(out.facts)
    dated = validity(restated or clause, out.now)
    out.valid_from, out.valid_to = dated.valid_from, dated.valid_to
    if restated is not None:
        out.valid_to = out.now
    raw, plain_text = restated or clause, dated.text
    hedges = {raw: assertion.Hedges(raw), plain_text: assertion.Hedges(plain_text)}
    then = {raw: tone.then_spans(raw), plain_text: tone.then_spans(plain_text)}
    for rule in rules.FACT_RULES:
        text = raw if rule.raw else plain_text
        for match in rule.pattern.finditer(text):
            about_self = bool(_SELF.match(match.group(0)))
            if not hedges[text].before(match.start(), about_self=about_self):
                _apply(rule, match, out, then=then[text])
    if out.is_user and assertion.only(clause):
        _only(out, [out.facts[k] for k in out.facts.keys() - before])
    if restated is not None:  # "i don't live in porto, it's lisbon": Lisbon in its place
        ended = [out.facts[k].object or out.facts[k].value or "" for k in out.facts.keys() - before]
        replaced = instead.said_instead(clause, restated, [e for e in ended if e])
        if replaced is not None:
            _clause(replaced, out)


def _apply(rule: rules.Rule, match: re.Match[str], out: Emitter, *, then: _Spans) -> None:
    """One rule match's facts; a state said of a past of the person's life ("i moved to
    berlin when i was 20", :func:`.tone.then_spans`) is then, not now: only its people stay."""
    before = set(out.facts)
    rule.apply(match, out)
    if any(a <= match.start() < b for a, b in then):
        for key in out.facts.keys() - before:
            if out.facts[key].fact_type != "relationship":
                del out.facts[key]


def _only(out: Emitter, said: list[PlanFact]) -> None:
    """ "I'm only allergic to peanuts": every other fact of the kind ends — words the commit
    resolves against the person's facts (``ends``: "ALLERGY except peanuts", see
    :mod:`services.memory_upserter.commit.asked`)."""
    kept: dict[str, list[str]] = {}
    for f in said:
        if f.subject == "user" and f.valid_to is None and f.predicate in assertion.ONLY_PREDICATES:
            kept.setdefault(f.predicate, []).append(f.object or f.value or "")
    for predicate, values in kept.items():
        out.ends.append(f"{predicate} except {' | '.join(values)}"[:120])
