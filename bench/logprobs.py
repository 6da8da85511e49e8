"""Peak memory and time of chunked `token_logprobs` vs. the plain full-vocabulary log-softmax.

Each variant runs forward + backward in its own process on a small Llama with SmolLM2's 49,152-token
vocabulary; peak memory is the growth of the process's maximum resident set over the first
forward + backward (CPU) or `torch.cuda.max_memory_allocated` after a warm-up (GPU). Headline: `memory_ratio` = chunked / full.

    PYTHONPATH=src python bench/logprobs.py [--quick] [--smoke] [--json] [--device cpu|cuda]

`--smoke`: one sequence of 32 positions (seconds; the figures mean nothing: for tests).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

VOCAB = 49_152  # SmolLM2


def _worker(variant: str, batch: int, length: int, chunk: int, device: str) -> dict[str, float]:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from mars2.engine.logprobs import token_logprobs

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=VOCAB,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=length,
    )
    model = LlamaForCausalLM(config).to(device)
    ids = torch.randint(0, VOCAB, (batch, length), device=device)
    mask = torch.ones_like(ids)

    def run() -> torch.Tensor:
        if variant == "chunked":
            return token_logprobs(model, ids, mask, chunk_size=chunk)
        logits = model(input_ids=ids, attention_mask=mask).logits[:, :-1].float()
        return logits.log_softmax(-1).gather(-1, ids[:, 1:, None]).squeeze(-1)

    if device == "cuda":
        run().sum().backward()  # warm-up (the peak counter is reset below)
        model.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
    else:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.perf_counter()
    logp = run()
    logp.sum().backward()
    if device == "cuda":
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - base
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - base
    return {
        "seconds": time.perf_counter() - start,
        "peak_mb": max(peak, 0) / 2**20,
        "checksum": float(logp.detach().double().sum()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Smaller batch (under a minute).")
    parser.add_argument("--smoke", action="store_true", help="One short sequence (tests).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--chunk", type=int, default=64, help="Positions per chunk.")
    parser.add_argument("--worker", choices=("full", "chunked"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    batch, length = (1, 32) if args.smoke else (2, 256) if args.quick else (4, 512)
    if args.worker:
        print(json.dumps(_worker(args.worker, batch, length, args.chunk, args.device)))
        return 0
    results = {}
    for variant in ("full", "chunked"):
        cmd = [sys.executable, __file__, "--worker", variant, "--device", args.device]
        cmd += ["--chunk", str(args.chunk)] + (["--quick"] if args.quick else [])
        cmd += ["--smoke"] if args.smoke else []
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        results[variant] = json.loads(out.stdout.strip().splitlines()[-1])
    full, chunked = results["full"], results["chunked"]
    headline = {
        "device": args.device,
        "batch": batch,
        "length": length,
        "vocab": VOCAB,
        "chunk": args.chunk,
        "full_logits_mb": batch * (length - 1) * VOCAB * 4 / 2**20,
        "full_peak_mb": full["peak_mb"],
        "chunked_peak_mb": chunked["peak_mb"],
        "memory_ratio": chunked["peak_mb"] / max(full["peak_mb"], 1e-9),
        "time_ratio": chunked["seconds"] / full["seconds"],
        "same_result": abs(full["checksum"] - chunked["checksum"]) < 1e-3 * abs(full["checksum"]),
    }
    if args.json:
        print(json.dumps(headline))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"token log-probs, B={batch} T={length} V={VOCAB}, {args.device}")
    table.add_column("variant")
    table.add_column("peak MiB", justify="right")
    table.add_column("seconds", justify="right")
    table.add_column("vs full", justify="right")
    table.add_row("full log-softmax", f"{full['peak_mb']:.0f}", f"{full['seconds']:.2f}", "1.00")
    table.add_row(
        f"chunked ({args.chunk})",
        f"{chunked['peak_mb']:.0f}",
        f"{chunked['seconds']:.2f}",
        f"mem {headline['memory_ratio']:.2f}, time {headline['time_ratio']:.2f}",
    )
    Console().print(table)
    Console().print(f"one fp32 [B, T, V] logits tensor: {headline['full_logits_mb']:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
