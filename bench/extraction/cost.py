"""The offline judge's CPU per message (``uv run python -m bench.extraction.cost``): the mean
and p99 over the Telegram-style corpus and the tidy corpus, and the worst case — one message of
~20,000 characters made of repeated self-statements with no sentence end, and one made of
things said in passing (activities, a business, a pet) with no punctuation at all, and one of
long, capitalised chat clauses (a LoCoMo-like turn) with no full stop."""

from __future__ import annotations

import statistics
import time

from bench.extraction.corpus import DATA, load_messages
from bench.extraction.judge_run import NOW
from services.memory_upserter.extract.extractor import Utterance, extract

LONG_UNIT = "i love going on road trips with my sister marta and i live in lisbon, "
# the same, made of what people say in passing (activities, a business, a pet), no comma at all
PASSING_UNIT = (
    "been learning the piano and i run my own little bakery and oscar my guinea pig is cute "
)
# LoCoMo-like chat: capitalised, several clauses, long-lived things said on the way, no full stop
CHATTY_UNIT = (
    "Yeah I've been going to the gym a lot since my divorce and my kids Sara and Ben and "
    "Searching for a studio has been tricky but dancing has been my escape and I'm aiming to "
    "open my own studio and I grew up in a small town in Ohio and "
)


def cpu_ms(text: str) -> float:
    start = time.process_time()
    extract([Utterance(text)], now=NOW)
    return (time.process_time() - start) * 1000


def long_message(chars: int = 20_000, unit: str = LONG_UNIT) -> str:
    return (unit * (chars // len(unit) + 1))[:chars]


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
    for name, unit in (
        ("self-statements", LONG_UNIT),
        ("said in passing", PASSING_UNIT),
        ("chatty, LoCoMo-like", CHATTY_UNIT),
    ):
        for chars in (5_000, 10_000, 20_000):
            ms = cpu_ms(long_message(chars, unit))
            print(f"one {chars:,}-character message ({name}): {ms:.0f} ms CPU")


if __name__ == "__main__":
    main()
