"""Base solve rates of a problem set: n fresh samples per problem from the given agents.

Calibration runs the ordinary rollout machinery (the orchestrator, the agents' generate prompt,
the sandbox) with the `sampling` search and a node budget equal to the number of samples, so
every node is a fresh attempt from the root. A sample *passes* when its program passes every
test of the problem, public and hidden. A problem's pass@1 is passes / n over the fresh attempts
that `mars2.treesearch.metrics.attempts` counts (with `sampling`, every node). The rates are
written as JSONL (one record per problem) and drawn as a histogram (PNG, matplotlib with the Agg
backend).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mars2 import jsonl
from mars2.config import Config
from mars2.treesearch.metrics import tree_stats
from mars2.types import NodeRecord, Problem

if TYPE_CHECKING:
    from mars2.agents.base import Policy

BINS = (0.0, 0.05, 0.2, 0.4, 0.7, 1.0)


@dataclass(frozen=True)
class ProblemRate:
    """The measured base solve rate of one problem."""

    id: str
    family: str | None
    difficulty: str | None
    split: str | None
    n: int
    passes: int

    @property
    def pass_at_1(self) -> float:
        return self.passes / self.n if self.n else 0.0

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "pass@1": self.pass_at_1}


def rate_of(problem: Problem, records: Sequence[NodeRecord]) -> ProblemRate:
    """Count the fresh attempts of a finished `sampling` tree (every node) that pass all tests.

    `passed` alone decides: it covers the public and the hidden tests, while the node's
    `score` is the public fraction only (0 for a problem without public tests)."""
    tree = tree_stats(records, independent=True)
    return ProblemRate(
        id=problem.id,
        family=problem.metadata.get("family"),
        difficulty=problem.difficulty,
        split=problem.split,
        n=tree.attempts,
        passes=tree.attempts_passed,
    )


def calibration_config(config: Config, samples: int) -> Config:
    """`config` with the search set to `sampling` and a budget of `samples` nodes per tree."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    search = dataclasses.replace(config.search, algo="sampling", budget=samples)
    return dataclasses.replace(config, search=search)


def calibrate(
    config: Config,
    problems: Sequence[Problem],
    samples: int,
    on_problem: Callable[[ProblemRate], None] | None = None,
    policies: Sequence[Policy] | None = None,
) -> list[ProblemRate]:
    """Sample every problem `samples` times with `config.agents` (their own temperature and
    `max_new_tokens`) and return the per-problem rates, in input order. `on_problem` is called
    as each problem finishes (for a progress bar or an incremental file). `policies`, one per
    agent, replace the agents' models (the caller then closes them)."""
    from mars2.rollout import Orchestrator, TreeResult
    from mars2.rollout.engines import load_policies
    from mars2.sandbox import Sandbox

    config = calibration_config(config, samples)
    owned = policies is None
    policies = load_policies(config.agents, seed=config.seed) if policies is None else policies
    try:
        with Sandbox(config.sandbox) as sandbox:
            orchestrator = Orchestrator(
                policies, config.agents, sandbox, config.search, reward=config.credit.reward
            )

            def on_tree(result: TreeResult) -> None:
                if on_problem is not None:
                    on_problem(rate_of(result.problem, result.records))

            results = asyncio.run(orchestrator.run(problems, seed=config.seed, on_tree=on_tree))
    finally:
        for policy in policies if owned else ():
            policy.close()
    return [rate_of(r.problem, r.records) for r in results]


def write_rates(rates: Sequence[ProblemRate], path: Path) -> None:
    """One JSON record per problem (see `ProblemRate.to_json`)."""
    jsonl.write(path, [r.to_json() for r in rates])


def read_rates(path: Path) -> list[ProblemRate]:
    """Rates written by `write_rates`."""
    return [
        ProblemRate(
            id=row["id"],
            family=row.get("family"),
            difficulty=row.get("difficulty"),
            split=row.get("split"),
            n=int(row["n"]),
            passes=int(row["passes"]),
        )
        for _, row in jsonl.read(path)
    ]


def histogram(rates: Sequence[ProblemRate], bins: Sequence[float] = BINS) -> list[int]:
    """Problem counts per pass@1 bin. Bin 0 holds exactly 0; bin i > 0 holds (bins[i-1], bins[i]],
    so the first bin is "never solved" and the last ends at 1."""
    counts = [0] * len(bins)
    for rate in rates:
        p = rate.pass_at_1
        index = 0 if p == 0 else next(i for i in range(1, len(bins)) if p <= bins[i])
        counts[index] += 1
    return counts


def bin_labels(bins: Sequence[float] = BINS) -> list[str]:
    """`0` then `(a, b]` for each later bin."""
    return ["0"] + [f"({bins[i - 1]:g}, {bins[i]:g}]" for i in range(1, len(bins))]


def histogram_png(rates: Sequence[ProblemRate], path: Path, title: str = "") -> None:
    """A histogram of per-problem pass@1, one bar per distinct value k/n when n is shared, else
    ten equal bins, stacked by split."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 3.5), dpi=100)
    axes = figure.add_subplot()
    ns = {r.n for r in rates}
    edges = (
        [(k - 0.5) / n for n in ns for k in range(n + 2)]
        if len(ns) == 1 and 0 not in ns
        else [i / 10 for i in range(11)]
    )
    splits = sorted({r.split or "none" for r in rates})
    values = [[r.pass_at_1 for r in rates if (r.split or "none") == s] for s in splits]
    axes.hist(values, bins=edges, stacked=True, label=splits)
    axes.set_xlabel("base pass@1 (per problem)")
    axes.set_ylabel("problems")
    axes.set_xlim(-0.05, 1.05)
    if title:
        axes.set_title(title, fontsize=10)
    if len(splits) > 1:
        axes.legend(fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
