"""The answer format envelope-validator hands the LLM: :class:`LLMAnswer` as a strict schema."""

from __future__ import annotations

import functools

from contracts.envelope_io import JsonSchemaFormat, ResponseFormat
from contracts.plan import LLMAnswer
from services.core.json_schema import strict_schema

SCHEMA_NAME = "twin_answer"

__all__ = ["SCHEMA_NAME", "response_format", "strict_schema"]


@functools.cache
def response_format() -> ResponseFormat:
    return ResponseFormat(
        json_schema=JsonSchemaFormat(name=SCHEMA_NAME, strict=True, schema=strict_schema(LLMAnswer))
    )
