"""Record a model-in-the-loop conversation: someone plays the product's model, turn by turn.

Against running nodes (``TWIN_PORT_OFFSET=700 uv run twin up``), for one fixture of
``tests/fixtures/model_loop`` and one style:

``python -m bench.model_loop.record start FIXTURE --style careful``
    a fresh person; the turns that already hold an answer of this style are replayed (so a
    recording resumes where it stopped), then the first turn without one goes to ``/v1/turn``
    and its exact ``messages`` + ``response_format`` are written to
    ``bench/out/model_loop/<conv>-<style>/turn-<i>.prompt.json`` (and ``.txt``, to read).
``python -m bench.model_loop.record answer FIXTURE --style careful --labels fair,invented``
    the answer written to ``turn-<i>.answer`` is committed as ``fast-brain.json`` commits it
    (``POST /v1/commit`` with ``answer`` = the raw text), stored in the fixture with one label
    per plan fact, and the next turn's prompt is written. ``--complete`` first adds the fields
    strict ``json_schema`` decoding would have written (``null``, ``[]``, ``false``) where the
    answer left them out, in the schema's order; it never invents a value.

``--style careful-v2|sloppy-v2`` records answers written to prompts that show handles
(contracts 1.5): each handle the answer names is stored with the text of the line it named
(``handles``), which the replay translates to its own rows (:mod:`.handles`).

When ``/v1/turn`` answers ``question``, the flow's own answer (the question as the reply) is
committed and recorded with no labels, as the replay does. ``from-locomo`` writes a fixture's
turns from LoCoMo (speaker A or B as the person, each session's date as the turn's time).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from bench.common import NODE_PORTS, OUT
from bench.model_loop.handles import graph_handles, recorded
from bench.model_loop.replay import (
    ALL_STYLES,
    FIXTURES,
    ask,
    commit,
    plan_facts,
    play_turn,
    question_answer,
)

SCRATCH = OUT / "model_loop"
LABELS = ("fair", "invented")


def _fixture(name: str) -> Path:
    path = Path(name)
    return path if path.exists() else FIXTURES / f"{name.removesuffix('.json')}.json"


def _save(path: Path, conv: dict[str, Any]) -> None:
    path.write_text(json.dumps(conv, indent=1, ensure_ascii=False) + "\n")


def _folder(conv: dict[str, Any], style: str) -> Path:
    folder = SCRATCH / f"{conv['id']}-{style}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- the strict decoder's blanks -------------------------------------------------------------


def _blank(schema: dict[str, Any]) -> Any:
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "array" in kinds:
        return []
    if "null" in kinds or any(o.get("type") == "null" for o in schema.get("anyOf", [])):
        return None
    if "boolean" in kinds:
        return False
    raise ValueError(f"a required field with no blank value was left out: {schema}")


def complete(value: Any, schema: dict[str, Any]) -> Any:
    """``value`` with every required field the answer left out set to its blank, in schema
    order (what strict decoding writes); a field with no blank (an enum, a number) raises."""
    if isinstance(value, dict) and "properties" in schema:
        props: dict[str, Any] = schema["properties"]
        unknown = set(value) - set(props)
        if unknown:
            raise ValueError(f"fields the schema does not have: {sorted(unknown)}")
        return {
            key: complete(value[key], sub) if key in value else _blank(sub)
            for key, sub in props.items()
        }
    if isinstance(value, list) and "items" in schema:
        return [complete(item, schema["items"]) for item in value]
    return value


# --- one turn ----------------------------------------------------------------------------------


def _render(turn: dict[str, Any], one: dict[str, Any]) -> str:
    envelope = one["envelope"]
    parts = [f"# turn {turn['i']} at {turn['at']} ({turn['agent']}, {turn['chat']})", ""]
    for message in envelope["messages"]:
        parts += [f"===== {message['role']} =====", message["content"], ""]
    parts += ["===== envelope warnings / stats =====", json.dumps(envelope["warnings"])]
    parts += [json.dumps(envelope["stats"]), "", "===== response_format ====="]
    parts.append(json.dumps(envelope["response_format"], indent=1, ensure_ascii=False))
    return "\n".join(parts)


def _summary(result: Any, said: dict[str, Any] | None) -> str:
    lines = [f"commit {result.status} next={result.next} reply_stored={result.reply_stored}"]
    if said is None:
        return "\n".join([*lines, f"  REFUSED: {result.detail}"])
    for fact in said.get("facts", []):
        lines.append(f"  fact {fact.get('outcome')}: [{fact.get('predicate')}] {fact['text']}")
    for todo in said.get("todos", []):
        lines.append(f"  todo {todo.get('outcome')}: [{todo.get('kind')}] {todo.get('text')}")
    lines += [f"  warning {w}" for w in result.warnings]
    return "\n".join(lines)


class Recording:
    """One conversation in one style, its state kept in the scratch folder between calls."""

    def __init__(self, fixture: Path, style: str, offset: int) -> None:
        self.path, self.style = fixture, style
        self.conv: dict[str, Any] = json.loads(fixture.read_text())
        self.folder = _folder(self.conv, style)
        self.state_file = self.folder / "state.json"
        base = "http://127.0.0.1:{}"
        self.gate = httpx.AsyncClient(
            base_url=base.format(NODE_PORTS["rag-gate"] + offset), timeout=60
        )
        self.memory = httpx.AsyncClient(
            base_url=base.format(NODE_PORTS["memory-upserter"] + offset), timeout=60
        )

    def _store(
        self, turn: dict[str, Any], raw: str, labels: list[str], handles: dict[str, str]
    ) -> None:
        answer: dict[str, Any] = {"raw": raw, "labels": labels}
        if handles:  # the text each named handle showed: the replay translates it (handles.py)
            answer["handles"] = handles
        turn.setdefault("answers", {})[self.style] = answer
        _save(self.path, self.conv)

    async def start(self) -> None:
        user_id = f"rec-{self.conv['id']}-{self.style}-{uuid.uuid4().hex[:6]}"
        for turn in self.conv["turns"]:
            done = turn.get("answers", {}).get(self.style)
            if done is None:
                await self.prompt(user_id, turn["i"])
                return
            result, _, said = await play_turn(
                self.gate, self.memory, self.conv, turn, user_id, done["raw"], done.get("handles")
            )
            print(f"replayed #{turn['i']}: {_summary(result, said)}")
        print("every turn of this style is recorded")

    async def prompt(self, user_id: str, index: int) -> None:
        """Ask ``/v1/turn`` for turn ``index``; a question is committed at once."""
        while index < len(self.conv["turns"]):
            turn = self.conv["turns"][index]
            one = await ask(self.gate, self.conv, turn, user_id)
            if one["next"] != "question":
                name = self.folder / f"turn-{index}.prompt.txt"
                envelope = one["envelope"]
                exact = {k: envelope[k] for k in ("messages", "response_format")}
                name.with_suffix(".json").write_text(json.dumps(exact, ensure_ascii=False))
                name.write_text(_render(turn, one))
                state = {"user_id": user_id, "turn": index, "one": one}
                self.state_file.write_text(json.dumps(state))
                print(f"turn {index} ({one['next']}): read {name}")
                print(f"  user: {turn['user']}")
                return
            raw = question_answer(one)
            result, said = await commit(self.memory, self.conv, turn, user_id, one, raw)
            self._store(turn, raw, [], {})
            print(f"turn {index} asked a question, committed: {_summary(result, said)}")
            index += 1
        self.state_file.unlink(missing_ok=True)
        print("every turn of this style is recorded")

    async def answer(self, labels: list[str], fill: bool) -> None:
        state = json.loads(self.state_file.read_text())
        turn, one = self.conv["turns"][state["turn"]], state["one"]
        raw = (self.folder / f"turn-{turn['i']}.answer").read_text().strip()
        if fill:
            schema = one["envelope"]["response_format"]["json_schema"]["schema"]
            raw = json.dumps(complete(json.loads(raw), schema), ensure_ascii=False)
        facts = plan_facts(raw) or []
        if len(facts) != len(labels) or not set(labels) <= set(LABELS):
            raise SystemExit(f"{len(facts)} plan facts need as many labels of {LABELS}: {labels}")
        result, said = await commit(self.memory, self.conv, turn, state["user_id"], one, raw)
        saved = self.folder / f"turn-{turn['i']}.commit.json"
        saved.write_text(json.dumps(said or result.detail))
        self._store(turn, raw, labels, recorded(raw, graph_handles(one["envelope"]["messages"])))
        print(_summary(result, said))
        await self.prompt(state["user_id"], turn["i"] + 1)

    async def close(self) -> None:
        await self.gate.aclose()
        await self.memory.aclose()


# --- LoCoMo turns ------------------------------------------------------------------------------


def locomo_turns(sample: dict, dia_ids: list[str], agent: str, chat: str, speaker: str) -> list:
    """The chosen turns of ``speaker`` (A or B) at their session's date, two minutes apart in a
    session (LoCoMo dates sessions, not turns); a shared photo's caption is appended to a turn."""
    talk = sample["conversation"]
    turns: list[dict[str, Any]] = []
    for n, dia_id in enumerate(dia_ids):
        session = dia_id.split(":")[0].removeprefix("D")
        said = next(t for t in talk[f"session_{session}"] if t["dia_id"] == dia_id)
        if said["speaker"] != talk[f"speaker_{speaker.lower()}"]:
            raise SystemExit(f"{dia_id} is {said['speaker']}'s, not speaker {speaker}'s")
        at = datetime.strptime(talk[f"session_{session}_date_time"], "%I:%M %p on %d %B, %Y")
        at += timedelta(minutes=2 * sum(t["session"] == session for t in turns))
        text = said["text"].strip()
        if caption := said.get("blip_caption"):
            text += f" [shares a photo: {caption}]"
        turns.append(
            {
                "i": n,
                "at": f"{at.isoformat()}+00:00",
                "agent": agent,
                "chat": chat,
                "user": text,
                "locomo": dia_id,
                "session": session,
                "answers": {},
            }
        )
    return turns


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", choices=("start", "answer", "from-locomo"))
    parser.add_argument("fixture")
    parser.add_argument("--style", choices=ALL_STYLES)
    parser.add_argument("--labels", default="", help="one per plan fact: fair or invented")
    parser.add_argument("--complete", action="store_true", help="add strict decoding's blanks")
    parser.add_argument("--offset", type=int, default=int(os.environ.get("TWIN_PORT_OFFSET", "0")))
    parser.add_argument("--locomo", help="locomo-dev.json (from-locomo)")
    parser.add_argument("--sample", help="the LoCoMo sample_id (from-locomo)")
    parser.add_argument("--turns", help="comma-separated dia_ids of the speaker (from-locomo)")
    parser.add_argument("--speaker", choices=("A", "B"), default="A", help="(from-locomo)")
    parser.add_argument("--agent", default="twin", help="the persona the turns go to (from-locomo)")
    return parser.parse_args()


def from_locomo(path: Path, args: argparse.Namespace) -> None:
    sample = next(
        s for s in json.loads(Path(args.locomo).read_text()) if s["sample_id"] == args.sample
    )
    conv = json.loads(path.read_text())
    chat = f"locomo-{args.sample}"
    conv["turns"] = locomo_turns(sample, args.turns.split(","), args.agent, chat, args.speaker)
    for turn in conv["turns"]:
        del turn["session"]
    _save(path, conv)


async def record(path: Path, args: argparse.Namespace) -> None:
    recording = Recording(path, args.style, args.offset)
    try:
        if args.command == "start":
            await recording.start()
        else:
            await recording.answer([x for x in args.labels.split(",") if x], args.complete)
    finally:
        await recording.close()


def main() -> None:
    args = _args()
    path = _fixture(args.fixture)
    if args.command == "from-locomo":
        from_locomo(path, args)
    else:
        asyncio.run(record(path, args))


if __name__ == "__main__":
    main()
