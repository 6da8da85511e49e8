"""`mars2 search`: inference-time scaling — grow a search tree per problem with any agents and
report Pass@1, Pass@1(MCTS) and Pass@N."""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from mars2.cli.common import add_common, agents_override, flag_overrides, load

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "search",
        help="Run the tree search on a problem set and report Pass@1 / Pass@1(MCTS) / Pass@N.",
    )
    add_common(parser)
    parser.add_argument(
        "--problems", metavar="NAME", help="Problem set or file (default eval.problems)."
    )
    parser.add_argument(
        "--agents",
        metavar="A[,B...]",
        help="Comma-separated models, one agent each (e.g. smollm2-135m,smollm2-135m); "
        "roles alternate coder, debugger. Default: the config's agents.",
    )
    parser.add_argument(
        "--algo", choices=["abmcts", "sampling", "refine", "best_first"], help="Search algorithm."
    )
    parser.add_argument("--budget", type=int, metavar="N", help="Nodes per tree.")
    parser.add_argument("--limit", type=int, metavar="K", help="Only the first K problems.")
    parser.set_defaults(func=run)


def _overrides(args: argparse.Namespace) -> list[str]:
    keys = {
        "problems": "eval.problems",
        "algo": "search.algo",
        "budget": "search.budget",
        "limit": "eval.limit",
    }
    # the agents come before the user's overrides, so `agents.0.max_batch_size=32` applies
    return flag_overrides(args, keys) + ([agents_override(args.agents)] if args.agents else [])


@contextlib.contextmanager
def _progress() -> Iterator[Callable[[Any], None]]:
    """A progress bar of finished trees; yields the orchestrator's `on_tree` callback."""
    columns = (
        TextColumn("[bold]trees"),
        BarColumn(),
        TextColumn("{task.completed}"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
    )
    started = time.perf_counter()
    nodes = 0
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("trees", total=None, rate="")

        def on_tree(result: Any) -> None:
            nonlocal nodes
            nodes += len(result.records)
            elapsed = time.perf_counter() - started
            progress.update(task, advance=1, rate=f"{nodes / elapsed:.2f} nodes/s")

        yield on_tree


def metric_rows(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(metric, "value [lo, hi]") for each metric of a metrics.json with intervals."""
    from mars2.evaluation.record import interval

    rows = []
    for key, value in summary.items():
        if key.startswith("pass@") and not key.endswith(("_lo", "_hi")):
            lo, hi = summary.get(f"{key}_lo"), summary.get(f"{key}_hi")
            text = interval(value, lo, hi) if lo is not None and hi is not None else f"{value:.3f}"
            rows.append((key, text))
    return rows


def print_summary(summary: dict[str, Any]) -> None:
    title = (
        f"{summary['problems']} ({summary['n_problems']} problems x {summary.get('samples', 1)}, "
        f"{summary.get('algo', '?')} budget {summary.get('budget', '?')})"
    )
    table = Table("metric", "value [95% CI]", title=title)
    for key, text in metric_rows(summary):
        table.add_row(key, text)
    table.add_row("nodes", str(summary["nodes"]))
    table.add_row("trees refined (depth >= 2)", f"{summary.get('refined_share', 0.0):.2f}")
    if "tokens_per_s" in summary:
        table.add_row("tokens/s", f"{summary['tokens_per_s']:.1f}")
        table.add_row("wall s", f"{summary['wall_s']:.1f}")
    if summary.get("cached"):
        table.add_row("cached", "yes (eval.cache=false to recompute)")
    console.print(table)
    agents = Table("agent", "share", "mean score", "passes", "wins", title="agents")
    for name, stats in summary["agents"].items():
        mean = stats["mean_score"]
        agents.add_row(
            name,
            f"{stats['share']:.2f}",
            "-" if mean is None else f"{mean:.3f}",
            str(stats["passed"]),
            str(stats["wins"]),
        )
    console.print(agents)


def run(args: argparse.Namespace) -> int:
    from mars2.api import run_directory, search

    args.overrides = [*_overrides(args), *(args.overrides or [])]
    config = load(args)
    out = run_directory(config, "search")
    with _progress() as on_tree:
        summary = search(config=config, out=out, on_tree=on_tree)
    print_summary(summary)
    console.print(f"run directory: {out}")
    return 0
