"""Rollout orchestrator throughput with and without shared prefills vs raw batched
`model.generate` at the same batch size, in the same run, plus prefill tokens per node and the
time split.

    python bench/rollout.py [--model smollm2-135m] [--trees 16] [--budget 4] [--algo sampling]
        [--tokens 128] [--quick] [--smoke] [--json]

Ours: `--trees` problems of bundled:basic-test grown at once by the orchestrator (search
`--algo`, default `sampling`: `--budget` fresh attempts per problem, i.e. a GRPO group; one
expansion per tree in flight, so the engine sees batches of up to `--trees` requests), with the
real sandbox; once with the engine's shared prefills (the default: attempts at a prompt seen
before reuse its keys and values) and once without (`prompt_cache_bytes=0`: every request
prefills its prompt, as the engine did before). Reference: `model.generate(do_sample=True)`
on the same `--trees` generate prompts as one batch (no fence stop, so all `--tokens`, which is
why its tokens/s is a rate to compare and its seconds are not). Utilization =
ours (shared) / raw. Prefill tokens per node: prompt positions the engine computed, per node.
`--quick`: tiny-random, 32 tokens (< 1 min). `--smoke`: tiny-random, 2 trees of 2 nodes, 8
tokens (seconds; the figures mean nothing: for tests).
`--json` prints {"utilization", "tokens_per_s", "raw_tokens_per_s", "time_split",
"rollout_s": {"shared", "unshared"}, "prefill_tokens_per_node": {...},
"prompt_tokens_per_node", "speedup_shared_prefill"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
from typing import Any

import torch
from rich.console import Console
from rich.table import Table

from generation import raw_generate
from mars2.agents.hf import HFPolicy
from mars2.agents.models import load_model
from mars2.agents.prompts import generate_messages
from mars2.config import AgentConfig, SandboxConfig, SearchConfig
from mars2.engine.prompt_cache import PROMPT_CACHE_BYTES
from mars2.problems import load_problems
from mars2.rollout import Orchestrator
from mars2.rollout.engines import load_policies
from mars2.sandbox import Sandbox


def grow(
    orchestrator: Orchestrator, policy: HFPolicy, problems: list[Any], cache_bytes: int
) -> dict[str, float]:
    """One rollout of `problems` with the engine's prompt cache set to `cache_bytes`."""
    policy.prompt_cache_bytes = cache_bytes
    policy.sync_weights()  # a fresh decoder (and an empty prompt cache)
    orchestrator.stats = type(orchestrator.stats)()
    before = policy.stats()
    start, cpu = time.perf_counter(), time.process_time()
    asyncio.run(orchestrator.run(problems, seed=0))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    after, stats = policy.stats(), orchestrator.stats
    return {
        "wall_s": wall,
        "cpu_s": cpu,  # this process: the engine thread, the event loop (not the sandbox)
        "nodes": stats.nodes,
        "tokens": stats.tokens,
        "execute_s": stats.execute_s,
        "generate_s": after["generate_s"] - before["generate_s"],  # the engine's busy time
        "prompt_tokens": after["prompt_tokens"] - before["prompt_tokens"],
        "prefill_tokens": after["prefill_tokens"] - before["prefill_tokens"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--trees", type=int, default=16)
    parser.add_argument("--budget", type=int, default=4, help="nodes per tree")
    parser.add_argument("--algo", default="sampling", help="search algorithm (sampling, abmcts)")
    parser.add_argument("--tokens", type=int, default=128, help="max new tokens per node")
    parser.add_argument("--quick", action="store_true", help="tiny-random, 32 tokens (< 1 min)")
    parser.add_argument("--smoke", action="store_true", help="tiny-random, 2 x 2 nodes (tests)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    model_name, tokens, trees, budget = args.model, args.tokens, args.trees, args.budget
    if args.quick:
        model_name, tokens = "tiny-random", 32
    if args.smoke:
        model_name, tokens, trees, budget = "tiny-random", 8, 2, 2
    agent = AgentConfig(name="coder", model=model_name, max_new_tokens=tokens, max_batch_size=trees)
    problems = load_problems("bundled:basic-test", limit=trees)
    model, tokenizer = load_model(model_name, device="cpu")
    search = SearchConfig(
        algo=args.algo, budget=budget, parallel_expansions=1, trees_in_flight=trees
    )
    (policy,) = load_policies([agent], models={0: (model, tokenizer)})
    assert isinstance(policy, HFPolicy)
    chats = [generate_messages(p) for p in problems]
    raw_generate(model, tokenizer, agent, chats[:2])  # warm up
    runs: dict[str, dict[str, float]] = {}
    with Sandbox(SandboxConfig(workers=2)) as sandbox:
        orchestrator = Orchestrator([policy], [agent], sandbox, search)
        asyncio.run(orchestrator.run(problems[:2], seed=99))  # warm up
        runs["unshared"] = grow(orchestrator, policy, problems, 0)
        runs["shared"] = grow(orchestrator, policy, problems, PROMPT_CACHE_BYTES)
    raw_tokens, raw_s, _ = raw_generate(model, tokenizer, agent, chats)
    policy.close()
    ours = runs["shared"]
    ours_tps, raw_tps = ours["tokens"] / ours["wall_s"], raw_tokens / raw_s
    # Shares of wall time: the engine generating, and the rest (sandbox, search, idle engine).
    split = {
        "generate": ours["generate_s"] / ours["wall_s"],
        "other": 1 - ours["generate_s"] / ours["wall_s"],
        "execute_per_node_s": ours["execute_s"] / max(ours["nodes"], 1),
        "wall_s": ours["wall_s"],
    }
    per_node = {k: r["prefill_tokens"] / max(r["nodes"], 1) for k, r in runs.items()}
    result = {
        "model": model_name,
        "algo": args.algo,
        "trees": trees,
        "budget": budget,
        "utilization": ours_tps / raw_tps,
        "tokens_per_s": ours_tps,
        "raw_tokens_per_s": raw_tps,
        "time_split": split,
        "rollout_s": {k: r["wall_s"] for k, r in runs.items()},
        "rollout_cpu_s": {k: r["cpu_s"] for k, r in runs.items()},
        "prefill_tokens_per_node": per_node,
        "prompt_tokens_per_node": ours["prompt_tokens"] / max(ours["nodes"], 1),
        "speedup_shared_prefill": runs["unshared"]["wall_s"] / ours["wall_s"],
        "load_avg_1min": os.getloadavg()[0],
    }
    if args.json:
        print(json.dumps(result))
        return
    table = Table(
        title=f"{model_name}: {trees} trees x {budget} nodes ({args.algo}), {tokens} new tokens, "
        f"{torch.get_num_threads()} threads, load avg {result['load_avg_1min']:.1f}"
    )
    columns = ("contender", "tokens", "wall s", "CPU s", "tokens/s", "ratio", "prefill tok/node")
    for col in columns:
        table.add_column(col, justify="right")
    for name in ("shared", "unshared"):
        r = runs[name]
        table.add_row(
            f"orchestrator, {name} prefills",
            str(int(r["tokens"])),
            f"{r['wall_s']:.1f}",
            f"{r['cpu_s']:.1f}",
            f"{r['tokens'] / r['wall_s']:.1f}",
            f"{r['tokens'] / r['wall_s'] / raw_tps:.2f}",
            f"{per_node[name]:.1f}",
        )
    table.add_row(
        f"model.generate, batch {trees}",
        str(raw_tokens),
        f"{raw_s:.1f}",
        "",
        f"{raw_tps:.1f}",
        "1.00",
        f"{result['prompt_tokens_per_node']:.1f}",
    )
    Console().print(table)
    Console().print(
        f"prompt tokens per node {result['prompt_tokens_per_node']:.1f}; shared prefills: "
        f"rollout {result['speedup_shared_prefill']:.2f}x faster (wall). Time split of "
        f"{ours['wall_s']:.1f} s wall: engine generating {split['generate']:.0%}, "
        f"sandbox/search/waiting {split['other']:.0%}; sandbox time per node "
        f"{split['execute_per_node_s'] * 1000:.0f} ms (public + hidden tests, overlapped)"
    )


if __name__ == "__main__":
    main()
