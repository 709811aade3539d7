"""The six nodes, by name: the entry point's only knowledge of them (explicit imports, so a
reader and a type checker see every node; services/core knows none of them).

Composition happens here and nowhere below: every node is a leaf that imports no other node,
and the fast brain in one call (``POST /v1/turn``, :mod:`services.fast_brain`), which runs four
nodes' steps, is mounted on rag-gate by this module.
"""

from __future__ import annotations

from services.core.app import NodeSpec
from services.envelope_validator.app import SPEC as ENVELOPE_VALIDATOR
from services.fast_brain.app import ROUTES as FAST_BRAIN
from services.graph_hydrator.app import SPEC as GRAPH_HYDRATOR
from services.memory_upserter.app import SPEC as MEMORY_UPSERTER
from services.pulse_decay.app import SPEC as PULSE_DECAY
from services.rag_gate.app import SPEC as RAG_GATE_ALONE
from services.reflection_writer.app import SPEC as REFLECTION_WRITER

RAG_GATE = RAG_GATE_ALONE.mounting(
    FAST_BRAIN, "Also serves the whole fast brain in one call (/v1/turn)."
)

SPECS: dict[str, NodeSpec] = {
    spec.name: spec
    for spec in (
        PULSE_DECAY,
        GRAPH_HYDRATOR,
        RAG_GATE,
        ENVELOPE_VALIDATOR,
        MEMORY_UPSERTER,
        REFLECTION_WRITER,
    )
}
NODE_NAMES = tuple(SPECS)


def node_spec(name: str) -> NodeSpec:
    """The node called ``name`` (``pulse-decay``, ``rag-gate``, …)."""
    if name not in SPECS:
        raise KeyError(f"unknown node {name!r}; one of: {', '.join(SPECS)}")
    return SPECS[name]


def all_specs() -> dict[str, NodeSpec]:
    return dict(SPECS)
