"""The grounding check (003 §11): no Evidence the user did not state, no invented causality.

An Evidence line is **kept** only when all of these hold:

1. it cites a message of this range, and that message is the **user's** (Evidence is a link
   the user stated, not one the agent suggested);
2. it is a quote or near-quote of that message: either its folded text occurs in the message
   verbatim, or at least :data:`GROUNDING_THRESHOLD` (60 %) of its content-word stems occur
   in the message ("containment": |line ∩ message| / |line|, over stems of words that are not
   stopwords, pronouns or reporting verbs such as "said"/"mentioned" — so "User said they
   skipped the gym because work ran late" is grounded in "I skipped the gym because work ran
   late again");
3. the message states a link at all (a causal or temporal link word, see ``text``);
4. if the line claims a **cause** ("because", "so", "due to", "made me"…), the message
   states a cause too — a temporal "after" never licenses a "because".

A line that fails is dropped and counted, with its reason. Observation lines that claim a
cause are held to the same standard against the whole range (rules 2 and 4 against any user
message), since an observation is "what the user explicitly said".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from contracts.reflection_draft import EvidenceLine, Reflection
from services.reflection_writer.model import Message
from services.reflection_writer.text import content_stems, fold, has_causal, has_link

GROUNDING_THRESHOLD = 0.6


@dataclass(frozen=True)
class Dropped:
    text: str
    message_id: str | None
    reason: str  # unknown_message | not_a_user_message | not_in_message | no_stated_link
    #              | invented_causality


@dataclass(frozen=True)
class Grounded:
    reflection: Reflection
    dropped_evidence: list[Dropped] = field(default_factory=list)
    dropped_observations: list[Dropped] = field(default_factory=list)

    @property
    def kept(self) -> int:
        return len(self.reflection.evidence)


def overlap(line: str, message: str) -> float:
    """Share of the line's content stems found in the message (1.0 for a verbatim quote)."""
    if fold(line).strip(" .!?\"'") and fold(line).strip(" .!?\"'") in fold(message):
        return 1.0
    stems = content_stems(line)
    if not stems:
        return 0.0
    return len(stems & content_stems(message)) / len(stems)


def evidence_problem(line: EvidenceLine, cited: Message | None) -> str | None:
    """Why ``line`` is not grounded in the message it cites, or None when it is."""
    if cited is None:
        return "unknown_message"
    if cited.role != "user":
        return "not_a_user_message"
    if overlap(line.text, cited.text) < GROUNDING_THRESHOLD:
        return "not_in_message"
    if not has_link(cited.text):
        return "no_stated_link"
    if has_causal(line.text) and not has_causal(cited.text):
        return "invented_causality"
    return None


def ground(reflection: Reflection, messages: Sequence[Message]) -> Grounded:
    """The reflection with every ungrounded Evidence line (and causal observation) removed."""
    by_id = {m.message_id: m for m in messages}
    kept: list[EvidenceLine] = []
    dropped: list[Dropped] = []
    for line in reflection.evidence:
        problem = evidence_problem(line, by_id.get(line.message_id))
        if problem is None:
            kept.append(line)
        else:
            dropped.append(Dropped(line.text, line.message_id, problem))
    user_texts = [m.text for m in messages if m.role == "user"]
    observations: list[str] = []
    dropped_obs: list[Dropped] = []
    for text in reflection.observation:
        if has_causal(text) and not any(
            has_causal(u) and overlap(text, u) >= GROUNDING_THRESHOLD for u in user_texts
        ):
            dropped_obs.append(Dropped(text, None, "invented_causality"))
        else:
            observations.append(text)
    grounded = Reflection(
        observation=observations,
        action=list(reflection.action),
        evidence=kept,
        unresolved=list(reflection.unresolved),
        hypothesis=reflection.hypothesis,
    )
    return Grounded(grounded, dropped, dropped_obs)
