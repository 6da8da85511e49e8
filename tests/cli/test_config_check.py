"""`mars2 config check`: the paper-scale config validates on a machine without its models or data,
names each missing file with how to get it, and loads the files when they are there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mars2.cli import main
from mars2.config import load_config

ROOT = Path(__file__).resolve().parents[2]
PAPER = str(ROOT / "configs" / "paper-scale.yaml")
FIXTURES = ROOT / "tests" / "problems"
DEEPCODER = f"deepcoder:{FIXTURES / 'fixtures' / 'deepcoder.jsonl'}"
LCB = f"livecodebench:{FIXTURES / 'data' / 'livecodebench.jsonl'}"


def test_the_paper_scale_config_names_its_sets_and_sizes() -> None:
    config = load_config(PAPER, [])
    assert config.data.train.startswith("deepcoder:data/deepcoder.jsonl?")
    assert "exclude_since=2025-01-01&exclude_until=2025-05-31" in config.data.train
    assert config.eval.problems.endswith("test6.jsonl?since=2025-01-01&until=2025-05-31")
    assert (config.eval.budget, config.eval.algo, config.eval.limit) == (60, "abmcts", None)
    assert {a.backend for a in config.agents} == {"vllm"}
    assert {a.model for a in config.agents} == {"models/Qwen3-8B"}
    assert config.cluster.backend == "ray"
    assert config.loss.name == "gspo" and config.train.mode == "mcts"


def test_missing_data_and_models_are_named_with_how_to_get_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no data/ or models/ here
    assert main(["config", "check", "--config", PAPER]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "config is valid" in out
    assert "data.train: missing" in out and "file not found: data/deepcoder.jsonl" in out
    assert "agentica-org/DeepCoder-Preview-Dataset" in out
    assert "eval.problems: missing" in out and "data/livecodebench/test6.jsonl" in out
    assert "livecodebench/code_generation_lite" in out
    assert "agents.0.model: not on this machine models/Qwen3-8B" in out


def test_present_files_are_loaded_and_the_filters_counted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    train = f"data.train={DEEPCODER}?exclude_since=2025-01-01&exclude_until=2025-05-31"
    assert main(["config", "check", "--config", PAPER, train, f"eval.problems={LCB}"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "data.train: ok" in out and "14 records, 5 dropped as not runnable" in out
    assert "1 in the excluded LiveCodeBench window; 7 kept" in out
    assert "eval.problems: ok" in out and "3 problems" in out


def test_an_invalid_config_exits_2_naming_the_field() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mars2", "config", "check", "--config", PAPER, "eval.budget=0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "eval.budget" in out.stderr


def test_checking_loads_no_model_framework() -> None:
    code = (
        "import sys; from mars2.cli import main; "
        f"main(['config', 'check', '--config', {PAPER!r}]); print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_model_status_builds_and_loads_nothing(tmp_path: Path) -> None:
    from mars2.agents.models import model_status

    assert model_status("tiny-random") == (True, "built in code on first use")
    (tmp_path / "config.json").write_text("{}")
    assert model_status(str(tmp_path)) == (True, "local HF model folder")
    ok, why = model_status(str(tmp_path / "absent"))
    assert not ok and "no HF model folder" in why
    assert list(tmp_path.iterdir()) == [tmp_path / "config.json"]
