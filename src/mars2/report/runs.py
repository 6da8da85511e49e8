"""Read a run directory (its layout: mars2.rundir): config.yaml, metrics.jsonl, metrics.json,
trees/*.jsonl and its evaluations (eval.json, evals/step_*/eval.json).

Everything a report shows comes from these files; a missing or corrupt one raises `UserError`
naming the file (and the line, for JSONL: mars2.jsonl's rule, a cut last line is skipped).
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mars2 import jsonl
from mars2.config import load_config, load_yaml, to_dict
from mars2.credit.records import check_node_record
from mars2.errors import UserError
from mars2.evaluation import record as eval_record
from mars2.rundir import RunDir
from mars2.types import NodeRecord

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Tree:
    """One search tree: the nodes of one `tree_id` in one trees/*.jsonl file, in file order."""

    key: str  # "<file stem>/<tree_id>", unique within a run
    source: str  # the file stem, e.g. "search" or "step_000003"
    tree_id: str
    problem_id: str
    nodes: tuple[NodeRecord, ...]

    def children(self) -> dict[int | None, list[NodeRecord]]:
        """Children of each node id (None = the root), sorted by node id."""
        out: dict[int | None, list[NodeRecord]] = {}
        for node in self.nodes:
            out.setdefault(node.parent_id, []).append(node)
        for kids in out.values():
            kids.sort(key=lambda n: n.node_id)
        return out


@dataclass(frozen=True)
class Run:
    """Everything read from one run directory."""

    path: Path
    name: str
    config: dict[str, Any]  # the resolved config as plain data
    agent_names: tuple[str, ...]
    steps: tuple[dict[str, float], ...]  # metrics.jsonl: numeric values per step
    summary: dict[str, Any] | None  # metrics.json
    trees: tuple[Tree, ...]
    # (label, eval.json object): eval.json first, then evals/step_*/eval.json by step
    evals: tuple[tuple[str, dict[str, Any]], ...] = ()

    def team_evals(self) -> list[tuple[str, dict[str, Any]]]:
        """Evaluations of the whole team (not of one agent alone), oldest step first."""
        return [(label, rec) for label, rec in self.evals if label.rsplit("/", 1)[-1] == "eval"]

    def agent_name(self, agent_id: int) -> str:
        if 0 <= agent_id < len(self.agent_names):
            return self.agent_names[agent_id]
        return f"agent{agent_id}"

    def agent_ids(self) -> list[int]:
        """Every agent id in the config or in any tree, sorted."""
        seen = set(range(len(self.agent_names)))
        seen.update(n.agent_id for t in self.trees for n in t.nodes)
        return sorted(seen)


def load_run(path: str | Path, name: str | None = None) -> Run:
    """Read run directory `path`. Needs config.yaml and at least one of metrics.jsonl,
    metrics.json or trees/*.jsonl."""
    root = Path(path)
    if not root.is_dir():
        raise UserError(f"run directory not found: {root}")
    run = RunDir(root)
    config, agent_names = _read_config(run.config)
    steps_file, summary_file = run.metrics, run.summary
    tree_files = run.tree_files()
    eval_files = run.eval_files()
    if not (steps_file.is_file() or summary_file.is_file() or tree_files or eval_files):
        raise UserError(
            f"{root}: nothing to report: no metrics.jsonl, metrics.json or trees/*.jsonl"
        )
    return Run(
        path=root,
        name=name or root.resolve().name,
        config=config,
        agent_names=agent_names,
        steps=tuple(read_steps(steps_file)) if steps_file.is_file() else (),
        summary=read_summary(summary_file) if summary_file.is_file() else None,
        trees=tuple(t for f in tree_files for t in read_trees(f)),
        evals=tuple(
            (str(f.relative_to(root).with_suffix("")), eval_record.read(f)) for f in eval_files
        ),
    )


def _read_config(file: Path) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The resolved config and the agent names. A config that no longer validates (written by
    another mars2 version) is shown as written, with a warning."""
    if not file.is_file():
        raise UserError(f"{file}: missing (every mars2 run writes one; is this a run directory?)")
    raw = load_yaml(file)
    try:
        config = load_config(file)
    except UserError as err:  # includes ConfigError
        log.warning("%s does not validate against this mars2 version: %s", file, err)
        agents = raw.get("agents")
        listed = agents if isinstance(agents, list) and agents else [{}]
        names = tuple(
            str(a.get("name") or f"agent{i}") if isinstance(a, dict) else f"agent{i}"
            for i, a in enumerate(listed)
        )
        return raw, names
    names = tuple(config.agent_names)
    return to_dict(config), names


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise UserError(f"{file}: not UTF-8 text ({err.reason})") from None
    except OSError as err:
        raise UserError(f"{file}: cannot read ({err.strerror})") from None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_steps(file: Path) -> list[dict[str, float]]:
    """metrics.jsonl: the numeric values of each line (others are ignored), each with `step`."""
    rows: list[dict[str, float]] = []
    for number, record in jsonl.read(file):
        step = record.get("step")
        if not _is_number(step):
            raise UserError(f"{file}:{number}: field 'step' should be a number, got {step!r}")
        rows.append(
            {k: float(v) for k, v in record.items() if _is_number(v) and math.isfinite(float(v))}
        )
    return rows


def read_summary(file: Path) -> dict[str, Any]:
    """metrics.json: one JSON object."""
    try:
        data = json.loads(_read_text(file))
    except json.JSONDecodeError as err:
        raise UserError(f"{file}:{err.lineno}: not valid JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise UserError(f"{file}: expected a JSON object, got {type(data).__name__}")
    return data


def read_trees(file: Path) -> list[Tree]:
    """The trees of one trees/*.jsonl file, in order of first appearance; parents must exist."""
    nodes: dict[str, list[tuple[int, NodeRecord]]] = {}
    for number, record in jsonl.read(file):
        node = check_node_record(record, f"{file}:{number}")
        nodes.setdefault(node.tree_id, []).append((number, node))
    trees = []
    for tree_id, items in nodes.items():
        ids: set[int] = set()
        for number, node in items:
            if node.node_id in ids:
                raise UserError(
                    f"{file}:{number}: node_id {node.node_id} repeats in tree {tree_id}"
                )
            ids.add(node.node_id)
        for number, node in items:
            if node.parent_id is not None and node.parent_id not in ids:
                raise UserError(
                    f"{file}:{number}: parent_id {node.parent_id} is not a node of tree {tree_id}"
                )
        trees.append(
            Tree(
                key=f"{file.stem}/{tree_id}",
                source=file.stem,
                tree_id=tree_id,
                problem_id=items[0][1].problem_id,
                nodes=tuple(n for _, n in items),
            )
        )
    return trees
