"""A coach's own notes, as a person meets them through ``/v1/turn`` + ``/v1/commit``: the plan
facts a persona writes with ``scope: "agent"`` (and its todos) are in that persona's prompt on
every later turn, whatever the message names, and never in another persona's."""

from __future__ import annotations

from tests.chain.test_people_by_turn import Person, fact

PLAN = {
    "facts": [
        fact("user", "training_plan", "User runs Monday, Wednesday and Friday mornings",
             value="runs Monday, Wednesday and Friday mornings", scope="agent", importance=2),
        fact("user", "goal", "User is training for a 10k in May", value="a 10k in May",
             scope="agent"),
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Do the long run on Sunday"}],
}  # fmt: skip


def system(one: dict) -> str:
    (text,) = [m["content"] for m in one["envelope"]["messages"] if m["role"] == "system"]
    return str(text)


async def test_a_coachs_own_notes_are_in_its_own_prompt_and_never_in_anothers(nodes) -> None:
    me = Person(nodes)
    me.ids["agent_id"] = "coach"
    _, commit = await me.says(
        "ok coach: i'll do runs monday wednesday and friday mornings, training for a 10k in may. "
        "and i'll do the long run on sunday",
        PLAN,
    )
    assert [f["outcome"] for f in commit["facts"]] == ["created", "created"]
    assert [f["scope"] for f in commit["facts"]] == ["agent", "agent"]

    for said in ("morning!", "what should i eat before a run?", "ugh tired today"):
        later, _ = await me.says(said, {"facts": []}, minutes=60 * 20)
        prompt = system(later)
        assert "User runs Monday, Wednesday and Friday mornings" in prompt, said
        assert "User is training for a 10k in May" in prompt, said
        assert "Do the long run on Sunday" in prompt, said

    me.ids["agent_id"], me.ids["chat_id"] = "deanna", "tg-other"
    other, _ = await me.says("what do you know about my running?", {"facts": []})
    assert "Monday, Wednesday and Friday" not in str(other)
    assert "10k" not in str(other) and "long run" not in str(other)


async def test_a_tutors_plan_written_in_its_own_reply_is_its_note(nodes) -> None:
    """The persona's own note rests on its own reply too (the person only agreed); a fact of
    the person's own that only the reply says is still not theirs."""
    me = Person(nodes)
    me.ids["agent_id"] = "lena"
    plan = {
        "facts": [
            fact("user", "lesson_plan", "Lena's plan: Wednesday Schreiben and Sprechen, Friday "
                 "Lesen and Hören", value="Wednesday Schreiben + Sprechen, Friday Lesen + Hören",
                 scope="agent"),
            fact("user", "studies", "User studies Schreiben on Wednesdays", value="Schreiben"),
        ]
    }  # fmt: skip
    reply = (
        "Super! Plan: Wednesday evenings Schreiben und Sprechen, Friday evenings Lesen und "
        "Hören, and a short writing task at the weekend."
    )
    _, commit = await me.says("ok lena sounds good 👍", plan, reply=reply)
    assert [(f["scope"], f["outcome"]) for f in commit["facts"]] == [("agent", "created")]
    later, _ = await me.says("hallo! ready for today", {"facts": []}, minutes=60 * 24)
    assert "Wednesday Schreiben and Sprechen" in system(later)
