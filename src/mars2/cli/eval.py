"""`mars2 eval RUN_DIR`: evaluate a training run's checkpoint (or its base agents) with the
evaluation protocol (`eval.*`): the team, and each agent alone when there are several."""

from __future__ import annotations

import argparse
import contextlib
import logging
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from mars2.cli.common import flag_overrides
from mars2.cli.search import print_summary
from mars2.config import Config, load_config
from mars2.evaluation.progress import TreeLog
from mars2.rundir import RunDir

console = Console()
log = logging.getLogger(__name__)


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
    parser.add_argument(
        "--samples",
        type=int,
        metavar="N",
        help="Attempts per problem (eval.samples), each the first node of its own seeded tree; "
        "eval.trees of them grow the full search.",
    )
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
    run_dir = Path(args.run_dir)
    config = load_config(RunDir(run_dir).require_config(), _overrides(args))
    used = _announce_problems(config, args.overrides, limit_flag=args.limit is not None)
    console.print(f"[bold]mars2 eval[/] {args.run_dir}: {label}")
    teams = 1  # the team, then each agent alone (as mars2.api.evaluate chooses)
    if agents is None and len(config.agents) > 1 and config.eval.each_agent:
        teams += len(config.agents)
    with _quiet_libraries(args.debug), _progress(used * config.eval.samples * teams) as on_tree:
        result = evaluate(
            args.run_dir,
            step=args.step,
            base=args.base,
            agents=agents,
            overrides=_overrides(args),
            out=args.out,
            on_tree=on_tree,
        )
    print_summary(result)
    if "alone" in result:
        print_alone(result["alone"])
    console.print(
        f"eval.json: {RunDir(result['out']).eval_json()} (pair two with `mars2 compare A B`)"
    )
    return 0


def _announce_problems(config: Config, overrides: list[str], *, limit_flag: bool) -> int:
    """Load the evaluation set (a bad name or file fails here, before any model loads) and say
    plainly when `eval.limit` keeps only its first problems. Returns how many are evaluated."""
    from mars2.problems import load_problems

    spec, limit = config.eval.problems, config.eval.limit
    every = load_problems(spec)
    used = len(every) if limit is None else min(limit, len(every))
    if used < len(every):
        source = "--limit" if limit_flag else f"eval.limit={limit}"
        if not limit_flag and not any(o.startswith("eval.limit=") for o in overrides):
            source += " in the run's config"
        console.print(
            f"{spec}: evaluating the first {used} of its {len(every)} problems ({source}; "
            f"--limit {len(every)} or eval.limit=null for all)",
            highlight=False,
        )
    return used


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[Any], None]]:
    """Finished trees: a progress bar on a terminal; elsewhere (a log file, CI) plain log lines
    (`TreeLog`). Evaluations read from the cache grow no trees."""
    if console.is_terminal:
        started, nodes = time.perf_counter(), 0
        columns = (
            TextColumn("[bold]eval trees"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("eval", total=total, rate="")

            def on_tree_bar(result: Any) -> None:
                nonlocal nodes
                nodes += len(result.records)
                rate = nodes / max(time.perf_counter() - started, 1e-9)
                bar.update(task, advance=1, rate=f"{rate:.2f} nodes/s")

            yield on_tree_bar
        return

    yield TreeLog(total, log)


@contextlib.contextmanager
def _quiet_libraries(debug: bool) -> Iterator[None]:
    """Keep transformers / torch / peft warnings (Python warnings and transformers' logger) out
    of the user's output while models load and generate; `--debug` shows them."""
    if debug:
        yield
        return
    from transformers.utils import logging as hf_logging

    verbosity = hf_logging.get_verbosity()
    hf_logging.set_verbosity(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mars2 warns through logging, not `warnings`
            yield
    finally:
        hf_logging.set_verbosity(verbosity)


def print_alone(alone: dict[str, dict[str, float]]) -> None:
    from mars2.cli.search import metric_rows

    first = next(iter(alone.values()))
    keys = [k for k, _ in metric_rows(first)]
    table = Table("agent alone", *keys, title="each agent alone (95% CI)")
    for name, values in alone.items():
        table.add_row(name, *[text for _, text in metric_rows(values)])
    console.print(table)
