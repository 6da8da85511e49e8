"""Posterior arms: hand-computed Normal-Inverse-chi-squared and Beta updates, take-backs, draws."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

from mars2.treesearch.posterior import VECTOR_MIN, Arms


def test_normal_update_matches_hand_computation() -> None:
    arms = Arms.empty("normal", 1)
    # prior m0=0, kappa0=1, nu0=1, tau0^2=0.1: p0 = nu/2, p1 = m, p2 = nu*tau^2/(2*kappa)
    assert (arms.p0[0], arms.p1[0], arms.p2[0]) == pytest.approx((0.5, 0.0, 0.05))
    arms.observe(0, 1.0)
    arms.observe(0, 0.5)
    # n=2, mean=0.75, S=0.125; kappa=3, nu=3, m=1.5/3=0.5
    # tau^2 = (0.1 + 0.125 + 2*1*0.75^2/3)/3 = (0.225 + 0.375)/3 = 0.2
    assert arms.p0[0] == pytest.approx(1.5)
    assert arms.p1[0] == pytest.approx(0.5)
    assert arms.p2[0] == pytest.approx(3 * 0.2 / (2 * 3))


def test_beta_update_matches_hand_computation() -> None:
    arms = Arms.empty("beta", 2)
    arms.observe(1, 1.0)
    arms.observe(1, 0.25)
    assert (arms.p0[1], arms.p1[1]) == pytest.approx((0.5 + 1.25, 0.5 + 0.75))
    assert (arms.p0[0], arms.p1[0]) == (0.5, 0.5)


@pytest.mark.parametrize("prior", ["normal", "beta"])
def test_take_back_restores_the_posterior(prior: str) -> None:
    arms = Arms.empty(prior, 1)  # type: ignore[arg-type]
    arms.observe(0, 0.6)
    before = (arms.p0[0], arms.p1[0], arms.p2[0])
    arms.observe(0, 0.0, 1)
    arms.observe(0, 0.0, -1)
    assert (arms.p0[0], arms.p1[0], arms.p2[0]) == before


@pytest.mark.parametrize("prior", ["normal", "beta"])
@pytest.mark.parametrize("size", [3, VECTOR_MIN + 3])
def test_argmax_prefers_the_better_arm(prior: str, size: int) -> None:
    """Scalar (small) and vectorised (large) draws both concentrate on the well-scored arm."""
    arms = Arms.empty(prior, size)  # type: ignore[arg-type]
    for i in range(size):
        for _ in range(20):
            arms.observe(i, 0.9 if i == 1 else 0.1)
    rng, np_rng = random.Random(0), np.random.default_rng(0)
    picks = [arms.argmax(rng, np_rng) for _ in range(200)]
    assert picks.count(1) > 190


def test_normal_draws_follow_the_student_t_marginal() -> None:
    """Mean of draws = m; variance = tau^2/kappa * nu/(nu-2) (Student-t with nu dof)."""
    arms = Arms.empty("normal", 1)
    for x in (0.2, 0.4, 0.6, 0.8, 0.5, 0.5):
        arms.observe(0, x)
    rng = random.Random(1)
    draws = [arms.sample(0, rng) for _ in range(20000)]
    nu, m = 2 * arms.p0[0], arms.p1[0]
    tau2_over_kappa = 2 * arms.p2[0] / nu
    assert statistics.fmean(draws) == pytest.approx(m, abs=0.01)
    assert statistics.pvariance(draws) == pytest.approx(tau2_over_kappa * nu / (nu - 2), rel=0.1)
