"""How a tree's nodes are grown, graded and credited, and the loss they train with: the `search`,
`sandbox`, `credit` and `loss` sections."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal

from mars2.config.fields import check, check_name, setting
from mars2.registry import AGGREGATIONS, ALGORITHMS, KL_ESTIMATORS, LOSSES, REWARDS


@dataclass(frozen=True)
class SearchConfig:
    """The tree search that grows one tree per problem (docs/search.md)."""

    algo: str = setting(
        "abmcts",
        "`abmcts` (multi-agent AB-MCTS-A), `sampling` (independent attempts, best-of-N), "
        "`refine` (one sequential refinement chain), `best_first`.",
    )
    budget: int = setting(4, "Nodes (generated candidates) per tree.")
    prior: Literal["normal", "beta"] = setting(
        "normal", "Score posterior: Normal-Inverse-chi-squared (`normal`) or `beta`."
    )
    agent_selection: Literal["tree", "node", "round_robin"] = setting(
        "tree",
        "Which agent writes a new node: Thompson sampling over each agent's scores in the tree "
        "(`tree`), per-node agent arms (`node`), or `round_robin`.",
    )
    min_share: float = setting(
        0.0, "Each agent writes at least this fraction of a tree's nodes (0 = no guarantee)."
    )
    parallel_expansions: int = setting(
        1,
        "Expansions of one tree in flight at once. 1 is the method: every node is chosen after "
        "its predecessors' scores are known (with k > 1 the first k nodes of a tree are all "
        "fresh attempts). Throughput comes from `trees_in_flight`.",
    )
    virtual_score: float = setting(
        0.0,
        "`abmcts`: the score a pending expansion counts as on its path until it is told "
        "(a virtual loss, so concurrent picks spread out).",
    )
    width: int = setting(
        2, "`best_first`: children per expanded node (the root gets `width` fresh attempts)."
    )
    trees_in_flight: int = setting(
        32,
        "Trees grown concurrently by the rollout orchestrator (what fills the engines' batches).",
    )

    pooling: Literal["none", "call", "run"] = setting(
        "run",
        "`abmcts`: where each tree's GEN/CONT and agent arms get their prior: `none` (the paper's "
        "per-tree prior), `call` (statistics of fresh attempts and refinements pooled over the "
        "earlier trees of the same search call), `run` (also carried over training steps, with "
        "`forgetting`, and saved with the checkpoint; an evaluation learns within its own trees, "
        'as with `call`). See docs/search.md, "Pooled priors".',
    )
    forgetting: float = setting(
        0.8,
        "`pooling: run`: weight of the pooled statistics carried into the next rollout round "
        "(a round k rounds back counts forgetting^k).",
    )
    pool_strength: float = setting(
        128.0, "Most pseudo-observations the pooled prior of one arm counts for (its weight)."
    )
    pool_lag: int = setting(
        32,
        "Tree i of a call draws its pooled prior from trees 0..i-pool_lag only (and waits for "
        "them), so the trees in flight together never see each other: the search is the same "
        "whatever the timing. Keep >= `trees_in_flight` for full throughput.",
    )
    refine_solved: bool = setting(
        False,
        "Whether a node passing every public test may be refined (false: it is never expanded; "
        "a refinement cannot raise its public score).",
    )
    copies: Literal["run", "skip"] = setting(
        "skip",
        "A refinement whose program equals its parent's (whitespace aside): `skip` it: reuse the "
        "parent's result, mark it `copy_of`, never expand or pick it, and (reward `fraction`) "
        "credit a failing copy 0; or `run` it in the sandbox like any node.",
    )

    def __post_init__(self) -> None:
        check_name(ALGORITHMS, "algo", self.algo)
        check(0 <= self.forgetting <= 1, "forgetting", self.forgetting, "must be in [0, 1]")
        check(self.pool_strength >= 0, "pool_strength", self.pool_strength, "must be >= 0")
        check(self.pool_lag >= 1, "pool_lag", self.pool_lag, "must be >= 1")
        check(self.budget >= 1, "budget", self.budget, "must be >= 1")
        check(0 <= self.min_share <= 1, "min_share", self.min_share, "must be in [0, 1]")
        check(
            self.parallel_expansions >= 1, "parallel_expansions", self.parallel_expansions, ">= 1"
        )
        check(self.trees_in_flight >= 1, "trees_in_flight", self.trees_in_flight, "must be >= 1")
        check(0 <= self.virtual_score <= 1, "virtual_score", self.virtual_score, "in [0, 1]")
        check(self.width >= 1, "width", self.width, "must be >= 1")


@dataclass(frozen=True)
class SandboxConfig:
    """Limits and isolation for executing candidate code (docs/sandbox.md)."""

    workers: int = setting(2, "Parallel sandbox workers.")
    timeout_s: float = setting(
        2.0, "Wall-clock seconds per test (LiveCodeBench uses 6; set 6 for its problems)."
    )
    cpu_s: float = setting(2.0, "CPU seconds per test.")
    memory_mb: int = setting(1024, "Address-space limit per run, MiB.")
    max_processes: int = setting(32, "Processes/threads a run may have at once.")
    max_file_mb: int = setting(16, "Largest file a run may write, MiB.")
    max_output_bytes: int = setting(1_000_000, "Output a run may print before `output_limit`.")
    isolation: Literal["auto", "bwrap", "unshare", "rlimit"] = setting(
        "auto",
        "`auto` picks the strongest available: bubblewrap, then unshare namespaces, then "
        "rlimits only (with a warning).",
    )
    feedback_chars: int = setting(1200, "Size limit of the refinement feedback text.")
    pin_cpus: bool = setting(
        True,
        "Run each worker (judge, zygote, candidates) on a CPU of its own when `workers` equals the "
        "number of usable CPUs: a run's processes hand work to each other in turn, so one core "
        "spares cross-CPU wake-ups (~20% more exec/s on 2 cores). A speed setting, not a limit "
        "(a candidate may change its own affinity).",
    )
    max_infra_rate: float = setting(
        0.05, "Fraction of `infra` verdicts (harness failures) past which the run stops."
    )

    def __post_init__(self) -> None:
        check(self.workers >= 1, "workers", self.workers, "must be >= 1")
        check(self.timeout_s > 0, "timeout_s", self.timeout_s, "must be > 0")
        check(self.cpu_s > 0, "cpu_s", self.cpu_s, "must be > 0")
        check(self.memory_mb >= 64, "memory_mb", self.memory_mb, "must be >= 64")
        check(self.max_processes >= 1, "max_processes", self.max_processes, "must be >= 1")
        check(self.max_file_mb >= 1, "max_file_mb", self.max_file_mb, "must be >= 1")
        check(self.max_output_bytes >= 1024, "max_output_bytes", self.max_output_bytes, ">= 1024")
        check(self.feedback_chars >= 100, "feedback_chars", self.feedback_chars, "must be >= 100")
        check(0 <= self.max_infra_rate <= 1, "max_infra_rate", self.max_infra_rate, "in [0, 1]")
        check(
            self.isolation in ("auto", "bwrap", "unshare", "rlimit"),
            "isolation",
            self.isolation,
            "one of auto, bwrap, unshare, rlimit",
        )


@dataclass(frozen=True)
class CreditConfig:
    """Rewards to advantages over a finished tree (docs/algorithms.md)."""

    reward: str = setting(
        "fraction",
        "Raw training reward, always over all tests (public and hidden): `binary` (1 when every "
        "test passes; the paper's reward) or `fraction` (share of all tests passed). The search "
        "score stays the public-test fraction; hidden tests never reach a prompt.",
    )
    gamma: float = setting(0.5, "Tree-consistent shaping strength γ (0 switches shaping off).")
    lam: float = setting(0.5, "Baseline mix λ between the parent reward and the sibling mean.")
    eta: float = setting(
        0.3, "Path-value weight η of the best child's value (0: node-level credit)."
    )
    group: Literal["tree", "tree_agent"] = setting(
        "tree", "Advantage normalisation group: the whole tree or (tree, agent)."
    )
    scale: Literal["std", "none"] = setting(
        "std", "`std` divides by the group's sample std; `none` only centres (Dr. GRPO)."
    )
    overlong_buffer: int = setting(0, "DAPO soft overlong buffer B in tokens (0 = off).")
    overlong_factor: float = setting(1.0, "DAPO overlong penalty factor f.")
    dynamic_filter: bool = setting(True, "Drop groups whose raw rewards are all equal.")

    def __post_init__(self) -> None:
        check_name(REWARDS, "reward", self.reward)
        check(self.gamma >= 0, "gamma", self.gamma, "must be >= 0")
        check(0 <= self.lam <= 1, "lam", self.lam, "must be in [0, 1]")
        check(0 <= self.eta <= 1, "eta", self.eta, "must be in [0, 1]")
        check(self.overlong_buffer >= 0, "overlong_buffer", self.overlong_buffer, "must be >= 0")
        check(self.overlong_factor >= 0, "overlong_factor", self.overlong_factor, "must be >= 0")


@dataclass(frozen=True)
class LossConfig:
    """The policy loss (docs/algorithms.md)."""

    name: str = setting(
        "grpo",
        "`grpo` (token ratios), `gspo` (sequence ratio), a registered surrogate "
        "(`mars2.register_loss`) or a dotted path `package.module:function`.",
    )
    clip_low: float = setting(0.2, "ε_low: lower clip 1-ε_low (GSPO papers use ~3e-4).")
    clip_high: float = setting(0.28, "ε_high: upper clip 1+ε_high (GSPO papers use ~4e-4).")
    tis: Literal["none", "token", "sequence"] = setting(
        "token", "Truncated importance sampling against the rollout engine's log-probs."
    )
    tis_mode: Literal["truncate", "mask"] = setting(
        "truncate", "`truncate` caps the weight at `tis_cap`; `mask` drops tokens above it."
    )
    tis_cap: float = setting(2.0, "C, the TIS weight cap.")
    kl_coef: float = setting(
        0.0, "β for the KL to a frozen reference (0 loads no reference model)."
    )
    kl_estimator: str = setting(
        "k3",
        "KL estimator: `k1`, `k2`, `k3`, a registered one (`mars2.register_kl_estimator`) or a "
        "dotted path.",
    )
    aggregation: str = setting(
        "auto",
        "How per-token losses become one number: `token-mean`, `seq-mean-token-mean`, "
        "`seq-mean-token-sum-norm`, a registered one (`mars2.register_aggregation`), a dotted "
        "path, or `auto`: `seq-mean-token-mean` for gspo (its loss is per sequence: `token-mean` "
        "would weight sequences by their length, and warns), `token-mean` for any other loss.",
    )

    @property
    def aggregation_used(self) -> str:
        """`aggregation` with `auto` resolved for the loss `name`."""
        if self.aggregation != "auto":
            return self.aggregation
        return "seq-mean-token-mean" if self.name == "gspo" else "token-mean"

    def __post_init__(self) -> None:
        if self.name == "gspo" and self.aggregation == "token-mean":
            warnings.warn(
                "loss.name=gspo with loss.aggregation=token-mean weights each sequence's loss "
                "by its length; GSPO's sequence-level loss wants seq-mean-token-mean (`auto`)",
                UserWarning,
                stacklevel=2,
            )
        check_name(LOSSES, "name", self.name)
        check_name(KL_ESTIMATORS, "kl_estimator", self.kl_estimator)
        if self.aggregation != "auto":
            check_name(AGGREGATIONS, "aggregation", self.aggregation)
        check(0 <= self.clip_low < 1, "clip_low", self.clip_low, "must be in [0, 1)")
        check(self.clip_high >= 0, "clip_high", self.clip_high, "must be >= 0")
        check(self.tis_cap >= 1, "tis_cap", self.tis_cap, "must be >= 1")
        check(self.kl_coef >= 0, "kl_coef", self.kl_coef, "must be >= 0")
