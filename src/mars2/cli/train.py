"""`mars2 train`: multi-agent RL on search trees (modes `grpo` and `mcts`), with resume."""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from mars2.cli.common import add_common
from mars2.errors import UserError
from mars2.rundir import RunDir

if TYPE_CHECKING:
    from mars2.api import TrainStart

console = Console()
log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "train",
        help="Train agents with RL on search trees (no arguments: the bundled CPU job).",
        description="Train agents with RL on search trees. With no arguments: two SmolLM2-135M "
        "agents (coder, debugger) on bundled:core, 8 steps of 16 AB-MCTS trees, evaluated before "
        "and after on 100 held-out problems; 13.4 minutes and a 3.4 GB peak on 2 CPU cores "
        "(docs/results.md).",
    )
    add_common(parser)
    parser.add_argument(
        "--resume", metavar="RUN_DIR", help="Continue a run from its latest checkpoint."
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mars2.api import train

    if args.resume and args.config:
        raise UserError("--resume takes the run's own config.yaml; drop --config")
    started = time.perf_counter()
    columns = (
        TextColumn("[bold]step {task.completed}/{task.total}"),
        BarColumn(),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        display = _Display(progress, resume=bool(args.resume))
        last = train(
            args.config,
            out=args.out,
            resume=args.resume,
            overrides=args.overrides or [],
            on_start=display.on_start,
            on_step=display.on_step,
        )
    first, out = display.earlier(last), display.out
    assert out is not None  # on_start ran before the first step
    # The run is finished and saved: a fault in its report (tables built from files a user may
    # have touched) is a warning, never a failed run.
    try:
        _print_summary(first, last, started)
    except Exception as err:  # noqa: BLE001 (deliberate: see above)
        log.warning("the summary table could not be printed (%s: %s)", type(err).__name__, err)
    try:
        _print_paired(out)
    except Exception as err:  # noqa: BLE001 (deliberate: see above)
        log.warning(
            "the paired comparison of the first and the last evaluation could not be printed "
            "(%s: %s); the run is complete: `mars2 compare %s %s` compares them",
            type(err).__name__,
            err,
            RunDir(out).eval_dir(0),
            out,
        )
    console.print(f"run directory: {out} (metrics.jsonl, trees/, checkpoints/, tensorboard/)")
    return 0


class _Display:
    """What `mars2 train` shows while a run goes on: the run's line, a progress bar, each
    evaluation; it keeps the first value of every metric (evals: the base one, unless
    `eval.before` is false) and the step it came from, for the summary."""

    def __init__(self, progress: Progress, *, resume: bool) -> None:
        self.progress = progress
        self.resume = resume
        self.task: TaskID | None = None
        self.out: Path | None = None
        self.first: dict[str, Any] = {}
        self.first_step: dict[str, int] = {}

    def on_start(self, start: TrainStart) -> None:
        config = start.config
        console.print(
            f"[bold]mars2 train[/] mode={config.train.mode} agents={len(config.agents)} "
            f"-> {start.out}"
        )
        if start.resumed_from is not None:
            console.print(f"resumed from {start.resumed_from} (step {start.step})")
        elif self.resume:
            console.print("no checkpoint yet: starting from step 0")
        self.out = start.out
        self.task = self.progress.add_task(
            "train", total=config.train.steps, completed=start.step, info=""
        )

    def earlier(self, last: dict[str, Any]) -> dict[str, Any]:
        """The first values that were logged before the step of `last` (a value first logged
        at the last step has no earlier one to show beside it)."""
        final = int(last.get("step", 0))
        return {k: v for k, v in self.first.items() if self.first_step[k] < final}

    def on_step(self, metrics: dict[str, Any]) -> None:
        for key, value in metrics.items():
            if key not in self.first:
                self.first[key], self.first_step[key] = value, int(metrics["step"])
        info = f"reward {metrics.get('train/reward/mean', 0):.3f}"
        if "eval/pass@1" in metrics:
            info += f"  eval pass@1 {metrics['eval/pass@1']:.3f}"
            shown = "  ".join(
                f"{key} {_with_interval(metrics, f'eval/{key}')}"
                for key in ("pass@1", "pass@1_mcts", "pass@n")
            )
            console.print(f"step {metrics['step']}: eval {shown}")
        if self.task is not None:
            self.progress.update(self.task, completed=metrics["step"], info=info)


def _print_summary(first: dict[str, Any], last: dict[str, Any], started: float) -> None:
    """The first and last value of every summary metric (with their intervals); `first` holds
    the metrics logged before the last step (a run without a step-0 evaluation has no first
    value of the evaluation's metrics when it evaluated only at the end: the cell stays empty)."""
    table = Table(
        "metric",
        "first [95% CI]",
        "last [95% CI]",
        title=f"done in {time.perf_counter() - started:.0f} s",
    )
    for key in sorted(last):
        if key.endswith(("_lo", "_hi")) or not key.startswith(SUMMARY_KEYS):
            continue
        before = _with_interval(first, key) if key in first else ""
        table.add_row(key, before, _with_interval(last, key))
    console.print(table)


# metrics of the summary table: evaluations, the reward, and the signs of a collapsing policy
SUMMARY_KEYS = (
    "eval/",
    "train/reward/mean",
    "train/pass",
    "train/public_only",
    "train/entropy/",
    "train/response_len/",
    "train/truncated/",
    "train/distinct_programs",
)


def _print_paired(out: Path) -> None:
    """The paired difference (last - first evaluation of the team, B - A) of every metric, with its
    paired-bootstrap 95% interval and permutation p-value, as `mars2 compare` prints it."""
    from mars2.cli.compare import paired_table
    from mars2.evaluation import record

    evals = RunDir(out).step_evals()
    if len(evals) < 2:
        return
    a, b = record.read(evals[0]), record.read(evals[-1])
    diffs = record.compare(a, b, resamples=a["ci"]["resamples"])
    table = paired_table(
        a,
        b,
        diffs,
        title=f"paired over {next(iter(diffs.values())).n} problems: "
        f"A = {evals[0].parent.name}, B = {evals[-1].parent.name}",
        caption=f"mars2 compare {evals[0]} {evals[-1]}",
    )
    console.print(table)


def _with_interval(metrics: dict[str, Any], key: str) -> str:
    """`0.250 [0.100, 0.400]` when the metrics carry `key_lo` / `key_hi`, else `0.250`."""
    from mars2.evaluation.record import interval

    value = metrics[key]
    lo, hi = metrics.get(f"{key}_lo"), metrics.get(f"{key}_hi")
    if lo is None or hi is None:
        return f"{value:.3f}"
    return interval(value, lo, hi)
