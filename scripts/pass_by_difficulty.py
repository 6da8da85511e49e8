"""Pass@1 and pass@n per difficulty of a `mars2 search --algo sampling` run (docs/problems.md).

    python scripts/pass_by_difficulty.py RUN_DIR [--problems bundled:basic-test]

Reads RUN_DIR/trees/search.jsonl; each tree's nodes are n independent samples of one problem.
Prints a Markdown table: problems, samples, pass@1 (the unbiased c/n estimate) and pass@n.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from mars2.credit.records import read_node_records
from mars2.problems import load_problems
from mars2.rundir import RunDir
from mars2.treesearch.metrics import pass_at_k


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--problems", default="bundled:basic-test")
    args = parser.parse_args()
    difficulty = {p.id: p.difficulty or "?" for p in load_problems(args.problems)}
    trees: dict[str, list[bool]] = defaultdict(list)
    problem_of: dict[str, str] = {}
    for record in read_node_records(RunDir(args.run_dir).search_trees):
        trees[record.tree_id].append(record.passed)
        problem_of[record.tree_id] = record.problem_id
    rows: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for tree_id, passes in trees.items():
        for group in (difficulty[problem_of[tree_id]], "all"):
            rows[group].append((len(passes), sum(passes)))
    n = max(len(p) for p in trees.values())
    print(f"| difficulty | problems | samples each | pass@1 | pass@{n} |")
    print("| --- | --- | --- | --- | --- |")
    for group in sorted(rows, key=lambda g: (g == "all", g)):
        cells = rows[group]
        p1 = sum(pass_at_k(k, c, 1) for k, c in cells) / len(cells)
        pn = sum(c > 0 for _, c in cells) / len(cells)
        print(f"| {group} | {len(cells)} | {n} | {p1:.3f} | {pn:.3f} |")


if __name__ == "__main__":
    main()
