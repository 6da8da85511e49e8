"""The experiment table's numbers, against values computed by hand (2 seeds x 3 problems)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from experiment_fakes import (
    FINALS,
    TINY,
    experiment_file,
    finish,
    finish_eval,
    outcome,
    write_eval,
)

from mars2.errors import UserError
from mars2.experiment import collect, load_experiment, markdown, plan, write
from mars2.experiment.results import (
    METRICS,
    adjust,
    learner_precision,
    seed_average,
    tokens_generated,
)
from mars2.experiment.table import precision_note


@pytest.fixture
def finished(tmp_path: Path) -> tuple[dict, Path]:  # type: ignore[type-arg]
    """grpo (reference) solves p1 in seed 1 only; mcts solves p1 in both seeds and p2 in seed 1
    (p2's trees find a passing node in both seeds: Pass@N 1)."""
    experiment = load_experiment(experiment_file(tmp_path))
    runs = {(r.arm.name, r.seed): r for r in plan(experiment, tmp_path / "out")}
    finish(runs["grpo", 0], [outcome("p1", 0), outcome("p2", 0), outcome("p3", 0)], [100, 50])
    finish(runs["grpo", 1], [outcome("p1", 1), outcome("p2", 0), outcome("p3", 0)], [70, 80])
    finish(runs["mcts", 0], [outcome("p1", 1), outcome("p2", 0, 1), outcome("p3", 0)], [90, 90])
    finish(runs["mcts", 1], [outcome("p1", 1), outcome("p2", 1), outcome("p3", 0)], [60, 40])
    finish(runs["base", 0], [outcome("p1", 0), outcome("p2", 0), outcome("p3", 0)])
    results = collect(experiment, list(runs.values()), resamples=2000)
    return {a["name"]: a for a in results["arms"]} | {"_all": results}, tmp_path / "out"


def test_each_problem_is_averaged_over_the_seeds_then_over_problems(finished) -> None:  # type: ignore[no-untyped-def]
    arms, _ = finished
    mcts = arms["mcts"]["metrics"]
    # per problem pass@1: p1 (1+1)/2, p2 (0+1)/2, p3 0 -> 0.5; Pass@N: p1 1, p2 1, p3 0 -> 2/3
    assert mcts["pass@1"]["value"] == pytest.approx(0.5)
    assert mcts["pass@n"]["value"] == pytest.approx(2 / 3)
    assert mcts["pass@1"]["n"] == 3 and mcts["pass@1"]["runs"] == [2]
    # Over runs and problems, runs (1,0,0) and (1,1,0): run means 1/3, 2/3 -> 1/18 / 2 runs =
    # 1/36; problem means (1, 0.5, 0) -> 1/4 / 3 = 1/12, less the run x problem mean square
    # (1/6) / 6 = 1/36: variance 1/36 + 1/18 = 1/12, df (1/12)^2 / ((1/36)^2 + (1/12)^2 / 2 +
    # (1/36)^2 / 2) = 1.5; 0.5 +- t(1.5) sqrt(1/12) is clipped to [0, 1].
    assert mcts["pass@1"]["interval"] == "runs and problems"
    assert mcts["pass@1"]["df"] == pytest.approx(1.5)
    assert (mcts["pass@1"]["lo"], mcts["pass@1"]["hi"]) == (0.0, 1.0)
    # Over problems only, 3 values 1, 0.5, 0: a resample of three copies of p3 (mean 0) has
    # probability 1/27 = 3.7% > 2.5%, so the lower end is 0; likewise the upper end is 1.
    assert mcts["pass@1"]["conditional"] == {"lo": 0.0, "hi": 1.0}
    assert arms["grpo"]["metrics"]["pass@1"]["value"] == pytest.approx(1 / 6)
    assert arms["mcts"]["per_seed"]["pass@1"] == pytest.approx([1 / 3, 2 / 3])
    assert arms["mcts"]["seeds"] == [0, 1] and arms["base"]["seeds"] == [0]
    assert arms["base"]["missing_seeds"] == [1]
    # one run: the bootstrap over problems, conditional on that run
    assert arms["base"]["metrics"]["pass@1"]["interval"] == "conditional on these runs"
    assert arms["mcts"]["per_problem"] == {
        "seeds": [0, 1],
        "problems": ["p1", "p2", "p3"],
        "pass@1": [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]],
        "pass@1_mcts": [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]],
        "pass@n": [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
    }


def test_the_difference_includes_run_to_run_variance(finished) -> None:  # type: ignore[no-untyped-def]
    arms, _ = finished
    diff = arms["mcts"]["vs_reference"]["pass@1"]
    # per problem mcts - grpo: p1 1 - 0.5, p2 0.5 - 0, p3 0 -> mean 1/3
    assert diff["diff"] == pytest.approx(1 / 3)
    # runs: grpo (0,0,0), (1,0,0): means 0, 1/3 -> 1/18 / 2 = 1/36; mcts likewise 1/36. The
    # problems' differences (0.5, 0.5, 0) vary by 1/12 / 3 = 1/36, less than the run x problem
    # noise already counted (1/36 per arm): the variance is 2/36 with 1 + 1 df, and
    # 1/3 +- 4.303 sqrt(1/18) = [-0.681, 1.347] is clipped at 1; t = sqrt(2): p = 1 - 1/sqrt(2)
    assert diff["interval"] == "runs and problems" and diff["runs"] == [2, 2]
    assert diff["df"] == pytest.approx(2.0)
    assert (diff["lo"], diff["hi"]) == (pytest.approx(1 / 3 - 4.302653 * math.sqrt(1 / 18)), 1.0)
    assert diff["p"] == pytest.approx(1 - math.sqrt(0.5), abs=1e-6)
    # over problems only, conditional on these runs: resampled means of (0.5, 0.5, 0) lie in
    # [0, 0.5]; all-p3 has probability 3.7% > 2.5% and all-from-{p1, p2} 8/27: [0, 0.5];
    # sign flips of the two non-zero differences: (+,+) and (-,-) reach |sum| 1 -> p = 2/4
    assert diff["conditional"] == {"lo": 0.0, "hi": 0.5, "p": pytest.approx(0.5)}
    assert diff["n"] == 3
    assert arms["grpo"]["vs_reference"] is None
    base = arms["base"]["vs_reference"]["pass@1"]  # base has one run: conditional only
    assert base["diff"] == pytest.approx(-1 / 6) and base["interval"] == "conditional on these runs"
    # Holm over the 6 p-values (base's 1, 1, 1; mcts's 0.29, 0.29, 0.27): 6 x 0.27 > 1
    assert arms["_all"]["holm"]["tests"] == 6
    assert diff["p_holm"] == 1.0 and base["p_holm"] == 1.0


def test_holm_runs_over_every_comparison_of_the_experiment() -> None:
    def tested(*ps: float) -> dict[str, dict[str, float]]:
        return {m: {"p": p} for m, p in zip(METRICS, ps, strict=True)}

    arms = [
        {"vs_reference": tested(0.01, 0.04, 0.03), "gain": None},
        {"vs_reference": None, "gain": tested(0.2, float("nan"), 0.5), "gain_vs_reference": None},
    ]
    assert adjust(arms) == 5
    # sorted 0.01 0.03 0.04 0.2 0.5 -> x5 x4 x3 x2 x1: 0.05 0.12 0.12 0.4 0.5
    assert [arms[0]["vs_reference"][m]["p_holm"] for m in METRICS] == pytest.approx(
        [0.05, 0.12, 0.12]
    )
    assert arms[1]["gain"]["pass@1"]["p_holm"] == pytest.approx(0.4)
    assert math.isnan(arms[1]["gain"]["pass@1_mcts"]["p_holm"])
    assert arms[1]["gain"]["pass@n"]["p_holm"] == pytest.approx(0.5)


def test_tokens_are_summed_over_steps_and_averaged_over_seeds(finished) -> None:  # type: ignore[no-untyped-def]
    arms, _ = finished
    assert arms["grpo"]["tokens"] == {"per_seed": [150, 150], "mean": 150}
    assert arms["mcts"]["tokens"]["per_seed"] == [180, 100]
    assert arms["base"]["tokens"]["mean"] == 0
    assert arms["grpo"]["planned_nodes"] == 2 * 4 * 4  # steps x problems x group size


def test_a_resumed_run_counts_a_step_logged_twice_once(tmp_path: Path) -> None:
    lines = [
        {"step": 0},
        {"step": 1, "tokens/generated": 5},
        {"step": 1, "tokens/generated": 7},  # logged again after a resume
        {"step": 2, "tokens/generated": 3},
    ]
    (tmp_path / "metrics.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines) + '{"step": 3, "tok'
    )
    assert tokens_generated(tmp_path) == 10


def test_each_trained_run_says_how_its_learner_computed(finished, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    arms, _ = finished
    assert [r["precision"] for r in arms["grpo"]["runs"]] == ["fp32", "fp32"]
    assert [r["precision"] for r in arms["base"]["runs"]] == [None]  # nothing trained
    assert precision_note(arms["_all"]) is None  # all alike: no note
    lines = [{"step": 1, "bf16/coder": 1.0}, {"step": 2, "bf16/coder": 0.0}]
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert learner_precision(tmp_path) == "mixed"  # resumed on a machine without AMX
    (tmp_path / "metrics.jsonl").write_text('{"step": 1, "loss/coder": 0.5}\n')
    assert learner_precision(tmp_path) is None  # written before runs recorded it


def test_unlike_or_unrecorded_precision_is_noted(tmp_path: Path) -> None:
    experiment = load_experiment(experiment_file(tmp_path))
    runs = {(r.arm.name, r.seed): r for r in plan(experiment, tmp_path / "out")}
    three = [outcome("p1", 0), outcome("p2", 0), outcome("p3", 0)]
    finish(runs["grpo", 0], three, bf16=1.0)
    finish(runs["grpo", 1], three)
    finish(runs["mcts", 0], three, bf16=None)
    results = collect(experiment, list(runs.values()), resamples=200)
    want = (
        "Learner precision differs or is unrecorded across the trained runs (grpo/seed0 bf16, "
        "grpo/seed1 fp32, mcts/seed0 unrecorded)"
    )
    assert want in markdown(results)


def test_seed_average_keeps_the_problems_every_seed_has() -> None:
    one = {"a": {"pass@1": 1.0, "pass@1_mcts": 1.0, "pass@n": 1.0}}
    two = {
        "a": {"pass@1": 0.0, "pass@1_mcts": 0.0, "pass@n": 1.0},
        "b": {"pass@1": 1.0, "pass@1_mcts": 1.0, "pass@n": 1.0},
    }
    assert seed_average([one, two]) == {"a": {"pass@1": 0.5, "pass@1_mcts": 0.5, "pass@n": 1.0}}


def test_results_files(finished) -> None:  # type: ignore[no-untyped-def]
    arms, out = finished
    json_file, md_file = write(arms["_all"], out)
    assert json.loads(json_file.read_text())["reference"] == "grpo"
    text = md_file.read_text()
    assert "| mcts | 2/2 | 3 | 0.500 [0.000, 1.000] |" in text
    assert "| base | 1/2 | 3 | 0.000 [0.000, 0.000] † |" in text  # one run: conditional
    assert "| arm | metric | Δ vs grpo [95% CI] | p | p (Holm) | conditional on these runs" in text
    assert (
        "| mcts | Pass@1 | +0.333 [-0.681, +1.000] | 0.293 | 1.000 | [+0.000, +0.500] p=0.500 |"
        in text
    )
    assert "| base | Pass@1 | -0.167 [-0.500, +0.000] † | 1.000 | 1.000 | (the same) |" in text
    assert "Not finished yet: base seeds [1]" in text
    assert markdown(arms["_all"]) == text


def test_evaluations_of_other_problems_are_not_tabulated_together(tmp_path: Path) -> None:
    experiment = load_experiment(experiment_file(tmp_path))
    runs = plan(experiment, tmp_path / "out")
    finish(runs[0], [outcome("p1", 0)])
    finish(runs[1], [outcome("p1", 0)], checksum="sha256:other")
    with pytest.raises(UserError, match="evaluated differently \\(problems_checksum\\)"):
        collect(experiment, runs)


def test_the_change_during_training_is_paired_per_problem_and_against_the_reference(
    tmp_path: Path,
) -> None:
    """grpo: p1 0 -> 1 in seed 0, 0 -> 0 in seed 1; mcts: p1 0 -> 1 and p2 1 -> 1 in both seeds
    (step-0 evaluations written beside the final ones)."""
    experiment = load_experiment(experiment_file(tmp_path))
    runs = {(r.arm.name, r.seed): r for r in plan(experiment, tmp_path / "out")}
    first = {
        ("grpo", 0): [outcome("p1", 0), outcome("p2", 0)],
        ("grpo", 1): [outcome("p1", 0), outcome("p2", 0)],
        ("mcts", 0): [outcome("p1", 0), outcome("p2", 1)],
        ("mcts", 1): [outcome("p1", 0), outcome("p2", 1)],
    }
    last = {
        ("grpo", 0): [outcome("p1", 1), outcome("p2", 0)],
        ("grpo", 1): [outcome("p1", 0), outcome("p2", 0)],
        ("mcts", 0): [outcome("p1", 1), outcome("p2", 1)],
        ("mcts", 1): [outcome("p1", 1), outcome("p2", 1)],
    }
    for key, outcomes in last.items():
        finish(runs[key], outcomes)
        write_eval(runs[key], runs[key].first_eval, first[key])
    finish(runs["base", 0], [outcome("p1", 0), outcome("p2", 0)])
    results = collect(experiment, list(runs.values()), resamples=2000)
    arms = {a["name"]: a for a in results["arms"]}
    # grpo per problem change: p1 (1 + 0) / 2 - 0 = 0.5, p2 0 -> mean 0.25
    assert arms["grpo"]["gain"]["pass@1"]["diff"] == pytest.approx(0.25)
    # mcts: both runs change (1, 0): no run variance, so the one-sample t over the problems'
    # changes: mean 0.5, variance 0.5 / 2 -> se 0.5, df 1; t = 1: p = 1 - 2 atan(1) / pi = 0.5;
    # 0.5 +- 12.7 x 0.5 clipped to [-1, 1]. Over problems only: sign flips of (1, 0): p = 1
    gain = arms["mcts"]["gain"]["pass@1"]
    assert gain["diff"] == pytest.approx(0.5) and gain["df"] == pytest.approx(1.0)
    assert gain["p"] == pytest.approx(0.5, abs=1e-6) and (gain["lo"], gain["hi"]) == (-1.0, 1.0)
    assert gain["conditional"]["p"] == pytest.approx(1.0)
    # mcts change - grpo change per problem: p1 1 - 0.5, p2 0 - 0 -> 0.25
    assert arms["mcts"]["gain_vs_reference"]["pass@1"]["diff"] == pytest.approx(0.25)
    assert arms["grpo"]["gain_vs_reference"] is None
    assert arms["base"]["gain"] is None and arms["base"]["gain_vs_reference"] is None
    assert arms["mcts"]["per_problem_change"]["pass@1"] == [[1.0, 0.0], [1.0, 0.0]]
    # the Holm family: 3 metrics x (base and mcts vs grpo, grpo's and mcts's change, mcts's
    # change vs grpo's)
    assert results["holm"]["tests"] == 15
    text = markdown(results)
    assert "Change during training" in text
    assert "| mcts | Pass@1 | +0.500 [-1.000, +1.000] | 0.500 |" in text
    assert "| mcts | Pass@1 | +0.250 [" in text.split("change − grpo's change")[1]
    assert "| base |" not in text.split("Change during training")[1]


def test_runs_without_a_step_0_evaluation_have_no_change(finished) -> None:  # type: ignore[no-untyped-def]
    arms, _ = finished
    assert arms["mcts"]["gain"] is None and arms["mcts"]["gain_vs_reference"] is None
    text = markdown(arms["_all"])
    assert "Change during training" not in text
    assert "No change during training for grpo, mcts: their runs have no step-0" in text
    assert "Without grpo's change" not in text  # no arm has a change to compare


def test_without_the_reference_arms_step_0_evaluation_no_change_is_compared(
    tmp_path: Path,
) -> None:
    experiment = load_experiment(experiment_file(tmp_path))
    runs = {(r.arm.name, r.seed): r for r in plan(experiment, tmp_path / "out")}
    for key in [("grpo", 0), ("mcts", 0)]:
        finish(runs[key], [outcome("p1", 1), outcome("p2", 0)])
    write_eval(runs["mcts", 0], runs["mcts", 0].first_eval, [outcome("p1", 0), outcome("p2", 0)])
    results = collect(experiment, list(runs.values()), resamples=200)
    arms = {a["name"]: a for a in results["arms"]}
    assert arms["mcts"]["gain"]["pass@1"]["diff"] == pytest.approx(0.5)
    assert arms["mcts"]["gain_vs_reference"] is None
    text = markdown(results)
    assert "| mcts | Pass@1 | +0.500 [" in text.split("Change during training")[1]
    assert "No change during training for grpo: their runs have no step-0 evaluation" in text
    assert "Without grpo's change, no change is compared with it." in text
    assert "change − grpo's change" not in text  # no table of dashes


def test_final_evaluations_have_their_rows_differences_and_holm_share(tmp_path: Path) -> None:
    """`alone` (each agent alone) of grpo's coder (the reference row) and mcts's two agents;
    `wide` (the team) of every arm, mcts's seed 1 not done yet."""
    text = TINY.replace(
        "{set: [train.mode=mcts]}", "{team: [tiny-random, tiny-random], set: [train.mode=mcts]}"
    )
    experiment = load_experiment(experiment_file(tmp_path, text + FINALS))
    runs = plan(experiment, tmp_path / "out")
    solved = {  # (arm, seed, final evaluation, agent) -> problems passed
        ("grpo", 0, "alone", "coder"): [],
        ("grpo", 1, "alone", "coder"): ["p1"],
        ("mcts", 0, "alone", "coder"): ["p1"],
        ("mcts", 1, "alone", "coder"): ["p3"],
        ("mcts", 0, "alone", "debugger"): ["p1", "p2"],
        ("mcts", 1, "alone", "debugger"): ["p1", "p2"],
    }
    for run in runs:
        finish(run, [outcome(p, int(p == "p1" and run.seed == 1)) for p in ("p1", "p2", "p3")])
        for planned in run.final_evals():
            if (run.arm.name, run.seed, planned.final.name) == ("mcts", 1, "wide"):
                continue
            passed = solved.get((run.arm.name, run.seed, planned.final.name, planned.agent), [])
            finish_eval(planned, [outcome(p, int(p in passed)) for p in ("p1", "p2", "p3")])
    results = collect(experiment, runs, resamples=200)
    alone, wide = results["final_evals"]
    assert (alone["name"], alone["each_agent"], alone["set"]) == ("alone", True, ["eval.budget=1"])
    assert alone["reference"] == {"arm": "grpo", "agent": "coder"}
    rows = {(r["arm"], r["agent"]): r for r in alone["rows"]}
    assert list(rows) == [
        ("base", "coder"), ("grpo", "coder"), ("mcts", "coder"), ("mcts", "debugger"),
    ]  # fmt: skip
    debugger = rows["mcts", "debugger"]
    assert debugger["metrics"]["pass@1"]["value"] == pytest.approx(2 / 3)
    assert debugger["per_problem"]["pass@1"] == [[1.0, 1.0, 0.0], [1.0, 1.0, 0.0]]
    # per problem debugger - grpo's coder: p1 1 - 0.5, p2 1 - 0, p3 0 -> 0.5
    assert debugger["vs_reference"]["pass@1"]["diff"] == pytest.approx(0.5)
    assert debugger["vs_reference"]["pass@1"]["interval"] == "runs and problems"
    assert rows["grpo", "coder"]["vs_reference"] is None
    assert rows["base", "coder"]["seeds"] == [0, 1]  # an eval-only arm's untrained team
    mcts_wide = next(r for r in wide["rows"] if r["arm"] == "mcts")
    assert (mcts_wide["agent"], mcts_wide["seeds"], mcts_wide["missing_seeds"]) == (None, [0], [1])
    assert wide["reference"] == {"arm": "grpo", "agent": None}
    # Holm over the main table's and the final evaluations' p-values alike
    tested = [
        d[m]["p"]
        for entry in [*results["arms"], *alone["rows"], *wide["rows"]]
        for d in [entry.get("vs_reference")]
        if d
        for m in METRICS
    ]
    assert results["holm"]["tests"] == sum(not math.isnan(p) for p in tested) > 6
    assert "p_holm" in debugger["vs_reference"]["pass@n"]
    text = markdown(results)
    assert "## Final evaluation alone: each agent alone, eval.budget=1" in text
    assert "## Final evaluation wide: the team, eval.budget=2, eval.limit=2" in text
    assert "| arm | agent alone | metric | Δ vs grpo's coder alone [95% CI] | p |" in text
    assert "| mcts | debugger | 2/2 | 3 | 0.667 [" in text
    assert "| arm | metric | Δ vs grpo [95% CI] |" in text.split("## Final evaluation wide")[1]
    assert "wide of mcts seeds [1]" in text.split("Not finished yet:")[1]
