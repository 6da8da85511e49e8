"""Interval estimates without torch: the percentile bootstrap of a mean over problems (and the
cluster bootstrap of a ratio of counts summed over problems), the paired
comparison of two evaluations (paired bootstrap interval, sign-flip permutation p-value), the
seed-level interval of an experiment's arms (runs x problems, run-to-run variance included) and
Holm's adjustment of several p-values.

Every function is seeded or deterministic, so the same inputs give the same interval on every
machine.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

LEVEL = 0.95  # the intervals' coverage
RESAMPLES = 2000  # bootstrap resamples (the default of `eval.bootstrap`)
EXACT_FLIPS = 16  # up to this many non-zero differences the sign-flip test enumerates them all
FLIPS = 20_000  # random sign flips beyond that
T_GRID = 1 << 14  # intervals of the quadrature behind the Student t quantiles and p-values
MAX_DF = 1000.0  # t degrees of freedom are capped here (t_1000 is the normal to 0.002)


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


def bootstrap_ratio(
    numerators: Sequence[float],
    denominators: Sequence[float],
    resamples: int = RESAMPLES,
    seed: int = 0,
    level: float = LEVEL,
) -> Estimate:
    """sum(numerators) / sum(denominators) (one pair of counts per problem, e.g. refinements
    that pass over refinements) with its cluster-bootstrap interval: resample the problems with
    replacement, recompute the ratio of the sums, take the percentile interval (resamples whose
    denominator is 0 are left out). NaNs when the denominators sum to 0. `n` is the problems."""
    return bootstrap_ratio_difference(
        [0.0] * len(numerators), [1.0] * len(numerators), numerators, denominators,
        resamples, seed, level,
    )  # fmt: skip


def bootstrap_ratio_difference(
    a_numerators: Sequence[float],
    a_denominators: Sequence[float],
    b_numerators: Sequence[float],
    b_denominators: Sequence[float],
    resamples: int = RESAMPLES,
    seed: int = 0,
    level: float = LEVEL,
) -> Estimate:
    """ratio B - ratio A, each a ratio of counts summed over the same problems (e.g. refinements
    after a failed parent that pass, and fresh attempts that pass), with the cluster-bootstrap
    interval of the difference: both ratios recomputed on each resample of the problems, so
    their correlation through shared problems is kept (resamples where either denominator is
    0 are left out). NaNs when a ratio has no denominator. `n` is the problems."""
    counts = [
        np.asarray(c, dtype=float)
        for c in (a_numerators, a_denominators, b_numerators, b_denominators)
    ]
    if len({c.shape for c in counts}) != 1:
        raise ValueError(f"bootstrap ratios need equal lengths, got {[c.size for c in counts]}")
    a_top, a_bottom, b_top, b_bottom = counts
    size = int(a_top.size)
    nan = float("nan")
    if a_bottom.sum() <= 0 or b_bottom.sum() <= 0:
        return Estimate(nan, nan, nan, size)
    value = float(b_top.sum() / b_bottom.sum() - a_top.sum() / a_bottom.sum())
    index = _resample_index(size, resamples, seed)
    a_sums, b_sums = a_bottom[index].sum(axis=1), b_bottom[index].sum(axis=1)
    kept = (a_sums > 0) & (b_sums > 0)
    diffs = (
        b_top[index].sum(axis=1)[kept] / b_sums[kept]
        - a_top[index].sum(axis=1)[kept] / a_sums[kept]
    )
    if diffs.size == 0:  # only when very few resamples are asked for
        return Estimate(value, value, value, size)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(diffs, [tail, 1.0 - tail])
    return Estimate(value, min(float(lo), value), max(float(hi), value), size)


def _resample_index(size: int, resamples: int, seed: int) -> np.ndarray:
    """[resamples, size] indices of problems drawn with replacement (the one resampling rule)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, size, size=(resamples, size))


def _percentile_interval(
    data: np.ndarray, resamples: int, seed: int, level: float
) -> tuple[float, float]:
    means = data[_resample_index(data.size, resamples, seed)].mean(axis=1)
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


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values, in the input order: the i-th smallest
    of m is multiplied by m - i + 1 (i from 1), capped at 1, and made non-decreasing in the
    order of the raw p-values. Rejecting where the adjusted p is below alpha keeps the chance
    of any false rejection in the family below alpha. NaN entries are not tests: they stay NaN
    and do not count in m."""
    tests = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    adjusted = [float("nan")] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tests):
        running = max(running, min(1.0, (len(tests) - rank) * p))
        adjusted[i] = running
    return adjusted


def _t_cdf_grid(df: float) -> tuple[np.ndarray, np.ndarray]:
    """The Student t distribution with `df` degrees of freedom on the angle theta =
    atan(|t| / sqrt(df)) in [0, pi/2], where its density is proportional to cos(theta)^(df-1)
    (bounded for df >= 1): the grid of angles and P(|T| <= t) at each, by the trapezoid rule."""
    theta = np.linspace(0.0, math.pi / 2, T_GRID + 1)
    density = np.cos(theta) ** (df - 1.0)
    mass = np.concatenate([[0.0], np.cumsum((density[1:] + density[:-1]) / 2.0)])
    return theta, mass / mass[-1]


def _df(df: float) -> float:
    """Degrees of freedom as used: at least 1 (a Satterthwaite value below 1 is taken as 1),
    at most MAX_DF."""
    return min(max(float(df), 1.0), MAX_DF)


def t_quantile(level: float, df: float) -> float:
    """The t such that P(|T| <= t) = level for Student's T with `df` degrees of freedom
    (e.g. level 0.95, df 2: 4.303)."""
    df = _df(df)
    theta, central = _t_cdf_grid(df)
    return math.sqrt(df) * math.tan(float(np.interp(level, central, theta)))


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's T with `df` degrees of freedom."""
    df = _df(df)
    theta, central = _t_cdf_grid(df)
    return float(1.0 - np.interp(math.atan(abs(t) / math.sqrt(df)), theta, central))


@dataclass(frozen=True)
class SeedLevel:
    """A mean over runs and problems, or a difference of two arms' means, with its interval and
    two-sided p-value (of "it is 0") including run-to-run variance (see `seed_level_mean`)."""

    value: float
    lo: float
    hi: float
    p_value: float
    df: float  # degrees of freedom of the t interval (Satterthwaite, as used: 1 to MAX_DF)
    n: int  # problems
    runs: tuple[int, ...]  # runs of each arm (reference first)

    def to_json(self, key: str = "value") -> dict[str, float | int | list[int]]:
        """`key` names the estimate: "value" for a mean, "diff" for a difference."""
        return {
            key: self.value,
            "lo": self.lo,
            "hi": self.hi,
            "p": self.p_value,
            "df": self.df,
            "n": self.n,
            "runs": list(self.runs),
        }


def _runs_by_problems(values: ArrayLike, what: str) -> np.ndarray:
    matrix = np.asarray(values, dtype=float)
    if matrix.ndim != 2 or matrix.shape[0] < 2 or matrix.shape[1] < 1:
        raise ValueError(
            f"{what} needs a [runs, problems] array with at least 2 runs and 1 problem, got "
            f"shape {matrix.shape}; with one run only problems can be resampled (the interval "
            "is then conditional on that run: bootstrap_mean, paired_difference)"
        )
    return matrix


def _interaction_mean_square(x: np.ndarray) -> float:
    """The run x problem mean square of a [S, P] array (S, P >= 2): the variance of one
    run's value on one problem that neither the run's mean nor the problem's mean explains."""
    runs, problems = int(x.shape[0]), int(x.shape[1])
    residual = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    return float((residual**2).sum()) / ((runs - 1) * (problems - 1))


def _seed_level(
    arms: Sequence[np.ndarray], signs: Sequence[float], level: float, bounds: tuple[float, float]
) -> SeedLevel:
    """sum(sign * mean(x)) over the arms ([S_k, P] arrays on the same problems) with its
    variance-component t interval (see seed_level_mean)."""
    problems = arms[0].shape[1]
    value = float(sum(sign * x.mean() for sign, x in zip(signs, arms, strict=True)))
    # (variance component of the estimate, its degrees of freedom)
    terms = [(float(x.mean(axis=1).var(ddof=1)) / x.shape[0], x.shape[0] - 1.0) for x in arms]
    if problems > 1:
        per_problem = sum(sign * x.mean(axis=0) for sign, x in zip(signs, arms, strict=True))
        between = float(np.var(per_problem, ddof=1)) / problems
        # The run x problem noise is already in the run means' spread: take it out once here.
        within = [
            (
                _interaction_mean_square(x) / (x.shape[0] * problems),
                (x.shape[0] - 1.0) * (problems - 1),
            )
            for x in arms
        ]
        if between > sum(v for v, _ in within):
            terms += [(between, problems - 1.0), *((-v, df) for v, df in within)]
    variance = max(sum(v for v, _ in terms), 0.0)
    runs = tuple(int(x.shape[0]) for x in arms)
    if variance == 0.0:
        # No variation at all between runs or problems: the data cannot say more.
        return SeedLevel(value, value, value, 1.0 if value == 0.0 else 0.0, MAX_DF, problems, runs)
    df = _df(variance**2 / sum(v**2 / d for v, d in terms))
    half = t_quantile(level, df) * math.sqrt(variance)
    lo, hi = max(value - half, bounds[0]), min(value + half, bounds[1])
    p_value = t_two_sided_p(value / math.sqrt(variance), df)
    return SeedLevel(value, lo, hi, p_value, df, problems, runs)


def seed_level_mean(
    values: ArrayLike, level: float = LEVEL, bounds: tuple[float, float] = (-math.inf, math.inf)
) -> SeedLevel:
    """The mean of a [runs, problems] array (each run, e.g. one seed's training run, evaluated on
    the same problems) with an interval that includes run-to-run variance, and the two-sided
    p-value of "the mean is 0" (for changes: "training changed nothing").

    Model: value = mean + run effect + problem effect + run x problem noise. The variance of
    the mean is estimated from its components (two-way ANOVA of a crossed design): the runs'
    means' variance / S (run effect, plus the noise averaged over the problems), plus the
    problems' seed-averaged values' variance / P less the noise already counted (the run x
    problem mean square / (S P)), that part floored at 0. The interval is the mean
    +- t(level, df) * its standard error, df by Welch-Satterthwaite; the p-value is the t test
    of the same. With 3 runs df is about 2-4, so the interval is wide: the spread of three runs
    says little about the next one. Two or more runs are required (ValueError otherwise).
    `bounds` clip the interval to the values the mean can take (e.g. (0, 1) for a pass rate).
    No resampling: the result is exact and the same on every machine."""
    return _seed_level([_runs_by_problems(values, "seed_level_mean")], [1.0], level, bounds)


def run_variance(values: ArrayLike) -> tuple[float, int]:
    """The run-to-run variance component of a [runs, problems] array (the variance of a run's
    shift shared by all its problems: the model of `seed_level_mean`) and its degrees of freedom
    (runs - 1): the run means' variance less the run x problem noise they average over
    (the interaction mean square / P). Not floored, so that several arms' estimates can be
    pooled (weighted by their degrees of freedom) before the pool is floored at 0."""
    x = _runs_by_problems(values, "run_variance")
    spread = float(x.mean(axis=1).var(ddof=1))
    noise = _interaction_mean_square(x) / x.shape[1] if x.shape[1] > 1 else 0.0
    return spread - noise, int(x.shape[0]) - 1


def seed_level_difference(
    reference: ArrayLike,
    arm: ArrayLike,
    level: float = LEVEL,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> SeedLevel:
    """arm - reference for two [runs, problems] arrays on the same problems (same columns, same
    order; the runs of the two arms are independent, their numbers may differ): the difference
    of the means, its interval including both arms' run-to-run variance, and the two-sided
    t-test p-value of "no difference" (Welch-Satterthwaite df).

    The variance is each arm's runs' means' variance / its runs, plus the variance over problems
    of the per-problem difference of seed-averaged values / P less the run x problem noise
    already counted in the run terms (floored at 0): as seed_level_mean, with the problem part
    paired (both arms' values of a problem are compared with each other). Runs are not paired by
    seed index: arms trained with the same seed share at most their starting point, and treating
    the runs as independent is valid whatever they share (conservative if they correlate)."""
    a = _runs_by_problems(reference, "seed_level_difference")
    b = _runs_by_problems(arm, "seed_level_difference")
    if a.shape[1] != b.shape[1]:
        raise ValueError(
            f"seed_level_difference needs the same problems, got {a.shape[1]} and {b.shape[1]}"
        )
    return _seed_level([a, b], [-1.0, 1.0], level, bounds)
