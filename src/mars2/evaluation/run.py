"""Run an evaluation: grow `eval.samples` seeded trees per problem with the protocol's search,
turn them into per-problem outcomes and an eval.json record, reusing a cached one when the
weights, protocol, problems and seed match. The Trainer, `mars2 eval` and `mars2 search` all
evaluate through `Evaluator`, so the same checkpoint and seed give the same figures everywhere.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mars2 import jsonl, seeds
from mars2.config import AgentConfig, Config, SearchConfig
from mars2.evaluation import cache, record
from mars2.evaluation.checksum import engine_settings, policy_checksum
from mars2.evaluation.outcomes import ProblemOutcome, merge_outcomes, tree_outcome
from mars2.evaluation.protocol import (
    cache_key,
    engines,
    eval_search,
    eval_seed,
    problems_checksum,
    protocol,
    team,
)
from mars2.problems import load_problems
from mars2.rollout.collapse import distinct_programs
from mars2.rollout.orchestrator import Executor, Orchestrator, RolloutStats, TreeResult
from mars2.treesearch.metrics import by_tree, independent_attempts, summarize
from mars2.types import NodeRecord, Problem
from mars2.version import __version__


@dataclass
class Evaluation:
    """One finished evaluation: its eval.json object and node records (trees.jsonl lines)."""

    eval_json: dict[str, Any]
    records: list[NodeRecord]
    cached: bool
    stats: RolloutStats = field(default_factory=RolloutStats)

    def write(self, eval_file: Path, trees_file: Path | None = None) -> Path:
        """Write the eval.json object (and the node records, when `trees_file` is given)."""
        if trees_file is not None:
            jsonl.write(trees_file, [r.to_json() for r in self.records])
        return record.write(eval_file, self.eval_json)


class Evaluator:
    """Evaluations of one config's protocol. `search` defaults to the evaluation search
    (`eval.algo`, `eval.budget`); `mars2 search` passes `config.search`. `seed` replaces the
    evaluation seed of `config` (`mars2 budget` seeds its arms with a purpose of their own)."""

    def __init__(
        self,
        config: Config,
        search: SearchConfig | None = None,
        problems: Sequence[Problem] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        self.config = config
        self.search = search or eval_search(config)
        if problems is None:
            problems = load_problems(config.eval.problems, limit=config.eval.limit)
        self.problems = list(problems)
        self.protocol = protocol(config, self.search)
        self.problems_checksum = problems_checksum(self.problems)
        self.seed = eval_seed(config) if seed is None else seed

    async def run(
        self,
        policies: Sequence[Any],
        agents: Sequence[AgentConfig],
        sandbox: Executor,
        *,
        label: str,
        on_tree: Callable[[TreeResult], None] | None = None,
    ) -> Evaluation:
        """Evaluate the team `agents` (generating with `policies`) on the protocol: the cached
        evaluation of the same weights, protocol, problems and seed, else grow the trees, build
        the eval.json record and cache it."""
        members = team(
            agents, [policy_checksum(p, a) for p, a in zip(policies, agents, strict=True)]
        )
        proto = self._resolved_protocol(policies, agents)
        key = self._cache_key(proto, members)
        if key is not None and (hit := cache.load(key)) is not None:
            saved, trees = hit
            records = [NodeRecord.from_json(node) for node in trees]
            return Evaluation({**saved, "label": label, "cached": True}, records, cached=True)
        grown = await self._grow(policies, agents, sandbox, on_tree)
        built = record.build(
            label=label,
            proto=proto,
            seed=self.seed,
            problems_checksum=self.problems_checksum,
            members=members,
            outcomes=self._outcomes(grown),
            resamples=self.config.eval.bootstrap,
        )
        evaluation = Evaluation(built, grown.records, False, grown.stats)
        if key is not None:
            cache.store(key, built, [r.to_json() for r in evaluation.records])
        return evaluation

    def _resolved_protocol(
        self, policies: Sequence[Any], agents: Sequence[AgentConfig]
    ) -> dict[str, Any]:
        """The protocol with the engines as they resolved their settings (`auto` precision and
        decoder, device)."""
        described = [
            (a.model, engine_settings(p, a)) for p, a in zip(policies, agents, strict=True)
        ]
        return {**self.protocol, "engines": engines(described)}

    def _cache_key(self, proto: dict[str, Any], members: list[dict[str, Any]]) -> str | None:
        """The evaluation's cache key (this mars2 and its code included), None with the cache off."""
        if not self.config.eval.cache:
            return None
        return cache_key(
            {**proto, "mars2": __version__, "code": cache.code_fingerprint()},
            self.seed,
            self.problems_checksum,
            members,
        )

    async def _grow(
        self,
        policies: Sequence[Any],
        agents: Sequence[AgentConfig],
        sandbox: Executor,
        on_tree: Callable[[TreeResult], None] | None,
    ) -> GrownTrees:
        """A problem's `eval.samples` trees: `eval.trees` of them grow the full search, the
        others stop at their first node (a fresh attempt); tree i of the whole list is seeded
        eval_seed + i either way."""
        n_trees = self.config.eval.trees or self.config.eval.samples
        n_first = self.config.eval.samples - n_trees
        reward = self.config.credit.reward
        full = Orchestrator(list(policies), list(agents), sandbox, self.search, reward=reward)
        one_node = dataclasses.replace(self.search, budget=1)
        first = Orchestrator(list(policies), list(agents), sandbox, one_node, reward=reward)
        searched = [p for _ in range(n_trees) for p in self.problems]
        attempts = [p for _ in range(n_first) for p in self.problems]
        results, single = await asyncio.gather(
            full.run(
                searched,
                seed=self.seed,
                prefix="eval/",
                on_tree=on_tree,
                order=problem_major(n_trees, len(self.problems)),
            ),
            first.run(
                attempts,
                seed=seeds.tree(self.seed, len(searched)),
                prefix="eval/first/",
                on_tree=on_tree,
                order=problem_major(n_first, len(self.problems)),
            ),
        )
        stats = RolloutStats()
        stats.merge(full.stats)
        stats.merge(first.stats)
        return GrownTrees(results, single, stats)

    def _outcomes(self, grown: GrownTrees) -> list[ProblemOutcome]:
        """Per-problem outcomes of the searched trees and of the first-node attempts."""
        independent = independent_attempts(self.search.algo)
        return merge_outcomes(
            [tree_outcome(r.records, independent) for r in grown.searched]
            + [tree_outcome(r.records, independent=True, searched=False) for r in grown.first]
        )


@dataclass
class GrownTrees:
    """The trees of one evaluation: `searched` grew the full search, `first` stopped at their
    first node; `stats` covers both."""

    searched: list[TreeResult]
    first: list[TreeResult]
    stats: RolloutStats

    @property
    def records(self) -> list[NodeRecord]:
        """Every node record, the searched trees' first."""
        return [r for result in (*self.searched, *self.first) for r in result.records]


def problem_major(repeats: int, n_problems: int) -> list[int]:
    """The order to start `repeats` passes over `n_problems` problems (tree r * n_problems + k is
    pass r at problem k) so that a problem's trees start together: their first requests share one
    prefill of its prompt. In pass order a problem's prompt came back only after every other
    problem's prompt and refinements had been computed: in an evaluation of 100 problems, long
    after the engine's prompt cache (mars2.engine.prompt_cache.PROMPT_CACHE_BYTES) had dropped it."""
    return [r * n_problems + k for k in range(n_problems) for r in range(repeats)]


def summary(evaluation: Evaluation, names: Sequence[str]) -> dict[str, Any]:
    """metrics.json of an evaluation: `pass@1`, `pass@1_mcts`, `pass@n` (and every other metric)
    with `_lo` / `_hi` interval ends, tree shape and per-agent statistics (nodes, share, mean
    score, wins, passed)."""
    rec = evaluation.eval_json
    out: dict[str, Any] = {}
    for name, m in rec["metrics"].items():
        out[name], out[f"{name}_lo"], out[f"{name}_hi"] = m["value"], m["lo"], m["hi"]
    proto = rec["protocol"]
    # shape over every tree (those stopped at their first node included); per agent: wins are
    # trees whose Pass@1(MCTS) pick it wrote
    trees = summarize(by_tree(evaluation.records), range(len(names)))
    out.update(
        {
            "n_problems": len(rec["per_problem"]),
            "samples": proto["samples"],
            "algo": proto["search"]["algo"],
            "budget": proto["search"]["budget"],
            "problems": proto["problems"],
            "nodes": len(evaluation.records),
            "mean_nodes": rec["trees"]["mean_nodes"],
            "mean_max_depth": trees.mean_max_depth,
            "mean_branching": trees.mean_branching,
            "refined_share": rec["trees"]["refined_share"],
            "refined_share_after_fail": rec["trees"]["refined_share_after_fail"],
            "distinct_programs": distinct_programs(evaluation.records),
            "cached": evaluation.cached,
            "agents": {names[a.agent_id]: a.to_json() for a in trees.agents},
        }
    )
    return out


def evaluate_teams(
    config: Config,
    teams: Sequence[Sequence[int]],
    *,
    label: str,
    models: dict[int, tuple[Any, Any]] | None = None,
    search: SearchConfig | None = None,
    on_tree: Callable[[TreeResult], None] | None = None,
) -> list[Evaluation]:
    """Load the agents of `config` (`models` gives (model, tokenizer) for those whose weights
    come from a checkpoint) and evaluate each team (a list of agent indices) in turn."""
    import asyncio

    from mars2.rollout.engines import load_policies
    from mars2.sandbox import Sandbox

    evaluator = Evaluator(config, search)
    policies = load_policies(config.agents, seed=config.seed, models=models)
    try:
        with Sandbox(config.sandbox) as sandbox:

            async def all_teams() -> list[Evaluation]:
                done = []
                for ids in teams:
                    done.append(
                        await evaluator.run(
                            [policies[i] for i in ids],
                            [config.agents[i] for i in ids],
                            sandbox,
                            label=label,
                            on_tree=on_tree,
                        )
                    )
                return done

            return asyncio.run(all_teams())
    finally:
        for policy in policies:
            policy.close()
