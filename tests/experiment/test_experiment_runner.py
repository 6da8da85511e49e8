"""Running an experiment: finished runs are skipped, started ones continued, a changed config or
a different evaluation protocol refused (runs made by a fake launcher, no training)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from experiment_fakes import TINY, FakeLauncher, experiment_file, finish, outcome

from mars2.errors import UserError
from mars2.experiment import check_protocols, execute, load_experiment, plan


def test_the_plan_is_seed_major_with_one_folder_per_run(tmp_path: Path) -> None:
    runs = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")
    assert [(r.arm.name, r.seed) for r in runs] == [
        ("base", 0), ("grpo", 0), ("mcts", 0), ("base", 1), ("grpo", 1), ("mcts", 1),
    ]  # fmt: skip
    assert runs[4].folder == tmp_path / "out" / "grpo" / "seed1"
    assert runs[4].final_eval == runs[4].folder / "evals" / "step_000002" / "eval.json"
    assert runs[4].command() == [
        sys.executable,
        "-m",
        "mars2",
        "train",
        "--resume",
        str(runs[4].folder),
    ]
    base = runs[0]
    assert base.command()[3:5] == ["eval", str(base.folder)]
    assert base.command()[5:] == ["--base", "--out", str(base.folder / "evals" / "step_000000")]


def test_finished_runs_are_skipped_and_a_rerun_launches_nothing(tmp_path: Path) -> None:
    runs = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")
    finish(runs[1], [outcome("a", 1)])
    launcher = FakeLauncher()
    outcomes = execute(runs, launcher)
    assert launcher.launched == [
        "base/seed0",
        "mcts/seed0",
        "base/seed1",
        "grpo/seed1",
        "mcts/seed1",
    ]
    assert [o.status for o in outcomes] == ["ran", "done", "ran", "ran", "ran", "ran"]
    again = FakeLauncher()
    assert [o.status for o in execute(runs, again)] == ["done"] * 6
    assert again.launched == []


def test_a_run_without_its_final_metrics_line_is_not_finished(tmp_path: Path) -> None:
    run = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")[1]
    finish(run, [outcome("a", 1)], tokens=[10])  # killed after the eval, before step 2's line
    assert not run.finished()
    assert run.status() == "started (no checkpoint yet)"
    (run.folder / "checkpoints").mkdir()
    (run.folder / "checkpoints" / "latest").write_text("step_000001\n")
    assert run.status() == "started (step_000001)"


def test_a_failed_run_is_reported_and_the_others_go_on(tmp_path: Path) -> None:
    runs = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")[:3]
    outcomes = execute(runs, FakeLauncher(exit_code=1))
    assert [(o.status, o.exit_code) for o in outcomes] == [("failed", 1)] * 3
    assert all((r.folder / "config.yaml").is_file() for r in runs)


def test_a_finished_run_drops_its_optimizer_state(tmp_path: Path) -> None:
    run = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")[1]
    checkpoint = run.folder / "checkpoints" / "step_000002"
    checkpoint.mkdir(parents=True)
    (checkpoint / "optimizer.pt").write_bytes(b"x")
    (checkpoint / "trainer.pt").write_bytes(b"x")
    execute([run], FakeLauncher())
    assert not (checkpoint / "optimizer.pt").exists()
    assert (checkpoint / "trainer.pt").exists()


def test_a_run_started_with_another_config_is_refused(tmp_path: Path) -> None:
    first = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")
    execute(first[:2], FakeLauncher(exit_code=1))  # started, not finished
    changed = experiment_file(tmp_path, TINY.replace("train.steps=2", "train.steps=3"))
    runs = plan(load_experiment(changed), tmp_path / "out")
    with pytest.raises(
        UserError, match=r"grpo/seed0 was started with another config .*train.steps"
    ):
        execute(runs[1:2], FakeLauncher())


def test_a_different_evaluation_protocol_is_refused_naming_the_field(tmp_path: Path) -> None:
    text = TINY.replace("{set: [train.mode=mcts]}", "{set: [train.mode=mcts, eval.budget=2]}")
    experiment = load_experiment(experiment_file(tmp_path, text))
    with pytest.raises(
        UserError,
        match=r"arms.mcts: .*differs from the reference arm 'grpo' in protocol.search.budget",
    ):
        check_protocols(experiment, plan(experiment, tmp_path / "out"))


def test_a_protocol_difference_may_be_allowed_by_name(tmp_path: Path) -> None:
    text = TINY.replace(
        "{set: [train.mode=mcts]}", "{set: [train.mode=mcts, search.agent_selection=round_robin]}"
    )
    experiment = load_experiment(experiment_file(tmp_path, text))
    with pytest.raises(UserError, match=r"protocol\.search\.agent_selection"):
        check_protocols(experiment, plan(experiment, tmp_path / "out"))
    allowed = text + "allow_protocol_differences: [protocol.search.agent_selection]\n"
    experiment = load_experiment(experiment_file(tmp_path, allowed))
    check_protocols(experiment, plan(experiment, tmp_path / "out"))
