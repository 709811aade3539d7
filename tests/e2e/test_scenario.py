"""The product, end to end, in a real n8n: a person on Telegram tells the twin about their
sister; the commitment they make is captured and confirmed in the same turn; the session goes
quiet and the slow brain consolidates it; two days later the model sees Marta's facts, the
pending commitment and the previous episode; a second person's "Marta" never leaks into the
first person's memory; ``/forget Marta`` takes her out of the next envelope.

What reached the model is read from the stub LLM (every chat request it got) and from the
reply it echoes; what the nodes wrote, from the webhook's debug answer and the nodes themselves.
The test's clock: session 1 two days ago (Telegram's ``message.date``), session 2 now.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.e2e.stack import AGENT_ID, ONE_MODE, Stack, eventually
from tests.e2e.stub_llm import memory_seen

# A Telegram id of this run only (runs side by side share a Redis db, never a user).
ANA = {
    "id": random.randrange(10**8, 10**9),
    "is_bot": False,
    "first_name": "Ana",
    "language_code": "en",
}
ANA_ID = f"tg:{ANA['id']}"
NOW = datetime.now(UTC).replace(microsecond=0)
DAY1 = (NOW - timedelta(days=2)).replace(hour=9, minute=0, second=0)
_update_ids = itertools.count(700_001)
_message_ids = itertools.count(11)


def telegram_message(user: dict[str, Any], text: str, when: datetime) -> dict[str, Any]:
    """A Telegram ``Update`` as the Bot API posts it to a webhook."""
    message: dict[str, Any] = {
        "message_id": next(_message_ids),
        "from": user,
        "chat": {"id": user["id"], "first_name": user["first_name"], "type": "private"},
        "date": int(when.timestamp()),
        "text": text,
    }
    if text.startswith("/"):
        message["entities"] = [{"offset": 0, "length": len(text.split()[0]), "type": "bot_command"}]
    return {"update_id": next(_update_ids), "message": message}


def say(stack: Stack, user: dict[str, Any], text: str, when: datetime) -> str:
    """Send one Telegram message; return the text the bot sent back to that chat."""
    stack.users.add(f"tg:{user['id']}")
    before = len(stack.telegram.sent)
    answer = stack.telegram_update(telegram_message(user, text, when))
    assert answer.status_code == 200, answer.text
    try:
        sent = stack.telegram.wait_for_sent(before + 1, timeout=45)[before]
    except TimeoutError as exc:
        raise AssertionError(f"no reply to {text!r}: {exc}\n{stack.n8n.explain()}") from None
    assert str(sent["chat_id"]) == str(user["id"])
    return sent["shown"]


def chat(stack: Stack, user_id: str, text: str, when: datetime) -> dict[str, Any]:
    """One turn through the fast brain's webhook, with its debug answer."""
    stack.users.add(user_id)
    answer = stack.webhook(
        "twin/fast-brain",
        {
            "user_id": user_id,
            "agent_id": AGENT_ID,
            "chat_id": user_id,
            "text": text,
            "turn_id": f"web-{next(_update_ids)}",
            "now": when.isoformat(),
            "debug": True,
        },
    )
    assert answer.status_code == 200, f"{answer.status_code} {answer.text}\n{stack.n8n.explain()}"
    return answer.json()


def last_model_call(stack: Stack) -> dict[str, Any]:
    """The chat request the model got last: its messages, by role, and the memory it saw."""
    body = stack.llm.requests[-1]["body"]
    system = body["messages"][0]["content"]
    return {
        "body": body,
        "system": system,
        "seen": memory_seen(system),
        "authorization": stack.llm.requests[-1]["authorization"],
    }


def memory_text(seen: dict[str, list[str]]) -> str:
    """Every memory item the model saw (the data blocks of the system message), as one text."""
    return "\n".join(
        f"{section}: {item}"
        for section, items in seen.items()
        for item in items
        if section != "SESSION STATE"
    )


@pytest.fixture(scope="module")
def session_one(stack: Stack) -> dict[str, Any]:
    """Ana's first session, two days ago, then the slow brain's consolidation."""
    first_call = len(stack.llm.requests)
    first = say(stack, ANA, "my sister Marta lives in Lisbon", DAY1)
    second = say(stack, ANA, "remind me to call her Friday", DAY1 + timedelta(minutes=1))
    hydrate = stack.node(
        "graph-hydrator",
        "/v1/hydrate",
        {
            "user_id": ANA_ID,
            "agent_id": AGENT_ID,
            "chat_id": ANA_ID,
            "message": "",
            "now": (DAY1 + timedelta(minutes=2)).isoformat(),
        },
    )
    assert hydrate.status_code == 200, hydrate.text
    # The slow brain's schedule (every few seconds in this run) fires on the real clock and
    # finds session 1 quiet: two days have passed since it ended.
    eventually(lambda: _day_log(stack)["items"], 90, stack.n8n.explain)
    scheduled = [
        e
        for e in stack.n8n.executions()
        if e["workflow"] == "TwinSlowBrain001" and e["mode"] == "trigger"
    ]
    assert scheduled, stack.n8n.executions()[:5]
    consolidated = stack.webhook(
        "twin/slow-brain",
        {"user_id": ANA_ID, "now": (DAY1 + timedelta(hours=1)).isoformat()},
        timeout=120,
    )
    assert consolidated.status_code == 200, f"{consolidated.text}\n{stack.n8n.explain()}"
    return {
        "first_call": first_call,
        "first": first,
        "second": second,
        "graph": hydrate.json()["GRAPH"],
        "consolidated": consolidated.json(),
        "day_log": _day_log(stack),
    }


def _day_log(stack: Stack) -> dict[str, Any]:
    day_log = httpx.get(
        f"http://127.0.0.1:{stack.ports['reflection-writer']}/v1/day-log",
        params={"user_id": ANA_ID, "day": DAY1.date().isoformat(), "tz": "UTC"},
        headers={"Authorization": f"Bearer {stack.secrets.node_token}"},
    )
    assert day_log.status_code == 200, day_log.text
    return day_log.json()


def test_stack_is_up(stack: Stack) -> None:
    """Every workflow imported and published; the Telegram trigger registered its webhook with
    a secret; a forged Telegram secret and a webhook call without the webhook secret are refused."""
    assert stack.telegram_webhook["url"].startswith(stack.n8n.url)
    assert stack.telegram_webhook["secret_token"]
    assert "message" in stack.telegram_webhook["allowed_updates"]
    forged = httpx.post(
        stack.telegram_webhook["url"],
        timeout=10,
        json={"update_id": 1},
        headers={"X-Telegram-Bot-Api-Secret-Token": "forged"},
    )
    assert forged.status_code == 403
    anonymous = httpx.post(
        f"{stack.n8n.url}/webhook/twin/fast-brain", timeout=10, json={"user_id": "x", "text": "hi"}
    )
    assert anonymous.status_code == 403


def test_the_model_gets_the_envelope_and_the_key(session_one: dict[str, Any], stack: Stack) -> None:
    call = stack.llm.requests[session_one["first_call"]]
    body = call["body"]
    assert call["authorization"] == f"Bearer {stack.secrets.model_key}"
    assert body["model"] == "stub-model"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "twin_answer"
    assert [m["role"] for m in body["messages"]][0] == "system"
    assert body["messages"][-1] == {"role": "user", "content": "my sister Marta lives in Lisbon"}
    assert session_one["first"].startswith("Heard: my sister Marta lives in Lisbon")


def test_the_commitment_is_confirmed_in_the_same_turn(session_one: dict[str, Any]) -> None:
    reply = session_one["second"]
    assert "✓ Added" in reply and "commitments" in reply, reply
    assert re.search(r"call (Marta|her)", reply), reply
    commitments = [todo["text"] for todo in session_one["graph"]["commitments"]]
    assert any("call" in text for text in commitments), session_one["graph"]


def test_the_slow_brain_consolidates_the_quiet_session(session_one: dict[str, Any]) -> None:
    """Session 1 becomes episodes on its day, made by the schedule on the real clock. Its
    messages are two days old, so a sweep that fires between them finds the session already
    quiet and makes the first exchange an episode of its own: one episode or two, they cover
    all four turns once, in order."""
    episodes = sorted(session_one["day_log"]["items"], key=lambda e: e["first_message_seq"])
    assert 1 <= len(episodes) <= 2, json.dumps(session_one["day_log"])[:2000]
    for episode in episodes:
        assert episode["first_message_seq"] < episode["last_message_seq"]  # a user turn + reply
    for before, after in zip(episodes, episodes[1:], strict=False):
        assert before["last_message_seq"] < after["first_message_seq"]  # never a turn twice
    summaries = json.dumps([e["summary"] for e in episodes])
    assert "Marta" in summaries, summaries
    mine = [s for s in session_one["consolidated"]["sessions"] if s["user_id"] == ANA_ID]
    if mine:  # the webhook's sweep came after the last turn and did the rest
        assert mine[0]["status"] == "created" and mine[0]["reason"] == "quiet"


def test_session_two_reaches_the_model_with_marta_the_commitment_and_the_episode(
    session_one: dict[str, Any], stack: Stack
) -> None:
    reply = say(stack, ANA, "how is Marta doing?", NOW)
    call = last_model_call(stack)
    seen = call["seen"]
    memory = memory_text(seen)
    assert "Lisbon" in memory, json.dumps(seen, indent=1)
    assert any("call" in item for item in seen.get("COMMITMENTS (pending)", [])), json.dumps(
        seen, indent=1
    )
    episodes = seen.get("EPISODES", []) + seen.get("LATEST SESSION SUMMARY", [])
    assert episodes, json.dumps(seen, indent=1)
    assert "Lisbon" in reply and "COMMITMENTS" in reply  # the stub echoes what it saw


def test_another_users_marta_never_leaks(session_one: dict[str, Any], stack: Stack) -> None:
    """Bruno (through the webhook) has his own Marta in Porto: neither sees the other's."""
    bruno = stack.user("web:bruno")
    chat(stack, bruno, "my friend Marta lives in Porto", DAY1 + timedelta(hours=3))
    answer = chat(stack, bruno, "how is Marta doing?", NOW)
    system = answer["debug"]["messages"][0]["content"]
    seen_by_bruno = memory_text(memory_seen(system))
    assert "Porto" in seen_by_bruno
    assert "Lisbon" not in seen_by_bruno and "call" not in seen_by_bruno.lower(), seen_by_bruno
    assert answer["reply"].startswith("Heard: how is Marta doing?")
    say(stack, ANA, "how is Marta doing?", NOW + timedelta(minutes=1))
    ana = memory_text(last_model_call(stack)["seen"])
    assert "Lisbon" in ana and "Porto" not in ana


def test_forget_marta_removes_her_from_the_next_envelope(
    session_one: dict[str, Any], stack: Stack
) -> None:
    done = say(stack, ANA, "/forget Marta", NOW + timedelta(minutes=5))
    assert done.startswith("Done: I have forgotten Marta"), done
    say(stack, ANA, "how is Marta doing?", NOW + timedelta(minutes=6))
    seen = last_model_call(stack)["seen"]
    memory = memory_text(seen)
    # Marta, her aliases, every fact touching her, the commitment and the episode naming her
    # are gone; Lisbon the city may stay (it is not Marta).
    assert "Marta" not in memory, json.dumps(seen, indent=1)
    assert "lives in Lisbon" not in memory and "sister" not in memory, json.dumps(seen, indent=1)


def test_forgotten_marta_is_out_of_the_vector_index_too(
    session_one: dict[str, Any], stack: Stack
) -> None:
    """rag-gate forced open on her name finds no fact about her any more, and no episode of
    what was said before the forget. (The person asked "how is Marta doing?" again at minute 6;
    a consolidation that ran since may make an episode of that later turn: it is not forgotten.)"""
    answer = stack.node(
        "rag-gate",
        "/v1/retrieve",
        {
            "user_id": ANA_ID,
            "agent_id": AGENT_ID,
            "chat_id": ANA_ID,
            "message": "Marta my sister in Lisbon",
            "force": "open",
            "now": (NOW + timedelta(minutes=7)).isoformat(),
        },
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    forgot_at = NOW + timedelta(minutes=5)
    hits = [
        h["reflection"] + h["one_liner"]
        for h in body["EPISODE"]["hits"]
        if datetime.fromisoformat(h["ts"]) < forgot_at
    ]
    facts = [f["text"] for f in body["FACTS"]["relevant_facts"]]
    assert not [text for text in hits + facts if "Marta" in text], body


@ONE_MODE
def test_knowledge_ingested_through_n8n_reaches_the_model(stack: Stack) -> None:
    ingested = stack.webhook(
        "twin/knowledge",
        {
            "agent_id": AGENT_ID,
            "doc_id": "sleep-guide",
            "title": "Sleep guide",
            "text": "# Sleep guide\n\n## Caffeine\n\nNo caffeine after 2 pm: it keeps you awake "
            "for six hours.\n\n## Screens\n\nPut the phone away an hour before bed.\n",
        },
    )
    assert ingested.status_code == 200, f"{ingested.text}\n{stack.n8n.explain()}"
    assert ingested.json()["chunks"] >= 1
    answer = chat(
        stack,
        stack.user("web:carla"),
        "remember what you told me about caffeine?",
        NOW + timedelta(minutes=10),
    )
    seen = memory_seen(answer["debug"]["messages"][0]["content"])
    assert any("caffeine after 2 pm" in item for item in seen.get("KNOWLEDGE", [])), seen


@ONE_MODE
def test_an_ambiguous_name_is_asked_about_instead_of_guessed(stack: Stack) -> None:
    """Two Martas, told apart by talking on Telegram (the model declares the colleague a new
    person distinct from the sister): asked about one, the flow short-circuits to
    graph-hydrator's question; no reply model call, and what was said is still judged."""
    dora = {
        "id": random.randrange(10**8, 10**9),
        "is_bot": False,
        "first_name": "Dora",
        "language_code": "en",
    }
    dora_id = f"tg:{dora['id']}"
    say(stack, dora, "my sister Marta lives in Lisbon", NOW - timedelta(minutes=30))
    say(
        stack,
        dora,
        "my colleague Marta works with me, a different Marta from my sister Marta",
        NOW - timedelta(minutes=29),
    )
    calls = len(stack.llm.requests)
    answer = chat(stack, dora_id, "remind me to call Marta", NOW)
    question = answer["debug"]["pending_question"]
    assert question and len(question["candidates"]) == 2, answer
    assert answer["reply"].startswith(question["question"])
    assert "work Marta" in question["question"] and "family Marta" in question["question"]
    assert 'Added "Call Marta"' in answer["reply"]  # the reminder is kept, linked to nobody
    asked = [json.dumps(r) for r in stack.llm.requests[calls:]]
    assert all("memory_write_plan" in r for r in asked)  # only the shadow judge, no reply
    commit = answer["debug"]["commit"]
    assert commit["plan_source"] in ("llm_judge", "offline_extractor")  # the turn was judged
