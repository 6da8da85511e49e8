"""`mars2 experiment`: the plan, --only, --table, the report of an experiment directory, and one
real run end to end with the tiny-random model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from experiment_fakes import FINALS, TINY, experiment_file, finish, outcome

from mars2.cli import main
from mars2.experiment import load_experiment, plan
from mars2.report import write_report


def test_dry_run_shows_the_plan_and_starts_nothing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path)
    out = tmp_path / "out"
    assert main(["experiment", str(path), "--out", str(out), "--dry-run", "--only", "grpo"]) == 0
    text = capsys.readouterr().out
    assert "grpo" in text and "mcts" not in text and "dry run: nothing started" in text
    assert not out.exists()


def test_dry_run_lists_the_final_evaluations(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path, TINY + FINALS)
    out = tmp_path / "out"
    assert main(["experiment", str(path), "--out", str(out), "--dry-run", "--only", "grpo"]) == 0
    text = capsys.readouterr().out
    assert "final evaluations" in text and "alone (coder" in text and "eval.limit=2" in text
    assert "after the run" in text and not out.exists()


def test_only_names_unknown_arms(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path)
    assert main(["experiment", str(path), "--only", "grpo,ppo", "--dry-run"]) == 2
    assert "--only ppo: no such arm; arms: base, grpo, mcts" in capsys.readouterr().err


def test_table_tabulates_finished_runs_and_the_report_shows_it(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path)
    out = tmp_path / "out"
    runs = plan(load_experiment(path), out)
    for run in runs[:3]:
        finish(run, [outcome("p1", int(run.arm.name == "mcts")), outcome("p2", 0)])
    assert main(["experiment", str(path), "--out", str(out), "--table"]) == 0
    printed = capsys.readouterr().out
    assert "differences: arm - grpo" in printed and "p (Holm)" in printed
    assert not (out / "grpo" / "seed1").exists()  # --table runs nothing
    results = json.loads((out / "results.json").read_text())
    mcts = next(a for a in results["arms"] if a["name"] == "mcts")
    assert mcts["metrics"]["pass@1"]["value"] == 0.5 and mcts["missing_seeds"] == [1]
    (out / "grpo" / "seed1").mkdir(parents=True)
    (out / "grpo" / "seed1" / "config.yaml").write_text("seed: 1\n")  # just started
    page = write_report([out], tmp_path / "report").index.read_text()
    assert 'id="experiment"' in page
    assert "0.500 [0.000, 1.000]" in page  # mcts's Pass@1 from results.md
    assert "mcts/seed0" in page  # the experiment's runs are reported too


def test_seeds_runs_only_the_chosen_seeds(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import mars2.experiment

    ran: list[tuple[str, int]] = []

    def fake_execute(runs, on_start=None, on_end=None):  # type: ignore[no-untyped-def]
        ran.extend((r.arm.name, r.seed) for r in runs)
        return []

    monkeypatch.setattr(mars2.experiment, "execute", fake_execute)
    path = experiment_file(tmp_path)
    args = ["experiment", str(path), "--out", str(tmp_path / "out"), "--seeds", "1"]
    assert main([*args, "--only", "grpo,mcts"]) == 0
    assert ran == [("grpo", 1), ("mcts", 1)]


def test_seeds_names_a_seed_the_file_lacks(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path)
    assert main(["experiment", str(path), "--seeds", "0,3", "--dry-run"]) == 2
    assert "--seeds: '3' is not one of" in capsys.readouterr().err


FINAL_RUN = """\
config:
  agents: [{name: coder, model: tiny-random, role: coder, max_new_tokens: 16}]
  search: {budget: 2, trees_in_flight: 4}
  data: {limit: 4}
  eval: {limit: 2, samples: 1, budget: 1, cache: false}
  output: {tensorboard: false}
set: [train.steps=1, train.problems_per_step=2, train.min_samples_per_agent=0,
      train.checkpoint_every=0, credit.dynamic_filter=false]
seeds: [0]
reference: base
arms:
  base: {eval_only: true}
  mars2-2: {team: [tiny-random, tiny-random], set: [train.mode=mcts, eval.before=false]}
final_evals:
  alone: {each_agent: true, set: [eval.trees=1]}
  mcts-2: {set: [eval.budget=2]}
"""


@pytest.mark.slow
def test_an_experiment_runs_with_final_evaluations_and_resumes(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """An eval-only base arm and a two-agent arm trained without a step-0 evaluation, each
    followed by its final evaluations: each agent alone, and the team at another budget (seven
    subprocesses, most of each one's time its imports: about 60 CPU-seconds in all)."""
    path = experiment_file(tmp_path, FINAL_RUN)
    out = tmp_path / "out"
    assert main(["experiment", str(path), "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    arms = {a["name"]: a for a in results["arms"]}
    assert arms["base"]["problems"] == arms["mars2-2"]["problems"] == 2
    assert arms["mars2-2"]["tokens"]["mean"] > 0
    assert arms["mars2-2"]["vs_reference"]["pass@1"]["n"] == 2
    trained = out / "mars2-2" / "seed0"
    assert (trained / "run.log").read_text().startswith("$ ")
    assert not (trained / "evals" / "step_000000").exists()  # eval.before=false
    for folder in ["alone/coder", "alone/debugger", "mcts-2"]:
        assert (trained / "evals" / folder / "eval.json").is_file(), folder
    for folder in ["alone/coder", "mcts-2"]:
        assert (out / "base" / "seed0" / "evals" / folder / "eval.json").is_file(), folder
    wide = json.loads((trained / "evals" / "mcts-2" / "eval.json").read_text())
    assert wide["protocol"]["search"]["budget"] == 2
    alone, wide_section = results["final_evals"]
    assert [(r["arm"], r["agent"]) for r in alone["rows"]] == [
        ("base", "coder"), ("mars2-2", "coder"), ("mars2-2", "debugger"),
    ]  # fmt: skip
    assert alone["rows"][2]["vs_reference"]["pass@1"]["n"] == 2
    assert [r["arm"] for r in wide_section["rows"]] == ["base", "mars2-2"]
    text = (out / "results.md").read_text()
    assert "## Final evaluation alone: each agent alone, eval.trees=1" in text
    assert "## Final evaluation mcts-2: the team, eval.budget=2" in text
    assert "Δ vs base's coder alone" in text
    assert "No change during training for mars2-2" in text
    capsys.readouterr()
    assert main(["experiment", str(path), "--out", str(out)]) == 0  # all done: nothing runs
    printed = capsys.readouterr().out
    assert "finished in" not in printed and "done" in printed
    assert json.loads((out / "results.json").read_text()) == results
