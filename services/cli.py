"""``twin``: the entry point — the only place that reads the environment.

twin migrate              apply pending Postgres migrations (idempotent)
twin serve NODE [--port]  one node on its own port
twin up                   migrate, then all six nodes in one process on their ports
twin export-schema        write contracts/schema/*.json from the contracts
twin chat --user U --agent A   talk to the running nodes from the terminal
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import threading
from pathlib import Path

import structlog

from services.core.logs import configure_logging
from services.core.settings import NODE_PORTS, Settings


def main(argv: list[str] | None = None) -> int:
    # A shell starts background jobs with SIGINT ignored. uvicorn stops on SIGINT anyway, then
    # restores the handler it found and re-raises the signal: with SIG_IGN found, a stop by
    # SIGINT would end with status 0 instead of 130.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # SIGTERM outside uvicorn's run (stores starting, migrating) unwinds like Ctrl-C, so the
    # embedded stores stop; while serving, the server drains first (services.core.drain).
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: the server has already drained and closed; no traceback
        print("stopped", file=sys.stderr)
        return 130
    except Terminated:
        print("stopped", file=sys.stderr)
        return 0


class Terminated(Exception):  # noqa: N818 - named after the signal, like KeyboardInterrupt
    """SIGTERM arrived before or after the server ran."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def build_parser() -> argparse.ArgumentParser:
    """``twin``'s commands and their options (tests/test_readme.py checks the README by it)."""
    parser = argparse.ArgumentParser(prog="twin", description="Twin Core memory nodes")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate", help="apply pending Postgres migrations")
    serve_cmd = commands.add_parser("serve", help="serve one node")
    serve_cmd.add_argument("node", choices=sorted(NODE_PORTS))
    serve_cmd.add_argument("--port", type=int, default=None)
    up_cmd = commands.add_parser("up", help="migrate, then serve all six nodes in one process")
    up_cmd.add_argument("--no-migrate", action="store_true")
    commands.add_parser("export-schema", help="write contracts/schema/*.json")
    chat_cmd = commands.add_parser("chat", help="talk to the running nodes as Telegram would")
    chat_cmd.add_argument("--user", required=True, help="the person's id, e.g. alice")
    chat_cmd.add_argument("--agent", required=True, help="the persona's id, e.g. deanna")
    chat_cmd.add_argument(
        "--chat", default=None, help="chat id (default: play:<user>, shared by the user's personas)"
    )
    chat_cmd.add_argument("--persona", default="", help="the agent's persona prompt")
    chat_cmd.add_argument(
        "--show",
        action="store_true",
        help="print the envelope and what was written after every turn",
    )
    return parser


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)

    settings = Settings.from_env(os.environ)
    configure_logging(json=settings.log_json)
    if args.command in ("serve", "up") and not _may_expose(settings, args.command):
        return 2
    if args.command in ("migrate", "serve", "up"):
        return _with_stores(settings, args)
    if args.command == "export-schema":
        from contracts.export import export

        print("\n".join(export()))
        return 0
    if args.command == "chat":
        return _chat(settings, args)
    return 2  # pragma: no cover - argparse refuses unknown commands


def _may_expose(settings: Settings, command: str) -> bool:
    """No node beyond loopback without a token: refused in one line, or, with
    ``TWIN_ALLOW_OPEN``, served with a warning (services.core.exposure)."""
    from services.core.exposure import exposure_refusal, is_open_beyond_loopback

    if (refusal := exposure_refusal(settings)) is not None:
        print(f"twin {command}: {refusal}", file=sys.stderr)
        return False
    if is_open_beyond_loopback(settings):
        structlog.get_logger("twin").warning(
            "open_beyond_loopback",
            host=settings.host,
            detail="TWIN_ALLOW_OPEN: every person's memory is served with no token",
        )
    return True


def _chat(settings: Settings, args: argparse.Namespace) -> int:
    """``twin chat``: its ids checked before anything is sent, then the conversation."""
    from services.playground.ids import id_problem
    from services.playground.terminal import run_chat

    chosen = {"--user": args.user, "--agent": args.agent, "--chat": args.chat}
    for option, value in chosen.items():
        if value is not None and (problem := id_problem(option, value)) is not None:
            print(f"twin chat: {problem}", file=sys.stderr)
            return 2
    return asyncio.run(
        run_chat(
            settings,
            user_id=args.user,
            agent_id=args.agent,
            chat_id=args.chat or f"play:{args.user}",
            persona_prompt=args.persona,
            show=args.show,
            shared_chat=args.chat is None,
        )
    )


def _with_stores(settings: Settings, args: argparse.Namespace) -> int:
    """Run a command that needs the stores: the embedded ones for every URL left unset,
    stopped when the command ends (after uvicorn drained, on SIGTERM or Ctrl-C)."""
    from services.core.embedded import EmbeddedStoreError, embedded_stores
    from services.core.embedded.private import keep_private
    from services.core.host import PortInUse

    keep_private(_product_folders(settings))
    if args.command == "migrate":
        needs = frozenset({"postgres"})
    elif args.command == "serve":
        from services.nodes import node_spec

        needs = node_spec(args.node).stores
    else:
        needs = frozenset({"postgres", "redis", "vectors"})  # the six nodes need every store
        # The nodes' imports take seconds: let them run while the stores start.
        threading.Thread(target=_import_nodes, name="import-nodes", daemon=True).start()
    try:
        with embedded_stores(settings, needs) as settings:
            if args.command == "migrate":
                return _migrate(settings)
            structlog.get_logger("twin").info(
                "stores",
                **{store: mode for store, mode in settings.store_modes.items() if store in needs},
            )
            if args.command == "serve":
                return _serve_one(settings, args.node, args.port or settings.port_of(args.node))
            if not args.no_migrate and _migrate(settings) != 0:
                return 1
            return _serve_all(settings)
    except (EmbeddedStoreError, PortInUse) as exc:
        print(f"twin {args.command}: {exc}", file=sys.stderr)
        return 1


def _product_folders(settings: Settings) -> list[Path]:
    """The folders twin writes what people said into: the data folder (embedded Postgres,
    Redis and their logs) and the Qdrant Edge folder."""
    folders = [Path(settings.data_dir)]
    if settings.qdrant_url is None:
        folders.append(Path(settings.qdrant_path))
    return folders


def _import_nodes() -> None:
    from services.nodes import all_specs

    all_specs()


def _migrate(settings: Settings) -> int:
    from services.core.migrate import MigrationError, apply_migrations, ensure_database

    database_url = settings.database_url
    if database_url is None:  # _with_stores resolved it to the embedded Postgres before this
        raise ValueError("DATABASE_URL is unset and no embedded Postgres was started")

    async def run() -> list[str]:
        if await ensure_database(database_url):
            print("created the database")
        return await apply_migrations(database_url)

    try:
        applied = asyncio.run(run())
    except (MigrationError, OSError) as exc:
        print(f"twin migrate: {exc}", file=sys.stderr)
        return 1
    print(f"applied: {', '.join(applied)}" if applied else "schema is up to date")
    return 0


def _serve_one(settings: Settings, node: str, port: int) -> int:
    from services.core.app import create_app
    from services.core.host import bind, serve
    from services.nodes import node_spec

    serve(create_app(node_spec(node), settings), [bind(settings.host, port, node)], settings)
    return 0


def _serve_all(settings: Settings) -> int:
    from services.core.app import create_app
    from services.core.host import PortRouter, bind, serve
    from services.nodes import all_specs

    specs = all_specs()
    apps = {settings.port_of(name): create_app(spec, settings) for name, spec in specs.items()}
    needs = frozenset().union(*(spec.stores for spec in specs.values()))
    router = PortRouter(
        apps, settings, needs, on_ready=lambda: print(ready_line(settings), flush=True)
    )
    serve(router, [bind(settings.host, settings.port_of(name), name) for name in specs], settings)
    return 0


def ready_line(settings: Settings) -> str:
    """What ``twin up`` prints once every node answers: where, and what to run next."""
    ports = sorted(settings.port_of(node) for node in NODE_PORTS)
    offset = f"TWIN_PORT_OFFSET={settings.port_offset} " if settings.port_offset else ""
    return (
        f"ready: the six nodes answer on {settings.host}:{ports[0]}–{ports[-1]}. "
        f"Now run, in a second terminal: {offset}uv run twin chat --user alice --agent deanna"
    )


if __name__ == "__main__":
    sys.exit(main())
