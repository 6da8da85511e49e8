"""An evaluation's progress as plain log lines, for output that is not a terminal (a log file,
CI, a training run's evaluations under `mars2 experiment`): `N trees to grow` at the first
finished tree, then a line at each tenth of the trees and at least every PLAIN_EVERY_S seconds,
the last at 100%."""

from __future__ import annotations

import logging
import time
from typing import Any

PLAIN_EVERY_S = 30.0  # a progress line at least this often (at a finished tree)


class TreeLog:
    """`on_tree` callback of an evaluation of `total` trees, made as the evaluation starts (its
    rates count from then): logs to `log` with `label` ("eval", "eval step_000016", ...). An
    evaluation read from the cache grows no trees and logs nothing."""

    def __init__(self, total: int, log: logging.Logger, label: str = "eval") -> None:
        self.total, self.log, self.label = total, log, label
        self.done = self.nodes = self.shown = 0
        self.started = self.last_line = time.perf_counter()  # rates from here

    def __call__(self, result: Any) -> None:
        now = time.perf_counter()
        if self.done == 0:
            self.log.info("%s: %d trees to grow", self.label, self.total)
        self.done += 1
        self.nodes += len(result.records)
        tenth = 10 * self.done // max(self.total, 1)
        if tenth > self.shown or now - self.last_line >= PLAIN_EVERY_S or self.done == self.total:
            self.shown, self.last_line = tenth, now
            elapsed = now - self.started
            self.log.info(
                "%s: %d/%d trees (%d%%), %d nodes, %.2f nodes/s, %.0f s",
                self.label,
                self.done,
                self.total,
                100 * self.done // max(self.total, 1),
                self.nodes,
                self.nodes / max(elapsed, 1e-9),
                elapsed,
            )
