"""Training on a problem set without hidden tests: the reward then is the public tests' score
(which refinement prompts show), and the Trainer says so once per set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2.config import load_config
from mars2.problems import sets
from mars2.training.loop import Trainer

SMOKE = Path(__file__).resolve().parents[2] / "configs" / "smoke.yaml"
BASIC = Path(sets.__file__).parent / "data" / "basic.jsonl"


def without_hidden(path: Path, keep_hidden: int = 0) -> Path:
    rows = [json.loads(line) for line in BASIC.read_text().splitlines()[:3]]
    for i, row in enumerate(rows):
        if i >= keep_hidden:
            row["private_tests"] = []
        row["split"] = "train"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def trainer(data: Path, tmp_path: Path) -> Trainer:
    config = load_config(SMOKE, [f"data.train={data}", "credit.reward=binary"])
    return Trainer(config, tmp_path)


def test_training_without_hidden_tests_warns_once_per_set(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sets, "_warned", set())
    data = without_hidden(tmp_path / "public-only.jsonl", keep_hidden=1)
    trainer(data, tmp_path / "a")
    trainer(data, tmp_path / "b")  # the same set again: no second warning
    notes = [r.getMessage() for r in caplog.records if "no hidden tests" in r.getMessage()]
    assert len(notes) == 1, notes
    assert "2 of 3 problems have no hidden tests" in notes[0]
    assert "credit.reward=binary" in notes[0] and "public tests alone" in notes[0]

    caplog.clear()
    other = without_hidden(tmp_path / "other.jsonl")
    trainer(other, tmp_path / "c")
    assert "other.jsonl': 3 of 3 problems have no hidden tests" in caplog.text


def test_a_set_with_hidden_tests_trains_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sets, "_warned", set())
    trainer(without_hidden(tmp_path / "hidden.jsonl", keep_hidden=3), tmp_path / "run")
    assert "no hidden tests" not in caplog.text
