"""Signs of a collapsing policy, against hand-computed values: sampling entropy (mean -log p of
the sampled tokens), mean response length, and distinct programs per tree."""

from __future__ import annotations

import asyncio

import pytest

from fakes import RIGHT, SUM_EVENS, WRONG, fenced
from mars2.agents.base import Messages
from mars2.config import AgentConfig, SandboxConfig, SearchConfig
from mars2.rollout import Orchestrator
from mars2.rollout.collapse import distinct_programs, policy_figures, program_key
from mars2.sandbox import Sandbox
from mars2.types import Completion, NodeRecord


class FixedPolicy:
    """Answers the same text every time with the given per-token log-probs."""

    def __init__(self, text: str, logprobs: tuple[float, ...], name: str) -> None:
        self.text, self.logprobs, self.name = text, logprobs, name

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        await asyncio.sleep(0)
        ids = tuple(range(len(self.logprobs)))
        return Completion(self.text, (1, 2), ids, self.logprobs, "stop")

    def stats(self) -> dict[str, float]:
        return {}

    def close(self) -> None:
        pass


def record(tree: str, node: int, code: str | None) -> NodeRecord:
    return NodeRecord(
        tree_id=tree,
        problem_id="p",
        node_id=node,
        parent_id=None,
        depth=1,
        agent_id=0,
        score=0.0,
        reward=0.0,
        passed=False,
        code=code,
    )


def test_program_key_ignores_layout_only() -> None:
    assert program_key("def f(x):\n    return x\n\n") == program_key("def f(x):\n  return x")
    assert program_key("def f(x):\n    return x") != program_key("def f(x):\n    return -x")


def test_distinct_programs_by_hand() -> None:
    # tree a: three nodes, two programs up to layout; tree b: an empty and a missing code
    # block are the same (empty) program, plus one real one -> (2 + 2) / 2 trees
    records = [
        record("a", 1, "return 1"),
        record("a", 2, "  return 1  "),
        record("a", 3, "return 2"),
        record("b", 1, ""),
        record("b", 2, None),
        record("b", 3, "return 3"),
    ]
    assert distinct_programs(records) == 2.0
    # a one-node tree (an evaluation's fresh attempt) is left out, not counted as 1 program
    assert distinct_programs([*records, record("c", 1, "return 4")]) == 2.0
    assert distinct_programs([record("c", 1, "return 4")]) == 0.0
    assert distinct_programs([]) == 0.0


def grow(policy: FixedPolicy) -> list:  # type: ignore[type-arg]
    agents = [AgentConfig(model="fixed", role="coder")]
    with Sandbox(SandboxConfig(workers=1, timeout_s=2.0)) as box:
        search = SearchConfig(algo="sampling", budget=3)
        orchestrator = Orchestrator([policy], agents, box, search, reward="binary")
        return asyncio.run(orchestrator.run([SUM_EVENS, SUM_EVENS], seed=1))


def test_policy_figures_by_hand() -> None:
    # 2 tokens at -0.5 and -2.5 per response: entropy estimate (0.5 + 2.5) / 2 = 1.5
    results = grow(FixedPolicy(fenced(RIGHT), (-0.5, -2.5), "good"))
    assert policy_figures(results, 0) == {"response_len": 2.0, "entropy": pytest.approx(1.5)}
    assert policy_figures(results, 1) == {}  # an agent that wrote nothing has no figures
    # every node of both trees wrote the same program
    assert distinct_programs([r for res in results for r in res.records]) == 1.0
    # no log-probs (an API backend): no entropy, the length still counts
    results = grow(FixedPolicy(fenced(WRONG), (), "api"))
    assert policy_figures(results, 0) == {"response_len": 0.0}
