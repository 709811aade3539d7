"""The offline judge's CPU per message (``uv run python -m bench.extraction.cost``): the mean
and p99 over the Telegram-style corpus and the tidy corpus, and the worst case — one message of
~20,000 characters made of repeated self-statements with no sentence end."""

from __future__ import annotations

import statistics
import time

from bench.extraction.corpus import DATA, load_messages
from bench.extraction.judge_run import NOW
from services.memory_upserter.extract.extractor import Utterance, extract

LONG_UNIT = "i love going on road trips with my sister marta and i live in lisbon, "


def cpu_ms(text: str) -> float:
    start = time.process_time()
    extract([Utterance(text)], now=NOW)
    return (time.process_time() - start) * 1000


def long_message(chars: int = 20_000) -> str:
    return (LONG_UNIT * (chars // len(LONG_UNIT) + 1))[:chars]


def main() -> None:
    texts = [
        m.text for name in ("messages.txt", "telegram.txt") for m in load_messages(DATA / name)
    ]
    cpu_ms(texts[0])  # compile the rules
    times = sorted(cpu_ms(t) for t in texts * 3)
    print(
        f"{len(texts)} messages ×3: mean {statistics.fmean(times):.3f} ms CPU, "
        f"p99 {times[int(len(times) * 0.99)]:.2f} ms, max {times[-1]:.2f} ms"
    )
    for chars in (5_000, 10_000, 20_000):
        print(f"one {chars:,}-character message: {cpu_ms(long_message(chars)):.0f} ms CPU")


if __name__ == "__main__":
    main()
