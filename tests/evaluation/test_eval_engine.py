"""An evaluation knows what generated it: the engines' resolved settings (rollout precision,
decoder, fence stop, backend, device, the CPU's bfloat16) are in its protocol, key the cache and
must be equal for `mars2 compare` to pair two evaluations (tiny-random, real hf engine)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mars2 import paths
from mars2.cli import main
from mars2.config import load_config
from mars2.evaluation.protocol import differing_fields, protocol
from mars2.evaluation.run import Evaluation, evaluate_teams

SETTINGS = [
    "agents.0.model=tiny-random",
    "agents.1.model=tiny-random",
    "agents.1.share_with=null",
    "eval.limit=2",
    "eval.samples=1",
    "eval.budget=1",
    "agents.0.max_new_tokens=8",
]


def evaluate(*overrides: str) -> Evaluation:
    config = load_config(None, [*SETTINGS, *overrides])
    config = dataclasses.replace(config, agents=config.agents[:1])
    (evaluation,) = evaluate_teams(config, [[0]], label="t")
    return evaluation


@pytest.fixture
def cache(own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.CACHE_ENV, str(own_cache))
    return own_cache


@pytest.mark.parametrize(
    ("first", "second", "field"),
    [
        ("agents.0.rollout_dtype=model", "agents.0.rollout_dtype=bfloat16", "rollout_dtype"),
        ("agents.0.stop_at_fence=true", "agents.0.stop_at_fence=false", "stop_at_fence"),
    ],
)
def test_engine_settings_key_the_cache_and_refuse_pairing(
    cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str, second: str,
    field: str,
) -> None:  # fmt: skip
    a = evaluate(first)
    assert not a.cached
    assert evaluate(first).cached  # the same engine: the cache answers
    b = evaluate(second)
    assert not b.cached  # another engine: evaluated again, not the first one's numbers
    engine = a.eval_json["protocol"]["engines"]["tiny-random"]
    assert engine["backend"] == "hf" and engine["device"] == "cpu"
    assert engine["decoder"] in {"llama", "transformers"}
    assert isinstance(engine["native_bf16"], bool)
    assert differing_fields(a.eval_json["protocol"], b.eval_json["protocol"]) == [
        f"protocol.engines.tiny-random.{field}"
    ]
    files = [a.write(tmp_path / "a" / "eval.json"), b.write(tmp_path / "b" / "eval.json")]
    assert main(["compare", *map(str, files)]) == 2
    err = capsys.readouterr().err.replace("\n", "")
    assert f"protocol.engines.tiny-random.{field}" in err


def test_a_protocol_without_engines_does_not_pair_with_one_that_has_them() -> None:
    base = {"problems": "x", "engines": {"m": {"backend": "hf"}}}
    old = {"problems": "x"}
    assert differing_fields(base, old) == ["protocol.engines"]
    # a model only one team has is not a protocol difference; a shared model's engine is
    other = {"problems": "x", "engines": {"m": {"backend": "hf"}, "g": {"backend": "vllm"}}}
    assert differing_fields(base, other) == []
    assert differing_fields(base, {**other, "engines": {"m": {"backend": "vllm"}}}) == [
        "protocol.engines.m.backend"
    ]


def test_a_configured_protocol_records_the_settings_as_written() -> None:
    config = load_config(None, ["agents.0.rollout_dtype=int8", "agents.0.decoder=transformers"])
    engine = protocol(config)["engines"]["smollm2-135m"]
    # the coder and the debugger (one model) generate differently: both values, sorted
    assert engine["rollout_dtype"] == ["auto", "int8"]
    assert engine["decoder"] == ["auto", "transformers"]
    assert engine["stop_at_fence"] is True
    assert engine["native_bf16"] is None  # not known before an engine runs
