"""Benchmark: one end-to-end GRPO training step, mars2 (`train.mode=grpo`) vs TRL's GRPOTrainer.

One training step as a user runs it: roll out 16 problems x 4 samples (at most 128 new tokens
each), grade every completion in mars2's sandbox, take one optimizer step over all 64
completions. Each contender runs in a fresh subprocess; only the step is timed, never the
imports, model loading, trainer construction or sandbox start-up.

What is the same on both sides:

- Model: the bundled SmolLM2-135M-Instruct (`smollm2-135m`), loaded with
  `mars2.agents.load_model` on the CPU (float32; TRL's in bfloat16 where it trains in bf16,
  below), with a LoRA adapter of rank 16, alpha 32,
  dropout 0 on all linear layers (mars2's default agents; TRL gets the same `peft.LoraConfig`).
- Problems: the first 16 problems of `bundled:core`'s train split (`mars2.problems.load_problems`).
  mars2 gets them through `data.limit=16` with `train.problems_per_step=16`: its problem stream
  shuffles the 16 and takes all of them in the one step. TRL gets a 16-row dataset of the same
  problems; its `RepeatSampler` (generation batch 64 / 4 generations = 16 prompts) takes all
  16 rows, 4 times each.
- Prompts: the chat messages of a fresh attempt that mars2's rollout builds
  (`mars2.agents.prompts.generate_messages` with the agent's role, `coder`); TRL gets the same
  messages as a conversational dataset (`prompt` = the list of messages), so both render them
  with the tokenizer's chat template (the same prompt token ids).
- Sampling: temperature 0.8, top-p 1.0, no top-k, at most 128 new tokens, 4 samples per prompt.
- Reward: mars2's default `credit.reward: fraction`, the share of all tests (public and hidden)
  passed in `mars2.sandbox.Sandbox` with the default `SandboxConfig` (2 workers). TRL's reward
  function extracts the program with mars2's `extract_code` and grades it in the same sandbox
  (`Sandbox.run_many`, tests `all`).
- Objective and update: GRPO, token ratios clipped to [1-0.2, 1+0.28], the mean over sequences of
  each sequence's token mean (mars2 `loss.name=grpo`, `loss.aggregation=seq-mean-token-mean`;
  TRL `loss_type="grpo"`, `epsilon=0.2`, `epsilon_high=0.28`), no KL and so no reference model
  (mars2 `loss.kl_coef=0`, TRL `beta=0.0`), group advantages scaled by the group's std. One
  optimizer step over all 64 completions: mars2 `train.updates_per_step=1`,
  `train.min_samples_per_agent=0` (one rollout round), `credit.dynamic_filter=false` (groups
  with equal rewards are trained on, as TRL does); TRL `generation_batch_size=64` =
  `per_device_train_batch_size` 8 x `gradient_accumulation_steps` 8, `num_generations=4`,
  `max_steps=1`. AdamW, lr 1e-4 (mars2's default for LoRA), constant schedule, weight decay 0,
  betas (0.9, 0.999), gradient norm clipped at 1.0. Neither side computes "old" log-probs in a
  separate pass (one optimizer step per generation: both use the gradient pass's own, detached).
- Training precision: `mars2.training.trainable.resolve_precision(P, cpu)` on both sides, P the
  `--precision` (default `auto`: fp32 on CPUs; mars2 `train.precision=P`; TRL `bf16=True` exactly
  when that says bf16, with the model then loaded in bfloat16 (peft keeps the adapter in
  float32): the scheme of mars2's bf16 LoRA learner, whose frozen model and residual stream are
  bfloat16; TRL's `model.generate` then samples in bfloat16 too).
- Seed 0 on both sides; torch's default number of threads (`--threads N` sets another; the
  table title shows it). On a machine that other jobs keep busy, torch's default (one thread
  per core) oversubscribes the cores, which slows `model.generate`'s many small operations
  far more than one thread would (measured 3x on 2 busy cores): compare on an idle machine.

What each library does its own way (each side's best supported settings, which is the decided
comparison):

- Generation: mars2's rollout engine (`hf` backend: its own batched decoder with shared prompt
  prefills, `rollout_dtype: auto`, i.e. a bfloat16 copy of the weights on CPUs with AVX512-BF16
  or AMX, the model's float32 weights elsewhere) stops a response when its first ```python
  block closes (`stop_at_fence`, the default: nothing after the block is graded). TRL calls
  `model.generate` once on all 64 prompts in the model's precision and stops at EOS or 128
  tokens (`generate` gets no tokenizer from TRL, so no stop strings). So the two sides generate
  different numbers of tokens for the same problems; "gen tokens" shows each side's count.
- Rollout schedule: mars2 grows the 16 groups as 16 concurrent trees of 4 independent samples
  (`search.algo=sampling`, its default one expansion per tree in flight), overlapping sandbox
  runs with generation; TRL generates everything, then grades everything.
- Importance weights: mars2 corrects for its engine's bfloat16 sampling with truncated
  importance sampling against the engine's log-probs (`loss.tis: token`, the default); TRL
  without vLLM has no such correction (it samples from the fp32 model itself).
- Learner passes: mars2 packs each prompt's samples into one unpadded sequence
  (`train.micro_batch_tokens` 1024) and keeps activations; TRL pads micro-batches of 8 and
  recomputes each layer in backward (`GRPOConfig`'s default `gradient_checkpointing=True`).
- mars2's step also writes the step's trees to the run directory (a temporary one here).

Peak memory is the RSS high-water mark (`ru_maxrss`) of the contender's own process: model,
engine copies, learner, everything but the sandbox's worker processes (their own processes on
both sides). The wall time is of one step, the first: on a shared machine it moves with the
load, which the table prints. TRL's includes what `train()` does before its first generation
and after its optimizer step (creating the optimizer and data loader, ...: the "set-up"
column, paid once per `train()` call); mars2 builds its optimizer with the Trainer, untimed.

    python bench/grpo_step.py [--quick] [--smoke] [--json] [--threads N] [--contenders mars2,trl]

The learning check: each worker saves its update's change and the samples the update took
(after its peak is read); the driver rescores each side's own samples in float32 before and
after the change (bench/_learning.py): the "learning" column is the mean over samples of
sign(advantage) x the mean change of the sample's response-token log-probs (at the sampling
temperature). The two sides' samples differ, so their ratio is indicative; mars2 below 0.8x
TRL's float32 row (`--contenders mars2,trl,mars2-fp32,trl-fp32`; else TRL's matched row) is
flagged LEARNS LESS. `--quick`'s peak-memory ratio is dominated by fixed costs, which the
output says (`peak_mem_basis`).

`--quick`: 4 problems x 4 samples, at most 64 new tokens (under 3 minutes on an idle 2-core
machine). `--smoke`: the tiny-random model, 2 problems x 2 samples, 8 new tokens (seconds; the
figures mean nothing: for tests). `--json` prints {"speedup_vs_trl": TRL wall / mars2 wall,
"peak_mem_ratio_vs_trl": mars2 peak / TRL peak, "mars2": {...}, "trl": {...}, ...}.

Target: >= 3.0x TRL's speed (wall time of the step) at <= 0.8x its peak memory.

Time on the idle 2-core machine, torch's default 2 threads (2026-12-02): the full bench 4.6 min
(mars2's step 54 s, TRL's 203 s), `--quick` 1.2 min. On cores other jobs keep busy, 2 threads
slow TRL's `model.generate` several times over (its `--quick` step took 264 s at load ~3):
measure on an idle machine or pass `--threads 1`. Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import resource
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
    evaluate_changes,
    export_precision,
    save_change,
)

# "-fp32": the same contender training in float32 (the learning check's reference precision)
CONTENDERS = ("mars2", "trl", "mars2-fp32", "trl-fp32")
DEFAULT_CONTENDERS = "mars2,trl"
PROBLEMS = "bundled:core"
TEMPERATURE, TOP_P = 0.8, 1.0
CLIP_LOW, CLIP_HIGH = 0.2, 0.28  # mars2's LossConfig defaults; TRL: epsilon, epsilon_high
SEED = 0


@dataclass(frozen=True)
class StepSpec:
    """One step's size: `problems` x `samples` completions of at most `max_new_tokens`."""

    model: str
    problems: int
    samples: int
    max_new_tokens: int
    micro_batch: int  # TRL's per_device_train_batch_size


FULL = StepSpec(model="smollm2-135m", problems=16, samples=4, max_new_tokens=128, micro_batch=8)
QUICK = StepSpec(model="smollm2-135m", problems=4, samples=4, max_new_tokens=64, micro_batch=8)
SMOKE = StepSpec(model="tiny-random", problems=2, samples=2, max_new_tokens=8, micro_batch=2)


def mars2_config(spec: StepSpec, precision: str = "auto") -> Any:
    """The default config with one trainable agent (the default coder: SmolLM2, LoRA rank 16),
    mode grpo, one step of one rollout round over exactly the first `spec.problems` problems."""
    from mars2.config import load_config

    config = load_config(
        None,
        [
            "train.mode=grpo",
            "train.steps=1",
            f"train.problems_per_step={spec.problems}",
            f"train.samples_per_problem={spec.samples}",
            "train.min_samples_per_agent=0",
            "train.updates_per_step=1",
            f"train.precision={precision}",
            f"data.train={PROBLEMS}",
            "data.train_split=train",
            f"data.limit={spec.problems}",
            "loss.name=grpo",
            "loss.aggregation=seq-mean-token-mean",  # TRL's `grpo` loss
            f"loss.clip_low={CLIP_LOW}",
            f"loss.clip_high={CLIP_HIGH}",
            "loss.kl_coef=0",
            "credit.reward=fraction",
            "credit.dynamic_filter=false",  # train on all completions, as TRL does
            "eval.every=0",
            f"seed={SEED}",
        ],
    )
    coder = dataclasses.replace(
        config.agents[0],
        model=spec.model,
        device="cpu",
        temperature=TEMPERATURE,
        top_p=TOP_P,
        max_new_tokens=spec.max_new_tokens,
    )
    return dataclasses.replace(config, agents=(coder,))


# ---------------------------------------------------------------- workers (one per subprocess)


def run_mars2(spec: StepSpec, precision: str) -> tuple[dict[str, Any], Any, list[Any]]:
    """Build a Trainer (models, engine, learner: not timed), then time `Trainer.train_step`
    directly: no step-0 or final evaluation, no checkpoint. Also returns the learner's model and
    the samples its update took (the learning check's)."""
    from mars2.training.loop import Trainer

    config = mars2_config(spec, precision)
    run_dir = tempfile.TemporaryDirectory(prefix="bench-grpo-mars2-")
    trainer = Trainer(config, Path(run_dir.name))
    assert [p.id for p in trainer.problems] == [p.id for p in _problems(spec)]
    learner, trained = trainer.learners[0], []
    update = learner.update

    def recorded(samples: list[Any]) -> Any:
        trained.extend(samples)
        return update(samples)

    learner.update = recorded
    loop = asyncio.new_event_loop()
    try:
        with trainer.placement.sandbox() as sandbox:
            orchestrator = trainer._orchestrator(sandbox)
            start = time.perf_counter()
            metrics = trainer.train_step(orchestrator, loop)
            wall = time.perf_counter() - start
    finally:  # end the engines' queue workers inside the loop before closing it (as fit does)
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        trainer.placement.close()
        loop.close()
        run_dir.cleanup()
    result = {
        "wall_s": wall,
        "overhead_s": 0.0,  # the timed call is the step itself
        "rollout_s": metrics["time/rollout"],
        "tokens": int(metrics["tokens/generated"]),
        "completions": int(metrics["train/nodes"]),
        "trained": int(metrics["train/samples"]),
        "reward_mean": metrics["train/reward/mean"],
    }
    return result, learner.model, trained


def run_trl(spec: StepSpec, precision: str) -> tuple[dict[str, Any], Any, list[Any]]:
    """Build a GRPOTrainer (not timed) whose reward function grades in mars2's sandbox, then time
    `trainer.train()` for `max_steps=1`. Also returns the trained model and the samples its
    update took (prompt, completion and advantage of each row generated)."""
    import logging
    import warnings

    import torch
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from mars2.agents import load_model
    from mars2.agents.prompts import extract_code, generate_messages
    from mars2.sandbox import Sandbox
    from mars2.training.trainable import lora_config, resolve_precision

    logging.getLogger("transformers").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    config = mars2_config(spec, precision)
    agent = config.agents[0]
    problems = {p.id: p for p in _problems(spec)}
    bf16 = resolve_precision(precision, torch.device("cpu")) == "bf16"
    model, tokenizer = load_model(spec.model, device="cpu", dtype="bfloat16" if bf16 else "float32")
    total = spec.problems * spec.samples
    micro = min(spec.micro_batch, total)
    out_dir = tempfile.TemporaryDirectory(prefix="bench-grpo-trl-")
    args = GRPOConfig(
        output_dir=out_dir.name,
        max_steps=1,
        per_device_train_batch_size=micro,
        gradient_accumulation_steps=total // micro,
        generation_batch_size=total,
        num_generations=spec.samples,
        max_completion_length=spec.max_new_tokens,
        temperature=TEMPERATURE,
        top_p=TOP_P,
        loss_type="grpo",
        beta=0.0,
        epsilon=CLIP_LOW,
        epsilon_high=CLIP_HIGH,
        scale_rewards="group",
        learning_rate=config.train.lr,
        lr_scheduler_type="constant",
        weight_decay=config.train.weight_decay,
        adam_beta1=config.train.adam_betas[0],
        adam_beta2=config.train.adam_betas[1],
        max_grad_norm=config.train.grad_clip,
        bf16=bf16,
        fp16=False,
        use_cpu=True,
        report_to=[],
        logging_strategy="no",
        save_strategy="no",
        disable_tqdm=True,
        seed=SEED,
    )
    graded: dict[str, list[float]] = {"rewards": [], "tokens": [], "rollout_s": []}
    marks: dict[str, float] = {}  # perf_counter at the first generation and at the step's end

    class StepEnd(TrainerCallback):
        def on_step_end(self, *_: Any, **__: Any) -> None:
            marks["step_end"] = time.perf_counter()

    with Sandbox(config.sandbox) as sandbox:

        def fraction_passed(
            completions: list[Any], completion_ids: list[list[int]], problem_id: list[str], **_: Any
        ) -> list[float]:
            texts = [c[-1]["content"] if isinstance(c, list) else c for c in completions]
            jobs = [
                (extract_code(text), problems[pid], "all")
                for text, pid in zip(texts, problem_id, strict=True)
            ]
            rewards = [result.pass_fraction for result in sandbox.run_many(jobs)]
            graded["rewards"] += rewards
            graded["tokens"] += [len(ids) for ids in completion_ids]
            return rewards

        rows = [
            {"prompt": generate_messages(p, agent.role, agent.system_prompt), "problem_id": p.id}
            for p in problems.values()
        ]
        peft_config = lora_config(agent)  # mars2's own adapter config
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=fraction_passed,
            args=args,
            train_dataset=Dataset.from_list(rows),
            processing_class=tokenizer,
            peft_config=peft_config,
            callbacks=[StepEnd()],
        )
        generate_and_score = trainer._generate_and_score_completions

        def timed(*a: Any, **k: Any) -> Any:  # generation + grading (+ advantages)
            t0 = time.perf_counter()
            marks.setdefault("first_generation", t0)
            out = generate_and_score(*a, **k)
            graded["rollout_s"].append(time.perf_counter() - t0)
            generated.append(out)  # read after the step
            return out

        trainer._generate_and_score_completions = timed
        generated: list[dict[str, Any]] = []
        start = time.perf_counter()
        trainer.train()
        end = time.perf_counter()
    out_dir.cleanup()
    assert trainer.state.global_step == 1, trainer.state.global_step
    rewards = graded["rewards"]
    result = {
        "wall_s": end - start,
        # train()'s own set-up before the first generation (optimizer, data loader, ...) and
        # its wrap-up after the optimizer step: part of the step a user waits for, but paid once
        "overhead_s": (marks["first_generation"] - start) + (end - marks["step_end"]),
        "rollout_s": sum(graded["rollout_s"]),
        "tokens": int(sum(graded["tokens"])),
        "completions": len(rewards),
        "trained": len(rewards),
        "reward_mean": sum(rewards) / max(len(rewards), 1),
    }
    return result, trainer.model, [row for out in generated for row in _trl_rows(out)]


def _trl_rows(out: dict[str, Any]) -> list[Any]:
    """The rows of one `_generate_and_score_completions` output as samples: unpadded prompt and
    completion token ids, advantage."""
    from types import SimpleNamespace

    rows = []
    for r in range(out["prompt_ids"].shape[0]):
        prompt = out["prompt_ids"][r][out["prompt_mask"][r].bool()].tolist()
        response = out["completion_ids"][r][out["completion_mask"][r].bool()].tolist()
        if response:
            advantage = float(out["advantages"][r])
            rows.append(
                SimpleNamespace(prompt_ids=prompt, response_ids=response, advantage=advantage)
            )
    return rows


def _problems(spec: StepSpec) -> list[Any]:
    from mars2.problems import load_problems

    return load_problems(PROBLEMS, split="train", limit=spec.problems, warn=False)


def worker(name: str, spec: StepSpec, threads: int, change: str | None) -> dict[str, Any]:
    """Run contender `name`'s step in this process (`threads` torch threads, 0: torch's
    default); add the thread count and the RSS high-water mark; then save the update's change
    to `change` and the samples it took beside it (`.json`), for the learning check."""
    import torch

    torch.manual_seed(SEED)
    if threads > 0:
        torch.set_num_threads(threads)
    precision = "fp32" if name.endswith("-fp32") else os.environ.get(PRECISION_ENV, "auto")
    run = run_mars2 if name.startswith("mars2") else run_trl
    result, model, samples = run(spec, precision)
    result["threads"] = torch.get_num_threads()
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB
    if change:  # after the peak is read
        save_change(model, Path(change))
        batch = [[s.prompt_ids, s.response_ids, s.advantage] for s in samples]
        Path(change).with_suffix(".json").write_text(json.dumps(batch))
    return result


def learning_effects(spec: StepSpec, changes: dict[str, Path]) -> dict[str, float]:
    """Each contender's learning effect on the samples its own update took."""
    from types import SimpleNamespace

    effects = {}
    for name, path in changes.items():
        batch = [
            SimpleNamespace(prompt_ids=p, response_ids=r, advantage=a)
            for p, r, a in json.loads(path.with_suffix(".json").read_text())
        ]
        one = {name: path}
        effects |= evaluate_changes(spec.model, lambda _, b=batch: b, one, temperature=TEMPERATURE)
    return effects


def learning_pairs(names: list[str]) -> list[tuple[str, str]]:
    """(row, reference) for the learning check: mars2 at each precision against TRL's float32
    row (TRL's matched row where no float32 row ran), each side against its float32 row."""
    reference = "trl-fp32" if "trl-fp32" in names else "trl"
    pairs = [(n, reference) for n in ("mars2", "mars2-fp32") if n in names]
    pairs += [(n, f"{n}-fp32") for n in ("mars2", "trl") if {n, f"{n}-fp32"} <= set(names)]
    return [pair for pair in pairs if pair[1] in names]


# ---------------------------------------------------------------- driver


def measure(name: str, spec: StepSpec, threads: int, change: Path) -> dict[str, Any]:
    """Run one contender's worker in a fresh Python process and parse its last JSON line."""
    cmd = [sys.executable, __file__, "--worker", name, "--spec", json.dumps(asdict(spec))]
    cmd += ["--threads", str(threads), "--change", str(change)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} worker failed:\n{proc.stderr[-4000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


COLUMNS = (  # (title, key, format)
    ("wall s", "wall_s", "{:.1f}"),
    ("rollout s", "rollout_s", "{:.1f}"),
    ("set-up s", "overhead_s", "{:.1f}"),
    ("samples", "completions", "{:.0f}"),
    ("tokens", "tokens", "{:.0f}"),
    ("tok/s", "tok_s", "{:.1f}"),
    ("peak MB", "peak_rss_mb", "{:.0f}"),
    ("reward", "reward_mean", "{:.3f}"),
    ("learning", "effect", "{:.2e}"),  # sign(advantage)-weighted log-prob change, bench/_learning
    ("steal", "steal", "{:.0%}"),  # the hypervisor's share of the machine's time meanwhile
)


def print_table(spec: StepSpec, rows: dict[str, dict[str, Any]], console: Console) -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    threads = ", ".join(f"{n} {r['threads']}" for n, r in rows.items())
    table = Table(
        title=(
            f"One GRPO step, {spec.model} + LoRA 16: {spec.problems} problems x {spec.samples} "
            f"samples, <= {spec.max_new_tokens} new tokens; torch threads {threads}; "
            f"load avg {load} on {os.cpu_count()} CPUs"
        )
    )
    table.add_column("")
    for title, _, _ in COLUMNS:
        table.add_column(title, justify="right")
    for name, r in rows.items():
        table.add_row(
            name, *("n/a" if r[key] is None else fmt.format(r[key]) for _, key, fmt in COLUMNS)
        )
    if {"mars2", "trl"} <= rows.keys():
        a, b = rows["mars2"], rows["trl"]
        table.add_row(
            "mars2 / trl",
            *(f"{a[key] / b[key]:.2f}x" if b[key] and a[key] else "" for _, key, _ in COLUMNS),
        )
    console.print(table)
    console.print(
        "wall: seconds of one whole step (rollout + grading + update); rollout: generating and "
        "grading (mars2 overlaps the two); set-up: TRL train()'s time before its first "
        "generation and after its optimizer step (paid once per train() call); tokens: "
        "generated; tok/s: generated tokens / wall; reward: mean over the samples; peak: RSS "
        "high-water mark (MB) of the contender's own process (not the sandbox workers)."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="4 problems x 4, 64 tokens (< 3 min)")
    parser.add_argument("--smoke", action="store_true", help="tiny-random, 2 x 2, 8 tokens (tests)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--contenders",
        default=DEFAULT_CONTENDERS,
        help=f"comma-separated, of {','.join(CONTENDERS)} (default {DEFAULT_CONTENDERS}; -fp32: "
        "training in float32, the learning check's reference)",
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="torch threads per contender (default: torch's)"
    )
    add_precision_option(parser)
    parser.add_argument("--worker", choices=CONTENDERS, help=argparse.SUPPRESS)
    parser.add_argument("--spec", help=argparse.SUPPRESS)
    parser.add_argument("--change", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.worker:
        export_precision(args.precision)
    if args.worker:
        result = worker(args.worker, StepSpec(**json.loads(args.spec)), args.threads, args.change)
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    spec = SMOKE if args.smoke else QUICK if args.quick else FULL
    names = [n for n in args.contenders.split(",") if n]
    unknown = sorted(set(names) - set(CONTENDERS))
    if unknown:
        parser.error(f"unknown contenders {unknown}; choose from {', '.join(CONTENDERS)}")
    load_before = os.getloadavg()[0]
    rows = {}
    with tempfile.TemporaryDirectory(prefix="bench-grpo-") as tmp:
        changes = {name: Path(tmp) / f"{name}.pt" for name in names}
        for name in names:  # with the hypervisor's share of its time: a slow host shows
            before = cpu_times()
            rows[name] = measure(name, spec, args.threads, changes[name])
            rows[name]["steal"] = stolen_share(before, cpu_times())
        effects = learning_effects(spec, changes)
    checks = check_lines(effects, learning_pairs(names))
    for name, effect in effects.items():
        rows[name]["effect"] = effect
    for r in rows.values():
        r["tok_s"] = r["tokens"] / r["wall_s"]
    figures: dict[str, Any] = {}
    if {"mars2", "trl"} <= rows.keys():
        figures["speedup_vs_trl"] = round(rows["trl"]["wall_s"] / rows["mars2"]["wall_s"], 3)
        figures["peak_mem_ratio_vs_trl"] = round(
            rows["mars2"]["peak_rss_mb"] / rows["trl"]["peak_rss_mb"], 3
        )
    figures["peak_mem_basis"] = (
        "quick step: fixed costs (models, imports) dominate both peaks; the full step's ratio "
        "is the one to quote"
        if args.quick or args.smoke
        else "full step"
    )
    figures["learning"] = {
        "effect": effects,
        "checks": checks,
        "learns_less": [line.split(" ")[0] for line in checks if "LEARNS LESS" in line],
    }
    figures.update(rows)
    figures["spec"] = asdict(spec)
    figures["load_avg_1min"] = {"before": load_before, "after": os.getloadavg()[0]}
    if args.json:
        sys.stdout.write(json.dumps(figures) + "\n")
    else:
        print_table(spec, rows, Console())
        print(f"peak memory ratio: {figures['peak_mem_basis']}")
        print("learning check (each side's effect on its own step's samples):")
        print("\n".join(f"  {line}" for line in checks) or "  no reference row run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
