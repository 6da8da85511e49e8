#!/usr/bin/env bash
# GPU check of the Ray + vLLM path (docs/distributed.md), for a machine with >= 1 CUDA GPU and
# `pip install -e '.[ray,vllm]'`. Trains configs/smoke.yaml with vLLM engines twice: in one
# process, and on a local Ray cluster with each agent's learner and engine sharing a quarter of
# the GPU each; prints both runs' metrics side by side and fails if the Ray run did not finish.
# vLLM sampling on GPU is not bitwise reproducible, so the numbers are compared loosely (printed,
# not asserted). Usage: bench/gpu_smoke.sh [OUT_DIR]   (about 5 minutes on one GPU)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-$(mktemp -d)}"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
python -c "import ray, vllm; print('ray', ray.__version__, 'vllm', vllm.__version__)"

VLLM=(agents.0.backend=vllm agents.1.backend=vllm agents.0.vllm_gpu_memory=0.2
      agents.1.vllm_gpu_memory=0.2 output.tensorboard=false)
python -m mars2 train --config configs/smoke.yaml --out "$OUT/local" "${VLLM[@]}"
python -m mars2 train --config configs/smoke.yaml --out "$OUT/ray" "${VLLM[@]}" \
    dist.backend=ray dist.gpus_per_learner=0.25 dist.gpus_per_engine=0.25 dist.sandbox_actors=1

python - "$OUT" <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
rows = {name: [json.loads(l) for l in (out / name / "metrics.jsonl").read_text().splitlines()]
        for name in ("local", "ray")}
assert [r["step"] for r in rows["ray"]] == [0, 1, 2], "the Ray run did not finish"
for a, b in zip(rows["local"], rows["ray"]):
    for key in sorted(a):
        if not key.startswith("time/") and key in b:
            print(f"step {a['step']}  {key:32s} local {a[key]:<12.6g} ray {b[key]:<12.6g}")
print("gpu_smoke: ok;", out)
PY
