"""The recorded sets after the first (``*-v2`` … ``*-v7``) replayed through the real chain, one
line each in :data:`SETS`: a new set is one more line there (and its fixtures), e.g.
``RecordedSet("v7", recorded.STYLES_V7, (…conversations…), MISSED.format("v7"), True)``.

``v2``: the answers recorded with handles in the prompt (``careful-v2``, ``sloppy-v2``: contracts
1.5), their handles translated to the replay's rows (:mod:`bench.model_loop.handles`), tuned and
held-out conversations apart. ``v3``: three conversations written and answered after every
earlier set had been read, never tuned on. ``v4`` … ``v7``: blind held-out sets, each recorded
in two halves (tests/fixtures/model_loop/README.md): each half's conversations, checks and sloppy
habits committed before any answer, then answered turn by turn from each turn's exact prompt
before any product change.

Every set: no turn lost, every check holds in the replayed memory, a careful model's false drops
≤ 2 % of its fair facts and a sloppy model's inventions kept ≤ 5 %. What today's code cannot do
yet is xfail (not strict) with the missing behaviour as its reason. Each (conversation, style) is
replayed once for the whole run (tests/model_loop/conftest.py). The figures are printed past
capture (``uv run pytest tests/model_loop/test_replay_sets.py -s -k figures``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bench.model_loop import replay as recorded
from tests.model_loop.conftest import RECORDED
from tests.model_loop.replays import (
    Run,
    assert_check_holds,
    assert_no_turn_lost,
    check_cases,
    figures_line,
    held_out_figures,
    misses,
    run_cases,
    runs,
    totals,
    xfail,
)


@dataclass(frozen=True)
class RecordedSet:
    """A set of recorded answers: its styles (careful first, then sloppy), the conversations its
    README names (each a file whose id starts with the set's name), why its targets are not met
    yet (None: met), and whether a conversation's ``lost_needs`` may excuse a lost turn."""

    name: str
    styles: tuple[str, ...]
    named: tuple[str, ...] = ()
    targets_need: str | None = None
    losses_excused: bool = False

    @property
    def runs(self) -> list[Run]:
        return runs(self.styles)

    @property
    def conversations(self) -> set[str]:
        return {c for c in RECORDED if c.startswith(self.name)}


MISSED = "the blind {} figures miss the targets (bench/RESULTS.md)"
KAI, NOOR, LEO = "v3a-telegram-kai", "v3b-telegram-noor", "v3c-telegram-leo"
MIA, RAJ, INES, CAROLINE = (
    "v4a-telegram-mia",
    "v4b-telegram-raj",
    "v4c-telegram-ines",
    "v4d-locomo-caroline",
)
YARA, DARIO, JOANNA, DANI = (
    "v5a-telegram-yara",
    "v5b-telegram-dario",
    "v5c-locomo-joanna",
    "v5d-telegram-dani",
)
WIKTOR, SUNNIVA, NATE, AINO = (
    "v6a-telegram-wiktor",
    "v6b-telegram-sunniva",
    "v6c-locomo-nate",
    "v6d-telegram-aino",
)
ELENI, GINA, BRENDAN, GIULIA = (
    "v7a-telegram-eleni",
    "v7b-locomo-gina",
    "v7c-telegram-brendan",
    "v7d-telegram-giulia",
)
HANA, MELANIE, FREYA, NEREA = (
    "v8a-telegram-hana",
    "v8b-locomo-melanie",
    "v8c-telegram-freya",
    "v8d-telegram-nerea",
)
KASIA, MARIA, ROISIN, LUKAS = (
    "v9a-telegram-kasia",
    "v9b-locomo-maria",
    "v9c-telegram-roisin",
    "v9d-telegram-lukas",
)
SETS = (
    RecordedSet("v2", recorded.STYLES_V2),
    RecordedSet("v3", recorded.STYLES_V3, (KAI, NOOR, LEO)),
    RecordedSet("v4", recorded.STYLES_V4, (MIA, RAJ, INES, CAROLINE)),
    # v5, v6, v7: targets met since wt10/sloppy (bench/RESULTS.md), no longer xfail
    RecordedSet("v5", recorded.STYLES_V5, (YARA, DARIO, JOANNA, DANI), None, True),
    RecordedSet("v6", recorded.STYLES_V6, (WIKTOR, SUNNIVA, NATE, AINO), None, True),
    RecordedSet("v7", recorded.STYLES_V7, (ELENI, GINA, BRENDAN, GIULIA), None, True),
    RecordedSet("v8", recorded.STYLES_V8, (HANA, MELANIE, FREYA, NEREA), MISSED.format("v8"), True),
    RecordedSet("v9", recorded.STYLES_V9, (KASIA, MARIA, ROISIN, LUKAS), MISSED.format("v9"), True),
)
BLIND = [s for s in SETS if s.name != "v2"]  # held out whole: every conversation of the set
V2 = SETS[0]
RUNS = [run for s in SETS for run in s.runs]


def by_set(sets: list[RecordedSet], xfail_targets: bool = False) -> list:
    return [
        pytest.param(s, id=s.name, marks=xfail(s.targets_need) if xfail_targets else [])
        for s in sets
    ]


@pytest.mark.parametrize(("conv_id", "style"), run_cases(RUNS))
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    assert_no_turn_lost(await replayed(conv_id, style))


@pytest.mark.parametrize(("conv_id", "style", "n"), check_cases(RUNS))
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    assert_check_holds(await replayed(conv_id, style), RECORDED[conv_id]["checks"][n])


@pytest.mark.parametrize("recorded", by_set(BLIND))
def test_the_set_is_recorded_and_held_out(recorded: RecordedSet) -> None:
    """Each conversation the set's README names is there, every conversation of the set is
    answered in each of its styles (and in no other set's), and all of them are held out."""
    held = recorded.conversations
    assert held and set(recorded.named) <= held
    assert {c for c, _ in recorded.runs} == held
    assert {(c, s) for c in held for s in recorded.styles} == set(recorded.runs)
    assert all(RECORDED[c]["held_out"] for c in held)


@pytest.mark.parametrize("recorded", by_set(BLIND))
async def test_the_figures(replayed, capsys, recorded: RecordedSet) -> None:
    for style in recorded.styles:
        n = await held_out_figures(replayed, recorded.runs, style)
        with capsys.disabled():
            print(figures_line(style, n))
        lost = n["unexcused"] if recorded.losses_excused else n["lost"]
        assert n["turns"] > 0 and lost == 0, (style, n)
    with capsys.disabled():
        print("\n".join(await misses(replayed, recorded.runs)))


@pytest.mark.parametrize("recorded", by_set(SETS, xfail_targets=True))
async def test_the_targets_are_met(replayed, recorded: RecordedSet) -> None:
    """A careful model's false drops ≤ 2 % of its fair facts, a sloppy model's inventions kept
    ≤ 5 % (``v2``: tuned and held-out conversations together)."""
    careful, sloppy = [await totals(replayed, recorded.runs, s) for s in recorded.styles]
    assert careful["fair"] > 0 and sloppy["invented"] > 0, (careful, sloppy)
    assert careful["fair_dropped"] <= 0.02 * careful["fair"], careful
    assert sloppy["invented_kept"] <= 0.05 * sloppy["invented"], sloppy


@pytest.mark.parametrize(
    ("conv_id", "style"),
    [pytest.param(c, s, id=f"{c}-{s}") for c, s in V2.runs if s == V2.styles[0]],
)
async def test_a_careful_models_handles_name_the_replays_rows(
    replayed, conv_id: str, style: str
) -> None:
    """v2: every handle a careful answer named was translated to a row the replay's prompt
    shows: the commit never answers one as unknown or ambiguous."""
    done = await replayed(conv_id, style)
    unknown = [(t.index, w) for t in done.run.turns for w in t.warnings if w.startswith("handle_")]
    assert not unknown


@pytest.mark.parametrize("style", V2.styles)
async def test_the_v2_figures_per_style_and_split(replayed, capsys, style: str) -> None:
    played = [(c, s) for c, s in V2.runs if s == style]
    for held_out in (False, True):
        n = await totals(replayed, played, style, held_out)
        with capsys.disabled():
            print(
                f"\n{style:10} {'held-out' if held_out else 'tuned':8} turns {n['turns']:3}"
                f"  lost {n['lost']}  fair dropped {n['fair_dropped']}/{n['fair']}"
                f"  invented kept {n['invented_kept']}/{n['invented']}"
            )
        assert n["fair_dropped"] <= n["fair"] and n["invented_kept"] <= n["invented"]
    with capsys.disabled():
        print("\n".join(await misses(replayed, played)))
