"""What an agent generates with: a cheap, stable checksum of its weights (torch imported
lazily) and its engine's settings as the engine resolved them.

sha256 over every tensor of the model's state_dict in name order: its name, shape and dtype and
up to SAMPLE of its elements at evenly spaced positions, as float32 bytes. About a millisecond
per tensor whatever its size; training moves nearly every element of the tensors it updates,
so a trained model never collides with its base. A policy whose weights are not in this
process (an API or a remote engine) gets an `unverified:` id, and its evaluations are never
reused from the cache.
"""

from __future__ import annotations

import hashlib
from typing import Any

from mars2.agents.base import EngineSettings
from mars2.config import AgentConfig

SAMPLE = 4096


def weights_checksum(model: Any) -> str:
    """`sha256:<hex>` of `model.state_dict()` as described in the module docstring."""
    import torch

    digest = hashlib.sha256()
    state = model.state_dict()
    for name in sorted(state):
        tensor = state[name].detach()
        flat = tensor.reshape(-1)
        step = max(1, flat.numel() // SAMPLE)
        sample = flat[::step][:SAMPLE].to(device="cpu", dtype=torch.float32).contiguous()
        digest.update(f"{name}|{tuple(tensor.shape)}|{tensor.dtype}|".encode())
        digest.update(sample.numpy().tobytes())
    return "sha256:" + digest.hexdigest()


def policy_checksum(policy: Any, agent: AgentConfig) -> str:
    """The checksum of the model behind `policy` (an hf policy, or an agent on a shared
    engine), else `unverified:<backend>:<model>`."""
    model = getattr(policy, "model", None)
    if model is None:
        model = getattr(getattr(policy, "_engine", None), "model", None)
    if model is not None and callable(getattr(model, "state_dict", None)):
        return weights_checksum(model)
    return f"unverified:{agent.backend}:{agent.model}"


def engine_settings(policy: Any, agent: AgentConfig) -> dict[str, Any]:
    """The engine behind `policy` as it resolved its settings (`engine_settings()` of an hf or
    vLLM policy, or of the engine an agent shares), else as `agent` configures them."""
    for owner in (policy, getattr(policy, "_engine", None)):
        describe = getattr(owner, "engine_settings", None)
        if callable(describe):
            settings: dict[str, Any] = describe()
            return settings
    return EngineSettings.configured(agent).to_json()
