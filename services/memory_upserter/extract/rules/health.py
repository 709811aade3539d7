"""Health said in conversation: an injury ("I hurt my knee last week", dated then), what a
doctor found ("my doctor told me I have high blood pressure") and a health goal ("I'm trying to
lose weight", a goal todo).

A closed list of body parts and conditions: "I hurt my feelings" and "the doctor said I was
fine" write nothing here; a habit given up ("I quit smoking") is an ending, not this module's.
Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.events import _CONDITIONS
from services.memory_upserter.extract.rules.registry import rule, todo_rule

_BODY = (
    r"knee|ankle|back|shoulder|wrist|arm|leg|foot|hand|neck|hip|elbow|finger|toe|ribs?|hamstring|"
    r"knee\s+ligament|acl|achilles|collarbone|nose|jaw|thumb|calf|groin"
)


@rule(
    "injured",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|badly\s+|accidentally\s+)?(?P<how>hurt|"
    rf"injured|broke|broken|sprained|twisted|pulled|tore|torn|fractured|dislocated)\s+my\s+"
    rf"(?:(?P<side>left|right)\s+)?(?P<part>{_BODY}))\b",
)
def _injured(m: re.Match[str], out: Emitter) -> None:
    """ "I hurt my knee last week": an injury, dated by its time (else the turn)."""
    how = {"broken": "broke", "torn": "tore"}.get(m["how"].lower(), m["how"].lower())
    part = " ".join(f"{m['side'] or ''} {m['part']}".lower().split())
    out.valid_from = out.valid_from or out.now
    out.fact("INJURY", f"{out.who} {how} their {part}", value=f"{how} {part}", importance=2,
             confidence=0.8)  # fmt: skip


@rule(
    "doctor_found",
    rf"(?i:\b(?:my|the)\s+(?:doctor|doc|physician|gp)\s+(?:just\s+)?(?:said|says|told\s+me|found|"
    rf"diagnosed\s+me\s+with)\s+(?:that\s+)?(?:I\s+(?:have|had|'ve\s+got|'ve\s+developed)\s+)?)"
    rf"(?P<what>{_CONDITIONS})\b",
    raw=True,
)
def _doctor_found(m: re.Match[str], out: Emitter) -> None:
    """ "My doctor told me I have high blood pressure": a condition (the person reports their
    own doctor, which a "told me" elsewhere would hedge)."""
    if out.is_user:
        what = " ".join(m["what"].lower().split())
        out.fact("CONDITION", f"{out.who} has {what}", value=what, importance=3, confidence=0.85)


_DIETS = (
    r"vegetarian|vegan|pescatarian|pescetarian|keto|paleo|low[- ]carb|gluten[- ]free|"
    r"dairy[- ]free|plant[- ]based|mediterranean|whole30|carnivore"
)


@rule(
    "diet_said_long",
    rf"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:now\s+|strictly\s+|mostly\s+)?(?:on|"
    rf"doing|following|trying|eating)\s+(?:an?\s+|the\s+)?|\bI(?:'ve|\s+have)\s+been\s+(?:an?\s+)?)"
    rf"(?P<diet>(?i:{_DIETS}))\b(?:\s+diet)?",
)
def _diet_said_long(m: re.Match[str], out: Emitter) -> None:
    """ "I'm on a keto diet", "I've been eating plant-based for a while", "I've been a
    vegetarian since I was 12"."""
    diet = re.sub(r"\s+", "-", m["diet"].lower())
    out.fact("DIET", f"{out.who} is {diet}", value=diet, fact_type="preference", importance=2,
             confidence=0.85)  # fmt: skip


_LASTING = (
    r"asthma|(?:type\s+[12]\s+)?diabetes|adhd|epilepsy|migraines|celiac(?:\s+disease)?|arthritis|"
    r"ibs|crohn'?s(?:\s+disease)?|insomnia|sleep\s+apnea|endometriosis|pcos|psoriasis|eczema|"
    r"lupus|tinnitus|chronic\s+(?:back\s+)?pain|back\s+problems|bad\s+knee|bad\s+back"
)


@rule(
    "living_with",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:been\s+)?(?:really\s+|still\s+)?(?:struggling|dealing|"
    rf"battling|living|coping)\s+with\s+(?:my\s+|some\s+)?)(?P<what>{_CONDITIONS}|chronic\s+"
    rf"(?:back\s+)?pain|back\s+pain)\b|(?i:\bmy\s+)(?P<mine>(?i:{_LASTING}))\b",
)
def _living_with(m: re.Match[str], out: Emitter) -> None:
    """ "I've been struggling with anxiety lately", "my asthma has been acting up": a condition
    the person lives with (a feeling of anxiety said in passing, "my anxiety about the exam",
    is no condition: only lasting ones are read after "my")."""
    what = " ".join((m["what"] or m["mine"]).lower().split())
    out.fact("CONDITION", f"{out.who} has {what}", value=what, importance=3, confidence=0.8)


@rule(
    "had_surgery",
    r"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:had|got|underwent)\s+"
    r"(?P<article>an?\s+|my\s+)?)(?P<what>(?:(?:knee|back|hip|shoulder|heart|eye|foot|wrist|ankle|spine|"
    r"brain|gallbladder|appendix|wisdom\s+teeth|dental|minor|major|emergency)\s+)?(?:surgery|"
    r"operation|heart\s+attack|stroke|concussion|miscarriage|c-section|knee\s+replacement|"
    r"hip\s+replacement|transplant|chemo|chemotherapy))\b",
)
def _had_surgery(m: re.Match[str], out: Emitter) -> None:
    """ "I had knee surgery last month": a health event, dated by its time (else undated)."""
    what = " ".join(m["what"].lower().split())
    article = (m["article"] or "").lower().replace("my ", "their ")
    out.fact("HEALTH_EVENT", f"{out.who} had {article}{what}", value=what, importance=2,
             confidence=0.8)  # fmt: skip


@todo_rule(
    "health_goal",
    r"(?i:\bI(?:'m|\s+am)\s+(?:really\s+|also\s+|still\s+|now\s+)?(?:trying|working\s+hard|"
    r"determined|aiming)\s+to)\s+(?P<task>lose\s+(?:some\s+)?weight|get\s+(?:back\s+)?in(?:to)?\s+"
    r"(?:better\s+)?shape|eat\s+(?:healthier|better|clean|less\s+\w+|more\s+\w+)|cut\s+(?:down|"
    r"back)\s+on\s+\w+(?:\s+\w+)?|quit\s+(?:smoking|drinking|vaping|sugar|caffeine)|sleep\s+(?:more|better)|"
    r"exercise\s+more|drink\s+(?:less|more)\s+\w+|stay\s+(?:fit|healthy|active)|lower\s+my\s+"
    r"(?:blood\s+pressure|cholesterol|blood\s+sugar))\b",
)
def _health_goal(m: re.Match[str], out: Emitter) -> None:
    """ "I'm trying to lose weight, so …": a health goal."""
    out.todo("GOAL", re.sub(r"\s+", " ", m["task"]), dated=False)
