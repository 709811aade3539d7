"""Domain errors shared by adapters and nodes; no framework imports (problems.py maps them)."""

from __future__ import annotations


class DependencyUnavailable(Exception):
    """A store or model this request needs did not answer; the caller should retry later."""

    def __init__(self, dependency: str, detail: str = "") -> None:
        super().__init__(f"{dependency} unavailable: {detail}" if detail else dependency)
        self.dependency = dependency
        self.detail = detail
