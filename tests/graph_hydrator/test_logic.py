"""graph-hydrator's rules as pure functions: no database, no clock."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from contracts.hydrate import HydrateRequest
from services.core.text import fold
from services.graph_hydrator.lists import pick_foundation, pick_todos
from services.graph_hydrator.logic import assemble, lookup
from services.graph_hydrator.question import ask
from services.graph_hydrator.resolve import choose, resolve, valid_ids
from services.graph_hydrator.rows import EdgeRow, EntityRow, FactRow, TodoRow
from services.graph_hydrator.subgraph import merge_scopes, select_subgraph
from services.graph_hydrator.text import dedupe_key, scan

NOW = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)


def _id() -> str:
    return str(uuid.uuid4())


def _entity(
    name: str,
    *,
    last_seen: datetime | None = None,
    aliases: tuple[str, ...] = (),
    category: str = "Person",
    entity_id: str | None = None,
    **attributes: str,
) -> EntityRow:
    return EntityRow(
        entity_id=entity_id or _id(),
        name=name,
        category=category,
        scope="global",
        last_seen=last_seen,
        attributes=attributes,
        aliases=aliases,
        keys=(fold(name), *map(fold, aliases)),
    )


def _edge(
    subject: EntityRow,
    predicate: str,
    obj: EntityRow | None = None,
    *,
    value: object = None,
    scope: str = "global",
    confidence: float = 1.0,
    age_h: float = 0,
    rel_id: str | None = None,
) -> EdgeRow:
    return EdgeRow(
        rel_id=rel_id or _id(),
        scope=scope,
        subject=subject,
        predicate=predicate,
        text=f"{subject.name} {predicate}",
        confidence=confidence,
        updated_at=NOW - timedelta(hours=age_h),
        obj=obj,
        value=value if obj is None else None,
    )


def _resolve(message: str, rows: list[EntityRow], active: list[str] = (), topic=None):
    found = scan(message)
    return resolve(message, found, rows, list(active), topic)


# --- normalization and lookup keys -------------------------------------------------------------


@pytest.mark.parametrize("written", ["Marta", "marta", "MARTA", "Márta", "Ma\u0301rta", "Mårta"])
def test_case_and_accents_fold_to_one_key(written: str) -> None:
    assert fold(written) == "marta"


def test_letters_unaccent_maps_beyond_nfkd_fold_like_postgres() -> None:
    assert fold("Łódź Straße Øresund Æsir Þór Œuvre") == "lodz strasse oresund aesir thor oeuvre"
    assert fold("Marta’s") == "marta's"


@pytest.mark.parametrize(
    "message",
    [
        "Marta's cat",
        "Marta’s cat",
        "Márta’s cat",
        "MARTA'S cat",
        "with marta.",
        "(Marta)",
        "Marta, again",
    ],
)
def test_possessives_and_punctuation_still_find_the_name(message: str) -> None:
    assert "marta" in scan(message).keys


def test_a_bare_apostrophe_possessive_finds_the_name() -> None:
    assert "james" in scan("James’ car and Chris' bike").keys


def test_multi_word_names_are_keys_even_with_extra_spaces() -> None:
    keys = scan("Visiting Aunt  Rosa in New York next week").keys
    assert {"aunt rosa", "new york", "aunt  rosa"} <= set(keys)


def test_punctuated_names_keep_their_punctuation() -> None:
    keys = set(scan("Flying to St. Louis with Jean-Luc and O'Brien").keys)
    assert {"st. louis", "jean-luc", "o'brien"} <= keys


def test_tomorrow_does_not_contain_tom() -> None:
    keys = set(scan("Tomorrow I'll call atom-smasher Tomás").keys)
    assert "tom" not in keys and "tomas" in keys


def test_names_longer_than_four_words_are_not_looked_up() -> None:
    assert all(len(key.split()) <= 4 for key in scan("a b c d e f g").keys)


def test_pronouns_are_detected_with_contractions() -> None:
    assert scan("She's coming, and I told him").pronouns == ("she", "him")
    assert scan("Marta is coming").pronouns == ()


def test_dedupe_key_ignores_case_accents_and_punctuation() -> None:
    assert dedupe_key("Call Márta!") == dedupe_key("call  marta") == "call marta"


def test_session_ids_that_are_not_uuids_are_ignored() -> None:
    good = _id()
    assert valid_ids(["nope", good, good.upper(), ""]) == [good]


# --- mentions and disambiguation (003 §10) ------------------------------------------------------


def test_a_unique_mention_is_a_seed_and_is_reported_as_written() -> None:
    marta = _entity("Marta")
    seeds = _resolve("Had lunch with Márta’s kids", [marta])
    assert list(seeds.seeds) == [marta.entity_id]
    assert seeds.seeds[marta.entity_id][1] == "mention"
    (mention,) = seeds.mentions
    assert (mention.text, mention.key, mention.resolution) == ("Márta", "marta", "unique")
    assert seeds.fallback is None


def test_the_longest_match_wins_over_a_name_inside_it() -> None:
    aunt, rosa = _entity("Aunt Rosa"), _entity("Rosa")
    seeds = _resolve("Aunt Rosa called", [aunt, rosa])
    assert list(seeds.seeds) == [aunt.entity_id]


def test_an_alias_finds_its_entity() -> None:
    mom = _entity("Elena", aliases=("Mom",))
    seeds = _resolve("mom says hi", [mom])
    assert list(seeds.seeds) == [mom.entity_id]


def test_a_pronoun_falls_back_to_the_active_entities() -> None:
    marta = _entity("Marta")
    seeds = _resolve("How is she doing?", [marta], [marta.entity_id])
    assert seeds.fallback == "pronoun"
    assert seeds.seeds[marta.entity_id][1] == "active"


def test_no_mention_falls_back_to_the_active_entities() -> None:
    marta = _entity("Marta")
    seeds = _resolve("and then?", [marta], [marta.entity_id])
    assert (seeds.fallback, list(seeds.seeds)) == ("no_mention", [marta.entity_id])


def test_a_new_name_without_pronoun_moves_the_focus() -> None:
    bob, marta = _entity("Bob"), _entity("Marta")
    seeds = _resolve("Bob got a new job", [bob, marta], [marta.entity_id])
    assert list(seeds.seeds) == [bob.entity_id] and seeds.fallback is None


def test_two_martas_and_nothing_to_choose_by_ask() -> None:
    work, family = _entity("Marta"), _entity("Marta")
    chosen, how, considered = choose([work, family], [])
    assert (chosen, how, len(considered)) == (None, "ambiguous", 2)
    seeds = _resolve("Marta called", [work, family])
    assert seeds.seeds == {} and seeds.question_for is not None
    assert set(seeds.load_ids) == {work.entity_id, family.entity_id}


def test_the_active_marta_resolves_the_ambiguity() -> None:
    work, family = _entity("Marta"), _entity("Marta")
    assert choose([work, family], [family.entity_id])[:2] == (family, "active")


def test_the_most_recently_seen_marta_resolves_the_ambiguity() -> None:
    old = _entity("Marta", last_seen=NOW - timedelta(days=9))
    new = _entity("Marta", last_seen=NOW - timedelta(days=1))
    never = _entity("Marta")
    assert choose([old, new, never], [])[:2] == (new, "recent")


def test_equally_recent_martas_are_a_tie() -> None:
    a, b = _entity("Marta", last_seen=NOW), _entity("Marta", last_seen=NOW)
    assert choose([a, b], [])[1] == "ambiguous"


def test_topic_focus_breaks_a_tie() -> None:
    work = _entity("Marta", aliases=("work Marta",))
    family = _entity("Marta", aliases=("family Marta",))
    assert choose([work, family], [], topic_focus="Family")[:2] == (family, "topic")


def test_the_question_names_each_candidate_by_alias_and_role() -> None:
    me = _entity("Alex")
    work = _entity(
        "Marta",
        aliases=("work Marta",),
        relationship="colleague",
        entity_id="00000000-0000-4000-8000-000000000001",
    )
    family = _entity(
        "Marta", aliases=("Marta", "family Marta"), entity_id="00000000-0000-4000-8000-000000000002"
    )
    edges = [_edge(family, "SISTER_OF", me), _edge(work, "LIKES", value="tea")]
    seeds = _resolve("marta called", [work, family])
    question = ask(seeds.question_for, edges)
    assert question.question == (
        "Which Marta do you mean — work Marta (colleague) or family Marta (sister)?"
    )
    assert question.mention == "marta"
    assert [c.hint for c in question.candidates] == [
        "work Marta (colleague)",
        "family Marta (sister)",
    ]


def test_the_question_lists_the_most_recently_seen_candidates_first() -> None:
    old = _entity("Marta", last_seen=NOW - timedelta(days=9), city="Oslo")
    new = [_entity("Marta", last_seen=NOW) for _ in range(2)]
    question = ask(_resolve("Marta", [old, *new]).question_for, [])
    assert question.candidates[-1].entity_id == old.entity_id


def test_candidates_that_read_the_same_are_told_apart() -> None:
    a = _entity("Marta", last_seen=NOW)
    b = _entity("Marta", last_seen=NOW)
    question = ask(_resolve("Marta", [a, b]).question_for, [])
    hints = [c.hint for c in question.candidates]
    assert len(set(hints)) == 2


# --- scope merge, priority, cap (003 §4.2, §6.4) ----------------------------------------------


def _pairs(rows):
    return merge_scopes(rows, lambda r: (r.subject.entity_id, r.predicate, r.scope))


def test_an_identity_predicate_keeps_the_global_fact() -> None:
    me = _entity("Alex")
    glob = _edge(me, "LIVES_IN", value="Berlin")
    mine = _edge(me, "LIVES_IN", value="Paris", scope="agent")
    assert _pairs([mine, glob]) == ([glob], 1)


def test_an_agent_domain_predicate_keeps_the_agents_fact() -> None:
    me = _entity("Alex")
    glob = _edge(me, "DIET_PLAN", value="keto")
    mine = _edge(me, "DIET_PLAN", value="mediterranean", scope="agent")
    assert _pairs([glob, mine]) == ([mine], 1)


def test_critical_facts_never_conflict() -> None:
    me = _entity("Alex")
    glob = _edge(me, "ALLERGY", value="peanuts")
    mine = _edge(me, "ALLERGY", value="shellfish", scope="agent")
    assert _pairs([glob, mine]) == ([glob, mine], 0)


def test_priority_is_agent_then_critical_then_confidence_then_recency() -> None:
    me = _entity("Alex")
    old = _edge(me, "LIKES", value="tea", confidence=0.9, age_h=5)
    new = _edge(me, "LIKES_ALSO", value="jazz", confidence=0.9, age_h=1)
    sure = _edge(me, "JOB", value="nurse", confidence=1.0, age_h=9)
    allergy = _edge(me, "allergy", value="nuts", confidence=0.5, age_h=50)
    agents = _edge(me, "TRAINING_PLAN", value="5k", scope="agent", confidence=0.3, age_h=90)
    sub = select_subgraph([old, new, sure, allergy, agents], [me.entity_id], 30)
    assert [e.rel_id for e in sub.edges] == [
        agents.rel_id,
        allergy.rel_id,
        sure.rel_id,
        new.rel_id,
        old.rel_id,
    ]


def test_the_cap_keeps_critical_facts_and_counts_what_it_dropped() -> None:
    me = _entity("Alex")
    friends = [_entity(f"Friend {n}") for n in range(40)]
    edges = [_edge(me, "FRIEND_OF", f, confidence=0.9) for f in friends]
    critical = _edge(me, "MEDICATION", value="insulin", confidence=0.4)
    sub = select_subgraph([*edges, critical], [me.entity_id], 30)
    assert len(sub.edges) == 30 and sub.edges[0].rel_id == critical.rel_id
    assert sub.dropped == {"edges": 11, "neighbors": 11}
    assert len(sub.neighbors) == 29


def test_edges_not_touching_a_seed_are_ignored() -> None:
    a, b, c = _entity("A"), _entity("B"), _entity("C")
    sub = select_subgraph([_edge(a, "KNOWS", b), _edge(b, "KNOWS", c)], [a.entity_id], 40)
    assert len(sub.edges) == 1 and [n.entity_id for n in sub.neighbors] == [b.entity_id]


# --- foundation and todos (001/004) -------------------------------------------------------------


def _fact(
    text: str,
    *,
    pinned=False,
    source="llm_plan",
    importance=1,
    age_d=0,
    memory_type="PROFILE",
    predicate=None,
    scope="global",
    subject="me",
    about_self=False,
    confidence=1.0,
) -> FactRow:
    at = NOW - timedelta(days=age_d)
    return FactRow(
        fact_id=_id(),
        subject_id=subject,
        predicate=predicate or f"P{_id()[:6]}",
        scope=scope,
        text=text,
        memory_type=memory_type,
        importance=3 if pinned else importance,
        pinned=pinned,
        source=source,
        created_at=at,
        updated_at=at,
        about_self=about_self,
        confidence=confidence,
    )


def test_foundation_is_seeded_then_pinned_then_critical_importance_and_newest() -> None:
    """The documented order: the profile (seeded) first in its own order, then pins, then the
    rest by critical, importance and recency."""
    core_new = _fact("core new", importance=3, age_d=1, about_self=True)
    core_old = _fact("core old", importance=3, age_d=5, about_self=True)
    seeded_old = _fact("seeded old", source="seeded_profile", importance=1, age_d=9)
    seeded_new = _fact("seeded new", source="seeded_profile", importance=3, age_d=0)
    pinned = _fact("pinned", pinned=True, age_d=3)
    allergy = _fact("allergic to nuts", importance=1, predicate="ALLERGY", age_d=7)
    trivial = _fact("trivial", importance=2)
    psyche = _fact("psyche", importance=3, memory_type="PSYCHE", about_self=True)
    someone_elses = _fact("Caroline went to a support group", importance=3)
    lines = pick_foundation(
        [
            core_new,
            core_old,
            seeded_old,
            pinned,
            trivial,
            psyche,
            allergy,
            seeded_new,
            someone_elses,
        ]
    )
    assert [f.text for f in lines] == [
        "seeded old",
        "seeded new",
        "pinned",
        "allergic to nuts",
        "core new",
        "core old",
    ]


def test_the_persons_identity_and_this_personas_own_notes_are_foundation() -> None:
    """Global identity facts by importance then recency; this persona's own notes about the
    person (scope ``agent``, any importance) right after core identity."""
    home = _fact("User lives in Lisbon", importance=2, age_d=2, about_self=True)
    job = _fact("User works at Acme", importance=2, age_d=1, about_self=True)
    sister = _fact(
        "Marta is the user's sister", importance=2, memory_type="PEOPLE", age_d=3, about_self=True
    )
    likes = _fact("User likes tea", importance=1, about_self=True)
    agents_own = _fact("User trains on Mondays", importance=1, scope="agent", about_self=True)
    someone_else = _fact("Marta lives in Madrid", importance=2, memory_type="PEOPLE")
    project = _fact("User works on Atlas", importance=2, memory_type="PROJECT", about_self=True)
    name = _fact("User's name is Alice", importance=3, age_d=30, about_self=True)
    lines = pick_foundation([likes, agents_own, someone_else, project, sister, home, job, name])
    assert [f.text for f in lines] == [
        "User's name is Alice",
        "User trains on Mondays",
        "User works at Acme",
        "User lives in Lisbon",
        "Marta is the user's sister",
    ]


def test_a_persona_with_many_notes_keeps_the_persons_home_and_job_in_its_foundation() -> None:
    """Past its first four, a coach's own notes come after the person's identity."""
    home = _fact("User lives in Lisbon", importance=2, about_self=True)
    job = _fact("User works at Acme", importance=2, about_self=True)
    notes = [
        _fact(f"coach note {n}", importance=1, scope="agent", age_d=n, about_self=True)
        for n in range(12)
    ]
    texts = [f.text for f in pick_foundation([home, job, *notes])]
    assert texts[:4] == [f"coach note {n}" for n in range(4)]
    assert set(texts[4:6]) == {"User works at Acme", "User lives in Lisbon"}
    assert len(texts) == 12


def test_a_promoted_affect_and_an_unverified_fact_are_never_foundation() -> None:
    """ "User said they feel nervous" is how they felt once, not who they are; a fact stored
    under UNVERIFIED_BELOW (a psyche guess, an ungrounded plan fact) is not authoritative."""
    home = _fact("User lives in Lisbon", importance=2, about_self=True, confidence=0.9)
    nervous = _fact(
        'User said they feel nervous: "so nervous about monday"',
        importance=3,
        predicate="FEELS",
        about_self=True,
        confidence=0.7,
    )
    guessed = _fact("User works at Spotify", importance=3, about_self=True, confidence=0.4)
    pinned_guess = _fact("User is a morning person", pinned=True, confidence=0.5)
    pinned_feeling = _fact("User feels at home in Porto", pinned=True, predicate="FEELS")
    lines = pick_foundation([home, nervous, guessed, pinned_guess, pinned_feeling])
    assert [f.text for f in lines] == ["User feels at home in Porto", "User lives in Lisbon"]
    assert [f.confidence for f in lines] == [1.0, 0.9]


def test_foundation_is_capped_at_twelve_and_deduped() -> None:
    facts = [_fact(f"fact {n}", importance=3, age_d=30 - n, about_self=True) for n in range(20)]
    facts.append(_fact("FACT 0!", pinned=True))
    lines = pick_foundation(facts)
    assert len(lines) == 12 and lines[0].text == "FACT 0!"
    assert "fact 0" not in [f.text for f in lines]


def _todo(
    kind: str,
    text: str,
    *,
    status="PENDING",
    age_h: float = 0,
    done_h: float | None = None,
    due_h: float | None = None,
) -> TodoRow:
    at = NOW - timedelta(hours=age_h)
    return TodoRow(
        todo_id=_id(),
        kind=kind,
        bucket=kind if status == "PENDING" else "WIN",
        text=text,
        status=status,
        created_at=at,
        updated_at=at,
        due_at=NOW + timedelta(hours=due_h) if due_h is not None else None,
        completed_at=NOW - timedelta(hours=done_h) if done_h is not None else None,
    )


def test_todo_lists_are_capped_and_deduped_by_normalized_text() -> None:
    todos = [_todo("COMMITMENT", f"walk {n}", age_h=n + 1) for n in range(10)]
    todos += [_todo("COMMITMENT", "Call Márta!", age_h=0.5), _todo("COMMITMENT", "call marta")]
    todos += [_todo("THREAD", f"thread {n}", age_h=n) for n in range(5)]
    todos += [_todo("FRICTION", f"friction {n}", age_h=n) for n in range(5)]
    lists = pick_todos(todos, NOW)
    assert [t.text for t in lists["COMMITMENT"]] == ["call marta"] + [f"walk {n}" for n in range(7)]
    assert [t.text for t in lists["THREAD"]] == ["thread 0", "thread 1", "thread 2"]
    assert len(lists["FRICTION"]) == 3


def test_commitments_due_soonest_come_first() -> None:
    later = _todo("COMMITMENT", "later", due_h=48)
    soon = _todo("COMMITMENT", "soon", due_h=2)
    undated = _todo("COMMITMENT", "undated", age_h=0)
    assert [t.text for t in pick_todos([undated, later, soon], NOW)["COMMITMENT"]] == [
        "soon",
        "later",
        "undated",
    ]


def test_wins_are_commitments_done_in_the_last_48_hours() -> None:
    todos = [
        _todo("COMMITMENT", "ran 5k", status="DONE", done_h=1),
        _todo("COMMITMENT", "Ran 5k", status="DONE", done_h=2),
        _todo("COMMITMENT", "old win", status="DONE", done_h=49),
        _todo("THREAD", "thread done", status="DONE", done_h=1),
        _todo("COMMITMENT", "dropped", status="DROPPED", done_h=1),
    ]
    todos += [_todo("COMMITMENT", f"win {n}", status="DONE", done_h=3 + n) for n in range(4)]
    wins = pick_todos(todos, NOW)["WIN"]
    assert [t.text for t in wins] == ["ran 5k", "win 0", "win 1"]


# --- the whole turn ----------------------------------------------------------------------------


def test_assemble_lists_seeds_then_neighbors_and_hands_back_the_seed_ids() -> None:
    marta = _entity("Marta")
    ana = _entity("Ana")
    request = HydrateRequest(user_id="u", agent_id="deanna", chat_id="c", message="Marta?")
    wanted = lookup(request.message, [])
    seeds = resolve(request.message, wanted.scan, [marta], wanted.active_ids)
    answer = assemble(request, seeds, [_edge(marta, "SISTER_OF", ana)], [], [], NOW)
    assert [(e.name, e.seed) for e in answer.GRAPH.entities] == [
        ("Marta", "mention"),
        ("Ana", "neighbor"),
    ]
    assert answer.active_entity_ids == [marta.entity_id]
    assert answer.GRAPH.edges[0].provenance.row_id == answer.GRAPH.edges[0].rel_id
    assert answer.mentions[0].entity_id == marta.entity_id
    assert answer.GRAPH.pending_question is None and answer.GRAPH.dropped == {}


# --- relation words ("my sister") -------------------------------------------------------------


def _kin(name: str, *links: str, last_seen: datetime | None = None) -> EntityRow:
    return EntityRow(
        entity_id=_id(),
        name=name,
        category="Person",
        scope="global",
        last_seen=last_seen,
        keys=(fold(name),),
        kin=links,
    )


def _resolve_kin(message: str, rows: list[EntityRow], active: list[str] = ()):
    wanted = lookup(message, active)
    return resolve(message, wanted.scan, rows, wanted.active_ids, None, wanted.kin_words)


@pytest.mark.parametrize(
    ("message", "role", "plural"),
    [
        ("Where does my sister live?", "sister", False),
        ("is MY WIFE’S flight on time", "wife", False),
        ("my boss said no", "boss", False),
        ("my best friend moved", "best friend", False),
        ("my older brother", "brother", False),
        ("how are my sisters?", "sister", True),
        ("our kids are asleep", "kids", True),
    ],
)
def test_relation_words_are_found_with_their_role(message: str, role: str, plural: bool) -> None:
    (word,) = lookup(message, []).kin_words
    assert (word.role, word.plural) == (role, plural)
    assert message[word.start : word.end].lower().startswith(("my", "our"))


def test_no_relation_word_in_small_talk_or_inside_other_words() -> None:
    assert lookup("my sisterhood of travelling pants, your sister", []).kin_words == []
    assert lookup("hello there", []).kin_predicates == []


def test_my_sister_resolves_through_either_direction_of_the_relation() -> None:
    marta = _kin("Marta", "HAS_SISTER")
    inverse = _kin("Ana", "^SISTER_OF")
    boss = _kin("Rui", "HAS_BOSS")
    seeds = _resolve_kin("Where does my sister live?", [marta, boss])
    (mention,) = seeds.mentions
    assert (mention.text, mention.role, mention.resolution) == ("my sister", "sister", "unique")
    assert list(seeds.seeds) == [marta.entity_id] and seeds.fallback is None
    assert list(_resolve_kin("my sister is here", [inverse]).seeds) == [inverse.entity_id]
    assert list(_resolve_kin("is my boss in?", [marta, boss]).seeds) == [boss.entity_id]
    spouse = _kin("Jo", "MARRIED_TO")
    assert list(_resolve_kin("my wife called", [spouse]).seeds) == [spouse.entity_id]


def test_a_relative_not_on_record_resolves_nobody() -> None:
    seeds = _resolve_kin("Where does my sister live?", [_kin("Rui", "HAS_BOSS")])
    assert seeds.mentions == () and seeds.seeds == {} and seeds.fallback == "no_mention"


def test_two_sisters_ask_which_one_like_same_name_people() -> None:
    marta, ana = _kin("Marta", "HAS_SISTER"), _kin("Ana", "HAS_SISTER")
    seeds = _resolve_kin("Where does my sister live?", [marta, ana])
    (mention,) = seeds.mentions
    assert mention.resolution == "ambiguous" and seeds.seeds == {}
    question = ask(seeds.question_for, [_edge(marta, "LIVES_IN", value="Madrid")])
    assert question.question.startswith("Which sister do you mean — ")
    assert {c.name for c in question.candidates} == {"Marta", "Ana"}
    assert "Marta (lives in Madrid)" in question.question


def test_two_sisters_follow_003_when_one_is_active_or_seen_last() -> None:
    marta = _kin("Marta", "HAS_SISTER", last_seen=NOW - timedelta(days=1))
    ana = _kin("Ana", "HAS_SISTER", last_seen=NOW - timedelta(days=9))
    assert list(_resolve_kin("my sister?", [marta, ana], [ana.entity_id]).seeds) == [ana.entity_id]
    assert list(_resolve_kin("my sister?", [marta, ana]).seeds) == [marta.entity_id]


def test_my_sisters_seed_every_sister_without_a_question() -> None:
    marta, ana = _kin("Marta", "HAS_SISTER"), _kin("Ana", "HAS_SISTER")
    seeds = _resolve_kin("How are my sisters?", [marta, ana, _kin("Rui", "HAS_BROTHER")])
    assert set(seeds.seeds) == {marta.entity_id, ana.entity_id}
    assert seeds.question_for is None


def test_a_relation_word_and_a_name_of_the_same_person_seed_it_once() -> None:
    marta = _kin("Marta", "HAS_SISTER")
    seeds = _resolve_kin("my sister Marta called", [marta])
    assert list(seeds.seeds) == [marta.entity_id] and len(seeds.mentions) == 1


def test_a_relation_word_before_a_name_asks_nothing_with_two_sisters() -> None:
    marta, beatriz = _kin("Marta", "HAS_SISTER"), _kin("Beatriz", "HAS_SISTER")
    seeds = _resolve_kin("call my sister Beatriz", [marta, beatriz])
    assert list(seeds.seeds) == [beatriz.entity_id] and seeds.question_for is None
    other = _resolve_kin("my other sister Beatriz lives in Rome", [marta, beatriz])
    assert list(other.seeds) == [beatriz.entity_id] and other.question_for is None


def test_a_bare_given_name_names_the_full_name_and_asks_between_namesakes() -> None:
    silva = _kin("Marta Silva", "HAS_COLLEAGUE")
    assert list(_resolve_kin("remind me to call marta", [silva]).seeds) == [silva.entity_id]
    sister = _kin("Marta", "HAS_SISTER")
    both = _resolve_kin("remind me to call marta", [silva, sister])
    assert both.question_for is not None and both.question_for.text == "marta"
    full = _resolve_kin("call Marta Silva", [silva, sister])
    assert list(full.seeds) == [silva.entity_id] and full.question_for is None


def test_my_sister_marta_picks_the_sister_among_two_martas_without_asking() -> None:
    sister, colleague = _kin("Marta", "HAS_SISTER"), _kin("Marta", "HAS_COLLEAGUE")
    seeds = _resolve_kin("How is my sister Marta?", [sister, colleague])
    named = next(m for m in seeds.mentions if m.role is None)
    assert (named.chosen, named.resolution) == (sister, "relation")
    assert list(seeds.seeds) == [sister.entity_id] and seeds.question_for is None
    # a bare name still asks: nothing tells the two apart
    assert _resolve_kin("How is Marta?", [sister, colleague]).question_for is not None


def test_a_relation_word_elsewhere_in_the_message_tells_two_namesakes_apart() -> None:
    """The answer to "which Luca?" names the brother and sets the other aside: no second
    question; a relation word beside a plain name means the name is the other one."""
    brother = _kin("Luca", "HAS_BROTHER")
    footy = EntityRow(
        entity_id=_id(), name="Luca Bianchi", category="Person", scope="global",
        keys=("luca bianchi", "luca"), kin=("HAS_FRIEND",),
    )  # fmt: skip
    for said in ("my brother lol not luca from footy", "my brother, not the other luca"):
        seeds = _resolve_kin(said, [brother, footy])
        assert seeds.question_for is None, said
        assert list(seeds.seeds) == [brother.entity_id], said
    both = _resolve_kin("my brother and luca are coming over", [brother, footy])
    assert both.question_for is None
    assert set(both.seeds) == {brother.entity_id, footy.entity_id}
    assert _resolve_kin("luca is coming over", [brother, footy]).question_for is not None


def test_two_of_one_name_are_told_apart_by_what_they_are_to_the_person() -> None:
    """ "who is marta?" with the sister Marta (who lives in Madrid) and the colleague Marta
    Silva: "Marta (sister) or Marta Silva (colleague)", never "(person)", and the name as a
    name even when typed in lower case."""
    sister = _kin("Marta", "HAS_SISTER")
    colleague = EntityRow(
        entity_id=_id(),
        name="Marta Silva",
        category="Person",
        scope="global",
        keys=("marta silva", "marta"),
        kin=("HAS_COLLEAGUE",),
    )
    seeds = _resolve_kin("who is marta?", [sister, colleague])
    question = ask(seeds.question_for, [_edge(sister, "LIVES_IN", value="Madrid")])
    assert question.question.startswith("Which Marta do you mean — ")
    assert "Marta (sister)" in question.question
    assert "Marta Silva (colleague)" in question.question


def test_a_relation_to_the_person_that_is_no_role_is_no_description() -> None:
    """ "Acme (works at)" would read as nothing: only HAS_<role> / <role>_OF describe."""
    acme = EntityRow(
        entity_id=_id(), name="Acme", category="Org", scope="global", keys=("acme",),
        kin=("WORKS_AT",),
    )  # fmt: skip
    other = EntityRow(
        entity_id=_id(), name="Acme", category="Org", scope="global", keys=("acme",),
        kin=("HAS_CLIENT",),
    )  # fmt: skip
    seeds = _resolve_kin("how is acme doing?", [acme, other])
    question = ask(seeds.question_for, [])
    assert "works at" not in question.question
