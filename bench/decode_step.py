"""What prepacked weights buy the lean decoder: one decode step and one prefill of `LlamaBatch`
with its projections prepacked for oneDNN (`llama_weights.Projection`, the default in bfloat16 on a CPU)
against plain `x @ w.T` products, on the same frozen snapshot of the model.

    PYTHONPATH=src python bench/decode_step.py [--model smollm2-135m] [--quick] [--smoke] [--json]

Decode: ms per `LlamaBatch.step` at each batch size and context (random prompts of that many
tokens, then steps), the best of `repeats` timings of `steps` steps; prefill: prompt positions
per second of 4 fresh prompts of 300 tokens. The two contenders are timed alternately in this
process with torch's default threads, so drift of the machine hits both alike; the reference is
the plain product (`plain / packed` > 1: prepacking is faster). Headline (`--json`):
`decode_speedup` at batch 16, context 300 (the training rollout's regime) and
`prefill_speedup`. Run it on an idle machine.

Two more contenders, both prepacked, time the decode step's attention: `sdpa` (torch's fused
kernel) against `grouped` (`llama._grouped_attention`: each key/value head's query group in two
products, softmax in float32); the engine uses `grouped` in bfloat16 on CPUs without AMX tiles
(`LlamaWeights.grouped_decode`). Headline `grouped_attention_speedup` (sdpa / grouped, batch 16,
context 300). Prefill attention is the same in all four.

Admission: one decode step of the largest batch (16 rows with `--quick`) that also admits a
prompt of 200 positions in the prompt cache + 78 new ones (an evaluation's refinement, say):
`fused` computes it in the step's own pass (`LlamaBatch.step(tokens, prompts)`, the engine's
way), `apart` in a pass of its own after the step; best of 6 cycles per round, alternating.
Headline `fused_admission_speedup` (apart / fused).

`--quick`: batches 4 and 16 at context 300 (under a minute). `--smoke`: tiny-random, batch 2,
16-token prompts (seconds; the figures mean nothing: for tests). Where prepacking does not apply
(float32, no oneDNN bfloat16 kernels) both columns run the plain product.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import torch

from mars2.agents.models import load_model
from mars2.engine.llama import LlamaBatch
from mars2.engine.llama_weights import LlamaWeights, can_prepack
from mars2.machine import cpu_times, stolen_share

PREFILL_TOKENS = 300


def _prompts(n: int, length: int, vocab: int, seed: int) -> list[list[int]]:
    ids = torch.randint(0, vocab, (n, length), generator=torch.Generator().manual_seed(seed))
    return ids.tolist()  # type: ignore[no-any-return]


def decode_ms(weights: LlamaWeights, vocab: int, rows: int, context: int, steps: int) -> float:
    batch = LlamaBatch(weights, prompt_cache_bytes=0, headroom=steps + 1)
    batch.prefill(_prompts(rows, context, vocab, seed=rows))
    tokens = torch.randint(0, vocab, (rows,), generator=torch.Generator().manual_seed(0))
    batch.step(tokens)  # warm-up
    start = time.perf_counter()
    for _ in range(steps):
        batch.step(tokens)
    return (time.perf_counter() - start) / steps * 1000


def prefill_rate(weights: LlamaWeights, vocab: int, length: int, seed: int) -> float:
    batch = LlamaBatch(weights, prompt_cache_bytes=0)
    prompts = _prompts(4, length, vocab, seed)
    start = time.perf_counter()
    batch.prefill(prompts)
    return 4 * length / (time.perf_counter() - start)


def admission_ms(
    weights: LlamaWeights, vocab: int, rows: int, stem: int, new: int, fused: bool, cycles: int
) -> float:
    """Best ms of one decode step of `rows` rows that also admits a prompt of `stem` cached +
    `new` fresh positions: in the step's own pass (`step(tokens, [prompt])`, the engine's way)
    or in a pass of its own after it (`step(tokens)`, then `prefill([prompt])`). The new row
    leaves after each cycle, so every cycle runs at `rows` rows."""
    batch = LlamaBatch(weights, headroom=128)
    (stem_ids,) = _prompts(1, stem, vocab, seed=7)
    batch.prefill([stem_ids])  # now in the prompt cache
    batch.reset()
    batch.prefill(_prompts(rows, 250 if stem > 100 else stem, vocab, seed=rows))
    tokens = torch.randint(0, vocab, (rows,), generator=torch.Generator().manual_seed(0))
    best = float("inf")
    for c in range(cycles + 1):  # the first cycle compiles the pass's kernels: not counted
        prompt = stem_ids + _prompts(1, new, vocab, seed=1000 + c)[0]
        start = time.perf_counter()
        if fused:
            batch.step(tokens, [prompt])
        else:
            batch.step(tokens)
            batch.prefill([prompt])
        took = (time.perf_counter() - start) * 1000
        best = min(best, took) if c else best
        batch.keep(list(range(1, rows + 1)))  # the oldest row leaves: `rows` rows again
    return best


def measure(
    model_name: str, cases: list[tuple[int, int]], steps: int, repeats: int, length: int
) -> dict[str, Any]:
    model, _ = load_model(model_name, device="cpu", dtype="float32")
    vocab = model.config.vocab_size
    contenders = {
        "plain": LlamaWeights(model, torch.bfloat16, pack=False),
        "packed": LlamaWeights(model, torch.bfloat16),  # as the engine builds it on this CPU
        "sdpa": LlamaWeights(model, torch.bfloat16),
        "grouped": LlamaWeights(model, torch.bfloat16),
    }
    # plain and packed keep the machine's choice of decode attention; these two force one each
    contenders["sdpa"].grouped_decode, contenders["grouped"].grouped_decode = False, True
    rows: list[dict[str, Any]] = []
    with torch.no_grad():
        for rows_n, context in cases:
            best = {name: float("inf") for name in contenders}
            for _ in range(repeats):  # alternate the contenders
                for name, weights in contenders.items():
                    best[name] = min(best[name], decode_ms(weights, vocab, rows_n, context, steps))
            rows.append({"what": f"decode B={rows_n} ctx={context} (ms)", **best})
        rate = {name: 0.0 for name in contenders}
        for r in range(repeats + 1):  # the first round compiles oneDNN's kernels: not counted
            for name, weights in contenders.items():
                got = prefill_rate(weights, vocab, length, seed=100 + r)
                rate[name] = max(rate[name], got) if r else 0.0
        rows.append({"what": f"prefill 4x{length} (pos/s)", **rate})
        admission = {"apart": float("inf"), "fused": float("inf")}
        rows_n = max(b for b, _ in cases)
        stem, new = (200, 78) if length >= 100 else (8, 8)
        for _ in range(repeats):  # alternate the two ways
            for way in admission:
                ms = admission_ms(
                    contenders["packed"], vocab, rows_n, stem, new, way == "fused", cycles=6
                )
                admission[way] = min(admission[way], ms)
    head = next((r for r in rows if r["what"].startswith("decode B=16 ctx=300")), rows[0])
    return {
        "model": model_name,
        "prepacked": can_prepack(torch.zeros(1, dtype=torch.bfloat16)),
        "threads": torch.get_num_threads(),
        "rows": rows,
        "grouped_decode": contenders["packed"].grouped_decode,
        "decode_speedup": head["plain"] / head["packed"],
        "prefill_speedup": rows[-1]["packed"] / rows[-1]["plain"],
        "grouped_attention_speedup": head["sdpa"] / head["grouped"],
        "admission": {"rows": rows_n, "stem": stem, "new": new, **admission},
        "fused_admission_speedup": admission["apart"] / admission["fused"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--quick", action="store_true", help="B=4, 16 at context 300 (<1 min).")
    parser.add_argument("--smoke", action="store_true", help="tiny-random, batch 2 (tests).")
    parser.add_argument("--json", action="store_true", help="Print the headline as JSON.")
    args = parser.parse_args()
    length = PREFILL_TOKENS
    if args.smoke:
        args.model, cases, steps, repeats, length = "tiny-random", [(2, 16)], 2, 1, 16
    elif args.quick:
        cases, steps, repeats = [(4, 300), (16, 300)], 8, 2
    else:
        cases = [(b, c) for c in (100, 300, 700) for b in (1, 4, 16, 32)]
        steps, repeats = 16, 3
    before = cpu_times()
    out = measure(args.model, cases, steps, repeats, length)
    out["steal"] = stolen_share(before, cpu_times())  # the hypervisor's share: a slow host shows
    if args.json:
        print(json.dumps({k: v for k, v in out.items() if k != "rows"}))
        return 0
    attention = "grouped" if out["grouped_decode"] else "sdpa"
    print(
        f"{args.model}, bfloat16, {out['threads']} threads, prepacking "
        f"{'on' if out['prepacked'] else 'unavailable here (plain and packed alike)'}; "
        f"plain and packed decode with this CPU's attention ({attention}); sdpa and grouped: "
        "packed, with that decode attention"
    )
    names = ("plain", "packed", "sdpa", "grouped")
    print(f"{'':32} " + " ".join(f"{n:>9}" for n in names) + f" {'pl/pa':>7} {'sd/gr':>7}")
    for row in out["rows"]:
        cells = " ".join(f"{row[n]:>9.1f}" for n in names)
        ratios = (row["plain"] / row["packed"], row["sdpa"] / row["grouped"])
        if "pos/s" in row["what"]:  # a rate: higher is faster
            ratios = (1 / ratios[0], 1 / ratios[1])
        print(f"{row['what']:32} {cells} {ratios[0]:>6.2f}x {ratios[1]:>6.2f}x")
    adm = out["admission"]
    print(
        f"a step of {adm['rows']} rows admitting a prompt of {adm['stem']} cached + {adm['new']} "
        f"new positions (ms): apart {adm['apart']:.1f}, fused {adm['fused']:.1f}, "
        f"apart / fused {out['fused_admission_speedup']:.2f}x"
    )
    steal = "n/a" if out["steal"] is None else f"{out['steal']:.0%}"
    print(f"share of CPU time stolen by the hypervisor meanwhile: {steal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
