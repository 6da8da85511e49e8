"""The configuration's schema: one frozen dataclass per concern, composed into `Config`, each
field with its default, its check and its docstring (`metadata["doc"]`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mars2.config.agent import AgentConfig
from mars2.config.fields import check, setting
from mars2.config.run import ClusterConfig, DataConfig, EvalConfig, OutputConfig, TrainConfig
from mars2.config.search import CreditConfig, LossConfig, SandboxConfig, SearchConfig
from mars2.errors import ConfigError


@dataclass(frozen=True)
class Config:
    """Everything a run needs. `agents` is a list: several agents may share one base model."""

    seed: int = setting(0, "Seed for search, sampling, data order and initialisation.")
    agents: tuple[AgentConfig, ...] = setting(
        (
            AgentConfig(name="coder", lora_rank=16, max_batch_size=32),
            AgentConfig(
                name="debugger",
                role="debugger",
                lora_rank=16,
                max_batch_size=32,
                share_with="coder",
            ),
        ),
        "The agents, in order (agent_id = index). Default (the main job, docs/training.md): "
        "two SmolLM2 agents, a coder and a debugger, training one LoRA adapter (rank 16) "
        "together (`share_with`).",
    )
    search: SearchConfig = setting(SearchConfig(), "Tree search.")
    sandbox: SandboxConfig = setting(SandboxConfig(), "Code execution.")
    credit: CreditConfig = setting(CreditConfig(), "Credit assignment.")
    loss: LossConfig = setting(LossConfig(), "Policy loss.")
    data: DataConfig = setting(DataConfig(), "Problems.")
    train: TrainConfig = setting(TrainConfig(), "Training loop.")
    eval: EvalConfig = setting(EvalConfig(), "Evaluation protocol.")
    cluster: ClusterConfig = setting(ClusterConfig(), "Placement across processes and machines.")
    output: OutputConfig = setting(OutputConfig(), "Run directory and logging.")

    def __post_init__(self) -> None:
        check(len(self.agents) >= 1, "agents", list(self.agents), "needs at least one agent")
        # One agent-name rule: an unnamed agent is `agent<i>` everywhere (metrics, policies,
        # checkpoints, evaluations), so the name is filled in here, once.
        named = tuple(
            agent if agent.name else dataclasses.replace(agent, name=f"agent{i}")
            for i, agent in enumerate(self.agents)
        )
        object.__setattr__(self, "agents", named)
        names = [agent.name for agent in named]
        repeated = sorted({n for n in names if names.count(n) > 1})
        check(not repeated, "agents", repeated, "agent names must be unique")
        share = self.search.min_share * len(self.agents)
        check(share <= 1, "search.min_share", self.search.min_share, "times #agents must be <= 1")
        _check_sharing(self)
        train = self.train
        check(
            not (
                self.cluster.backend == "ray"
                and train.update == "per_agent"
                and train.overlap
                and train.max_staleness == 0
            ),
            "train.max_staleness",
            train.max_staleness,
            "with update: per_agent and overlap: true on Ray a rollout's nodes are one version "
            "old when they train; set max_staleness >= 1 or overlap: false",
        )

    def agent_name(self, agent_id: int) -> str:
        """The agent's name (`agents.N.name`, or `agent<N>` when unset)."""
        return self.agents[agent_id].name

    @property
    def agent_names(self) -> list[str]:
        """Every agent's name, in order (`agent_name`)."""
        return [self.agent_name(i) for i in range(len(self.agents))]

    def weights_owner(self, agent_id: int) -> int:
        """The agent whose weights agent `agent_id` uses: itself, or the one it `share_with`s."""
        owner = self.agents[agent_id].share_with
        if owner is None:
            return agent_id
        return self.agent_names.index(owner)


# Settings that agents on one set of weights (`share_with`) must agree on.
SHARED_SETTINGS = (
    "model",
    "backend",
    "device",
    "dtype",
    "trainable",
    "lora_rank",
    "lora_alpha",
    "temperature",
    "max_new_tokens",
)


def _check_sharing(config: Config) -> None:
    """`agents.N.share_with` names another agent that shares with nobody, with equal settings."""
    names = config.agent_names
    for i, agent in enumerate(config.agents):
        if agent.share_with is None:
            continue
        where = f"agents.{i}.share_with"
        if agent.share_with == names[i]:
            raise ConfigError(where, agent.share_with, "an agent cannot share with itself")
        owners = [j for j, name in enumerate(names) if name == agent.share_with]
        if not owners:
            raise ConfigError(where, agent.share_with, f"no agent has that name; agents: {names}")
        if len(owners) > 1:
            raise ConfigError(where, agent.share_with, "several agents have that name")
        owner = config.agents[owners[0]]
        if owner.share_with is not None:
            raise ConfigError(
                where,
                agent.share_with,
                f"that agent shares with {owner.share_with!r} in turn; name {owner.share_with!r}",
            )
        for key in SHARED_SETTINGS:
            if getattr(agent, key) != getattr(owner, key):
                raise ConfigError(
                    where,
                    agent.share_with,
                    f"agents on one set of weights need the same {key}: "
                    f"{getattr(agent, key)!r} here, {getattr(owner, key)!r} there (set "
                    f"agents.{i}.{key} too, or agents.{i}.share_with=null for weights of its own)",
                )
