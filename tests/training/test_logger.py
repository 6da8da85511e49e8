"""metrics.jsonl of a restarted run: no step appears twice."""

from __future__ import annotations

import json
from pathlib import Path

from mars2.training.logger import MetricsLogger


def steps(run: Path) -> list[int]:
    return [json.loads(line)["step"] for line in (run / "metrics.jsonl").read_text().splitlines()]


def test_restart_drops_what_it_will_log_again(tmp_path: Path) -> None:
    logger = MetricsLogger(tmp_path, tensorboard=False)
    for step in (0, 1, 2, 3):
        logger.log({"step": step, "reward": step / 10})
    logger.keep_before(3)  # resumed from step 2's checkpoint: step 3 is redone
    assert steps(tmp_path) == [0, 1, 2]
    logger.keep_before(0)  # restarted before any checkpoint: step 0's evaluation is redone
    assert not steps(tmp_path)
    logger.log({"step": 0, "reward": 0.0})
    assert steps(tmp_path) == [0]


def test_a_new_run_has_nothing_to_drop(tmp_path: Path) -> None:
    MetricsLogger(tmp_path, tensorboard=False).keep_before(0)
    assert not (tmp_path / "metrics.jsonl").exists()
