"""metrics.jsonl of a restarted run: no step appears twice; a last line cut by a kill is dropped,
any other bad line stops the resume with the file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from mars2.cli import main
from mars2.config import load_config, to_dict
from mars2.errors import UserError
from mars2.training.logger import MetricsLogger

SMOKE = Path(__file__).resolve().parents[2] / "configs" / "smoke.yaml"


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


def test_a_cut_last_line_is_dropped_with_a_warning(tmp_path: Path, caplog: Any) -> None:
    logger = MetricsLogger(tmp_path, tensorboard=False)
    for step in (0, 1):
        logger.log({"step": step, "reward": 0.5})
    with open(tmp_path / "metrics.jsonl", "a") as handle:
        handle.write('{"step": 2, "rew')  # killed while writing step 2
    logger.keep_before(2)
    assert steps(tmp_path) == [0, 1]
    assert "metrics.jsonl:3: the last line is cut off" in caplog.text
    logger.log({"step": 2, "reward": 0.5})
    assert steps(tmp_path) == [0, 1, 2]


@pytest.mark.parametrize(
    ("bad", "message"),
    [('{"step": 1, "rew', "not valid JSON"), ("[1, 2]", "expected a JSON object")],
)
def test_a_bad_line_elsewhere_is_a_user_error_naming_file_and_line(
    tmp_path: Path, bad: str, message: str
) -> None:
    (tmp_path / "metrics.jsonl").write_text(f'{{"step": 0}}\n{bad}\n{{"step": 2}}\n')
    with pytest.raises(UserError, match=rf"metrics.jsonl:2: {message}"):
        MetricsLogger(tmp_path, tensorboard=False).keep_before(2)


def test_resume_with_a_bad_metrics_line_exits_2(tmp_path: Path, capsys: Any) -> None:
    run = tmp_path / "run"
    run.mkdir()
    config = load_config(SMOKE, ["eval.limit=1", "output.tensorboard=false"])
    (run / "config.yaml").write_text(yaml.safe_dump(to_dict(config)))
    (run / "metrics.jsonl").write_text('{"step": 0}\n{"step": 1,\n{"step": 2}\n')
    assert main(["train", "--resume", str(run)]) == 2
    err = capsys.readouterr().err.replace("\n", "")  # rich wraps long lines
    assert "metrics.jsonl:2: not valid JSON" in err and "Traceback" not in err
