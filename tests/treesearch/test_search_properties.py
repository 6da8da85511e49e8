"""Properties every search algorithm keeps: node counts, budget and pending limits, idempotent
tell, pickle round-trips mid-search, and determinism under a seed."""

from __future__ import annotations

import math
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mars2.treesearch import BUILT_IN, NodePayload, SearchConfig, TreeState, make_algorithm
from mars2.treesearch.base import Algorithm

ALGOS = sorted(BUILT_IN)
SETTINGS = settings(max_examples=25, deadline=None)


def make(algo: str, n_agents: int = 2, **fields: object) -> Algorithm:
    return make_algorithm(SearchConfig(algo=algo, **fields), n_agents)  # type: ignore[arg-type]


def run(algo: Algorithm, state: TreeState, order_seed: int, steps: int | None = None) -> None:
    """Drive a search with scripted scores; tells the pending trials in a shuffled order."""
    script = random.Random(order_seed)
    while not state.done and steps != 0:
        algo.ask(state, k=script.randint(1, 3))
        trial = script.choice(sorted(state.pending.values(), key=lambda t: t.node_id))
        algo.tell(state, trial, round(script.random(), 2), NodePayload(code=f"# {trial}"))
        steps = None if steps is None else steps - 1


def shape(state: TreeState) -> list[tuple[int, int | None, int, int, float | None]]:
    return [(n.id, n.parent_id, n.depth, n.agent_id, n.score) for n in state.nodes.values()]


@pytest.mark.parametrize("algo_name", ALGOS)
@SETTINGS
@given(
    budget=st.integers(1, 20),
    parallel=st.integers(1, 4),
    n_agents=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_node_count_budget_and_pending_limit(
    algo_name: str, budget: int, parallel: int, n_agents: int, seed: int
) -> None:
    algo = make(algo_name, n_agents, budget=budget, parallel_expansions=parallel)
    state = algo.init_tree(seed)
    told = 0
    script = random.Random(seed)
    while not state.done:
        assert algo.ask(state, k=0) == []
        trials = algo.ask(state, k=script.randint(1, 5))
        assert len(state.pending) <= parallel
        assert state.n_asked <= budget
        assert trials or state.pending, "nothing asked and nothing pending: stalled"
        trial = min(state.pending.values(), key=lambda t: t.node_id)
        algo.tell(state, trial, script.random())
        told += 1
        assert len(state.nodes) == told
    assert len(state.nodes) == budget
    assert algo.ask(state, k=3) == []
    for node in state.nodes.values():
        parent_depth = 0 if node.parent_id is None else state.nodes[node.parent_id].depth
        assert node.depth == parent_depth + 1
        assert 0 <= node.agent_id < n_agents
    assert sum(state.agent_counts) == budget


@pytest.mark.parametrize("algo_name", ALGOS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), score=st.floats(0, 1))
def test_tell_is_idempotent(algo_name: str, seed: int, score: float) -> None:
    algo = make(algo_name, budget=6, parallel_expansions=2)
    state = algo.init_tree(seed)
    run(algo, state, seed, steps=2)
    (trial, *_) = algo.ask(state) or list(state.pending.values())
    algo.tell(state, trial, score)
    before = pickle.dumps(state)
    algo.tell(state, trial, score)
    algo.tell(state, trial, 1.0 - score)  # a repeated tell never changes the told node
    assert pickle.dumps(state) == before
    assert state.nodes[trial.node_id].score == score


@pytest.mark.parametrize("algo_name", ALGOS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 12))
def test_pickle_round_trip_mid_search(algo_name: str, seed: int, cut: int) -> None:
    algo = make(algo_name, budget=12, parallel_expansions=3)
    state = algo.init_tree(seed)
    run(algo, state, seed, steps=cut)
    copy = pickle.loads(pickle.dumps(state))
    run(algo, state, seed + 1)
    run(algo, copy, seed + 1)
    assert shape(copy) == shape(state)
    assert len(state.nodes) == 12


@pytest.mark.parametrize("algo_name", ALGOS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_tree(algo_name: str, seed: int) -> None:
    trees = []
    for _ in range(2):
        algo = make(algo_name, n_agents=3, budget=15, parallel_expansions=2)
        state = algo.init_tree(seed)
        run(algo, state, 7)
        trees.append(shape(state))
    assert trees[0] == trees[1]


@pytest.mark.parametrize("algo_name", ALGOS)
def test_unknown_trials_and_bad_scores_are_refused(algo_name: str) -> None:
    algo = make(algo_name, budget=4)
    state = algo.init_tree(0)
    (trial,) = algo.ask(state)
    with pytest.raises(ValueError, match="score"):
        algo.tell(state, trial, 1.5)
    with pytest.raises(ValueError, match="not a pending trial"):
        algo.tell(state, type(trial)(99, None, 0), 0.5)
    other = make("sampling" if algo_name != "sampling" else "refine", budget=4)
    with pytest.raises(ValueError, match="tree made by"):
        other.ask(state)


@pytest.mark.parametrize("algo_name", ALGOS)
@SETTINGS
@given(
    budget=st.integers(1, 24),
    n_agents=st.integers(2, 4),
    share=st.floats(0.01, 1.0),
    parallel=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_min_share_quota_holds_for_every_algorithm(
    algo_name: str, budget: int, n_agents: int, share: float, parallel: int, seed: int
) -> None:
    min_share = share / n_agents
    algo = make(
        algo_name, n_agents, budget=budget, min_share=min_share, parallel_expansions=parallel
    )
    state = algo.init_tree(seed)
    run(algo, state, seed)
    quota = min(math.ceil(min_share * budget - 1e-9), budget // n_agents)
    assert min(state.agent_counts) >= quota
