"""`mars2 eval RUN_DIR`: evaluate a training run's checkpoint (or its base agents) with the
evaluation protocol (`eval.*`): the team, and each agent alone when there are several."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from mars2.cli.common import flag_overrides
from mars2.cli.search import print_summary

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "eval",
        help="Evaluate a run's checkpoint: Pass@1, Pass@1(MCTS), Pass@N with 95%% intervals.",
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="A `mars2 train` run directory.")
    parser.add_argument("--step", type=int, help="Checkpoint step (default: the latest).")
    parser.add_argument("--base", action="store_true", help="Evaluate the untrained base agents.")
    parser.add_argument(
        "--agents",
        metavar="NAME[,NAME...]",
        help="Evaluate only these agents of the run, as one team (one name: that agent alone).",
    )
    parser.add_argument("--problems", metavar="NAME", help="Problem set (default eval.problems).")
    parser.add_argument("--budget", type=int, metavar="N", help="Nodes per tree (eval.budget).")
    parser.add_argument("--limit", type=int, metavar="K", help="Only the first K problems.")
    parser.add_argument("--samples", type=int, metavar="N", help="Trees per problem.")
    parser.add_argument("--out", metavar="DIR", help="Output directory (default RUN_DIR/eval-*).")
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="Config overrides.")
    parser.set_defaults(func=run)


def _overrides(args: argparse.Namespace) -> list[str]:
    keys = {
        "problems": "eval.problems",
        "limit": "eval.limit",
        "budget": "eval.budget",
        "samples": "eval.samples",
    }
    return [*flag_overrides(args, keys), *args.overrides]


def run(args: argparse.Namespace) -> int:
    from mars2.api import evaluate

    agents = None
    if args.agents is not None:
        agents = [n.strip() for n in args.agents.split(",") if n.strip()]
    label = "base" if args.base else f"step {args.step}" if args.step else "latest checkpoint"
    console.print(f"[bold]mars2 eval[/] {args.run_dir}: {label}")
    result = evaluate(
        args.run_dir,
        step=args.step,
        base=args.base,
        agents=agents,
        overrides=_overrides(args),
        out=args.out,
    )
    print_summary(result)
    if "alone" in result:
        print_alone(result["alone"])
    console.print(
        f"eval.json: {Path(result['out']) / 'eval.json'} (pair two with `mars2 compare A B`)"
    )
    return 0


def print_alone(alone: dict[str, dict[str, float]]) -> None:
    from mars2.cli.search import metric_rows

    first = next(iter(alone.values()))
    keys = [k for k, _ in metric_rows(first)]
    table = Table("agent alone", *keys, title="each agent alone (95% CI)")
    for name, values in alone.items():
        table.add_row(name, *[text for _, text in metric_rows(values)])
    console.print(table)
