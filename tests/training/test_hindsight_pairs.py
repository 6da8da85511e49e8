"""Hindsight repair pairs: the refinement prompt each agent would get, deduplicated, training
problems only; read from run directories and written to pairs.jsonl."""

from __future__ import annotations

from pathlib import Path

import pytest

from mars2 import jsonl
from mars2.agents.prompts import refine_messages
from mars2.config import AgentConfig
from mars2.credit.hindsight import repair_cases
from mars2.errors import UserError
from mars2.training.hindsight import (
    answer_text,
    build_pairs,
    for_agents,
    read_pairs,
    read_trees,
    step_pairs,
    write_pairs,
)
from mars2.types import NodeRecord, Problem, TestCase

PROBLEM = Problem(
    id="inc",
    statement="Return x + 1.",
    test_style="functional",
    public_tests=(TestCase(input=[1], output=2),),
    private_tests=(TestCase(input=[5], output=6),),
    starter_code="def inc(x):\n",
    fn_name="inc",
    split="train",
)
PROBLEMS = {PROBLEM.id: PROBLEM}
AGENTS = [AgentConfig(name="coder", role="coder"), AgentConfig(name="debugger", role="debugger")]


def rec(node_id: int, code: str, passed: bool, tree: str = "t", **kw: object) -> NodeRecord:
    fields: dict = dict(
        tree_id=tree,
        problem_id="inc",
        node_id=node_id,
        parent_id=None,
        depth=1,
        agent_id=0,
        score=1.0 if passed else 0.0,
        reward=float(passed),
        passed=passed,
        code=code,
        feedback="" if passed else "inc(1): expected 2, got 1",
    )
    return NodeRecord(**{**fields, **kw})


TREE = [
    rec(0, "def inc(x):\n    return x\n", False),
    rec(1, "def inc(x):\n    return x + 1\n", True, parent_id=0, depth=2),
    rec(2, "def inc(x):\n    return 1 + x\n", True),
]


def test_a_pair_is_the_agents_refinement_prompt_and_the_closest_passing_program() -> None:
    pairs = step_pairs(TREE, PROBLEMS, AGENTS, split="train")
    assert [(p.agent, p.node_id, p.target_node_id) for p in pairs] == [
        ("coder", 0, 1),
        ("debugger", 0, 1),
    ]
    coder, debugger = pairs
    # exactly what the orchestrator asks a refining agent of that role
    assert list(coder.messages) == refine_messages(
        PROBLEM, TREE[0].code, TREE[0].feedback, "coder", None, passes_public=False
    )
    assert list(debugger.messages) == refine_messages(
        PROBLEM, TREE[0].code, TREE[0].feedback, "debugger", None, passes_public=False
    )
    assert "inc(1): expected 2, got 1" in coder.messages[-1]["content"]
    assert coder.target == "```python\ndef inc(x):\n    return x + 1\n```"


def test_a_public_only_pass_gets_the_passing_parent_prompt() -> None:
    gamed = rec(0, "def inc(x):\n    return 2\n", False, score=1.0, feedback="")
    (pair,) = step_pairs([gamed, TREE[1]], PROBLEMS, AGENTS[:1], split="train")
    assert list(pair.messages) == refine_messages(
        PROBLEM, gamed.code, "", "coder", None, passes_public=True
    )
    assert "passes the public tests" in pair.messages[-1]["content"]


def test_same_prompt_and_target_once() -> None:
    twice = [*TREE, rec(3, TREE[0].code, False)]  # the same failed program again
    other_tree = [rec(0, TREE[0].code, False, tree="u"), rec(1, TREE[1].code, True, tree="u")]
    pairs = step_pairs([*twice, *other_tree], PROBLEMS, AGENTS[:1], split="train")
    assert len(pairs) == 1
    # two agents of one role on one set of weights: one pair for that learner
    same_role = [AgentConfig(name="a", role="coder"), AgentConfig(name="b", role="coder")]
    both = step_pairs(TREE, PROBLEMS, same_role, split="train")
    assert len(both) == 2 and len(for_agents(both, {"a", "b"})) == 1
    assert [p.agent for p in for_agents(both, {"b"})] == ["b"]


def test_no_pair_without_a_passing_node() -> None:
    assert step_pairs([TREE[0]], PROBLEMS, AGENTS, split="train") == []


def test_only_training_problems() -> None:
    stranger = rec(0, "x", False, problem_id="elsewhere")
    with pytest.raises(UserError, match="not in the training set"):
        step_pairs(
            [stranger, rec(1, "y", True, problem_id="elsewhere")], PROBLEMS, AGENTS, split="train"
        )
    with pytest.raises(UserError, match="is an evaluation problem"):
        step_pairs(TREE, PROBLEMS, AGENTS, split="train", evaluation={"inc"})
    held_out = {"inc": Problem(**{**PROBLEM.__dict__, "split": "test"})}
    with pytest.raises(AssertionError):
        step_pairs(TREE, held_out, AGENTS, split="train")


def test_pairs_from_run_directories_and_back(tmp_path: Path) -> None:
    run = tmp_path / "run"
    jsonl.write(run / "trees" / "step_000001.jsonl", [r.to_json() for r in TREE])
    # step 2 reuses tree id "t": a different tree, with no passing node
    jsonl.write(run / "trees" / "step_000002.jsonl", [TREE[0].to_json()])
    records = read_trees([run])
    assert {r.tree_id for r in records} == {"0:t", "1:t"}
    pairs = build_pairs(repair_cases(records), PROBLEMS, AGENTS, split="train")
    assert [p.tree_id for p in pairs] == ["0:t", "0:t"]
    write_pairs(tmp_path / "pairs.jsonl", pairs)
    assert read_pairs(tmp_path / "pairs.jsonl") == pairs
    with pytest.raises(UserError, match="no such tree file"):
        read_trees([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no trees"):
        read_trees([tmp_path / "empty"])


def test_answer_text_is_one_python_block() -> None:
    assert answer_text("\n\ndef f():\n    pass\n\n") == "```python\ndef f():\n    pass\n```"
