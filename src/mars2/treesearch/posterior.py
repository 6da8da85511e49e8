"""Thompson-sampling arms: score posteriors (Normal-Inverse-chi-squared or Beta) over a growing set.

Each arm keeps sufficient statistics (count, sum, sum of squares), so an observation is O(1) to add
or to take back (virtual observations of pending expansions), and the draw parameters are cached
per arm. Small sets are drawn with Python's `random`, large ones in one vectorised numpy call.

Normal-Inverse-chi-squared (Murphy, "Probabilistic ML: Advanced Topics", §3.4.3.3), prior
(m0, κ0, ν0, τ0²) = (0, 1, 1, 0.1), after n observations with mean x̄ and sum of squared
deviations S:  κ = κ0 + n, ν = ν0 + n, m = (κ0·m0 + n·x̄)/κ,
τ² = (ν0·τ0² + S + n·κ0·(m0 - x̄)²/κ)/ν.  A draw: σ² ~ InvGamma(ν/2, ν·τ²/2), μ ~ N(m, σ²/κ).
Beta: Jeffreys prior Beta(0.5, 0.5), posterior Beta(a0 + Σx, b0 + n - Σx) for scores in [0, 1].
These are the priors of the AB-MCTS paper and of treequest's ABMCTSA.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Literal

import numpy as np

PriorName = Literal["normal", "beta"]

NORMAL_PRIOR = (0.0, 1.0, 1.0, 0.1)  # m0, kappa0, nu0, tau0^2
BETA_PRIOR = (0.5, 0.5)  # a0, b0
VECTOR_MIN = 12  # from this many arms on, one numpy draw beats a Python loop
_TINY = 1e-300


@dataclass
class Arms:
    """A growing list of arms with one posterior each. Normal: p0 = ν/2, p1 = m, p2 = ν·τ²/(2κ)
    (so a draw is m + sqrt(p2/g)·z with g ~ Gamma(ν/2)); Beta: p0 = a, p1 = b. From
    `VECTOR_MIN` arms on, `vec` mirrors the parameters so a vectorised draw copies nothing."""

    prior: PriorName
    n: list[float]
    s: list[float]
    ss: list[float]
    p0: list[float]
    p1: list[float]
    p2: list[float]
    vec: np.ndarray | None = None  # [3, capacity] copy of p0, p1, p2 once the set is large

    @classmethod
    def empty(cls, prior: PriorName, size: int = 0) -> Arms:
        arms = cls(prior, [], [], [], [], [], [])
        for _ in range(size):
            arms.add()
        return arms

    def __len__(self) -> int:
        return len(self.n)

    def add(self) -> int:
        """A new arm with no observation (the prior); returns its index."""
        for stat in (self.n, self.s, self.ss, self.p0, self.p1, self.p2):
            stat.append(0.0)
        size = len(self.n)
        if size >= VECTOR_MIN and (self.vec is None or self.vec.shape[1] < size):
            self.vec = np.zeros((3, 2 * size))
            self.vec[:, : size - 1] = [self.p0[:-1], self.p1[:-1], self.p2[:-1]]
        self._refresh(size - 1)
        return size - 1

    def observe(self, i: int, x: float, weight: int = 1) -> None:
        """Add (weight 1) or take back (weight -1) observation `x` of arm `i`."""
        self.n[i] += weight
        self.s[i] += weight * x
        self.ss[i] += weight * x * x
        self._refresh(i)

    def add_moments(self, i: int, n: float, s: float, ss: float) -> None:
        """Add pseudo-observations to arm `i`: `n` of them with sum `s` and sum of squares `ss`
        (a pooled prior, `mars2.treesearch.pool`)."""
        self.n[i] += n
        self.s[i] += s
        self.ss[i] += ss
        self._refresh(i)

    def mean(self, i: int) -> float | None:
        return self.s[i] / self.n[i] if self.n[i] > 0 else None

    def _refresh(self, i: int) -> None:
        n, s = self.n[i], self.s[i]
        if self.prior == "beta":
            a0, b0 = BETA_PRIOR
            self.p0[i] = a0 + s
            self.p1[i] = b0 + n - s
        else:
            self._refresh_normal(i, n, s)
        if self.vec is not None:
            self.vec[0, i], self.vec[1, i], self.vec[2, i] = self.p0[i], self.p1[i], self.p2[i]

    def _refresh_normal(self, i: int, n: float, s: float) -> None:
        m0, k0, nu0, tau0 = NORMAL_PRIOR
        kappa, nu = k0 + n, nu0 + n
        if n > 0:
            mean = s / n
            dev = max(self.ss[i] - s * mean, 0.0)
            tau2 = (nu0 * tau0 + dev + n * k0 * (m0 - mean) ** 2 / kappa) / nu
        else:
            tau2 = tau0
        self.p0[i] = nu / 2
        self.p1[i] = (k0 * m0 + s) / kappa
        self.p2[i] = nu * tau2 / (2 * kappa)

    def sample(self, i: int, rng: random.Random) -> float:
        """One posterior draw of arm `i` (the mean score for Normal, the rate for Beta)."""
        if self.prior == "beta":
            return rng.betavariate(self.p0[i], self.p1[i])
        g = max(rng.gammavariate(self.p0[i], 1.0), _TINY)
        return self.p1[i] + math.sqrt(self.p2[i] / g) * rng.gauss(0.0, 1.0)

    def argmax(
        self,
        rng: random.Random,
        np_rng: np.random.Generator,
        start: int = 0,
        skip: frozenset[int] = frozenset(),
    ) -> int:
        """Thompson sampling over arms `start..` except those in `skip`: the index of the largest
        draw (ties: first)."""
        size = len(self.n) - start
        assert size > len(skip), "no arm to draw from"
        if size < VECTOR_MIN:
            best, best_val = -1, -math.inf
            for i in range(start, len(self.n)):
                if i in skip:
                    continue
                val = self.sample(i, rng)
                if best < 0 or val > best_val:
                    best, best_val = i, val
            return best
        draws = self._draw_vector(np_rng, start)
        for i in skip:
            draws[i - start] = -math.inf
        return start + int(np.argmax(draws))

    def _draw_vector(self, np_rng: np.random.Generator, start: int) -> np.ndarray:
        assert self.vec is not None
        p0, p1, p2 = self.vec[:, start : len(self.n)]
        if self.prior == "beta":
            draws: np.ndarray = np_rng.beta(p0, p1)
            return draws
        g = np_rng.standard_gamma(p0)  # child arms have shape >= 1: g > 0
        out: np.ndarray = p1 + np.sqrt(p2 / g) * np_rng.standard_normal(len(p0))
        return out
