"""Run logs: metrics.jsonl (one object per step), TensorBoard event files, optional W&B."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from mars2.errors import UserError

log = logging.getLogger(__name__)


class MetricsLogger:
    """Appends one JSON object per step and mirrors every number to TensorBoard (and W&B)."""

    def __init__(
        self, run_dir: Path, *, tensorboard: bool = True, wandb_project: str | None = None
    ) -> None:
        self.path = run_dir / "metrics.jsonl"
        self.writer = None
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(run_dir / "tensorboard"))
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
        keep = [line for line, row in read_rows(self.path) if row.get("step", -1) < step]
        self.path.write_text("".join(f"{line}\n" for line in keep))

    def log(self, metrics: dict[str, Any]) -> None:
        step = int(metrics["step"])
        with open(self.path, "a") as handle:
            handle.write(json.dumps(metrics) + "\n")
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


def read_rows(path: Path, *, warn: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """Every line of a metrics.jsonl with its object (none when the file does not exist). A last line that does not parse is
    what a kill while writing it leaves: it is dropped with a warning (its step is redone).
    Any other bad line is a UserError naming the file and the line. `warn=False`: check only
    (the warning comes when the lines are rewritten)."""
    if not path.is_file():
        return []
    lines = [(n, line) for n, line in enumerate(path.read_text().splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line.strip()]
    rows = []
    for index, (number, line) in enumerate(lines):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            if index == len(lines) - 1:
                if not warn:
                    break
                log.warning(
                    "%s:%d: the last line is cut off (%s; the run was killed while "
                    "writing it?): dropped, its step is redone",
                    path,
                    number,
                    err.msg,
                )
                break
            raise UserError(
                f"{path}:{number}: not a JSON object ({err.msg}); only the last line "
                "may be cut off by a kill. Fix or remove this line, then --resume again"
            ) from None
        if not isinstance(row, dict):
            raise UserError(
                f"{path}:{number}: expected a JSON object per line, got {type(row).__name__}"
            )
        rows.append((line, row))
    return rows
