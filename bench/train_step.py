"""Benchmark: one learner optimizer step of mars2 vs TRL's GRPOTrainer on the same GRPO batch.

The decided comparison (issue #27): each side at its best supported setting for the job the user
runs: the same model (SmolLM2-135M-Instruct, the bundled model), batch, tokens and loss, and the
main job's adapter (LoRA rank 16, alpha 32, every linear layer) plus a full fine-tuning row, at
matched training precision: mars2's `train.precision: auto` resolved on this machine (bf16 on
bf16 GPUs, fp32 on CPUs) or `--precision bf16` (the bfloat16 learner, which is faster on
CPUs with fast bfloat16 products), with TRL given `bf16=True` exactly when that is bf16 and,
for its LoRA row, the model loaded in bfloat16 then (peft keeps the adapters in float32): the
scheme of mars2's bf16 LoRA learner, whose frozen model and residual stream are bfloat16. Where
the matched precision is not fp32, float32 rows (`-fp32`) are added for reference.

The batch is one GRPO step's: seeded random tokens, `samples` rows in groups of `group` samples
that share a prompt (TRL's `num_generations`), lengths within -20% of the sizes, advantages
standardised within each group, rollout log-probs in a plausible range. One optimizer step per
timed repetition on both sides, split into the same number of micro-batches for TRL
(`per_device_train_batch_size` x gradient accumulation) as mars2 would pad:

- mars2: `Learner.update` with the GSPO loss (one sequence-level ratio, clipped), aggregation
  `seq-mean-token-mean`, no KL, no TIS, `updates_per_step=1`, and its defaults otherwise: packed
  micro-batches of `train.micro_batch_tokens` (each shared prompt computed once, no padding).
  `mars2-lora-padded` is the same with `micro_batch_tokens: 0` (padded rows of `micro_batch`
  samples): what packing buys.
  `mars2-lora-dense` is mars2-lora with each pack's attention computed over the whole pack
  through its block-diagonal mask instead of block by block (`rl.use_block_attention`): what
  block attention buys (ratio row `mars2-lora / mars2-lora-dense`). `--batch tree` times a
  tree-search step of the main job instead (44 samples of 11 trees, each with a prompt of its
  own of ~130-160 + 40 tokens whose first 100 its tree's prompts share), where a pack holds
  several prompt groups; `mars2-lora-whole` is mars2-lora computing each distinct prompt whole:
  what sharing the leading positions of prompts that begin alike buys (`engine.logprobs.
  shared_prefixes`, ratio row `mars2-lora / mars2-lora-whole`).
- TRL: `GRPOTrainer` (LoRA through its `peft_config`) with loss_type `grpo`,
  importance_sampling_level `sequence`, beta 0 (the same objective: TRL's `grpo` loss is the mean
  over sequences of each sequence's token mean, and without vLLM it applies no
  importance-sampling correction). Generation is bypassed: the dict
  `_generate_and_score_completions` would return is built from the batch (left-padded prompts,
  right-padded completions, advantages; no `old_per_token_logps`, as TRL itself does with one
  iteration per generation), `training_step` runs on each micro-batch (inside it TRL's autocast
  when bf16), then gradient clipping, `optimizer.step`, `lr_scheduler.step` and `zero_grad` as in
  `Trainer`'s loop. Neither side checkpoints activations (TRL's GRPOConfig turns it on in
  `train()`, which this harness bypasses; mars2's `train.activation_checkpointing` is off).

Each contender runs in a fresh subprocess, so its peak memory is its own: the RSS high-water
mark (`ru_maxrss`) on CPU, `torch.cuda.max_memory_allocated` on CUDA. The first step is a
warm-up and is not timed; the median time of the other steps is reported, with tokens/s
counted over the batch's prompt + response tokens (the same count for both sides, so the ratio
is the ratio of step times). On CPU the time is the CPU time of the contender's process
(`time.process_time`, one torch thread by default), which other jobs on a shared machine
disturb far less than wall time; the median wall time is shown beside it. On CUDA it is wall
time after synchronising.

    python bench/train_step.py [--quick] [--smoke] [--json] [--steps N] [--contenders ...]

The learning check: each contender's worker saves the change its `steps + 1` updates made
(after its peak is read); the driver applies each to one float32 copy of the initial weights
and rescores the batch (bench/_learning.py): the "learning" column is the mean over samples of
sign(advantage) x the mean change of the sample's response-token log-probs. Each mars2 row is
checked against TRL's float32 row of its adapter, and each side's matched-precision row against
its float32 row: below 0.8x is flagged LEARNS LESS (the lines under the table; `--json`:
`learning`).

`--quick`: the headline pair (mars2-lora, trl-lora) and, where the matched precision is not
fp32, the same pair in fp32 (the learning check's reference), 8 samples of ~96 + 48 tokens:
its peak-memory ratio is dominated by fixed costs (model, imports), which the output says
(`peak_mem_basis`); quote the full batch's.
`--smoke`: tiny-random, mars2-lora and trl-lora only, 4 samples of ~8 + 4 tokens, one timed
step (seconds per contender; the figures mean nothing: for tests). `--json` prints
`speedup_vs_trl` and `peak_mem_ratio_vs_trl` of the LoRA pair (mars2-lora / trl-lora) and each
pair's figures. Target (issue #27): >= 1.5x TRL's throughput at <= 0.8x its peak memory.
The machine may be shared: the load average is printed with the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from mars2.machine import cpu_times, stolen_share  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from _learning import (  # noqa: E402
    PRECISION_ENV,
    add_precision_option,
    check_lines,
    effect_ratio,
    evaluate_changes,
    export_precision,
    save_change,
)

MODEL = "smollm2-135m"
# side-adapter[-variant]; "-fp32" rows are added where the matched precision is not fp32
CONTENDERS = (
    "mars2-lora",
    "trl-lora",
    "mars2-full",
    "trl-full",
    "mars2-lora-padded",
    "mars2-lora-dense",
    "mars2-lora-whole",
)
FP32_ROWS = ("mars2-lora-fp32", "trl-lora-fp32")
# (mars2 row, TRL row) ratios in the table and --json; the first is the headline
PAIRS = (
    ("mars2-lora", "trl-lora"),
    ("mars2-full", "trl-full"),
    ("mars2-lora-padded", "trl-lora"),
    ("mars2-lora-fp32", "trl-lora-fp32"),
)
# what one mars2 feature buys: (with it, without it), shown as ratio rows of the table
FEATURE_PAIRS = (("mars2-lora", "mars2-lora-dense"), ("mars2-lora", "mars2-lora-whole"))
# each side's matched precision against float32, shown where the matched one is not float32
PRECISION_PAIRS = (("mars2-lora", "mars2-lora-fp32"), ("trl-lora", "trl-lora-fp32"))
CLIP_LOW, CLIP_HIGH = 3e-4, 4e-4  # GSPO paper's sequence-ratio clip range
LR = 1e-6
LORA_RANK, LORA_ALPHA = 16, 32  # the main job's adapter (mars2's default agents)


@dataclass(frozen=True)
class BatchSpec:
    """The fixed synthetic batch: `samples` rows in groups of `group` sharing a prompt, lengths
    drawn around these sizes; TRL (and padded mars2) take `micro_batch` rows per pass."""

    samples: int
    group: int
    prompt_tokens: int
    response_tokens: int
    micro_batch: int
    seed: int = 0
    # groups per problem whose prompts begin with the same `stem` tokens (a tree's nodes: system
    # prompt and statement), the rest of each prompt its own; 0: prompts unrelated
    tree_nodes: int = 0
    stem: int = 0


FULL = BatchSpec(samples=16, group=4, prompt_tokens=256, response_tokens=128, micro_batch=4)
QUICK = BatchSpec(samples=8, group=4, prompt_tokens=96, response_tokens=48, micro_batch=4)
SMOKE = BatchSpec(samples=4, group=2, prompt_tokens=8, response_tokens=4, micro_batch=2)
# a tree-search step of the main job: 44 kept nodes of 11 trees, each node with a prompt of its
# own that begins like its tree's others (~100 tokens of system prompt and statement)
TREE = BatchSpec(
    samples=44,
    group=1,
    prompt_tokens=160,
    response_tokens=40,
    micro_batch=4,
    tree_nodes=4,
    stem=100,
)


def make_batch(spec: BatchSpec, vocab: int) -> list[Any]:
    """Seeded samples: groups of `spec.group` with one prompt of random non-special tokens,
    lengths within -20% of the sizes, advantages standardised within each group, rollout
    log-probs in a plausible range."""
    from mars2.types import Sample

    rng = random.Random(spec.seed)
    samples = []
    stem: list[int] = []
    for k, g in enumerate(range(0, spec.samples, spec.group)):
        if spec.tree_nodes and k % spec.tree_nodes == 0:  # a new tree: a new stem
            stem = [rng.randrange(100, vocab) for _ in range(spec.stem)]
        n_prompt = rng.randint(spec.prompt_tokens * 4 // 5, spec.prompt_tokens) - len(stem)
        prompt = stem + [rng.randrange(100, vocab) for _ in range(n_prompt)]
        size = min(spec.group, spec.samples - g)
        raw = [rng.gauss(0.0, 1.0) for _ in range(size)]
        mean, std = statistics.fmean(raw), statistics.pstdev(raw) or 1.0
        for value in raw:
            n_resp = rng.randint(spec.response_tokens * 4 // 5, spec.response_tokens)
            samples.append(
                Sample(
                    agent_id=0,
                    prompt_ids=list(prompt),
                    response_ids=[rng.randrange(100, vocab) for _ in range(n_resp)],
                    rollout_logprobs=[-rng.expovariate(1.0) for _ in range(n_resp)],
                    advantage=(value - mean) / std,
                    reward=float(value > mean),
                    group=f"bench{g}",
                )
            )
    return samples


def matched_precision() -> str:
    """What both sides train in: `--precision` (default mars2's `train.precision: auto` on this
    machine, fp32 on CPUs) resolved here."""
    import torch

    from mars2.training.trainable import resolve_precision

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return resolve_precision(os.environ.get(PRECISION_ENV, "auto"), device)


# ---------------------------------------------------------------- workers (one per subprocess)


def run_mars2(
    model: Any, tokenizer: Any, samples: list[Any], spec: BatchSpec, steps: int, row: str
) -> Any:
    from mars2.config import AgentConfig, LossConfig, TrainConfig
    from mars2.training.learner import Learner

    precision = "fp32" if row.endswith("-fp32") else matched_precision()
    learner = Learner(
        model,
        tokenizer,
        AgentConfig(
            temperature=1.0,
            max_new_tokens=spec.response_tokens,
            lora_rank=0 if "-full" in row else LORA_RANK,
            lora_alpha=LORA_ALPHA,
        ),
        TrainConfig(
            lr=LR,
            micro_batch_size=spec.micro_batch,
            micro_batch_tokens=0 if row.endswith("-padded") else TrainConfig().micro_batch_tokens,
            updates_per_step=1,
            grad_clip=1.0,
            precision=precision,  # type: ignore[arg-type]
        ),
        LossConfig(
            name="gspo",
            clip_low=CLIP_LOW,
            clip_high=CLIP_HIGH,
            tis="none",
            kl_coef=0.0,
            aggregation="seq-mean-token-mean",
        ),
        total_updates=steps + 1,
        seed=spec.seed,
    )
    if row.endswith("-dense"):  # each pack's attention over the whole pack, through its mask
        learner.model.config._attn_implementation = "sdpa"
    if row.endswith("-whole"):  # each distinct prompt computed whole, none sharing a beginning
        from mars2.engine import logprobs

        logprobs.MIN_SHARED_PREFIX = 1 << 30
    return (lambda: learner.update(samples)), learner.model


def _trl_inputs(samples: list[Any], pad_id: int, device: Any) -> dict[str, Any]:
    """The dict GRPOTrainer._generate_and_score_completions returns, for these samples."""
    import torch

    n_prompt = max(len(s.prompt_ids) for s in samples)
    n_resp = max(len(s.response_ids) for s in samples)
    prompt_ids = torch.full((len(samples), n_prompt), pad_id, dtype=torch.long)
    prompt_mask = torch.zeros_like(prompt_ids)
    completion_ids = torch.full((len(samples), n_resp), pad_id, dtype=torch.long)
    completion_mask = torch.zeros_like(completion_ids)
    for row, s in enumerate(samples):  # prompts left-padded, completions right-padded
        prompt_ids[row, n_prompt - len(s.prompt_ids) :] = torch.tensor(s.prompt_ids)
        prompt_mask[row, n_prompt - len(s.prompt_ids) :] = 1
        completion_ids[row, : len(s.response_ids)] = torch.tensor(s.response_ids)
        completion_mask[row, : len(s.response_ids)] = 1
    advantages = torch.tensor([s.advantage for s in samples], dtype=torch.float32)
    out = {
        "prompt_ids": prompt_ids,
        "prompt_mask": prompt_mask,
        "completion_ids": completion_ids,
        "completion_mask": completion_mask,
        "advantages": advantages,
        "num_items_in_batch": completion_mask.sum(),
    }
    return {k: v.to(device) for k, v in out.items()}


def run_trl(
    model: Any, tokenizer: Any, samples: list[Any], spec: BatchSpec, steps: int, row: str
) -> Any:
    import logging
    import warnings

    import torch
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from mars2.config import AgentConfig
    from mars2.training.trainable import lora_config

    logging.getLogger("transformers").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    accumulation = spec.samples // spec.micro_batch
    args = GRPOConfig(
        output_dir=tempfile.mkdtemp(prefix="bench-trl-"),
        per_device_train_batch_size=spec.micro_batch,
        gradient_accumulation_steps=accumulation,
        num_generations=spec.group,
        max_completion_length=spec.response_tokens,
        loss_type="grpo",
        importance_sampling_level="sequence",
        beta=0.0,
        epsilon=CLIP_LOW,
        epsilon_high=CLIP_HIGH,
        learning_rate=LR,
        lr_scheduler_type="constant",
        weight_decay=0.0,
        max_grad_norm=1.0,
        optim="adamw_torch_fused",  # transformers' default with torch >= 2.8; mars2's too
        bf16=(not row.endswith("-fp32")) and matched_precision() == "bf16",
        fp16=False,
        use_cpu=not torch.cuda.is_available(),
        report_to=[],
        logging_strategy="no",
        save_strategy="no",
        seed=spec.seed,
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=lambda completions, **_: [0.0] * len(completions),
        args=args,
        train_dataset=Dataset.from_dict({"prompt": ["stub"] * spec.samples}),
        processing_class=tokenizer,
        peft_config=None  # else mars2's own adapter config
        if "-full" in row
        else lora_config(AgentConfig(lora_rank=LORA_RANK, lora_alpha=LORA_ALPHA)),
    )
    trainer.create_optimizer_and_scheduler(num_training_steps=steps + 1)
    trainer._prepare_inputs = lambda batch: batch  # inputs arrive already "generated"
    trainer.current_gradient_accumulation_steps = accumulation
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    micro = [
        _trl_inputs(samples[i : i + spec.micro_batch], pad_id, trainer.model.device)
        for i in range(0, spec.samples, spec.micro_batch)
    ]

    def step() -> None:
        for inputs in micro:
            trainer.training_step(trainer.model, inputs, None)
        trainer.accelerator.clip_grad_norm_(trainer.model.parameters(), args.max_grad_norm)
        trainer.optimizer.step()
        trainer.lr_scheduler.step()
        trainer.model.zero_grad(set_to_none=True)

    return step, trainer.model


def _rss_mb() -> float:
    """Current resident set size of this process, from /proc (0 where unavailable)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def worker(
    name: str, spec: BatchSpec, steps: int, threads: int, model_name: str, change: str | None
) -> dict[str, Any]:
    """Set up contender `name`, time `steps` optimizer steps after one warm-up, read the peak,
    then save the change the `steps + 1` updates made to `change` (the learning check's)."""
    import torch

    from mars2.agents import load_model

    torch.manual_seed(spec.seed)
    torch.set_num_threads(threads)
    bf16_base = name == "trl-lora" and matched_precision() == "bf16"  # as mars2's LoRA learner
    model, tokenizer = load_model(model_name, dtype="bfloat16" if bf16_base else "float32")
    samples = make_batch(spec, model.config.vocab_size)
    make = run_mars2 if name.startswith("mars2") else run_trl
    step, trained = make(model, tokenizer, samples, spec, steps, name)
    cuda = torch.cuda.is_available()
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    setup_rss = _rss_mb()
    step()  # warm-up, not timed
    times, cpu_times = [], []
    for _ in range(steps):
        if cuda:
            torch.cuda.synchronize()
        start, cpu_start = time.perf_counter(), time.process_time()
        step()
        if cuda:
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    peak_cuda = torch.cuda.max_memory_allocated() / 2**20 if cuda else None
    if change:  # after the peak is read: saving copies weights
        save_change(trained, Path(change))
    return {
        "times": times,
        "cpu_times": None if cuda else cpu_times,
        "response_tokens": sum(len(s.response_ids) for s in samples),
        "prompt_tokens": sum(len(s.prompt_ids) for s in samples),
        "setup_rss_mb": setup_rss,
        "peak_rss_mb": peak_rss,
        "peak_cuda_mb": peak_cuda,
    }


# ---------------------------------------------------------------- driver


def measure(
    name: str,
    spec: BatchSpec,
    steps: int,
    threads: int,
    model_name: str = MODEL,
    change: Path | None = None,
) -> dict[str, Any]:
    """Run one contender's worker in a fresh Python process and parse its JSON line; the
    worker saves its updates' change to `change` (when given)."""
    cmd = [sys.executable, __file__, "--worker", name, "--steps", str(steps)]
    cmd += ["--model", model_name] + (["--change", str(change)] if change else [])
    cmd += ["--threads", str(threads), "--spec", json.dumps(asdict(spec))]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} worker failed:\n{proc.stderr[-4000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def summarise(result: dict[str, Any]) -> dict[str, float]:
    wall = statistics.median(result["times"])
    median = wall if result["cpu_times"] is None else statistics.median(result["cpu_times"])
    peak = result["peak_cuda_mb"] if result["peak_cuda_mb"] is not None else result["peak_rss_mb"]
    return {
        "step_s": median,
        "wall_s": wall,
        "resp_tok_s": result["response_tokens"] / median,
        "all_tok_s": (result["response_tokens"] + result["prompt_tokens"]) / median,
        "peak_mb": peak,
        "train_mb": result["peak_rss_mb"] - result["setup_rss_mb"],
    }


def print_table(
    spec: BatchSpec,
    steps: int,
    rows: dict[str, dict[str, float]],
    console: Console,
    model_name: str = MODEL,
) -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    table = Table(
        title=(
            f"One optimizer step, {model_name}, matched precision {matched_precision()}, "
            f"{spec.samples} samples in groups of {spec.group} (~{spec.prompt_tokens}+"
            f"{spec.response_tokens} tokens, padded micro-batch {spec.micro_batch}); "
            f"median of {steps} steps; load avg {load} on {os.cpu_count()} CPUs"
        )
    )
    columns = (
        "step (s)",
        "wall (s)",
        "resp tok/s",
        "prompt+resp tok/s",
        "peak (MB)",
        "train Δ (MB)",
        "learning (nats)",
    )
    table.add_column("")
    for col in columns:
        table.add_column(col, justify="right")
    keys = ("step_s", "wall_s", "resp_tok_s", "all_tok_s", "peak_mb", "train_mb", "effect")
    for name, r in rows.items():
        table.add_row(name, *(_cell(r, k) for k in keys))
    for ours, other in PAIRS + FEATURE_PAIRS + PRECISION_PAIRS:
        if ours in rows and other in rows:
            table.add_row(f"{ours} / {other}", *(_ratio(rows[ours], rows[other], k) for k in keys))
    console.print(table)
    console.print(
        "step: CPU seconds of the contender's process (CUDA: wall seconds); tok/s from it. "
        "peak: RSS high-water mark of the contender's own process (CUDA: max allocated); "
        "train Δ: that peak minus the RSS after setup (model loaded, imports done). learning: "
        "mean over samples of sign(advantage) x the mean change of the sample's response-token "
        "log-probs after all the row's updates, rescored in float32 (docs/performance.md)."
    )


def _cell(row: dict[str, float], key: str) -> str:
    if key == "effect":
        return "n/a" if row.get(key) is None else f"{row[key]:.2e}"
    return f"{row[key]:.2f}" if key.endswith("_s") else f"{row[key]:.0f}"


def _ratio(ours: dict[str, float], other: dict[str, float], key: str) -> str:
    if key == "effect":
        ratio = effect_ratio(ours.get(key), other.get(key))
        return "n/a" if ratio is None else f"{ratio:.2f}x"
    return f"{ours[key] / max(other[key], 1e-9):.2f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller batch, fewer steps (< 1 min)")
    parser.add_argument("--smoke", action="store_true", help="tiny-random, one tiny step (tests)")
    parser.add_argument("--json", action="store_true", help="print the headline figures as JSON")
    parser.add_argument("--steps", type=int, default=None, help="timed steps (default 3, quick 2)")
    parser.add_argument("--model", default=MODEL, help=argparse.SUPPRESS)
    parser.add_argument(
        "--batch",
        choices=("grpo", "tree"),
        default="grpo",
        help="grpo: the GRPO batch above (default); tree: a tree-search step of the main job, "
        "44 samples with prompts of their own (~140+40 tokens)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="torch CPU threads per contender (default 1)"
    )
    parser.add_argument(
        "--contenders",
        help=f"comma-separated subset of {','.join(CONTENDERS + FP32_ROWS)} (default: all, the "
        "fp32 rows where the matched precision is not fp32; --smoke: mars2-lora,trl-lora)",
    )
    add_precision_option(parser)
    parser.add_argument("--worker", choices=CONTENDERS + FP32_ROWS, help=argparse.SUPPRESS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--change", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.worker:
        export_precision(args.precision)
    steps = args.steps or (1 if args.smoke else 2 if args.quick else 3)
    if args.worker:
        spec = BatchSpec(**json.loads(args.spec))
        result = worker(args.worker, spec, steps, args.threads, args.model, args.change)
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    spec = SMOKE if args.smoke else QUICK if args.quick else TREE if args.batch == "tree" else FULL
    model_name = "tiny-random" if args.smoke else args.model
    default = CONTENDERS + (FP32_ROWS if matched_precision() != "fp32" else ())
    if spec.group < 2:  # TRL's GRPO cannot take groups of one (the tree batch): mars2's rows
        default = tuple(n for n in default if n.startswith("mars2"))
    # --smoke: the headline pair; --quick: the pair at each precision (its learning check)
    pair_only = "mars2-lora,trl-lora"
    if args.quick and matched_precision() != "fp32":
        pair_only += "," + ",".join(FP32_ROWS)
    contenders = args.contenders or (pair_only if args.smoke or args.quick else ",".join(default))
    names = [n for n in contenders.split(",") if n]
    unknown = sorted(set(names) - set(CONTENDERS + FP32_ROWS))
    if unknown:
        parser.error(f"unknown contenders {unknown}; choose from {CONTENDERS + FP32_ROWS}")
    if spec.group < 2 and any(n.startswith("trl") for n in names):
        parser.error(
            f"TRL's GRPO needs groups of at least 2 samples and this batch has groups of "
            f"{spec.group}: choose mars2 contenders (e.g. --contenders mars2-lora,mars2-lora-whole)"
        )
    rows, steal = {}, {}
    with tempfile.TemporaryDirectory(prefix="bench-train-step-") as tmp:
        changes = {name: Path(tmp) / f"{name}.pt" for name in names}
        for name in names:  # the hypervisor's share of each contender's time: a slow host shows
            before = cpu_times()
            result = measure(name, spec, steps, args.threads, model_name, changes[name])
            rows[name] = summarise(result)
            steal[name] = stolen_share(before, cpu_times())
        effects = evaluate_changes(
            model_name, lambda m: make_batch(spec, m.config.vocab_size), changes
        )
    for name, effect in effects.items():
        rows[name]["effect"] = effect
    checks = check_lines(effects, learning_pairs(names))
    headline = headline_figures(rows, quick=args.quick or args.smoke)
    headline["learning"] = {
        "effect": effects,
        "checks": checks,
        "learns_less": [line.split(" ")[0] for line in checks if "LEARNS LESS" in line],
    }
    headline["steal"] = steal
    if args.json:
        sys.stdout.write(json.dumps(headline) + "\n")
    else:
        print_table(spec, steps, rows, Console(width=max(Console().width, 150)), model_name)
        print(f"share of CPU time stolen by the hypervisor: {_shares(steal)}")
        print(f"peak memory ratio: {headline['peak_mem_basis']}")
        print(f"learning check, after {steps + 1} updates (vs the float32 reference):")
        print("\n".join(f"  {line}" for line in checks) or "  no reference row run")
    return 0


def learning_pairs(names: list[str]) -> list[tuple[str, str]]:
    """(row, float32 reference) for the learning check: each mars2 row against TRL's float32
    row of the same adapter (TRL's matched row where that is float32, else mars2's own float32
    row), and each side's matched row against its float32 row."""
    fp32 = matched_precision() == "fp32"
    pairs = []
    for name in names:
        if not name.startswith("mars2"):
            continue
        adapter = "full" if "-full" in name else "lora"
        candidates = [
            f"trl-{adapter}-fp32",
            f"trl-{adapter}" if fp32 else "",
            f"mars2-{adapter}-fp32",
        ]
        reference = next((c for c in candidates if c in names and c != name), None)
        if reference:
            pairs.append((name, reference))
    for side in ("mars2", "trl"):
        if not fp32 and {f"{side}-lora", f"{side}-lora-fp32"} <= set(names):
            pair = (f"{side}-lora", f"{side}-lora-fp32")
            if pair not in pairs:
                pairs.append(pair)
    return pairs


def headline_figures(rows: dict[str, dict[str, float]], quick: bool) -> dict[str, Any]:
    """speedup and peak-memory ratio of each (mars2, TRL) pair run; the first pair's at the top
    level, with the learning effect's ratio and which batch the memory ratio is of."""
    headline: dict[str, Any] = {
        "peak_mem_basis": (
            "quick batch: fixed costs (model, imports) dominate both peaks, so the ratio sits "
            "near 1; the full batch's ratio is the one to quote"
            if quick
            else "full batch"
        )
    }
    for ours, trl in PAIRS:  # the first pair present gives the top-level figures
        if ours in rows and trl in rows:
            a, b = rows[ours], rows[trl]
            ratio = effect_ratio(a.get("effect"), b.get("effect"))
            pair = {
                "speedup_vs_trl": round(a["all_tok_s"] / b["all_tok_s"], 3),
                "peak_mem_ratio_vs_trl": round(a["peak_mb"] / b["peak_mb"], 3),
                "learning_ratio_vs_trl": None if ratio is None else round(ratio, 3),
            }
            if "speedup_vs_trl" not in headline:
                headline.update(pair)
            headline[f"{ours}/{trl}"] = pair
    return headline


def _shares(steal: dict[str, float | None]) -> str:
    return ", ".join(f"{k} {'n/a' if v is None else f'{v:.0%}'}" for k, v in steal.items())


if __name__ == "__main__":
    sys.exit(main())
