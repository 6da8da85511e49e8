"""Arguments every subcommand shares (--config, key=value overrides, --out, --debug)."""

from __future__ import annotations

import argparse
from pathlib import Path

from mars2.config import Config, load_config


def add_common(parser: argparse.ArgumentParser, out: bool = True) -> None:
    parser.add_argument("--config", metavar="FILE", help="YAML config file (see configs/).")
    parser.add_argument(
        "overrides",
        nargs="*",
        metavar="KEY=VALUE",
        help="Dotted config overrides, e.g. search.budget=16 agents.0.model=tiny-random.",
    )
    if out:
        parser.add_argument(
            "--out", metavar="DIR", help="Run directory (default runs/<cmd>-<time>)."
        )
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")


def load(args: argparse.Namespace) -> Config:
    """The resolved config: defaults, then --config, then overrides, then --out."""
    overrides = list(args.overrides or [])
    if getattr(args, "out", None):
        overrides.append(f"output.out={args.out}")
    return load_config(args.config, overrides)


def run_dir(config: Config, command: str) -> Path:
    """Create the run directory and write the resolved config into it."""
    from mars2.api import run_directory

    return run_directory(config, command)
