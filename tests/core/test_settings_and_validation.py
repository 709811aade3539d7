"""Settings come from an injected mapping; validation lists every problem with its path."""

from __future__ import annotations

from typing import Annotated

import msgspec
import pytest

from contracts.plan import MemoryWritePlan
from services.core.errors import InvalidInput
from services.core.settings import Settings, SettingsError
from services.core.validation import convert, decode


def test_settings_read_from_a_mapping_with_defaults() -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql://x/y",
            "TWIN_PG_POOL_MAX": "4",
            "TWIN_LOG_JSON": "false",
            "QDRANT_URL": "",
        }
    )
    assert settings.database_url == "postgresql://x/y"
    assert settings.pg_pool_max == 4 and settings.log_json is False
    assert settings.qdrant_url is None and settings.embedder == "minilm"
    assert not settings.llm_configured


def test_a_bad_setting_names_its_variable() -> None:
    with pytest.raises(SettingsError, match="TWIN_PG_POOL_MAX"):
        Settings.from_env({"TWIN_PG_POOL_MAX": "many"})


class Item(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1)]
    size: int = 0


class Box(msgspec.Struct, forbid_unknown_fields=True):
    label: str
    items: list[Item] = []
    parent: Item | None = None


def test_every_problem_is_listed_not_the_first() -> None:
    value = {
        "items": [{"name": "ok"}, {"name": "", "size": "big"}],
        "parent": {"x": 1},
        "extra": True,
    }
    with pytest.raises(InvalidInput) as caught:
        convert(value, Box)
    paths = sorted(error.path for error in caught.value.errors)
    assert paths == [
        "$.extra",
        "$.items[1].name",
        "$.items[1].size",
        "$.label",
        "$.parent.name",
        "$.parent.x",
    ]


def test_valid_input_takes_the_fast_path() -> None:
    assert convert({"label": "a", "items": [{"name": "x"}]}, Box).items[0].name == "x"


def test_malformed_json_is_reported_at_the_root() -> None:
    with pytest.raises(InvalidInput) as caught:
        decode(b"{", Box)
    assert caught.value.errors[0].path == "$"


def test_an_invalid_memory_plan_lists_each_bad_fact() -> None:
    plan = {
        "facts": [
            {"memory_type": "OPEN_LOOP", "predicate": "X", "text": "t"},
            {"memory_type": "PEOPLE", "predicate": "SISTER OF", "text": "t", "importance": 7},
        ]
    }
    with pytest.raises(InvalidInput) as caught:
        convert(plan, MemoryWritePlan)
    paths = sorted(error.path for error in caught.value.errors)
    assert paths == ["$.facts[0].memory_type", "$.facts[1].importance", "$.facts[1].predicate"]
