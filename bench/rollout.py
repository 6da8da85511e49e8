"""Rollout orchestrator throughput: generated tokens/s with many trees in flight vs raw batched
`model.generate` at the same batch size, in the same run, plus the time split.

    python bench/rollout.py [--model smollm2-135m] [--trees 16] [--budget 2] [--quick] [--json]

Ours: `--trees` problems of bundled:basic-test grown at once by the orchestrator (search
`sampling`, one expansion per tree in flight, so the engine sees batches of up to `--trees`
requests), with the real sandbox. Reference: `model.generate(do_sample=True)` on the same
`--trees` generate prompts as one batch, repeated `--budget` times. Utilization = ours / raw.
`--json` prints {"utilization", "tokens_per_s", "raw_tokens_per_s", "time_split"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import torch
from rich.console import Console
from rich.table import Table

from generation import raw_generate
from mars2.agents.models import load_model
from mars2.agents.prompts import generate_messages
from mars2.config import AgentConfig, SandboxConfig, SearchConfig
from mars2.problems import load_problems
from mars2.rollout import Orchestrator
from mars2.rollout.engines import load_policies
from mars2.sandbox import Sandbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--trees", type=int, default=16)
    parser.add_argument("--budget", type=int, default=2, help="nodes per tree")
    parser.add_argument("--tokens", type=int, default=128, help="max new tokens per node")
    parser.add_argument("--quick", action="store_true", help="tiny-random, 32 tokens (< 1 min)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    model_name, tokens = ("tiny-random", 32) if args.quick else (args.model, args.tokens)
    agent = AgentConfig(
        name="coder", model=model_name, max_new_tokens=tokens, max_batch_size=args.trees
    )
    problems = load_problems("bundled:basic-test", limit=args.trees)
    model, tokenizer = load_model(model_name, device="cpu")
    search = SearchConfig(
        algo="sampling", budget=args.budget, parallel_expansions=1, trees_in_flight=args.trees
    )
    policies = load_policies([agent], models={0: (model, tokenizer)})
    chats = [generate_messages(p) for p in problems]
    raw_generate(model, tokenizer, agent, chats[:2])  # warm up
    with Sandbox(SandboxConfig(workers=2)) as sandbox:
        orchestrator = Orchestrator(policies, [agent], sandbox, search)
        asyncio.run(orchestrator.run(problems[:2], seed=99))  # warm up
        orchestrator.stats = type(orchestrator.stats)()
        engine_before = policies[0].stats()["generate_s"]
        start = time.perf_counter()
        asyncio.run(orchestrator.run(problems, seed=0))
        ours_s = time.perf_counter() - start
    stats = orchestrator.stats
    engine_s = policies[0].stats()["generate_s"] - engine_before  # the engine's busy time
    raw_tokens, raw_s = 0, 0.0
    for _ in range(args.budget):
        n, s = raw_generate(model, tokenizer, agent, chats)
        raw_tokens, raw_s = raw_tokens + n, raw_s + s
    policies[0].close()
    ours_tps, raw_tps = stats.tokens / ours_s, raw_tokens / raw_s
    # Shares of wall time: the engine generating, and the rest (sandbox, search, idle engine).
    split = {
        "generate": engine_s / ours_s,
        "other": 1 - engine_s / ours_s,
        "execute_per_node_s": stats.execute_s / max(stats.nodes, 1),
        "wall_s": ours_s,
    }
    result = {
        "model": model_name,
        "utilization": ours_tps / raw_tps,
        "tokens_per_s": ours_tps,
        "raw_tokens_per_s": raw_tps,
        "time_split": split,
    }
    if args.json:
        print(json.dumps(result))
        return
    table = Table(
        title=f"{model_name}: {args.trees} trees x {args.budget} nodes, {torch.get_num_threads()} "
        "threads"
    )
    for col in ("contender", "tokens", "seconds", "tokens/s", "ratio"):
        table.add_column(col, justify="right")
    table.add_row("orchestrator", str(stats.tokens), f"{ours_s:.1f}", f"{ours_tps:.1f}",
                  f"{ours_tps / raw_tps:.2f}")  # fmt: skip
    table.add_row("model.generate", str(raw_tokens), f"{raw_s:.1f}", f"{raw_tps:.1f}", "1.00")
    Console().print(table)
    Console().print(
        f"time split of {ours_s:.1f} s wall: engine generating {split['generate']:.0%}, "
        f"sandbox/search/waiting {split['other']:.0%}; sandbox time per node "
        f"{split['execute_per_node_s'] * 1000:.0f} ms (public + hidden tests, overlapped)"
    )


if __name__ == "__main__":
    main()
