"""`eval.json`, the record of one evaluation, and the paired comparison of two of them.

An eval.json holds: `label`, `protocol` (evaluation/protocol.py), `seed`, `problems_checksum`,
`team` (agents with their weights' checksums), `ci` (how the intervals were computed),
`metrics` ({name: {value, lo, hi, n}}), `trees` (how the trees grew) and `per_problem`
(evaluation/outcomes.py), so two evaluations of the same protocol can be paired problem by
problem. No torch.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mars2.errors import UserError
from mars2.evaluation.outcomes import ProblemOutcome, metrics, tree_figures
from mars2.evaluation.protocol import differing_fields
from mars2.evaluation.stats import LEVEL, RESAMPLES, Difference, paired_difference
from mars2.rundir import RunDir

VERSION = 1
BOOTSTRAP_SEED = 0


def build(
    *,
    label: str,
    proto: dict[str, Any],
    seed: int,
    problems_checksum: str,
    members: Sequence[dict[str, Any]],
    outcomes: Sequence[ProblemOutcome],
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """The eval.json object of one evaluation."""
    estimates = metrics(outcomes, resamples, BOOTSTRAP_SEED)
    return {
        "version": VERSION,
        "label": label,
        "protocol": proto,
        "seed": seed,
        "problems_checksum": problems_checksum,
        "team": list(members),
        "ci": {
            "level": LEVEL,
            "method": "percentile bootstrap over problems",
            "resamples": resamples,
            "seed": BOOTSTRAP_SEED,
        },
        "metrics": {name: e.to_json() for name, e in estimates.items()},
        "trees": tree_figures(outcomes),
        "per_problem": [o.to_json() for o in outcomes],
    }


def flat(record: dict[str, Any], prefix: str = "eval/") -> dict[str, float]:
    """`{prefix}pass@1`, `{prefix}pass@1_lo`, `{prefix}pass@1_hi`, ... for metrics.jsonl."""
    out: dict[str, float] = {}
    for name, m in record["metrics"].items():
        out[f"{prefix}{name}"] = m["value"]
        out[f"{prefix}{name}_lo"] = m["lo"]
        out[f"{prefix}{name}_hi"] = m["hi"]
    return out


def interval(value: float, lo: float, hi: float) -> str:
    """`0.250 [0.100, 0.400]`; a dash for NaN."""
    if any(math.isnan(x) for x in (value, lo, hi)):
        return "—"
    return f"{value:.3f} [{lo:.3f}, {hi:.3f}]"


def write(path: Path, record: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    tmp.replace(path)
    return path


def read(path: Path) -> dict[str, Any]:
    """An eval.json, checked for the fields a comparison needs."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise UserError(f"{path}: cannot read ({err.strerror})") from None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}:{err.lineno}: not valid JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a JSON object")
    for key in ("protocol", "problems_checksum", "metrics", "per_problem"):
        if key not in data:
            raise UserError(f"{path}: field '{key}' missing; is it an eval.json of mars2?")
    return data


def find(path: str | Path) -> Path:
    """The eval.json a path names: the file itself, DIR/eval.json, or the latest in-training
    evaluation DIR/evals/step_*/eval.json of a training run."""
    target = Path(path)
    if target.is_file():
        return target
    if not target.is_dir():
        raise UserError(f"{target}: no such file or directory")
    run = RunDir(target)
    if run.eval_json().is_file():
        return run.eval_json()
    steps = run.step_evals()
    if steps:
        return steps[-1]
    raise UserError(
        f"{target}: no eval.json there (nor in evals/ of a training run); run `mars2 eval` first"
    )


def outcomes_of(record: dict[str, Any]) -> list[ProblemOutcome]:
    return [ProblemOutcome.from_json(p) for p in record["per_problem"]]


def protocol_differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Fields (dotted) where the two evaluations' protocols or problem sets differ."""
    fields = differing_fields(a["protocol"], b["protocol"])
    if a["problems_checksum"] != b["problems_checksum"]:
        fields.append("problems_checksum")
    return fields


def compare(
    a: dict[str, Any], b: dict[str, Any], resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, Difference]:
    """B - A for every metric both report, paired over the problems both evaluated (in A's
    order). Raises UserError naming the fields when the protocols differ."""
    fields = protocol_differences(a, b)
    if fields:
        raise UserError(
            "the two evaluations do not share a protocol; they differ in "
            + ", ".join(fields)
            + " (evaluate both with the same eval.* settings)"
        )
    first = {o.problem_id: o for o in outcomes_of(a)}
    second = {o.problem_id: o for o in outcomes_of(b)}
    shared = [pid for pid in first if pid in second]
    if not shared:
        raise UserError("the two evaluations have no problem in common; nothing to pair")
    names = [n for n in a["metrics"] if n in b["metrics"]]
    ks = [int(n.split("@")[1]) for n in names if n.split("@")[1].isdigit()]
    left = [first[p].values(ks) for p in shared]
    right = [second[p].values(ks) for p in shared]
    return {
        name: paired_difference([v[name] for v in left], [v[name] for v in right], resamples, seed)
        for name in names
    }
