"""Numbers a report shows: per-agent and per-tree statistics from the trees (counted by
`mars2.treesearch.metrics`), evaluations with their 95% intervals, and run comparisons (paired
over problems where two evaluations share a protocol)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mars2.errors import UserError
from mars2.evaluation import record as eval_record
from mars2.report.runs import Run, Tree
from mars2.treesearch.metrics import agent_stats, summarize

# Headline summary keys, shown first and in this order when present.
HEADLINE = ("algo", "n_problems", "budget", "pass@1", "pass@1_mcts", "pass@n")


def agent_rows(run: Run) -> list[dict[str, Any]]:
    """Per agent that wrote a node of the run's trees: what it did (`treesearch.metrics`)."""
    return [
        {
            "agent": run.agent_name(a.agent_id),
            "nodes": a.nodes,
            "share": a.share,
            "mean score": a.mean_score,
            "pass rate": a.pass_rate,
            "wins": a.wins,
            "trees solved": a.solved,
            "refinements": a.refinements,
            "refine gain": a.refine_gain,
            "mean response len": a.mean_response_len,
        }
        for a in agent_stats([t.nodes for t in run.trees], run.agent_ids())
        if a.nodes
    ]


def tree_summary(trees: Sequence[Tree]) -> dict[str, float]:
    """Counts, shape and the tree-derived pass rates (`treesearch.metrics`: hidden-test
    `passed`, the Pass@1(MCTS) pick)."""
    if not trees:
        return {}
    s = summarize([t.nodes for t in trees], agent_ids=())
    return {
        "trees": float(s.trees),
        "nodes per tree": s.mean_nodes,
        "max depth": s.mean_max_depth,
        "branching": s.mean_branching,
        "best score": math.nan if s.mean_best_score is None else s.mean_best_score,
        "pass@1_mcts (trees)": s.pass_at_1_mcts,
        "pass@n (trees)": s.pass_at_n,
    }


def summary_scalars(summary: dict[str, Any] | None) -> dict[str, Any]:
    """Top-level scalars of metrics.json, headline keys first; nested values are left out."""
    if not summary:
        return {}
    scalars = {
        k: v for k, v in summary.items() if isinstance(v, str | int | float | bool) or v is None
    }
    ordered = {k: scalars[k] for k in HEADLINE if k in scalars}
    ordered.update({k: v for k, v in sorted(scalars.items()) if k not in ordered})
    return ordered


def summary_agents(summary: dict[str, Any] | None) -> list[dict[str, Any]]:
    """metrics.json's per-agent mapping as rows ({"agent": name, ...scalar fields})."""
    agents = (summary or {}).get("agents")
    if not isinstance(agents, dict):
        return []
    rows = []
    for name, fields in agents.items():
        row: dict[str, Any] = {"agent": str(name)}
        if isinstance(fields, dict):
            row.update({k: v for k, v in fields.items() if isinstance(v, str | int | float | bool)})
        rows.append(row)
    return rows


def last_values(run: Run, prefix: str = "eval/") -> dict[str, float]:
    """The last logged value of each metrics.jsonl key starting with `prefix`."""
    out: dict[str, float] = {}
    for row in run.steps:
        out.update({k: v for k, v in row.items() if k.startswith(prefix)})
    return dict(sorted(out.items()))


def comparison(runs: Sequence[Run]) -> tuple[list[str], list[dict[str, Any]]]:
    """(columns, one row per run): summary scalars, last eval values, steps and tree pass rates.
    A column appears when any run has it."""
    rows: list[dict[str, Any]] = []
    for run in runs:
        row: dict[str, Any] = {"run": run.name, "agents": ", ".join(run.agent_names)}
        row.update(summary_scalars(run.summary))
        if run.steps:
            row["steps"] = int(max(r["step"] for r in run.steps))
            row.update({f"final {k}": v for k, v in last_values(run).items()})
            if "time_s" in run.steps[-1]:
                row["time_s"] = run.steps[-1]["time_s"]
        trees = tree_summary(run.trees)
        for key in ("trees", "pass@1_mcts (trees)", "pass@n (trees)"):
            if key in trees:
                row[key] = int(trees[key]) if key == "trees" else trees[key]
        rows.append(row)
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    return sorted(columns, key=lambda c: (_column_rank(c), columns.index(c))), rows


def _column_rank(column: str) -> int:
    """Identity, then pass rates (summary, last eval, trees), then sizes, then the rest."""
    if column in ("run", "agents", "algo", "n_problems", "budget"):
        return 0
    if column in HEADLINE:
        return 1
    if column.startswith("final eval/"):
        return 2
    if column.endswith("(trees)"):
        return 3
    return 4 if column in ("steps", "trees") else 5


def config_differences(runs: Sequence[Run]) -> list[tuple[str, list[str]]]:
    """(dotted key, value per run) for every config leaf that differs between runs."""
    flat = [_flatten(r.config) for r in runs]
    keys = sorted({k for f in flat for k in f})
    missing = "—"
    return [
        (k, [f.get(k, missing) for f in flat])
        for k in keys
        if len({f.get(k, missing) for f in flat}) > 1
    ]


def _flatten(data: Any, prefix: str = "") -> dict[str, str]:
    if isinstance(data, dict):
        out: dict[str, str] = {}
        for key, value in data.items():
            out.update(_flatten(value, f"{prefix}{key}."))
        return out
    if isinstance(data, list) and any(isinstance(v, dict) for v in data):
        out = {}
        for i, value in enumerate(data):
            out.update(_flatten(value, f"{prefix}{i}."))
        return out
    return {prefix.rstrip("."): repr(data) if not isinstance(data, str) else data}


def eval_rows(run: Run) -> list[dict[str, Any]]:
    """One row per evaluation of the run: its label, size, search and every metric as
    `value [lo, hi]` (the bootstrap 95% interval over problems)."""
    rows = []
    for label, rec in run.evals:
        proto = rec.get("protocol", {})
        search = proto.get("search", {})
        row: dict[str, Any] = {
            "evaluation": label,
            "team": ", ".join(str(m.get("name")) for m in rec.get("team", [])),
            "problems": len(rec.get("per_problem", [])),
            "samples": proto.get("samples"),
            "search": f"{search.get('algo', '?')} x{search.get('budget', '?')}",
        }
        for name, m in rec.get("metrics", {}).items():
            row[name] = eval_record.interval(m["value"], m["lo"], m["hi"])
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Pairing:
    """A paired comparison B - A of two evaluations, or why there is none (`note`)."""

    title: str
    rows: list[dict[str, Any]]
    note: str = ""


def pairing(title: str, a: dict[str, Any], b: dict[str, Any]) -> Pairing:
    """Rows of metric, A, B, B - A with its paired-bootstrap 95% interval and sign-flip p."""
    try:
        diffs = eval_record.compare(a, b)
    except UserError as err:
        return Pairing(title, [], str(err))
    rows = [
        {
            "metric": name,
            "A": a["metrics"][name]["value"],
            "B": b["metrics"][name]["value"],
            "B - A": d.value,
            "95% CI": f"[{d.lo:+.3f}, {d.hi:+.3f}]",
            "p": d.p_value,
            "problems": d.n,
        }
        for name, d in diffs.items()
    ]
    return Pairing(title, rows)


def pairings(runs: Sequence[Run]) -> list[Pairing]:
    """Each run's first vs last team evaluation (before vs after training), and the first run's
    latest team evaluation vs every other run's."""
    out = []
    for run in runs:
        evals = run.team_evals()
        if len(evals) >= 2:
            (la, a), (lb, b) = evals[0], evals[-1]
            out.append(pairing(f"{run.name}: A = {la}, B = {lb}", a, b))
    latest = [(run, run.team_evals()[-1]) for run in runs if run.team_evals()]
    if len(latest) >= 2:
        (first, (la, a)) = latest[0]
        for run, (lb, b) in latest[1:]:
            out.append(pairing(f"A = {first.name} {la}, B = {run.name} {lb}", a, b))
    return out
