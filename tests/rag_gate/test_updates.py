"""Knowledge updates among recalled turns: the newer statement on a topic goes first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.rag_gate.updates import WINDOW, Said, newer_first, same_topic

DAY0 = datetime(2024, 3, 1, tzinfo=UTC)


def said(day: int, *topic: int, who: str = "user") -> Said:
    return Said(DAY0 + timedelta(days=day), who, frozenset(topic))


def test_a_newer_turn_on_the_same_topic_goes_right_before_the_older_one() -> None:
    turns = {
        "old": said(1, 1, 2, 3),  # "the deadline of sprint one is April 19"
        "other": said(5, 7, 8),
        "new": said(9, 1, 2),  # "the sprint one deadline moved to May 3"
    }
    order, superseded = newer_first(["old", "other", "new"], turns)
    assert order == ["new", "old", "other"]
    assert superseded == {"old": 1}


def test_turns_sharing_too_little_of_the_question_keep_their_order() -> None:
    turns = {"old": said(1, 1, 2, 3, 4, 5), "new": said(9, 1)}
    assert newer_first(["old", "new"], turns) == (["old", "new"], {})
    # two shared terms, but not half of the smaller one's five
    assert not same_topic(said(1, 1, 2, 3, 4, 5, 6), said(2, 1, 2, 7, 8, 9))


def test_another_speakers_turn_never_supersedes() -> None:
    turns = {"old": said(1, 1, 2), "new": said(9, 1, 2, who="assistant")}
    assert newer_first(["old", "new"], turns) == (["old", "new"], {})
    turns = {"old": said(1, 1, 2, who="Caroline"), "new": said(9, 1, 2, who="Melanie")}
    assert newer_first(["old", "new"], turns) == (["old", "new"], {})


def test_only_the_first_window_is_reordered() -> None:
    ids = [f"t{i}" for i in range(WINDOW + 1)]
    turns = {i: said(0, 10 + n) for n, i in enumerate(ids)}
    turns[ids[0]] = said(1, 1, 2)
    turns[ids[-1]] = said(9, 1, 2)  # past the window: not compared
    assert newer_first(ids, turns) == (ids, {})


def test_three_statements_on_one_topic_end_newest_first() -> None:
    turns = {"a": said(1, 1, 2), "b": said(2, 1, 2), "c": said(3, 1, 2)}
    order, superseded = newer_first(["a", "b", "c"], turns)
    assert order == ["c", "b", "a"]
    assert superseded == {"b": 1, "a": 1}
