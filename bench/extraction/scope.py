"""Which LoCoMo observations are "in scope" for the offline judge (issue 28): what memory should
hold about the person — a lasting state or fact, not a one-off event, a feeling, a belief or
advice. Defined on the observation's own words only (never on what the judge writes), so the
measure cannot be moved by the judge:

- in scope: home and origin, job/career/study/business, relatives, partner, children, friends
  named or kept, pets, possessions kept, health/diet/allergy, hobbies and activities the person
  does (regularly or since when), likes/loves/favourites, goals and plans, projects underway;
- out of scope: an observation none of whose evidence turns the person spoke (LoCoMo cites the
  other speaker's turn at times), what the person felt, believes, values, appreciates, thinks,
  finds, expresses, says to the other speaker, and one-off events (attended, went to, visited,
  had a … time) that change no state.

A keyword classifier, not a model: ``STATE`` words put an observation in; ``OPINION`` as its
verb, or a one-off ``EVENT`` without a ``STATE`` word, keep it out. The ``--list`` output is the
definition made visible; ``locomo_scope.tsv`` (absent: none made so far) would record hand
corrections (dia_id, text, in|out), which win over the classifier. The classifier was written
before any rule was tuned against it, and not changed after.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from bench.extraction import locomo
from bench.extraction.corpus import DATA
from bench.extraction.judge_run import LOCOMO, content
from services.memory_upserter.commit.read import fold

OVERRIDES = DATA / "locomo_scope.tsv"
TUNE = ("conv-26", "conv-30")  # rules were tuned on these conversations' misses (A and B)
REPORT = ("conv-41", "conv-42")  # reported, never read for misses

_STATE = re.compile(
    r"\b(?:lives?|living|moved|moving|home\s*(?:town|country)|from\s+[A-Z]\w+|grew\s+up|"
    r"works?\b|working|job|career|business|company|studio|employ\w*|boss|colleague|promot\w*|"
    r"profession|banker|teacher|engineer|nurse|chef|artist|writer|student|school|college|"
    r"degree|studying|stud(?:y|ies)|learning|"
    r"mom|mother|dad|father|parents?|husband|wife|partner|spouse|married|pregnan\w*|kids?|"
    r"children|son|daughter|sister|brother|sibling|grand\w+|cousin|aunt|uncle|niece|nephew|"
    r"friend\s+named|best\s+friend|girlfriend|boyfriend|roommate|mentee|"
    r"pets?|dogs?|cats?|puppy|guinea\s+pig|turtles?|horse|"
    r"allerg\w*|diet|vegetarian|vegan|health|injur\w*|sick|illness|"
    r"hobby|hobbies|passionate\s+about\s+(?!making|helping)|loves?\s+(?!and|for)|enjoys?|likes?|favou?rite|fan\s+of|"
    r"plays?|playing|paints?|painting|draws?|writes|writing|reads|reading|cooks?|cooking|"
    r"bak(?:es|ing)|gardening|hik(?:es|ing)|runs|running|swims|swimming|dances?|dancing|"
    r"yoga|gaming|games|guitar|piano|violin|volunteer\w*|collect\w*|owns?|"
    r"plans\s+to|planning\s+(?:to|an?)\b|spends\s+time|organizing|wants?\s+to|aims?\s+to|aspires?\s+to|"
    r"considering|looking\s+into|researching|started|since|used\s+to|"
    r"regularly|every\s+(?:day|week|morning)|weekly|daily|often)\b",
    re.IGNORECASE,
)
# The observation's verb right after the name: a feeling, belief, value or advice.
_OPINION = re.compile(
    r"^(?:\w+\s+){0,2}?(?:feels?|felt|believes?|values?|appreciates?|thinks?|finds?|found|"
    r"expresse[sd]|express|acknowledge[sd]|admires?|recommends?|encourage[sd]|suggest(?:s|ed)|"
    r"mentioned\s+that|shared\s+that|says|said|agrees?|compliment\w*|thanked|is\s+(?:grateful|"
    r"thankful|happy|proud|excited|glad|inspired|amazed|impressed|moved|touched)|was\s+\w+ed\s+by|"
    r"emphasi[sz]e[sd]|reflects?|reflected|wishes|wished|congratulat\w*|advises?|advised|"
    r"is\s+determined|sees|considers\s+(?!going|starting|a\s+career)|uses|learned|reminisced|"
    r"discussed|motivation|vision|determination|journey|relationships|is\s+very\s+focused|"
    r"is\s+passionate\s+about\s+(?:making|helping)|is\s+feeling|seeks|hopes\s+to\s+create)\b",
    re.IGNORECASE,
)
_EVENT = re.compile(
    r"^(?:\w+\s+){0,2}?(?:attended|went|visited|had\s+a|saw|watched|took|got\s+(?:to|a)|met|"
    r"participated|joined\s+(?:a|an|the)\s+\w+\s+(?:event|parade|march|meeting)|received|"
    r"bought|made|painted|created|gave|tried|celebrated|shared|showed|ran\s+into|"
    r"recently|last\s+(?:week|weekend|month|year)|yesterday)\b",
    re.IGNORECASE,
)


def classify(observation: str, person: str) -> bool:
    """In scope: a lasting state or fact about the person (see the module docstring)."""
    text = re.sub(rf"^(?:According to [^,]+,\s*)?{re.escape(person)}(?:'s)?\s+", "", observation)
    if _OPINION.match(text):
        return False
    if _EVENT.match(text):
        return bool(re.search(r"\b(?:since|used\s+to|regularly|every|started|joined)\b", text))
    return bool(_STATE.search(text))


def overrides(path: Path = OVERRIDES) -> dict[tuple[str, str], bool]:
    out: dict[tuple[str, str], bool] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                key, text, label = line.split("\t")
                out[(key, text)] = label == "in"
    return out


def observations(
    path: Path = LOCOMO, side: str = "a"
) -> list[tuple[str, str, str, list[str], bool]]:
    """Speaker A's (or B's) observations: (conversation, person, text, evidence, in scope)."""
    fixed = overrides()
    out = []
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        person = conv[f"speaker_{side}"]
        said = {
            t["dia_id"]
            for k, turns in conv.items()
            if re.fullmatch(r"session_\d+", k)
            for t in turns
            if t["speaker"] == person
        }
        for session in sample["observation"].values():
            for text, evidence in session.get(person, []):
                ids = evidence if isinstance(evidence, list) else [evidence]
                key = f"{sample['sample_id']}/{ids[0]}"
                own = any(i in said for i in ids)  # LoCoMo cites the other speaker at times
                scoped = own and fixed.get((key, text), classify(text, person))
                out.append((sample["sample_id"], person, text, ids, scoped))
    return out


def coverage(path: Path = LOCOMO, side: str = "a") -> dict[str, tuple[int, int]]:
    """Per conversation: (in-scope observations covered, in scope). Speaker A is the person,
    each of their turns judged alone as the user's message at the session's date; an observation
    is covered when a fact from its evidence turn (a fact or a todo) shares a content word with it
    (:func:`judge_run.content`)."""
    written: dict[str, set[str]] = {}
    report = locomo.run(path, side)
    for w in report.facts:
        written.setdefault(w.dia_id, set()).update(content(f"{w.text} {w.value}", set()))
    for dia_id, todo in report.todos:  # a plan is memory too (a todo)
        written.setdefault(dia_id, set()).update(content(todo, set()))
    out: dict[str, tuple[int, int]] = {}
    for conv, person, text, ids, scoped in observations(path, side):
        if not scoped:
            continue
        wanted = content(text, {fold(person)})
        hit = any(wanted & written.get(f"{conv}/{i}", set()) for i in ids)
        done, total = out.get(conv, (0, 0))
        out[conv] = (done + hit, total + 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction.scope")
    parser.add_argument("--list", choices=("in", "out"), help="print the in/out observations")
    args = parser.parse_args()
    obs = observations()
    cov = coverage()
    for conv in sorted({o[0] for o in obs}):
        mine = [o for o in obs if o[0] == conv]
        done, total = cov.get(conv, (0, 0))
        print(f"{conv} {mine[0][1]}: {total} in scope of {len(mine)}, covered {done}")
    for part, convs in (("tune", TUNE), ("report", REPORT)):
        got = [cov[c] for c in convs if c in cov]
        done, total = sum(g[0] for g in got), sum(g[1] for g in got)
        print(f"{part} ({', '.join(convs)}): covered {done}/{total} = {done / total:.1%}")
    other = coverage(side="b")  # speaker B of the tuning conversations: more to tune on
    got = [other[c] for c in TUNE if c in other]
    done, total = sum(g[0] for g in got), sum(g[1] for g in got)
    print(f"tune, speaker B ({', '.join(TUNE)}): covered {done}/{total} = {done / total:.1%}")
    if args.list:
        for conv, _, text, ids, scoped in obs:
            if scoped == (args.list == "in"):
                print(f"{conv}/{ids[0]}\t{text}")


if __name__ == "__main__":
    main()
