"""`mars2 search`: inference-time scaling — grow a search tree per problem with any agents and
report Pass@1, Pass@1(MCTS) and Pass@N."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from mars2.cli.common import add_common, load, run_dir
from mars2.config import Config

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "search",
        help="Run the tree search on a problem set and report Pass@1 / Pass@1(MCTS) / Pass@N.",
    )
    add_common(parser)
    parser.add_argument(
        "--problems", metavar="NAME", help="Problem set or file (default data.eval)."
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


ROLES = ("coder", "debugger")


def _overrides(args: argparse.Namespace) -> list[str]:
    extra = []
    if args.problems:
        extra.append(f"data.eval={args.problems}")
    if args.algo:
        extra.append(f"search.algo={args.algo}")
    if args.budget is not None:
        extra.append(f"search.budget={args.budget}")
    if args.limit is not None:
        extra.append(f"data.eval_limit={args.limit}")
    if args.agents:
        models = [m.strip() for m in args.agents.split(",") if m.strip()]
        specs = [
            f"{{name: {m}-{i}, model: '{m}', role: {ROLES[i % len(ROLES)]}, trainable: false}}"
            for i, m in enumerate(models)
        ]
        extra.append(f"agents=[{', '.join(specs)}]")
    return extra


def search(
    config: Config, out: Path, models: dict[int, tuple[Any, Any]] | None = None
) -> dict[str, Any]:
    """Run the search over `data.eval` and write metrics.json and trees/search.jsonl.
    `models` gives (model, tokenizer) for agents whose weights come from elsewhere (a checkpoint)."""
    from mars2.problems import load_problems
    from mars2.rollout import Orchestrator, TreeResult
    from mars2.rollout.engines import load_policies
    from mars2.rollout.summary import summarize
    from mars2.sandbox import Sandbox

    problems = load_problems(config.data.eval, limit=config.data.eval_limit)
    names = [config.agent_name(i) for i in range(len(config.agents))]
    policies = load_policies(config.agents, seed=config.seed, models=models)
    (out / "trees").mkdir(exist_ok=True)
    trees_file = open(out / "trees" / "search.jsonl", "w")  # noqa: SIM115 (closed below)
    started = time.perf_counter()
    columns = (
        TextColumn("[bold]search"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
    )
    try:
        with Sandbox(config.sandbox) as sandbox, Progress(*columns, console=console) as progress:
            orchestrator = Orchestrator(
                policies, config.agents, sandbox, config.search, reward=config.credit.reward
            )
            task = progress.add_task("trees", total=len(problems), rate="")

            def on_tree(result: TreeResult) -> None:
                for record in result.records:
                    trees_file.write(json.dumps(record.to_json()) + "\n")
                trees_file.flush()
                elapsed = time.perf_counter() - started
                stats = orchestrator.stats
                progress.update(
                    task,
                    advance=1,
                    rate=f"{stats.nodes / elapsed:.2f} nodes/s  {stats.tokens / elapsed:.0f} tok/s",
                )

            results = asyncio.run(orchestrator.run(problems, seed=config.seed, on_tree=on_tree))
    finally:
        trees_file.close()
        for policy in policies:
            policy.close()
    wall = time.perf_counter() - started
    stats = orchestrator.stats
    summary = summarize(results, names)
    summary.update(
        {
            "algo": config.search.algo,
            "budget": config.search.budget,
            "problems": config.data.eval,
            "wall_s": wall,
            "tokens": stats.tokens,
            "tokens_per_s": stats.tokens / wall if wall else 0.0,
            "time/generate": stats.generate_s,
            "time/execute": stats.execute_s,
        }
    )
    (out / "metrics.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def print_summary(summary: dict[str, Any]) -> None:
    table = Table(
        "metric", "value", title=f"{summary['problems']} ({summary['n_problems']} problems)"
    )
    for key in ("pass@1", "pass@1_mcts", "pass@n"):
        table.add_row(key, f"{summary[key]:.3f}")
    table.add_row("nodes", str(summary["nodes"]))
    table.add_row("tokens/s", f"{summary['tokens_per_s']:.1f}")
    table.add_row("wall s", f"{summary['wall_s']:.1f}")
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
    args.overrides = [*_overrides(args), *(args.overrides or [])]
    config = load(args)
    out = run_dir(config, "search")
    summary = search(config, out)
    print_summary(summary)
    console.print(f"run directory: {out}")
    return 0
