"""The pre-registered analysis of the powered ladder (configs/ladder-powered.yaml; the
pre-registration is docs/experiments.md): hypotheses H1-H4 from the experiment's results.json,
each with its seed-level difference, interval, p-value, Holm over the confirmatory family and a
verdict.

    python scripts/ladder_hypotheses.py runs/ladder-powered/results.json [--json] [--drop-seeds 1]

H1 grpo > base on Pass@1 alone; H2 rs2 > grpo on the team's Pass@1(MCTS); H3 mars2 > rs2 on the
team's Pass@1(MCTS); H4 each agent of mars2 alone >= grpo alone on Pass@1, non-inferiority margin
0.03 (two tests: coder, debugger). The family is these five tests; Holm over them decides. A test
is `supported` when its Holm-adjusted p < 0.05 with the difference on the claimed side (H4: the
difference minus the margin), `refuted` when the 95% interval lies entirely on the other side of 0
(H4: entirely below -0.03), else `not resolved`. Arms with two or more runs get the seed-level
interval (runs and problems, Welch-Satterthwaite t); with one run each (the pilot) the interval is
conditional on those runs (paired bootstrap over problems, sign-flip p), marked as such.
`--drop-seeds` repeats the analysis without some seeds' runs: a sensitivity analysis (e.g. without
the runs a deviation touched), never the confirmatory one.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mars2.evaluation.stats import (
    holm,
    paired_difference,
    seed_level_difference,
    t_quantile,
    t_two_sided_p,
)

ALPHA = 0.05
MARGIN = 0.03  # H4's non-inferiority margin


@dataclass(frozen=True)
class Hypothesis:
    name: str
    claim: str
    evaluation: str  # "team" (the runs' own final evaluation) or a final evaluation's name
    metric: str
    arm: tuple[str, str | None]  # (arm, agent alone or None)
    reference: tuple[str, str | None]
    margin: float = 0.0  # the claim is arm - reference > -margin


HYPOTHESES = (
    Hypothesis("H1", "GRPO > base", "alone", "pass@1", ("grpo", "coder"), ("base", "coder")),
    Hypothesis("H2", "RS2 > GRPO", "team", "pass@1_mcts", ("rs2", None), ("grpo", None)),
    Hypothesis("H3", "MARS2 > RS2", "team", "pass@1_mcts", ("mars2", None), ("rs2", None)),
    Hypothesis(
        "H4-coder",
        "MARS2's coder alone >= GRPO",
        "alone",
        "pass@1",
        ("mars2", "coder"),
        ("grpo", "coder"),
        MARGIN,
    ),
    Hypothesis(
        "H4-debugger",
        "MARS2's debugger alone >= GRPO",
        "alone",
        "pass@1",
        ("mars2", "debugger"),
        ("grpo", "coder"),
        MARGIN,
    ),
)


@dataclass(frozen=True)
class Result:
    name: str
    claim: str
    diff: float
    lo: float
    hi: float
    p: float  # two-sided, of "arm - reference = -margin"
    p_holm: float
    runs: tuple[int, int]
    seed_level: bool
    verdict: str


def rows_of(results: dict[str, Any], evaluation: str) -> list[dict[str, Any]] | None:
    """The rows of one evaluation of results.json, each with its `arm` and `agent` ("team": the
    runs' own final evaluation, agent None), or None when the results have no such evaluation."""
    if evaluation == "team":
        return [{**row, "arm": row["name"], "agent": None} for row in results["arms"]]
    for section in results.get("final_evals", []):
        if section["name"] == evaluation:
            return list(section["rows"])
    return None


def per_problem(results: dict[str, Any], evaluation: str, arm: str, agent: str | None) -> Any:
    """The [runs, problems] values and problem ids of one row of results.json."""
    rows = rows_of(results, evaluation)
    if rows is None:
        raise SystemExit(f"no final evaluation {evaluation!r} in the results")
    for row in rows:
        if row["arm"] == arm and row["agent"] == agent:
            return row["per_problem"]
    raise SystemExit(f"no row {arm}{'/' + agent if agent else ''} in the {evaluation} results")


def test(hypothesis: Hypothesis, results: dict[str, Any]) -> dict[str, Any]:
    """The difference arm - reference on the problems both rows have, with its interval and the
    p-value of "it equals -margin"."""
    mine = per_problem(results, hypothesis.evaluation, *hypothesis.arm)
    ref = per_problem(results, hypothesis.evaluation, *hypothesis.reference)
    theirs = set(mine["problems"])
    shared = [p for p in ref["problems"] if p in theirs]
    if not shared:
        raise SystemExit(f"{hypothesis.name}: the two rows share no problem")

    def columns(block: dict[str, Any]) -> np.ndarray:
        index = [block["problems"].index(p) for p in shared]
        return np.asarray(block[hypothesis.metric], dtype=float)[:, index]

    a, b = columns(ref), columns(mine)
    runs = (int(a.shape[0]), int(b.shape[0]))
    if min(runs) >= 2:
        level = seed_level_difference(a, b)
        se = (level.hi - level.value) / t_quantile(1 - ALPHA, level.df)
        shifted = level.value + hypothesis.margin
        p = t_two_sided_p(shifted / se, level.df) if se > 0 else float(shifted == 0)
        return {
            "diff": level.value,
            "lo": level.lo,
            "hi": level.hi,
            "p": p,
            "runs": runs,
            "seed_level": True,
        }
    # one run: the paired bootstrap and sign-flip test of "b - a + margin = 0"
    cond = paired_difference(a.mean(axis=0) - hypothesis.margin, b.mean(axis=0))
    shift = hypothesis.margin
    return {
        "diff": cond.value - shift,
        "lo": cond.lo - shift,
        "hi": cond.hi - shift,
        "p": cond.p_value,
        "runs": runs,
        "seed_level": False,
    }


def without_seeds(results: dict[str, Any], seeds: set[int]) -> dict[str, Any]:
    """A copy of `results` whose per-problem blocks lack the runs of `seeds`."""

    def drop(block: dict[str, Any]) -> dict[str, Any]:
        keep = [i for i, seed in enumerate(block["seeds"]) if seed not in seeds]
        out = {k: v for k, v in block.items() if k == "problems"}
        out["seeds"] = [block["seeds"][i] for i in keep]
        for key, values in block.items():
            if key not in out:
                out[key] = [values[i] for i in keep]
        return out

    arms = [{**row, "per_problem": drop(row["per_problem"])} for row in results["arms"]]
    sections = [
        {**s, "rows": [{**row, "per_problem": drop(row["per_problem"])} for row in s["rows"]]}
        for s in results.get("final_evals", [])
    ]
    return {**results, "arms": arms, "final_evals": sections}


def verdict(h: Hypothesis, diff: float, lo: float, hi: float, p_holm: float) -> str:
    if p_holm < ALPHA and diff + h.margin > 0:
        return "supported"
    if hi < -h.margin or (h.margin == 0 and hi <= 0):
        return "refuted"
    return "not resolved"


def analyse(results: dict[str, Any]) -> list[Result]:
    found = [(h, test(h, results)) for h in HYPOTHESES]
    adjusted = holm([out["p"] for _, out in found])
    return [
        Result(
            h.name,
            h.claim,
            out["diff"],
            out["lo"],
            out["hi"],
            out["p"],
            p_holm,
            tuple(out["runs"]),  # type: ignore[arg-type]
            out["seed_level"],
            verdict(h, out["diff"], out["lo"], out["hi"], p_holm),
        )
        for (h, out), p_holm in zip(found, adjusted, strict=True)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="the experiment's results.json")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--drop-seeds",
        type=int,
        nargs="+",
        default=[],
        help="leave these seeds' runs out (a sensitivity analysis, not the pre-registered one)",
    )
    args = parser.parse_args()
    results = json.loads(args.results.read_text())
    if args.drop_seeds:
        results = without_seeds(results, set(args.drop_seeds))
    found = analyse(results)
    if args.json:
        print(json.dumps([asdict(r) for r in found], indent=2))
        return
    print("| hypothesis | claim | Δ [95% CI] | p | p (Holm) | runs | verdict |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in found:
        mark = "" if r.seed_level else " †"
        p = "n/a" if math.isnan(r.p) else f"{r.p:.3g}"
        print(
            f"| {r.name} | {r.claim} | {r.diff:+.3f} [{r.lo:+.3f}, {r.hi:+.3f}]{mark} | {p} | "
            f"{r.p_holm:.3g} | {r.runs[0]} vs {r.runs[1]} | {r.verdict} |"
        )
    if not all(r.seed_level for r in found):
        print("† one run per arm: conditional on these runs (problems resampled only)")


if __name__ == "__main__":
    main()
