"""The transformers model under a peft wrapper: what the engine and the learner read weights from."""

from __future__ import annotations

from typing import Any


def base_model(model: Any) -> Any:
    """The transformers model under a peft wrapper (or an AdapterView of one); `model` itself
    when it is not wrapped."""
    return model.get_base_model() if hasattr(model, "get_base_model") else model
