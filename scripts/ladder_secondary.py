"""The powered ladder's secondary results (configs/ladder-powered.yaml, pre-registered in
docs/experiments.md, where no claim rides on them): every row's per-seed values with each run's
learner precision, the heterogeneous team against RS² and MARS², and each trained arm against the
base on the held-out bundled problems and on HumanEval (does a gain transfer?).

    python scripts/ladder_secondary.py results/ladder-powered/results.json [--json]

Each difference is computed as the confirmatory ones are (`ladder_hypotheses.test`: seed-level
with two or more runs per arm, else conditional on the one run, marked †), and its p-value is not
adjusted: these comparisons are exploratory. A comparison whose rows are not in the results yet is
left out.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from ladder_hypotheses import Hypothesis, rows_of, test

TRAINED = ("grpo", "rs2", "mars2", "mars2-hetero")
# (evaluation, metric) of each per-seed table; "team" is the runs' own final evaluation
PER_SEED = (("team", "pass@1_mcts"), ("alone", "pass@1"), ("humaneval", "pass@1_mcts"))


def comparisons(results: dict[str, Any]) -> list[Hypothesis]:
    """The descriptive comparisons whose two rows are both in `results`."""
    wanted = [
        Hypothesis(
            "S1", "hetero > RS2", "team", "pass@1_mcts", ("mars2-hetero", None), ("rs2", None)
        ),
        Hypothesis(
            "S2", "hetero > MARS2", "team", "pass@1_mcts", ("mars2-hetero", None), ("mars2", None)
        ),
    ]
    sources = (
        ("bundled", "team", "pass@1_mcts", "alone"),
        ("HumanEval", "humaneval", "pass@1_mcts", "humaneval-alone"),
    )
    for label, team, metric, alone in sources:
        for arm in TRAINED:
            wanted.append(
                Hypothesis(label, f"{arm} team > base", team, metric, (arm, None), ("base", None))
            )
            for agent in ("coder", "debugger"):
                wanted.append(
                    Hypothesis(
                        label,
                        f"{arm}/{agent} alone > base",
                        alone,
                        "pass@1",
                        (arm, agent),
                        ("base", "coder"),
                    )
                )
    have = present(results)
    return [h for h in wanted if {h.arm, h.reference} <= have.get(h.evaluation, set())]


def present(results: dict[str, Any]) -> dict[str, set[tuple[str, str | None]]]:
    """evaluation -> the (arm, agent) rows it has."""
    names = ["team"] + [section["name"] for section in results.get("final_evals", [])]
    return {
        name: {(row["arm"], row["agent"]) for row in rows_of(results, name) or []} for name in names
    }


def per_seed(results: dict[str, Any], evaluation: str, metric: str) -> list[dict[str, Any]]:
    """One row per (arm, agent) of `evaluation`: its label and {seed: value of `metric`}."""
    out = []
    for row in rows_of(results, evaluation) or []:
        values = row["per_seed"].get(metric)
        if values:
            label = row["arm"] if row["agent"] is None else f"{row['arm']}/{row['agent']}"
            out.append({"row": label, "values": dict(zip(row["seeds"], values, strict=True))})
    return out


def precisions(results: dict[str, Any]) -> dict[str, dict[int, str]]:
    """arm -> {seed: the learner precision its run recorded ("—" for an untrained arm)}."""
    return {
        row["name"]: {
            run["seed"]: "—" if row.get("eval_only") else run["precision"] or "unrecorded"
            for run in row["runs"]
        }
        for row in results["arms"]
    }


def analyse(results: dict[str, Any]) -> dict[str, Any]:
    differences = []
    for h in comparisons(results):
        found = test(h, results)
        differences.append({"name": h.name, "claim": h.claim, "metric": h.metric, **found})
    tables = [{"evaluation": e, "metric": m, "rows": per_seed(results, e, m)} for e, m in PER_SEED]
    return {
        "differences": differences,
        "per_seed": [t for t in tables if t["rows"]],
        "precision": precisions(results),
    }


def markdown(found: dict[str, Any]) -> str:
    lines = ["| set | comparison | metric | Δ [95% CI] | p (unadjusted) | runs |"]
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for d in found["differences"]:
        mark = "" if d["seed_level"] else " †"
        p = "n/a" if math.isnan(d["p"]) else f"{d['p']:.3g}"
        lines.append(
            f"| {d['name']} | {d['claim']} | {d['metric']} | {d['diff']:+.3f} "
            f"[{d['lo']:+.3f}, {d['hi']:+.3f}]{mark} | {p} | {d['runs'][0]} vs {d['runs'][1]} |"
        )
    if not all(d["seed_level"] for d in found["differences"]):
        lines.append("† one run in an arm: conditional on the runs (problems resampled only)")
    for table in found["per_seed"]:
        rows = {
            row["row"]: {s: f"{v:.3f}" for s, v in row["values"].items()} for row in table["rows"]
        }
        lines += ["", f"Per-seed {table['metric']}, evaluation `{table['evaluation']}`:", ""]
        lines += _seed_table("row", rows)
    lines += ["", "Learner precision of each run:", ""]
    lines += _seed_table("arm", found["precision"])
    return "\n".join(lines)


def _seed_table(first: str, rows: dict[str, dict[int, str]]) -> list[str]:
    """A markdown table: one line per row label, one column per seed any row has."""
    seeds = sorted({seed for cells in rows.values() for seed in cells})
    lines = [f"| {first} | " + " | ".join(f"seed {s}" for s in seeds) + " |"]
    lines.append("| --- |" + " --- |" * len(seeds))
    for label, cells in rows.items():
        lines.append(f"| {label} | " + " | ".join(cells.get(s, "") for s in seeds) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="the experiment's results.json")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    found = analyse(json.loads(args.results.read_text()))
    print(json.dumps(found, indent=2) if args.json else markdown(found))


if __name__ == "__main__":
    main()
