"""Twin Core inside n8n's AI Agent: the community package n8n-nodes-twin-core, installed into
a real n8n, behind "Telegram Trigger → AI Agent (OpenAI Chat Model → stub) with Twin Core
Memory + Recall From Twin Core → Telegram send".

What reached the model is read from the agent stub's requests and the reply it echoes; how many
Twin Core calls one execution cost, from the nodes' request log (X-Request-Id).
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.e2e.agent_llm import message_text
from tests.e2e.agent_stack import ACTIONS, MEMORY_NODE, AgentStack
from tests.e2e.stack import ONE_MODE
from tests.e2e.stub_llm import memory_seen
from tests.e2e.test_scenario import telegram_message

NOW = datetime.now(UTC).replace(microsecond=0)
DAY1 = (NOW - timedelta(days=2)).replace(hour=9, minute=0, second=0)
FAST_BRAIN = ("pulse", "hydrate", "retrieve", "envelope")


def person(name: str) -> dict[str, Any]:
    """A Telegram user of this run only (runs side by side share a Redis db, never a user)."""
    return {
        "id": random.randrange(10**8, 10**9),
        "is_bot": False,
        "first_name": name,
        "language_code": "en",
    }


def talk(agent: AgentStack, persona: str, user: dict[str, Any], text: str, when: datetime) -> str:
    agent.stack.users.add(f"tg:{user['id']}")
    return agent.say(persona, telegram_message(user, text, when))


def memory_block(request: dict[str, Any]) -> dict[str, list[str]]:
    """The memory sections the model saw in one chat request (all its system messages)."""
    system = "\n".join(
        message_text(m["content"]) for m in request["messages"] if m["role"] == "system"
    )
    return memory_seen(system)


def flat(seen: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{k}: {v}" for k, items in seen.items() for v in items if k != "SESSION STATE"
    )


@pytest.fixture(scope="module")
def ana_day1(agent_stack: AgentStack) -> dict[str, Any]:
    """Ana's first session with deanna, two days ago: a fact, then a commitment."""
    ana = person("Ana")
    first = talk(agent_stack, "deanna", ana, "my sister Marta lives in Lisbon", DAY1)
    second = talk(
        agent_stack, "deanna", ana, "remind me to call Marta Friday", DAY1 + timedelta(minutes=1)
    )
    second_request = agent_stack.llm.requests[-1]
    return {"ana": ana, "first": first, "second": second, "second_request": second_request}


def test_the_agent_answers_with_memory_and_recent_turns(ana_day1: dict[str, Any]) -> None:
    """Same session: the model gets Twin Core's memory block as a system message and the
    previous turn replayed as history, and answers in plain text (no JSON answer format)."""
    request = ana_day1["second_request"]
    roles = [m["role"] for m in request["messages"]]
    assert roles[0] == "system" and roles.count("system") == 2, roles  # agent's + Twin Core's
    twin = next(
        message_text(m["content"]) for m in request["messages"][1:] if m["role"] == "system"
    )
    assert "[AUTHORITY RULES]" in twin and "Answer the user in plain text" in twin
    assert '"twin_answer"' not in twin
    history = [
        (m["role"], message_text(m["content"]))
        for m in request["messages"]
        if m["role"] != "system"
    ]
    assert history[0] == ("user", "my sister Marta lives in Lisbon"), history
    assert history[1][0] == "assistant" and history[1][1].startswith("Heard: my sister Marta")
    assert history[-1] == ("user", "remind me to call Marta Friday")
    assert ana_day1["second"].startswith("Heard: remind me to call Marta Friday")


def test_it_remembers_across_sessions(ana_day1: dict[str, Any], agent_stack: AgentStack) -> None:
    """Two days later (a new session): Marta's city and the commitment reach the model
    although the message names neither."""
    reply = talk(agent_stack, "deanna", ana_day1["ana"], "how is my sister doing?", NOW)
    request = agent_stack.llm.requests[-1]
    seen = memory_block(request)
    assert "Lisbon" in flat(seen), json.dumps(seen, indent=1)
    assert any("call marta" in item.lower() for item in seen.get("COMMITMENTS (pending)", [])), seen
    assert reply.startswith("Heard: how is my sister doing?") and "Lisbon" in reply, reply


@ONE_MODE
def test_two_personas_share_the_person_and_keep_their_own_commitments(
    ana_day1: dict[str, Any], agent_stack: AgentStack
) -> None:
    """coach meets Ana for the first time: it knows her sister lives in Lisbon (the person's
    facts are shared), but not deanna's commitment; coach's own commitment stays with coach."""
    ana = ana_day1["ana"]
    talk(agent_stack, "coach", ana, "how is Marta doing?", NOW + timedelta(minutes=1))
    coach = memory_block(agent_stack.llm.requests[-1])
    assert "Lisbon" in flat(coach), json.dumps(coach, indent=1)
    assert "call marta" not in flat(coach).lower(), json.dumps(coach, indent=1)
    talk(
        agent_stack, "coach", ana, "remind me to stretch every morning", NOW + timedelta(minutes=2)
    )
    talk(agent_stack, "deanna", ana, "how is Marta doing?", NOW + timedelta(minutes=3))
    deanna = memory_block(agent_stack.llm.requests[-1])
    assert any("call marta" in c.lower() for c in deanna.get("COMMITMENTS (pending)", [])), deanna
    assert "stretch" not in flat(deanna), json.dumps(deanna, indent=1)


@ONE_MODE
def test_memory_load_is_one_fast_brain_round_however_long_the_history(
    ana_day1: dict[str, Any], agent_stack: AgentStack
) -> None:
    """After several turns in one session, one execution loads the memory in one call (rag-gate's
    /v1/turn: the four fast-brain steps in the server) and commits once; the output panel shows
    why each memory was recalled."""
    bruno = person("Bruno")
    for minute, text in enumerate(
        [
            "my brother Luis lives in Porto",
            "I love hiking",
            "I am working on a garden shed",
            "how is Luis doing?",
        ]
    ):
        talk(agent_stack, "deanna", bruno, text, NOW + timedelta(minutes=10 + minute))
    last = agent_stack.llm.requests[-1]["messages"][-1]
    assert message_text(last["content"]) == "how is Luis doing?"
    history = [m for m in agent_stack.llm.requests[-1]["messages"] if m["role"] != "system"]
    assert len(history) == 7  # three earlier turns replayed, then the message
    execution = agent_stack.last_execution()
    memory = MEMORY_NODE.replace(" ", "_")
    # Only this node's calls: the slow-brain workflow of another n8n on the same stack may run
    # an execution with the same id (each n8n counts its own) during the test.
    calls = {
        route: count
        for route, count in agent_stack.memory_calls(execution["id"]).items()
        if route.startswith(f"{memory}-")
    }
    assert calls == {f"{memory}-turn /v1/turn": 1, f"{memory}-commit /v1/commit": 1}, calls
    panel = [
        item["json"]
        for run in execution["runs"][MEMORY_NODE]
        for out in (run.get("data") or {}).get("ai_memory", [])
        for item in out or []
    ]
    recall = next(entry for entry in panel if entry.get("action") == "twinCoreRecall")
    porto = [r for r in recall["recalled"] if "Porto" in r["text"]]
    assert porto and porto[0]["messageIds"], json.dumps(recall, indent=1)[:3000]
    assert recall["degraded"] == [], recall
    print(f"\n[e2e] agent memory load, ms: {json.dumps(recall['timings_ms'])}")
    commit = next(entry for entry in panel if entry.get("action") == "twinCoreCommit")
    assert commit["plan_source"] in ("offline_extractor", "llm_judge"), commit


@ONE_MODE
def test_the_recall_tool_finds_dated_memories_and_the_turn_keeps_the_call(
    ana_day1: dict[str, Any], agent_stack: AgentStack
) -> None:
    """ "What do you remember about Marta?": the agent calls Recall From Twin Core, gets the
    dated turn with its provenance, and answers; the memory still loaded once in that
    execution (n8n runs the agent again after the tool); the next turn replays the tool call
    paired with its result."""
    ana = ana_day1["ana"]
    reply = talk(
        agent_stack, "deanna", ana, "what do you remember about Marta?", NOW + timedelta(minutes=30)
    )
    assert reply.startswith("Recalled:") and "Lisbon" in reply, reply
    execution = agent_stack.last_execution()
    calls = agent_stack.memory_calls(execution["id"])
    memory = MEMORY_NODE.replace(" ", "_")
    assert calls[f"{memory}-turn /v1/turn"] == 1, calls
    steps = [f"{memory}-{step} /v1/{step}" for step in FAST_BRAIN]
    assert not [route for route in calls if route in steps], calls
    assert calls[f"{memory}-commit /v1/commit"] == 1, calls
    assert sum(n for route, n in calls.items() if "recall" in route) == 1, calls
    talk(agent_stack, "deanna", ana, "thanks!", NOW + timedelta(minutes=31))
    replayed = [
        message_text(m["content"])
        for m in agent_stack.llm.requests[-1]["messages"]
        if m["role"] == "assistant"
    ]
    tools = [text for text in replayed if text.startswith("[tools used]")]
    assert tools and "Lisbon" in tools[-1] and "Marta" in tools[-1], replayed


@ONE_MODE
def test_twin_core_down_the_agent_still_answers(agent_stack: AgentStack) -> None:
    """The offline persona's credential points where nothing listens: the memory fails open
    and the person still gets an answer, with the failure shown in the output panel."""
    carla = person("Carla")
    reply = talk(agent_stack, "offline", carla, "hello there", NOW)
    assert reply.startswith("Heard: hello there"), reply
    assert memory_block(agent_stack.llm.requests[-1]) == {}
    execution = agent_stack.last_execution()
    panel = [
        item["json"]
        for run in execution["runs"][MEMORY_NODE]
        for out in (run.get("data") or {}).get("ai_memory", [])
        for item in out or []
    ]
    recall = next(entry for entry in panel if entry.get("action") == "twinCoreRecall")
    assert recall["degraded"] and recall["degraded"][0].startswith("pulse:"), recall


@ONE_MODE
def test_twin_core_slow_the_agent_answers_with_the_recent_turns(agent_stack: AgentStack) -> None:
    """The slow persona's rag-gate and envelope-validator hang: the one call gives up at its
    share of the budget, the node-by-node load stops at the budget after pulse and hydrate, and
    the agent still answers, with working memory's recent turns replayed (by whole turns)."""
    eva = person("Eva")
    talk(agent_stack, "slow", eva, "my sister Ines lives in Braga", NOW)
    reply = talk(agent_stack, "slow", eva, "and she loves tea", NOW + timedelta(minutes=1))
    assert reply.startswith("Heard: and she loves tea"), reply
    request = agent_stack.llm.requests[-1]
    assert memory_block(request) == {}
    history = [
        (m["role"], message_text(m["content"]))
        for m in request["messages"]
        if m["role"] != "system"
    ]
    assert history[0] == ("user", "my sister Ines lives in Braga"), history
    assert history[-1] == ("user", "and she loves tea")
    execution = agent_stack.last_execution()
    panel = [
        item["json"]
        for run in execution["runs"][MEMORY_NODE]
        for out in (run.get("data") or {}).get("ai_memory", [])
        for item in out or []
    ]
    recall = next(entry for entry in panel if entry.get("action") == "twinCoreRecall")
    assert [d.split(":")[0] for d in recall["degraded"]] == ["retrieve", "envelope"], recall
    assert recall["history_lines"] == 2, recall


@ONE_MODE
def test_the_action_node_forgets_and_the_agent_no_longer_recalls(agent_stack: AgentStack) -> None:
    """The Twin Core action node (Memory → Export, Memory → Forget, typed fields) in
    hand-built flows: Dora's export holds her brother; once he is forgotten, the agent's next
    memory load no longer carries him."""
    dora = person("Dora")
    talk(agent_stack, "deanna", dora, "my brother Teo lives in Madrid", NOW)
    exported = httpx.post(
        f"{agent_stack.n8n.url}/webhook/{ACTIONS['export']}",
        timeout=60,
        json={"user_id": f"tg:{dora['id']}"},
    )
    assert exported.status_code == 200, f"{exported.text}\n{agent_stack.n8n.explain()}"
    assert "my brother Teo lives in Madrid" in json.dumps(exported.json()["tables"]), exported.text[
        :2000
    ]
    answer = httpx.post(
        f"{agent_stack.n8n.url}/webhook/{ACTIONS['forget']}",
        timeout=60,
        json={"user_id": f"tg:{dora['id']}", "entity": "Teo"},
    )
    assert answer.status_code == 200, f"{answer.text}\n{agent_stack.n8n.explain()}"
    assert answer.json()["entity_ids"] and sum(answer.json()["counts"].values()) > 0, answer.json()
    talk(agent_stack, "deanna", dora, "how is Teo doing?", NOW + timedelta(minutes=1))
    seen = flat(memory_block(agent_stack.llm.requests[-1]))
    # Teo, every fact touching him and the message naming him are gone (Madrid the city may
    # stay: it is not Teo).
    assert "Teo" not in seen and "lives in Madrid" not in seen and "brother" not in seen, seen
