"""Shared fixtures. Tests run on CPU with tiny models built in code; nothing is downloaded."""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mars2 import paths


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Each test process caches evaluations in its own temporary folder ($MARS2_CACHE, which the
    `mars2` subprocesses inherit), never in the user's ~/.cache/mars2/evals. Converted models
    are still shared with the user's cache (a link), so a model is converted once per machine."""
    user_models = paths.cache_dir() / "models"
    user_models.mkdir(parents=True, exist_ok=True)
    cache = tmp_path_factory.mktemp("mars2-cache")
    (cache / "models").symlink_to(user_models, target_is_directory=True)
    before = os.environ.get(paths.CACHE_ENV)
    os.environ[paths.CACHE_ENV] = str(cache)
    yield cache
    if before is None:
        os.environ.pop(paths.CACHE_ENV, None)
    else:
        os.environ[paths.CACHE_ENV] = before


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Every run ends with how many tests skipped and why (one line per reason, with the files),
    so a test that never runs here (vllm, a GPU, the bundled model) is visible in CI's output."""
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
    for reason, where in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        files = ", ".join(sorted(set(where)))
        terminalreporter.write_line(f"{len(where):4d}  {reason}  [{files}]")
