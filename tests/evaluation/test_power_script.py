"""scripts/power.py: the simulated power of the seed-level test behaves as a power must (type I
error near alpha without an effect, near 1 for a large effect, growing with runs) and reads the
pilot's per-problem values from a results.json."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import numpy as np
import pytest

from script_modules import script_module


@pytest.fixture(scope="module")
def power() -> Iterator[ModuleType]:
    yield from script_module("power")


RATES = np.linspace(0.1, 0.6, 100)


def test_no_effect_is_found_about_alpha_of_the_time(power: ModuleType) -> None:
    found = power.simulate_power(RATES, 0.0, 3, run_sd=0.02, attempts=4, sims=400)
    assert found <= 0.10  # nominal 0.05; 400 experiments: sd ~0.011


def test_a_large_effect_is_found_and_power_grows_with_runs(power: ModuleType) -> None:
    big = power.simulate_power(RATES, 0.2, 3, run_sd=0.0, attempts=4, sims=100)
    assert big >= 0.95
    few = power.simulate_power(RATES, 0.04, 3, run_sd=0.02, attempts=4, sims=300)
    many = power.simulate_power(RATES, 0.04, 6, run_sd=0.02, attempts=4, sims=300)
    assert many > few


def test_pilot_rates_average_an_arms_runs(power: ModuleType) -> None:
    results = {
        "arms": [{"name": "grpo", "per_problem": {"pass@1": [[0.0, 0.5], [0.5, 1.0]]}}],
        "final_evals": [
            {
                "name": "alone",
                "rows": [
                    {"arm": "base", "agent": "coder", "per_problem": {"pass@1": [[0.125, 1.0]]}}
                ],
            }
        ],
    }
    assert power.pilot_rates(results, "grpo", "pass@1").tolist() == [0.25, 0.75]
    assert power.pilot_rates(results, "base", "pass@1", "alone", "coder").tolist() == [0.125, 1]
    with pytest.raises(SystemExit, match="no row rs2 in the team"):
        power.pilot_rates(results, "rs2", "pass@1")
    with pytest.raises(SystemExit, match="no final evaluation 'mcts-4'"):
        power.pilot_rates(results, "base", "pass@1", "mcts-4", "coder")


def test_the_pooled_run_sd_weighs_rows_by_their_runs(power: ModuleType) -> None:
    """grpo's runs [[0,0,0],[1,1,0]] have run variance 1/6 (1 df, test_stats_seeds); rs2's
    three runs [[0,0,0],[1,1,1],[0,0,0]] differ by whole runs only: run means (0, 1, 0),
    variance 1/3, no run x problem noise (2 df); base has one run and is left out. Pooled
    (1 x 1/6 + 2 x 1/3) / 3 = 5/18."""
    results = {
        "arms": [
            {"name": "grpo", "per_problem": {"pass@1": [[0, 0, 0], [1, 1, 0]]}},
            {"name": "rs2", "per_problem": {"pass@1": [[0, 0, 0], [1, 1, 1], [0, 0, 0]]}},
            {"name": "base", "per_problem": {"pass@1": [[0, 1, 1]]}},
        ]
    }
    sd, dfs = power.pooled_run_sd(results, ["grpo", "rs2", "base"], "pass@1")
    assert dfs == 3 and sd == pytest.approx(np.sqrt(5 / 18))
    with pytest.raises(SystemExit, match="no row of base has two runs"):
        power.pooled_run_sd(results, ["base"], "pass@1")
