#!/usr/bin/env bash
# The GPU check of docs/distributed.md, under the name the docs use: bench/gpu_check.py does the
# work (vLLM backend, base vs GRPO vs MARS², local vs Ray; one JSON summary last). --help lists
# its options; exit 0 all passed, 1 a check failed or local and Ray metrics differ, 2 bad arguments.
exec python "$(dirname "$0")/gpu_check.py" "$@"
