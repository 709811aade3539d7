"""The chat model behind one small port: structured JSON output and plain replies.

Any OpenAI-compatible endpoint (OpenAI, OpenRouter, vLLM, Ollama) through one ``AsyncOpenAI``
client opened by the lifespan. With none configured, :func:`open_llm` returns ``None`` and each
node uses its own deterministic offline engine. Every failure surfaces as one of two domain
errors, never as an ``openai`` exception.

:func:`openai_client` (shared with the embedder) hands the SDK an ``httpx.AsyncClient`` built
here. openai>=3 defaults to ``httpx2``, which respx cannot intercept; the SDK still accepts an
``httpx`` client (a documented, runtime-only compatibility path), and that keeps the project's
one HTTP seam, where tests mock the model endpoint with respx.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any, Protocol, cast

import msgspec

from services.core.errors import DependencyUnavailable

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletionMessageParam

# ``openai`` (and the httpx client under it) is imported where a client is built or called:
# it costs ~40 MB and seconds of start-up, which the offline default never needs.

_OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"


class LLMUnavailable(DependencyUnavailable):
    """The endpoint gave no answer: timeout, connection error, rate limit or an error status."""

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__("llm", message)
        self.status_code = status_code


class LLMMalformedOutput(Exception):
    """The endpoint answered, but not with what was asked (no content, not a JSON object)."""


# ``timeout`` is a parameter (ruff's ASYNC109 would rather have callers wrap the call) because
# it is also the HTTP client's per-attempt timeout; the call bounds its retries by it too.
class LLM(Protocol):
    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: dict[str, Any],
        schema_name: str,
        timeout: float,  # noqa: ASYNC109
    ) -> dict[str, Any]:
        """A JSON object the model produced under ``schema`` (strict structured output)."""
        ...

    async def chat(
        self,
        messages: list[dict[str, Any]],
        timeout: float,  # noqa: ASYNC109
        response_format: dict[str, Any] | None = None,
    ) -> str:
        """The content of one chat completion (``response_format`` passed as is when given)."""
        ...

    async def close(self) -> None: ...


class OpenAILLM:
    def __init__(self, client: openai.AsyncOpenAI, *, model: str) -> None:
        self._client = client
        self.model = model

    async def complete_json(
        self,
        *,
        system: str,
        user: str,
        schema: dict[str, Any],
        schema_name: str,
        timeout: float,  # noqa: ASYNC109
    ) -> dict[str, Any]:
        content = await self._create(
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            budget_s=timeout,
            response_format={
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            },
        )
        try:
            value = msgspec.json.decode(content)
        except msgspec.DecodeError as exc:
            # The output is not quoted: it may carry the user's memories into logs and errors.
            raise LLMMalformedOutput(f"model output is not JSON ({len(content)} chars)") from exc
        if not isinstance(value, dict):
            raise LLMMalformedOutput(f"model output is {type(value).__name__}, not an object")
        return value

    async def chat(
        self,
        messages: list[dict[str, Any]],
        timeout: float,  # noqa: ASYNC109
        response_format: dict[str, Any] | None = None,
    ) -> str:
        extra = {"response_format": response_format} if response_format else {}
        return await self._create(messages=messages, budget_s=timeout, **extra)

    async def _create(
        self, *, messages: list[dict[str, Any]], budget_s: float, **extra: Any
    ) -> str:
        import openai

        try:
            # The budget bounds the whole call, retries included, not just one attempt.
            async with asyncio.timeout(budget_s):
                response = await self._client.chat.completions.create(
                    model=self.model,
                    messages=cast("list[ChatCompletionMessageParam]", messages),
                    timeout=budget_s,
                    **extra,
                )
        except TimeoutError as exc:
            raise LLMUnavailable(f"model endpoint gave no answer within {budget_s} s") from exc
        except openai.APIStatusError as exc:
            # 5xx and 429 are transient; 4xx (bad key, unknown model, unsupported schema) is
            # a misconfigured endpoint: either way this request cannot get an answer now.
            raise LLMUnavailable(
                f"model endpoint answered {exc.status_code}: {exc.message}",
                status_code=exc.status_code,
            ) from exc
        except openai.APIError as exc:  # timeout, connection refused, unreadable response
            raise LLMUnavailable(f"model endpoint unreachable: {type(exc).__name__}") from exc
        except json.JSONDecodeError as exc:  # a 200 whose body is cut off or not JSON
            raise LLMUnavailable("model endpoint answered a body that is not JSON") from exc
        if not hasattr(response, "choices"):  # e.g. a proxy's HTML page with status 200
            raise LLMUnavailable(
                f"model endpoint answered {type(response).__name__}, not a chat completion"
            )
        if not response.choices:
            raise LLMMalformedOutput("model returned no choices")
        message = response.choices[0].message
        if message.content is None:
            refusal = getattr(message, "refusal", None)
            raise LLMMalformedOutput(f"model returned no content (refusal: {refusal!r})")
        content: str = message.content
        return content

    async def close(self) -> None:
        await self._client.close()


def openai_client(
    *, base_url: str | None, api_key: str | None, timeout: float, max_retries: int
) -> openai.AsyncOpenAI:
    """An SDK client that never reads the environment for its endpoint or key.

    Without a key (a local server) a placeholder is sent; without a URL, OpenAI's.
    """
    import httpx
    import openai

    http_client: Any = httpx.AsyncClient(timeout=timeout, follow_redirects=True)
    return openai.AsyncOpenAI(
        base_url=base_url or _OPENAI_DEFAULT_BASE_URL,
        api_key=api_key or "not-needed",
        timeout=timeout,
        max_retries=max_retries,
        http_client=http_client,
    )


def open_llm(
    *,
    base_url: str | None,
    api_key: str | None,
    model: str,
    timeout: float,
    max_retries: int = 1,
) -> LLM | None:
    """The configured chat model, or ``None`` when neither an endpoint nor a key is set.

    A base URL alone (a local server) is enough. ``timeout`` is the client's default; each call
    passes its own budget.
    """
    if not (base_url or api_key):
        return None
    client = openai_client(
        base_url=base_url, api_key=api_key, timeout=timeout, max_retries=max_retries
    )
    return OpenAILLM(client, model=model)
