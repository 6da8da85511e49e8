"""Agents: the Policy protocol, prompts, and generation backends (hf, vllm, openai).

Importing this package is cheap: backends import torch, transformers, vllm lazily; the names
below are re-exported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mars2.agents.backends import load_policy
    from mars2.agents.base import Policy
    from mars2.agents.hf import HFPolicy
    from mars2.agents.models import load_model, load_tokenizer, resolve_model

_EXPORTS = {
    "Policy": "mars2.agents.base",
    "load_policy": "mars2.agents.backends",
    "HFPolicy": "mars2.agents.hf",
    "load_model": "mars2.agents.models",
    "load_tokenizer": "mars2.agents.models",
    "resolve_model": "mars2.agents.models",
}
__all__ = ["HFPolicy", "Policy", "load_model", "load_policy", "load_tokenizer", "resolve_model"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mars2.agents' has no attribute {name!r}")
