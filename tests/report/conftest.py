"""Fixtures for the report tests: synthetic run directories and a headless Chromium."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from report_browser import Browser
from report_fakes import make_search_run, make_train_run


@pytest.fixture
def search_run(tmp_path: Path) -> Path:
    return make_search_run(tmp_path / "search-a")


@pytest.fixture
def train_run(tmp_path: Path) -> Path:
    return make_train_run(tmp_path / "mcts")


@pytest.fixture
def grpo_run(tmp_path: Path) -> Path:
    return make_train_run(tmp_path / "grpo", seed=1, mode="grpo")


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Browser:
    binary = next((b for b in ("chromium", "chromium-browser") if shutil.which(b)), None)
    if binary is None:
        pytest.skip("headless Chromium not installed (Debian: apt-get install -y chromium)")
    return Browser(binary, tmp_path_factory.mktemp("chromium"))
