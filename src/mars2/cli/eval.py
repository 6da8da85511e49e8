"""`mars2 eval RUN_DIR`: evaluate a training run's checkpoint with the tree search."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from rich.console import Console

from mars2.cli.search import print_summary, search
from mars2.config import load_config
from mars2.errors import UserError

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "eval", help="Evaluate a run's checkpoint: Pass@1, Pass@1(MCTS), Pass@N on data.eval."
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="A `mars2 train` run directory.")
    parser.add_argument("--step", type=int, help="Checkpoint step (default: the latest).")
    parser.add_argument("--base", action="store_true", help="Evaluate the untrained base agents.")
    parser.add_argument("--problems", metavar="NAME", help="Problem set (default data.eval).")
    parser.add_argument("--budget", type=int, metavar="N", help="Nodes per tree.")
    parser.add_argument("--limit", type=int, metavar="K", help="Only the first K problems.")
    parser.add_argument("--out", metavar="DIR", help="Output directory (default RUN_DIR/eval-*).")
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="Config overrides.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mars2.train.restore import checkpoint_path, trained_models

    run_dir = Path(args.run_dir)
    if not (run_dir / "config.yaml").is_file():
        raise UserError(f"{run_dir}: no config.yaml there; is it a `mars2 train` run directory?")
    overrides = list(args.overrides)
    if args.problems:
        overrides.append(f"data.eval={args.problems}")
    if args.limit is not None:
        overrides.append(f"data.eval_limit={args.limit}")
    config = load_config(run_dir / "config.yaml", overrides)
    budget = args.budget or config.train.eval_budget
    config = dataclasses.replace(config, search=dataclasses.replace(config.search, budget=budget))
    if args.base:
        models, label = None, "base"
    else:
        path = checkpoint_path(run_dir, args.step)
        models, label = trained_models(config, path), path.stem
    out = Path(args.out) if args.out else run_dir / f"eval-{label}"
    out.mkdir(parents=True, exist_ok=True)
    console.print(f"[bold]mars2 eval[/] {label} on {config.data.eval} -> {out}")
    summary = search(config, out, models)
    print_summary(summary)
    return 0
