"""The interval and comparison formulas against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mars2.evaluation.stats import bootstrap_mean, paired_difference, sign_flip_p_value


def test_bootstrap_of_a_constant_is_the_constant() -> None:
    est = bootstrap_mean([0.5, 0.5, 0.5])
    assert (est.value, est.lo, est.hi, est.n) == (0.5, 0.5, 0.5, 3)


def test_bootstrap_matches_a_direct_resampling_loop() -> None:
    values = [0.0, 1.0, 1.0, 0.0, 1.0, 0.25, 0.75, 0.0]
    est = bootstrap_mean(values, resamples=500, seed=3)
    rng = np.random.default_rng(3)
    index = rng.integers(0, len(values), size=(500, len(values)))
    means = sorted(np.mean([values[i] for i in row]) for row in index)
    lo, hi = np.quantile(means, [0.025, 0.975])
    assert est.value == pytest.approx(sum(values) / len(values))
    assert est.lo == pytest.approx(lo) and est.hi == pytest.approx(hi)
    assert est.lo < est.value < est.hi


def test_bootstrap_is_seeded_and_empty_input_is_nan() -> None:
    values = [0.0, 1.0, 0.0, 0.0, 1.0]
    assert bootstrap_mean(values, seed=1) == bootstrap_mean(values, seed=1)
    assert math.isnan(bootstrap_mean([]).value)


def test_sign_flip_exact_hand_computed() -> None:
    # d = (1, 1, 1): of the 8 sign patterns only +++ and --- reach |sum| 3 -> p = 2/8.
    assert sign_flip_p_value([1.0, 1.0, 1.0]) == pytest.approx(0.25)
    # d = (1, 1, 0, 0): the zeros cannot flip; of 4 patterns of the ones, 2 reach |sum| 2.
    assert sign_flip_p_value([1.0, 1.0, 0.0, 0.0]) == pytest.approx(0.5)
    # d = (1, -1): every pattern has |sum| >= 0 -> p = 1.
    assert sign_flip_p_value([1.0, -1.0]) == pytest.approx(1.0)
    # d = (2, 1): patterns' |sums| 3, 1, 1, 3 -> 2 of 4 reach 3.
    assert sign_flip_p_value([2.0, 1.0]) == pytest.approx(0.5)


def test_sign_flip_of_identical_inputs_is_one() -> None:
    assert sign_flip_p_value([0.0] * 7) == 1.0
    diff = paired_difference([0.2, 0.5, 1.0], [0.2, 0.5, 1.0])
    assert (diff.value, diff.lo, diff.hi, diff.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_sign_flip_many_differences_uses_random_flips() -> None:
    # 40 differences of +1: the exact p is 2 / 2**40; the Monte Carlo estimate is 1/(1+R).
    p = sign_flip_p_value([1.0] * 40, resamples=999)
    assert p == pytest.approx(1 / 1000)


def test_paired_difference_hand_computed() -> None:
    a = [0.0, 0.0, 0.0, 1.0]
    b = [1.0, 1.0, 0.0, 1.0]
    diff = paired_difference(a, b, resamples=2000, seed=0)
    assert diff.value == pytest.approx(0.5) and diff.n == 4
    # The resampled means take values k/4 over d = (1, 1, 0, 0); all zeros (or all ones) has
    # probability 1/16 > 2.5%, so the percentile interval is exactly [0, 1].
    assert (diff.lo, diff.hi) == (0.0, 1.0)
    assert diff.p_value == pytest.approx(0.5)
    # Pairing matters: a constant improvement has a zero-width interval.
    shifted = paired_difference([0.0, 0.25, 0.5], [0.5, 0.75, 1.0])
    assert (shifted.value, shifted.lo, shifted.hi) == pytest.approx((0.5, 0.5, 0.5))
    assert shifted.p_value == pytest.approx(0.25)


def test_paired_difference_needs_pairs() -> None:
    with pytest.raises(ValueError):
        paired_difference([0.0], [0.0, 1.0])
