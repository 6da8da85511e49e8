"""Config: defaults, YAML, dotted overrides, validation messages, presets, docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from mars2.config import Config, field_docs, load_config, load_yaml, to_dict
from mars2.errors import ConfigError, UserError

ROOT = Path(__file__).resolve().parents[1]


def test_defaults_are_valid() -> None:
    config = load_config()
    assert config == Config()
    assert config.search.algo == "abmcts"


def test_overrides_convert_types() -> None:
    config = load_config(
        None,
        [
            "search.budget=16",
            "agents.0.temperature=0.5",
            "agents.1.temperature=0.5",
            "credit.reward=binary",
            "data.limit=null",
        ],
    )
    assert config.search.budget == 16
    assert config.agents[0].temperature == 0.5
    assert config.credit.reward == "binary"
    assert config.data.limit is None


def test_override_list_of_agents() -> None:
    config = load_config(
        None, ["agents=[{model: tiny-random}, {model: tiny-random, role: debugger}]"]
    )
    assert [a.role for a in config.agents] == ["coder", "debugger"]
    assert config.agent_name(1) == "agent1"


@pytest.mark.parametrize(
    ("override", "field", "message"),
    [
        ("search.no_such_key=1", "search.no_such_key", "unknown key"),
        ("search.budgt=3", "search.budgt", "did you mean 'budget'"),
        ("search.budget=abc", "search.budget", "expected an integer"),
        ("search.budget=0", "search.budget", "must be >= 1"),
        ("search.algo=abmct", "search.algo", "did you mean 'abmcts'"),
        ("agents.0.temperature=0", "agents.0.temperature", "must be > 0"),
        ("agents.3.model=x", "agents", "index must be"),
        ("train.steps=true", "train.steps", "expected an integer"),
        ("search.min_share=0.8", "search.min_share", "times #agents"),
    ],
)
def test_bad_values_name_the_field(override: str, field: str, message: str) -> None:
    if override.startswith("search.min_share"):
        overrides = ["agents=[{}, {}]", override]
    else:
        overrides = [override]
    with pytest.raises(ConfigError) as info:
        load_config(None, overrides)
    assert info.value.field == field
    assert message in str(info.value)


def test_override_without_equals_is_a_user_error() -> None:
    with pytest.raises(UserError, match="key=value"):
        load_config(None, ["search.budget"])


def test_yaml_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("search:\n  budget: [1\n")
    with pytest.raises(UserError, match=r"bad.yaml:\d+"):
        load_config(bad)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("search:\n  algo: mcts\n")
    with pytest.raises(UserError, match=r"wrong.yaml: config field 'search.algo'"):
        load_config(wrong)
    with pytest.raises(UserError, match="not found"):
        load_config(tmp_path / "missing.yaml")


def test_yaml_then_overrides(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("search:\n  budget: 4\ntrain:\n  steps: 3\n")
    config = load_config(file, ["train.steps=5"])
    assert (config.search.budget, config.train.steps) == (4, 5)
    assert config.search.algo == "abmcts"  # untouched defaults survive the merge


def test_round_trip_through_dict() -> None:
    config = load_config(None, ["agents=[{}, {role: debugger}]", "search.budget=3"])
    from mars2.config import build

    assert build(Config, to_dict(config)) == config


def test_every_field_has_docs() -> None:
    rows = field_docs()
    assert len(rows) > 50
    missing = [name for name, _, doc, _ in rows if len(doc) < 5]
    assert not missing


@pytest.mark.parametrize("preset", sorted((ROOT / "configs").glob("*.yaml")), ids=lambda p: p.name)
def test_presets_load(preset: Path) -> None:
    if "arms" in load_yaml(preset):  # an experiment file of `mars2 experiment` (ladder, ablation)
        from mars2.experiment import load_experiment

        assert load_experiment(preset).arms
        return
    assert isinstance(load_config(preset), Config)


def test_docs_config_md_is_what_mars2_config_docs_writes() -> None:
    """Every field, its default and its help as the code has them: a help text edited in the
    page alone (or in the code alone) fails here."""
    from mars2.cli.config import markdown

    text = (ROOT / "docs" / "config.md").read_text()
    missing = [name for name, *_ in field_docs() if f"`{name}`" not in text]
    assert not missing, f"docs/config.md lacks {missing}"
    assert text == markdown(), "docs/config.md is stale: `mars2 config docs > docs/config.md`"


def test_paper_preset_holds_the_reference_hyperparameters() -> None:
    config = load_config(ROOT / "configs" / "paper.yaml")
    assert config.loss.name == "gspo" and config.loss.tis != "none"
    assert config.loss.aggregation_used == "seq-mean-token-mean"
    assert (config.loss.kl_estimator, config.loss.kl_coef) == ("k3", 1e-3)
    assert config.train.lr == 1e-6 and config.train.adam_betas == (0.9, 0.95)
    assert all(agent.temperature == 1.0 for agent in config.agents)
    assert config.search.budget == 8 and config.search.parallel_expansions == 1
    assert config.credit.reward == "binary" and config.credit.overlong_buffer > 0


def test_numbers_without_a_dot_parse_as_numbers() -> None:
    # YAML 1.1 reads `1e-5` as a string; a user writing it means a number
    config = load_config(None, ["train.lr=1e-5", "loss.kl_coef=2E-3"])
    assert config.train.lr == 1e-5 and config.loss.kl_coef == 2e-3
    with pytest.raises(ConfigError, match=r"train\.lr"):
        load_config(None, ["train.lr=fast"])


def test_gspo_aggregates_per_sequence_by_default_and_warns_on_token_mean() -> None:
    assert load_config(None, ["loss.name=gspo"]).loss.aggregation_used == "seq-mean-token-mean"
    assert load_config(None, []).loss.aggregation_used == "token-mean"
    with pytest.warns(UserWarning, match="seq-mean-token-mean"):
        load_config(None, ["loss.name=gspo", "loss.aggregation=token-mean"])


def test_adam_betas_are_checked() -> None:
    assert load_config(None, ["train.adam_betas=[0.9, 0.95]"]).train.adam_betas == (0.9, 0.95)
    with pytest.raises(ConfigError, match="adam_betas"):
        load_config(None, ["train.adam_betas=[0.9]"])


def test_the_supervised_repair_term_needs_synchronous_updates() -> None:
    load_config(None, ["train.aux_sft_weight=0.5"])
    load_config(None, ["train.update=per_agent"])
    with pytest.raises(ConfigError, match=r"aux_sft_weight.*update: sync"):
        load_config(None, ["train.aux_sft_weight=0.5", "train.update=per_agent"])


def test_default_agents_share_weights_and_say_how_to_change_one() -> None:
    config = load_config(None, [])
    assert config.agents[1].share_with == "coder" and config.weights_owner(1) == 0
    with pytest.raises(ConfigError, match=r"set agents\.1\.temperature too, or agents\.1"):
        load_config(None, ["agents.0.temperature=0.5"])
    alone = load_config(None, ["agents.0.temperature=0.5", "agents.1.share_with=null"])
    assert alone.weights_owner(1) == 1


def test_the_old_dist_section_loads_as_cluster_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    file = tmp_path / "old.yaml"
    file.write_text("dist:\n  backend: ray\n  sandbox_actors: 2\n")
    with caplog.at_level("WARNING"):
        config = load_config(file, ["dist.timeout_s=7"])
    assert (config.cluster.backend, config.cluster.sandbox_actors) == ("ray", 2)
    assert config.cluster.timeout_s == 7.0
    assert "section dist is now cluster; please rename it" in caplog.text
    assert "config key dist.timeout_s is now cluster.timeout_s; please rename it" in caplog.text
