"""Checkpoints as safetensors folders: save/load round trips (full fine-tuning, LoRA, shared
weights), pruning to `train.keep_checkpoints`, `mars2 export` to a folder that transformers
loads with the trained learner's logits, `mars2 search --agents` on that folder, and a clear
error for checkpoints of older versions (.pt pickles)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from learner_fixtures import agent_batch as batch
from learner_fixtures import make_config
from mars2.cli import main
from mars2.config import Config, dump_yaml
from mars2.errors import UserError
from mars2.training import checkpoint
from mars2.training.loop import Trainer
from mars2.training.placement import LocalPlacement


def trained(config: Config, run_dir: Path) -> Trainer:
    """A Trainer whose learners took one step on fixed samples, with config.yaml written."""
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(dump_yaml(config))
    trainer = Trainer(config, run_dir, LocalPlacement(config))
    samples = [s for i in range(len(config.agents)) for s in batch(i, sign=1.0 - 2 * (i % 2))]
    trainer._update(samples, {})
    return trainer


@pytest.fixture(scope="module", params=[0, 4], ids=["full", "lora"])
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Trainer:
    """A run directory whose checkpoint step_000001 holds trainer's learners (not to be stepped
    further by tests)."""
    lora = request.param
    config = make_config(f"agents.0.lora_rank={lora}", f"agents.1.lora_rank={lora}")
    trainer = trained(config, tmp_path_factory.mktemp("run"))
    trainer.step = 1
    checkpoint.save(trainer.run_dir, 1, trainer.state_dict())
    return trainer


def logits(model: torch.nn.Module) -> torch.Tensor:
    ids = torch.tensor([[1, 5, 9, 14, 3, 7]])
    with torch.no_grad():
        return model(input_ids=ids).logits


def weights_of(trainer: Trainer, agent_id: int) -> dict[str, torch.Tensor]:
    learner = trainer.learners[agent_id]
    assert learner is not None
    return {k: v.clone() for k, v in learner.weights().items()}  # type: ignore[attr-defined]


@pytest.mark.parametrize("lora", [0, 4])
def test_save_then_resume_restores_weights_and_optimizer(tmp_path: Path, lora: int) -> None:
    config = make_config(f"agents.0.lora_rank={lora}", f"agents.1.lora_rank={lora}")
    trainer = trained(config, tmp_path / "run")
    trainer.step = 1
    path = checkpoint.save(tmp_path / "run", 1, trainer.state_dict())
    assert path.name == "step_000001" and (path / "optimizer.pt").is_file()
    for name in ("coder", "debugger"):
        files = {p.name for p in (path / "agents" / name).iterdir()}
        if lora:
            assert {"adapter_model.safetensors", "adapter_config.json"} <= files
            adapter = json.loads((path / "agents" / name / "adapter_config.json").read_text())
            assert adapter["r"] == 4 and adapter["base_model_name_or_path"]
        else:
            assert {"model.safetensors", "config.json", "tokenizer_config.json"} <= files
    fresh = Trainer(config, tmp_path / "run", LocalPlacement(config))
    fresh.load_state_dict(checkpoint.load(path))
    assert fresh.step == 1
    for agent_id in (0, 1):
        want, have = weights_of(trainer, agent_id), weights_of(fresh, agent_id)
        assert want.keys() == have.keys()
        assert all(torch.equal(want[k], have[k]) for k in want)
        old, new = trainer.learners[agent_id], fresh.learners[agent_id]
        a, b = old.optimizer.state_dict(), new.optimizer.state_dict()  # type: ignore[union-attr]
        assert a["state"].keys() == b["state"].keys() and a["state"]
        for key in a["state"]:
            assert torch.equal(a["state"][key]["exp_avg_sq"], b["state"][key]["exp_avg_sq"])
    # the resumed learner steps exactly like the original
    trainer._update(batch(0), {})
    fresh._update(batch(0), {})
    want, have = weights_of(trainer, 0), weights_of(fresh, 0)
    assert all(torch.equal(want[k], have[k]) for k in want)


def test_keep_checkpoints_prunes_old_ones_and_old_optimizer_state(
    run: Trainer, tmp_path: Path
) -> None:
    trainer = run
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.yaml").write_text(dump_yaml(trainer.config))
    (run / "checkpoints" / ".step_000009-x.tmp").mkdir()  # left by a run killed mid-save
    for step in (1, 2, 3):
        trainer.step = step
        checkpoint.save(run, step, trainer.state_dict(), keep=trainer.config.train.keep_checkpoints)
    folder = run / "checkpoints"
    assert sorted(p.name for p in folder.iterdir()) == ["latest", "step_000002", "step_000003"]
    assert (folder / "latest").read_text() == "step_000003"
    assert checkpoint.latest(run) == folder / "step_000003"
    assert not (folder / "step_000002" / "optimizer.pt").exists()
    assert (folder / "step_000003" / "optimizer.pt").is_file()
    with pytest.raises(UserError, match="optimizer state"):
        checkpoint.load(folder / "step_000002")
    # the older checkpoint still evaluates and exports
    code = main(
        ["export", str(run), "--step", "2", "--agent", "coder", "--out", str(tmp_path / "x")]
    )
    assert code == 0 and (tmp_path / "x" / "model.safetensors").is_file()


def test_export_loads_in_transformers_with_the_learners_logits(
    run: Trainer, tmp_path: Path
) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    lora = run.config.agents[1].lora_rank > 0
    out = tmp_path / "debugger-model"
    assert main(["export", str(run.run_dir), "--agent", "debugger", "--out", str(out)]) == 0
    model = AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32).eval()
    coder, debugger = run.learners
    assert coder is not None and debugger is not None
    coder._activate()  # type: ignore[attr-defined]
    other = logits(coder.model.eval())  # type: ignore[attr-defined]
    debugger._activate()  # type: ignore[attr-defined]
    want = logits(debugger.model.eval())  # type: ignore[attr-defined]
    have = logits(model)
    assert not torch.allclose(other, want)  # the two agents were trained apart
    if lora:  # merged weights: the same function up to float rounding
        assert torch.allclose(have, want, atol=1e-5, rtol=1e-4)
    else:
        assert torch.equal(have, want)
    tokenizer = AutoTokenizer.from_pretrained(out)
    assert tokenizer.chat_template
    assert json.loads((out / "mars2_export.json").read_text())["agent"] == "debugger"
    # an export never overwrites
    assert main(["export", str(run.run_dir), "--agent", "debugger", "--out", str(out)]) == 2


def test_search_accepts_an_exported_folder(run: Trainer, tmp_path: Path) -> None:
    if run.config.agents[0].lora_rank:
        pytest.skip("one export is enough")
    out = tmp_path / "exported"
    assert main(["export", str(run.run_dir), "--agent", "coder", "--out", str(out)]) == 0
    search_dir = tmp_path / "search"
    argv = ["search", "--agents", str(out), "--problems", "bundled:basic-test", "--limit", "1"]
    argv += ["--budget", "1", "--out", str(search_dir), "agents.0.max_new_tokens=8"]
    argv += ["eval.samples=1"]
    assert main(argv) == 0
    metrics = json.loads((search_dir / "metrics.json").read_text())
    assert metrics["nodes"] == 1


def test_unknown_agent_and_old_pt_checkpoints_are_user_errors(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.yaml").write_text(dump_yaml(make_config()))
    (run / "checkpoints" / "step_000004.pt").write_bytes(b"old pickle")
    (run / "checkpoints" / "latest").write_text("step_000004.pt")
    with pytest.raises(UserError, match="older mars2"):
        checkpoint.latest(run)
    for argv in (
        ["eval", str(run)],
        ["eval", str(run), "--step", "4"],
        ["export", str(run), "--agent", "coder", "--out", str(tmp_path / "o")],
        ["train", "--resume", str(run)],
    ):
        assert main(argv) == 2, argv
        assert "older mars2" in capsys.readouterr().err
    assert main(["export", str(run), "--agent", "nobody", "--out", str(tmp_path / "o")]) == 2
    assert "nobody" in capsys.readouterr().err
