"""``bench/slowbrain``'s scoring (pure): labels read from markdown, outputs matched by exact text,
an unlabelled output counted apart, people recall over the sessions that name them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bench.slowbrain.score import Labels, score
from bench.slowbrain.sessions import Session
from services.reflection_writer import engine_offline
from services.reflection_writer.model import Message

TS = datetime(2023, 5, 8, tzinfo=UTC)
SAID = [
    ("user", "Hey Mel! I lost my job in May, so I started my own bakery."),
    ("assistant", "Wow!"),
    ("user", "My friend Jo helped me paint it."),
]


def test_scores_match_labels_by_exact_text_and_count_the_unlabelled(tmp_path: Path) -> None:
    session = Session(
        "conv-x",
        1,
        "Ann",
        "Mel",
        [Message(f"D1:{i}", i, role, text, TS) for i, (role, text) in enumerate(SAID, 1)],
    )
    labels = tmp_path / "labels.md"
    labels.write_text(
        "# prose | is | ignored\n"
        "person | conv-x | yes | Jo\n"
        "person | conv-x | yes | Tom\n"
        "evidence | conv-x:S1 | yes | I lost my job in May, so I started my own bakery.\n"
    )
    draft = engine_offline.draft(session.messages)
    report = score([(session, draft)], Labels.read(labels), "dev")
    assert report.tallies["person"].yes == 1 and (report.people_found, report.people_gold) == (1, 1)
    assert report.tallies["evidence"].rate() == "1.00 (1/1)"
    assert report.unlabelled == [f"one-liner | conv-x:S1 | ? | {draft.summary.one_liner}"]
