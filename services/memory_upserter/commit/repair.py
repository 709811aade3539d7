"""The repairs of :mod:`.lenient`, field by field, driven by the contract's own types
(``msgspec.inspect``): a value with one reading is repaired (and noted), one without is
dropped (and noted); :class:`Reader` builds a part from what is left. The rules, and why each
has only one reading, are listed in :mod:`.lenient`'s docstring."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from msgspec import inspect as mi

from contracts.memory import Notice
from services.memory_upserter.text import fold

SYNONYMS: dict[str, str] = {
    # memory_type
    "personal": "PROFILE",
    "person": "PROFILE",
    "user": "PROFILE",
    "self": "PROFILE",
    "bio": "PROFILE",
    "identity": "PROFILE",
    "preference": "PROFILE",
    "preferences": "PROFILE",
    "health": "PROFILE",
    "hobby": "PROFILE",
    "hobbies": "PROFILE",
    "interests": "PROFILE",
    "lifestyle": "PROFILE",
    "education": "PROFILE",
    "home": "PROFILE",
    "location": "PROFILE",
    "relationship": "PEOPLE",
    "relationships": "PEOPLE",
    "social": "PEOPLE",
    "family": "PEOPLE",
    "pet": "PEOPLE",
    "friends": "PEOPLE",
    "contacts": "PEOPLE",
    "projects": "PROJECT",
    "work": "PROJECT",
    "job": "PROJECT",
    "career": "PROJECT",
    **dict.fromkeys(  # a kind of thing for memory_type: the person's own (PROFILE)
        "event events life_event activity activities interest goal goals plan plans schedule "
        "travel trip habit habits fitness food".split(),
        "PROFILE",
    ),
    # category
    "place": "Location",
    "city": "Location",
    "country": "Location",
    "organization": "Org",
    "organisation": "Org",
    "company": "Org",
    "employer": "Org",
    "school": "Org",
    "animal": "Pet",
    "people": "Person",
    # todo kind
    "promise": "COMMITMENT",
    "remind": "REMINDER",
    "reminders": "REMINDER",
    "todo": "REMINDER",
    "task": "REMINDER",
    # scope
    "persona": "agent",
    "private": "agent",
    "shared": "global",
}


_SCOPES = {"global", "agent"}
# a scope word that still means the person's memory, shared by every persona (else: the
# persona's own, whatever name the model gave it)
_EVERYONES = frozenset("user person profile public all everyone everybody general common".split())
# A required word of a closed list that has a default reading: a todo of a kind the contract
# does not know ("HOMEWORK") is still a todo, kept with the default kind (and noted).
KEPT_AS: dict[tuple[str, str], str] = {("PlanTodo", "kind"): "REMINDER"}


# A field a small model names another way ("fact" for a fact's text, "type" for its
# memory_type, "task" for a todo's text, camelCase): read as that field when the part has it
# and was not also given it; the first one the part has, for a word that fits several.
FIELD_SYNONYMS: dict[str, tuple[str, ...]] = {
    "fact": ("text",),
    "statement": ("text",),
    "content": ("text",),
    "sentence": ("text",),
    "task": ("text",),
    "todo": ("text",),
    "title": ("text",),
    "type": ("memory_type", "kind", "category"),
    "memorytype": ("memory_type",),
    "todo_type": ("kind",),
    "entity_type": ("category",),
    "relation": ("predicate",),
    "property": ("predicate",),
    "attribute": ("predicate",),
    "due_date": ("due",),
    "deadline": ("due",),
    "since": ("valid_from",),
    "start_date": ("valid_from",),
    "until": ("valid_to",),
    "end_date": ("valid_to",),
}


def field_named(key: str, fields: Iterable[str], given: set[str]) -> str | None:
    """The part's field ``key`` names another way (:data:`FIELD_SYNONYMS`), if one fits."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).lower()
    for name in (snake, *FIELD_SYNONYMS.get(snake, ())):
        if name != key and name in fields and name not in given:
            return name
    return None


@dataclass
class Reader:
    """Reads parts of a model's plan, keeping a notice of every repair and drop."""

    notes: list[Notice] = field(default_factory=list)

    def note(self, code: str, path: str, reason: str) -> None:
        self.notes.append(Notice(code=code, detail=f"{path}: {reason}"))

    def value(self, raw: Any, typ: mi.Type, path: str) -> tuple[bool, Any]:
        """``(True, the value repaired)``, or ``(False, None)`` with a notice when it cannot be."""
        if isinstance(typ, mi.Metadata):  # a description or title around the real type
            return self.value(raw, typ.type, path)
        if isinstance(typ, mi.UnionType):
            if raw is None and any(isinstance(t, mi.NoneType) for t in typ.types):
                return True, None
            inner = [t for t in typ.types if not isinstance(t, mi.NoneType)]
            return self.value(raw, inner[0], path) if len(inner) == 1 else (True, raw)
        if isinstance(typ, mi.StructType):
            built = self.struct(raw, typ.cls, path)
            return built is not None, built
        if isinstance(typ, mi.ListType):
            return True, self.items(raw, typ, path)
        repaired, reason = _scalar(raw, typ)
        if reason is not None:
            self.note("plan_field_dropped", path, reason)
            return False, None
        if repaired != raw:
            self.note("plan_repaired", path, f"{short(raw)} read as {short(repaired)}")
        return True, repaired

    def items(self, raw: Any, typ: mi.ListType, path: str) -> list[Any]:
        if not isinstance(raw, list):
            if raw is None:
                return []
            self.note("plan_repaired", path, "a single value read as a list of one")
            raw = [raw]
        kept = []
        for i, item in enumerate(raw):
            ok, value = self.value(item, typ.item_type, f"{path}[{i}]")
            if ok:
                kept.append(value)
        if typ.max_length is not None and len(kept) > typ.max_length:
            self.note("plan_part_dropped", path, f"only the first {typ.max_length} are kept")
            kept = kept[: typ.max_length]
        return kept

    def struct(self, raw: Any, cls: type[msgspec.Struct], path: str) -> Any:
        """The part, built from its valid fields; None (noted) when it cannot be built."""
        if not isinstance(raw, dict):
            self.note("plan_part_dropped", path, f"not an object ({short(raw)})")
            return None
        info = mi.type_info(cls)
        assert isinstance(info, mi.StructType)
        fields = {f.encode_name: f for f in info.fields}
        clean: dict[str, Any] = {}
        for key, value in raw.items():
            name = None if key in fields else field_named(key, fields, {*raw, *clean})
            if name is not None:
                self.note("plan_repaired", f"{path}.{key}", f"read as {name!r}")
                key = name
            spec = fields.get(key)
            if spec is None:
                self.note("plan_field_dropped", f"{path}.{key}", "unknown field")
                continue
            ok, repaired = self.value(value, spec.type, f"{path}.{key}")
            if not ok and (cls.__name__, key) in KEPT_AS:  # "HOMEWORK": a todo all the same
                ok, repaired = True, KEPT_AS[cls.__name__, key]
                why = self.notes.pop().detail if self.notes else f"{path}.{key}: invalid"
                detail = f"{why}; read as {repaired!r}, the default"
                self.notes.append(Notice(code="plan_repaired", detail=detail))
            if ok:
                clean[key] = repaired
            elif spec.required:  # the field's notice becomes the part's
                why = self.notes.pop().detail if self.notes else f"{path}.{key}: invalid"
                self.notes.append(Notice(code="plan_part_dropped", detail=f"{why}; dropped"))
                return None
        missing = [f.encode_name for f in info.fields if f.required and f.encode_name not in clean]
        if missing:
            self.note("plan_part_dropped", path, f"required field missing: {', '.join(missing)}")
            return None
        try:
            return msgspec.convert(clean, cls)
        except msgspec.ValidationError as exc:
            self.note("plan_part_dropped", path, str(exc))
            return None


def _scalar(raw: Any, typ: mi.Type) -> tuple[Any, str | None]:
    """The scalar repaired to ``typ``, or the reason it cannot be."""
    if isinstance(typ, mi.AnyType):
        return raw, None
    if isinstance(typ, mi.LiteralType):
        return _literal(raw, typ.values)
    if isinstance(typ, mi.StrType):
        return _string(raw, typ)
    if isinstance(typ, mi.BoolType):
        words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
        if isinstance(raw, bool):
            return raw, None
        key = str(raw).strip().lower()
        return (words[key], None) if key in words else (None, f"{short(raw)} is not true/false")
    if isinstance(typ, mi.IntType | mi.FloatType):
        return _number(raw, typ)
    return raw, None  # no other scalar in a plan; the part's own conversion checks it


def _literal(raw: Any, values: tuple[Any, ...]) -> tuple[Any, str | None]:
    if raw in values:
        return raw, None
    if isinstance(raw, str):
        key = fold(raw).replace(" ", "_")
        by_fold = {fold(str(v)): v for v in values}
        for candidate in (key, key.removesuffix("s")):  # "Preferences", "habits"
            if candidate in by_fold:
                return by_fold[candidate], None
        if SYNONYMS.get(key) in values:
            return SYNONYMS[key], None
        if set(values) == _SCOPES and key not in _EVERYONES:
            return "agent", None  # "coach", "sol": the persona naming itself, its own note
        if "Other" in values:
            return "Other", None
    return None, f"{short(raw)} is not one of {', '.join(map(str, values))}"


def _string(raw: Any, typ: mi.StrType) -> tuple[Any, str | None]:
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        raw = str(raw)
    if not isinstance(raw, str):
        return None, f"{short(raw)} is not a string"
    text = raw
    if typ.pattern is not None and not re.search(typ.pattern, text):
        text = re.sub(r"[^A-Za-z0-9_]", "", re.sub(r"[\s\-./]+", "_", text.strip()))
        if not re.search(typ.pattern, text):
            return None, f"{short(raw)} does not match {typ.pattern}"
    if typ.max_length is not None and len(text) > typ.max_length:
        text = text[: typ.max_length]
    if typ.min_length and len(text.strip()) < typ.min_length:
        return None, "empty"
    return text, None


def _number(raw: Any, typ: mi.IntType | mi.FloatType) -> tuple[Any, str | None]:
    if isinstance(raw, bool):
        return None, f"{raw!r} is not a number"
    try:
        number = float(raw)
    except (TypeError, ValueError):
        return None, f"{short(raw)} is not a number"
    if number != number:  # NaN
        return None, "not a number"
    low = typ.ge if typ.ge is not None else typ.gt
    high = typ.le if typ.le is not None else typ.lt
    if high == 1 and isinstance(typ, mi.FloatType) and 10 <= number <= 100:  # a percent: 90
        number /= 100
    number = max(number, low) if low is not None else number
    number = min(number, high) if high is not None else number
    return (round(number) if isinstance(typ, mi.IntType) else number), None


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
