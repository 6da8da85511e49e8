"""Seed-level statistics against hand-computed values: Holm's adjustment, the Student t helpers,
the variance-component interval over runs and problems (and its reductions to the paired t over
problems and to Welch's t over runs), and its coverage on simulated experiments with a run
effect, where the interval over problems only under-covers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mars2.evaluation.stats import (
    bootstrap_mean,
    holm,
    run_variance,
    seed_level_difference,
    seed_level_mean,
    t_quantile,
    t_two_sided_p,
)

T2 = 4.302652729749464  # t(0.975, 2) = 0.95 * sqrt(2 / (1 - 0.95**2)), closed form for df 2


def test_holm_hand_computed() -> None:
    # sorted 0.01, 0.03, 0.04 -> x3, x2, x1 = 0.03, 0.06, 0.04 -> non-decreasing 0.03, 0.06, 0.06
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    # 0.011 x 2 = 0.022 is below the 0.03 before it: it takes 0.03
    assert holm([0.01, 0.011, 0.5]) == pytest.approx([0.03, 0.03, 0.5])
    assert holm([0.6, 0.7]) == [1.0, 1.0]  # capped at 1
    assert holm([0.2]) == [0.2] and holm([]) == []


def test_holm_leaves_nan_out_of_the_family() -> None:
    adjusted = holm([0.02, float("nan"), 0.5])
    assert adjusted[0] == pytest.approx(0.04) and adjusted[2] == pytest.approx(0.5)
    assert math.isnan(adjusted[1])


def test_t_quantile_and_p_against_closed_forms() -> None:
    # df 1 (Cauchy): P(|T| <= t) = 2 atan(t) / pi
    assert t_quantile(0.95, 1) == pytest.approx(math.tan(0.95 * math.pi / 2), rel=1e-6)
    assert t_two_sided_p(0.25, 1) == pytest.approx(1 - 2 * math.atan(0.25) / math.pi, abs=1e-6)
    # df 2: P(|T| <= t) = t / sqrt(2 + t^2)
    assert t_quantile(0.95, 2) == pytest.approx(T2, rel=1e-6)
    assert t_two_sided_p(math.sqrt(2), 2) == pytest.approx(1 - math.sqrt(2 / 4), abs=1e-6)
    # df 4, a table value; large df: the normal's 1.960 (df capped at 1000: t = 1.9623)
    assert t_quantile(0.95, 4) == pytest.approx(2.776445, abs=1e-5)
    assert t_quantile(0.95, 1e9) == pytest.approx(1.962339, abs=1e-4)
    assert t_quantile(0.95, 0.3) == t_quantile(0.95, 1)  # below 1 df counts as 1
    assert t_two_sided_p(0.0, 3) == pytest.approx(1.0)


def test_identical_runs_reduce_to_the_paired_t_over_problems() -> None:
    """Every run of an arm the same: no run variance, no run x problem noise; what is left is the
    t interval of the per-problem differences d = (1, 0.5, 0): mean 0.5, variance 0.25, so
    standard error sqrt(0.25 / 3) and 2 degrees of freedom."""
    reference = [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    arm = [[1.0, 0.5, 1.0], [1.0, 0.5, 1.0]]
    d = seed_level_difference(reference, arm)
    se = math.sqrt(0.25 / 3)
    assert (d.value, d.df, d.n, d.runs) == (pytest.approx(0.5), pytest.approx(2), 3, (2, 2))
    assert (d.lo, d.hi) == pytest.approx((0.5 - T2 * se, 0.5 + T2 * se), rel=1e-6)
    # t = 0.5 / se = sqrt(3); df 2: p = 1 - t / sqrt(2 + t^2)
    assert d.p_value == pytest.approx(1 - math.sqrt(3 / 5), abs=1e-6)
    # one arm: the one-sample t over problems, clipped to the bounds given
    m = seed_level_mean([[0.0, 0.5, 1.0]] * 3, bounds=(0.0, 1.0))
    assert (m.value, m.df) == (pytest.approx(0.5), pytest.approx(2))
    assert (m.lo, m.hi) == (0.0, 1.0)  # 0.5 +- 4.30 * sqrt(0.25 / 3) is clipped


def test_one_problem_reduces_to_welch_over_runs() -> None:
    """One problem: each run is one value; the interval is Welch's over the runs: means 0.25 and
    0.75, variances 0.125 each over 2 runs -> standard error sqrt(0.125), df 2."""
    d = seed_level_difference([[0.0], [0.5]], [[0.5], [1.0]])
    se = math.sqrt(0.125 / 2 + 0.125 / 2)
    assert (d.value, d.df) == (pytest.approx(0.5), pytest.approx(2))
    assert (d.lo, d.hi) == pytest.approx((0.5 - T2 * se, 0.5 + T2 * se), rel=1e-6)
    assert d.p_value == pytest.approx(1 - math.sqrt(2) / 2, abs=1e-6)  # t = sqrt(2), df 2


def test_variance_components_hand_computed() -> None:
    """reference [[0,0,0],[0,0,1]], arm [[0,0,0],[1,1,0]]: difference of means 1/3 - 1/6.
    Runs: the reference's run means (0, 1/3) have variance 1/18, /2 runs = 1/36; the arm's
    (0, 2/3) 2/9, /2 = 1/9. Problems: d = (0.5, 0.5, -0.5) has variance 1/3, /3 = 1/9, less
    each arm's run x problem mean square (1/6 each: residuals +-1/6, +-1/3) / (2 x 3) = 1/36
    each: 1/18. Variance 1/36 + 1/9 + 1/18 = 7/36; Satterthwaite df
    (7/36)^2 / ((1/36)^2 + (1/9)^2 + (1/9)^2 / 2 + 2 (1/36)^2 / 2) = 49 / 26."""
    d = seed_level_difference([[0, 0, 0], [0, 0, 1]], [[0, 0, 0], [1, 1, 0]])
    se = math.sqrt(7 / 36)
    assert d.value == pytest.approx(1 / 6) and d.df == pytest.approx(49 / 26)
    half = t_quantile(0.95, 49 / 26) * se
    assert (d.lo, d.hi) == pytest.approx((1 / 6 - half, 1 / 6 + half))
    assert d.p_value == pytest.approx(t_two_sided_p((1 / 6) / se, 49 / 26))


def test_run_x_problem_noise_is_counted_once() -> None:
    """reference [[0,0,1],[1,0,1]], arm [[1,1,1],[1,0,1]]: the problems' spread (1/36) is below
    the noise already in the run terms (2 x 1/36), so the problem part is 0 and the variance
    is the run terms alone, 1/36 + 1/36, with 1 + 1 = 2 df."""
    d = seed_level_difference([[0, 0, 1], [1, 0, 1]], [[1, 1, 1], [1, 0, 1]])
    assert d.value == pytest.approx(1 / 3) and d.df == pytest.approx(2)
    assert d.hi - d.lo == pytest.approx(2 * T2 * math.sqrt(2 / 36), rel=1e-6)


def test_run_variance_hand_computed_and_recovered() -> None:
    """The arms of test_variance_components_hand_computed: [[0,0,0],[1,1,0]] has run means
    (0, 2/3), variance 2/9, less its run x problem mean square 1/6 over 3 problems: 1/6;
    [[0,0,0],[0,0,1]]: 1/18 - 1/18 = 0. Simulated runs with a shift of sd 0.05 on
    binomial(8) noise over 400 problems give back about 0.05^2."""
    assert run_variance([[0, 0, 0], [1, 1, 0]]) == (pytest.approx(1 / 6), 1)
    assert run_variance([[0, 0, 0], [0, 0, 1]]) == (pytest.approx(0.0), 1)
    rng = np.random.default_rng(3)
    rates = rng.uniform(0.2, 0.6, 400)
    shifts = 0.05 * rng.standard_normal((40, 1))
    runs = rng.binomial(8, np.clip(rates + shifts, 0, 1)) / 8
    variance, df = run_variance(runs)
    assert df == 39 and math.sqrt(variance) == pytest.approx(0.05, rel=0.3)


def test_the_p_value_and_the_interval_agree() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        a = rng.binomial(2, 0.4, (3, 20)) / 2
        b = rng.binomial(2, rng.uniform(0.3, 0.7), (3, 20)) / 2
        d = seed_level_difference(a, b)
        assert (d.p_value < 0.05) == (d.lo > 0 or d.hi < 0)


def test_no_variation_and_refusals() -> None:
    same = seed_level_difference([[1.0, 0.0]] * 3, [[1.0, 0.0]] * 2)
    assert (same.value, same.lo, same.hi, same.p_value) == (0.0, 0.0, 0.0, 1.0)
    assert same.runs == (3, 2)
    with pytest.raises(ValueError, match="at least 2 runs"):
        seed_level_mean([[0.0, 1.0]])
    with pytest.raises(ValueError, match="same problems"):
        seed_level_difference([[0.0, 1.0]] * 2, [[0.0]] * 2)


def _experiments(
    rng: np.random.Generator, count: int, run_sd: float, delta: float
) -> tuple[np.ndarray, np.ndarray]:
    """`count` experiments of two arms x 3 runs x 50 problems x 2 attempts: a problem's pass
    probability is its difficulty (uniform 0.25-0.6, shared by the arms) + the arm's shift (0 or
    `delta`) + an arm x problem interaction (uniform +-0.05) + the run's effect (uniform, sd
    `run_sd`, shared by every problem of the run). The expected difference is `delta`."""
    difficulty = rng.uniform(0.25, 0.6, (count, 1, 50))
    half = math.sqrt(3) * run_sd
    arms = []
    for shift in (0.0, delta):
        interaction = rng.uniform(-0.05, 0.05, (count, 1, 50))
        run = rng.uniform(-half, half, (count, 3, 1))
        arms.append(rng.binomial(2, difficulty + shift + interaction + run) / 2)
    return arms[0], arms[1]


def _coverage(run_sd: float, count: int = 400, delta: float = 0.05) -> tuple[float, float]:
    """Share of `count` simulated experiments whose interval contains `delta`: the seed-level
    one, and the bootstrap over problems of the seed-averaged differences (500 resamples)."""
    reference, arm = _experiments(np.random.default_rng(2026), count, run_sd, delta)
    seed_level = problems_only = 0
    for k in range(count):
        d = seed_level_difference(reference[k], arm[k])
        seed_level += d.lo <= delta <= d.hi
        fixed = bootstrap_mean(arm[k].mean(axis=0) - reference[k].mean(axis=0), 500, k)
        problems_only += fixed.lo <= delta <= fixed.hi
    return seed_level / count, problems_only / count


def test_with_a_run_effect_only_the_seed_level_interval_covers() -> None:
    """Run effect sd 0.08 (the spread of three training runs' Pass@1 in docs/results.md is of
    this order): over 400 experiments the seed-level interval covers the true difference
    0.9625 of the time, the interval over problems only 0.690 (measured; 0.95-0.985 and
    0.62-0.68 with other simulation seeds)."""
    seed_level, problems_only = _coverage(run_sd=0.08)
    assert 0.92 <= seed_level <= 0.99
    assert problems_only < 0.80


def test_without_a_run_effect_both_cover() -> None:
    """No run effect: the interval over problems is about right (0.905 measured, 0.92-0.945
    with other simulation seeds: the percentile bootstrap of 50 values is a little narrow) and
    the seed-level one is conservative, not wrong (0.9625, 0.965-0.98: it cannot tell from 3
    runs that runs do not vary)."""
    seed_level, problems_only = _coverage(run_sd=0.0)
    assert seed_level >= 0.92 and problems_only >= 0.88
