"""Rebuild trained agents from a run's checkpoint, for evaluation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mars2.agents import load_model
from mars2.config import Config
from mars2.errors import UserError
from mars2.train import checkpoint
from mars2.train.learner import make_trainable


def checkpoint_path(run_dir: Path, step: int | None) -> Path:
    """The checkpoint of `step`, or the latest one."""
    if step is None:
        path = checkpoint.latest(run_dir)
        if path is None:
            raise UserError(f"{run_dir}: no checkpoint found under checkpoints/")
        return path
    path = run_dir / "checkpoints" / f"step_{step:06d}.pt"
    if not path.is_file():
        found = sorted(p.name for p in (run_dir / "checkpoints").glob("step_*.pt"))
        raise UserError(f"{path} does not exist; available: {', '.join(found) or 'none'}")
    return path


def trained_models(config: Config, path: Path) -> dict[int, tuple[Any, Any]]:
    """(model, tokenizer) for every trainable agent, with the checkpoint's weights loaded."""
    state = checkpoint.load(path)
    models: dict[int, tuple[Any, Any]] = {}
    for i, (agent, saved) in enumerate(zip(config.agents, state["learners"], strict=True)):
        if saved is None:
            continue
        model, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
        model = make_trainable(model, agent)
        model.load_state_dict(saved["model"], strict=agent.lora_rank == 0)
        models[i] = (model.eval().requires_grad_(False), tokenizer)
    return models
