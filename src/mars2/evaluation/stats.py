"""Interval estimates without torch: the percentile bootstrap of a mean over problems, and the
paired comparison of two evaluations (paired bootstrap interval, sign-flip permutation p-value).

Every function is seeded, so the same inputs give the same interval on every machine.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95  # the intervals' coverage
RESAMPLES = 2000  # bootstrap resamples (the default of `eval.bootstrap`)
EXACT_FLIPS = 16  # up to this many non-zero differences the sign-flip test enumerates them all
FLIPS = 20_000  # random sign flips beyond that


@dataclass(frozen=True)
class Estimate:
    """A mean over problems with its bootstrap 95% interval [lo, hi]."""

    value: float
    lo: float
    hi: float
    n: int  # problems

    def to_json(self) -> dict[str, float | int]:
        return {"value": self.value, "lo": self.lo, "hi": self.hi, "n": self.n}


@dataclass(frozen=True)
class Difference:
    """Mean paired difference (B - A) over shared problems, its paired-bootstrap 95% interval and
    the two-sided sign-flip permutation p-value."""

    value: float
    lo: float
    hi: float
    p_value: float
    n: int  # shared problems

    def to_json(self) -> dict[str, float | int]:
        return {"diff": self.value, "lo": self.lo, "hi": self.hi, "p": self.p_value, "n": self.n}


def bootstrap_mean(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0, level: float = LEVEL
) -> Estimate:
    """The mean of `values` (one per problem) and its percentile-bootstrap interval: resample the
    problems with replacement `resamples` times and take the (1-level)/2 and (1+level)/2
    quantiles of the resampled means. Empty input gives NaNs."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, 0)
    lo, hi = _percentile_interval(data, resamples, seed, level)
    return Estimate(float(data.mean()), lo, hi, int(data.size))


def _percentile_interval(
    data: np.ndarray, resamples: int, seed: int, level: float
) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    index = rng.integers(0, data.size, size=(resamples, data.size))
    means = data[index].mean(axis=1)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [tail, 1.0 - tail])
    # Clamp to the sample mean so rounding never puts the estimate outside its own interval.
    mean = float(data.mean())
    return min(float(lo), mean), max(float(hi), mean)


def sign_flip_p_value(diffs: Sequence[float], resamples: int = FLIPS, seed: int = 0) -> float:
    """Two-sided p-value of "the mean difference is 0" under random sign flips of the paired
    differences: the share of sign assignments whose |mean| is at least the observed one.
    Zero differences cannot change sign and are left out; all zero gives 1. Up to EXACT_FLIPS
    non-zero differences every assignment is enumerated; beyond, `resamples` random ones are
    drawn and the estimate is (1 + hits) / (1 + resamples)."""
    data = np.asarray([d for d in diffs if d != 0], dtype=float)
    if data.size == 0:
        return 1.0
    observed = abs(float(data.sum()))
    tol = 1e-9 * max(1.0, observed)
    if data.size <= EXACT_FLIPS:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=int(data.size))))
        sums = np.abs(signs @ data)
        return float(np.mean(sums >= observed - tol))
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(resamples, data.size))
    hits = int(np.sum(np.abs(signs @ data) >= observed - tol))
    return (1 + hits) / (1 + resamples)


def paired_difference(
    a: Sequence[float],
    b: Sequence[float],
    resamples: int = RESAMPLES,
    seed: int = 0,
    level: float = LEVEL,
) -> Difference:
    """B - A over paired values (same problems, same order): the mean difference, the
    percentile bootstrap of it resampling problems (pairs stay together), and the sign-flip
    p-value."""
    if len(a) != len(b):
        raise ValueError(f"paired_difference needs equal lengths, got {len(a)} and {len(b)}")
    diffs = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if diffs.size == 0:
        nan = float("nan")
        return Difference(nan, nan, nan, nan, 0)
    lo, hi = _percentile_interval(diffs, resamples, seed, level)
    p_value = sign_flip_p_value(list(diffs), seed=seed)
    return Difference(float(diffs.mean()), lo, hi, p_value, int(diffs.size))
