"""Run logs: metrics.jsonl (one object per step), TensorBoard event files, optional W&B."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mars2 import jsonl
from mars2.errors import UserError
from mars2.rundir import RunDir

log = logging.getLogger(__name__)

# Metric families that measure the machine, not the run (wall seconds, stolen CPU time): two
# runs of one config on one machine differ in these only.
MACHINE_FAMILIES = ("time/", "machine/")


def run_figures(row: dict[str, Any]) -> dict[str, Any]:
    """A metrics.jsonl object without its MACHINE_FAMILIES keys: what a rerun, a resumed run
    or the same run on Ray must reproduce."""
    return {k: v for k, v in row.items() if not k.startswith(MACHINE_FAMILIES)}


class MetricsLogger:
    """Appends one JSON object per step and mirrors every number to TensorBoard (and W&B)."""

    def __init__(
        self, run_dir: Path, *, tensorboard: bool = True, wandb_project: str | None = None
    ) -> None:
        run = RunDir(run_dir)
        self.path = run.metrics
        self.writer = None
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(run.tensorboard))
        self.wandb = None
        if wandb_project:
            try:
                import wandb
            except ImportError:
                raise UserError(
                    "output.wandb_project is set but wandb is not installed: pip install wandb"
                ) from None
            self.wandb = wandb.init(project=wandb_project, dir=str(run_dir))

    def keep_before(self, step: int) -> None:
        """Drop the lines of steps >= `step`, the first step a (re)started run logs: those written
        after the checkpoint it restarts from, or the step-0 evaluation of a run restarted
        before its first checkpoint (evaluated again), so no step appears twice."""
        if not self.path.is_file():
            return
        jsonl.write(self.path, [row for row in read_rows(self.path) if row.get("step", -1) < step])

    def log(self, metrics: dict[str, Any]) -> None:
        step = int(metrics["step"])
        jsonl.append(self.path, [metrics])
        numbers = {
            k: float(v)
            for k, v in metrics.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and k != "step"
        }
        if self.writer is not None:
            for key, value in numbers.items():
                self.writer.add_scalar(key, value, step)
            self.writer.flush()
        if self.wandb is not None:
            self.wandb.log(numbers, step=step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.wandb is not None:
            self.wandb.finish()


def read_rows(path: Path, *, warn: bool = True) -> list[dict[str, Any]]:
    """The objects of a metrics.jsonl (none when the file does not exist), under the rule of
    `mars2.jsonl`: a cut last line (a kill while writing it) is skipped with a warning, its step
    is redone; any other bad line is a UserError naming file and line. `warn=False`: check only
    (the warning comes when the lines are rewritten)."""
    if not path.is_file():
        return []
    return [row for _, row in jsonl.read(path, warn=warn)]


def logged_steps(path: Path) -> set[int]:
    """The steps with a line in metrics.jsonl `path` (a cut last line is skipped, mars2.jsonl)."""
    return {int(row["step"]) for row in read_rows(path, warn=False) if "step" in row}
