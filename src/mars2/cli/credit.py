"""`mars2 credit TREES.jsonl`: show each node's raw reward, shaped reward, path value and advantage."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mars2.cli.common import add_common, flag_overrides, load
from mars2.config import CreditConfig
from mars2.credit import assign_credit, read_node_records
from mars2.errors import UserError
from mars2.rundir import in_step_order


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "credit",
        help="Explain credit assignment: reward, shaped reward, path value, advantage per node.",
        description="Reads tree node records (trees/*.jsonl of a run) and prints, per node, the "
        "raw reward, shaped reward, path value and advantage (docs/algorithms.md). Flags override the "
        "`credit.*` config fields (--config / credit.KEY=VALUE).",
    )
    parser.add_argument(
        "trees",
        metavar="TREES.jsonl",
        help="Node record file, or a directory of them (a run's trees/).",
    )
    parser.add_argument("--reward", choices=("binary", "fraction"), help="Raw reward kind.")
    parser.add_argument("--gamma", type=float, help="Shaping strength γ.")
    parser.add_argument("--lam", type=float, help="Parent/sibling baseline mix λ.")
    parser.add_argument("--eta", type=float, help="Path-value weight η of the best child.")
    parser.add_argument("--group", choices=("tree", "tree_agent"), help="Advantage group.")
    parser.add_argument("--scale", choices=("std", "none"), help="Divide by the group std or not.")
    parser.add_argument(
        "--max-len", type=int, help="L_max of the overlong penalty (with credit.overlong_buffer)."
    )
    parser.add_argument(
        "--independent",
        action="store_true",
        help="Treat each tree_id as a group of independent samples (vanilla GRPO).",
    )
    parser.add_argument("--json", action="store_true", help="One JSON object per node.")
    add_common(parser, out=False)
    parser.set_defaults(func=run)


def _credit_config(args: argparse.Namespace) -> CreditConfig:
    keys = {k: f"credit.{k}" for k in ("reward", "gamma", "lam", "eta", "group", "scale")}
    args.overrides = [*flag_overrides(args, keys), *(args.overrides or [])]
    return load(args).credit


def run(args: argparse.Namespace) -> int:
    config = _credit_config(args)
    path = Path(args.trees)
    files = in_step_order(list(path.glob("*.jsonl"))) if path.is_dir() else [path]
    if not files:
        raise UserError(f"{path}: no *.jsonl node record files in this directory")
    records = [r for file in files for r in read_node_records(file)]
    if config.overlong_buffer > 0 and args.max_len is None:
        raise UserError("--max-len is required when credit.overlong_buffer > 0")
    credits = assign_credit(records, config, max_len=args.max_len, independent=args.independent)
    if args.json:
        for c in credits:
            print(json.dumps(c.to_json()))
        return 0
    table = Table("tree", "node", "parent", "agent", "reward", "shaped", "value", "advantage")
    for record, c in zip(records, credits, strict=True):
        parent = "root" if record.parent_id is None else str(record.parent_id)
        table.add_row(
            escape(c.tree_id),
            str(c.node_id),
            parent,
            str(c.agent_id),
            f"{c.reward:.4f}",
            f"{c.shaped:.4f}",
            f"{c.value:.4f}",
            f"{c.advantage:+.4f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"reward={config.reward} γ={config.gamma} λ={config.lam} η={config.eta} "
        f"group={config.group} scale={config.scale}",
        highlight=False,
    )
    return 0
