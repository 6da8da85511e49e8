"""`mars2 experiment FILE`: every arm x seed of an experiment file as a training run, resumable,
then the table of Pass@1, Pass@1(MCTS), Pass@N with 95% intervals over runs and problems and the
differences against the reference arm with Holm-adjusted p-values (OUT/results.json,
OUT/results.md)."""

from __future__ import annotations

import argparse
import signal
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "experiment",
        help="Run an experiment file (arms x seeds, resumable) and tabulate it with 95%% CIs.",
        description="Runs every arm x seed of FILE (e.g. configs/ladder.yaml) as `mars2 train` in "
        "OUT/<arm>/seed<k>/, one subprocess each (log: run.log there), each followed by the file's "
        "final evaluations (final_evals: `mars2 eval` of the final weights into "
        "OUT/<arm>/seed<k>/evals/<name>/). Finished runs and evaluations are skipped and "
        "started runs resumed, so rerunning after an interruption continues. Then writes "
        "OUT/results.json and OUT/results.md: per arm Pass@1, Pass@1(MCTS), Pass@N with 95% "
        "intervals over runs (seeds) and problems, the tokens generated in training, and the "
        "differences against the reference arm with raw and Holm-adjusted p-values. Format: "
        "docs/experiments.md.",
    )
    parser.add_argument("file", metavar="FILE", help="Experiment file (YAML).")
    parser.add_argument(
        "--quick", action="store_true", help="Apply the file's quick: section (a short check)."
    )
    parser.add_argument(
        "--out", metavar="DIR", help="Output directory (default runs/<file name>[-quick])."
    )
    parser.add_argument(
        "--only", metavar="ARM[,ARM...]", help="Run only these arms (the table shows all)."
    )
    parser.add_argument(
        "--seeds",
        metavar="K[,K...]",
        help="Run only these of the file's seeds, e.g. 0 (the table shows all finished runs).",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="Check the file and show the plan; run nothing."
    )
    parser.add_argument(
        "--table", action="store_true", help="Only write the table of the finished runs."
    )
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mars2.experiment import (
        check_protocols,
        collect,
        load_experiment,
        plan,
        with_arms,
        write,
    )
    from mars2.experiment.runner import check_final_started, check_started

    experiment = load_experiment(args.file, quick=args.quick)
    out = Path(args.out or f"runs/{experiment.name}")
    runs = plan(experiment, out)
    check_protocols(experiment, runs)
    for planned in runs:
        check_started(planned)
        for final in planned.final_evals():
            check_final_started(final)
    chosen = runs
    if args.only:
        only = {a.name for a in with_arms(experiment, [n.strip() for n in args.only.split(",")])}
        chosen = [r for r in runs if r.arm.name in only]
    if args.seeds:
        seeds = _seeds(args.seeds, experiment)
        chosen = [r for r in chosen if r.seed in seeds]
    print_plan(chosen, out)
    if args.dry_run:
        console.print("dry run: nothing started")
        return 0
    failed = [] if args.table else _execute(chosen)
    results = collect(experiment, runs)
    json_file, md_file = write(results, out)
    print_results(results)
    console.print(f"wrote {escape(str(json_file))} and {escape(str(md_file))}", highlight=False)
    console.print(
        f"report: mars2 report {escape(str(out))} --out {escape(str(out / 'report'))}",
        highlight=False,
    )
    if failed:
        names = ", ".join(o.job.title for o in failed)
        console.print(f"[red]{len(failed)} job(s) failed:[/] {escape(names)}; rerun to retry")
        return 1
    return 0


def _execute(chosen: list[Any]) -> list[Any]:
    """Run the chosen runs in turn, printing each start and end; the outcomes that failed."""
    from mars2.experiment import execute

    # `kill PID` should stop the run in flight too (subprocess.run kills its child when an
    # exception passes through it), as Ctrl-C does; a rerun then resumes it.
    signal.signal(signal.SIGTERM, _interrupt)
    started: dict[str, float] = {}

    def on_start(job: Any) -> None:
        started[str(job.folder)] = time.perf_counter()
        console.print(
            f"[bold]{escape(job.title)}[/]: "
            f"{escape(' '.join(job.command()[2:]))}  (log: {escape(str(job.log))})",
            highlight=False,
        )

    def on_end(outcome: Any) -> None:
        if outcome.status == "done":
            return
        seconds = time.perf_counter() - started[str(outcome.job.folder)]
        what = (
            "[green]finished[/]"
            if outcome.status == "ran"
            else f"[red]failed[/] (exit {outcome.exit_code}; see {escape(str(outcome.job.log))})"
        )
        console.print(f"  {what} in {seconds:.0f} s", highlight=False)

    outcomes = execute(chosen, on_start=on_start, on_end=on_end)
    return [o for o in outcomes if o.status == "failed"]


def _seeds(text: str, experiment: Any) -> set[int]:
    """The seeds of --seeds, each one of the file's; else a UserError naming the bad one."""
    from mars2.errors import UserError

    seeds = set()
    for item in (part.strip() for part in text.split(",")):
        if not item.lstrip("-").isdigit() or int(item) not in experiment.seeds:
            raise UserError(
                f"--seeds: {item!r} is not one of {experiment.path}'s seeds "
                f"({', '.join(map(str, experiment.seeds))})"
            )
        seeds.add(int(item))
    return seeds


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def print_plan(runs: list[Any], out: Path) -> None:
    from mars2.experiment.runner import planned_nodes

    table = Table(
        "arm", "seed", "status", "mode", "models", "steps", "planned nodes", title=f"plan: {out}"
    )
    for planned in runs:
        config = planned.config
        eval_only = planned.arm.eval_only
        table.add_row(
            escape(planned.arm.name),
            str(planned.seed),
            planned.status(),
            "eval only" if eval_only else config.train.mode,
            escape(", ".join(a.model for a in config.agents)),
            "—" if eval_only else str(config.train.steps),
            "—" if eval_only else str(planned_nodes(config)),
        )
    console.print(table)
    finals = [final for planned in runs for final in planned.final_evals()]
    if not finals:
        return
    table = Table(
        "arm",
        "seed",
        "final evaluation",
        "weights",
        "settings",
        "status",
        title="final evaluations",
    )
    for final in finals:
        table.add_row(
            escape(final.arm.name),
            str(final.seed),
            escape(final.final.name + (f" ({final.agent} alone)" if final.agent else "")),
            "untrained" if final.arm.eval_only else f"step {final.run.final_step}",
            escape(", ".join(final.final.overrides) or "—"),
            final.status(),
        )
    console.print(table)


def _print_table(head: list[str], body: list[list[str]], title: str, caption: str) -> None:
    table = Table(*head, title=title, caption=caption)
    for row in body:
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)


def print_results(results: dict[str, Any]) -> None:
    from mars2.experiment.table import (
        change_note,
        difference_rows,
        final_difference_rows,
        final_metric_rows,
        final_title,
        gain_difference_rows,
        gain_rows,
        metric_rows,
        precision_note,
    )

    title = results["experiment"] + (" --quick" if results["quick"] else "")
    reference = results["reference"]
    tests = results["holm"]["tests"]
    seeds = (
        "95% CI over runs and problems (run-to-run variance included); "
        "†: one run, over problems only, conditional on that run"
    )
    _print_table(*metric_rows(results), title, seeds)
    tested = (
        "interval and p over runs and problems (t on variance components); p (Holm): over the "
        f"experiment's {tests} p-values; last column: problems only, conditional on these runs"
    )
    head, body = difference_rows(results)
    if body:
        _print_table(head, body, f"differences: arm - {reference}", tested)
    head, body = gain_rows(results)
    if body:
        _print_table(head, body, "change during training: final - step-0 evaluation", tested)
    head, body = gain_difference_rows(results)
    if body:
        _print_table(head, body, f"change during training minus {reference}'s", tested)
    for note in (change_note(results), precision_note(results)):
        if note:
            console.print(note, highlight=False)
    for section in results["final_evals"]:
        title = final_title(section)
        _print_table(*final_metric_rows(section), title, seeds)
        head, body = final_difference_rows(section)
        if body:
            _print_table(head, body, f"{title}: differences", tested)
