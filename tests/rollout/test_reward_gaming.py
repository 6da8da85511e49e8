"""The training reward cannot be gamed by a refinement that hard-codes the public tests.

The refinement prompt shows every failing public test's input and expected output. A candidate
that returns exactly those outputs scores 1.0 on the public tests (what the search and
Pass@1(MCTS) see), but the reward counts every test, public and hidden.
"""

from __future__ import annotations

import asyncio

import pytest

from fakes import ScriptedPolicy, fenced
from mars2.agents.prompts import refine_messages
from mars2.config import AgentConfig, CreditConfig, SandboxConfig, SearchConfig
from mars2.credit import assign_credit
from mars2.problems import load_problems
from mars2.rollout import Orchestrator
from mars2.sandbox import Sandbox

PROBLEM = next(p for p in load_problems("bundled:basic") if p.id == "remove-duplicates")
STUB = "def remove_duplicates(xs):\n    return xs\n"  # right on 2 of 3 public tests
# What a model can write from the feedback alone: the failing public input mapped to its output.
HARD_CODED = (
    "def remove_duplicates(xs):\n"
    "    if xs == [1, 2, 2, 3, 1]:\n"
    "        return [1, 2, 3]\n"
    "    return xs\n"
)


def answer(messages: list[dict[str, str]]) -> str:
    return fenced(HARD_CODED if "Previous code" in messages[-1]["content"] else STUB)


@pytest.mark.parametrize("reward", ["binary", "fraction"])
def test_hard_coding_the_public_tests_earns_nothing(reward: str) -> None:
    search = SearchConfig(algo="refine", budget=2, parallel_expansions=1)
    with Sandbox(SandboxConfig(workers=1)) as sandbox:
        orchestrator = Orchestrator(
            [ScriptedPolicy(answer)],
            [AgentConfig(model="scripted")],
            sandbox,
            search,
            reward=reward,  # type: ignore[arg-type]
        )
        (result,) = asyncio.run(orchestrator.run([PROBLEM], seed=0))
    first, refined = result.records
    assert refined.parent_id == first.node_id and refined.code == HARD_CODED
    # the feedback the refiner saw held the expected output it hard-coded, and no hidden test
    assert "[1, 2, 3]" in first.feedback and "[3, 1, 2, 4]" not in first.feedback
    assert refined.score == 1.0  # the search (and the Pass@1(MCTS) pick) sees a perfect node
    assert not refined.passed and refined.public_only_pass
    # hidden tests it really passes: [7,7,7] no, [3,1,3,2,1,4] no, [0] yes, [-1,1,-1,1] no, ... no
    assert refined.pass_fraction == pytest.approx(4 / 8)
    assert refined.reward == (0.0 if reward == "binary" else pytest.approx(4 / 8))
    # the stub it refined passes 2 of the 3 public and 1 of the 5 hidden tests
    assert first.pass_fraction == pytest.approx(3 / 8)
    if reward == "fraction":
        credits = assign_credit(result.records, CreditConfig(reward="fraction"))
        assert [c.reward for c in credits] == [pytest.approx(3 / 8), pytest.approx(4 / 8)]


def test_hidden_tests_never_reach_a_prompt() -> None:
    (user,) = [
        m["content"] for m in refine_messages(PROBLEM, STUB, "feedback") if m["role"] == "user"
    ]
    for test in PROBLEM.private_tests:
        assert str(test.input[0]) not in user


def test_a_node_passing_every_public_test_is_asked_for_robustness() -> None:
    user = refine_messages(PROBLEM, HARD_CODED, "", passes_public=True)[-1]["content"]
    assert "Fix the code" not in user and "hidden" in user and "hard-coded" in user
    assert "Fix the code" in refine_messages(PROBLEM, STUB, "wrong")[-1]["content"]
