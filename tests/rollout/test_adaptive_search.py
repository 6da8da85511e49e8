"""The pooled search with simulated agents (`simulated`): it learns across trees to go deeper
when refinements pay and to stay wide when they do not; it does not depend on timing; copies
are not run again; the pool is carried over calls with forgetting."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from mars2.config import AgentConfig, SearchConfig
from mars2.rollout import Orchestrator
from mars2.treesearch.metrics import NodeCounts, node_counts, summarize
from simulated import SIM_PROBLEM, SimPolicy, SimSandbox

# the default search (pooling `run`, solved nodes not refined, copies skipped; one call each)
POOLED = SearchConfig(budget=8, pool_lag=8, trees_in_flight=8)
SAMPLING = SearchConfig(algo="sampling", budget=8, trees_in_flight=8)
PER_TREE = SearchConfig(
    budget=8, trees_in_flight=8, pooling="none", refine_solved=True, copies="run"
)  # the paper's AB-MCTS-A (configs/paper.yaml)


def search(config: SearchConfig, policies: list[SimPolicy], n: int = 200, seed: int = 0):  # type: ignore[no-untyped-def]
    box = SimSandbox()
    agents = [AgentConfig(model="scripted", role="coder") for _ in policies]
    orchestrator = Orchestrator(policies, agents, box, config, reward="fraction")
    results = asyncio.run(orchestrator.run([SIM_PROBLEM] * n, seed=seed))
    summary = summarize([r.records for r in results])
    counts = sum((node_counts(r.records) for r in results), start=NodeCounts())
    return summary, counts, box, orchestrator, results


@pytest.mark.parametrize("seed", [0, 1000])
def test_good_refinement_goes_deep_and_beats_sampling(seed: int) -> None:
    pooled, counts, *_ = search(POOLED, [SimPolicy(fresh=0.1, repair=0.8)], seed=seed)
    sampled, *_ = search(SAMPLING, [SimPolicy(fresh=0.1, repair=0.8)], seed=seed)
    assert counts.refinements > 0.7 * counts.nodes  # most nodes refine
    assert sampled.pass_at_1_mcts < 0.65  # 1 - 0.9^8 = 0.57
    assert pooled.pass_at_1_mcts > sampled.pass_at_1_mcts + 0.3
    assert pooled.pass_at_1_mcts >= 0.95


@pytest.mark.parametrize("seed", [0, 1000])
def test_bad_refinement_stays_close_to_sampling(seed: int) -> None:
    bad = [SimPolicy(fresh=0.22, repair=0.03, copy=0.5)]
    pooled, counts, *_ = search(POOLED, bad, seed=seed)
    sampled, *_ = search(SAMPLING, [SimPolicy(fresh=0.22, repair=0.03, copy=0.5)], seed=seed)
    per_tree, *_ = search(PER_TREE, bad, seed=seed)
    assert counts.refinements < 0.1 * counts.nodes  # it learned to stay wide
    assert pooled.pass_at_1_mcts >= sampled.pass_at_1_mcts - 0.04
    assert pooled.pass_at_1_mcts > per_tree.pass_at_1_mcts + 0.08  # the per-tree prior refines


def test_same_trees_whatever_the_timing() -> None:
    agents = [SimPolicy(0.2, 0.3, 0.3, "a"), SimPolicy(0.1, 0.5, 0.3, "b")]

    def trees(in_flight: int) -> list[tuple[object, ...]]:
        config = dataclasses.replace(POOLED, trees_in_flight=in_flight, pool_lag=4)
        *_, results = search(config, agents, n=24, seed=7)
        return [
            (r.node_id, r.parent_id, r.agent_id, r.score, r.copy_of)
            for result in results
            for r in result.records
        ]

    assert trees(1) == trees(3) == trees(9)


def test_copies_are_not_run_again_and_earn_nothing_when_failing() -> None:
    config = SearchConfig(algo="refine", budget=6, copies="skip")
    summary, counts, box, orchestrator, results = search(
        config, [SimPolicy(fresh=0.0, repair=0.0, copy=1.0)], n=3
    )
    # every refinement copies, and a copy ends its chain: fresh, copy, fresh, copy, ...
    assert counts.copies == counts.refinements == counts.fresh == 9
    assert box.calls == 2 * counts.fresh  # public + hidden tests of the fresh attempts only
    assert orchestrator.stats.copies == 9 and orchestrator.stats.nodes == 18
    credited_parents = []
    for result in results:
        by_id = {r.node_id: r for r in result.records}
        for record in result.records:
            if record.parent_id is None:
                assert record.copy_of is None and record.reward == record.pass_fraction
                continue
            parent = by_id[record.parent_id]
            assert record.copy_of == parent.node_id and record.score == parent.score
            assert record.reward == 0.0  # a failing copy earns nothing, whatever its parent
            credited_parents.append(parent.reward)
    assert max(credited_parents) > 0.0
    assert summary.pass_at_n == 0.0
    # the default runs every copy and credits it like its parent
    *_, box, _, results = search(
        dataclasses.replace(config, copies="run"), [SimPolicy(0.0, 0.0, 1.0)], n=3
    )
    assert box.calls == 3 * 6 * 2
    first, record = results[0].records[:2]
    assert record.copy_of is None and record.reward == first.reward > 0.0


def test_run_pooling_carries_the_pool_with_forgetting() -> None:
    config = dataclasses.replace(POOLED, pooling="run", forgetting=0.5)
    agents = [SimPolicy(0.2, 0.3)]
    box = SimSandbox()
    orchestrator = Orchestrator(agents, [AgentConfig(model="scripted")], box, config)
    asyncio.run(orchestrator.run([SIM_PROBLEM] * 10, seed=1))
    once = {k: m.n for k, m in orchestrator.pool.stats.items()}
    assert once and all(n > 0 for n in once.values())
    before = dict(orchestrator.pool.stats)
    asyncio.run(orchestrator.run([SIM_PROBLEM] * 10, seed=2))
    call = orchestrator.pool.stats
    for key, moments in before.items():  # the older call now counts a quarter, the new a half
        assert call[key].n >= 0.5 * moments.n
    # `call` pooling keeps nothing across calls
    call_only = dataclasses.replace(POOLED, pooling="call")
    fresh = Orchestrator(agents, [AgentConfig(model="scripted")], box, call_only)
    asyncio.run(fresh.run([SIM_PROBLEM] * 10, seed=1))
    assert fresh.pool.stats == {}
