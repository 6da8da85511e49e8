"""One search arm of two `mars2 budget` records, paired problem by problem at each budget: the
arm of B minus the arm of A (e.g. the pooled search against the per-tree one, each grown by its
own command), on `pick` (Pass@1(MCTS)) and `pass` (Pass@N), with the paired-bootstrap interval
and sign-flip p of every budget table. The two records must hold the same problems and the
same independent arm (the second command read it from the evaluation cache), which is checked.

    python scripts/budget_pair.py runs/base/pertree/budget.json runs/base/adaptive/budget.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mars2.evaluation.budget import BOOTSTRAP_SEED, INDEPENDENT, problems_of
from mars2.evaluation.stats import paired_difference


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", type=Path, help="budget.json of the reference command")
    parser.add_argument("b", type=Path, help="budget.json of the other command")
    parser.add_argument("--arm", default="abmcts", help="the search arm of both (default abmcts)")
    args = parser.parse_args()
    a, b = (problems_of(json.loads(path.read_text())) for path in (args.a, args.b))
    if [p.problem_id for p in a] != [p.problem_id for p in b]:
        sys.exit("the two records hold different problems")
    if [p.arms.get(INDEPENDENT) for p in a] != [p.arms.get(INDEPENDENT) for p in b]:
        sys.exit("the two records' independent arms differ: they were not grown alike")
    budgets = sorted(set(a[0].arms[args.arm]) & set(b[0].arms[args.arm]))
    print(f"{args.b.parent.name} - {args.a.parent.name}, arm {args.arm}, {len(a)} problems")
    for budget in budgets:
        for figure in ("pick", "pass"):
            ref = [p.arms[args.arm][budget].value(figure) for p in a]
            new = [p.arms[args.arm][budget].value(figure) for p in b]
            d = paired_difference(ref, new, seed=BOOTSTRAP_SEED)
            print(
                f"B={budget:<3} {figure}: {sum(ref) / len(ref):.3f} -> {sum(new) / len(new):.3f}"
                f"  {d.value:+.3f} [{d.lo:+.3f}, {d.hi:+.3f}] p={d.p_value:.3f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
