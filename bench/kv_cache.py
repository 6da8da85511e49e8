"""What the lean decoder's KV cache holds while it grows: `LlamaBatch` (capacity rounded up to
`SLOTS_MULTIPLE` positions, one tensor per layer, replaced a layer at a time) against the
policy it replaced (one `[L, slots, n_kv, T, D]` tensor whose capacity doubles, the old and new
tensors alive together while rows are copied), reimplemented here as the reference.

    PYTHONPATH=src python bench/kv_cache.py [--model smollm2-135m] [--quick] [--smoke] [--json]

Each contender runs in a fresh process: load the model's bfloat16 snapshot, then reserve
`--rows` slots for rows of growing length (256 positions, then 64 more at a time up to
`--positions`: an evaluation whose refinement prompts get longer), and report the cache's final
size and the peak resident memory above the process's size before the first reservation
(`VmHWM` - `VmRSS`, /proc/self/status). Memory only: the timings of these copies are not the
point. Headline (`--json`): `peak_mb` of each and `peak_ratio` (reference / mars2 > 1: less
memory at the peak). `--quick` is the default size (seconds); `--smoke`: tiny-random.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

import torch

from mars2.agents.models import load_model
from mars2.engine.llama import LlamaBatch
from mars2.engine.llama_weights import LlamaWeights


def _status(field: str) -> int:
    """A /proc/self/status memory field in MB."""
    with open("/proc/self/status") as status:
        line = next(x for x in status if x.startswith(field + ":"))
    return int(line.split()[1]) // 1024


class Doubling:
    """The replaced policy: one tensor for all layers, capacity doubled (from 256) when short."""

    def __init__(self, weights: LlamaWeights) -> None:
        self.w = weights
        self.k: torch.Tensor | None = None
        self.v: torch.Tensor | None = None

    def _reserve(self, rows: int, length: int) -> None:
        w = self.w
        have_rows, have_t = (0, 0) if self.k is None else (self.k.shape[1], self.k.shape[3])
        if rows <= have_rows and length <= have_t:
            return
        new_t = max(length, have_t)
        if new_t > have_t:
            new_t = max(new_t, 2 * have_t, 256)
        shape = (len(w.layers), max(rows, have_rows), w.n_kv, new_t, w.head_dim)
        k, v = torch.zeros(shape, dtype=w.dtype), torch.zeros(shape, dtype=w.dtype)
        if self.k is not None and self.v is not None:
            k[:, :have_rows, :, :have_t] = self.k
            v[:, :have_rows, :, :have_t] = self.v
        self.k, self.v = k, v


def one(model_name: str, contender: str, rows: int, positions: int) -> dict[str, Any]:
    model, _ = load_model(model_name, device="cpu", dtype="float32")
    weights = LlamaWeights(model, torch.bfloat16)
    del model
    cache: Any = LlamaBatch(weights) if contender == "mars2" else Doubling(weights)
    start = _status("VmRSS")
    with torch.no_grad():
        for length in range(256, positions + 1, 64):
            cache._reserve(rows, length)
    tensors = [*cache.k, *cache.v] if contender == "mars2" else [cache.k, cache.v]
    size = sum(t.numel() * t.element_size() for t in tensors) / 2**20
    return {"cache_mb": size, "peak_mb": _status("VmHWM") - start}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--rows", type=int, default=32, help="Slots (the engine's batch).")
    parser.add_argument("--positions", type=int, default=640, help="The longest row's need.")
    parser.add_argument("--quick", action="store_true", help="The default sizes (seconds).")
    parser.add_argument("--smoke", action="store_true", help="tiny-random (tests).")
    parser.add_argument("--json", action="store_true", help="Print the headline as JSON.")
    parser.add_argument("--one", choices=("mars2", "doubling"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.smoke:
        args.model = "tiny-random"
    if args.one:
        print(json.dumps(one(args.model, args.one, args.rows, args.positions)))
        return 0
    out: dict[str, Any] = {"model": args.model, "rows": args.rows, "positions": args.positions}
    for contender in ("mars2", "doubling"):
        command = [sys.executable, __file__, "--one", contender, "--model", args.model]
        command += ["--rows", str(args.rows), "--positions", str(args.positions)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        out[contender] = json.loads(done.stdout.strip().splitlines()[-1])
    out["peak_ratio"] = out["doubling"]["peak_mb"] / max(out["mars2"]["peak_mb"], 1)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{args.model}, {args.rows} rows growing to {args.positions} positions, bfloat16")
    print(f"{'contender':28} {'cache MB':>9} {'peak MB':>9}")
    for contender, label in (
        ("mars2", "mars2 (per layer, to need)"),
        ("doubling", "one tensor, doubling"),
    ):
        row = out[contender]
        print(f"{label:28} {row['cache_mb']:>9.0f} {row['peak_mb']:>9.0f}")
    print(f"peak: reference / mars2 = {out['peak_ratio']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
