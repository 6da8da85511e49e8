"""Fixtures for agents tests: the tiny-random model built once into a temporary cache."""

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
