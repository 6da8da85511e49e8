"""Our AB-MCTS-A chooses like treequest's ABMCTSA: on the same scripted tree, the distribution of
the next (node to expand, agent) pair — GEN vs CONT at each node, child choice, agent choice — is
the same, by a chi-squared two-sample test."""

from __future__ import annotations

import collections
import math
import pickle
import random
import statistics

import numpy as np
import pytest

from mars2.evaluation.protocol import PER_TREE_SEARCH
from mars2.treesearch import SearchConfig, TreeState, make_algorithm
from mars2.treesearch.base import Algorithm

treequest = pytest.importorskip("treequest")
stats = pytest.importorskip("scipy.stats")

DRAWS = 1500
Record = list[tuple[int, int, float]]  # (treequest parent expand_idx, agent, score)


def grow_treequest(prior: str, n_agents: int, n_nodes: int, seed: int) -> tuple[object, object]:
    """A treequest tree grown by its own choices on scripted scores (better agents and better
    parents score higher, in fifths like public-test fractions)."""
    algo = treequest.ABMCTSA(dist_type="gaussian" if prior == "normal" else "beta")
    state = algo.init_tree()
    np.random.seed(seed)  # treequest draws from numpy's global RNG
    script = random.Random(seed)
    actions = [str(a) for a in range(n_agents)]
    record: Record = []
    for i in range(n_nodes):
        state, (trial,) = algo.ask_batch(state, 1, actions)
        parent, agent = trial.node_to_expand, int(trial.action)
        base = 0.0 if parent == -1 else record[parent][2]
        score = scripted(base, agent, script)
        algo.tell(state, trial.trial_id, (f"node{i}", score))
        record.append((parent, agent, score))
    return (algo, state, actions, record), record  # type: ignore[return-value]


def replay(prior: str, n_agents: int, record: Record) -> tuple[Algorithm, TreeState]:
    """The same tree in our search (node ids = treequest expand_idx: both count in tell order)."""
    config = SearchConfig(**PER_TREE_SEARCH, algo="abmcts", budget=10_000, prior=prior)  # type: ignore[arg-type]
    algo = make_algorithm(config, n_agents)
    state = algo.init_tree(0)
    for parent, agent, score in record:
        algo.tell(state, algo.add_trial(state, None if parent == -1 else parent, agent), score)
    return algo, state


@pytest.mark.parametrize(("prior", "n_agents"), [("normal", 1), ("normal", 3), ("beta", 2)])
def test_next_choice_distribution_matches_treequest(prior: str, n_agents: int) -> None:
    (tq_algo, tq_state, actions, _), record = grow_treequest(prior, n_agents, 14, seed=1)
    ours_algo, ours_state = replay(prior, n_agents, record)

    theirs: collections.Counter[tuple[int, int]] = collections.Counter()
    for _ in range(DRAWS):  # asking leaves treequest's posteriors unchanged
        tq_state, (trial,) = tq_algo.ask_batch(tq_state, 1, actions)  # type: ignore[attr-defined]
        theirs[(trial.node_to_expand, int(trial.action))] += 1
    ours: collections.Counter[tuple[int, int]] = collections.Counter()
    frozen = pickle.dumps(ours_state)
    for i in range(DRAWS):
        state = pickle.loads(frozen)
        state.rng.seed(i)
        state.np_rng = np.random.default_rng(i)
        (trial,) = ours_algo.ask(state)
        ours[(-1 if trial.parent_id is None else trial.parent_id, trial.agent_id)] += 1

    keys = sorted(set(theirs) | set(ours))
    table = np.array([[theirs[k] for k in keys], [ours[k] for k in keys]])
    rare = table.sum(axis=0) < 10  # pool rare outcomes so the chi-squared test is valid
    pooled = np.column_stack([table[:, ~rare], table[:, rare].sum(axis=1)])
    pooled = pooled[:, pooled.sum(axis=0) > 0]
    p_value = stats.chi2_contingency(pooled)[1]
    gen_root = [sum(v for k, v in c.items() if k[0] == -1) / DRAWS for c in (theirs, ours)]
    assert p_value > 1e-3, f"choice frequencies differ (p={p_value:.2g}, GEN at root {gen_root})"
    assert abs(gen_root[0] - gen_root[1]) < 0.06


def scripted(parent: float, agent: int, rng: random.Random) -> float:
    return round(min(1.0, 0.2 * agent + 0.5 * parent + 0.4 * rng.random()) * 5) / 5


def test_whole_searches_have_the_same_shape_as_treequest() -> None:
    """Over many scripted searches, the share of fresh attempts (GEN at the root), the mean
    depth and the agent shares agree within sampling error."""
    trees, n_nodes, n_agents = 120, 12, 2

    def shape(nodes: list[tuple[int, int, int]]) -> tuple[float, float, float]:
        # (depth, parent is root, agent) per node -> root share, mean depth, agent-1 share
        return (
            statistics.fmean(root for _, root, _ in nodes),
            statistics.fmean(depth for depth, _, _ in nodes),
            statistics.fmean(agent for _, _, agent in nodes),
        )

    theirs: list[tuple[float, float, float]] = []
    for seed in range(trees):
        _, record = grow_treequest("normal", n_agents, n_nodes, seed)
        depth: dict[int, int] = {-1: 0}
        for i, (parent, _, _) in enumerate(record):
            depth[i] = depth[parent] + 1
        theirs.append(shape([(depth[i], p == -1, a) for i, (p, a, _) in enumerate(record)]))
    ours: list[tuple[float, float, float]] = []
    algo = make_algorithm(SearchConfig(**PER_TREE_SEARCH, budget=n_nodes), n_agents)
    for seed in range(trees):
        state, script = algo.init_tree(seed), random.Random(seed)
        while not state.done:
            (trial,) = algo.ask(state)
            parent = state.nodes[trial.parent_id].score if trial.parent_id is not None else 0.0
            algo.tell(state, trial, scripted(parent or 0.0, trial.agent_id, script))
        nodes = state.nodes.values()
        ours.append(shape([(n.depth, n.parent_id is None, n.agent_id) for n in nodes]))
    for i, name in enumerate(("fresh-attempt share", "mean depth", "agent-1 share")):
        a, b = [t[i] for t in theirs], [t[i] for t in ours]
        error = math.sqrt(statistics.variance(a) / trees + statistics.variance(b) / trees)
        diff = statistics.fmean(a) - statistics.fmean(b)
        assert abs(diff) < 4 * error, (
            f"{name}: treequest {statistics.fmean(a):.3f} vs ours {statistics.fmean(b):.3f}"
        )
