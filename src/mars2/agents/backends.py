"""The backend factory: `load_policy(agent)` builds the Policy that `agent.backend` names.

Backends are entries of `mars2.registry.BACKENDS`: the built-in `hf`, `vllm` and `openai` below
(each importing its module lazily, so `vllm` is only imported when asked for) and whatever a user
registers. This module sits above the backends; they import only `mars2.agents.base`.
"""

from __future__ import annotations

from typing import Any

from mars2.agents.base import Policy
from mars2.config import AgentConfig
from mars2.errors import UserError
from mars2.registry import BACKENDS


def load_policy(
    agent: AgentConfig, *, seed: int = 0, model: Any = None, tokenizer: Any = None
) -> Policy:
    """Build the policy of `agent` on its backend.

    `model`/`tokenizer` (hf backend only): reuse these objects instead of loading, e.g. the
    trainer's learner model, so generation always sees the current weights.
    """
    build = BACKENDS.get(agent.backend)
    if model is None:
        policy: Policy = build(agent, seed=seed)
        return policy
    if agent.backend != "hf":
        raise UserError(f"backend {agent.backend!r} cannot share an in-process model object")
    policy = build(agent, seed=seed, model=model, tokenizer=tokenizer)
    return policy


def hf_policy(
    agent: AgentConfig, *, seed: int = 0, model: Any = None, tokenizer: Any = None
) -> Policy:
    """`hf`: transformers on the engine thread; loads the model unless one is shared."""
    from mars2.agents.hf import HFPolicy
    from mars2.agents.models import load_model

    if model is None:
        model, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
    elif tokenizer is None:
        raise UserError("load_policy: pass the tokenizer together with a shared model")
    return HFPolicy(agent, model, tokenizer, seed=seed)


def vllm_policy(agent: AgentConfig, *, seed: int = 0) -> Policy:
    """`vllm`: a vLLM engine (the optional extra, GPU)."""
    from mars2.agents.vllm import VLLMPolicy

    return VLLMPolicy(agent, seed=seed)


def openai_policy(agent: AgentConfig, *, seed: int = 0) -> Policy:
    """`openai`: an OpenAI-compatible endpoint (no token ids: cannot be trained)."""
    from mars2.agents.openai import OpenAIPolicy

    return OpenAIPolicy(agent, seed=seed)
