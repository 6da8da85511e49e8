"""The `mars2` command: parse arguments, build objects, call the library; nothing else.

Exit codes: 0 success, 1 the run failed, 2 a user error (one clear message, no traceback;
`--debug` shows it).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from rich.console import Console

from mars2.errors import Mars2Error
from mars2.version import __version__

# Each name is a module mars2.cli.<name> with `register(subparsers)`, which adds its parser and
# sets `func(args) -> int` as the parser default.
COMMANDS = (
    "config",
    "doctor",
    "problems",
    "check",
    "search",
    "train",
    "sft",
    "eval",
    "compare",
    "budget",
    "experiment",
    "export",
    "credit",
    "report",
)

err_console = Console(stderr=True)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mars2",
        description="Multi-agent tree search and RL for code generation (MARS²).",
    )
    parser.add_argument("--version", action="version", version=f"mars2 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"mars2.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    # `key=value` overrides may come after flags too (`--out X search.budget=4`): argparse stops
    # a positional list at the first flag, so collect the rest here.
    args, extra = parser.parse_known_args(argv)
    stray = [t for t in extra if t.startswith("-") or "=" not in t]
    if stray or (extra and not hasattr(args, "overrides")):
        parser.error(f"unrecognized arguments: {' '.join(stray or extra)}")
    if extra:
        args.overrides = [*(args.overrides or []), *extra]
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    debug = bool(getattr(args, "debug", False))
    logging.basicConfig(
        level=logging.DEBUG if debug else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.func(args))
    except Mars2Error as err:
        if debug:
            raise
        err_console.print(f"[bold red]error:[/] {err}", highlight=False)
        return err.exit_code
    except KeyboardInterrupt:
        err_console.print("[bold red]interrupted[/]")
        return 130


if __name__ == "__main__":
    sys.exit(main())
