"""Shared helpers of the benchmarks (bench/common.py)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from bench.common import count_tokens, cpu_seconds, percentile, table, write_section


def test_count_tokens_is_whitespace_words() -> None:
    assert count_tokens("") == 0
    assert count_tokens("  one two\tthree\nfour ") == 4
    assert count_tokens("[1:56 pm on 8 May, 2023] Caroline: hi!") == 8


def test_percentile_interpolates_between_ranks() -> None:
    samples = [4.0, 1.0, 3.0, 2.0]
    assert percentile(samples, 0) == 1.0
    assert percentile(samples, 100) == 4.0
    assert percentile(samples, 50) == pytest.approx(2.5)
    assert percentile([7.0], 95) == 7.0
    assert math.isnan(percentile([], 50))


def test_write_section_replaces_only_its_own_block(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    path.write_text("# Results\n\nintro\n")
    write_section("recall", "first", path)
    write_section("load", "load figures", path)
    write_section("recall", "second", path)
    text = path.read_text()
    assert "first" not in text and "second" in text and "load figures" in text
    assert text.index("intro") < text.index("second") < text.index("load figures")
    assert text.count("<!-- recall:begin -->") == 1


def test_table_renders_markdown() -> None:
    assert table(["a", "b"], [[1, "x"]]) == "| a | b |\n|---|---|\n| 1 | x |"


def test_cpu_seconds_of_this_process_grows() -> None:
    before = cpu_seconds(os.getpid())
    sum(i * i for i in range(200_000))
    assert cpu_seconds(os.getpid()) >= before >= 0.0
