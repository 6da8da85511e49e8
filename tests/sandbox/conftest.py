"""Fixtures for sandbox tests: a shared pool with short limits that must leave no process behind."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sandbox_cases import FAST, descendants

from mars2.sandbox import Sandbox


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    before = descendants(os.getpid())
    with Sandbox(FAST) as box:
        yield box
    assert descendants(os.getpid()) <= before, "the sandbox left processes behind"
