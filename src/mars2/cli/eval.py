"""`mars2 eval RUN_DIR`: evaluate a training run's checkpoint (or its base agents) with the
evaluation protocol (`eval.*`): the team, and each agent alone when there are several."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from mars2.cli.search import print_summary
from mars2.config import load_config
from mars2.errors import UserError

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
    overrides = list(args.overrides)
    for flag, key in (
        ("problems", "eval.problems"),
        ("limit", "eval.limit"),
        ("budget", "eval.budget"),
        ("samples", "eval.samples"),
    ):
        value = getattr(args, flag)
        if value is not None:
            overrides.append(f"{key}={value}")
    return overrides


def _selected(names: list[str], wanted: str | None) -> list[int]:
    if not wanted:
        return list(range(len(names)))
    ids = []
    for name in (n.strip() for n in wanted.split(",") if n.strip()):
        if name not in names:
            raise UserError(
                f"--agents {name}: no such agent in this run; agents: {', '.join(names)}"
            )
        ids.append(names.index(name))
    return ids


def run(args: argparse.Namespace) -> int:
    from mars2.evaluation.run import evaluate_teams, summary
    from mars2.train.restore import checkpoint_path, trained_models

    run_dir = Path(args.run_dir)
    if not (run_dir / "config.yaml").is_file():
        raise UserError(f"{run_dir}: no config.yaml there; is it a `mars2 train` run directory?")
    config = load_config(run_dir / "config.yaml", _overrides(args))
    names = [config.agent_name(i) for i in range(len(config.agents))]
    chosen = _selected(names, args.agents)
    if args.base:
        models, label = None, "base"
    else:
        path = checkpoint_path(run_dir, args.step)
        models, label = trained_models(config, path), path.stem
    # Only the chosen agents are loaded; checkpoint weights follow their agent's new index.
    sub = dataclasses.replace(config, agents=tuple(config.agents[i] for i in chosen))
    sub_models = (
        None if models is None else {j: models[i] for j, i in enumerate(chosen) if i in models}
    )
    sub_names = [names[i] for i in chosen]
    teams = [list(range(len(chosen)))]
    if args.agents is None and len(chosen) > 1 and config.eval.each_agent:
        teams += [[j] for j in range(len(chosen))]
    suffix = "" if args.agents is None else "-" + "-".join(sub_names)
    out = Path(args.out) if args.out else run_dir / f"eval-{label}{suffix}"
    out.mkdir(parents=True, exist_ok=True)
    console.print(
        f"[bold]mars2 eval[/] {label} ({', '.join(sub_names)}) on {config.eval.problems} -> {out}"
    )
    evaluations = evaluate_teams(sub, teams, label=label, models=sub_models)
    team_eval, alone = evaluations[0], evaluations[1:]
    team_eval.write(out / "eval.json", out / "trees" / "search.jsonl")
    result = summary(team_eval, sub_names)
    if alone:
        result["alone"] = {}
        for j, evaluation in enumerate(alone):
            name = sub_names[j]
            evaluation.write(out / f"eval-{name}.json", out / f"trees-{name}.jsonl")
            result["alone"][name] = {
                k: v for k, v in summary(evaluation, [name]).items() if k.startswith("pass@")
            }
    (out / "metrics.json").write_text(json.dumps(result, indent=2) + "\n")
    print_summary(result)
    if alone:
        print_alone(result["alone"])
    console.print(f"eval.json: {out / 'eval.json'} (pair two with `mars2 compare A B`)")
    return 0


def print_alone(alone: dict[str, dict[str, float]]) -> None:
    from mars2.cli.search import metric_rows

    first = next(iter(alone.values()))
    keys = [k for k, _ in metric_rows(first)]
    table = Table("agent alone", *keys, title="each agent alone (95% CI)")
    for name, values in alone.items():
        table.add_row(name, *[text for _, text in metric_rows(values)])
    console.print(table)
