"""Seeds needed for a pre-registered comparison: the power of `mars2 experiment`'s seed-level
test (`seed_level_difference`, alpha 0.05, two-sided) by simulation, for n = 3..6 runs per arm.

    python scripts/power.py RESULTS_JSON --arm base --evaluation alone --agent coder \
        --metric pass@1 --effect 0.03 --run-sd 0.018 --attempts 8 [--sims 400]

Each simulated experiment draws n runs of two arms on the pilot's problems: run r of an arm
solves problem p on each of `--attempts` attempts with probability
clip(q_p + arm effect + u_r, 0, 1), where q_p is the problem's value in the pilot (RESULTS_JSON's
`per_problem` array of `--arm` for `--metric` in the runs' own evaluation, or in the final
evaluation `--evaluation` of its `--agent` alone, the seed-averaged values `mars2 experiment` writes),
the arm effect is 0 for the reference and `--effect` for the other, and u_r ~ N(0, run-sd) is the
run's shift shared by all its problems. The power is the share of experiments whose p < 0.05 with
the difference in the claimed direction. `--run-sd` is the run-to-run standard deviation of an
arm's mean; one pilot seed cannot estimate it, so it comes from earlier runs (the ladder's per-seed
changes, results/archive/, are an upper bound: they also hold the evaluations' sampling noise).
`--run-sd-from ROWS` measures it instead, once arms have two runs or more: the run variance
component of each row (the run means' variance less the run x problem noise,
`mars2.evaluation.stats.run_variance`), pooled over the rows. `--het-sd` adds a per-problem spread of the effect (default 0: the effect is the same on every
problem, the optimistic case).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
from ladder_hypotheses import per_problem

from mars2.evaluation.stats import run_variance, seed_level_difference

ALPHA = 0.05


def simulate_power(
    rates: np.ndarray,
    effect: float,
    runs: int,
    *,
    run_sd: float,
    attempts: int,
    het_sd: float = 0.0,
    sims: int = 400,
    seed: int = 0,
) -> float:
    """Share of `sims` simulated experiments (runs per arm, the problems of `rates`) whose
    seed-level test finds the difference at ALPHA in the direction of `effect` (for effect 0:
    in either direction, i.e. the type I error)."""
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(sims):
        per_problem = effect + het_sd * rng.standard_normal(rates.shape)
        arms = []
        for shift in (np.zeros_like(rates), per_problem):
            u = run_sd * rng.standard_normal((runs, 1))
            q = np.clip(rates[None, :] + shift[None, :] + u, 0.0, 1.0)
            arms.append(rng.binomial(attempts, q) / attempts)
        result = seed_level_difference(arms[0], arms[1])
        if result.p_value < ALPHA and (effect == 0 or np.sign(result.value) == np.sign(effect)):
            found += 1
    return found / sims


def pilot_rates(
    results: dict,  # type: ignore[type-arg]
    arm: str,
    metric: str,
    evaluation: str = "team",
    agent: str | None = None,
) -> np.ndarray:
    """Each problem's value of `arm` (of its `agent` alone, for a final evaluation such as
    `alone`) for `metric` in a results.json, averaged over its runs."""
    values = np.asarray(per_problem(results, evaluation, arm, agent)[metric], dtype=float)
    mean: np.ndarray = values.mean(axis=0)
    return mean


def pooled_run_sd(
    results: dict,  # type: ignore[type-arg]
    rows: list[str],
    metric: str,
    evaluation: str = "team",
) -> tuple[float, int]:
    """The run-to-run sd measured in a results.json: each row's (`arm` or `arm/agent`) run
    variance component (`run_variance`), pooled over the rows with two runs or more, weighted by
    their degrees of freedom, floored at 0; with the pooled degrees of freedom."""
    total, dfs = 0.0, 0
    for row in rows:
        arm, _, agent = row.partition("/")
        values = per_problem(results, evaluation, arm, agent or None)[metric]
        if len(values) >= 2:
            variance, df = run_variance(values)
            total, dfs = total + variance * df, dfs + df
    if dfs == 0:
        raise SystemExit(
            f"no row of {', '.join(rows)} has two runs yet in the {evaluation} results"
        )
    return math.sqrt(max(total / dfs, 0.0)), dfs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="the pilot's results.json")
    parser.add_argument("--arm", required=True, help="the reference arm of the comparison")
    parser.add_argument("--metric", default="pass@1")
    parser.add_argument(
        "--evaluation", default="team", help="`team` (the runs' own) or a final evaluation: alone"
    )
    parser.add_argument("--agent", default=None, help="the agent of a per-agent evaluation")
    parser.add_argument("--effect", type=float, required=True, help="the difference to detect")
    sd = parser.add_mutually_exclusive_group(required=True)
    sd.add_argument("--run-sd", type=float, help="the run-to-run sd of an arm's mean")
    sd.add_argument(
        "--run-sd-from",
        metavar="ROWS",
        help="measure it instead: the comma-separated rows (arm, or arm/agent for a per-agent "
        "evaluation) whose runs give the pooled run variance component",
    )
    parser.add_argument("--het-sd", type=float, default=0.0)
    parser.add_argument("--attempts", type=int, required=True, help="attempts (or trees) each")
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--runs", default="3,4,5,6", help="runs per arm to try")
    args = parser.parse_args()
    results = json.loads(args.results.read_text())
    rates = pilot_rates(results, args.arm, args.metric, args.evaluation, args.agent)
    if args.run_sd_from:
        rows = args.run_sd_from.split(",")
        args.run_sd, dfs = pooled_run_sd(results, rows, args.metric, args.evaluation)
        print(f"run sd {args.run_sd:.4f} pooled over {', '.join(rows)} ({dfs} degrees of freedom)")
    print(
        f"{args.evaluation} {args.metric} of {args.arm} (+{args.effect}) on {rates.size} problems, "
        f"run sd {args.run_sd}, {args.attempts} attempts, {args.sims} simulated experiments"
    )
    for runs in (int(k) for k in args.runs.split(",")):
        power = simulate_power(
            rates,
            args.effect,
            runs,
            run_sd=args.run_sd,
            attempts=args.attempts,
            het_sd=args.het_sd,
            sims=args.sims,
        )
        print(f"  {runs} runs per arm: power {power:.2f}")


if __name__ == "__main__":
    main()
