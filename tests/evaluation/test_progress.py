"""Plain progress lines of an evaluation (mars2.evaluation.progress.TreeLog)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from mars2.evaluation import progress
from mars2.evaluation.progress import TreeLog


def test_a_line_at_each_tenth_at_least_every_30_s_and_at_the_end(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock = iter([0.0, 1.0, 2.0, 3.0, 41.0, 42.0])  # made at 0; the fourth tree 38 s late
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    on_tree = TreeLog(5, logging.getLogger("t"), "eval step_000004 coder")
    tree = SimpleNamespace(records=[1, 2])  # a tree of two nodes
    with caplog.at_level(logging.INFO, logger="t"):
        for _ in range(5):
            on_tree(tree)
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "eval step_000004 coder: 5 trees to grow",
        "eval step_000004 coder: 1/5 trees (20%), 2 nodes, 2.00 nodes/s, 1 s",
        "eval step_000004 coder: 2/5 trees (40%), 4 nodes, 2.00 nodes/s, 2 s",
        "eval step_000004 coder: 3/5 trees (60%), 6 nodes, 2.00 nodes/s, 3 s",
        "eval step_000004 coder: 4/5 trees (80%), 8 nodes, 0.20 nodes/s, 41 s",
        "eval step_000004 coder: 5/5 trees (100%), 10 nodes, 0.24 nodes/s, 42 s",
    ]


def test_few_lines_for_many_trees_and_one_after_a_long_wait(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    now = [5.0]
    monkeypatch.setattr(progress.time, "perf_counter", lambda: now[0])
    on_tree = TreeLog(1000, logging.getLogger("t"))
    with caplog.at_level(logging.INFO, logger="t"):
        for i in range(1000):
            now[0] += 31.0 if i == 150 else 0.0  # tree 151 finishes 31 s after the 150th
            on_tree(SimpleNamespace(records=[1]))
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 + 10 + 1  # the start, each tenth, the one after the wait
    assert lines[1].startswith("eval: 100/1000 trees (10%)")
    assert lines[2].startswith("eval: 151/1000 trees (15%), 151 nodes, 4.87 nodes/s, 31 s")
    assert lines[-1].startswith("eval: 1000/1000 trees (100%)")
