"""The rollout orchestrator: ask -> batched generation per agent -> sandbox -> tell, many trees at once.

Every tree runs as an asyncio task. A tree asks its search algorithm for up to
`parallel_expansions` trials, each trial becomes one generation request to the agent that the
search picked (the agent's engine coalesces requests from all trees into batches) and one
sandbox execution (run in worker processes, never on the event loop), and the score is told back.
Nothing here knows which model or search algorithm is behind the interfaces.

With `search.pooling` each tree's search starts from a prior pooled over the call's earlier trees
(`mars2.rollout.pooling`) and, with `pooling: run`, over the earlier calls (`self.pool`, carried
with `search.forgetting`: a training run's rollout rounds). With `search.copies: skip` a
refinement that reproduces its parent's program is not run again: it takes the parent's result.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mars2 import seeds
from mars2.agents.base import Policy
from mars2.agents.prompts import extract_code, generate_messages, refine_messages
from mars2.config import AgentConfig, SearchConfig
from mars2.credit import rewarded
from mars2.rollout.pooling import PoolGate
from mars2.treesearch import NodePayload, TreeState, Trial, make_algorithm, to_records
from mars2.treesearch.metrics import program_key
from mars2.treesearch.pool import ExpansionPool, PoolPrior
from mars2.types import Completion, ExecResult, NodeRecord, Problem, RewardKind, TestSet


class Executor(Protocol):
    """What the orchestrator needs of a sandbox (a `mars2.sandbox.Sandbox`, or a pool of sandbox
    actors): grade code against a problem's tests without blocking the event loop."""

    async def arun(self, code: str, problem: Problem, which: TestSet = "all") -> ExecResult: ...


@dataclass
class RolloutStats:
    """Wall time split (seconds summed over concurrent work) and counts, for logs and benches."""

    generate_s: float = 0.0
    execute_s: float = 0.0
    search_s: float = 0.0
    nodes: int = 0
    tokens: int = 0
    trees: int = 0
    copies: int = 0  # refinements that reproduced their parent and were not run (copies: skip)

    def merge(self, other: RolloutStats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class TreeResult:
    """A finished tree: its problem, the search state (nodes with payloads) and node records."""

    tree_id: str
    problem: Problem
    state: TreeState
    records: list[NodeRecord] = field(default_factory=list)


class Orchestrator:
    """Grows one tree per problem with the given agents, `search.trees_in_flight` trees at once.
    `pool`: the pooled statistics carried over calls (`pooling: run`); the caller may pass its
    own (a trainer, which saves it with its checkpoints), updated in place after every call."""

    def __init__(
        self,
        policies: Sequence[Policy],
        agents: Sequence[AgentConfig],
        sandbox: Executor,
        search: SearchConfig,
        *,
        reward: RewardKind = "fraction",
        pool: ExpansionPool | None = None,
    ) -> None:
        assert len(policies) == len(agents) >= 1
        self.policies = list(policies)
        self.agents = list(agents)
        self.sandbox = sandbox
        self.search = search
        self.algorithm = make_algorithm(search, len(agents))
        self.reward = reward
        self.stats = RolloutStats()
        self.pool = ExpansionPool() if pool is None else pool

    async def grow(
        self, problem: Problem, tree_id: str, seed: int, prior: PoolPrior | None = None
    ) -> TreeResult:
        """Run the search on one problem until its node budget is spent (`prior`: the pooled
        prior the search starts from)."""
        started = time.perf_counter()
        state = self.algorithm.init_tree(seed, prior)
        # Results are told in the order the trials were asked, not the order they finish: the
        # tree then depends only on the seed, never on how fast the sandbox or the engine was.
        in_flight: deque[tuple[Trial, asyncio.Task[tuple[float, NodePayload, bool]]]] = deque()
        while True:
            room = self.search.parallel_expansions - len(in_flight)
            if room > 0:
                for trial in self.algorithm.ask(state, room):
                    task = asyncio.create_task(self._expand(problem, state, trial, seed))
                    in_flight.append((trial, task))
            if not in_flight:
                break
            trial, task = in_flight.popleft()
            score, payload, copy = await task
            self.algorithm.tell(state, trial, score, payload, copy=copy)
        self.stats.search_s += time.perf_counter() - started
        self.stats.trees += 1
        records = rewarded(to_records(state, tree_id, problem.id), self.reward)
        return TreeResult(tree_id, problem, state, records)

    async def _expand(
        self, problem: Problem, state: TreeState, trial: Trial, seed: int
    ) -> tuple[float, NodePayload, bool]:
        """One node: prompt (fresh or refinement), generate, extract code, run the public tests
        (the score, the feedback) and the hidden ones (with the public ones: `passed` and the
        reward). Returns the score, the payload and whether the node is a skipped copy."""
        agent = self.agents[trial.agent_id]
        if trial.parent_id is None:
            messages = generate_messages(problem, agent.role, agent.system_prompt)
        else:
            parent_node = state.nodes[trial.parent_id]
            parent = parent_node.payload
            assert parent is not None
            messages = refine_messages(
                problem,
                parent.code,
                parent.feedback,
                agent.role,
                agent.system_prompt,
                passes_public=parent_node.score is not None and parent_node.score >= 1.0,
            )
        t0 = time.perf_counter()
        completion = await self.policies[trial.agent_id].generate(
            messages, seed=seeds.node_request(seed, trial.node_id)
        )
        t1 = time.perf_counter()
        code = extract_code(completion.text)
        self.stats.generate_s += t1 - t0
        self.stats.tokens += completion.response_len
        copied = self._copied(state, trial, code, completion)
        if copied is not None:
            return copied
        public = await self.sandbox.arun(code, problem, "public")
        # The reward counts every test; only the public ones steer the search and reach a prompt.
        hidden = (
            await self.sandbox.arun(code, problem, "private") if problem.private_tests else None
        )
        t2 = time.perf_counter()
        self.stats.execute_s += t2 - t1
        self.stats.nodes += 1
        every = ExecResult(tests=(*public.tests, *(hidden.tests if hidden is not None else ())))
        payload = NodePayload(
            code=code,
            feedback=public.feedback,
            completion=completion,
            passed=every.passed,
            pass_fraction=every.pass_fraction,
        )
        return public.pass_fraction, payload, False

    def _copied(
        self, state: TreeState, trial: Trial, code: str, completion: Completion
    ) -> tuple[float, NodePayload, bool] | None:
        """With `copies: skip`, a refinement whose program is its parent's (`program_key`) takes
        the parent's score and verdicts instead of running again; None otherwise."""
        if self.search.copies != "skip" or trial.parent_id is None:
            return None
        parent = state.nodes[trial.parent_id]
        was = parent.payload
        if was is None or parent.score is None or program_key(code) != program_key(was.code):
            return None
        self.stats.nodes += 1
        self.stats.copies += 1
        payload = NodePayload(
            code=code,
            feedback=was.feedback,
            completion=completion,
            passed=was.passed,
            pass_fraction=was.pass_fraction,
        )
        return parent.score, payload, True

    async def run(
        self,
        problems: Sequence[Problem],
        *,
        seed: int = 0,
        prefix: str = "",
        on_tree: Callable[[TreeResult], None] | None = None,
        order: Sequence[int] | None = None,
    ) -> list[TreeResult]:
        """Grow one tree per problem, at most `trees_in_flight` at once; results in input order.
        Tree i is seeded `seeds.tree(seed, i)` (its search and its generation requests). Tree ids are
        `prefix + problem id`, with `#i` appended when a problem appears twice. `order`: the
        order the trees start in (a permutation of 0..len(problems)-1; default: input order).
        Seeds, ids and results stay those of each tree's index, so it changes only timing: which
        requests meet in the engine (attempts at one prompt started together share its prefill)."""
        starts = list(range(len(problems))) if order is None else list(order)
        if sorted(starts) != list(range(len(problems))):
            raise ValueError(f"order must be a permutation of 0..{len(problems) - 1}")
        gate = asyncio.Semaphore(self.search.trees_in_flight)
        repeated = len({p.id for p in problems}) < len(problems)
        pooled = self._pool_gate(len(problems))

        async def one(index: int, problem: Problem) -> TreeResult:
            tree_id = f"{prefix}{problem.id}" + (f"#{index}" if repeated else "")
            # the prior is awaited outside the gate: a tree waiting for earlier trees holds no
            # slot they need
            prior = None if pooled is None else await pooled.prior(index)
            async with gate:
                result = await self.grow(problem, tree_id, seeds.tree(seed, index), prior)
            if pooled is not None:
                pooled.finish(index, result.state)
            if on_tree is not None:
                on_tree(result)
            return result

        # the gate admits waiting trees first come, first served: tasks start in `starts` order
        done = await asyncio.gather(*(one(i, problems[i]) for i in starts))
        if pooled is not None and self.search.pooling == "run":
            self.pool.carry(pooled.call_pool(), self.search.forgetting)
        by_index = dict(zip(starts, done, strict=True))
        return [by_index[i] for i in range(len(problems))]

    def _pool_gate(self, n_trees: int) -> PoolGate | None:
        """The priors of a call's trees: None without pooling; with `pooling: call` the call's
        own trees only, with `run` also the pool carried from earlier calls."""
        search = self.search
        if search.pooling == "none" or not self.algorithm.uses_prior:
            return None
        base = self.pool if search.pooling == "run" else ExpansionPool()
        return PoolGate(base, n_trees, search.pool_lag, search.pool_strength)
