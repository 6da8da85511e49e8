"""An experiment's table as numbers (results.json; experiment/table.py writes it as text): per
arm, Pass@1, Pass@1(MCTS) and Pass@N over seeds with 95% intervals, the tokens generated in
training, and the differences against the reference arm, with Holm-adjusted p-values.

The data of an arm are a [runs, problems] array per metric: each run (one seed's training run)
evaluated on the same problems. An arm's figure is the mean over problems of the per-problem
values averaged over its runs. With two or more runs per arm, every interval and p-value includes
run-to-run variance (evaluation/stats.py: seed_level_mean, seed_level_difference; t intervals on
the variance components of runs and problems). Beside each sits the interval that resamples
problems only (percentile bootstrap of the seed-averaged values; paired bootstrap and sign-flip
p-value for differences): it is "conditional on these runs", and it is the only one an arm with a
single finished run has. Differences are arm - reference over the problems both evaluated
(problems paired, runs independent); the change during training is final - step 0 per run and
problem, for runs that kept their step-0 evaluation, and is compared with the reference arm's the
same way. Each final evaluation (`final_evals`) has rows of its own, per arm (per arm and agent
alone with `each_agent`), computed alike and compared with the reference arm's row (its first
agent's). Every p-value of the tables is also given Holm-adjusted over all of them (one family
per experiment). No torch.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mars2 import jsonl
from mars2.errors import UserError
from mars2.evaluation import record as eval_record
from mars2.evaluation.stats import (
    LEVEL,
    RESAMPLES,
    bootstrap_mean,
    holm,
    paired_difference,
    seed_level_difference,
    seed_level_mean,
)
from mars2.experiment.runner import PlannedRun, planned_nodes
from mars2.experiment.spec import Arm, Experiment, FinalEval
from mars2.rundir import RunDir

METRICS = ("pass@1", "pass@1_mcts", "pass@n")
LABELS = {"pass@1": "Pass@1", "pass@1_mcts": "Pass@1(MCTS)", "pass@n": "Pass@N"}
BOOTSTRAP_SEED = 0
RUNS = "runs and problems"  # an interval that includes run-to-run variance
CONDITIONAL = "conditional on these runs"  # an interval that resamples problems only
COMPARISONS = ("vs_reference", "gain", "gain_vs_reference")  # the tested entries of an arm

Values = dict[str, dict[str, float]]  # problem id -> metric -> value


def _metric_lines(folder: Path) -> list[dict[str, Any]]:
    """The lines of the run's metrics.jsonl (none when it has none; a cut last line is skipped,
    mars2.jsonl)."""
    file = RunDir(folder).metrics
    return [data for _, data in jsonl.read(file)] if file.is_file() else []


def tokens_generated(folder: Path) -> int:
    """Sum of `tokens/generated` over metrics.jsonl (the last line of a step counts: a resumed
    run may have logged a step twice)."""
    by_step: dict[int, float] = {}
    for data in _metric_lines(folder):
        if "tokens/generated" in data:
            by_step[int(data["step"])] = float(data["tokens/generated"])
    return int(sum(by_step.values()))


def learner_precision(folder: Path) -> str | None:
    """How the run's learners computed, from `bf16/<agent>` in metrics.jsonl: `bf16`, `fp32`,
    `mixed` (some updates in each: a resume on another machine, or agents on unlike machines),
    or None when no step recorded it (a run of an older version, or one without updates)."""
    seen = {
        float(value)
        for data in _metric_lines(folder)
        for key, value in data.items()
        if key.startswith("bf16/")
    }
    if not seen:
        return None
    return "mixed" if len(seen) > 1 else ("bf16" if seen == {1.0} else "fp32")


def problem_values(record: dict[str, Any]) -> Values:
    """Each problem's Pass@1, Pass@1(MCTS), Pass@N in one evaluation."""
    return {o.problem_id: o.values([1]) for o in eval_record.outcomes_of(record)}


def shared_problems(*groups: Sequence[Values]) -> list[str]:
    """The problems every run of every group evaluated, in the first run's order."""
    runs = [values for group in groups for values in group]
    if not runs:
        return []
    return [p for p in runs[0] if all(p in values for values in runs)]


def seed_average(per_seed: Sequence[Values]) -> Values:
    """Per problem (those every seed evaluated, in the first seed's order), each metric's mean
    over the seeds."""
    return {
        p: {m: sum(values[p][m] for values in per_seed) / len(per_seed) for m in METRICS}
        for p in shared_problems(per_seed)
    }


def matrix(runs: Sequence[Values], problems: Sequence[str], metric: str) -> np.ndarray:
    """One metric of the runs on the problems: [runs, problems]."""
    return np.array([[values[p][metric] for p in problems] for values in runs], dtype=float)


def arm_metrics(runs: Sequence[Values], resamples: int = RESAMPLES) -> dict[str, dict[str, Any]]:
    """Each metric's mean over problems of the seed-averaged values, with its 95% interval over
    runs and problems (two or more runs), else over problems only; `conditional`: the interval
    over problems only, conditional on these runs."""
    problems = shared_problems(runs)
    out: dict[str, dict[str, Any]] = {}
    for m in METRICS:
        values = matrix(runs, problems, m)
        fixed = bootstrap_mean(list(values.mean(axis=0)), resamples, BOOTSTRAP_SEED)
        conditional = {"lo": fixed.lo, "hi": fixed.hi}
        if len(runs) >= 2 and problems:
            entry = seed_level_mean(values, bounds=(0.0, 1.0)).to_json()
            del entry["p"]  # a pass rate is not tested against 0
            out[m] = entry | {"interval": RUNS, "conditional": conditional}
        else:
            out[m] = fixed.to_json() | {"runs": [len(runs)], "interval": CONDITIONAL}
    return out


def compare(
    reference: Sequence[Values] | None,
    arm: Sequence[Values],
    resamples: int = RESAMPLES,
    bound: float = 1.0,
) -> dict[str, dict[str, Any]]:
    """arm - reference per metric over the problems every run of both evaluated (the reference's
    order); `reference` None: the arm's values themselves against 0 (changes during training).
    With two or more runs on each side: the seed-level difference (interval and t-test p-value
    including run-to-run variance), else the paired bootstrap and sign-flip p-value over the
    seed-averaged values; `conditional` always holds the latter. `bound`: the largest |value|
    possible (1 for a difference of pass rates, 2 for a difference of changes)."""
    groups = [arm] if reference is None else [reference, arm]
    problems = shared_problems(*groups)
    runs = [len(group) for group in groups]
    out: dict[str, dict[str, Any]] = {}
    for m in METRICS:
        after = matrix(arm, problems, m)
        before = np.zeros_like(after) if reference is None else matrix(reference, problems, m)
        fixed = paired_difference(
            list(before.mean(axis=0)), list(after.mean(axis=0)), resamples, BOOTSTRAP_SEED
        )
        conditional = {"lo": fixed.lo, "hi": fixed.hi, "p": fixed.p_value}
        if min(runs) < 2 or not problems:
            out[m] = fixed.to_json() | {"runs": runs, "interval": CONDITIONAL}
            continue
        bounds = (-bound, bound)
        seed_level = (
            seed_level_mean(after, bounds=bounds)
            if reference is None
            else seed_level_difference(before, after, bounds=bounds)
        )
        out[m] = seed_level.to_json("diff") | {"interval": RUNS, "conditional": conditional}
    return out


def changes(
    runs: Sequence[PlannedRun], records: dict[str, dict[str, Any]]
) -> tuple[list[int], list[Values]]:
    """The finished training runs (final evaluations in `records`) that have a step-0 evaluation:
    their seeds and per run, per problem, each metric's final minus step-0 value."""
    had = [r for r in runs if not r.arm.eval_only and r.first_eval.is_file()]
    per_run = []
    for r in had:
        before = problem_values(eval_record.read(r.first_eval))
        after = problem_values(records[str(r.folder)])
        per_run.append(
            {p: {m: after[p][m] - before[p][m] for m in METRICS} for p in before if p in after}
        )
    return [r.seed for r in had], per_run


def _check_protocols(experiment: Experiment, records: dict[str, dict[str, Any]]) -> None:
    """Every finished run's eval.json has the first one's protocol and problems (but for the
    fields allowed to differ); else a UserError naming the run and the fields."""
    (first_dir, first), *rest = records.items()
    for folder, record in rest:
        fields = eval_record.protocol_differences(first, record)
        refused = [f for f in fields if f not in experiment.allowed_differences]
        if refused:
            raise UserError(
                f"{folder} and {first_dir} were evaluated differently ({', '.join(refused)}); "
                "their results cannot be put in one table"
            )


def _per_problem(seeds: Sequence[int], runs: Sequence[Values]) -> dict[str, Any]:
    """The [runs, problems] arrays behind an arm's figures, for re-deriving them."""
    problems = shared_problems(runs)
    return {
        "seeds": list(seeds),
        "problems": problems,
        **{m: matrix(runs, problems, m).tolist() for m in METRICS},
    }


def _figures(
    planned_seeds: Sequence[int], done: dict[int, dict[str, Any]], resamples: int
) -> tuple[dict[str, Any], list[Values]]:
    """The figures of one row of a table from the eval.json records of its finished runs
    (seed -> record, in seed order): seeds, metrics with their intervals, the per-run and
    per-problem values behind them; and the per-run values for the comparisons."""
    seeds = list(done)
    values = [problem_values(record) for record in done.values()]
    figures = {
        "seeds": seeds,
        "missing_seeds": [s for s in planned_seeds if s not in done],
        "problems": len(shared_problems(values)),
        "metrics": arm_metrics(values, resamples) if values else None,
        "per_seed": {m: [r["metrics"][m]["value"] for r in done.values()] for m in METRICS},
        "per_problem": _per_problem(seeds, values),
    }
    return figures, values


def _arm_entry(
    arm: Arm, runs: Sequence[PlannedRun], records: dict[str, dict[str, Any]], resamples: int
) -> tuple[dict[str, Any], list[Values], list[Values]]:
    """One arm's part of results.json (all but the comparisons with the reference), the per-run
    values of its final evaluations and the per-run changes during training."""
    planned = [r for r in runs if r.arm.name == arm.name]
    mine = [r for r in planned if str(r.folder) in records]
    figures, values = _figures(
        [r.seed for r in planned], {r.seed: records[str(r.folder)] for r in mine}, resamples
    )
    changed_seeds, change = changes(mine, records)
    tokens = [tokens_generated(r.folder) for r in mine]
    entry = {
        "name": arm.name,
        "description": arm.description,
        "eval_only": arm.eval_only,
        **figures,
        "gain": compare(None, change, resamples) if change else None,
        "per_problem_change": _per_problem(changed_seeds, change) if change else None,
        "tokens": {"per_seed": tokens, "mean": sum(tokens) / len(tokens) if tokens else None},
        "planned_nodes": 0 if arm.eval_only or not planned else planned_nodes(planned[0].config),
        "runs": [
            {
                "seed": r.seed,
                "dir": str(r.folder),
                "eval": str(r.final_eval),
                "precision": None if arm.eval_only else learner_precision(r.folder),
            }
            for r in mine
        ],
    }
    return entry, values, change


def _final_section(
    experiment: Experiment, final: FinalEval, runs: Sequence[PlannedRun], resamples: int
) -> dict[str, Any]:
    """One final evaluation's part of results.json: a row per arm (with `each_agent`, per arm
    and agent alone) with the figures of its finished evaluations and, in `vs_reference`, the
    difference against the reference arm's row (with `each_agent`: its first agent's)."""
    planned = [p for r in runs for p in r.final_evals() if p.final == final]
    records = {str(p.folder): eval_record.read(p.eval_file) for p in planned if p.finished()}
    if records:
        _check_protocols(experiment, records)
    rows: list[dict[str, Any]] = []
    values: list[list[Values]] = []
    for arm in experiment.arms:
        mine = [p for p in planned if p.arm.name == arm.name]
        for agent in dict.fromkeys(p.agent for p in mine):  # the team's order
            group = [p for p in mine if p.agent == agent]
            done = [p for p in group if str(p.folder) in records]
            figures, own = _figures(
                [p.seed for p in group], {p.seed: records[str(p.folder)] for p in done}, resamples
            )
            finished = [
                {"seed": p.seed, "dir": str(p.run.folder), "eval": str(p.eval_file)} for p in done
            ]
            rows.append({"arm": arm.name, "agent": agent, **figures, "runs": finished})
            values.append(own)
    at = next((i for i, row in enumerate(rows) if row["arm"] == experiment.reference), None)
    reference = values[at] if at is not None else []
    for i, (row, own) in enumerate(zip(rows, values, strict=True)):
        row["vs_reference"] = (
            compare(reference, own, resamples) if reference and own and i != at else None
        )
    first = next(iter(records.values()), None)
    return {
        "name": final.name,
        "each_agent": final.each_agent,
        "set": list(final.overrides),
        "reference": {
            "arm": experiment.reference,
            "agent": rows[at]["agent"] if at is not None else None,
        },
        "protocol": first["protocol"] if first else None,
        "problems_checksum": first["problems_checksum"] if first else None,
        "rows": rows,
    }


def adjust(arms: Sequence[dict[str, Any]]) -> int:
    """Add `p_holm` beside every p-value of the comparisons (vs_reference, gain,
    gain_vs_reference) of the entries (arms, rows of the final evaluations): Holm's adjustment
    over all of them, one family per experiment. Returns the number of tests."""
    tested = [
        arm[key][m]
        for arm in arms
        for key in COMPARISONS
        if arm.get(key) is not None
        for m in METRICS
    ]
    for entry, adjusted in zip(tested, holm([t["p"] for t in tested]), strict=True):
        entry["p_holm"] = adjusted
    return sum(not math.isnan(t["p"]) for t in tested)


def collect(
    experiment: Experiment, runs: Sequence[PlannedRun], resamples: int | None = None
) -> dict[str, Any]:
    """The results.json object over the finished runs of `runs` (`resamples`: bootstrap
    resamples, default the first run's `eval.bootstrap`)."""
    if resamples is None:
        resamples = runs[0].config.eval.bootstrap if runs else RESAMPLES
    records = {str(r.folder): eval_record.read(r.final_eval) for r in runs if r.finished()}
    if records:
        _check_protocols(experiment, records)
    arms: list[dict[str, Any]] = []
    values: dict[str, list[Values]] = {}
    change: dict[str, list[Values]] = {}
    for arm in experiment.arms:
        entry, values[arm.name], change[arm.name] = _arm_entry(arm, runs, records, resamples)
        arms.append(entry)
    reference, reference_change = values[experiment.reference], change[experiment.reference]
    for entry in arms:
        own, changed = values[entry["name"]], change[entry["name"]]
        other = entry["name"] != experiment.reference
        entry["vs_reference"] = (
            compare(reference, own, resamples) if reference and own and other else None
        )
        comparable = reference_change and changed and other
        entry["gain_vs_reference"] = (
            compare(reference_change, changed, resamples, bound=2.0) if comparable else None
        )
    finals = [_final_section(experiment, f, runs, resamples) for f in experiment.final_evals]
    tests = adjust([*arms, *(row for section in finals for row in section["rows"])])
    first = next(iter(records.values()), None)
    return {
        "experiment": str(experiment.path),
        "quick": experiment.quick,
        "reference": experiment.reference,
        "seeds": list(experiment.seeds),
        "metrics": list(METRICS),
        "ci": {
            "level": LEVEL,
            "method": "with two or more runs per arm: t interval on the variance components of "
            "runs and problems (run-to-run variance included; Welch-Satterthwaite df), p: the "
            "t test of the same; `conditional` and arms with one run: percentile bootstrap over "
            "problems of the seed-averaged values, differences paired bootstrap and sign-flip "
            "p-value (conditional on these runs)",
            "resamples": resamples,
            "seed": BOOTSTRAP_SEED,
        },
        "holm": {
            "family": "every p-value of the experiment's tables, final evaluations included",
            "tests": tests,
        },
        "protocol": first["protocol"] if first else None,
        "problems_checksum": first["problems_checksum"] if first else None,
        "allowed_differences": list(experiment.allowed_differences),
        "arms": arms,
        "final_evals": finals,
    }
