"""Running an experiment: finished runs are skipped, started ones continued, a changed config or
a different evaluation protocol refused (runs made by a fake launcher, no training)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from experiment_fakes import FINALS, TINY, FakeLauncher, experiment_file, finish, outcome

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


def test_a_setting_the_run_predates_is_not_held_against_it(tmp_path: Path) -> None:
    """A run's config.yaml written before a setting existed does not name it: the experiment
    file may pin the value that reproduces the run without the run being refused; a setting
    the run does name is still compared."""
    run = plan(load_experiment(experiment_file(tmp_path)), tmp_path / "out")[1]
    execute([run], FakeLauncher(exit_code=1))
    config = yaml.safe_load(run.dir.config.read_text())
    del config["search"]["copies"]  # as if written before `copies` existed
    run.dir.config.write_text(yaml.safe_dump(config))
    pinned = experiment_file(
        tmp_path, TINY.replace("train.steps=2", "train.steps=2, search.copies=run")
    )
    execute(plan(load_experiment(pinned), tmp_path / "out")[1:2], FakeLauncher(exit_code=1))
    other = experiment_file(
        tmp_path, TINY.replace("train.steps=2", "train.steps=2, search.pooling=none")
    )
    with pytest.raises(
        UserError, match=r"grpo/seed0 was started with another config .*search.pooling"
    ):
        execute(plan(load_experiment(other), tmp_path / "out")[1:2], FakeLauncher())


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


def two_agent_finals(tmp_path: Path, extra: str = "") -> list:  # type: ignore[type-arg]
    """The plan of TINY with FINALS and a two-agent mcts arm."""
    text = TINY.replace(
        "{set: [train.mode=mcts]}", "{team: [tiny-random, tiny-random], set: [train.mode=mcts]}"
    )
    return plan(load_experiment(experiment_file(tmp_path, text + FINALS + extra)), tmp_path / "out")


def test_final_evaluations_are_planned_per_run_and_agent(tmp_path: Path) -> None:
    runs = two_agent_finals(tmp_path)
    mcts, base = runs[2], runs[0]
    assert [(p.final.name, p.agent) for p in mcts.final_evals()] == [
        ("alone", "coder"), ("alone", "debugger"), ("wide", None),
    ]  # fmt: skip
    debugger = mcts.final_evals()[1]
    assert debugger.folder == mcts.folder / "evals" / "alone" / "debugger"
    assert debugger.eval_file == debugger.folder / "eval.json"
    assert debugger.command()[3:] == [
        "eval", str(mcts.folder), "--step", "2", "--agents", "debugger",
        "--out", str(debugger.folder), "eval.each_agent=false", "eval.budget=1",
    ]  # fmt: skip
    wide = base.final_evals()[1]
    assert wide.command()[3:] == [
        "eval", str(base.folder), "--base", "--out", str(base.folder / "evals" / "wide"),
        "eval.each_agent=false", "eval.budget=2", "eval.limit=2",
    ]  # fmt: skip
    assert (wide.config.eval.budget, wide.config.eval.limit) == (2, 2)
    assert [a.name for a in debugger.config.agents] == ["debugger"]
    assert wide.status() == "after the run" and wide.title == "base/seed0 wide"


def test_a_final_evaluation_with_seeds_is_planned_for_those_runs_only(tmp_path: Path) -> None:
    runs = two_agent_finals(tmp_path, "  costly: {set: [eval.budget=2], seeds: [1]}\n")
    costly = {
        (r.arm.name, r.seed) for r in runs for p in r.final_evals() if p.final.name == "costly"
    }
    assert costly == {(arm, 1) for arm in ("base", "grpo", "mcts")}
    assert all(
        len(r.final_evals()) == (4 if r.arm.name == "mcts" else 3) for r in runs if r.seed == 1
    )


def test_each_run_is_followed_by_its_final_evaluations_and_a_rerun_skips_them(
    tmp_path: Path,
) -> None:
    runs = two_agent_finals(tmp_path)[:3]  # seed 0
    finish(runs[1], [outcome("a", 1)])  # grpo/seed0 finished before, without its evaluations
    launcher = FakeLauncher()
    outcomes = execute(runs, launcher)
    assert launcher.launched == [
        "base/seed0", "base/seed0 alone/coder", "base/seed0 wide",
        "grpo/seed0 alone/coder", "grpo/seed0 wide",
        "mcts/seed0", "mcts/seed0 alone/coder", "mcts/seed0 alone/debugger", "mcts/seed0 wide",
    ]  # fmt: skip
    assert [o.status for o in outcomes].count("done") == 1  # grpo/seed0 itself
    assert (runs[2].folder / "evals" / "alone" / "debugger" / "eval.json").is_file()
    again = FakeLauncher()
    assert {o.status for o in execute(runs, again)} == {"done"}
    assert again.launched == []


def test_a_failed_run_has_no_final_evaluations_and_a_failed_evaluation_is_reported(
    tmp_path: Path,
) -> None:
    run = two_agent_finals(tmp_path)[1]
    launcher = FakeLauncher(exit_code=1)
    assert [o.status for o in execute([run], launcher)] == ["failed"]
    assert launcher.launched == ["grpo/seed0"]  # its evaluations wait for a rerun
    finish(run, [outcome("a", 0)])
    outcomes = execute([run], FakeLauncher(exit_code=1))
    assert [(o.job.title, o.status) for o in outcomes] == [
        ("grpo/seed0", "done"), ("grpo/seed0 alone/coder", "failed"), ("grpo/seed0 wide", "failed"),
    ]  # fmt: skip


def test_a_final_evaluation_done_with_other_settings_is_refused(tmp_path: Path) -> None:
    run = two_agent_finals(tmp_path)[1]
    finish(run, [outcome("a", 0)])
    execute([run], FakeLauncher())
    text = (
        (tmp_path / "exp.yaml").read_text().replace("eval.budget=2, eval.limit=2", "eval.budget=3")
    )
    changed = plan(load_experiment(experiment_file(tmp_path, text)), tmp_path / "out")
    with pytest.raises(UserError, match=r"evals/wide was evaluated with another protocol .*budget"):
        execute(changed[1:2], FakeLauncher())
