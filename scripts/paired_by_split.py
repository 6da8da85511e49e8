"""The paired Pass@1 difference B - A of two evaluations per split of their problem set (e.g.
held-out families `test` vs held-out instances `iid` of `bundled:core`), with `mars2 compare`'s
interval and p-value, so a headline over mixed splits can be read per split.

    python scripts/paired_by_split.py results/main-job/step_000000.json results/main-job/step_000008.json
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mars2.evaluation import record
from mars2.problems import load_problems


def only(rec: dict[str, Any], ids: set[str]) -> dict[str, Any]:
    return {**rec, "per_problem": [p for p in rec["per_problem"] if p["problem_id"] in ids]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    args = parser.parse_args()
    a, b = record.read(args.a), record.read(args.b)
    proto = a["protocol"]
    problems = load_problems(proto["problems"], limit=proto["limit"])
    for split in sorted({p.split for p in problems}):
        ids = {p.id for p in problems if p.split == split}
        d = record.compare(only(a, ids), only(b, ids))["pass@1"]
        print(
            f"{split}: {d.n} problems, pass@1 {d.value:+.3f} [{d.lo:+.3f}, {d.hi:+.3f}] p={d.p_value:.3f}"
        )


if __name__ == "__main__":
    main()
