"""Before the first message: is each node of the chain there, and is it the node we expect?

``twin chat`` finds the nodes by port (8101… plus ``TWIN_PORT_OFFSET``). Nothing listening means
the stack is not up (or runs at another offset); something answering that is not the expected
node — another node of the stack, another program's 404 — means the offsets differ. Either way
the user gets one line saying what to run, before typing anything. A node names itself on
``GET /version`` (open even when ``TWIN_NODE_TOKEN`` is set).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import httpx

from contracts.common import SLOT_CONTRACT_VERSION
from services.core.settings import NODE_PORTS

CHECK_TIMEOUT_S = 3.0


async def check_nodes(
    client: httpx.AsyncClient, base_urls: Mapping[str, str], port_offset: int
) -> str | None:
    """``None`` when every node answers ``/version`` as itself; else one line saying what to do."""
    found = await asyncio.gather(*(_identify(client, url) for url in base_urls.values()))
    answers = {node: who for node, (who, _) in zip(base_urls, found, strict=True)}
    contracts = {contract for _, contract in found if contract is not None}
    up = f"TWIN_PORT_OFFSET={port_offset} uv run twin up" if port_offset else "uv run twin up"
    same = f"`twin chat` and `twin up` need the same TWIN_PORT_OFFSET (here: {port_offset})"
    if all(answer is None for answer in answers.values()):
        return (
            f"No Twin Core node answers at {_ports(base_urls)}: start them first with "
            f"`{up}` in another terminal (or wait until it has started); {same}."
        )
    if (found_at := _offset_answering(base_urls, answers)) not in (None, port_offset):
        return (
            f"The Twin Core nodes answer at TWIN_PORT_OFFSET={found_at}, not {port_offset}: "
            f"run `TWIN_PORT_OFFSET={found_at} uv run twin chat …`, or start a stack at "
            f"{port_offset} with `{up}`; {same}."
        )
    for node, answer in answers.items():
        if answer is None:
            return (
                f"{node} does not answer at {base_urls[node]} while other nodes do: is "
                f"`twin up` still starting? {same}."
            )
        if answer != node:
            what = f"it is {answer}" if answer in NODE_PORTS else f"it {answer}"
            return f"{base_urls[node]} is not {node} ({what}): {same}."
    return _contract_problem(contracts, up)


def _contract_problem(contracts: set[str], up: str) -> str | None:
    """The nodes speak another contract than this ``twin chat``: a ``twin up`` started before
    the code was updated (``git pull``) answers every turn with a 422."""
    if not contracts - {SLOT_CONTRACT_VERSION}:
        return None
    running = ", ".join(sorted(contracts))
    return (
        f"The running nodes speak contract {running}, this `twin chat` {SLOT_CONTRACT_VERSION}: "
        f"that `twin up` runs the code from before an update; stop it (Ctrl-C) and run `{up}` "
        "again."
    )


async def _identify(client: httpx.AsyncClient, base_url: str) -> tuple[str | None, str | None]:
    """The name a node gives itself, or an account of what answered instead (``answered 404 to
    GET /version``; ``None``: nothing answered), and the contract version it speaks."""
    try:
        response = await client.get(base_url.rstrip("/") + "/version", timeout=CHECK_TIMEOUT_S)
    except httpx.TransportError:
        return None, None
    if response.status_code != 200:
        return f"answered {response.status_code} to GET /version", None
    try:
        version = response.json()
        node, contract = version.get("node"), version.get("slot_contract_version")
    except (ValueError, AttributeError):
        node = contract = None
    if not isinstance(node, str) or node not in NODE_PORTS:
        return "answered GET /version, but not as a Twin Core node", None
    return node, contract if isinstance(contract, str) else None


def _offset_answering(
    base_urls: Mapping[str, str], answers: Mapping[str, str | None]
) -> int | None:
    """The one port offset every node that answered as a Twin Core node implies (pulse-decay
    answering at graph-hydrator's port: one less); ``None`` when none did or they disagree."""
    implied = {
        (httpx.URL(base_urls[node]).port or 0) - NODE_PORTS[answer]
        for node, answer in answers.items()
        if answer in NODE_PORTS
    }
    return implied.pop() if len(implied) == 1 else None


def _ports(base_urls: Mapping[str, str]) -> str:
    ports = sorted(httpx.URL(url).port or 0 for url in base_urls.values())
    host = httpx.URL(next(iter(base_urls.values()))).host
    return f"{host}:{ports[0]}–{ports[-1]}" if len(ports) > 1 else f"{host}:{ports[0]}"
