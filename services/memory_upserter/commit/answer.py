"""A pending which-question closed by conversation (003 §10): "Remind me to call Marta" →
"Which Marta do you mean — Marta (sister) or Marta Silva (colleague)?" → "the work one".

The questions still open are the session's: ``scratch.pending_questions`` (the write side's)
and the assistant's last reply when it was the read side's question (the flow replies with
``GRAPH.pending_question``). Both are the one wording of :mod:`services.core.which`, so the
question reads back as the name it asks about. The next message answers it when it is short
and fits exactly one of the people that name means (:func:`chosen`): their full name or an
alias ("Marta Silva", "work Marta"), a relation ("my sister"), a group ("the work one"), a
word of their phrase in the question ("the colleague"), or its place ("the first one").

An answer then (in the transaction, :func:`link`): stores an alias "<word> <name>" ("work
Marta") on the one chosen, links them to the message that waited, makes them this turn's
entity (active in the session, seen now — so a later bare "marta" resolves to them) and means
them for this turn's plan; the question leaves ``scratch.pending_questions`` and is not asked
again. An unanswered question stays pending.

The product's todo question is answered the same way (:func:`todo_answer`): "done!" → "Which
one is done: 'Call Marta' or 'Book the dentist'?" (:mod:`.todo_question`) → "the dentist one"
is this turn's ``done`` — the todo's own words, resolved among the pending todos like any other
— and the question leaves the session.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from contracts.relations import ROLES
from services.core.which import Which, read_question
from services.memory_upserter.commit.known import load_known
from services.memory_upserter.commit.relatives import SHORT_ROLES
from services.memory_upserter.commit.todo_question import read_asked
from services.memory_upserter.commit.todos import DONE_WORDS, content_words, overlap
from services.memory_upserter.commit.turn import Answered, Judgement, ReadTurn, TodoAnswer
from services.memory_upserter.extract.people import Known, answers_to, group_of
from services.memory_upserter.text import fold, words

if TYPE_CHECKING:
    from contracts.slots import SessionState
    from services.memory_upserter.stores import MemoryStores

MAX_ANSWER_WORDS = 8
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}
_ROLE_WORDS = {w: label for w, label in ROLES.items() if " " not in w}
_VAGUE = frozenset("the a an one who from my at in of that this with".split())


def open_questions(session: SessionState | None) -> list[tuple[str, tuple[str, ...]]]:
    """The which-questions still open, newest first, each with the user messages that waited
    for it (the user turn before the question, when the session still holds it)."""
    if session is None:
        return []
    out: list[tuple[str, tuple[str, ...]]] = []
    turns = session.turns
    last = next((i for i in range(len(turns) - 1, -1, -1) if turns[i].role == "assistant"), None)
    before = (
        tuple(t.message_id for t in turns[:last][-1:] if t.role == "user" and t.message_id)
        if last is not None
        else ()
    )
    if last is not None and read_question(turns[last].text) is not None:
        out.append((turns[last].text, before))
    for question in reversed(session.scratch.pending_questions):
        if read_question(question) is not None and question not in {q for q, _ in out}:
            out.append((question, before))
    return out


def chosen(
    which: Which, candidates: Sequence[Known], message: str
) -> tuple[Known, str | None] | None:
    """Whom ``message`` picks among ``candidates`` (the people ``which.shown`` means), and the
    word that told them apart (for the alias); None unless exactly one fits."""
    said = words(message)
    if not said or len(said) > MAX_ANSWER_WORDS or len(candidates) < 2:
        return None
    folded = " " + " ".join(said) + " "
    shown = fold(which.shown)
    scored: list[tuple[int, str | None, Known]] = []
    for place, k in enumerate(candidates):
        score, word = 0, None
        names = [n for n in (k.name, *k.aliases) if fold(n) != shown and len(fold(n).split()) > 1]
        if any(f" {' '.join(words(n))} " in folded for n in names):
            score = 3
        own = _own_words(k, which, place)
        hits = [w for w in said if w in own and w != shown and w not in _VAGUE]
        if hits and score < 2:
            score, word = 2, hits[0]
        if any(_ORDINALS.get(w) == place for w in said) and score < 1:
            score = 1
        scored.append((score, word, k))
    best = max(score for score, _, _ in scored)
    winners = [(word, k) for score, word, k in scored if score == best]
    if best == 0 or len(winners) != 1:
        return None
    word, k = winners[0]
    return k, word


def _own_words(k: Known, which: Which, place: int) -> set[str]:
    """The words that name ``k`` apart: its relations, their group, its aliases, its phrase."""
    own: set[str] = set()
    for role in k.roles:
        label = role.upper().removeprefix("HAS_")
        own |= {label.lower(), *(group_of(label) or "").split()}
        own |= {w for w, lab in _ROLE_WORDS.items() if lab == label}
        own |= {s.lower() for s, w in SHORT_ROLES.items() if ROLES.get(w) == label}  # "my sis"
    for alias in k.aliases:
        own |= set(words(alias))
    phrase = next((p for p in which.phrases if p.startswith(k.name) or _by_alias(p, k)), None)
    if phrase is None and place < len(which.phrases):
        phrase = which.phrases[place]
    if phrase is not None:
        own |= set(words(re.sub(r"#\d+$", "", phrase)))
    return own - set(words(k.name))


def _by_alias(phrase: str, k: Known) -> bool:
    return any(phrase.startswith(a) for a in k.aliases)


def answer(
    questions: Sequence[tuple[str, tuple[str, ...]]],
    known: Sequence[Known],
    message: str,
) -> Answered | None:
    """The first open question ``message`` answers (:func:`chosen`), with the alias to store."""
    for question, waiting in questions:
        which = read_question(question)
        if which is None:
            continue
        candidates = [k for k in known if answers_to(k, fold(which.shown))]
        picked = chosen(which, candidates, message)
        if picked is None:
            continue
        person, word = picked
        given = (person.name.split() or [which.shown])[0]
        closes = tuple(q for q, _ in questions if _asks_about(q, which.shown))
        others = tuple(k.entity_id for k in candidates if k is not person and k.entity_id)
        alias = f"{word} {given}" if word else None
        return Answered(question, person, alias, waiting, closes, others)
    return None


def _asks_about(question: str, shown: str) -> bool:
    which = read_question(question)
    return which is not None and fold(which.shown) == fold(shown)


_TODO_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}


def pick_asked(listed: Sequence[str], message: str) -> str | None:
    """Which of the todos a "which one is done?" listed the person's short answer names ("the
    dentist one", "booking the dentist", "the second"): the only one its content words name
    most, else the one its ordinal points at; None for a question, a long message, or words
    that fit none or several."""
    said = words(message)
    if not said or len(said) > MAX_ANSWER_WORDS or message.rstrip().endswith("?"):
        return None
    spoken = [w for w in content_words(message) if w not in DONE_WORDS]
    scores = [overlap(spoken, text) for text in listed]
    best = max(scores, default=0)
    if best > 0:
        winners = [text for text, score in zip(listed, scores, strict=True) if score == best]
        return winners[0] if len(winners) == 1 else None
    places = {_TODO_ORDINALS[w] for w in said if w in _TODO_ORDINALS}
    if len(places) == 1 and len(said) <= 3:
        place = places.pop()
        return listed[place] if -len(listed) <= place < len(listed) else None
    return None


def todo_answer(session: SessionState | None, message: str) -> TodoAnswer | None:
    """The newest open todo question ``message`` answers, and the todo it picks (pure)."""
    for question in reversed(session.scratch.pending_questions if session else []):
        asked = read_asked(question)
        if asked is not None:
            picked = pick_asked(asked[1], message)
            return TodoAnswer(question, asked[0], picked) if picked else None
    return None


async def find_answer(
    stores: MemoryStores, turn: ReadTurn
) -> tuple[Answered | None, TodoAnswer | None]:
    """The open questions this turn's user message answers, if any (read before the
    transaction: the session from the working memory, the people its name may mean): which
    person, and which todo. The working memory down: no question is known, none is closed."""
    req = turn.req
    message = " ".join(r.text for r in turn.user_rows)
    if not message.strip() or len(words(message)) > MAX_ANSWER_WORDS:
        return None, None
    try:
        session = await stores.memory.load_session(req.user_id, req.agent_id, req.chat_id)
    except Exception:  # noqa: BLE001 — Redis unreachable: nothing to close, the turn goes on
        return None, None
    todo = todo_answer(session, message)
    questions = open_questions(session)
    shown = [fold(w.shown) for q, _ in questions if (w := read_question(q)) is not None]
    if not shown:
        return None, todo
    async with stores.db.acquire() as conn:
        known = await load_known(conn, req.user_id, req.agent_id, shown)
    return answer(questions, known, message), todo


async def answered_in(
    stores: MemoryStores, turn: ReadTurn, judged: Judgement
) -> tuple[Judgement, Answered | None]:
    """The open questions this turn answers (:func:`find_answer`: "the work one", which Marta
    was meant; "the dentist one", which todo is done), and the judgement with the answered
    name meaning the one chosen (:func:`prefer`) and the todo the answer picked."""
    answered, todo = await find_answer(stores, turn)
    known = tuple(prefer(judged.known, answered))
    return replace(judged, known=known, todo_answer=todo), answered


def prefer(known: Sequence[Known], answered: Answered | None) -> list[Known]:
    """``known`` with the answered name meaning the one chosen (this turn's plan names them)."""
    if answered is None:
        return list(known)
    which = read_question(answered.question)
    shown = fold(which.shown) if which is not None else ""
    rest = [k for k in known if not answers_to(k, shown) and k != answered.chosen]
    return [answered.chosen, *rest]
