"""Run logs: metrics.jsonl (one object per step), TensorBoard event files, optional W&B."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

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
                from mars2.errors import UserError

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
        keep = [
            line
            for line in self.path.read_text().splitlines()
            if line.strip() and json.loads(line).get("step", -1) < step
        ]
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
