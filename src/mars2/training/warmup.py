"""`mars2 sft`: a supervised warm-up on hindsight repair pairs, before RL.

The pairs (`training.hindsight`) come from finished trees of training problems, typically the
base model's own (a `mars2 search` over the training split, or an earlier run's trees/). Each
step draws `train.sft_pairs_per_step` pairs in a seeded order reshuffled every pass and takes
one optimizer step per set of trained weights on the supervised loss of its agents' pairs
(`rl.sft_loss`, weight 1). It is a `Trainer` whose step is that update: the evaluations,
metrics.jsonl, checkpoints and `--resume` are the training run's. docs/training.md,
"Supervised warm-up".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mars2.config import Config
from mars2.credit.hindsight import repair_cases
from mars2.errors import UserError
from mars2.problems import load_problems
from mars2.rollout import Orchestrator
from mars2.training.hindsight import RepairPair, build_pairs, for_agents, read_trees
from mars2.training.loop import ProblemStream, Trainer
from mars2.training.placement import Placement

PAIRS_FILE = "pairs.jsonl"  # in the run directory: what a resumed warm-up trains on


def config_pairs(config: Config, sources: Sequence[str | Path]) -> list[RepairPair]:
    """The repair pairs of the trees in `sources` for `config`'s trainable agents: trees of
    `data.train` problems (split `data.train_split`) only; a tree of any other problem, or of
    an `eval.problems` problem, is a UserError."""
    problems = load_problems(
        config.data.train, split=config.data.train_split, limit=config.data.limit, warn=False
    )
    evaluation = {p.id for p in load_problems(config.eval.problems, warn=False)}
    return build_pairs(
        repair_cases(read_trees(sources)),
        {p.id: p for p in problems},
        [a for a in config.agents if a.trainable],
        split=config.data.train_split,
        evaluation=evaluation,
    )


class WarmUp(Trainer):
    """Supervised steps on `pairs` for the trainable agents, with the Trainer's run machinery."""

    def __init__(
        self,
        config: Config,
        run_dir: Path,
        pairs: Sequence[RepairPair],
        placement: Placement | None = None,
    ) -> None:
        unknown = sorted({p.agent for p in pairs} - set(config.agent_names))
        if unknown:
            raise UserError(
                f"repair pairs of agents {', '.join(unknown)}, which the config does not have "
                f"(agents: {', '.join(config.agent_names)})"
            )
        if not pairs:
            raise UserError(
                "no repair pairs: no tree holds both a failed and a passing node "
                '(docs/training.md, "Hindsight repair pairs")'
            )
        super().__init__(config, run_dir, placement)
        self.pairs = list(pairs)
        self.pair_stream = ProblemStream(self.pairs, config.seed)
        self.stream = self.pair_stream  # its cursor is what checkpoints keep and resume sets

    def train_step(
        self, orchestrator: Orchestrator, loop: asyncio.AbstractEventLoop
    ) -> dict[str, Any]:
        """One supervised step: the next `sft_pairs_per_step` pairs, one optimizer step per
        set of weights on its agents' pairs, then the weights go to the engines."""
        started = time.perf_counter()
        batch = self.pair_stream.take(self.config.train.sft_pairs_per_step)
        metrics: dict[str, Any] = {"step": self.step + 1, "sft/pairs": len(batch)}
        for learner, members in self._learner_groups():
            theirs = for_agents(batch, {self.names[i] for i in members})
            stats = learner.update([], theirs, 1.0)
            for agent_id in members:
                self.placement.sync(agent_id)
                name = self.names[agent_id]
                metrics.update({f"{key}/{name}": value for key, value in stats.items()})
        metrics["time/step"] = time.perf_counter() - started
        return metrics
