"""The experiment file: what an arm's config is, and one clear error per user mistake."""

from __future__ import annotations

from pathlib import Path

import pytest
from experiment_fakes import FINALS, TINY, experiment_file

from mars2.cli import main
from mars2.errors import UserError
from mars2.experiment import load_experiment


def test_arms_seeds_and_overrides_in_order(tmp_path: Path) -> None:
    experiment = load_experiment(experiment_file(tmp_path))
    assert [a.name for a in experiment.arms] == ["base", "grpo", "mcts"]
    assert experiment.seeds == (0, 1)
    assert experiment.reference == "grpo"
    assert experiment.arm("base").eval_only
    grpo = experiment.config_for(experiment.arm("grpo"), seed=1, out=tmp_path / "run")
    assert (grpo.train.mode, grpo.train.samples_per_problem, grpo.train.steps) == ("grpo", 4, 2)
    assert grpo.seed == 1 and grpo.output.out == str(tmp_path / "run")
    assert [a.model for a in grpo.agents] == ["tiny-random"]
    assert grpo.eval.limit == 3


def test_quick_replaces_the_seeds_and_its_set_wins(tmp_path: Path) -> None:
    experiment = load_experiment(experiment_file(tmp_path), quick=True)
    assert experiment.seeds == (0,)
    assert experiment.name == "exp-quick"
    config = experiment.config_for(experiment.arm("mcts"), seed=0)
    assert (config.train.steps, config.eval.limit, config.train.mode) == (1, 2, "mcts")


def test_an_arm_set_wins_over_the_experiment_set_and_its_base_replaces_the_base(
    tmp_path: Path,
) -> None:
    (tmp_path / "other.yaml").write_text("search: {budget: 6}\ntrain: {steps: 9}\n")
    text = TINY.replace(
        "  mcts: {set: [train.mode=mcts]}",
        "  mcts: {base: other.yaml, set: [train.mode=mcts, train.steps=5]}",
    )
    experiment = load_experiment(experiment_file(tmp_path, text))
    mcts = experiment.config_for(experiment.arm("mcts"), seed=0)
    assert (mcts.train.steps, mcts.search.budget) == (5, 6)
    grpo = experiment.config_for(experiment.arm("grpo"), seed=0)
    assert (grpo.train.steps, grpo.search.budget) == (2, 4)


def test_a_team_copies_the_base_agent_settings_with_its_own_models(tmp_path: Path) -> None:
    text = TINY.replace(
        "  mcts: {set: [train.mode=mcts]}",
        "  mcts: {team: [tiny-random, {model: tiny-random, temperature: 0.5}]}",
    )
    experiment = load_experiment(experiment_file(tmp_path, text))
    agents = experiment.config_for(experiment.arm("mcts"), seed=0).agents
    assert [(a.name, a.role) for a in agents] == [("coder", "coder"), ("debugger", "debugger")]
    assert [a.max_new_tokens for a in agents] == [32, 32]  # the base agent's, not the default
    assert [a.temperature for a in agents] == [0.8, 0.5]


BAD = [
    ("arms_x: {}\n" + TINY, "arms_x: unknown key; did you mean 'arms'?"),
    (TINY.replace("seeds: [0, 1]\n", ""), "seeds: missing"),
    (TINY.replace("seeds: [0, 1]", "seeds: [0, zero]"), "seeds: expected a non-empty list"),
    (TINY.replace("seeds: [0, 1]", "seeds: [1, 1]"), "seeds: seeds repeat"),
    (TINY.replace("reference: grpo", "reference: grp"), "reference: 'grp' is not an arm"),
    (TINY.replace("eval_only: true", "eval_onyl: true"), "arms.base.eval_onyl: unknown key"),
    (TINY.replace("eval_only: true", "eval_only: yes please"), "arms.base.eval_only: expected"),
    (TINY.replace("train.mode=grpo", "train.mode grpo"), "arms.grpo.set[0]: 'train.mode grpo'"),
    (TINY.replace("train.mode=grpo", "train.mod=grpo"), "arms.grpo: config field 'train.mod'"),
    (TINY.replace("train.mode=grpo", "train.mode=ppo"), "arms.grpo: config field 'train.mode'"),
    (TINY.replace("eval.limit=3", "eval.limit=0"), "set: config field 'eval.limit'"),
    (TINY.replace("data: {limit: 4}", "data: {limt: 4}"), "config: config field 'data.limt'"),
    ("base: missing.yaml\n" + TINY, "base: config file"),
    (TINY.replace("  mcts:", "  m/cts:"), "arms.m/cts: an arm name is"),
    (TINY.replace("{set: [train.mode=mcts]}", "{team: smollm2}"), "arms.mcts.team: expected"),
    (TINY.replace("set: [train.steps=2", "set: [7, train.steps=2"), "set: expected a list of"),
    (TINY.split("arms:")[0] + "arms: {}\n", "arms: missing or empty"),
    ("- a list\n", "expected a mapping"),
]

# a final evaluation's mistakes, each in the `alone` entry of FINALS or a replacement of it
ALONE = "alone: {each_agent: true, set: [eval.budget=1]}"
BAD_FINALS = [
    ("alone: {each_agent: true, set: [train.steps=3]}", "final_evals.alone.set[0]: 'train.steps=3"),
    ("alone: {set: [eval.budget=1, eval.budgt=2]}", "final_evals.alone.set[1]: config field 'eval.budgt'"),
    ("alone: {set: [eval.budget=0]}", "final_evals.alone.set[0]: config field 'eval.budget'"),
    ("alone: {set: [eval.budget 2]}", "final_evals.alone.set[0]: 'eval.budget 2' is not key=value"),
    ("alone: {set: [eval.each_agent=true]}", "final_evals.alone.set[0]: 'eval.each_agent=true': write"),
    ("alone: {set: [eval.trees=2]}", "final_evals.alone.set[0]: config field 'eval.trees'"),
    ("alone: {each_agent: yes please}", "final_evals.alone.each_agent: expected true or false"),
    ("alone: {each_agnet: true}", "final_evals.alone.each_agnet: unknown key; did you mean 'each_agent'?"),
    ("alone: {set: eval.budget=1}", "final_evals.alone.set: expected a list of strings"),
    ("alone: {seeds: [0, 0]}", "final_evals.alone.seeds: seeds repeat"),
    ("alone: {seeds: 0}", "final_evals.alone.seeds: expected a non-empty list of integers"),
    ("step_9: {}", "final_evals.step_9: a final evaluation's name is"),
    ("al/one: {}", "final_evals.al/one: a final evaluation's name is"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD)
def test_mistakes_name_the_file_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = experiment_file(tmp_path, text)
    with pytest.raises(UserError) as err:
        load_experiment(path)
    assert str(path) in str(err.value)
    assert message in str(err.value)


@pytest.mark.parametrize(("entry", "message"), BAD_FINALS)
def test_final_evaluation_mistakes_name_the_file_and_the_field(
    tmp_path: Path, entry: str, message: str
) -> None:
    path = experiment_file(tmp_path, TINY + FINALS.replace(ALONE, entry))
    with pytest.raises(UserError) as err:
        load_experiment(path)
    assert str(path) in str(err.value)
    assert message in str(err.value)


def test_final_evaluations_not_a_mapping(tmp_path: Path) -> None:
    path = experiment_file(tmp_path, TINY + "final_evals: [alone]\n")
    with pytest.raises(UserError, match="final_evals: expected a mapping"):
        load_experiment(path)


def test_final_evaluations_in_order_and_quick_keeps_them_quick(tmp_path: Path) -> None:
    path = experiment_file(tmp_path, TINY + FINALS)
    alone, wide = load_experiment(path).final_evals
    assert (alone.name, alone.each_agent, alone.overrides) == ("alone", True, ("eval.budget=1",))
    assert (wide.name, wide.each_agent) == ("wide", False)
    assert wide.overrides == ("eval.budget=2", "eval.limit=2")
    # --quick: the quick set's eval.* keys come after a final evaluation's own
    wide = load_experiment(path, quick=True).final_evals[1]
    assert wide.overrides == ("eval.budget=2", "eval.limit=2", "eval.limit=2")
    assert load_experiment(experiment_file(tmp_path, TINY)).final_evals == ()


def test_a_final_evaluation_is_checked_against_every_arm(tmp_path: Path) -> None:
    # eval.trees=2 needs eval.samples >= 2: the experiment's set has it, one arm does not
    text = TINY.replace("eval.samples=1", "eval.samples=2").replace(
        "{set: [train.mode=mcts]}", "{set: [train.mode=mcts, eval.samples=1]}"
    )
    path = experiment_file(tmp_path, text + "final_evals:\n  two: {set: [eval.trees=2]}\n")
    with pytest.raises(UserError, match=r"final_evals.two \(arm mcts\): config field 'eval.trees'"):
        load_experiment(path)


def test_quick_without_a_quick_section(tmp_path: Path) -> None:
    path = experiment_file(tmp_path, TINY.split("quick:")[0])
    load_experiment(path)  # fine without --quick
    with pytest.raises(UserError, match="quick: --quick needs a quick: section"):
        load_experiment(path, quick=True)


def test_the_cli_prints_one_message_and_exits_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path, TINY.replace("reference: grpo", "reference: nope"))
    assert main(["experiment", str(path), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "reference: 'nope' is not an arm" in err
    assert "Traceback" not in err


def test_the_cli_names_a_final_evaluations_override_and_exits_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = experiment_file(tmp_path, TINY + FINALS.replace("eval.limit=2", "train.steps=9"))
    assert main(["experiment", str(path), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "final_evals.wide.set[1]: 'train.steps=9': only eval.* keys may be set" in err
    assert "Traceback" not in err


def test_the_bundled_experiment_files_load(tmp_path: Path) -> None:
    configs = Path(__file__).resolve().parents[2] / "configs"
    ladder = load_experiment(configs / "ladder.yaml")
    assert [a.name for a in ladder.arms] == ["base", "grpo", "mars2-1", "mars2-2", "mars2-hetero"]
    assert len(ladder.seeds) == 3 and ladder.reference == "grpo"
    models = {a.name: [x.model for x in ladder.config_for(a, 0).agents] for a in ladder.arms}
    assert models["mars2-hetero"] == ["smollm2-135m", "gemma3-270m"]
    assert models["mars2-2"] == ["smollm2-135m", "smollm2-135m"]
    ablation = load_experiment(configs / "ablation.yaml", quick=True)
    assert ablation.reference == "default" and ablation.seeds == (0,)
