"""One team at a time (issue 27, the kind the blind v4 set showed: "so im on the ml platform
team now, moved today" left the payments team current beside it)."""

from __future__ import annotations

from services.core.memory_store.keys import memory_key


def _key(value: str) -> str:
    return memory_key(
        memory_type="PROJECT", category="Person", subject_ref="self", fact_type="fact",
        predicate="team", value=value,
    )  # fmt: skip


def test_a_new_team_shares_the_old_team_s_key() -> None:
    assert _key("payments team") == _key("ML platform team")
