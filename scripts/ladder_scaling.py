"""The powered ladder's test-time scaling curve (configs/ladder-powered.yaml, pre-registered in
docs/experiments.md): each arm's team Pass@1(MCTS) at 4, 8 and 16 nodes per tree on the scaling
subset, from the experiment's results.json, as a table and one plot.

    python scripts/ladder_scaling.py results/ladder-powered/results.json --plot docs/results/ladder-scaling.png

The 4- and 16-node points are the final evaluations `mcts-4` and `mcts-16` (one tree per problem,
seed 0, the first 100 problems); the 8-node point is the run's own team evaluation (two trees per
problem, their mean) of the same seed restricted to the same problems. Each point is the mean
over problems with its 95% percentile-bootstrap interval (one run: conditional on it). Arms
missing a point are drawn with the points they have; an arm with none is left out.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ladder_hypotheses import rows_of

from mars2.evaluation.stats import bootstrap_mean

METRIC = "pass@1_mcts"
POINTS = ((4, "mcts-4"), (8, "team"), (16, "mcts-16"))  # (nodes per tree, evaluation)
SEED = 0


def _rows(results: dict[str, Any], evaluation: str) -> dict[str, dict[str, Any]]:
    """arm -> the team's per-problem block of one evaluation."""
    rows = rows_of(results, evaluation) or []
    return {r["arm"]: r["per_problem"] for r in rows if r["agent"] is None}


def _seed_values(block: dict[str, Any] | None, seed: int) -> dict[str, float]:
    """problem -> the metric of run `seed` (empty when that run is missing)."""
    if not block or seed not in block.get("seeds", []):
        return {}
    values = block[METRIC][block["seeds"].index(seed)]
    return dict(zip(block["problems"], values, strict=True))


def curve(results: dict[str, Any], seed: int = SEED) -> list[dict[str, Any]]:
    """One row per arm and point: nodes, mean, lo, hi, problems. The subset is the problems of
    the 4-node evaluation of that arm (else of the 16-node one)."""
    found = {name: _rows(results, name) for _, name in POINTS}
    out = []
    for arm in [row["name"] for row in results["arms"]]:
        values = {name: _seed_values(found[name].get(arm), seed) for _, name in POINTS}
        subset = list(values["mcts-4"] or values["mcts-16"])
        for nodes, name in POINTS:
            chosen = [values[name][p] for p in subset if p in values[name]]
            if not chosen or len(chosen) < len(subset):
                continue  # the point is missing (or lacks some of the subset's problems)
            estimate = bootstrap_mean(chosen)
            out.append(
                {
                    "arm": arm,
                    "nodes": nodes,
                    "evaluation": name,
                    "value": estimate.value,
                    "lo": estimate.lo,
                    "hi": estimate.hi,
                    "problems": estimate.n,
                }
            )
    return out


def plot(points: list[dict[str, Any]], path: Path) -> None:
    """Pass@1(MCTS) against nodes per tree (log scale), one line per arm, interval bars."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 4), dpi=120)
    axes = figure.subplots()
    arms = list(dict.fromkeys(p["arm"] for p in points))
    for i, arm in enumerate(arms):
        mine = [p for p in points if p["arm"] == arm]
        x = [p["nodes"] * (1 + 0.02 * (i - len(arms) / 2)) for p in mine]  # dodge the bars
        y = [p["value"] for p in mine]
        err = [[p["value"] - p["lo"] for p in mine], [p["hi"] - p["value"] for p in mine]]
        axes.errorbar(x, y, yerr=err, marker="o", capsize=3, label=arm)
    axes.set_xscale("log", base=2)
    axes.set_xticks([n for n, _ in POINTS], [str(n) for n, _ in POINTS])
    axes.set_xlabel("nodes per tree")
    axes.set_ylabel("team Pass@1(MCTS)")
    problems = max((p["problems"] for p in points), default=0)
    axes.set_title(f"Test-time scaling, seed {SEED}, {problems} problems (95% CI)")
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="the experiment's results.json")
    parser.add_argument("--plot", type=Path, help="write the plot (PNG) here")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    points = curve(json.loads(args.results.read_text()))
    if not points:
        raise SystemExit(f"{args.results}: no arm has a scaling point of seed {SEED} yet")
    if args.plot:
        plot(points, args.plot)
    if args.json:
        print(json.dumps(points, indent=2))
        return
    print("| arm | nodes | Pass@1(MCTS) [95% CI] | problems |")
    print("| --- | --- | --- | --- |")
    for p in points:
        print(
            f"| {p['arm']} | {p['nodes']} | {p['value']:.3f} [{p['lo']:.3f}, {p['hi']:.3f}] | "
            f"{p['problems']} |"
        )


if __name__ == "__main__":
    main()
