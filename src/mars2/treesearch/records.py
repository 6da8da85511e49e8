"""Trees to and from `trees/*.jsonl` node records (docs/training.md, "Run directory"): export a finished tree, or
rebuild a search state from recorded nodes (resume, analysis, replays)."""

from __future__ import annotations

from collections.abc import Iterable

from mars2.treesearch.base import Algorithm
from mars2.treesearch.tree import NodePayload, TreeState
from mars2.types import NodeRecord


def to_records(state: TreeState, tree_id: str, problem_id: str) -> list[NodeRecord]:
    """One record per told node, in creation order; the one place a finished tree becomes
    records. Their `reward` is 0.0: the caller sets it by the reward rule (`credit.rewarded`)."""
    records = []
    for node in state.nodes.values():
        payload = node.payload or NodePayload()
        score = node.score if node.score is not None else 0.0
        passed = bool(payload.passed)
        fraction = payload.pass_fraction if payload.pass_fraction is not None else float(passed)
        completion = payload.completion
        records.append(
            NodeRecord(
                tree_id=tree_id,
                problem_id=problem_id,
                node_id=node.id,
                parent_id=node.parent_id,
                depth=node.depth,
                agent_id=node.agent_id,
                score=score,
                reward=0.0,
                passed=passed,
                response_len=completion.response_len if completion is not None else 0,
                code=payload.code,
                feedback=payload.feedback,
                pass_fraction=fraction,
                truncated=completion is not None and completion.finish_reason == "length",
                copy_of=node.copy_of,
            )
        )
    return records


def from_records(algo: Algorithm, records: Iterable[NodeRecord], seed: int) -> TreeState:
    """A search state holding the recorded nodes (parents before children, ids renumbered in
    order), ready to continue the search with `algo`."""
    state = algo.init_tree(seed)
    new_id: dict[int, int] = {}
    for record in records:
        if record.parent_id is not None and record.parent_id not in new_id:
            raise ValueError(
                f"tree {record.tree_id!r}: node {record.node_id} comes before its parent "
                f"{record.parent_id}"
            )
        parent = None if record.parent_id is None else new_id[record.parent_id]
        trial = algo.add_trial(state, parent, record.agent_id)
        payload = NodePayload(
            code=record.code,
            feedback=record.feedback,
            passed=record.passed,
            pass_fraction=record.pass_fraction,
        )
        algo.tell(state, trial, record.score, payload, copy=record.copy_of is not None)
        new_id[record.node_id] = trial.node_id
    return state
