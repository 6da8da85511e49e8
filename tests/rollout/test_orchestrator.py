"""The orchestrator with scripted agents, the real sandbox and the real search."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from fakes import RIGHT, SUM_EVENS, WRONG, ScriptedPolicy, fenced, refines_to_right
from mars2.config import AgentConfig, SandboxConfig, SearchConfig
from mars2.evaluation.protocol import PER_TREE_SEARCH
from mars2.rollout import Orchestrator
from mars2.sandbox import Sandbox
from mars2.treesearch.metrics import summarize


@pytest.fixture(scope="module")
def sandbox():  # type: ignore[no-untyped-def]
    with Sandbox(SandboxConfig(workers=2, timeout_s=2.0)) as box:
        yield box


def grow(sandbox, policies, search: SearchConfig, n_problems: int = 1):  # type: ignore[no-untyped-def]
    agents = [AgentConfig(model="scripted", role="coder") for _ in policies]
    orchestrator = Orchestrator(policies, agents, sandbox, search, reward="binary")
    problems = [SUM_EVENS] * n_problems
    return orchestrator, asyncio.run(orchestrator.run(problems, seed=3))


def test_refinement_chain_fixes_the_bug(sandbox) -> None:  # type: ignore[no-untyped-def]
    policy = ScriptedPolicy(refines_to_right, "a")
    orchestrator, (result,) = grow(
        sandbox,
        [policy],
        SearchConfig(**PER_TREE_SEARCH, algo="refine", budget=3, parallel_expansions=1),
    )
    records = result.records
    assert [r.parent_id for r in records] == [None, records[0].node_id, records[1].node_id]
    assert records[0].code == WRONG and not records[0].passed
    assert records[0].score == pytest.approx(1 / 3)  # only sum([]) = 0 is right
    assert "5" in records[0].feedback  # public failing input is shown to the refiner
    assert records[1].code == RIGHT and records[1].passed and records[1].score == 1.0
    assert records[1].reward == 1.0 and records[0].reward == 0.0
    # the refine prompt carried the previous code and its feedback
    assert "return sum(xs)" in "\n".join(m["content"] for m in policy.requests[1][0])
    assert orchestrator.stats.nodes == 3
    assert orchestrator.stats.tokens == sum(r.response_len for r in records)
    summary = summarize([result.records])
    assert (summary.pass_at_1, summary.pass_at_1_mcts, summary.pass_at_n) == (0.0, 1.0, 1.0)


def test_many_trees_two_agents_budget_respected(sandbox) -> None:  # type: ignore[no-untyped-def]
    good = ScriptedPolicy([fenced(RIGHT)], "good")
    bad = ScriptedPolicy([fenced(WRONG)], "bad")
    search = SearchConfig(**PER_TREE_SEARCH, budget=6, parallel_expansions=2, trees_in_flight=3)
    _, results = grow(sandbox, [good, bad], search, n_problems=4)
    assert len(results) == 4
    assert all(len(r.records) == 6 for r in results)
    assert len({r.tree_id for r in results}) == 4  # a repeated problem still gets its own tree
    for result in results:
        for record in result.records:
            assert record.passed == (record.agent_id == 0)
    summary = summarize([r.records for r in results], [0, 1])
    assert summary.pass_at_n == 1.0 and summary.pass_at_1_mcts == 1.0
    assert summary.agents[0].share + summary.agents[1].share == 1.0


def test_same_seed_same_trees(sandbox) -> None:  # type: ignore[no-untyped-def]
    def tree_shape():  # type: ignore[no-untyped-def]
        policies = [ScriptedPolicy(refines_to_right, "a"), ScriptedPolicy([fenced(WRONG)], "b")]
        _, (result,) = grow(sandbox, policies, SearchConfig(budget=5, parallel_expansions=3))
        return [(r.node_id, r.parent_id, r.agent_id, r.score) for r in result.records]

    assert tree_shape() == tree_shape()


def test_order_changes_when_trees_start_not_their_seeds_or_results(sandbox) -> None:  # type: ignore[no-untyped-def]
    problems = [dataclasses.replace(SUM_EVENS, id=f"p{i}") for i in range(4)]
    search = SearchConfig(algo="refine", budget=1, trees_in_flight=1)  # one tree at a time

    def run(order):  # type: ignore[no-untyped-def]
        policy = ScriptedPolicy([fenced(RIGHT)], "a")
        agents = [AgentConfig(model="scripted", role="coder")]
        orchestrator = Orchestrator([policy], agents, sandbox, search, reward="binary")
        results = asyncio.run(orchestrator.run(problems, seed=3, order=order))
        return policy.requests, results

    plain, in_order = run(None)
    requests, reordered = run([2, 0, 3, 1])
    # trees start in the given order: the i-th request is tree order[i]'s, with tree i's seed
    assert [seed for _, seed in requests] == [plain[i][1] for i in (2, 0, 3, 1)]
    assert (
        [r.tree_id for r in reordered] == [r.tree_id for r in in_order] == [p.id for p in problems]
    )
    with pytest.raises(ValueError, match="permutation"):
        run([0, 0, 1, 2])


def test_settings_a_sampling_search_ignores_leave_its_trees_unchanged(sandbox) -> None:  # type: ignore[no-untyped-def]
    # why `search_protocol` names no pooling/copies/refine_solved for `sampling`: fresh
    # attempts take no prior and refine nothing, so the trees are the same request for request
    def trees(search: SearchConfig):  # type: ignore[no-untyped-def]
        policy = ScriptedPolicy(lambda messages: fenced(WRONG), "a")
        _, results = grow(sandbox, [policy], search, n_problems=3)
        # requests as a set: three trees in flight ask in an order the sandbox's timing sets
        shapes = [[(r.node_id, r.parent_id, r.reward) for r in t.records] for t in results]
        return sorted(map(repr, policy.requests)), shapes

    plain = SearchConfig(algo="sampling", budget=4)
    pooled = SearchConfig(
        algo="sampling", budget=4, pooling="call", refine_solved=False, copies="skip", pool_lag=1
    )
    assert trees(plain) == trees(pooled)
