"""Arguments every subcommand shares (--config, key=value overrides, --out, --debug)."""

from __future__ import annotations

import argparse
import json

from mars2.config import Config, load_config
from mars2.errors import UserError


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


def flag_overrides(args: argparse.Namespace, keys: dict[str, str]) -> list[str]:
    """The one way a command's own flags become config: `key=value` overrides (flag name ->
    dotted key) for the flags that were given, to be applied before the user's overrides."""
    out = []
    for flag, key in keys.items():
        value = getattr(args, flag, None)
        if value is not None and value is not False:
            out.append(f"{key}={json.dumps(value) if not isinstance(value, str) else value}")
    return out


def agents_override(models: str, *, alternate_roles: bool = True) -> str:
    """`--agents a,b`: one frozen agent per model as an `agents=[...]` override (JSON is YAML).
    Roles alternate coder, debugger, named by role (mars2.agents_for); with
    `alternate_roles=False` every agent is a coder (`coder`, `coder-2`, ...)."""
    from mars2.api import agents_for
    from mars2.config import AgentConfig, to_dict

    names = [m.strip() for m in models.split(",") if m.strip()]
    if not names:
        raise UserError("--agents needs at least one model name")
    specs: list[str | AgentConfig] = list(names)
    if not alternate_roles:
        specs = [
            AgentConfig(name="coder" if i == 0 else f"coder-{i + 1}", model=m, trainable=False)
            for i, m in enumerate(names)
        ]
    return f"agents={json.dumps(to_dict(agents_for(specs, trainable=False)))}"
