"""What a run trains on, how it is evaluated, trained, placed and written: the `data`, `eval`,
`train`, `cluster` and `output` sections."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mars2.config.fields import check, check_name, setting
from mars2.registry import ALGORITHMS


@dataclass(frozen=True)
class DataConfig:
    """Which problems to train on (evaluation problems: the `eval` section)."""

    train: str = setting(
        "bundled:core", "Training problems: a set name (`bundled:core`) or a file."
    )
    train_split: str | None = setting("train", "Keep only problems of this split (None: all).")
    limit: int | None = setting(None, "Use the first K training problems only.")

    def __post_init__(self) -> None:
        check(self.limit is None or self.limit >= 1, "limit", self.limit, "must be >= 1 or null")


@dataclass(frozen=True)
class EvalConfig:
    """The evaluation protocol: what every evaluation (in training, `mars2 eval`, `mars2 search`)
    measures and records in `eval.json` (docs/search.md). The agents' own `temperature` and
    `max_new_tokens` and the sandbox's timeouts complete it."""

    problems: str = setting(
        "bundled:core?split=iid,test",
        "Evaluation problems: a set name or a JSONL file. Default: both held-out splits of "
        "bundled:core (new instances of train families, new families).",
    )
    limit: int | None = setting(100, "Evaluate on the first K problems only (null: all).")
    samples: int = setting(
        4,
        "Fresh attempts per problem, each the first node of a tree with its own seed: n samples "
        "give the unbiased pass@k for k <= n.",
    )
    trees: int | None = setting(
        1,
        "How many of a problem's `samples` grow into a full search of `budget` nodes (the "
        "others stop at their first node); Pass@1(MCTS) and Pass@N are averaged over these. "
        "null: all of them. Fewer trees than samples buys a precise pass@1 and a real tree "
        "search for the price of a few more samples.",
    )
    algo: str = setting(
        "abmcts",
        "Search algorithm of every evaluation, whatever `train.mode` (`mars2 search` uses "
        "`search.algo`); the other search settings come from `search`.",
    )
    budget: int = setting(
        4,
        "Nodes per evaluation tree (>= 4 lets refinements happen; `mars2 search`: search.budget).",
    )
    every: int = setting(
        0,
        "Evaluate every K training steps (0 = only at the end), and before step 1 unless "
        "`before` is false.",
    )
    before: bool = setting(
        True,
        "Evaluate the untrained team before step 1 (step 0: the base of the change during "
        "training; from the cache when an earlier run paid for it); false: only after training "
        "(an experiment whose trained arms are compared with a base arm skips it).",
    )
    each_agent: bool = setting(
        False,
        "With several agents, also evaluate each agent alone (`mars2 eval`; in training before "
        "step 1, see `before`, and after the last). Off by default: each agent alone costs one more "
        "evaluation (`mars2 eval RUN --agents NAME` does one afterwards).",
    )
    bootstrap: int = setting(2000, "Bootstrap resamples for the 95% intervals (seeded).")
    cache: bool = setting(
        True,
        "Reuse an earlier evaluation of the same weights, protocol, problems and seed "
        "(~/.cache/mars2/evals), e.g. the base model's before step 1.",
    )

    def __post_init__(self) -> None:
        check_name(ALGORITHMS, "algo", self.algo)
        check(self.limit is None or self.limit >= 1, "limit", self.limit, "must be >= 1 or null")
        check(self.samples >= 1, "samples", self.samples, "must be >= 1")
        check(
            self.trees is None or 1 <= self.trees <= self.samples,
            "trees",
            self.trees,
            "must be between 1 and eval.samples, or null",
        )
        check(self.budget >= 1, "budget", self.budget, "must be >= 1")
        check(self.every >= 0, "every", self.every, "must be >= 0")
        check(self.bootstrap >= 100, "bootstrap", self.bootstrap, "must be >= 100")


@dataclass(frozen=True)
class TrainConfig:
    """The RL loop (docs/training.md)."""

    mode: Literal["grpo", "mcts"] = setting(
        "mcts", "`grpo`: n independent samples per problem; `mcts`: grow search trees."
    )
    steps: int = setting(8, "Training steps (one rollout + one update per agent each).")
    problems_per_step: int = setting(16, "Problems sampled per step (one tree or group each).")
    samples_per_problem: int = setting(
        8, "Mode `grpo`: group size n. Mode `mcts` uses `search.budget` nodes per tree."
    )
    lr: float = setting(
        1e-4,
        "Peak learning rate (the default suits the default LoRA agents; full fine-tuning of "
        "the bundled model wants ~1e-5: 5e-5 collapsed it within 10 steps).",
    )
    schedule: Literal["constant", "cosine", "linear"] = setting(
        "constant", "LR schedule after warmup."
    )
    warmup_steps: int = setting(0, "Optimizer steps of linear warmup.")
    weight_decay: float = setting(0.0, "AdamW weight decay.")
    adam_betas: tuple[float, ...] = setting(
        (0.9, 0.999), "AdamW (beta1, beta2); the MARS² reference uses (0.9, 0.95)."
    )
    grad_clip: float = setting(1.0, "Max global gradient norm (0 = off).")
    precision: Literal["auto", "fp32", "bf16"] = setting(
        "auto",
        "The learner's compute precision. `bf16`: forward and backward passes under bfloat16 "
        "autocast, trainable weights, gradients and optimizer state in float32 (TRL's `bf16`); "
        "with LoRA and an engine that generates from a snapshot (the `llama` decoder), the "
        "frozen model and the residual stream between layers are bfloat16 too, as in the "
        "engine's snapshot. `fp32`: all float32. `auto`: bf16 on a GPU that supports it, fp32 on "
        "every CPU: the main job's bfloat16 learner was not shown to learn as much as the "
        'float32 one (docs/results.md, "The learner\'s precision"; bf16 is 1.7x faster per '
        "update on a 2-core EPYC, docs/performance.md). `mars2 doctor` shows what bf16 would "
        "buy on this CPU.",
    )
    micro_batch_tokens: int = setting(
        1024,
        "Packed tokens per forward/backward pass of the learner: the samples of one prompt share "
        "one copy of it and go with the others into one unpadded sequence (same log-probs and "
        "gradients as padded rows, less compute; docs/training.md). Bounds the update's peak "
        "memory (~1.7 MB per token in float32 for the bundled model). 0: padded micro-batches "
        "of `micro_batch_size` samples, which is also what models that cannot be packed use "
        "(sliding-window or flash attention).",
    )
    micro_batch_size: int = setting(
        4, "Samples per forward/backward pass when not packing (`micro_batch_tokens: 0`)."
    )
    activation_checkpointing: bool = setting(
        False,
        "Recompute each decoder layer's activations in backward instead of keeping them from "
        "the forward pass: a lower peak memory for one more forward pass of compute "
        "(docs/performance.md has the measured trade).",
    )
    updates_per_step: int = setting(1, "Optimizer steps per training step (the batch is split).")
    min_samples_per_agent: int = setting(
        8,
        "Dynamic filtering refill: keep growing `problems_per_step` more trees in a step until "
        "every trainable agent has this many samples (groups with equal rewards are dropped), "
        "bounded by `max_rollout_rounds`; 0: one round. Agents that `share_with` one set of "
        "weights count together: their union needs this many per agent.",
    )
    max_rollout_rounds: int = setting(
        2, "Most rollout rounds of `problems_per_step` trees per step (the refill's bound)."
    )
    update: Literal["sync", "per_agent"] = setting(
        "sync",
        "When agents update. `sync`: every set of trainable weights updates once per step on that "
        "step's samples (the refill above fills the batches). `per_agent`: each step rolls out "
        "one round; each set of weights keeps a buffer of its agents' samples and updates on the "
        "oldest `agent_batch` of them whenever it holds that many, without waiting for the others "
        '(docs/training.md, "Per-agent updates").',
    )
    agent_batch: int = setting(
        8,
        "`update: per_agent`: samples per update, per agent that trains the weights (agents that "
        "`share_with` one set of weights fill one buffer of this many per agent): a full batch.",
    )
    max_staleness: int = setting(
        1,
        "`update: per_agent`: a buffered sample written by weights more than this many updates "
        "older than the learner's current ones is dropped, never trained on "
        "(`stale_dropped/<agent>`); within the bound TIS corrects it against its rollout "
        "log-probs. 0: train only on samples of the current weights.",
    )
    overlap: bool = setting(
        True,
        "`update: per_agent` on Ray: a step's updates run on the learner actors while the next "
        "step's rollout runs on the engines, which get the new weights after that rollout (its "
        "nodes are one version behind, within `max_staleness`); the pipeline drains before "
        "every checkpoint and evaluation. false: updates then rollouts, one after the other. "
        'In one process updates always run in turn (docs/training.md, "Per-agent updates").',
    )
    aux_sft_weight: float = setting(
        0.0,
        "Weight of the supervised term on the step's hindsight repair pairs (a failed node's "
        "refinement prompt -> the closest passing program of its tree) added to the policy "
        'loss (docs/algorithms.md, "Supervised repair term"); 0: off, the update is the RL '
        "loss alone.",
    )
    sft_pairs_per_step: int = setting(
        32,
        "`mars2 sft` (the supervised warm-up on repair pairs): pairs per step, drawn in a "
        "seeded order reshuffled every pass; `steps` counts its steps.",
    )
    checkpoint_every: int = setting(4, "Checkpoint every K steps (0 = only at the end).")
    keep_checkpoints: int = setting(
        2,
        "Checkpoints kept in `checkpoints/` (older ones are removed); only the newest keeps the "
        "optimizer state that `--resume` needs, the others keep the weights.",
    )

    def __post_init__(self) -> None:
        for name in ("steps", "problems_per_step", "samples_per_problem", "micro_batch_size"):
            check(getattr(self, name) >= 1, name, getattr(self, name), "must be >= 1")
        check(self.updates_per_step >= 1, "updates_per_step", self.updates_per_step, ">= 1")
        check(self.micro_batch_tokens >= 0, "micro_batch_tokens", self.micro_batch_tokens, ">= 0")
        check(self.max_rollout_rounds >= 1, "max_rollout_rounds", self.max_rollout_rounds, ">= 1")
        check(
            self.min_samples_per_agent >= 0,
            "min_samples_per_agent",
            self.min_samples_per_agent,
            ">= 0",
        )
        check(self.lr > 0, "lr", self.lr, "must be > 0")
        check(
            len(self.adam_betas) == 2 and all(0 <= b < 1 for b in self.adam_betas),
            "adam_betas",
            list(self.adam_betas),
            "two numbers in [0, 1)",
        )
        check(self.warmup_steps >= 0, "warmup_steps", self.warmup_steps, "must be >= 0")
        check(self.grad_clip >= 0, "grad_clip", self.grad_clip, "must be >= 0")
        check(self.agent_batch >= 1, "agent_batch", self.agent_batch, "must be >= 1")
        check(self.max_staleness >= 0, "max_staleness", self.max_staleness, "must be >= 0")
        check(self.checkpoint_every >= 0, "checkpoint_every", self.checkpoint_every, ">= 0")
        check(self.keep_checkpoints >= 1, "keep_checkpoints", self.keep_checkpoints, ">= 1")
        check(self.aux_sft_weight >= 0, "aux_sft_weight", self.aux_sft_weight, "must be >= 0")
        check(self.sft_pairs_per_step >= 1, "sft_pairs_per_step", self.sft_pairs_per_step, ">= 1")
        check(
            self.aux_sft_weight == 0 or self.update == "sync",
            "aux_sft_weight",
            self.aux_sft_weight,
            "the supervised repair term trains with `update: sync` only; set it to 0 for per_agent",
        )


# Ray's own resources: set through cpus_per_actor and gpus_per_*, never as custom resources.
RAY_BUILTIN = ("CPU", "GPU", "memory", "object_store_memory")


@dataclass(frozen=True)
class ClusterConfig:
    """Placement across processes and machines (docs/distributed.md)."""

    backend: Literal["local", "ray"] = setting("local", "`local`: one process; `ray`: Ray actors.")
    address: str | None = setting(
        None, "Ray cluster: `auto`, a URL, or null to start a local cluster."
    )
    gpus_per_learner: float = setting(0.0, "GPUs per agent learner actor.")
    engines_per_agent: int = setting(1, "Rollout engine actors per agent.")
    gpus_per_engine: float = setting(0.0, "GPUs per rollout engine actor.")
    sandbox_actors: int = setting(
        0,
        "Sandbox actors on CPU nodes, each a pool of `sandbox.workers` (0: sandbox in the driver).",
    )
    cpus_per_actor: Literal["auto"] | float = setting(
        "auto",
        "Ray CPUs reserved by each learner, engine and sandbox actor (fractions allowed); `auto`: "
        "the cluster's CPUs shared among the run's actors, at most 1 each.",
    )
    max_restarts: int = setting(
        3, "Times Ray restarts a dead engine or sandbox actor (a dead learner stops the run)."
    )
    timeout_s: float = setting(
        600.0, "Longest wait for one actor call or for the cluster's resources; then InfraError."
    )
    learner_resources: dict[str, float] = setting(
        {},
        "Custom Ray resources each learner actor reserves, e.g. `{node_a: 1}`: learners land only "
        "on nodes started with them (`ray start --resources='{\"node_a\": 1}'`).",
    )
    engine_resources: dict[str, float] = setting(
        {}, "Custom Ray resources each rollout-engine actor reserves (as `learner_resources`)."
    )
    sandbox_resources: dict[str, float] = setting(
        {}, "Custom Ray resources each sandbox actor reserves (as `learner_resources`)."
    )

    def __post_init__(self) -> None:
        check(
            self.cpus_per_actor == "auto" or self.cpus_per_actor > 0,
            "cpus_per_actor",
            self.cpus_per_actor,
            "auto or > 0",
        )
        check(self.max_restarts >= 0, "max_restarts", self.max_restarts, ">= 0")
        check(self.timeout_s > 0, "timeout_s", self.timeout_s, "> 0")
        check(self.gpus_per_learner >= 0, "gpus_per_learner", self.gpus_per_learner, ">= 0")
        check(self.engines_per_agent >= 1, "engines_per_agent", self.engines_per_agent, ">= 1")
        check(self.gpus_per_engine >= 0, "gpus_per_engine", self.gpus_per_engine, ">= 0")
        check(self.sandbox_actors >= 0, "sandbox_actors", self.sandbox_actors, ">= 0")
        for name in ("learner_resources", "engine_resources", "sandbox_resources"):
            resources = getattr(self, name)
            check(
                all(key and key not in RAY_BUILTIN for key in resources),
                name,
                resources,
                "names of custom Ray resources (CPUs and GPUs come from cpus_per_actor and "
                "gpus_per_*)",
            )
            check(all(v > 0 for v in resources.values()), name, resources, "amounts must be > 0")


@dataclass(frozen=True)
class OutputConfig:
    """Where and how a run records itself (docs/training.md, "Run directory")."""

    out: str | None = setting(None, "Run directory; `--out` sets it; null: runs/<command>-<time>.")
    tensorboard: bool = setting(True, "Write TensorBoard event files under the run directory.")
    wandb_project: str | None = setting(None, "Also log to this Weights & Biases project.")
    save_trees: bool = setting(True, "Write every finished tree to trees/*.jsonl.")
