"""Fixtures of the agents and engine tests: the tiny-random models built once into a temporary
cache (imported by tests/agents/conftest.py and tests/engine/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mars2 import paths


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point mars2's cache ($MARS2_CACHE) at an empty temporary folder for the rest of the
    session: the agents tests build their models into it from scratch."""
    cache = tmp_path_factory.mktemp("mars2-models")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(paths.CACHE_ENV, str(cache))
        yield cache


@pytest.fixture(scope="session")
def tiny(model_cache: Path) -> tuple[Any, Any]:
    """(model, tokenizer) of tiny-random, float32 on CPU."""
    import torch

    from mars2.agents.models import load_model

    # One intra-op thread: on a shared, loaded 2-core machine two threads run a tiny model ~10x
    # slower (they spin waiting for each other), and CI runs test workers in parallel anyway.
    torch.set_num_threads(1)

    return load_model("tiny-random", device="cpu")


@pytest.fixture(scope="session")
def tiny_gemma(tiny: tuple[Any, Any]) -> Any:
    """A tiny Gemma 3 (tiny-random-base's configuration) whose sliding window of 8 positions
    hides part of the tests' prompts, with non-zero norm weights (Gemma scales by 1 + w)."""
    import copy

    import torch

    from mars2.agents.models import load_model

    base, _ = load_model("tiny-random-base", device="cpu")
    config = copy.deepcopy(base.config)
    config.sliding_window = 8
    model = type(base)(config)
    model.load_state_dict(base.state_dict())
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "norm" in name:
                param.copy_(0.3 * torch.randn(param.shape, generator=g))
    return model.eval()


@pytest.fixture(params=["llama", "gemma"])
def lean(request: pytest.FixtureRequest, tiny: tuple[Any, Any]) -> Any:
    """Each architecture the lean decoder runs: tiny-random (Llama) and `tiny_gemma`."""
    return tiny[0] if request.param == "llama" else request.getfixturevalue("tiny_gemma")
