"""Tree search over candidate programs (pure Python, no torch): multi-agent AB-MCTS-A and
baselines behind one ask/tell interface over a picklable `TreeState` (docs/search.md).

    algo = make_algorithm(config.search, n_agents=2)
    state = algo.init_tree(seed=0)
    while not state.done:
        for trial in algo.ask(state, k=4):
            ...  # agent trial.agent_id writes a child of trial.parent_id; run it; score it
            algo.tell(state, trial, score, NodePayload(code=code, feedback=feedback))
"""

from __future__ import annotations

from mars2.config import SearchConfig
from mars2.registry import ALGORITHMS
from mars2.treesearch.abmcts import ABMCTS
from mars2.treesearch.base import Algorithm
from mars2.treesearch.baselines import BestFirst, Refine, Sampling
from mars2.treesearch.records import from_records, to_records
from mars2.treesearch.tree import ROOT, Node, NodePayload, TreeState, Trial

BUILT_IN = {cls.name: cls for cls in (ABMCTS, Sampling, Refine, BestFirst)}


def make_algorithm(config: SearchConfig, n_agents: int) -> Algorithm:
    """The algorithm `config.algo` (a name in mars2.registry.ALGORITHMS) for `n_agents` agents
    (agent ids 0..n_agents-1)."""
    algorithm: Algorithm = ALGORITHMS.get(config.algo)(config, n_agents)
    return algorithm


__all__ = [
    "ALGORITHMS",
    "BUILT_IN",
    "ROOT",
    "Algorithm",
    "Node",
    "NodePayload",
    "SearchConfig",
    "TreeState",
    "Trial",
    "from_records",
    "make_algorithm",
    "to_records",
]
