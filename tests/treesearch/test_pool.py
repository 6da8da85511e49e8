"""Pooled priors: the gain of an expansion, the pooled moments and their cap, forgetting, the
arms a tree starts from, and what `refine_solved` and copies close."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mars2.evaluation.protocol import PER_TREE_SEARCH
from mars2.treesearch import ROOT, SearchConfig, TreeState, make_algorithm
from mars2.treesearch.abmcts import ABMCTSStats
from mars2.treesearch.base import Algorithm
from mars2.treesearch.pool import ExpansionPool, Moments, expansion_kind, tree_gains

GEN, CONT = 0, 1


def replay(algo: Algorithm, state: TreeState, edges: list[tuple[int | None, int, float]]) -> None:
    for parent, agent, score in edges:
        algo.tell(state, algo.add_trial(state, parent, agent), score)


def stats(state: TreeState) -> ABMCTSStats:
    assert isinstance(state.extra, ABMCTSStats)
    return state.extra


# root -> 0 (0.25, agent 0) -> 1 (0.5, agent 1) ; root -> 2 (0.25, agent 0) ; 1 -> 3 (1.0, agent 1)
# then 0 -> 4 (0.75): after the best reached 1.0, not pooled
EDGES: list[tuple[int | None, int, float]] = [
    (None, 0, 0.25),
    (0, 1, 0.5),
    (None, 0, 0.25),
    (1, 1, 1.0),
    (0, 0, 0.75),
]


def test_expansion_kind_by_parent_score() -> None:
    assert expansion_kind(None) == "fresh"
    assert expansion_kind(0.0) == expansion_kind(0.99) == "repair"
    assert expansion_kind(1.0) == "polish"


def test_tree_gains_skip_the_first_node_and_everything_after_a_solved_best() -> None:
    algo = make_algorithm(SearchConfig(budget=8), 2)
    state = algo.init_tree(0)
    replay(algo, state, EDGES)
    # node 1: 0.5 - 0.25; node 2: nothing over 0.5; node 3: 1.0 - 0.5; node 4: best is 1.0
    assert list(tree_gains(state.nodes)) == [
        (1, "repair", 0.25),
        (0, "fresh", 0.0),
        (1, "repair", 0.5),
    ]
    pool = ExpansionPool()
    pool.add_tree(state.nodes)
    assert pool.stats[(1, "repair")] == Moments(2, 0.75, 0.3125)
    assert pool.stats[(0, "fresh")] == Moments(1, 0.0, 0.0)


def test_cap_keeps_mean_and_variance() -> None:
    m = Moments(10, 4.0, 2.0)
    assert m.capped(20) == m
    capped = m.capped(5)
    assert (capped.n, capped.s, capped.ss) == (5, pytest.approx(2.0), pytest.approx(1.0))
    assert capped.mean == pytest.approx(m.mean)


def test_carry_forgets_geometrically() -> None:
    pool = ExpansionPool()
    round1 = ExpansionPool()
    round1.add(0, "fresh", 1.0)
    pool.carry(round1, 0.5)  # 0.5 * (0 + 1)
    assert pool.stats[(0, "fresh")] == Moments(0.5, 0.5, 0.5)
    round2 = ExpansionPool()
    round2.add(0, "fresh", 0.0)
    round2.add(0, "repair", 0.5)
    pool.carry(round2, 0.5)  # round 1 now counts 0.25, round 2 0.5
    assert pool.stats[(0, "fresh")] == Moments(0.75, 0.25, 0.25)
    assert pool.stats[(0, "repair")] == Moments(0.5, 0.25, 0.125)


def test_prior_marginals_and_json_round_trip() -> None:
    pool = ExpansionPool()
    for agent, kind, gain in [(0, "fresh", 0.5), (1, "fresh", 0.25), (0, "repair", 1.0)]:
        pool.add(agent, kind, gain)  # type: ignore[arg-type]
    prior = pool.prior(strength=1.0)
    assert prior.by_kind["fresh"] == Moments(1.0, 0.375, pytest.approx(0.15625))  # halved
    assert prior.refine == Moments(1, 1.0, 1.0)
    assert prior.agent(1, "fresh") == Moments(1, 0.25, 0.0625)
    assert prior.agent(1, "repair") == Moments()
    again = ExpansionPool()
    again.load_json(pool.to_json())
    assert again.stats == pool.stats
    with pytest.raises(ValueError, match="unknown expansion kind"):
        again.load_json([{"agent": 0, "kind": "other", "n": 1, "sum": 0, "sum_sq": 0}])


def test_pooled_tree_starts_from_the_prior_and_observes_gains() -> None:
    pool = ExpansionPool()
    pool.add(0, "fresh", 0.5)
    pool.add(0, "fresh", 0.0)
    pool.add(0, "repair", 1.0)
    algo = make_algorithm(SearchConfig(budget=8, pooling="call"), 1)
    state = algo.init_tree(0, pool.prior(128))
    root = stats(state).arms[ROOT]
    assert (root.n[GEN], root.s[GEN], root.ss[GEN]) == (2, 0.5, 0.25)
    assert (root.n[CONT], root.s[CONT]) == (1, 1.0)
    agents = stats(state).kind_agents
    assert (agents["fresh"].n[0], agents["repair"].n[0], agents["polish"].n[0]) == (2, 1, 0)
    replay(algo, state, [(None, 0, 0.5), (0, 0, 0.75), (None, 0, 0.25)])
    # GEN at the root saw gains 0.5 (the first node) and 0 (0.25 is below the best 0.75)
    assert (root.n[GEN], root.s[GEN]) == (4, pytest.approx(1.0))
    # node 0 is a repair target: its GEN starts from the repair prior, then saw gain 0.25
    node0 = stats(state).arms[0]
    assert (node0.n[GEN], node0.s[GEN]) == (2, pytest.approx(1.25))
    assert agents["repair"].s[0] == pytest.approx(1.25)


def test_unpooled_search_keeps_scores_and_per_tree_priors() -> None:
    algo = make_algorithm(SearchConfig(**PER_TREE_SEARCH, budget=8), 1)
    pool = ExpansionPool()
    pool.add(0, "fresh", 0.5)
    state = algo.init_tree(0, None)
    replay(algo, state, [(None, 0, 0.5), (0, 0, 0.25)])
    root = stats(state).arms[ROOT]
    assert (root.n[GEN], root.s[GEN], root.s[CONT]) == (1, 0.5, 0.25)
    assert stats(state).kind_agents == {}


scores = st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=16, max_size=16)


def grow(config: SearchConfig, n_agents: int, seed: int, told: list[float], pool: ExpansionPool):  # type: ignore[no-untyped-def]
    algo = make_algorithm(config, n_agents)
    state = algo.init_tree(seed, pool.prior(config.pool_strength))
    i = 0
    while not state.done:
        for trial in algo.ask(state, k=config.parallel_expansions):
            copy = trial.parent_id is not None and told[i % len(told)] == 0.25
            score = state.nodes[trial.parent_id].score if copy else told[i % len(told)]  # type: ignore[index]
            algo.tell(state, trial, score or 0.0, copy=copy)
            i += 1
    return state


@settings(max_examples=40, deadline=None)
@given(
    told=scores,
    seed=st.integers(0, 2**16),
    budget=st.integers(1, 12),
    n_agents=st.integers(1, 3),
    parallel=st.integers(1, 3),
    gains=st.lists(
        st.tuples(st.integers(0, 2), st.sampled_from(["fresh", "repair"]), st.floats(0, 1)),
        max_size=20,
    ),
)
def test_pooled_search_stays_in_budget_and_is_deterministic(
    told: list[float], seed: int, budget: int, n_agents: int, parallel: int, gains: list
) -> None:
    pool = ExpansionPool()
    for agent, kind, gain in gains:
        pool.add(agent % n_agents, kind, gain)
    config = SearchConfig(
        budget=budget, pooling="call", parallel_expansions=parallel, refine_solved=False
    )
    one = grow(config, n_agents, seed, told, pool)
    two = grow(config, n_agents, seed, told, pool)
    assert len(one.nodes) == budget
    assert [(n.parent_id, n.agent_id) for n in one.nodes.values()] == [
        (n.parent_id, n.agent_id) for n in two.nodes.values()
    ]
    for node in one.nodes.values():
        if node.parent_id is not None:
            parent = one.nodes[node.parent_id]
            assert parent.score is not None and parent.score < 1.0  # refine_solved off
            assert parent.copy_of is None  # a copy is never expanded
    assert pickle.loads(pickle.dumps(one)).prior == one.prior


@pytest.mark.parametrize("algo", ["abmcts", "best_first", "refine"])
def test_refine_solved_off_never_expands_a_public_pass(algo: str) -> None:
    config = SearchConfig(algo=algo, budget=12, refine_solved=False, width=3)
    search = make_algorithm(config, 2)
    state = search.init_tree(5)
    while not state.done:
        for trial in search.ask(state):
            search.tell(state, trial, 1.0 if trial.node_id % 2 == 0 else 0.5)
    refined = [state.nodes[n.parent_id] for n in state.nodes.values() if n.parent_id is not None]
    assert refined and all(p.score == 0.5 for p in refined)
    # the per-tree search refines whatever AB-MCTS picks, solved nodes included
    per_tree = SearchConfig(**{**PER_TREE_SEARCH, "algo": algo, "budget": 12, "width": 3})
    default = make_algorithm(per_tree, 2)
    state = default.init_tree(5)
    while not state.done:
        for trial in default.ask(state):
            default.tell(state, trial, 1.0 if trial.node_id % 2 == 0 else 0.5)
    parents = {
        state.nodes[n.parent_id].score for n in state.nodes.values() if n.parent_id is not None
    }
    assert 1.0 in parents or algo == "abmcts"
