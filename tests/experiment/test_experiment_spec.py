"""The experiment file: what an arm's config is, and one clear error per user mistake."""

from __future__ import annotations

from pathlib import Path

import pytest
from experiment_fakes import TINY, experiment_file

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


@pytest.mark.parametrize(("text", "message"), BAD)
def test_mistakes_name_the_file_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = experiment_file(tmp_path, text)
    with pytest.raises(UserError) as err:
        load_experiment(path)
    assert str(path) in str(err.value)
    assert message in str(err.value)


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
