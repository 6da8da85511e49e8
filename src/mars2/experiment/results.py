"""An experiment's table: per arm, Pass@1, Pass@1(MCTS) and Pass@N over seeds with 95% intervals,
the tokens generated in training, and the paired difference against the reference arm.

The unit is the problem. Per arm, each problem's value of a metric is averaged over the arm's
seeds (the final evaluation of each seed's run); the arm's figure is the mean of those over the
problems every seed evaluated, with a percentile-bootstrap 95% interval resampling problems. The
difference arm - reference pairs the two arms' seed-averaged values problem by problem over the
problems both have: paired-bootstrap 95% interval and sign-flip p-value (evaluation/stats.py).
Seed-to-seed variation enters through the per-problem averages; with 3 seeds it is not a separate
interval. For training runs that kept their step-0 evaluation, the change during training (final
- step 0, per problem, seed-averaged) is paired the same way, and so is its difference from the
reference arm's change. No torch.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mars2.errors import UserError
from mars2.evaluation import record as eval_record
from mars2.evaluation.stats import LEVEL, RESAMPLES, bootstrap_mean, paired_difference
from mars2.experiment.runner import PlannedRun, planned_nodes
from mars2.experiment.spec import Arm, Experiment

METRICS = ("pass@1", "pass@1_mcts", "pass@n")
LABELS = {"pass@1": "Pass@1", "pass@1_mcts": "Pass@1(MCTS)", "pass@n": "Pass@N"}
BOOTSTRAP_SEED = 0

Values = dict[str, dict[str, float]]  # problem id -> metric -> value


def tokens_generated(folder: Path) -> int:
    """Sum of `tokens/generated` over metrics.jsonl (the last line of a step counts: a resumed
    run may have logged a step twice)."""
    file = folder / "metrics.jsonl"
    if not file.is_file():
        return 0
    by_step: dict[int, float] = {}
    for line in file.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue  # a line cut by a kill
        if isinstance(data, dict) and "tokens/generated" in data:
            by_step[int(data["step"])] = float(data["tokens/generated"])
    return int(sum(by_step.values()))


def problem_values(record: dict[str, Any]) -> Values:
    """Each problem's Pass@1, Pass@1(MCTS), Pass@N in one evaluation."""
    return {o.problem_id: o.values([1]) for o in eval_record.outcomes_of(record)}


def seed_average(per_seed: Sequence[Values]) -> Values:
    """Per problem (those every seed evaluated, in the first seed's order), each metric's mean
    over the seeds."""
    if not per_seed:
        return {}
    shared = [p for p in per_seed[0] if all(p in values for values in per_seed)]
    return {
        p: {m: sum(values[p][m] for values in per_seed) / len(per_seed) for m in METRICS}
        for p in shared
    }


def arm_metrics(values: Values, resamples: int = RESAMPLES) -> dict[str, dict[str, float]]:
    """Each metric's mean over problems with its bootstrap 95% interval."""
    return {
        m: bootstrap_mean([v[m] for v in values.values()], resamples, BOOTSTRAP_SEED).to_json()
        for m in METRICS
    }


def paired(
    reference: Values, arm: Values, resamples: int = RESAMPLES
) -> dict[str, dict[str, float]]:
    """arm - reference per metric over the shared problems (reference order)."""
    shared = [p for p in reference if p in arm]
    return {
        m: paired_difference(
            [reference[p][m] for p in shared],
            [arm[p][m] for p in shared],
            resamples,
            BOOTSTRAP_SEED,
        ).to_json()
        for m in METRICS
    }


def gains(
    runs: Sequence[PlannedRun], records: dict[str, dict[str, Any]], resamples: int
) -> tuple[dict[str, Any] | None, Values]:
    """Over the finished training runs (final evaluations in `records`) that have a step-0
    evaluation: each metric's change from it to the final evaluation, paired per problem on the
    seed-averaged values (paired bootstrap, sign-flip p), and the per-problem changes themselves."""
    had = [r for r in runs if not r.arm.eval_only and r.first_eval.is_file()]
    if not had:
        return None, {}
    before = seed_average([problem_values(eval_record.read(r.first_eval)) for r in had])
    after = seed_average([problem_values(records[str(r.folder)]) for r in had])
    change = {p: {m: after[p][m] - before[p][m] for m in METRICS} for p in before if p in after}
    return paired(before, after, resamples), change


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


def _arm_entry(
    arm: Arm, runs: Sequence[PlannedRun], records: dict[str, dict[str, Any]], resamples: int
) -> tuple[dict[str, Any], Values, Values]:
    """One arm's part of results.json (all but the comparisons with the reference), its
    seed-averaged values and their per-problem changes during training."""
    planned = [r for r in runs if r.arm.name == arm.name]
    mine = [r for r in planned if str(r.folder) in records]
    seeds = [r.seed for r in mine]
    values = seed_average([problem_values(records[str(r.folder)]) for r in mine])
    gain, change = gains(mine, records, resamples)
    tokens = [tokens_generated(r.folder) for r in mine]
    entry = {
        "name": arm.name,
        "description": arm.description,
        "eval_only": arm.eval_only,
        "seeds": seeds,
        "missing_seeds": [r.seed for r in planned if r.seed not in seeds],
        "problems": len(values),
        "metrics": arm_metrics(values, resamples) if mine else None,
        "gain": gain,
        "per_seed": {
            m: [records[str(r.folder)]["metrics"][m]["value"] for r in mine] for m in METRICS
        },
        "tokens": {"per_seed": tokens, "mean": sum(tokens) / len(tokens) if tokens else None},
        "planned_nodes": 0 if arm.eval_only or not planned else planned_nodes(planned[0].config),
        "runs": [{"seed": r.seed, "dir": str(r.folder), "eval": str(r.final_eval)} for r in mine],
    }
    return entry, values, change


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
    values: dict[str, Values] = {}
    changes: dict[str, Values] = {}
    for arm in experiment.arms:
        entry, values[arm.name], changes[arm.name] = _arm_entry(arm, runs, records, resamples)
        arms.append(entry)
    reference, reference_change = values[experiment.reference], changes[experiment.reference]
    for entry in arms:
        own, change = values[entry["name"]], changes[entry["name"]]
        other = entry["name"] != experiment.reference
        entry["vs_reference"] = (
            paired(reference, own, resamples) if reference and own and other else None
        )
        comparable = reference_change and change and other
        entry["gain_vs_reference"] = (
            paired(reference_change, change, resamples) if comparable else None
        )
    first = next(iter(records.values()), None)
    return {
        "experiment": str(experiment.path),
        "quick": experiment.quick,
        "reference": experiment.reference,
        "seeds": list(experiment.seeds),
        "metrics": list(METRICS),
        "ci": {
            "level": LEVEL,
            "method": "percentile bootstrap over problems of the seed-averaged per-problem values; "
            "differences: paired bootstrap and sign-flip p-value",
            "resamples": resamples,
            "seed": BOOTSTRAP_SEED,
        },
        "protocol": first["protocol"] if first else None,
        "problems_checksum": first["problems_checksum"] if first else None,
        "allowed_differences": list(experiment.allowed_differences),
        "arms": arms,
    }


def _interval(m: dict[str, float] | None) -> str:
    if m is None:
        return "—"
    return eval_record.interval(m["value"], m["lo"], m["hi"])


def _difference(d: dict[str, float] | None) -> str:
    if d is None or math.isnan(d["diff"]):
        return "—"
    return f"{d['diff']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}] p={d['p']:.3f}"


def _tokens(arm: dict[str, Any]) -> str:
    mean = arm["tokens"]["mean"]
    if arm["eval_only"] or mean is None:
        return "—"
    return f"{mean:,.0f} ({arm['planned_nodes']} nodes)"


def metric_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The metrics table as text: header and one row per arm."""
    head = [
        "arm",
        "seeds",
        "problems",
        *(f"{LABELS[m]} [95% CI]" for m in METRICS),
        "train tokens/seed (planned nodes)",
    ]
    body = []
    for arm in results["arms"]:
        seeds = f"{len(arm['seeds'])}/{len(arm['seeds']) + len(arm['missing_seeds'])}"
        metrics = arm["metrics"] or {}
        body.append(
            [
                arm["name"],
                seeds,
                str(arm["problems"]),
                *(_interval(metrics.get(m)) for m in METRICS),
                _tokens(arm),
            ]
        )
    return head, body


def difference_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The paired differences against the reference as text: header and one row per other arm."""
    head = ["arm", *(f"Δ {LABELS[m]} [95% CI], p" for m in METRICS)]
    body = []
    for arm in results["arms"]:
        if arm["name"] == results["reference"]:
            continue
        diffs = arm["vs_reference"]
        body.append([arm["name"], *(_difference(diffs[m] if diffs else None) for m in METRICS)])
    return head, body


def gain_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Each training arm's change from its step-0 to its final evaluation, and that change minus
    the reference arm's, as text."""
    reference = results["reference"]
    head = [
        "arm",
        *(f"{LABELS[m]} last − first" for m in METRICS),
        *(f"Δ vs {reference}'s change ({LABELS[m]})" for m in METRICS),
    ]
    body = []
    for arm in results["arms"]:
        if arm.get("gain") is None:
            continue
        versus = arm.get("gain_vs_reference")
        body.append(
            [
                arm["name"],
                *(_difference(arm["gain"][m]) for m in METRICS),
                *(_difference(versus[m] if versus else None) for m in METRICS),
            ]
        )
    return head, body


def _markdown_table(head: list[str], body: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(head) + " |",
        "| " + " | ".join("---" for _ in head) + " |",
        *("| " + " | ".join(r) + " |" for r in body),
    ]


def markdown(results: dict[str, Any]) -> str:
    """results.md: the table and how to read it."""
    title = Path(results["experiment"]).name + (" (--quick)" if results["quick"] else "")
    lines = [
        f"# Experiment {title}",
        "",
        *_markdown_table(*metric_rows(results)),
        "",
        f"Paired differences against the reference arm, {results['reference']}:",
        "",
        *_markdown_table(*difference_rows(results)),
        "",
        f"Each figure: the mean over problems of the per-problem value averaged over the seeds, "
        f"with a {results['ci']['level']:.0%} percentile-bootstrap interval over problems "
        f"({results['ci']['resamples']} resamples). Δ: arm − {results['reference']} paired over "
        "the shared problems, paired-bootstrap interval and sign-flip p-value. Tokens: "
        "`tokens/generated` summed over training, mean per seed, beside the nodes the config "
        "plans (steps × problems per step × tree budget or GRPO group size).",
    ]
    head, body = gain_rows(results)
    if body:
        lines += [
            "",
            "Change during training: per problem, the final evaluation minus the step-0 one "
            "(both averaged over the seeds), paired bootstrap and sign-flip p-value; then that "
            f"change minus {results['reference']}'s, per problem. Unlike the Δ above it does not "
            "depend on where an arm starts (a team with another model starts elsewhere).",
            "",
            *_markdown_table(head, body),
        ]
    if results["allowed_differences"]:
        lines.append(
            "\nThe arms' evaluation protocols may differ in: "
            + ", ".join(results["allowed_differences"])
            + " (allowed by the experiment file)."
        )
    missing = [
        f"{a['name']} seeds {a['missing_seeds']}" for a in results["arms"] if a["missing_seeds"]
    ]
    if missing:
        lines.append("\nNot finished yet: " + "; ".join(missing) + ".")
    return "\n".join(lines) + "\n"


def write(results: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """OUT/results.json and OUT/results.md."""
    out.mkdir(parents=True, exist_ok=True)
    json_file, md_file = out / "results.json", out / "results.md"
    json_file.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    md_file.write_text(markdown(results), encoding="utf-8")
    return json_file, md_file
