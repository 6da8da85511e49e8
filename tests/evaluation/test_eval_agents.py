"""`mars2 eval RUN --agents NAME` for every agent of a run whose agents share one set of weights
(`share_with`, as in the main job): each agent alone is evaluated on the trained weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from learner_fixtures import agent_batch as batch
from learner_fixtures import make_config
from mars2.cli import main
from mars2.config import dump_yaml
from mars2.training import checkpoint
from mars2.training.loop import Trainer
from mars2.training.placement import LocalPlacement

EVAL = ["--limit", "1", "--budget", "2", "--samples", "1", "eval.cache=false"]


@pytest.fixture(scope="module")
def shared_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A smoke-sized run: coder and debugger on one LoRA adapter (the main job's layout), one
    optimizer step on fixed samples, checkpoint step_000001. The two agents' samples have the same
    tokens and advantages of the same sign: with opposite signs their gradients on the shared
    adapter cancel, exactly where the kernels sum them in the same order, and the step moves
    nothing."""
    config = make_config(
        "agents.0.lora_rank=4", "agents.1.lora_rank=4", "agents.1.share_with=coder"
    )
    run = tmp_path_factory.mktemp("shared-run")
    (run / "config.yaml").write_text(dump_yaml(config))
    trainer = Trainer(config, run, LocalPlacement(config))
    trainer._update(batch(0) + batch(1), {})
    trainer.step = 1
    checkpoint.save(run, 1, trainer.state_dict())
    assert not (run / "checkpoints" / "step_000001" / "agents" / "debugger").exists()
    return run


def codes(folder: Path) -> list[str]:
    text = (folder / "trees" / "search.jsonl").read_text()
    return [json.loads(line)["code"] for line in text.splitlines()]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["coder", "debugger"])
def test_each_agent_of_a_shared_run_is_evaluated_alone(
    shared_run: Path, tmp_path: Path, name: str
) -> None:
    trained, base = tmp_path / "trained", tmp_path / "base"
    assert main(["eval", str(shared_run), "--agents", name, "--out", str(trained), *EVAL]) == 0
    record = json.loads((trained / "eval.json").read_text())
    assert [m["name"] for m in record["team"]] == [name]
    assert (
        main(["eval", str(shared_run), "--agents", name, "--base", "--out", str(base), *EVAL]) == 0
    )
    # Same seeds and problems: only the weights differ, so the generated code does too (the
    # debugger has no weights folder of its own: it was given the coder's adapter)
    assert codes(trained) != codes(base)
    # each evaluation records its wall time and machine beside its eval.json
    (machine_line,) = (trained / "environment.jsonl").read_text().splitlines()
    facts = json.loads(machine_line)
    assert facts["seconds"] > 0 and facts["cores"] >= 1 and "source" in facts
