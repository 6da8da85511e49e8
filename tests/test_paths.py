"""mars2's cache folder: $MARS2_CACHE when set, else ~/.cache/mars2; the test session's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from mars2 import paths
from mars2.evaluation import cache


def test_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.CACHE_ENV, str(tmp_path / "shared"))
    assert paths.cache_dir() == tmp_path / "shared"
    assert cache.root() == tmp_path / "shared" / "evals"
    monkeypatch.delenv(paths.CACHE_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.cache_dir() == tmp_path / "home" / ".cache" / "mars2"


def test_the_test_session_never_caches_into_the_users_folder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # $MARS2_CACHE is the session's folder (tests/conftest.py) or, after the agents tests ran in
    # this process, theirs: a temporary folder either way.
    assert paths.cache_dir().is_relative_to(tmp_path_factory.getbasetemp())
    assert cache.root().parent == paths.cache_dir()
