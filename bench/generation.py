"""Generation throughput of the hf backend vs raw batched `model.generate`, same model, same run.

    PYTHONPATH=src python bench/generation.py [--model smollm2-135m] [--quick] [--json]

For each batch size, B chat prompts go through `HFPolicy.generate` (concurrent calls coalesced
into one batch by the queue) and through `model.generate(do_sample=True)` on the same left-padded
prompts. Tokens counted: generated tokens up to and including EOS. `--json` prints
{"tokens_per_s": {B: ours}, "ratio": {B: ours / raw}}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import torch
from rich.console import Console
from rich.table import Table

from mars2.agents.hf import HFPolicy
from mars2.agents.models import load_model
from mars2.config import AgentConfig

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


def run_ours(policy: HFPolicy, batch: int) -> tuple[int, float]:
    async def main() -> list[Any]:
        return await asyncio.gather(*(policy.generate(messages(i), seed=i) for i in range(batch)))

    start = time.perf_counter()
    outs = asyncio.run(main())
    return sum(o.response_len for o in outs), time.perf_counter() - start


def run_raw(model: Any, tokenizer: Any, agent: AgentConfig, batch: int) -> tuple[int, float]:
    return raw_generate(model, tokenizer, agent, [messages(i) for i in range(batch)])


def raw_generate(
    model: Any, tokenizer: Any, agent: AgentConfig, chats: list[list[dict[str, str]]]
) -> tuple[int, float]:
    """(generated tokens up to and including EOS, seconds) of one `model.generate` batch."""
    texts = [
        tokenizer.apply_chat_template(chat, add_generation_prompt=True, tokenize=False)
        for chat in chats
    ]
    tokenizer.padding_side = "left"
    enc = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
    start = time.perf_counter()
    with torch.no_grad():
        out = model.generate(
            **enc,
            do_sample=True,
            temperature=agent.temperature,
            top_p=agent.top_p,
            max_new_tokens=agent.max_new_tokens,
            pad_token_id=tokenizer.pad_token_id,
        )
    elapsed = time.perf_counter() - start
    new = out[:, enc["input_ids"].shape[1] :]
    tokens = 0
    for row in new.tolist():
        ends = [i for i, t in enumerate(row) if t == tokenizer.eos_token_id]
        tokens += ends[0] + 1 if ends else len(row)
    return tokens, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--quick", action="store_true", help="fewer tokens and repeats (< 1 min)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--batch-sizes", default="1,8")
    parser.add_argument("--tokens", type=int, default=128, help="max new tokens per request")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    new_tokens, repeats = (48, 1) if args.quick else (args.tokens, args.repeats)
    agent = AgentConfig(
        model=args.model, max_new_tokens=new_tokens, temperature=0.8, top_p=0.95, max_batch_size=64
    )
    model, tokenizer = load_model(args.model, device="cpu")
    policy = HFPolicy(agent, model, tokenizer)
    run_ours(policy, 1)  # warm up
    run_raw(model, tokenizer, agent, 1)
    results: dict[int, dict[str, float]] = {}
    for batch in (int(b) for b in args.batch_sizes.split(",")):
        ours, raw = [], []
        for _ in range(repeats):  # interleaved, so load changes hit both alike
            ours.append(run_ours(policy, batch))
            raw.append(run_raw(model, tokenizer, agent, batch))
        ours_tps = sum(t for t, _ in ours) / sum(s for _, s in ours)
        raw_tps = sum(t for t, _ in raw) / sum(s for _, s in raw)
        results[batch] = {"ours": ours_tps, "raw": raw_tps, "ratio": ours_tps / raw_tps}
    policy.close()
    if args.json:
        print(
            json.dumps(
                {
                    "model": args.model,
                    "tokens_per_s": {b: r["ours"] for b, r in results.items()},
                    "ratio": {b: r["ratio"] for b, r in results.items()},
                }
            )
        )
        return
    table = Table(
        title=f"{args.model}: generated tokens/s on CPU ({torch.get_num_threads()} threads)"
    )
    for col in ("batch", "hf backend", "model.generate", "ratio"):
        table.add_column(col, justify="right")
    for batch, r in results.items():
        table.add_row(str(batch), f"{r['ours']:.1f}", f"{r['raw']:.1f}", f"{r['ratio']:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
