"""Where the lean decoder's second core goes: decode-step and prefill time against intra-op threads
and batch size, and two single-threaded decoders stepping in two Python threads against one
decoder of twice the rows on two threads.

    PYTHONPATH=src python bench/decode_threads.py [--model smollm2-135m] [--quick] [--smoke] [--json]

Every figure is the best of `repeats` timings, measured in this process on one frozen snapshot
of the model (`LlamaWeights`, bfloat16 unless `--dtype float32`) with random 300-token prompts.
Decode: ms per step of `LlamaBatch.step` at each batch size with 1 and with 2 threads
(`torch.set_num_threads`); the reference is the 1-thread time, the ratio `speedup_2_threads`
what the second core buys. Prefill: prompt positions per second of 4 prompts. Two engines:
row-steps per second of two 1-thread decoders of B rows each, each in its own Python thread (the
GIL is released inside torch's kernels), against one decoder of 2B rows on 2 threads
(`two_engines_vs_one`). Headline (`--json`): `decode_speedup_2_threads` at batch 32 and
`two_engines_vs_one` at 2 x 16 rows. Run it on an idle machine: another job on the cores turns
the 2-thread timings into waits at every parallel op's barrier.

`--quick`: batches 16 and 32, 4 steps, 2 repeats (under a minute). `--smoke`: tiny-random, batch
2, 16-token prompts, 2 steps (seconds; the figures mean nothing: for tests).
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from typing import Any

import torch

from mars2.agents.models import load_model
from mars2.engine.llama import LlamaBatch
from mars2.engine.llama_weights import LlamaWeights

PROMPT_LENGTH = 300


def _prompts(n: int, length: int, vocab: int, generator: torch.Generator) -> list[list[int]]:
    ids = torch.randint(0, vocab, (n, length), generator=generator)
    return ids.tolist()  # type: ignore[no-any-return]


class Setup:
    def __init__(self, weights: LlamaWeights, vocab: int, length: int) -> None:
        self.weights, self.vocab, self.length = weights, vocab, length
        self.generator = torch.Generator().manual_seed(0)

    def batch(self, rows: int) -> LlamaBatch:
        # room for every step of a measurement (at most 3 x 8 and a warm-up)
        engine = LlamaBatch(self.weights, prompt_cache_bytes=0, headroom=32)
        engine.prefill(_prompts(rows, self.length, self.vocab, self.generator))
        return engine

    def tokens(self, rows: int) -> torch.Tensor:
        return torch.randint(0, self.vocab, (rows,), generator=self.generator)


def _steps(engine: LlamaBatch, tokens: torch.Tensor, n: int) -> None:
    for _ in range(n):
        engine.step(tokens)


def decode_ms(setup: Setup, rows: int, threads: int, steps: int, repeats: int) -> float:
    torch.set_num_threads(threads)
    engine, tokens = setup.batch(rows), setup.tokens(rows)
    _steps(engine, tokens, 1)  # warm-up
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        _steps(engine, tokens, steps)
        best = min(best, (time.perf_counter() - start) / steps)
    return best * 1000


def prefill_rate(setup: Setup, threads: int, repeats: int) -> float:
    torch.set_num_threads(threads)
    best = float("inf")
    for _ in range(repeats):
        prompts = _prompts(4, setup.length, setup.vocab, setup.generator)
        engine = LlamaBatch(setup.weights, prompt_cache_bytes=0)
        start = time.perf_counter()
        engine.prefill(prompts)
        best = min(best, time.perf_counter() - start)
    return 4 * setup.length / best


def two_engines_rate(setup: Setup, rows: int, steps: int, repeats: int) -> float:
    """Row-steps per second of two 1-thread decoders of `rows` rows in two Python threads."""
    torch.set_num_threads(1)
    engines = [setup.batch(rows) for _ in range(2)]
    tokens = setup.tokens(rows)
    for engine in engines:
        _steps(engine, tokens, 1)
    best = float("inf")
    for _ in range(repeats):
        workers = [threading.Thread(target=_steps, args=(e, tokens, steps)) for e in engines]
        start = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        best = min(best, time.perf_counter() - start)
    return 2 * rows * steps / best


def measure(
    args: argparse.Namespace, batches: list[int], steps: int, repeats: int
) -> dict[str, Any]:
    model, _ = load_model(args.model, device="cpu", dtype="float32")
    dtype = torch.bfloat16 if args.dtype == "bfloat16" else torch.float32
    length = 16 if args.smoke else PROMPT_LENGTH
    setup = Setup(LlamaWeights(model, dtype), model.config.vocab_size, length)
    rows: list[dict[str, Any]] = []
    with torch.no_grad():
        for batch in batches:
            one, two = (decode_ms(setup, batch, t, steps, repeats) for t in (1, 2))
            rows.append({"what": f"decode B={batch}", "1 thread": one, "2 threads": two})
        one, two = (prefill_rate(setup, t, repeats) for t in (1, 2))
        rows.append({"what": "prefill pos/s", "1 thread": one, "2 threads": two})
        half = batches[0]
        pair = two_engines_rate(setup, half, steps, repeats)
        single = 2 * half / (decode_ms(setup, 2 * half, 2, steps, repeats) / 1000)
    decode = {r["what"]: r["1 thread"] / r["2 threads"] for r in rows if "decode" in r["what"]}
    headline_batch = 32 if 32 in batches else batches[-1]
    return {
        "model": args.model,
        "dtype": args.dtype,
        "prompt_tokens": length,
        "rows": rows,
        "two_engines_row_steps_per_s": pair,
        "one_engine_row_steps_per_s": single,
        "two_engines_vs_one": pair / single,
        "decode_speedup_2_threads": decode[f"decode B={headline_batch}"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float32"))
    parser.add_argument("--quick", action="store_true", help="Batches 16, 32 (under a minute).")
    parser.add_argument("--smoke", action="store_true", help="tiny-random, batch 2 (tests).")
    parser.add_argument("--json", action="store_true", help="Print the headline as JSON.")
    args = parser.parse_args()
    if args.smoke:
        args.model, batches, steps, repeats = "tiny-random", [2], 2, 1
    elif args.quick:
        batches, steps, repeats = [16, 32], 4, 2
    else:
        batches, steps, repeats = [16, 32, 64], 8, 3
    out = measure(args, batches, steps, repeats)
    if args.json:
        print(json.dumps({k: v for k, v in out.items() if k != "rows"}))
        return 0
    print(f"{args.model}, {args.dtype}, prompts of {out['prompt_tokens']} tokens")
    print(f"{'':18} {'1 thread':>10} {'2 threads':>10} {'2t / 1t':>8}")
    for row in out["rows"]:
        unit = "" if "pos/s" in row["what"] else " ms"
        ratio = (
            row["2 threads"] / row["1 thread"]
            if "pos/s" in row["what"]
            else row["1 thread"] / row["2 threads"]
        )
        print(
            f"{row['what']:18} {row['1 thread']:>7.1f}{unit:3} {row['2 threads']:>7.1f}{unit:3} "
            f"{ratio:>7.2f}x"
        )
    print(
        f"two 1-thread decoders of {batches[0]} rows: {out['two_engines_row_steps_per_s']:.0f} "
        f"row-steps/s; one 2-thread decoder of {2 * batches[0]}: "
        f"{out['one_engine_row_steps_per_s']:.0f} ({out['two_engines_vs_one']:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
