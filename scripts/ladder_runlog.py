"""The powered ladder's run log, re-derived from its run folders (results/ladder-powered/): for
each run, when and where it ran (environment.jsonl: each start's time, CPU, AMX, the git commit
of the code when recorded), how its learners computed (`bf16/<agent>` in metrics.jsonl), its
training minutes (the sum of `time/step`) and its team evaluation's minutes (`time/eval` of the
last step), and each final evaluation's minutes where its folder records them.

    python scripts/ladder_runlog.py results/ladder-powered [--json]

Runs from before a field was recorded show `—` for it (commits: from 2026-12-04 17:30; a final
evaluation's minutes: the same); docs/results.md tells their story in words.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mars2 import jsonl
from mars2.experiment.results import learner_precision

DASH = "—"


def _lines(path: Path) -> list[dict[str, Any]]:
    return [row for _, row in jsonl.read(path)] if path.is_file() else []


def _start(line: dict[str, Any]) -> str:
    """One start of a run: `2026-12-04 13:22 (step 1) AMD EPYC, AMX, 6959bd9`."""
    when = str(line.get("time", "?"))[:16].replace("T", " ")
    source = line.get("source")
    commit = DASH if source is None else source[:7] + ("+dirty" if "+dirty" in source else "")
    amx = "AMX" if line.get("amx") else "no AMX"
    return f"{when} (step {line.get('step', '?')}) {line.get('cpu', '?')}, {amx}, {commit}"


def _minutes(seconds: float | None) -> str:
    return DASH if seconds is None else f"{seconds / 60:.1f}"


def _seconds(folder: Path) -> float | None:
    """An evaluation folder's wall seconds (environment.jsonl), None where it did not record them."""
    lines = _lines(folder / "environment.jsonl")
    return sum(float(line["seconds"]) for line in lines) if lines else None


def final_evaluations(run: Path) -> dict[str, float | None]:
    """evals/<name>[/<agent>] -> its wall seconds; the step folders are the run's own
    evaluations, left out."""
    evals = run / "evals"
    folders = sorted(p.parent for p in evals.glob("**/eval.json")) if evals.is_dir() else []
    names = {f: f.relative_to(evals).as_posix() for f in folders}
    return {name: _seconds(f) for f, name in names.items() if not name.startswith("step_")}


def run_facts(run: Path) -> dict[str, Any]:
    """The facts of one run folder (ARM/seedK)."""
    metrics = _lines(run / "metrics.jsonl")
    trained = [m for m in metrics if "time/step" in m]
    evaluated = [m for m in metrics if "time/eval" in m]
    return {
        "arm": run.parent.name,
        "seed": int(run.name.removeprefix("seed")),
        "starts": [_start(line) for line in _lines(run / "environment.jsonl")],
        "learner": learner_precision(run),
        "steps": max((int(m["step"]) for m in trained), default=0),
        "training_s": sum(float(m["time/step"]) for m in trained) if trained else None,
        # an eval-only arm's team evaluation is a `mars2 eval` folder, evals/step_000000
        "team_eval_s": (
            float(evaluated[-1]["time/eval"])
            if evaluated
            else _seconds(run / "evals" / "step_000000")
        ),
        "final_evals_s": final_evaluations(run),
    }


def table(runs: list[dict[str, Any]]) -> str:
    rows = [
        "| arm | seed | starts (time, step, CPU, commit) | learner | steps | training min "
        "| team eval min | final evaluations (min) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in runs:
        finals = ", ".join(f"{k} {_minutes(v)}" for k, v in r["final_evals_s"].items())
        rows.append(
            f"| {r['arm']} | {r['seed']} | {'; '.join(r['starts']) or DASH} "
            f"| {r['learner'] or DASH} | {r['steps']} | {_minutes(r['training_s'])} "
            f"| {_minutes(r['team_eval_s'])} | {finals or DASH} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the experiment's folder (--out)")
    parser.add_argument("--json", action="store_true", help="print the facts as JSON")
    args = parser.parse_args(argv)
    results = args.folder / "results.json"  # the experiment's arm order, when it has one
    order = (
        [a["name"] for a in json.loads(results.read_text())["arms"]] if results.is_file() else []
    )
    rank = {name: i for i, name in enumerate(order)}
    folders = [f for f in args.folder.glob("*/seed*") if f.is_dir()]
    folders.sort(key=lambda p: (rank.get(p.parent.name, len(rank)), p.parent.name, p.name))
    if not folders:
        print(f"{args.folder}: no run folders (ARM/seedK)", file=sys.stderr)
        return 2
    runs = [run_facts(f) for f in folders]
    print(json.dumps(runs, indent=2) if args.json else table(runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
