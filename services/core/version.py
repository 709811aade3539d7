"""The package's version, read from its installed metadata (``pyproject.toml`` is the one place
it is written)."""

from __future__ import annotations

import functools
from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "twin-core"


@functools.cache
def package_version() -> str:
    """``twin-core``'s version as installed; ``0+unknown`` when run from a tree never installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"
