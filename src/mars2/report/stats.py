"""Numbers a report shows: per-agent and per-tree statistics from the trees, evaluations with
their 95% intervals, and run comparisons (paired over problems where two evaluations share a
protocol)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from mars2.errors import UserError
from mars2.evaluation import record as eval_record
from mars2.report.runs import Run, Tree

# Headline summary keys, shown first and in this order when present.
HEADLINE = ("algo", "n_problems", "budget", "pass@1", "pass@1_mcts", "pass@n")


@dataclass(frozen=True)
class AgentStats:
    """What one agent did across a run's trees."""

    agent_id: int
    name: str
    nodes: int
    share: float  # of all nodes
    mean_score: float
    pass_rate: float  # fraction of its nodes that pass the hidden tests
    wins: int  # trees whose Pass@1(MCTS) pick it wrote
    solved: int  # trees where it wrote at least one passing node
    refinements: int  # its nodes that refine another node
    refine_gain: float  # mean (score - parent score) over its refinements; nan if none
    mean_response_len: float

    def row(self) -> dict[str, Any]:
        return {
            "agent": self.name,
            "nodes": self.nodes,
            "share": self.share,
            "mean score": self.mean_score,
            "pass rate": self.pass_rate,
            "wins": self.wins,
            "trees solved": self.solved,
            "refinements": self.refinements,
            "refine gain": self.refine_gain,
            "mean response len": self.mean_response_len,
        }


def agent_stats(run: Run) -> list[AgentStats]:
    """One entry per agent of the config or of any tree (agents with no nodes get zeros)."""
    total = sum(len(t.nodes) for t in run.trees)
    winners = [best.agent_id for t in run.trees if (best := t.best()) is not None]
    out = []
    for agent_id in run.agent_ids():
        mine = [n for t in run.trees for n in t.nodes if n.agent_id == agent_id]
        gains = []
        for tree in run.trees:
            score = {n.node_id: n.score for n in tree.nodes}
            gains += [
                n.score - score[n.parent_id]
                for n in tree.nodes
                if n.agent_id == agent_id and n.parent_id is not None
            ]
        solved = sum(any(n.passed and n.agent_id == agent_id for n in t.nodes) for t in run.trees)
        out.append(
            AgentStats(
                agent_id=agent_id,
                name=run.agent_name(agent_id),
                nodes=len(mine),
                share=len(mine) / total if total else 0.0,
                mean_score=_mean([n.score for n in mine]),
                pass_rate=_mean([float(n.passed) for n in mine]),
                wins=winners.count(agent_id),
                solved=solved,
                refinements=len(gains),
                refine_gain=_mean(gains),
                mean_response_len=_mean([float(n.response_len) for n in mine]),
            )
        )
    return out


def tree_shape(tree: Tree) -> tuple[int, float]:
    """(max depth, mean children per expanded node, the root included)."""
    children = tree.children()
    depth = max((n.depth for n in tree.nodes), default=0)
    return depth, _mean([float(len(kids)) for kids in children.values()])


def tree_summary(trees: Sequence[Tree]) -> dict[str, float]:
    """Counts, shape and the tree-derived pass rates of docs/search.md, "Metrics" (hidden-test `passed`)."""
    if not trees:
        return {}
    shapes = [tree_shape(t) for t in trees]
    picks = [t.best() for t in trees]
    return {
        "trees": float(len(trees)),
        "nodes per tree": fmean(len(t.nodes) for t in trees),
        "max depth": fmean(d for d, _ in shapes),
        "branching": _mean([b for _, b in shapes]),
        "best score": fmean(p.score for p in picks if p is not None),
        "pass@1_mcts (trees)": fmean(float(p is not None and p.passed) for p in picks),
        "pass@n (trees)": fmean(float(any(n.passed for n in t.nodes)) for t in trees),
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


def _mean(values: Sequence[float]) -> float:
    return fmean(values) if values else math.nan


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
