"""The MARS² training loop. One step, top to bottom:

sample problems -> grow trees (or independent samples for `grpo`) -> credit assignment ->
per-agent batches (each agent learns only from the nodes it wrote; dynamic filtering) ->
update each trainable agent -> push weights to its rollout engine -> log ->
periodic evaluation -> checkpoint.

With `train.update: per_agent` a step rolls out one round and the batches go through per-agent
buffers: each set of weights updates whenever its buffer holds a full batch
(`mars2.training.buffers`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from mars2 import jsonl, machine, seeds
from mars2.config import Config
from mars2.credit import assign_credit, filter_groups
from mars2.errors import InfraError, UserError
from mars2.evaluation.progress import TreeLog
from mars2.evaluation.record import flat as flat_metrics
from mars2.evaluation.run import Evaluator
from mars2.problems import load_problems
from mars2.problems.sets import warn_no_hidden
from mars2.rollout import Orchestrator, TreeResult
from mars2.rollout.collapse import distinct_programs, policy_figures
from mars2.rollout.orchestrator import Executor
from mars2.rundir import RunDir, step_name
from mars2.training import checkpoint
from mars2.training.buffers import InFlight, SampleBuffers, update_from_buffers
from mars2.training.hindsight import RepairPair, for_agents, step_pairs
from mars2.training.logger import MetricsLogger, logged_steps
from mars2.training.placement import (
    LearnerLike,
    LocalPlacement,
    Placement,
    SubmittingLearner,
)
from mars2.training.plan import plan_for
from mars2.treesearch.metrics import independent_attempts, summarize
from mars2.treesearch.pool import ExpansionPool
from mars2.types import Sample

log = logging.getLogger(__name__)
T = TypeVar("T")


class ProblemStream(Generic[T]):
    """Problems (or any items: the warm-up's repair pairs) in a seeded order, reshuffled every
    epoch; its cursor is checkpointed."""

    def __init__(self, problems: Sequence[T], seed: int, cursor: int = 0) -> None:
        self.problems = list(problems)
        self.seed = seed
        self.cursor = cursor

    def _order(self, epoch: int) -> list[int]:
        order = list(range(len(self.problems)))
        random.Random(seeds.data_order(self.seed, epoch)).shuffle(order)
        return order

    def take(self, k: int) -> list[T]:
        out = []
        for _ in range(k):
            epoch, index = divmod(self.cursor, len(self.problems))
            out.append(self.problems[self._order(epoch)[index]])
            self.cursor += 1
        return out


def to_samples(results: Sequence[TreeResult], config: Config) -> tuple[list[Sample], int]:
    """Credit assignment over finished trees -> training samples, and the number of nodes kept
    after dynamic filtering. The overlong penalty of each node uses its agent's own
    `max_new_tokens` as L_max. A completion without a log-prob for each of its response tokens is
    an InfraError (a backend that cannot report them cannot train)."""
    records = [record for result in results for record in result.records]
    max_len = {i: agent.max_new_tokens for i, agent in enumerate(config.agents)}
    credits = assign_credit(
        records, config.credit, max_len=max_len, independent=plan_for(config).independent
    )
    credits = filter_groups(credits, config.credit)
    completions = {
        (result.tree_id, node.id): node.payload.completion
        for result in results
        for node in result.state.nodes.values()
        if node.payload is not None
    }
    samples = []
    for credit in credits:
        completion = completions.get((credit.tree_id, credit.node_id))
        if completion is None or not completion.response_ids:
            continue
        if len(completion.logprobs) != len(completion.response_ids):
            # zeros would read as probability 1 and skew every importance weight
            agent = config.agents[credit.agent_id]
            raise InfraError(
                f"agent {config.agent_name(credit.agent_id)!r} (backend {agent.backend!r}) "
                f"returned {len(completion.logprobs)} log-probs for "
                f"{len(completion.response_ids)} response tokens (node {credit.node_id} of "
                f"tree {credit.tree_id}): training needs the engine's log-prob of every "
                "sampled token (importance sampling against the rollout policy)"
            )
        samples.append(
            Sample(
                agent_id=credit.agent_id,
                prompt_ids=list(completion.prompt_ids),
                response_ids=list(completion.response_ids),
                rollout_logprobs=list(completion.logprobs),
                advantage=credit.advantage,
                reward=credit.reward,
                group=credit.tree_id,
            )
        )
    return samples, len(credits)


class Trainer:
    """Owns the agents (models, engines, learners), the sandbox and the run directory."""

    def __init__(self, config: Config, run_dir: Path, placement: Placement | None = None) -> None:
        self.config = config
        self.run_dir = run_dir
        self.run = RunDir(run_dir)
        self.names = config.agent_names
        for agent in config.agents:
            if agent.trainable and agent.backend == "openai":
                raise UserError(
                    f"agent {agent.name!r}: backend 'openai' returns no token ids "
                    "and cannot be trained; set trainable: false"
                )
        self.problems = load_problems(
            config.data.train, split=config.data.train_split, limit=config.data.limit, warn=False
        )
        warn_no_hidden(config.data.train, self.problems, reward=config.credit.reward)
        self.evaluator = Evaluator(config)
        if not self.problems:
            raise UserError(f"data.train {config.data.train!r} has no problems in that split")
        if placement is None and config.cluster.backend != "local":
            raise UserError(
                f"cluster.backend={config.cluster.backend}: pass the placement, "
                "Trainer(config, run_dir, mars2.cluster.make_placement(config))"
            )
        self.placement = placement or LocalPlacement(config)
        self.learners = self.placement.learners
        self.policies = self.placement.policies
        self.stream: ProblemStream[Any] = ProblemStream(self.problems, config.seed)
        # every mode counts each set of weights' updates (node versions); per_agent also queues
        self.buffers = SampleBuffers(
            {
                self._owner(members): config.train.agent_batch * len(members)
                for _, members in self._learner_groups()
            },
            config.train.max_staleness,
        )
        # `train.overlap`: updates submitted to learners in processes of their own, collected
        # after the next rollout; None: updates run in turn
        overlap = (
            config.train.update == "per_agent"
            and config.train.overlap
            and all(isinstance(lrn, SubmittingLearner) for lrn, _ in self._learner_groups())
        )
        self.in_flight: list[InFlight] | None = [] if overlap else None
        self.step = 0
        self.unlogged: dict[str, Any] | None = None  # see load_state_dict
        # the search's statistics carried over rollout rounds (`search.pooling: run`)
        self.search_pool = ExpansionPool()

    # ------------------------------------------------------------------ one step

    def train_step(
        self, orchestrator: Orchestrator, loop: asyncio.AbstractEventLoop
    ) -> dict[str, Any]:
        step = self.step
        metrics: dict[str, Any] = {"step": step + 1}
        started, cpu_before = time.perf_counter(), machine.cpu_times()
        before = dataclasses.replace(orchestrator.stats)

        # 1. sample problems and grow one tree (or group of independent samples) per problem;
        # 2. credit assignment and dynamic filtering -> per-agent samples (`_rollout`)
        t_rollout = time.perf_counter()
        results, samples, kept, rounds = self._rollout(orchestrator, loop)
        rollout_s = time.perf_counter() - t_rollout
        self._save_trees(results, step + 1)

        # 3. update each set of trainable weights on the nodes its agents wrote (per_agent: on
        # each full batch its buffer holds), then push the weights to their engines
        learn_s, sync_s = self._learn(samples, metrics, self._repairs(results))

        # 4. log
        records = [r for result in results for r in result.records]
        summary = summarize(
            [r.records for r in results],
            range(len(self.names)),
            independent_attempts(orchestrator.search.algo),
        )
        stats = orchestrator.stats
        metrics.update(
            {
                "train/reward/mean": _mean([r.reward for r in records]),
                "train/pass_rate": _mean([float(r.passed) for r in records]),
                "train/pass@n": summary.pass_at_n,
                "train/public_only_pass": sum(r.public_only_pass for r in records),
                "train/distinct_programs": distinct_programs(records),
                "train/nodes": len(records),
                "train/kept": kept,
                "train/samples": len(samples),
                "train/rounds": rounds,
                # wall seconds of the step's phases (they add up to at most time/step) ...
                "time/rollout": rollout_s,
                # ... and seconds summed over concurrent trees (busy time, not wall time)
                "time/busy/generate": stats.generate_s - before.generate_s,
                "time/busy/execute": stats.execute_s - before.execute_s,
                "time/learn": learn_s,
                "time/sync": sync_s,
                "tokens/generated": stats.tokens - before.tokens,
            }
        )
        for agent_id, name in enumerate(self.names):
            written = [r for r in records if r.agent_id == agent_id]
            metrics[f"train/reward/{name}"] = _mean([r.reward for r in written])
            metrics[f"train/share/{name}"] = summary.agents[agent_id].share
            metrics[f"train/truncated/{name}"] = _mean([float(r.truncated) for r in written])
            for key, value in policy_figures(results, agent_id).items():
                metrics[f"train/{key}/{name}"] = value
            if self.learners[agent_id] is not None:
                metrics[f"train/samples/{name}"] = sum(s.agent_id == agent_id for s in samples)
        self._note_starved(samples, rounds, metrics)
        metrics["time/step"] = time.perf_counter() - started
        return metrics | _stolen("machine/steal", cpu_before)

    def _rollout(
        self, orchestrator: Orchestrator, loop: asyncio.AbstractEventLoop
    ) -> tuple[list[TreeResult], list[Sample], int, int]:
        """Roll out rounds of `problems_per_step` trees, credit them and keep per-agent samples
        (results, samples, nodes kept after filtering, rounds). Groups without signal are
        dropped, so more problems are rolled out until every trainable agent has
        `min_samples_per_agent` samples or `max_rollout_rounds` rounds ran. A round that
        completes a batch is used whole: its samples come from the current policy. With
        `update: per_agent` one round: the buffers carry what is short to the next step. Every
        node and sample is stamped with its writer's weights version."""
        config, step = self.config, self.step
        results: list[TreeResult] = []
        samples: list[Sample] = []
        kept = rounds = 0
        refill = config.train.update == "sync"
        versions = self._versions()
        while rounds == 0 or (
            refill and rounds < config.train.max_rollout_rounds and not self._batches_full(samples)
        ):
            problems = self.stream.take(config.train.problems_per_step)
            seed = seeds.rollout(config.seed, step, rounds)
            round_results = loop.run_until_complete(
                orchestrator.run(problems, seed=seed, prefix=f"s{step + 1}r{rounds}/")
            )
            for result in round_results:
                result.records = [
                    dataclasses.replace(r, version=versions[r.agent_id]) for r in result.records
                ]
            results += round_results
            round_samples, round_kept = to_samples(round_results, config)
            for sample in round_samples:
                sample.version = versions[sample.agent_id]
            samples += round_samples
            kept += round_kept
            rounds += 1
        return results, samples, kept, rounds

    def _note_starved(
        self, samples: Sequence[Sample], rounds: int, metrics: dict[str, Any]
    ) -> None:
        """`train/starved/NAME` for every agent, and a warning for each set of weights that got
        no samples. Starved is a property of a set of weights: agents that `share_with` one
        learner pool their samples, so one of them writing nothing does not stop the update.
        Not for `update: per_agent`: there a short buffer waits, it does not starve."""
        if self.config.train.update == "per_agent":
            return
        for _, members in self._learner_groups():
            starved = not any(s.agent_id in members for s in samples)
            for agent_id in members:
                metrics[f"train/starved/{self.names[agent_id]}"] = float(starved)
            if starved:
                log.warning(
                    "step %d: %s got no samples after %d rollout round(s) (every group %s had "
                    "equal rewards): %s no optimizer step",
                    self.step + 1,
                    _agents_phrase([self.names[i] for i in members]),
                    rounds,
                    "it wrote" if len(members) == 1 else "they wrote",
                    "it takes" if len(members) == 1 else "their shared weights take",
                )

    def _repairs(self, results: Sequence[TreeResult]) -> list[RepairPair]:
        """The step's hindsight repair pairs for the trainable agents (docs/training.md), built
        only when the supervised term is on (`train.aux_sft_weight` > 0)."""
        if self.config.train.aux_sft_weight <= 0:
            return []
        return step_pairs(
            [r for result in results for r in result.records],
            {p.id: p for p in self.problems},
            [a for a in self.config.agents if a.trainable],
            split=self.config.data.train_split,
            evaluation={p.id for p in self.evaluator.problems},
        )

    def _learn(
        self,
        samples: Sequence[Sample],
        metrics: dict[str, Any],
        repairs: Sequence[RepairPair] = (),
    ) -> tuple[float, float]:
        """The step's updates as `train.update` says; (learn, sync) seconds."""
        if self.config.train.update == "sync":
            return self._update(samples, metrics, repairs)
        groups = [(lrn, members, self._owner(members)) for lrn, members in self._learner_groups()]
        return update_from_buffers(
            self.buffers,
            groups,
            samples,
            self.placement,
            self.names,
            metrics,
            in_flight=self.in_flight,
            drain=self._checkpoint_due(self.step + 1) or self._eval_due(self.step + 1),
        )

    def _update(
        self,
        samples: Sequence[Sample],
        metrics: dict[str, Any],
        repairs: Sequence[RepairPair] = (),
    ) -> tuple[float, float]:
        """Update each learner on its agents' samples (one agent's, or the union of those that
        `share_with` one set of weights), sync their engines; return (learn, sync) seconds.
        Learner figures go to `metrics` under every agent's name; for shared weights,
        `samples/NAME` and `tokens/NAME` count the agent's own part of the batch."""
        t_learn = time.perf_counter()
        if self.config.train.aux_sft_weight > 0:
            metrics["train/repair_pairs"] = len(repairs)
        self.placement.free_rollout_memory()  # the engines' caches: memory for the update
        sync_s = 0.0
        for learner, members in self._learner_groups():
            mine = [s for s in samples if s.agent_id in members]
            theirs = for_agents(repairs, {self.names[i] for i in members})
            weight = self.config.train.aux_sft_weight
            stats = learner.update(mine, theirs, weight) if theirs else learner.update(mine)
            self.buffers.versions[self._owner(members)] += bool(stats)  # {}: no optimizer step
            t_sync = time.perf_counter()
            for agent_id in members:
                self.placement.sync(agent_id)
            sync_s += time.perf_counter() - t_sync
            for agent_id in members:
                own = [s for s in mine if s.agent_id == agent_id]
                name = self.names[agent_id]
                metrics.update({f"{key}/{name}": value for key, value in stats.items()})
                if len(members) > 1 and stats:
                    metrics[f"samples/{name}"] = float(len(own))
                    metrics[f"tokens/{name}"] = float(sum(len(s.response_ids) for s in own))
        return time.perf_counter() - t_learn - sync_s, sync_s

    def _learner_groups(self) -> list[tuple[LearnerLike, list[int]]]:
        """Each distinct learner with the agents it trains (several when they share weights)."""
        groups: dict[int, tuple[LearnerLike, list[int]]] = {}
        for agent_id, learner in enumerate(self.learners):
            if learner is not None:
                groups.setdefault(id(learner), (learner, []))[1].append(agent_id)
        return list(groups.values())

    def _owner(self, members: Sequence[int]) -> str:
        """The name of the agent that owns the weights `members` train."""
        return self.names[self.config.weights_owner(members[0])]

    def _versions(self) -> dict[int, int]:
        """Every agent's weights version as its engines hold it: updates its weights took (0
        for a frozen agent), less those still in flight (`train.overlap`)."""
        out = {}
        for i in range(len(self.names)):
            owner = self.names[self.config.weights_owner(i)]
            running = sum(u.owner == owner for u in self.in_flight or ())
            out[i] = self.buffers.versions.get(owner, 0) - running
        return out

    def _checkpoint_due(self, step: int) -> bool:
        return self._due(step, self.config.train.checkpoint_every)

    def _eval_due(self, step: int) -> bool:
        return self._due(step, self.config.eval.every)

    def _due(self, step: int, every: int) -> bool:
        """Step `step` is the run's last or a multiple of `every` (0: only the last)."""
        return step == self.config.train.steps or bool(every and step % every == 0)

    def _batches_full(self, samples: Sequence[Sample]) -> bool:
        """Every set of trainable weights has `min_samples_per_agent` samples per agent that
        trains it (agents that share weights pool their samples): the refill's one rule."""
        need = self.config.train.min_samples_per_agent
        return all(
            sum(s.agent_id in members for s in samples) >= need * len(members)
            for _, members in self._learner_groups()
        )

    def _save_trees(self, results: Sequence[TreeResult], step: int) -> None:
        if not self.config.output.save_trees:
            return
        path = self.run.trees(step)
        for old in self.run.tree_files_of(step):  # a redone step of an older run: 5 digits
            if old != path:
                old.unlink()
        jsonl.write(path, [r.to_json() for result in results for r in result.records])

    def evaluate(
        self, sandbox: Executor, loop: asyncio.AbstractEventLoop, *, each_agent: bool = False
    ) -> dict[str, float]:
        """The evaluation protocol (`eval.*`) on the current weights: `eval/pass@1`,
        `eval/pass@1_lo`, `eval/pass@1_hi`, ... for the team and, with `each_agent` and several
        agents, `eval/<agent>/...` for each agent alone. Writes evals/step_<N>/eval.json (and
        eval-<agent>.json) with the trees beside them."""
        label = step_name(self.step)
        ids = list(range(len(self.names)))
        teams = [("", ids)] + ([(n, [i]) for i, n in enumerate(self.names)] if each_agent else [])
        out: dict[str, float] = {}
        for name, members in teams:
            evaluation = loop.run_until_complete(
                self.evaluator.run(
                    [self.policies[i] for i in members],
                    [self.config.agents[i] for i in members],
                    sandbox,
                    label=label,
                    # plain lines in the run's log: a final evaluation can take an hour
                    on_tree=TreeLog(
                        len(self.evaluator.problems) * self.config.eval.samples,
                        log,
                        " ".join(["eval", label, name]).strip(),
                    ),
                )
            )
            evaluation.write(
                self.run.step_eval(self.step, name or None),
                self.run.step_eval_trees(self.step, name or None),
            )
            out.update(flat_metrics(evaluation.eval_json, f"eval/{name}/" if name else "eval/"))
            if not name:
                out["eval/refined_share"] = evaluation.eval_json["trees"]["refined_share"]
                out["eval/public_only_pass"] = evaluation.eval_json["trees"]["public_only_pass"]
                out["eval/distinct_programs"] = distinct_programs(evaluation.records)
        return out

    def _timed_evaluate(
        self, sandbox: Executor, loop: asyncio.AbstractEventLoop, each_agent: bool
    ) -> dict[str, float]:
        """`evaluate` with its wall seconds (`time/eval`) and the share of them the machine's
        hypervisor took (`machine/steal_eval`)."""
        started, cpu_before = time.perf_counter(), machine.cpu_times()
        out = self.evaluate(sandbox, loop, each_agent=each_agent)
        out["time/eval"] = time.perf_counter() - started
        return out | _stolen("machine/steal_eval", cpu_before)

    # ------------------------------------------------------------------ checkpoints

    def state_dict(self) -> dict[str, Any]:
        """What a checkpoint holds (see `mars2.training.checkpoint`): one learner state per set of
        trained weights, under the name of the agent that owns them."""
        from mars2.agents.models import resolve_model

        assert not self.in_flight, "a checkpoint waits for the updates in flight (drain)"
        learners = {}
        for learner, members in self._learner_groups():
            owner = self.config.weights_owner(members[0])
            agent = self.config.agents[owner]
            base = None if agent.lora_rank > 0 else str(resolve_model(agent.model))
            learners[self.names[owner]] = {**learner.state_dict(), "base": base}
        shares = {
            self.names[i]: self.names[self.config.weights_owner(i)]
            for i, agent in enumerate(self.config.agents)
            if agent.share_with is not None
        }
        return {
            "step": self.step,
            "cursor": self.stream.cursor,
            "agents": list(self.names),
            "shares": shares,
            "learners": learners,
            "rng": checkpoint.rng_state(),
            "buffers": self.buffers.state_dict(),
            "search_pool": self.search_pool.to_json(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        saved = state["learners"]
        for learner, members in self._learner_groups():
            name = self.names[self.config.weights_owner(members[0])]
            if name not in saved:
                raise UserError(
                    f"the checkpoint has no weights for agent {name!r} (it has "
                    f"{', '.join(saved) or 'none'}); was the run's config changed?"
                )
            learner.load_state_dict(saved[name])
        self.step = state["step"]
        # the step's training metrics, saved before its evaluation and line (absent in older runs)
        self.unlogged = state.get("metrics")
        self.stream.cursor = state["cursor"]
        if "buffers" in state:  # absent in older runs: no versions counted, nothing queued
            self.buffers.load_state_dict(state["buffers"])
        self.search_pool.load_json(state.get("search_pool", []))  # absent in older checkpoints
        for agent_id, trained in enumerate(self.learners):
            if trained is not None:
                self.placement.sync(agent_id)
        checkpoint.set_rng_state(state["rng"])

    # ------------------------------------------------------------------ the run

    def fit(self, on_step: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        config = self.config
        logger = MetricsLogger(
            self.run_dir,
            tensorboard=config.output.tensorboard,
            wandb_project=config.output.wandb_project,
        )
        logger.keep_before(self.step + 1 if self.step else 0)
        jsonl.append(self.run.environment, [{"step": self.step + 1, **machine.facts()}])
        loop = asyncio.new_event_loop()
        last: dict[str, Any] = {}
        try:
            with self.placement.sandbox() as sandbox:
                train_rollout = self._orchestrator(sandbox)
                each_agent = config.eval.each_agent and len(self.names) > 1
                if self.step == 0 and config.eval.before:
                    base = {"step": 0, **self._timed_evaluate(sandbox, loop, each_agent)}
                    logger.log(base)
                    last.update(base)
                    if on_step:
                        on_step(base)
                if self.unlogged is not None and self.step not in logged_steps(self.run.metrics):
                    # resumed from a checkpoint whose step's evaluation or line never landed
                    closed = self._close_step(self.unlogged, sandbox, loop, each_agent, logger)
                    last.update(closed)
                    if on_step:
                        on_step(closed)
                while self.step < config.train.steps:
                    metrics = self.train_step(train_rollout, loop)
                    self.step += 1
                    if self._checkpoint_due(self.step):
                        # before the step's evaluation: a crash there costs the evaluation only
                        checkpoint.save(
                            self.run_dir,
                            self.step,
                            {**self.state_dict(), "metrics": metrics},
                            keep=config.train.keep_checkpoints,
                        )
                    metrics = self._close_step(metrics, sandbox, loop, each_agent, logger)
                    last.update(metrics)
                    if on_step:
                        on_step(metrics)
        finally:
            # end the engines' queue workers inside the loop before closing it
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:  # gather() of nothing would belong to another loop
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self.placement.close()
            loop.close()
            logger.close()
        return last

    def _close_step(
        self,
        metrics: dict[str, Any],
        sandbox: Executor,
        loop: asyncio.AbstractEventLoop,
        each_agent: bool,
        logger: MetricsLogger,
    ) -> dict[str, Any]:
        """The end of step `self.step`: its evaluation when one is due, then its metrics line."""
        final = self.step == self.config.train.steps
        metrics = dict(metrics)
        if self._eval_due(self.step):
            metrics.update(self._timed_evaluate(sandbox, loop, each_agent and final))
        logger.log(metrics)
        return metrics

    def _orchestrator(self, sandbox: Executor) -> Orchestrator:
        return Orchestrator(
            self.policies,
            self.config.agents,
            sandbox,
            plan_for(self.config).search,
            reward=self.config.credit.reward,
            pool=self.search_pool,
        )


def _stolen(key: str, cpu_before: list[int] | None) -> dict[str, float]:
    """{key: the share of the machine's CPU time its hypervisor stole since `cpu_before`}
    (`machine.stolen_share`), or {} where the machine does not tell."""
    steal = machine.stolen_share(cpu_before, machine.cpu_times())
    return {} if steal is None else {key: steal}


def _agents_phrase(names: Sequence[str]) -> str:
    """`agent coder`, or `agents coder and debugger (one set of weights)`."""
    if len(names) == 1:
        return f"agent {names[0]}"
    return f"agents {', '.join(names[:-1])} and {names[-1]} (one set of weights)"


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
