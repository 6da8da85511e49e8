"""AB-MCTS-A: backup of scores along the path, virtual observations of pending expansions, agent
selection modes and the `min_share` guarantee."""

from __future__ import annotations

import pickle
import random
import statistics

import pytest

from mars2.evaluation.protocol import PER_TREE_SEARCH
from mars2.treesearch import ROOT, SearchConfig, TreeState, make_algorithm
from mars2.treesearch.abmcts import ABMCTSStats
from mars2.treesearch.base import Algorithm

GEN, CONT = 0, 1


def stats(state: TreeState) -> ABMCTSStats:
    assert isinstance(state.extra, ABMCTSStats)
    return state.extra


def replay(algo: Algorithm, state: TreeState, edges: list[tuple[int | None, int, float]]) -> None:
    for parent, agent, score in edges:
        algo.tell(state, algo.add_trial(state, parent, agent), score)


def test_backup_updates_gen_cont_and_path_arms() -> None:
    algo = make_algorithm(SearchConfig(**PER_TREE_SEARCH, budget=10), 1)  # arms observe scores
    state = algo.init_tree(0)
    # root -> 0 (0.2) -> 1 (0.6) -> 2 (1.0); root -> 3 (0.4)
    replay(algo, state, [(None, 0, 0.2), (0, 0, 0.6), (1, 0, 1.0), (None, 0, 0.4)])
    arms = stats(state).arms
    root = arms[ROOT]
    # GEN at the root saw its direct children; CONT saw the deeper nodes (0.6, 1.0)
    assert (root.n[GEN], root.s[GEN]) == (2, pytest.approx(0.6))
    assert (root.n[CONT], root.s[CONT]) == (2, pytest.approx(1.6))
    # child arms: node 0 = its own score plus every descendant; node 3 only itself
    slot0, slot3 = stats(state).slot[0], stats(state).slot[3]
    assert (root.n[slot0], root.s[slot0]) == (3, pytest.approx(1.8))
    assert (root.n[slot3], root.s[slot3]) == (1, pytest.approx(0.4))
    # node 0: GEN saw node 1, CONT saw node 2; node 1: GEN saw node 2, no CONT
    assert (arms[0].n[GEN], arms[0].n[CONT], arms[0].s[CONT]) == (1, 1, pytest.approx(1.0))
    assert (arms[1].n[GEN], arms[1].n[CONT]) == (1, 0)
    assert len(arms[2]) == 2  # a leaf: GEN and CONT, no child arm


def test_pending_trials_are_virtual_observations_taken_back_when_told() -> None:
    config = SearchConfig(budget=40, parallel_expansions=4, virtual_score=0.0)
    algo = make_algorithm(config, 2)
    state = algo.init_tree(3)
    replay(algo, state, [(None, 0, 0.5), (None, 1, 0.5), (0, 0, 0.5)])
    quiet = pickle.loads(pickle.dumps(state))
    trials = algo.ask(state, k=4)
    assert len(trials) == 4
    root = stats(state).arms[ROOT]
    assert root.n[GEN] + root.n[CONT] > 2  # the pending picks are visible on the root's arms
    for trial in trials:
        algo.tell(state, trial, 0.5)
        algo.tell(quiet, algo.add_trial(quiet, trial.parent_id, trial.agent_id), 0.5)
    for node_id, arms in stats(state).arms.items():
        twin = stats(quiet).arms[node_id]
        assert arms.n == twin.n
        assert arms.s == pytest.approx(twin.s)


def test_virtual_loss_spreads_concurrent_picks() -> None:
    """With a pessimistic virtual score, four picks in flight land on more distinct parents
    than with an optimistic one."""

    def distinct_parents(virtual: float) -> float:
        counts = []
        for seed in range(60):
            algo = make_algorithm(
                SearchConfig(budget=40, parallel_expansions=4, virtual_score=virtual), 1
            )
            state = algo.init_tree(seed)
            replay(algo, state, [(None, 0, 0.6), (None, 0, 0.6), (0, 0, 0.6), (1, 0, 0.6)])
            counts.append(len({t.parent_id for t in algo.ask(state, k=4)}))
        return statistics.fmean(counts)

    assert distinct_parents(0.0) > distinct_parents(1.0) + 0.3


def test_round_robin_cycles_agents() -> None:
    algo = make_algorithm(SearchConfig(budget=9, agent_selection="round_robin"), 3)
    state = algo.init_tree(0)
    agents = []
    while not state.done:
        (trial,) = algo.ask(state)
        agents.append(trial.agent_id)
        algo.tell(state, trial, 0.5)
    assert agents == [0, 1, 2] * 3


@pytest.mark.parametrize("mode", ["tree", "node"])
def test_thompson_agent_selection_favours_the_better_agent(mode: str) -> None:
    algo = make_algorithm(SearchConfig(budget=40, agent_selection=mode), 2)  # type: ignore[arg-type]
    shares = []
    for seed in range(10):
        state = grow(algo, seed, quality=(0.8, 0.2))
        shares.append(state.agent_counts[0] / state.budget)
    assert statistics.fmean(shares) > 0.6


def grow(algo: Algorithm, seed: int, quality: tuple[float, ...]) -> TreeState:
    """A scripted two-agent problem: agent a scores around quality[a]."""
    state = algo.init_tree(seed)
    noise = random.Random(seed)
    while not state.done:
        for trial in algo.ask(state, k=2):
            score = quality[trial.agent_id] + noise.uniform(-0.1, 0.1)
            algo.tell(state, trial, min(1.0, max(0.0, score)))
    return state


@pytest.mark.parametrize("parallel", [1, 3])
@pytest.mark.parametrize("min_share", [0.2, 0.3, 0.5])
def test_min_share_guarantees_the_weak_agent_its_nodes(min_share: float, parallel: int) -> None:
    budget = 20
    quota = round(min_share * budget)
    config = SearchConfig(budget=budget, min_share=min_share, parallel_expansions=parallel)
    algo = make_algorithm(config, 2)
    strong, weak = [], []
    for seed in range(20):
        state = grow(algo, seed, quality=(0.8, 0.2))
        strong.append(state.agent_counts[0])
        weak.append(state.agent_counts[1])
        assert min(state.agent_counts) >= quota, (seed, state.agent_counts)
    if min_share < 0.5:
        assert statistics.fmean(strong) > statistics.fmean(weak) + 2


def test_min_share_spreads_the_quota_over_the_search() -> None:
    """The weak agent's guaranteed nodes are not all left for the end of the budget."""
    algo = make_algorithm(SearchConfig(budget=40, min_share=0.25), 2)
    state = grow(algo, 0, quality=(0.9, 0.1))
    first_half = [n for n in state.nodes.values() if n.id < 20]
    assert sum(n.agent_id == 1 for n in first_half) >= 4


def test_min_share_too_large_for_the_agents_is_a_config_error() -> None:
    from mars2.errors import ConfigError

    with pytest.raises(ConfigError, match="min_share"):
        make_algorithm(SearchConfig(min_share=0.4), 3)
