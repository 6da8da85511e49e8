"""`train.mode` -> the rollout plan: the search of a training step, whether its nodes are
independent samples, and the nodes per problem that `mars2 experiment plan` counts."""

from __future__ import annotations

from mars2.config import load_config
from mars2.experiment.runner import planned_nodes
from mars2.training.plan import plan_for

BASE = [
    "agents=[{model: tiny-random}]",
    "search.algo=abmcts",
    "search.budget=6",
    "search.parallel_expansions=2",
    "train.samples_per_problem=4",
    "train.steps=3",
    "train.problems_per_step=5",
]


def test_mcts_plan_grows_trees_with_the_configured_search() -> None:
    config = load_config(None, [*BASE, "train.mode=mcts"])
    plan = plan_for(config)
    assert plan.search == config.search
    assert not plan.independent
    assert plan.nodes_per_problem == 6
    assert planned_nodes(config) == 3 * 5 * 6


def test_grpo_plan_draws_the_group_as_independent_samples_all_at_once() -> None:
    config = load_config(None, [*BASE, "train.mode=grpo"])
    plan = plan_for(config)
    assert (plan.search.algo, plan.search.budget, plan.search.parallel_expansions) == (
        "sampling",
        4,
        4,
    )
    assert plan.search.trees_in_flight == config.search.trees_in_flight
    assert plan.independent
    assert plan.nodes_per_problem == 4
    assert planned_nodes(config) == 3 * 5 * 4
