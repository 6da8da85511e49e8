"""Rebuild trained agents from a run's checkpoint: for evaluation and for export.

A checkpoint's weights folders (`mars2.training.checkpoint`) are HF model folders (full
fine-tuning) or peft adapter folders (LoRA) over the agent's base model. Agents that share
weights get one model object; LoRA agents of one base get one base and an `AdapterView` each.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

from mars2.agents import load_model
from mars2.config import Config
from mars2.errors import UserError
from mars2.rundir import RunDir
from mars2.training import checkpoint


def checkpoint_path(run_dir: Path, step: int | None) -> Path:
    """The checkpoint of `step`, or the latest one."""
    if step is None:
        path = checkpoint.latest(run_dir)
        if path is None:
            raise UserError(f"{run_dir}: no checkpoint found under checkpoints/")
        return path
    path = RunDir(run_dir).checkpoint(step)
    if path.with_suffix(".pt").is_file():
        return checkpoint.check(path.with_suffix(".pt"))  # an old .pt checkpoint: a clear error
    if not path.is_dir():
        found = [p.name for p in checkpoint.checkpoints(run_dir)]
        raise UserError(f"{path} does not exist; available: {', '.join(found) or 'none'}")
    return checkpoint.check(path)


def _folder(config: Config, path: Path, agent_id: int) -> Path:
    name = config.agent_name(config.weights_owner(agent_id))
    folder = checkpoint.weights_folder(path, name)
    if not folder.is_dir():
        raise UserError(
            f"{path} has no weights for agent {name!r} (agents/{name} is missing); "
            "was the run's config changed?"
        )
    return folder


def agent_model(config: Config, path: Path, agent_id: int) -> tuple[Any, Any]:
    """(model, tokenizer) of trainable agent `agent_id` as checkpoint `path` holds it, as one
    plain transformers model (LoRA merged into its own copy of the base)."""
    agent = config.agents[agent_id]
    folder = _folder(config, path, agent_id)
    if agent.lora_rank == 0:
        model, tokenizer = load_model(str(folder), device=agent.device, dtype=agent.dtype)
    else:
        from peft import PeftModel

        base, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
        model = PeftModel.from_pretrained(base, str(folder)).merge_and_unload()
    model.eval()  # type: ignore[no-untyped-call]
    return model.requires_grad_(False), tokenizer


def trained_models(config: Config, path: Path) -> dict[int, tuple[Any, Any]]:
    """(model, tokenizer) for every trainable agent, with the checkpoint's weights loaded."""
    from peft import PeftModel

    from mars2.rollout.engines import AdapterView
    from mars2.training.placement import BaseKey, owned_weights

    checkpoint.load_meta(path)  # a clear error for anything but a checkpoint folder
    models: dict[int, tuple[Any, Any]] = {}
    bases: dict[BaseKey, tuple[Any, Any, threading.Lock]] = {}
    for owned in owned_weights(config):
        i, key = owned.agent_id, owned.shared_base
        agent = config.agents[i]
        if key is None:
            models[i] = agent_model(config, path, i)
            continue
        folder, adapter = _folder(config, path, i), owned.adapter
        if not owned.first:  # one base, one adapter per agent
            peft, tokenizer, lock = bases[key]
            peft.load_adapter(str(folder), adapter_name=adapter)
        else:
            base, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
            peft = PeftModel.from_pretrained(base, str(folder), adapter_name=adapter)
            lock = threading.Lock()
            bases[key] = (peft.eval().requires_grad_(False), tokenizer, lock)
        models[i] = (AdapterView(peft, adapter, lock), tokenizer)
    for i, agent in enumerate(config.agents):
        if agent.trainable and agent.share_with is not None:
            models[i] = models[config.weights_owner(i)]
    return models


def export(config: Config, path: Path, agent_name: str, out: Path, run_dir: Path) -> Path:
    """Write agent `agent_name` of checkpoint `path` to `out` as an HF model folder (weights,
    config, generation config, tokenizer with its chat template), LoRA merged; atomically."""
    names = config.agent_names
    if agent_name not in names:
        raise UserError(f"--agent {agent_name!r}: the run's agents are {', '.join(names)}")
    agent_id = names.index(agent_name)
    agent = config.agents[agent_id]
    if not agent.trainable:
        raise UserError(
            f"agent {agent_name!r} is not trained (trainable: false): its model is "
            f"{agent.model!r}, unchanged"
        )
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UserError(f"--out {out} exists and is not empty; choose a new folder")
    model, tokenizer = agent_model(config, path, agent_id)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        provenance = {
            "run": str(run_dir),
            "checkpoint": path.name,
            "agent": agent_name,
            "weights_of": names[config.weights_owner(agent_id)],
            "base_model": agent.model,
            "lora_merged": agent.lora_rank > 0,
            "role": agent.role,
            "system_prompt": agent.system_prompt,
        }
        (tmp / "mars2_export.json").write_text(json.dumps(provenance, indent=2) + "\n")
        if out.exists():
            out.rmdir()  # empty (checked above)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
