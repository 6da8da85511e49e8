"""Generation throughput of the hf backend vs raw batched `model.generate`, same model, same run.

    PYTHONPATH=src python bench/generation.py [--model smollm2-135m] [--quick] [--smoke] [--json]
        [--engines auto,model,bfloat16,model/transformers,int8] [--batch-sizes 1,16]
        [--tokens 128] [--repeats 3]

For each batch size, B chat prompts go through `HFPolicy.generate` (concurrent calls coalesced
into one batch by the queue) once per engine, named `rollout_dtype[/decoder]`
(`AgentConfig.rollout_dtype`: the model's own fp32 weights, a bfloat16 copy, an int8
dynamic-quantized copy; `AgentConfig.decoder`: `auto` unless named, i.e. the lean `llama`
decoder where the model allows it; `auto` alone is the default the main job uses) and through fp32 `model.generate(do_sample=True)` on the same left-padded prompts, with the
same temperature and top-p, interleaved so that load changes hit all alike. Tokens counted:
generated tokens up to and including EOS. `--quick` (under a minute on 2 cores): the default
engine only (unless `--engines` names others), batch 16, 32 new tokens, one repeat. `--smoke`:
tiny-random, two engines, batch 2, 8 new tokens (seconds; the figures mean nothing: for tests).
Each run is timed in wall seconds and in CPU seconds of this process (all its threads): on a
shared machine the CPU-time ratio (`speedup_vs_generate_cpu_time`, best with `--threads 1`) is
far less disturbed by other jobs than the wall-time one.

llama.cpp rows (`smollm2-135m` only; `--no-llama-cpp` leaves them out): llama.cpp's own
batched decoding through `llama-cpp-python` (bench/_llamacpp.py; an optional dependency,
`CMAKE_ARGS="-DGGML_NATIVE=ON" pip install llama-cpp-python`, the rows are skipped with that
command where it is missing) on the bundled Q4_1 GGUF and on an F16 copy of it, with the same
prompt token ids, token budget, temperature and top-p, the same threads. The column "learner-
exact log-probs" says which rows' log-probs are the learner's own (an engine on the model's
float32 weights); the others are corrected by truncated importance sampling.

The mismatch of each engine: the learner (the fp32 model, `mars2.engine.logprobs.token_logprobs`) rescores
the engine's completions; we report mean |logp_rollout - logp_learner| over response tokens and
the TIS weights min(exp(logp_learner - logp_rollout), C) (mean, max; C = `LossConfig.tis_cap`).

`--json` prints {"speedup_vs_generate": default engine / generate at the largest batch,
"tokens_per_s": {engine: {B: tok/s}}, "ratio": {engine: {B: ours / generate}},
"mismatch": {engine: {...}}, "learner_exact_logprobs", "llama_cpp_skipped", "runs": every (engine, B, tok/s) measured}.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import torch
from rich.console import Console
from rich.table import Table

from mars2.agents.base import encode_chat
from mars2.agents.hf import HFPolicy
from mars2.agents.models import load_model
from mars2.config import AgentConfig, LossConfig
from mars2.engine.logprobs import token_logprobs
from mars2.types import Completion

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _llamacpp

ENGINES = ("auto", "model", "bfloat16", "model/transformers", "bfloat16/transformers", "int8")
PROBLEMS = [
    "Write a function `is_prime(n)` that returns True when n is a prime number.",
    "Write a function `reverse_words(s)` that reverses the order of words in s.",
    "Write a function `fib(n)` that returns the n-th Fibonacci number.",
    "Write a function `count_vowels(s)` returning the number of vowels in s.",
    "Write a function `flatten(xs)` that flattens a nested list of integers.",
    "Write a function `gcd(a, b)` returning the greatest common divisor.",
    "Write a function `is_palindrome(s)` ignoring case and spaces.",
    "Write a function `two_sum(nums, target)` returning indices of two numbers adding to target.",
]


def messages(i: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": "You are an expert Python programmer."},
        {
            "role": "user",
            "content": PROBLEMS[i % len(PROBLEMS)] + " Answer in one ```python block.",
        },
    ]


def engine_agent(agent: AgentConfig, engine: str) -> AgentConfig:
    """`agent` with the engine `rollout_dtype[/decoder]` (int8 alone: transformers decoder)."""
    dtype, _, decoder = engine.partition("/")
    decoder = decoder or ("transformers" if dtype == "int8" else "auto")
    return dataclasses.replace(agent, rollout_dtype=dtype, decoder=decoder)


def run_ours(policy: HFPolicy, batch: int) -> tuple[int, float, float, list[Completion]]:
    """(tokens, wall seconds, process CPU seconds, completions) of one batch on the engine."""

    async def main() -> list[Completion]:
        return await asyncio.gather(*(policy.generate(messages(i), seed=i) for i in range(batch)))

    start, cpu = time.perf_counter(), time.process_time()
    outs = asyncio.run(main())
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return sum(o.response_len for o in outs), wall, cpu, outs


def mismatch(model: Any, completions: list[Completion], agent: AgentConfig) -> dict[str, float]:
    """Rollout vs learner log-probs of `completions` (response tokens only), rescored in one
    right-padded batch."""
    cap = LossConfig().tis_cap
    seqs = [list(c.prompt_ids) + list(c.response_ids) for c in completions]
    width = max(map(len, seqs))
    ids = torch.zeros((len(seqs), width), dtype=torch.long)
    mask = torch.zeros_like(ids)
    positions = torch.zeros((len(seqs), width - 1))
    for i, (seq, c) in enumerate(zip(seqs, completions, strict=True)):
        ids[i, : len(seq)], mask[i, : len(seq)] = torch.tensor(seq), 1
        positions[i, len(c.prompt_ids) - 1 : len(seq) - 1] = 1
    with torch.no_grad():
        learner = token_logprobs(
            model, ids, mask, temperature=agent.temperature, positions=positions
        )  # [B, T-1]
    diffs, weights = [], []
    for i, c in enumerate(completions):
        start = len(c.prompt_ids) - 1
        delta = learner[i, start : start + len(c.logprobs)] - torch.tensor(c.logprobs)
        diffs.append(delta.abs())
        weights.append(delta.exp().clamp(max=cap))
    d, w = torch.cat(diffs), torch.cat(weights)
    return {
        "mean_abs_logp_diff": float(d.mean()),
        "max_abs_logp_diff": float(d.max()),
        "tis_weight_mean": float(w.mean()),
        "tis_weight_max": float(w.max()),
        "tis_cap": cap,
    }


def learner_exact(engine: str) -> str:
    """Whether `engine`'s rollout log-probs are the learner's (what RL's ratios need as they are):
    only an engine on the model's own float32 weights computes them; a bfloat16 or int8 copy and
    llama.cpp (other kernels, and for the bundled GGUF its 4-bit weights) differ by the
    mismatch shown, which truncated importance sampling corrects; `generate` returns none."""
    if engine == "generate":
        return "none"
    if engine.startswith("llama.cpp"):
        return "no"
    return "yes" if engine.split("/")[0] == "model" else "no"


def llama_cpp_rows(
    model_name: str, tokenizer: Any, agent: AgentConfig, batches: list[int]
) -> tuple[dict[str, Any], str | None]:
    """{row name: BatchedLlama} of the bundled GGUF and its F16 copy, or ({}, why not)."""
    from mars2.agents.models import models_dir, smollm2_gguf

    why = _llamacpp.missing()
    if why is None and model_name != "smollm2-135m":
        why = f"llama.cpp rows skipped: only for smollm2-135m (its bundled GGUF), not {model_name}"
    if why is not None:
        return {}, why
    longest = max(len(prompt_ids(tokenizer, agent, i)) for i in range(max(batches)))
    context = longest + agent.max_new_tokens + 1
    threads = torch.get_num_threads()
    rows = _llamacpp.gguf_rows(smollm2_gguf(), models_dir())
    return {
        n: _llamacpp.BatchedLlama(p, max(batches), context, threads) for n, p in rows.items()
    }, None


def prompt_ids(tokenizer: Any, agent: AgentConfig, i: int) -> list[int]:
    """The engine's own prompt of request `i`: the chat template's token ids."""
    return list(encode_chat(tokenizer, messages(i), agent.max_prompt_tokens))


def run_llama_cpp(
    llama: Any, tokenizer: Any, agent: AgentConfig, batch: int
) -> tuple[int, float, float, list[Any]]:
    """(tokens, wall seconds, process CPU seconds, rows) of one llama.cpp batch."""
    prompts = [prompt_ids(tokenizer, agent, i) for i in range(batch)]
    rows, wall, cpu = llama.generate(
        prompts, agent.max_new_tokens, agent.temperature, agent.top_p, 0
    )
    return sum(r.response_len for r in rows), wall, cpu, rows


def run_raw(model: Any, tokenizer: Any, agent: AgentConfig, batch: int) -> tuple[int, float, float]:
    return raw_generate(model, tokenizer, agent, [messages(i) for i in range(batch)])


def raw_generate(
    model: Any, tokenizer: Any, agent: AgentConfig, chats: list[list[dict[str, str]]]
) -> tuple[int, float, float]:
    """(generated tokens up to and including EOS, wall seconds, process CPU seconds) of one
    `model.generate` batch."""
    # the engine's own prompts: the chat template, or a base model's plain-text prompt
    rows = [encode_chat(tokenizer, chat, agent.max_prompt_tokens) for chat in chats]
    tokenizer.padding_side = "left"
    enc = tokenizer.pad({"input_ids": rows}, return_tensors="pt")
    start, cpu = time.perf_counter(), time.process_time()
    with torch.no_grad():
        out = model.generate(
            **enc,
            do_sample=True,
            temperature=agent.temperature,
            top_p=agent.top_p,
            max_new_tokens=agent.max_new_tokens,
            pad_token_id=tokenizer.pad_token_id,
        )
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    new = out[:, enc["input_ids"].shape[1] :]
    tokens = 0
    for row in new.tolist():
        ends = [i for i, t in enumerate(row) if t == tokenizer.eos_token_id]
        tokens += ends[0] + 1 if ends else len(row)
    return tokens, elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument(
        "--quick", action="store_true", help="default engine, batch 16, 32 tokens, one repeat"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny-random, a few tokens (tests)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--engines",
        help="rollout_dtype[/decoder] list (default: " + ",".join(ENGINES) + "; --quick: auto)",
    )
    parser.add_argument("--batch-sizes", default="1,16")
    parser.add_argument(
        "--tokens", type=int, help="max new tokens per request (default 128; --quick 32)"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument(
        "--no-llama-cpp", action="store_true", help="leave out the llama.cpp rows (llama_cpp)"
    )
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    batches = [int(b) for b in args.batch_sizes.split(",")]
    repeats, new_tokens, engines = args.repeats, args.tokens or 128, ENGINES
    if args.quick:
        batches, repeats, new_tokens, engines = [16], 1, args.tokens or 32, ("auto",)
    if args.smoke:
        args.model, batches, repeats, new_tokens = "tiny-random", [2], 1, args.tokens or 8
        engines = ("auto", "model/transformers")
    engines = args.engines.split(",") if args.engines else list(engines)
    agent = AgentConfig(  # no fence stop: every engine samples as model.generate does
        model=args.model,
        max_new_tokens=new_tokens,
        temperature=0.8,
        top_p=0.95,
        max_batch_size=64,
        stop_at_fence=False,
    )
    model, tokenizer = load_model(args.model, device="cpu")
    policies = {e: HFPolicy(engine_agent(agent, e), model, tokenizer) for e in engines}
    for policy in policies.values():  # warm up
        run_ours(policy, 1)
    run_raw(model, tokenizer, agent, 1)
    llamas, skipped = ({}, "llama.cpp rows left out (--no-llama-cpp)")
    if not args.no_llama_cpp:
        llamas, skipped = llama_cpp_rows(args.model, tokenizer, agent, batches)
    for llama in llamas.values():  # warm up
        run_llama_cpp(llama, tokenizer, agent, 1)
    runs: list[dict[str, Any]] = []
    tps: dict[str, dict[int, float]] = {e: {} for e in [*engines, *llamas, "generate"]}
    cpu_tps: dict[str, dict[int, float]] = {e: {} for e in tps}
    completions: dict[str, list[Completion]] = {}
    for batch in batches:
        totals = {e: [0.0, 0.0, 0.0] for e in tps}  # tokens, wall s, CPU s
        for _ in range(repeats):  # interleaved, so load changes hit all alike
            for e in tps:
                if e == "generate":
                    tokens, wall, cpu = run_raw(model, tokenizer, agent, batch)
                elif e in llamas:
                    tokens, wall, cpu, completions[e] = run_llama_cpp(
                        llamas[e], tokenizer, agent, batch
                    )
                else:
                    tokens, wall, cpu, completions[e] = run_ours(policies[e], batch)
                totals[e] = [totals[e][0] + tokens, totals[e][1] + wall, totals[e][2] + cpu]
                runs.append(
                    {"engine": e, "batch": batch, "tokens_per_s": tokens / wall}
                    | {"tokens_per_cpu_s": tokens / cpu}
                )
        for e, (tokens, wall, cpu) in totals.items():
            tps[e][batch], cpu_tps[e][batch] = tokens / wall, tokens / cpu
    for policy in policies.values():
        policy.close()
    for llama in llamas.values():
        llama.close()
    rated = [*engines, *llamas]
    ratio = {e: {b: tps[e][b] / tps["generate"][b] for b in batches} for e in rated}
    cpu_ratio = {e: {b: cpu_tps[e][b] / cpu_tps["generate"][b] for b in batches} for e in rated}
    mismatches = {e: mismatch(model, completions[e], agent) for e in rated}
    default = engines[0]
    if args.json:
        print(
            json.dumps(
                {
                    "model": args.model,
                    "threads": torch.get_num_threads(),
                    "default_engine": f"{policies[default]._rollout_dtype}/"
                    f"{policies[default]._decoder_kind}",
                    "speedup_vs_generate": ratio[default][max(batches)],
                    "speedup_vs_generate_cpu_time": cpu_ratio[default][max(batches)],
                    "tokens_per_s": tps,
                    "ratio": ratio,
                    "tokens_per_cpu_s": cpu_tps,
                    "cpu_ratio": cpu_ratio,
                    "mismatch": mismatches,
                    "learner_exact_logprobs": {e: learner_exact(e) for e in tps},
                    "llama_cpp_skipped": skipped,
                    "runs": runs,
                }
            )
        )
        return
    console = Console(width=max(Console().width, 160))
    table = Table(
        title=f"{args.model}: generated tokens/s on CPU ({torch.get_num_threads()} threads), "
        f"{new_tokens} new tokens, {repeats} repeat(s)"
    )
    columns = [f"B={b}" for b in batches] + [f"x generate B={b}" for b in batches]
    columns += [f"x generate B={b}, CPU time" for b in batches]
    for col in ("engine", *columns, "learner-exact log-probs"):
        table.add_column(col, justify="right")
    for e in tps:
        row = [f"{tps[e][b]:.1f}" for b in batches]
        row += [f"{tps[e][b] / tps['generate'][b]:.2f}" for b in batches]
        row += [f"{cpu_tps[e][b] / cpu_tps['generate'][b]:.2f}" for b in batches]
        table.add_row(e, *row, learner_exact(e))
    console.print(table)
    if skipped:
        console.print(skipped)
    table = Table(title="rollout vs learner log-probs (last batch's completions)")
    for col in ("engine", "mean |dlogp|", "max |dlogp|", "TIS w mean", "TIS w max"):
        table.add_column(col, justify="right")
    for e, m in mismatches.items():
        keys = ("mean_abs_logp_diff", "max_abs_logp_diff", "tis_weight_mean", "tis_weight_max")
        table.add_row(e, *(f"{m[k]:.4f}" for k in keys))
    console.print(table)


if __name__ == "__main__":
    main()
