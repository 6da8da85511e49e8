"""The configuration's schema: one frozen dataclass per concern, composed into `Config`, each
field with its default, its check and its docstring (`metadata["doc"]`)."""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from typing import Any, Literal

from mars2.errors import ConfigError
from mars2.registry import ALGORITHMS, BACKENDS, REWARDS, Registry


def _f(default: Any, doc: str) -> Any:
    """A dataclass field with a default and a docstring."""
    if isinstance(default, list | dict | tuple) and not isinstance(default, str):
        frozen = default
        return field(default_factory=lambda: frozen, metadata={"doc": doc})
    return field(default=default, metadata={"doc": doc})


def _check(ok: bool, name: str, value: object, allowed: str) -> None:
    if not ok:
        raise ConfigError(name, value, allowed)


def _check_name(registry: Registry[Any], name: str, value: str) -> None:
    """A field naming a registry entry (mars2.registry): a known name or a dotted path."""
    problem = registry.check(value)
    if problem is not None:
        raise ConfigError(name, value, problem)


@dataclass(frozen=True)
class AgentConfig:
    """One agent: a model, how it is served and sampled, its role prompt, and whether it trains."""

    name: str = _f("", "Display name; defaults to `agent<i>`.")
    model: str = _f(
        "smollm2-135m",
        "A bundled model name (`smollm2-135m`, `gemma3-270m`, `tiny-random`, `tiny-random-base`), "
        "a local HF model directory or GGUF file, or (backend `openai`) the endpoint's model name.",
    )
    backend: str = _f(
        "hf", "Generation engine: `hf` (transformers), `vllm` (GPU, optional extra), `openai`."
    )
    role: str = _f("coder", "Role prompt: a name from the prompt table (mars2.agents.prompts).")
    system_prompt: str | None = _f(None, "Overrides the role's system prompt text when set.")
    temperature: float = _f(0.8, "Sampling temperature (> 0).")
    top_p: float = _f(1.0, "Nucleus sampling mass in (0, 1].")
    max_new_tokens: int = _f(
        128, "Maximum tokens per response (the L_max of the overlong penalty)."
    )
    max_prompt_tokens: int = _f(
        768, "Prompts longer than this are cut from the left of the last user message."
    )
    trainable: bool = _f(True, "Whether `mars2 train` updates this agent (False: frozen helper).")
    lora_rank: int = _f(0, "LoRA rank via peft; 0 trains all weights.")
    lora_alpha: int = _f(32, "LoRA alpha (scaling = alpha / rank).")
    share_with: str | None = _f(
        None,
        "Name of another agent whose weights this one uses (homogeneous multi-role agents): one "
        "model, one learner and one optimizer train on both agents' nodes; each keeps its own role "
        "prompt and name. The two must agree on model, backend, device, dtype, trainable, LoRA "
        "settings, temperature and max_new_tokens; the named agent may not share in turn.",
    )
    base_url: str | None = _f(
        None, "Backend `openai`: the endpoint, e.g. http://localhost:8000/v1."
    )
    api_key_env: str = _f(
        "OPENAI_API_KEY", "Backend `openai`: name of the environment variable holding the key."
    )
    device: str = _f("auto", "`auto` (cuda when available, else cpu), `cpu`, `cuda`, `cuda:1`...")
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = _f(
        "auto", "Weights dtype: `auto` is float32 on CPU and bfloat16 on GPU."
    )
    max_batch_size: int = _f(16, "Largest generation batch the engine runs at once.")
    stop_at_fence: bool = _f(
        True,
        "Backend `hf`: end a response when its first ```python block closes (nothing after the "
        "block is used, so those tokens only cost time); the response keeps the closing fence "
        "and counts as stopped, not truncated. False: generate until EOS or `max_new_tokens`.",
    )
    rollout_dtype: Literal["auto", "model", "bfloat16", "int8"] = _f(
        "auto",
        "Backend `hf`: the weights the engine generates with. `model`: the model's own weights "
        "(rollout log-probs equal the learner's); `bfloat16`: a bfloat16 copy; `int8`: a copy "
        "with int8 dynamic-quantized Linear layers (CPU only). A copy is refreshed at every "
        "weight sync; the learner's log-probs stay exact and TIS corrects the mismatch. `auto`: "
        "`bfloat16` with the `llama` decoder on a CPU with native bfloat16 (AVX512-BF16 or AMX; "
        "~3x `generate` there, docs/performance.md), else `model`.",
    )
    decoder: Literal["auto", "llama", "transformers"] = _f(
        "auto",
        "Backend `hf`: the forward pass the engine decodes with. `llama`: mars2's lean decoder "
        "for Llama-architecture models (SmolLM2; fused projections, a preallocated KV cache, "
        "the same logits to float32 rounding); `transformers`: the model's own forward (any "
        "model, and `rollout_dtype: int8`). `auto`: `llama` where the model supports it.",
    )
    vllm_gpu_memory: float = _f(
        0.45,
        "Backend `vllm`: fraction of GPU memory the engine may take (weights + KV cache); "
        "leave room for a learner on the same GPU.",
    )

    def __post_init__(self) -> None:
        _check_name(BACKENDS, "backend", self.backend)
        _check(self.temperature > 0, "temperature", self.temperature, "must be > 0")
        _check(0 < self.top_p <= 1, "top_p", self.top_p, "must be in (0, 1]")
        _check(self.max_new_tokens >= 1, "max_new_tokens", self.max_new_tokens, "must be >= 1")
        _check(self.max_prompt_tokens >= 16, "max_prompt_tokens", self.max_prompt_tokens, ">= 16")
        _check(self.lora_rank >= 0, "lora_rank", self.lora_rank, "must be >= 0 (0 = full)")
        _check(self.max_batch_size >= 1, "max_batch_size", self.max_batch_size, "must be >= 1")
        _check(0 < self.vllm_gpu_memory <= 1, "vllm_gpu_memory", self.vllm_gpu_memory, "in (0, 1]")
        _check(bool(self.model), "model", self.model, "must name a model")
        _check(
            not (self.rollout_dtype == "int8" and self.device.startswith("cuda")),
            "rollout_dtype",
            self.rollout_dtype,
            "`int8` is CPU only: use `model` or `bfloat16` on a GPU",
        )
        _check(
            not (self.rollout_dtype == "int8" and self.decoder == "llama"),
            "decoder",
            self.decoder,
            "the `llama` decoder has no int8 weights: use `transformers` with rollout_dtype int8",
        )
        if self.backend == "openai":
            _check(self.base_url is not None, "base_url", None, "required for backend 'openai'")


@dataclass(frozen=True)
class SearchConfig:
    """The tree search that grows one tree per problem (docs/search.md)."""

    algo: str = _f(
        "abmcts",
        "`abmcts` (multi-agent AB-MCTS-A), `sampling` (independent attempts, best-of-N), "
        "`refine` (one sequential refinement chain), `best_first`.",
    )
    budget: int = _f(4, "Nodes (generated candidates) per tree.")
    prior: Literal["normal", "beta"] = _f(
        "normal", "Score posterior: Normal-Inverse-chi-squared (`normal`) or `beta`."
    )
    agent_selection: Literal["tree", "node", "round_robin"] = _f(
        "tree",
        "Which agent writes a new node: Thompson sampling over each agent's scores in the tree "
        "(`tree`), per-node agent arms (`node`), or `round_robin`.",
    )
    min_share: float = _f(
        0.0, "Each agent writes at least this fraction of a tree's nodes (0 = no guarantee)."
    )
    parallel_expansions: int = _f(
        1,
        "Expansions of one tree in flight at once. 1 is the method: every node is chosen after "
        "its predecessors' scores are known (with k > 1 the first k nodes of a tree are all "
        "fresh attempts). Throughput comes from `trees_in_flight`.",
    )
    virtual_score: float = _f(
        0.0,
        "`abmcts`: the score a pending expansion counts as on its path until it is told "
        "(a virtual loss, so concurrent picks spread out).",
    )
    width: int = _f(
        2, "`best_first`: children per expanded node (the root gets `width` fresh attempts)."
    )
    trees_in_flight: int = _f(
        32,
        "Trees grown concurrently by the rollout orchestrator (what fills the engines' batches).",
    )

    def __post_init__(self) -> None:
        _check_name(ALGORITHMS, "algo", self.algo)
        _check(self.budget >= 1, "budget", self.budget, "must be >= 1")
        _check(0 <= self.min_share <= 1, "min_share", self.min_share, "must be in [0, 1]")
        _check(
            self.parallel_expansions >= 1, "parallel_expansions", self.parallel_expansions, ">= 1"
        )
        _check(self.trees_in_flight >= 1, "trees_in_flight", self.trees_in_flight, "must be >= 1")
        _check(0 <= self.virtual_score <= 1, "virtual_score", self.virtual_score, "in [0, 1]")
        _check(self.width >= 1, "width", self.width, "must be >= 1")


@dataclass(frozen=True)
class SandboxConfig:
    """Limits and isolation for executing candidate code (docs/sandbox.md)."""

    workers: int = _f(2, "Parallel sandbox workers.")
    timeout_s: float = _f(
        2.0, "Wall-clock seconds per test (LiveCodeBench uses 6; set 6 for its problems)."
    )
    cpu_s: float = _f(2.0, "CPU seconds per test.")
    memory_mb: int = _f(1024, "Address-space limit per run, MiB.")
    max_processes: int = _f(32, "Processes/threads a run may have at once.")
    max_file_mb: int = _f(16, "Largest file a run may write, MiB.")
    max_output_bytes: int = _f(1_000_000, "Output a run may print before `output_limit`.")
    isolation: Literal["auto", "bwrap", "unshare", "rlimit"] = _f(
        "auto",
        "`auto` picks the strongest available: bubblewrap, then unshare namespaces, then "
        "rlimits only (with a warning).",
    )
    feedback_chars: int = _f(1200, "Size limit of the refinement feedback text.")
    pin_cpus: bool = _f(
        True,
        "Run each worker (judge, zygote, candidates) on a CPU of its own when `workers` equals the "
        "number of usable CPUs: a run's processes hand work to each other in turn, so one core "
        "spares cross-CPU wake-ups (~20% more exec/s on 2 cores). A speed setting, not a limit "
        "(a candidate may change its own affinity).",
    )
    max_infra_rate: float = _f(
        0.05, "Fraction of `infra` verdicts (harness failures) past which the run stops."
    )

    def __post_init__(self) -> None:
        _check(self.workers >= 1, "workers", self.workers, "must be >= 1")
        _check(self.timeout_s > 0, "timeout_s", self.timeout_s, "must be > 0")
        _check(self.cpu_s > 0, "cpu_s", self.cpu_s, "must be > 0")
        _check(self.memory_mb >= 64, "memory_mb", self.memory_mb, "must be >= 64")
        _check(self.max_processes >= 1, "max_processes", self.max_processes, "must be >= 1")
        _check(self.max_file_mb >= 1, "max_file_mb", self.max_file_mb, "must be >= 1")
        _check(self.max_output_bytes >= 1024, "max_output_bytes", self.max_output_bytes, ">= 1024")
        _check(self.feedback_chars >= 100, "feedback_chars", self.feedback_chars, "must be >= 100")
        _check(0 <= self.max_infra_rate <= 1, "max_infra_rate", self.max_infra_rate, "in [0, 1]")
        _check(
            self.isolation in ("auto", "bwrap", "unshare", "rlimit"),
            "isolation",
            self.isolation,
            "one of auto, bwrap, unshare, rlimit",
        )


@dataclass(frozen=True)
class CreditConfig:
    """Rewards to advantages over a finished tree (docs/algorithms.md)."""

    reward: str = _f(
        "fraction",
        "Raw training reward, always over all tests (public and hidden): `binary` (1 when every "
        "test passes; the paper's reward) or `fraction` (share of all tests passed). The search "
        "score stays the public-test fraction; hidden tests never reach a prompt.",
    )
    gamma: float = _f(0.5, "Tree-consistent shaping strength γ (0 switches shaping off).")
    lam: float = _f(0.5, "Baseline mix λ between the parent reward and the sibling mean.")
    eta: float = _f(0.3, "Path-value weight η of the best child's value (0: node-level credit).")
    group: Literal["tree", "tree_agent"] = _f(
        "tree", "Advantage normalisation group: the whole tree or (tree, agent)."
    )
    scale: Literal["std", "none"] = _f(
        "std", "`std` divides by the group's sample std; `none` only centres (Dr. GRPO)."
    )
    overlong_buffer: int = _f(0, "DAPO soft overlong buffer B in tokens (0 = off).")
    overlong_factor: float = _f(1.0, "DAPO overlong penalty factor f.")
    dynamic_filter: bool = _f(True, "Drop groups whose raw rewards are all equal.")

    def __post_init__(self) -> None:
        _check_name(REWARDS, "reward", self.reward)
        _check(self.gamma >= 0, "gamma", self.gamma, "must be >= 0")
        _check(0 <= self.lam <= 1, "lam", self.lam, "must be in [0, 1]")
        _check(0 <= self.eta <= 1, "eta", self.eta, "must be in [0, 1]")
        _check(self.overlong_buffer >= 0, "overlong_buffer", self.overlong_buffer, "must be >= 0")
        _check(self.overlong_factor >= 0, "overlong_factor", self.overlong_factor, "must be >= 0")


@dataclass(frozen=True)
class LossConfig:
    """The policy loss (docs/algorithms.md)."""

    name: Literal["grpo", "gspo"] = _f("grpo", "`grpo` (token ratios) or `gspo` (sequence ratio).")
    clip_low: float = _f(0.2, "ε_low: lower clip 1-ε_low (GSPO papers use ~3e-4).")
    clip_high: float = _f(0.28, "ε_high: upper clip 1+ε_high (GSPO papers use ~4e-4).")
    tis: Literal["none", "token", "sequence"] = _f(
        "token", "Truncated importance sampling against the rollout engine's log-probs."
    )
    tis_mode: Literal["truncate", "mask"] = _f(
        "truncate", "`truncate` caps the weight at `tis_cap`; `mask` drops tokens above it."
    )
    tis_cap: float = _f(2.0, "C, the TIS weight cap.")
    kl_coef: float = _f(0.0, "β for the KL to a frozen reference (0 loads no reference model).")
    kl_estimator: Literal["k1", "k2", "k3"] = _f("k3", "KL estimator.")
    aggregation: Literal["auto", "token-mean", "seq-mean-token-mean", "seq-mean-token-sum-norm"] = (
        _f(
            "auto",
            "How per-token losses become one number. `auto`: `token-mean` for grpo, "
            "`seq-mean-token-mean` for gspo (its loss is per sequence: `token-mean` would weight "
            "sequences by their length, and warns).",
        )
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
        _check(0 <= self.clip_low < 1, "clip_low", self.clip_low, "must be in [0, 1)")
        _check(self.clip_high >= 0, "clip_high", self.clip_high, "must be >= 0")
        _check(self.tis_cap >= 1, "tis_cap", self.tis_cap, "must be >= 1")
        _check(self.kl_coef >= 0, "kl_coef", self.kl_coef, "must be >= 0")


@dataclass(frozen=True)
class DataConfig:
    """Which problems to train on (evaluation problems: the `eval` section)."""

    train: str = _f("bundled:core", "Training problems: a set name (`bundled:core`) or a file.")
    train_split: str | None = _f("train", "Keep only problems of this split (None: all).")
    limit: int | None = _f(None, "Use the first K training problems only.")

    def __post_init__(self) -> None:
        _check(self.limit is None or self.limit >= 1, "limit", self.limit, "must be >= 1 or null")


@dataclass(frozen=True)
class EvalConfig:
    """The evaluation protocol: what every evaluation (in training, `mars2 eval`, `mars2 search`)
    measures and records in `eval.json` (docs/search.md). The agents' own `temperature` and
    `max_new_tokens` and the sandbox's timeouts complete it."""

    problems: str = _f(
        "bundled:core?split=iid,test",
        "Evaluation problems: a set name or a JSONL file. Default: both held-out splits of "
        "bundled:core (new instances of train families, new families).",
    )
    limit: int | None = _f(100, "Evaluate on the first K problems only (null: all).")
    samples: int = _f(
        4,
        "Fresh attempts per problem, each the first node of a tree with its own seed: n samples "
        "give the unbiased pass@k for k <= n.",
    )
    trees: int | None = _f(
        1,
        "How many of a problem's `samples` grow into a full search of `budget` nodes (the "
        "others stop at their first node); Pass@1(MCTS) and Pass@N are averaged over these. "
        "null: all of them. Fewer trees than samples buys a precise pass@1 and a real tree "
        "search for the price of a few more samples.",
    )
    algo: str = _f(
        "abmcts",
        "Search algorithm of every evaluation, whatever `train.mode` (`mars2 search` uses "
        "`search.algo`); the other search settings come from `search`.",
    )
    budget: int = _f(
        4,
        "Nodes per evaluation tree (>= 4 lets refinements happen; `mars2 search`: search.budget).",
    )
    every: int = _f(
        0,
        "Evaluate every K training steps (0 = only at the end), and before step 1 unless "
        "`before` is false.",
    )
    before: bool = _f(
        True,
        "Evaluate the untrained team before step 1 (step 0: the base of the change during "
        "training; from the cache when an earlier run paid for it); false: only after training "
        "(an experiment whose trained arms are compared with a base arm skips it).",
    )
    each_agent: bool = _f(
        False,
        "With several agents, also evaluate each agent alone (`mars2 eval`; in training before "
        "step 1, see `before`, and after the last). Off by default: each agent alone costs one more "
        "evaluation (`mars2 eval RUN --agents NAME` does one afterwards).",
    )
    bootstrap: int = _f(2000, "Bootstrap resamples for the 95% intervals (seeded).")
    cache: bool = _f(
        True,
        "Reuse an earlier evaluation of the same weights, protocol, problems and seed "
        "(~/.cache/mars2/evals), e.g. the base model's before step 1.",
    )

    def __post_init__(self) -> None:
        _check_name(ALGORITHMS, "algo", self.algo)
        _check(self.limit is None or self.limit >= 1, "limit", self.limit, "must be >= 1 or null")
        _check(self.samples >= 1, "samples", self.samples, "must be >= 1")
        _check(
            self.trees is None or 1 <= self.trees <= self.samples,
            "trees",
            self.trees,
            "must be between 1 and eval.samples, or null",
        )
        _check(self.budget >= 1, "budget", self.budget, "must be >= 1")
        _check(self.every >= 0, "every", self.every, "must be >= 0")
        _check(self.bootstrap >= 100, "bootstrap", self.bootstrap, "must be >= 100")


@dataclass(frozen=True)
class TrainConfig:
    """The RL loop (docs/training.md)."""

    mode: Literal["grpo", "mcts"] = _f(
        "mcts", "`grpo`: n independent samples per problem; `mcts`: grow search trees."
    )
    steps: int = _f(8, "Training steps (one rollout + one update per agent each).")
    problems_per_step: int = _f(16, "Problems sampled per step (one tree or group each).")
    samples_per_problem: int = _f(
        8, "Mode `grpo`: group size n. Mode `mcts` uses `search.budget` nodes per tree."
    )
    lr: float = _f(
        1e-4,
        "Peak learning rate (the default suits the default LoRA agents; full fine-tuning of "
        "the bundled model wants ~1e-5: 5e-5 collapsed it within 10 steps).",
    )
    schedule: Literal["constant", "cosine", "linear"] = _f("constant", "LR schedule after warmup.")
    warmup_steps: int = _f(0, "Optimizer steps of linear warmup.")
    weight_decay: float = _f(0.0, "AdamW weight decay.")
    adam_betas: tuple[float, ...] = _f(
        (0.9, 0.999), "AdamW (beta1, beta2); the MARS² reference uses (0.9, 0.95)."
    )
    grad_clip: float = _f(1.0, "Max global gradient norm (0 = off).")
    precision: Literal["auto", "fp32", "bf16"] = _f(
        "auto",
        "The learner's compute precision. `bf16`: forward and backward passes under bfloat16 "
        "autocast, trainable weights, gradients and optimizer state in float32 (TRL's `bf16`); "
        "`fp32`: all float32. `auto`: bf16 on a GPU that supports it and on CPUs with AMX "
        "tiles, else fp32 (on CPUs with AVX512-BF16 but no AMX, bfloat16 matrix products "
        "measured 1.6x slower than float32: docs/performance.md).",
    )
    micro_batch_tokens: int = _f(
        1024,
        "Packed tokens per forward/backward pass of the learner: the samples of one prompt share "
        "one copy of it and go with the others into one unpadded sequence (same log-probs and "
        "gradients as padded rows, less compute; docs/training.md). Bounds the update's peak "
        "memory (~1.7 MB per token in float32 for the bundled model). 0: padded micro-batches "
        "of `micro_batch_size` samples, which is also what models that cannot be packed use "
        "(sliding-window or flash attention).",
    )
    micro_batch_size: int = _f(
        4, "Samples per forward/backward pass when not packing (`micro_batch_tokens: 0`)."
    )
    activation_checkpointing: bool = _f(
        False,
        "Recompute each decoder layer's activations in backward instead of keeping them from "
        "the forward pass: a lower peak memory for one more forward pass of compute "
        "(docs/performance.md has the measured trade).",
    )
    updates_per_step: int = _f(1, "Optimizer steps per training step (the batch is split).")
    min_samples_per_agent: int = _f(
        8,
        "Dynamic filtering refill: keep growing `problems_per_step` more trees in a step until "
        "every trainable agent has this many samples (groups with equal rewards are dropped), "
        "bounded by `max_rollout_rounds`; 0: one round. Agents that `share_with` one set of "
        "weights count together: their union needs this many per agent.",
    )
    max_rollout_rounds: int = _f(
        2, "Most rollout rounds of `problems_per_step` trees per step (the refill's bound)."
    )
    checkpoint_every: int = _f(4, "Checkpoint every K steps (0 = only at the end).")
    keep_checkpoints: int = _f(
        2,
        "Checkpoints kept in `checkpoints/` (older ones are removed); only the newest keeps the "
        "optimizer state that `--resume` needs, the others keep the weights.",
    )

    def __post_init__(self) -> None:
        for name in ("steps", "problems_per_step", "samples_per_problem", "micro_batch_size"):
            _check(getattr(self, name) >= 1, name, getattr(self, name), "must be >= 1")
        _check(self.updates_per_step >= 1, "updates_per_step", self.updates_per_step, ">= 1")
        _check(self.micro_batch_tokens >= 0, "micro_batch_tokens", self.micro_batch_tokens, ">= 0")
        _check(self.max_rollout_rounds >= 1, "max_rollout_rounds", self.max_rollout_rounds, ">= 1")
        _check(
            self.min_samples_per_agent >= 0,
            "min_samples_per_agent",
            self.min_samples_per_agent,
            ">= 0",
        )
        _check(self.lr > 0, "lr", self.lr, "must be > 0")
        _check(
            len(self.adam_betas) == 2 and all(0 <= b < 1 for b in self.adam_betas),
            "adam_betas",
            list(self.adam_betas),
            "two numbers in [0, 1)",
        )
        _check(self.warmup_steps >= 0, "warmup_steps", self.warmup_steps, "must be >= 0")
        _check(self.grad_clip >= 0, "grad_clip", self.grad_clip, "must be >= 0")
        _check(self.checkpoint_every >= 0, "checkpoint_every", self.checkpoint_every, ">= 0")
        _check(self.keep_checkpoints >= 1, "keep_checkpoints", self.keep_checkpoints, ">= 1")


@dataclass(frozen=True)
class ClusterConfig:
    """Placement across processes and machines (docs/distributed.md)."""

    backend: Literal["local", "ray"] = _f("local", "`local`: one process; `ray`: Ray actors.")
    address: str | None = _f(None, "Ray cluster: `auto`, a URL, or null to start a local cluster.")
    gpus_per_learner: float = _f(0.0, "GPUs per agent learner actor.")
    engines_per_agent: int = _f(1, "Rollout engine actors per agent.")
    gpus_per_engine: float = _f(0.0, "GPUs per rollout engine actor.")
    sandbox_actors: int = _f(
        0,
        "Sandbox actors on CPU nodes, each a pool of `sandbox.workers` (0: sandbox in the driver).",
    )
    cpus_per_actor: Literal["auto"] | float = _f(
        "auto",
        "Ray CPUs reserved by each learner, engine and sandbox actor (fractions allowed); `auto`: "
        "the cluster's CPUs shared among the run's actors, at most 1 each.",
    )
    max_restarts: int = _f(
        3, "Times Ray restarts a dead engine or sandbox actor (a dead learner stops the run)."
    )
    timeout_s: float = _f(
        600.0, "Longest wait for one actor call or for the cluster's resources; then InfraError."
    )

    def __post_init__(self) -> None:
        _check(
            self.cpus_per_actor == "auto" or self.cpus_per_actor > 0,
            "cpus_per_actor",
            self.cpus_per_actor,
            "auto or > 0",
        )
        _check(self.max_restarts >= 0, "max_restarts", self.max_restarts, ">= 0")
        _check(self.timeout_s > 0, "timeout_s", self.timeout_s, "> 0")
        _check(self.gpus_per_learner >= 0, "gpus_per_learner", self.gpus_per_learner, ">= 0")
        _check(self.engines_per_agent >= 1, "engines_per_agent", self.engines_per_agent, ">= 1")
        _check(self.gpus_per_engine >= 0, "gpus_per_engine", self.gpus_per_engine, ">= 0")
        _check(self.sandbox_actors >= 0, "sandbox_actors", self.sandbox_actors, ">= 0")


@dataclass(frozen=True)
class OutputConfig:
    """Where and how a run records itself (docs/training.md, "Run directory")."""

    out: str | None = _f(None, "Run directory; `--out` sets it; null: runs/<command>-<time>.")
    tensorboard: bool = _f(True, "Write TensorBoard event files under the run directory.")
    wandb_project: str | None = _f(None, "Also log to this Weights & Biases project.")
    save_trees: bool = _f(True, "Write every finished tree to trees/*.jsonl.")


@dataclass(frozen=True)
class Config:
    """Everything a run needs. `agents` is a list: several agents may share one base model."""

    seed: int = _f(0, "Seed for search, sampling, data order and initialisation.")
    agents: tuple[AgentConfig, ...] = _f(
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
    search: SearchConfig = _f(SearchConfig(), "Tree search.")
    sandbox: SandboxConfig = _f(SandboxConfig(), "Code execution.")
    credit: CreditConfig = _f(CreditConfig(), "Credit assignment.")
    loss: LossConfig = _f(LossConfig(), "Policy loss.")
    data: DataConfig = _f(DataConfig(), "Problems.")
    train: TrainConfig = _f(TrainConfig(), "Training loop.")
    eval: EvalConfig = _f(EvalConfig(), "Evaluation protocol.")
    cluster: ClusterConfig = _f(ClusterConfig(), "Placement across processes and machines.")
    output: OutputConfig = _f(OutputConfig(), "Run directory and logging.")

    def __post_init__(self) -> None:
        _check(len(self.agents) >= 1, "agents", list(self.agents), "needs at least one agent")
        # One agent-name rule: an unnamed agent is `agent<i>` everywhere (metrics, policies,
        # checkpoints, evaluations), so the name is filled in here, once.
        named = tuple(
            agent if agent.name else dataclasses.replace(agent, name=f"agent{i}")
            for i, agent in enumerate(self.agents)
        )
        object.__setattr__(self, "agents", named)
        names = [agent.name for agent in named]
        repeated = sorted({n for n in names if names.count(n) > 1})
        _check(not repeated, "agents", repeated, "agent names must be unique")
        share = self.search.min_share * len(self.agents)
        _check(share <= 1, "search.min_share", self.search.min_share, "times #agents must be <= 1")
        _check_sharing(self)

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
