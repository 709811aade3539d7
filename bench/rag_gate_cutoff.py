"""Evidence for rag-gate's cutoff defaults: MiniLM cosines on a labelled set, through the code.

    uv run python bench/rag_gate_cutoff.py [--grid]

Indexes a realistic memory (28 episodes written like reflection-writer's, 24 facts, 12
knowledge chunks) in a throw-away Qdrant Edge, runs each labelled message through the same
hybrid search and ``ranking.apply_cutoff`` the node uses (``top_k`` 8 / 24 / 4), and prints
precision and recall of what is kept against the labels: for the defaults, for the defaults
without the lexical keep, and for 003's OpenAI-era 0.65 / 0.12. ``--grid`` also prints F1 over
floor x margin. Labels are a human's "would want this in context"; the set is small, so read
the numbers as a direction, not a benchmark. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid

import msgspec

from contracts.retrieve_limits import EpisodeLimits, FactLimits, KnowledgeLimits
from services.core.embedder import MiniLMEmbedder
from services.core.vectors import EdgeVectorIndex, VectorPoint
from services.rag_gate import ranking
from services.rag_gate.gate import CUE_WORDS
from services.rag_gate.slots import Terms

USER, AGENT = "calibration", "coach"
TERMS = Terms()

EPISODES = {  # name: (summary one-liner, reflection)
    "marta_job": (
        "Marta started night shifts at the hospital",
        "Observation: the user said their sister Marta started night shifts at the hospital and "
        "sounds exhausted on the phone. Action: the agent asked how the user wants to support "
        "her. Unresolved: whether to visit Marta this weekend.",
    ),
    "marta_visit": (
        "Visit to Marta in Porto planned",
        "Observation: the user booked a train to Porto to see Marta on Saturday and wants to "
        "bring her favourite almond cake. Evidence: the user said 'she needs a break from the "
        "ward'. Unresolved: who looks after the dog.",
    ),
    "marta_argument": (
        "Tension with Marta about their father",
        "Observation: the user and Marta argued about who should take care of their father after "
        "his surgery. The user felt Marta expects too much. Unresolved: a calm call with Marta on "
        "Sunday.",
    ),
    "run_5k": (
        "First 5k run under 30 minutes",
        "Observation: the user ran 5k on Saturday in 28 minutes and said the knee felt fine "
        "afterwards. Action: the agent suggested an easy week before trying 10k.",
    ),
    "run_knee": (
        "Knee pain after long run",
        "Observation: the user's left knee hurt after a 12 km run. Action: the agent suggested "
        "rest, ice and fewer kilometres next week. Unresolved: see a physiotherapist if it "
        "persists.",
    ),
    "run_plan": (
        "Half marathon training plan",
        "Observation: the user signed up for the Lisbon half marathon in October. Action: the "
        "agent and user drafted a 12-week plan with three runs a week and one long run on "
        "Sundays.",
    ),
    "diet_snack": (
        "Late-night snacking pattern",
        "Observation: the user said they keep snacking on crisps late at night when tired after "
        "work. Evidence: the user linked it to skipping dinner. Hypothesis (low confidence): "
        "snacking follows long workdays.",
    ),
    "diet_log": (
        "Food log: oatmeal and salad",
        "Observation: the user ate oatmeal with berries for breakfast and a chicken salad for "
        "lunch, then skipped dinner. Action: the agent logged the meals and noted low protein at "
        "dinner.",
    ),
    "diet_keto": (
        "Started keto, low energy",
        "Observation: the user started a keto diet this week and feels low on energy in the "
        "afternoon. Action: the agent suggested electrolytes and more vegetables.",
    ),
    "sleep_bad": (
        "A week of bad sleep",
        "Observation: the user slept about five hours a night all week because of work deadlines. "
        "Unresolved: trying no screens after 10pm.",
    ),
    "sleep_better": (
        "Sleep improving with evening routine",
        "Observation: the user slept seven hours three nights in a row after reading instead of "
        "scrolling. Evidence: the user said the no-screens rule helped.",
    ),
    "mom_bday": (
        "Mom's birthday gift",
        "Observation: Mom's birthday is on the 14th; the user wants to buy her a gardening set. "
        "Commitment: order the gift by Friday.",
    ),
    "mom_health": (
        "Mom's blood pressure check",
        "Observation: the user's mom had a check-up and her blood pressure is high again. The "
        "user is worried and wants to call her more often.",
    ),
    "move_lisbon": (
        "Moving to Lisbon for the new job",
        "Observation: the user accepted a job in Lisbon starting in March and feels anxious about "
        "finding an apartment and leaving friends behind.",
    ),
    "move_flat": (
        "Apartment hunting in Lisbon",
        "Observation: the user visited three flats in Alfama and Arroios; the one in Arroios is "
        "cheaper but far from the office. Unresolved: decide by Thursday.",
    ),
    "thesis_procrast": (
        "Procrastinating on the thesis",
        "Observation: the user keeps opening the thesis document and then scrolling the phone for "
        "an hour. Evidence: the user linked it to fear of the advisor's feedback.",
    ),
    "thesis_progress": (
        "Thesis chapter two finished",
        "Observation: the user finished chapter two of the thesis and sent it to Professor "
        "Kowalski. The user felt relieved and proud.",
    ),
    "guitar": (
        "Guitar practice",
        "Observation: the user practiced guitar for 30 minutes and learned a new chord "
        "progression; playing in the evening helps them relax.",
    ),
    "sam_chores": (
        "Argument with Sam about chores",
        "Observation: the user had an argument with their partner Sam about chores and felt "
        "unheard. Unresolved: talk calmly on Sunday.",
    ),
    "sam_anniv": (
        "Anniversary dinner with Sam",
        "Observation: the user and Sam celebrated their fifth anniversary at a small Italian "
        "restaurant; the user said it was the best evening in months.",
    ),
    "budget": (
        "Monthly budget review",
        "Observation: the user went through rent, groceries and the car loan, and wants to save "
        "300 euros a month for a trip to Japan next spring.",
    ),
    "japan": (
        "Japan trip ideas",
        "Observation: the user wants to visit Kyoto and Osaka in April for the cherry blossoms "
        "and asked about rail passes. Unresolved: book flights once the budget allows.",
    ),
    "back_doctor": (
        "Doctor visit about back pain",
        "Observation: the doctor recommended physiotherapy twice a week for the user's lower back "
        "pain. Unresolved: book the first appointment.",
    ),
    "work_promo": (
        "Asking for a promotion",
        "Observation: the user is preparing to ask their manager Priya for a promotion and wrote "
        "down three achievements. The user feels nervous but ready.",
    ),
    "work_conflict": (
        "Conflict with a colleague",
        "Observation: a colleague, Tom, took credit for the user's report in a meeting. The user "
        "felt angry and wants to talk to Priya about it.",
    ),
    "meditation": (
        "Trying meditation",
        "Observation: the user tried a ten-minute guided meditation before bed and found it hard "
        "to sit still. Action: the agent suggested starting with five minutes.",
    ),
    "dog": (
        "The dog Luna is sick",
        "Observation: the user's dog Luna has been vomiting and the vet visit is tomorrow "
        "morning. The user is anxious.",
    ),
    "zofia": (
        "Catch-up with Zofia",
        "Observation: the user met their old friend Zofia for coffee; Zofia is starting a pottery "
        "studio and asked the user to help with the website.",
    ),
}
QUERIES = [  # message: the episodes a human would want in context
    ("how is Marta doing at the hospital?", {"marta_job"}),
    (
        "remember what I told you about Marta last time?",
        {"marta_argument", "marta_job", "marta_visit"},
    ),
    ("I'm going to see Marta this weekend", {"marta_job", "marta_visit"}),
    ("Marta and I fought about dad again", {"marta_argument"}),
    ("I ran 10k today!", {"run_5k", "run_plan"}),
    ("how am I doing with my running?", {"run_5k", "run_knee", "run_plan"}),
    ("my knee hurts again after the run", {"run_knee"}),
    ("what's my half marathon plan?", {"run_plan"}),
    ("I had a salad for lunch again", {"diet_log"}),
    ("why do I keep snacking at night?", {"diet_snack"}),
    ("I ate crisps at midnight again", {"diet_snack"}),
    ("I feel so tired on keto", {"diet_keto"}),
    ("I slept 5 hours again", {"sleep_bad"}),
    ("how's my sleep been lately?", {"sleep_bad", "sleep_better"}),
    ("what did we decide about mom's gift?", {"mom_bday"}),
    ("mom's blood pressure is still high", {"mom_health"}),
    ("I'm nervous about the move to Lisbon", {"move_flat", "move_lisbon"}),
    ("did I decide on the flat?", {"move_flat"}),
    ("why do I keep putting off my thesis", {"thesis_procrast"}),
    ("any progress on the thesis?", {"thesis_procrast", "thesis_progress"}),
    ("Kowalski replied", {"thesis_progress"}),
    ("played guitar tonight", {"guitar"}),
    ("Sam and I fought again", {"sam_chores"}),
    ("remember our anniversary?", {"sam_anniv"}),
    ("how much should I save each month?", {"budget"}),
    ("remember the trip we planned?", {"budget", "japan"}),
    ("did I book the physio?", {"back_doctor", "run_knee"}),
    ("Priya said yes!", {"work_promo"}),
    ("Tom did it again", {"work_conflict"}),
    ("I meditated for 5 minutes", {"meditation"}),
    ("Luna is better now", {"dog"}),
    ("any news from Zofia?", {"zofia"}),
    ("what did we talk about yesterday?", set()),
    ("I feel like pizza", set()),
    ("what's the plan for today?", set()),
    ("I keep forgetting my keys", set()),
    ("Arroios or Alfama?", {"move_flat"}),
    ("should I bake the almond cake again?", {"marta_visit"}),
    ("remember Alfama?", {"move_flat"}),
    ("Kyoto or Osaka first?", {"japan"}),
    ("did the rail pass thing work out?", {"japan"}),
    ("what about the pottery studio website?", {"zofia"}),
    ("the crisps again", {"diet_snack"}),
    ("Tom again", {"work_conflict"}),
    ("did I do the electrolytes thing?", {"diet_keto"}),
]
FACTS = {
    "f_marta_sister": "Marta is the user's younger sister",
    "f_marta_nurse": "Marta works as a nurse at Santa Maria hospital",
    "f_marta_porto": "Marta lives in Porto",
    "f_mom_seattle": "Mom lives in Seattle",
    "f_mom_bday": "Mom's birthday is on March 14",
    "f_mom_bp": "Mom takes medication for high blood pressure",
    "f_sam_partner": "Sam is the user's partner",
    "f_sam_chef": "Sam works as a chef",
    "f_user_lisbon": "The user is moving to Lisbon in March",
    "f_user_job": "The user works as a data analyst",
    "f_user_veg": "The user is vegetarian",
    "f_user_lactose": "The user is lactose intolerant",
    "f_user_morning": "The user is a morning person",
    "f_halfmarathon": "The user is training for the Lisbon half marathon in October",
    "f_knee": "The user has a weak left knee",
    "f_thesis": "The user is writing a master's thesis on urban heat islands",
    "f_kowalski": "Professor Kowalski is the user's thesis advisor",
    "f_priya": "Priya is the user's manager",
    "f_tom": "Tom is a colleague on the analytics team",
    "f_luna": "Luna is the user's dog, a border collie",
    "f_guitar": "The user plays acoustic guitar",
    "f_japan": "The user is saving for a trip to Japan",
    "f_zofia": "Zofia is an old friend from university",
    "f_keto": "The user follows a keto diet",
}
FACT_QUERIES = [  # message: the facts a human would want in context
    ("how is Marta doing at the hospital?", {"f_marta_nurse", "f_marta_sister"}),
    ("I'm going to see Marta this weekend", {"f_marta_porto", "f_marta_sister"}),
    ("what should I get mom for her birthday?", {"f_mom_bday"}),
    ("mom's blood pressure is still high", {"f_mom_bp"}),
    ("Sam cooked dinner", {"f_sam_chef", "f_sam_partner"}),
    ("I ran 10k today!", {"f_halfmarathon"}),
    ("my knee hurts again", {"f_knee"}),
    ("any progress on the thesis?", {"f_kowalski", "f_thesis"}),
    ("Kowalski replied", {"f_kowalski"}),
    ("Priya said yes!", {"f_priya"}),
    ("I ate cheese pizza and my stomach hurts", {"f_user_lactose", "f_user_veg"}),
    ("what can I eat for lunch?", {"f_keto", "f_user_lactose", "f_user_veg"}),
    ("Luna is better now", {"f_luna"}),
    ("any news from Zofia?", {"f_zofia"}),
    ("I'm nervous about the move", {"f_user_lisbon"}),
    ("how much should I save for the trip?", {"f_japan"}),
    ("I feel like pizza", set()),
    ("what's the plan for today?", set()),
]
CHUNKS = {
    "k_protein": (
        "Protein needs: adults who train regularly need about 1.2 to 1.6 grams of protein per "
        "kilogram of body weight per day. Spread it across three or four meals."
    ),
    "k_hydration": (
        "Hydration during runs: drink 400 to 800 ml per hour on runs longer than an hour; add "
        "electrolytes in heat."
    ),
    "k_keto": (
        "Keto flu: in the first week of a ketogenic diet many people feel tired and foggy. "
        "Sodium, potassium and magnesium help; it usually passes within a week."
    ),
    "k_taper": (
        "Tapering: reduce weekly running volume by 30 to 50 percent in the two weeks before a "
        "half marathon while keeping some intensity."
    ),
    "k_knee": (
        "Runner's knee: pain around the kneecap after running often comes from a sudden increase "
        "in mileage. Reduce volume, strengthen hips and quads."
    ),
    "k_sleep": (
        "Sleep hygiene: keep a regular wake time, avoid screens for an hour before bed, keep the "
        "bedroom cool and dark."
    ),
    "k_snack": (
        "Evening snacking: eating a protein-rich dinner and planning a small evening snack "
        "reduces late-night cravings."
    ),
    "k_veg_protein": (
        "Vegetarian protein sources: lentils, chickpeas, tofu, tempeh, eggs and Greek yogurt."
    ),
    "k_lactose": (
        "Lactose intolerance: hard cheeses and lactose-free milk are usually well tolerated; "
        "lactase tablets help with occasional dairy."
    ),
    "k_longrun": (
        "Long runs: run them at an easy conversational pace, about 60 to 90 seconds per kilometre "
        "slower than race pace."
    ),
    "k_fiber": (
        "Fibre: aim for 25 to 30 grams per day from vegetables, fruit, legumes and whole grains."
    ),
    "k_caffeine": (
        "Caffeine: avoid coffee after 2pm if sleep is a problem; its half-life is about five hours."
    ),
}
CHUNK_QUERIES = [  # message: the chunks a human would want in context
    ("how much protein should I eat?", {"k_protein", "k_veg_protein"}),
    ("I feel so tired on keto", {"k_keto"}),
    ("my knee hurts after the run", {"k_knee"}),
    ("what should I drink on my long run?", {"k_hydration", "k_longrun"}),
    ("why do I keep snacking at night?", {"k_snack"}),
    ("I slept 5 hours again", {"k_caffeine", "k_sleep"}),
    ("I'm lactose intolerant, can I have cheese?", {"k_lactose"}),
    ("how should I plan the last two weeks before the race?", {"k_taper"}),
    ("I ate a big salad with chickpeas", {"k_fiber", "k_veg_protein"}),
    ("what did we talk about yesterday?", set()),
    ("I feel sad today", set()),
]


SETS = {  # collection: (texts, labelled queries, fetched, default cutoff)
    "episodes": ({n: f"{a}\n{b}" for n, (a, b) in EPISODES.items()}, QUERIES, 8, EpisodeLimits()),
    "knowledge": (CHUNKS, CHUNK_QUERIES, 4, KnowledgeLimits()),
    "facts": (FACTS, FACT_QUERIES, 24, FactLimits()),
}


async def collect() -> dict[str, list[tuple[str, set[str], list[ranking.Candidate]]]]:
    """Per collection, per query: the labels and the candidates as the node sees them."""
    embedder = MiniLMEmbedder()
    with tempfile.TemporaryDirectory(prefix="rag-gate-cutoff-") as path:
        index = EdgeVectorIndex(path, dim=embedder.dim)
        await index.ensure_collections()
        try:
            return await _collect(embedder, index)
        finally:
            await index.close()


async def _collect(embedder: MiniLMEmbedder, index: EdgeVectorIndex):
    out = {}
    for collection, (texts, queries, fetched, _) in SETS.items():
        names = list(texts)
        ids = {str(uuid.uuid5(uuid.NAMESPACE_URL, n)): n for n in names}
        vectors = embedder.embed_sync([texts[n] for n in names])
        await index.upsert(
            collection,
            [
                VectorPoint(
                    pid,
                    vector,
                    texts[ids[pid]],
                    {
                        "user_id": USER,
                        "agent_id": AGENT,
                        "scope": "agent",
                        "entity_ids": [],
                        "active": True,
                    },
                )
                for pid, vector in zip(ids, vectors, strict=True)
            ],
        )
        rows = []
        for (query, labels), dense in zip(
            queries, embedder.embed_sync([q for q, _ in queries]), strict=True
        ):
            hits = await index.search(
                collection,
                user_id=USER,
                agent_id=AGENT,
                dense=dense.tolist(),
                text=query,
                limit=fetched,
            )
            rows.append(
                (
                    query,
                    labels,
                    [
                        ranking.Candidate(
                            ids[h.id], rank, h.score, h.similarity, text=texts[ids[h.id]]
                        )
                        for rank, h in enumerate(hits, 1)
                    ],
                    TERMS.of_query(query),
                )
            )
        out[collection] = rows
    return out


def score(rows, params, cue: frozenset[int]) -> tuple[float, float, float]:
    tp = fp = fn = 0
    for _, labels, candidates, query_terms in rows:
        kept, _ = ranking.apply_cutoff(
            candidates, params, query_terms=query_terms, cue_terms=cue, terms_of=TERMS.of_document
        )
        names = {k.candidate.id for k in kept}
        tp, fp, fn = tp + len(names & labels), fp + len(names - labels), fn + len(labels - names)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--grid", action="store_true", help="F1 over floor x margin too")
    args = parser.parse_args()
    found = asyncio.run(collect())
    cue = TERMS.of_query(" ".join(CUE_WORDS))
    for collection, rows in found.items():
        default = SETS[collection][3]
        relevant = [c.similarity for _, labels, cands, _ in rows for c in cands if c.id in labels]
        other = sorted(
            c.similarity for _, labels, cands, _ in rows for c in cands if c.id not in labels
        )
        relevant.sort()
        print(
            f"== {collection}: {len(rows)} messages; cosine of labelled hits: min "
            f"{relevant[0]:.3f} median {relevant[len(relevant) // 2]:.3f}; of the others: "
            f"median {other[len(other) // 2]:.3f} p95 {other[int(0.95 * len(other))]:.3f} "
            f"max {other[-1]:.3f}"
        )
        variants = {
            f"defaults {default.floor}/{default.margin} + lexical keep": default,
            "defaults, lexical keep off": msgspec.structs.replace(default, lexical_rank=0),
            "003 (OpenAI) 0.65/0.12": msgspec.structs.replace(
                default, floor=0.65, margin=0.12, lexical_rank=0
            ),
        }
        for name, params in variants.items():
            p, r, f = score(rows, params, cue)
            print(f"   {name:38} P {p:.2f}  R {r:.2f}  F1 {f:.2f}")
        if args.grid:
            margins = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
            print("   F1, rows floor, columns margin: " + " ".join(f"{m:>5}" for m in margins))
            for floor in (0.2, 0.25, 0.275, 0.3, 0.325, 0.35, 0.4):
                cells = [
                    score(rows, msgspec.structs.replace(default, floor=floor, margin=m), cue)[2]
                    for m in margins
                ]
                print(f"   {floor:<33}" + " ".join(f"{c:5.2f}" for c in cells))


if __name__ == "__main__":
    main()
