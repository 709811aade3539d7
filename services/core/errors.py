"""Domain errors: what went wrong, in the domain's words, with no HTTP status and no framework
import. :mod:`services.core.problems` maps each one to its status and problem body, once.

Raise them from steps, stores and adapters; a handler never builds an HTTP answer itself.
"""

from __future__ import annotations

from dataclasses import dataclass


class DependencyUnavailable(Exception):
    """A store or model this request needs did not answer; the caller should retry later."""

    def __init__(self, dependency: str, detail: str = "") -> None:
        super().__init__(f"{dependency} unavailable: {detail}" if detail else dependency)
        self.dependency = dependency
        self.detail = detail


class DependencySaturated(DependencyUnavailable):
    """The dependency is up but has no capacity for this request now (every pooled connection
    taken); ``detail`` says what ran out, and names no data, so the answer may quote it."""


@dataclass(frozen=True)
class FieldError:
    path: str  # JSONPath-like, e.g. "$.plan.facts[2].importance"
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "reason": self.reason}


class InvalidInput(ValueError):
    """The input does not match its contract; ``errors`` lists each invalid field, ``title``
    says what was invalid ("Invalid envelope")."""

    def __init__(self, errors: list[FieldError], title: str = "Invalid input") -> None:
        super().__init__("; ".join(f"{e.path}: {e.reason}" for e in errors))
        self.errors = errors
        self.title = title


class MalformedJSON(InvalidInput):
    """The body is not JSON at all: nothing in it could be checked against a contract."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__(errors, "Malformed JSON")


class NotFound(LookupError):
    """What the request names does not exist (``detail`` says what, and where to look)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class Conflict(Exception):
    """The request contradicts what is already stored (a turn id reused with another body)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class Contention(Exception):
    """The state a request computes on kept changing under it; a retry soon will likely pass."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail
