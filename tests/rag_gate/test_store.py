"""Retrieval against the real stores (Qdrant Edge + Postgres): scoping, liveness, narrowing,
entity cards and continuity. Postgres is the truth; the index only proposes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from contracts.retrieve import RetrieveResponse
from services.core.deps import Clients
from services.rag_gate import continuity
from services.rag_gate.pipeline import retrieve
from tests.rag_gate.conftest import T0, Memory

NURSE = (
    "Marta started night shifts",
    "Observation: the user said their sister Marta started "
    "night shifts at the hospital and sounds exhausted. Unresolved: visit her.",
)


async def ask(res: Clients, memory: Memory, message: str, **extra) -> RetrieveResponse:
    """Retrieve with the gate forced open (unless told otherwise): these tests are about
    what retrieval finds, test_gate.py about when it runs."""
    extra.setdefault("force", "open")
    return await retrieve(
        res.db, res.vectors, res.embedder, res.settings, memory.request(message, **extra), T0
    )


def episode_ids(answer: RetrieveResponse) -> set[str]:
    return {hit.episode_id for hit in answer.EPISODE.hits}


def fact_ids(answer: RetrieveResponse) -> set[str]:
    return {fact.fact_id for fact in answer.FACTS.relevant_facts}


async def test_two_users_with_a_marta_each_see_only_their_own(
    resources: Clients, memory: Memory, memory_for, user_id: str
) -> None:
    other = await memory_for(user_id + "-b", memory)
    mine, theirs = {}, {}
    for who, out, job in (
        (memory, mine, "a nurse at the hospital"),
        (other, theirs, "a lawyer at the hospital board"),
    ):
        out["marta"] = marta = await who.entity("Marta", ref="person:marta")
        out["fact"] = await who.fact(marta, f"Marta works as {job}", importance=2)
        out["episode"] = await who.episode(
            "Marta and the hospital",
            f"Observation: the user said Marta works as {job} and is exhausted.",
            entity_ids=[marta],
        )
    for who, own, foreign in ((memory, mine, theirs), (other, theirs, mine)):
        answer = await ask(
            resources,
            who,
            "how is Marta doing at the hospital?",
            entity_ids=[own["marta"]],
            force=None,
        )
        assert answer.gate.reasons == ["entity_mention"]
        assert episode_ids(answer) == {own["episode"]}
        assert own["fact"] in fact_ids(answer) and foreign["fact"] not in fact_ids(answer)


async def test_another_agents_episodes_and_knowledge_are_invisible(
    resources: Clients, memory: Memory
) -> None:
    mine = await memory.episode(*NURSE)
    await memory.episode(*NURSE, agent_id=memory.other_agent)
    chunk = await memory.chunk("Night shift sleep: keep a fixed sleep window after shifts.")
    await memory.chunk(
        "Night shift sleep: keep a fixed sleep window after night shifts.",
        agent_id=memory.other_agent,
    )
    answer = await ask(resources, memory, "remember Marta's night shifts? how should she sleep?")
    assert episode_ids(answer) == {mine}
    assert [hit.chunk_id for hit in answer.KNOWLEDGE.hits] == [chunk]


async def test_a_users_own_document_is_visible_to_them_only(
    resources: Clients, memory: Memory, memory_for, user_id: str
) -> None:
    own = await memory.chunk("My meal plan: oats for breakfast, lentil soup for lunch.", own=True)
    other = await memory_for(user_id + "-b", memory)
    assert [
        h.chunk_id for h in (await ask(resources, memory, "what's my meal plan?")).KNOWLEDGE.hits
    ] == [own]
    assert (await ask(resources, other, "what's my meal plan?")).KNOWLEDGE.hits == []


async def test_facts_of_another_agent_psyche_and_closed_facts_are_never_relevant(
    resources: Clients, memory: Memory
) -> None:
    marta = await memory.entity("Marta")
    visible = {
        await memory.fact(marta, "Marta works night shifts at the hospital"),
        await memory.fact(marta, "Marta's hospital is Santa Maria", agent_id=memory.agent),
    }
    hidden = {
        await memory.fact(marta, "Marta hates her hospital shifts", agent_id=memory.other_agent),
        await memory.fact(marta, "Marta seems anxious about the hospital", memory_type="PSYCHE"),
        await memory.fact(
            marta, "Marta worked at the old hospital", status="SUPERSEDED", stale_index=True
        ),
        await memory.fact(
            marta, "Marta's hospital shifts are archived", status="ARCHIVED", stale_index=True
        ),
        await memory.fact(marta, "Marta's hospital secret", status="FORGOTTEN"),
    }
    answer = await ask(resources, memory, "how are Marta's hospital shifts going?")
    assert fact_ids(answer) == visible and not fact_ids(answer) & hidden
    # the PSYCHE fact is left out by the index itself (memory_type filter); the closed ones
    # with a stale index entry are proposed by the index and refused by SQL (a `now` in the
    # past also proposes the closed facts of the index: an as-of read; SQL refuses them too)
    assert answer.debug.dropped["facts_not_live"] >= 2


async def test_expired_facts_are_excluded_and_still_valid_ones_kept(
    resources: Clients, memory: Memory
) -> None:
    marta = await memory.entity("Marta")
    expired = await memory.fact(marta, "Marta lives in Lisbon", valid_to=T0 - timedelta(days=1))
    valid = await memory.fact(marta, "Marta lives in Porto", valid_to=T0 + timedelta(days=30))
    answer = await ask(resources, memory, "where does Marta live?")
    assert valid in fact_ids(answer) and expired not in fact_ids(answer)


async def test_a_forgotten_episode_is_excluded_from_both_stores(
    resources: Clients, memory: Memory
) -> None:
    episode = await memory.episode(*NURSE)
    assert episode_ids(await ask(resources, memory, "remember Marta's shifts?")) == {episode}
    await memory.forget_episode(episode)
    answer = await ask(resources, memory, "remember Marta's shifts?")
    assert answer.EPISODE.hits == [] and answer.debug.candidates["episodes"] == 0


async def test_an_episode_forgotten_in_postgres_but_not_yet_in_the_index_stays_out(
    resources: Clients, memory: Memory
) -> None:
    episode = await memory.episode(*NURSE)
    await memory.forget_episode(episode, in_index=False)
    answer = await ask(resources, memory, "remember Marta's shifts?")
    assert answer.EPISODE.hits == [] and answer.debug.dropped["episodes_not_live"] == 1


async def test_an_inactive_knowledge_chunk_is_excluded(resources: Clients, memory: Memory) -> None:
    await memory.chunk("Night shift sleep: keep a fixed sleep window.", active=False)
    answer = await ask(resources, memory, "how should I plan sleep around night shifts?")
    assert answer.KNOWLEDGE.hits == []


async def test_seed_entities_narrow_the_episodes_to_theirs(
    resources: Clients, memory: Memory
) -> None:
    marta, sam = await memory.entity("Marta"), await memory.entity("Sam")
    about_marta = await memory.episode(
        "Argument about chores",
        "Observation: the user argued with Marta about chores and felt unheard.",
        entity_ids=[marta],
    )
    await memory.episode(
        "Argument about chores",
        "Observation: the user argued with Sam about chores and felt unheard.",
        entity_ids=[sam],
    )
    answer = await ask(resources, memory, "we argued about chores again", entity_ids=[marta])
    assert episode_ids(answer) == {about_marta}
    assert answer.debug.episode_filter == "entities"


async def test_narrowing_that_finds_nothing_falls_back_to_all_episodes(
    resources: Clients, memory: Memory
) -> None:
    sam, newcomer = await memory.entity("Sam"), await memory.entity("Zofia")
    chores = await memory.episode(
        "Argument about chores",
        "Observation: the user argued with Sam about chores and felt unheard.",
        entity_ids=[sam],
    )
    answer = await ask(resources, memory, "we argued about chores again", entity_ids=[newcomer])
    assert episode_ids(answer) == {chores} and answer.debug.episode_filter == "fallback"


async def test_a_top_hit_found_by_its_rare_words_is_kept_despite_a_low_cosine(
    resources: Clients, memory: Memory
) -> None:
    flats = await memory.episode(
        "Apartment hunting in Lisbon",
        "Observation: the user visited three flats in Alfama "
        "and Arroios; the one in Arroios is cheaper but far from the office. Unresolved: "
        "decide by Thursday.",
    )
    await memory.episode("Guitar practice", "Observation: the user learned a new chord.")
    await memory.episode(*NURSE)
    answer = await ask(resources, memory, "did I decide on the flat?", force=None)
    (hit,) = answer.EPISODE.hits
    assert hit.episode_id == flats and hit.score_details["lexical"] == 1.0
    assert hit.score < answer.debug.thresholds["episodes"] and hit.score_details["rank"] == 1


async def test_episode_hits_carry_provenance_and_score_details(
    resources: Clients, memory: Memory
) -> None:
    episode = await memory.episode(*NURSE, message_ids=["m1", "m2", "m3"], cited=["m2"])
    (hit,) = (await ask(resources, memory, "remember Marta's night shifts?")).EPISODE.hits
    assert hit.episode_id == episode and hit.one_liner == NURSE[0]
    # grounded: the messages its Evidence quotes, not every message of its session
    assert hit.provenance.row_id == episode and hit.provenance.message_ids == ["m2"]
    assert hit.day == T0.date()
    assert {"similarity", "rrf", "rank", "threshold", "lexical"} <= set(hit.score_details)
    assert hit.score == hit.score_details["similarity"] > hit.score_details["threshold"]


async def test_entity_cards_expand_the_top_facts_entity_with_its_important_facts(
    resources: Clients, memory: Memory
) -> None:
    marta = await memory.entity("Marta", ref="person:marta")
    porto = await memory.entity("Porto", category="Location")
    relevant = await memory.fact(marta, "Marta works night shifts at the hospital")
    day = timedelta(days=1)
    await memory.fact(
        marta,
        "Marta is my younger sister",
        importance=3,
        pinned=True,
        created_at=T0 - 9 * day,
        index=False,
    )
    await memory.fact(
        marta, "Marta has two kids", importance=3, created_at=T0 - 5 * day, index=False
    )
    await memory.fact(
        marta, "Marta lives in Porto", obj=porto, importance=2, created_at=T0 - day, index=False
    )
    await memory.fact(
        marta, "Marta studied in Coimbra", importance=2, created_at=T0 - 2 * day, index=False
    )
    await memory.fact(marta, "Marta likes jazz", importance=1, index=False)
    await memory.fact(marta, "Marta was a teacher", importance=3, status="SUPERSEDED", index=False)
    answer = await ask(resources, memory, "how are Marta's hospital night shifts?")
    assert [f.fact_id for f in answer.FACTS.relevant_facts] == [relevant]
    (card,) = answer.FACTS.entity_cards
    assert (card.entity_ref, card.label) == ("person:marta", "Marta")
    assert card.facts == [
        "Marta is my younger sister",
        "Marta has two kids",
        "Marta lives in Porto",
    ]


async def test_facts_and_cards_carry_confidence_and_ids_and_cards_leave_unverified_out(
    resources: Clients, memory: Memory
) -> None:
    """A relevant fact says how sure memory is; a card fact under UNVERIFIED_BELOW is no card
    fact (a card renders as authoritative GRAPH); each card fact comes with its id."""
    marta = await memory.entity("Marta", ref="person:marta")
    relevant = await memory.fact(marta, "Marta works night shifts at the hospital", confidence=0.5)
    sister = await memory.fact(marta, "Marta is my younger sister", importance=3, index=False)
    await memory.fact(marta, "Marta hates her boss", importance=3, confidence=0.4, index=False)
    answer = await ask(resources, memory, "how are Marta's hospital night shifts?")
    (fact,) = answer.FACTS.relevant_facts
    assert (fact.fact_id, fact.confidence) == (relevant, 0.5)
    (card,) = answer.FACTS.entity_cards
    assert (card.facts, card.fact_ids) == (["Marta is my younger sister"], [sister])


async def test_facts_carry_the_blended_score_and_their_provenance(
    resources: Clients, memory: Memory
) -> None:
    marta = await memory.entity("Marta")
    old = await memory.fact(
        marta, "Marta works at the hospital", updated_at=T0 - timedelta(days=60), message_ids=["m9"]
    )
    new = await memory.fact(marta, "Marta works at the clinic", updated_at=T0)
    facts = (await ask(resources, memory, "where does Marta work?")).FACTS.relevant_facts
    by_id = {f.fact_id: f for f in facts}
    assert by_id[new].score_details["recency"] == 1.0
    assert by_id[old].score_details["recency"] < 0.1
    assert by_id[old].provenance.message_ids == ["m9"]
    assert by_id[old].provenance.source == "llm_plan"


# --- continuity ---------------------------------------------------------------------------------


async def test_the_previous_sessions_unconsolidated_tail_appears_until_it_is_consolidated(
    resources: Clients, memory: Memory
) -> None:
    turns = [
        ("user", f"message {i}") if i % 2 == 0 else ("assistant", f"reply {i}") for i in range(14)
    ]
    session, message_ids = await memory.session("tg:1", turns, started_at=T0 - timedelta(hours=3))
    answer = await ask(resources, memory, "ok", force="closed")
    tail = answer.EPISODE.previous_session_tail
    assert [t.text for t in tail] == [text for _, text in turns[-10:]]
    assert [t.message_id for t in tail] == message_ids[-10:]
    assert tail[0].role == "user" and tail[-1].role == "assistant"
    await memory.checkpoint(session, message_ids[11])
    answer = await ask(resources, memory, "ok")
    assert [t.text for t in answer.EPISODE.previous_session_tail] == ["message 12", "reply 13"]
    await memory.checkpoint(session)
    assert (await ask(resources, memory, "ok")).EPISODE.previous_session_tail == []


async def test_the_current_active_session_is_not_the_previous_one(
    resources: Clients, memory: Memory
) -> None:
    await memory.session(
        "tg:1", [("user", "earlier today")], started_at=T0 - timedelta(hours=5), ended=True
    )
    await memory.session("tg:1", [("user", "just now")], started_at=T0 - timedelta(minutes=5))
    answer = await ask(resources, memory, "ok")
    assert [t.text for t in answer.EPISODE.previous_session_tail] == ["earlier today"]


async def test_another_chat_or_agent_has_its_own_previous_session(
    resources: Clients, memory: Memory
) -> None:
    await memory.session("tg:2", [("user", "other chat")], started_at=T0 - timedelta(hours=2))
    await memory.session(
        "tg:1",
        [("user", "other agent")],
        started_at=T0 - timedelta(hours=2),
        agent_id=memory.other_agent,
    )
    assert (await ask(resources, memory, "ok")).EPISODE.previous_session_tail == []


async def test_the_latest_session_summary_is_the_newest_episodes_summary(
    resources: Clients, memory: Memory
) -> None:
    await memory.episode("Old talk", "Observation: old.", ts=T0 - timedelta(days=3))
    await memory.episode(
        "Planned the Porto visit",
        "Observation: train booked.",
        ts=T0 - timedelta(days=1),
        what_mattered=["the train", "the cake"],
    )
    await memory.episode(
        "Other agent's talk",
        "Observation: x.",
        ts=T0 - timedelta(hours=1),
        agent_id=memory.other_agent,
    )
    await memory.episode("After now", "Observation: y.", ts=T0 + timedelta(hours=1))
    answer = await ask(resources, memory, "ok")
    assert answer.EPISODE.latest_session_summary == (
        "Planned the Porto visit — what mattered: the train; the cake"
    )


async def test_load_continuity_is_empty_for_a_new_user(resources: Clients, memory: Memory) -> None:
    async with resources.db.acquire() as conn:
        found = await continuity.load_continuity(
            conn,
            user_id=memory.user_id,
            agent_id=memory.agent,
            chat_id="tg:1",
            now=T0,
            idle_since=T0,
            tail_turns=10,
        )
    assert found == continuity.Continuity()


async def test_the_users_own_entity_neither_counts_as_frequent_nor_gets_a_card(
    resources: Clients, memory: Memory
) -> None:
    me = await memory.entity("me", ref="self:user")
    await memory.fact(me, "The user works night shifts as a nurse", memory_type="PROFILE")
    await memory.fact(
        me, "The user lives in Porto", memory_type="PROFILE", importance=3, index=False
    )
    facts = (await ask(resources, memory, "my night shifts are killing me")).FACTS
    assert [f.text for f in facts.relevant_facts] == ["The user works night shifts as a nurse"]
    assert facts.relevant_facts[0].score_details["frequency"] == 0.0
    assert facts.entity_cards == []


# --- recalled raw turns ------------------------------------------------------------------------


async def test_recalled_turns_are_this_agents_live_messages_of_this_user_with_their_date(
    resources: Clients, memory: Memory, memory_for, user_id: str
) -> None:
    past = T0 - timedelta(days=3)
    _, mine = await memory.session(
        "tg:1",
        [
            ("user", "We adopted a puppy yesterday, a beagle called Bolt"),
            ("assistant", "Congratulations on Bolt!"),
            ("user", "I also repainted the kitchen a pale green"),
            ("assistant", "Sounds fresh."),
        ],
        started_at=past,
        ended=True,
    )
    _, other_agents = await memory.session(
        "tg:2",
        [("user", "Our beagle Bolt chewed my shoes"), ("assistant", "Oh no")],
        started_at=past,
        ended=True,
        agent_id=memory.other_agent,
    )
    other = await memory_for(user_id + "-b", memory)
    _, theirs = await other.session(
        "tg:1",
        [("user", "My puppy is a beagle called Rex"), ("assistant", "Cute")],
        started_at=past,
        ended=True,
    )
    await memory.index_messages(mine + other_agents)
    await other.index_messages(theirs)
    answer = await ask(resources, memory, "what is the name of our beagle puppy?")
    turns = answer.EPISODE.turns
    assert turns and turns[0].message_id == mine[0]
    assert turns[0].ts == past and turns[0].role == "user"
    assert turns[0].provenance.message_ids == [mine[0]]
    recalled = {t.message_id for t in turns}
    assert recalled <= set(mine)  # never another agent's conversation, never another user's
    assert ("turn", mine[0]) == (answer.ranking[0].kind, answer.ranking[0].id)

    async with memory.db.acquire() as conn:  # forgotten in Postgres, still in the index
        await conn.execute(
            "UPDATE messages SET active = false, forgotten_at = now() WHERE message_id = $1",
            mine[0],
        )
    answer = await ask(resources, memory, "what is the name of our beagle puppy?")
    assert mine[0] not in {t.message_id for t in answer.EPISODE.turns}
    assert answer.debug.dropped["turns_not_live"] >= 1


async def test_a_turn_spoken_by_the_entity_the_message_names_ranks_first(
    resources: Clients, memory: Memory
) -> None:
    caroline = await memory.entity("Caroline", ref="person:caroline", aliases=["Caro"])
    _, ids = await memory.session(
        "tg:1",
        [
            ("user", "I went to a pottery class last week"),
            ("user", "I went to a pottery class last week too"),
        ],
        started_at=T0 - timedelta(days=2),
        ended=True,
    )
    async with memory.db.acquire() as conn:
        await conn.execute("UPDATE messages SET speaker = 'Melanie' WHERE message_id = $1", ids[0])
        await conn.execute("UPDATE messages SET speaker = 'caro' WHERE message_id = $1", ids[1])
    await memory.index_messages(ids)
    answer = await ask(resources, memory, "Which class did Caroline take?", entity_ids=[caroline])
    assert [t.message_id for t in answer.EPISODE.turns][:1] == [ids[1]]
    assert answer.EPISODE.turns[0].score_details["entity"] > 0


async def _puppy_session(memory: Memory, question: str, thanks: str) -> list[int]:
    """A past session: the assistant asks, the person names the puppy, the assistant answers."""
    _, ids = await memory.session(
        "tg:1",
        [
            ("assistant", question),
            ("user", "We named the puppy Bolt, after the movie"),
            ("assistant", thanks),
        ],
        started_at=T0 - timedelta(days=1),
        ended=True,
    )
    await memory.index_messages(ids)
    return ids


def _shown(turns: list[Any]) -> list[int]:
    """Every message the turns show, their context included, in order."""
    return [
        m for t in turns for m in ([t.context.message_id] if t.context else []) + [t.message_id]
    ]


async def test_a_recalled_turn_may_come_with_the_message_it_answers_shown_once(
    resources: Clients, memory: Memory
) -> None:
    ids = await _puppy_session(
        memory, "Any news about the new family member?", "Congratulations, enjoy the walks!"
    )
    plain = await ask(resources, memory, "what is the puppy's name?")
    assert all(t.context is None for t in plain.EPISODE.turns)
    answer = await ask(
        resources, memory, "what is the puppy's name?", limits={"turns": {"context": True}}
    )
    turns = answer.EPISODE.turns
    shown = _shown(turns)
    assert sorted(shown) == sorted(set(shown))  # no message twice
    assert set(shown) <= set(ids)
    with_context = next(t for t in turns if t.message_id == ids[1])
    assert with_context.context is not None and with_context.context.message_id == ids[0]
    assert with_context.provenance.message_ids == [ids[0], ids[1]]


async def test_a_recalled_question_is_not_shown_again_as_its_answers_context(
    resources: Clients, memory: Memory
) -> None:
    """The question that a recalled answer replied to may rank on its own (it shares the asked
    words); then the answer comes without it as context, so no message is shown twice."""
    ids = await _puppy_session(memory, "What did you name the puppy?", "Bolt is a great name")
    answer = await ask(
        resources, memory, "what is the puppy's name?", limits={"turns": {"context": True}}
    )
    shown = _shown(answer.EPISODE.turns)
    assert sorted(shown) == sorted(set(shown))  # no message twice
    assert ids[1] in shown and ids[0] in shown  # the answer, and the question it answers, once
