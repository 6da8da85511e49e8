"""The equal-budget table of several checkpoints (docs/results.md, "The tree against
resampling"): for each checkpoint folder of a results folder (e.g. results/budget/grpo/), its
`mars2 budget` records, `pertree.json` (the per-tree AB-MCTS-A, `search.pooling=none`) and
`adaptive.json` (the adaptive search), grown on the same problems, usually with one shared
independent arm (the second command read it from the evaluation cache; where it was grown
again, each search is compared with its own record's and the table says so): per budget the
independent arm's pick (Pass@1(MCTS) rule: the best of B by public score passes) and pass
(Pass@N), each search's difference against it, and adaptive minus per-tree, paired over
problems (paired bootstrap, sign-flip p, the seeds of every budget table); then how the trees
spent their nodes at the largest budget. `--plot FILE`: the pick rate against nodes, one panel
per checkpoint, one line per arm.

    python scripts/budget_table.py results/budget --plot results/budget/budget.png
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mars2.evaluation.budget import BOOTSTRAP_SEED, INDEPENDENT, ProblemArms, problems_of
from mars2.evaluation.stats import Difference, paired_difference

SEARCHES = {"pertree": "per-tree", "adaptive": "adaptive"}  # file stem -> column name
ARM = "abmcts"
COLORS = {"independent": "C0", "per-tree": "C1", "adaptive": "C2"}  # one colour per arm
ORDER = ("base", "grpo", "rs2", "mars2")  # the ladder's arms first, in its order
RATES = {  # node rate -> column
    "refine_pass_after_fail": "P(repair passes)",
    "fresh_pass": "P(fresh passes)",
    "copy_rate": "copies",
    "below_solved_share": "below a public pass",
}


class Checkpoint:
    """One checkpoint's records: search name -> (the budget.json object, its problems)."""

    def __init__(self, folder: Path) -> None:
        self.name = folder.name
        self.records: dict[str, dict[str, Any]] = {}
        self.problems: dict[str, list[ProblemArms]] = {}
        for stem in SEARCHES:
            path = folder / f"{stem}.json"
            if path.is_file():
                self.records[stem] = json.loads(path.read_text(encoding="utf-8"))
                self.problems[stem] = problems_of(self.records[stem])
        if not self.records:
            raise ValueError(f"{folder}: neither {' nor '.join(f'{s}.json' for s in SEARCHES)}")
        self._check_shared()

    def _check_shared(self) -> None:
        """The records must hold the same problems. Their independent arms are the same when
        the second command read the first one's from the cache; regrown (another commit or
        cache), sampling may differ on some problems (batched generation is not bitwise
        reproducible across batch compositions): `regrown` counts those problems, and each
        search is then compared with its own record's independent arm."""
        first, *others = self.problems.values()
        self.regrown = 0
        for other in others:
            if [p.problem_id for p in other] != [p.problem_id for p in first]:
                raise ValueError(f"{self.name}: the records hold different problems")
            pairs = zip(other, first, strict=True)
            self.regrown += sum(
                a.arms.get(INDEPENDENT) != b.arms.get(INDEPENDENT) for a, b in pairs
            )

    @property
    def budgets(self) -> list[int]:
        return sorted({b for ps in self.problems.values() for b in ps[0].arms[INDEPENDENT]})

    def values(self, arm: str, budget: int, figure: str, stem: str | None = None) -> list[float]:
        """Per-problem `pick` or `pass` of an arm (`independent`, or ARM of the `stem` search)."""
        problems = self.problems[stem or next(iter(self.problems))]
        return [p.arms[arm][budget].value(figure) for p in problems]

    def pick_curve(self, arm: str, stem: str | None = None) -> list[float]:
        """The mean pick rate of an arm at each budget."""
        return [sum(v) / len(v) for v in (self.values(arm, b, "pick", stem) for b in self.budgets)]


def difference(a: list[float], b: list[float]) -> Difference:
    return paired_difference(a, b, seed=BOOTSTRAP_SEED)


def cell(d: Difference) -> str:
    return f"{d.value:+.3f} [{d.lo:+.3f}, {d.hi:+.3f}]"


def budget_rows(ck: Checkpoint) -> list[str]:
    """One markdown row per budget of a checkpoint."""
    rows = []
    for b in ck.budgets:
        ind = {f: ck.values(INDEPENDENT, b, f) for f in ("pick", "pass")}
        mean = {f: sum(v) / len(v) for f, v in ind.items()}
        row = [ck.name, str(b), f"{mean['pick']:.3f} / {mean['pass']:.3f}"]
        for stem in SEARCHES:
            if stem not in ck.problems:
                row.append("not measured")
                continue
            diffs = [
                difference(ck.values(INDEPENDENT, b, f, stem), ck.values(ARM, b, f, stem))
                for f in ("pick", "pass")
            ]
            row.append(" / ".join(cell(d) for d in diffs))
        if len(ck.problems) == len(SEARCHES):
            old, new = (ck.values(ARM, b, "pick", stem) for stem in SEARCHES)
            row.append(cell(difference(old, new)))
        else:
            row.append("")
        rows.append("| " + " | ".join(row) + " |")
    return rows


def budget_table(checkpoints: list[Checkpoint]) -> list[str]:
    head = ["checkpoint", "B", "independent pick / pass"]
    head += [f"{name} − independent (pick / pass)" for name in SEARCHES.values()]
    head.append("adaptive − per-tree (pick)")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for ck in checkpoints:
        lines += budget_rows(ck)
    for ck in checkpoints:
        if ck.regrown:
            first = next(iter(ck.problems))
            lines.append(
                f"\n{ck.name}: the records' independent arms were grown apart and differ on "
                f"{ck.regrown} of {len(ck.problems[first])} problems; each search is compared "
                f"with its own record's (the column shows {first}.json's)."
            )
    return lines


def rate_cell(rate: dict[str, Any]) -> str:
    if rate["value"] is None:
        return f"— (0 of {rate['of']})"
    return f"{rate['value']:.3f} ({rate['count']}/{rate['of']})"


def rates_table(checkpoints: list[Checkpoint]) -> list[str]:
    """How each search spent its nodes at the checkpoint's largest budget (all agents)."""
    head = ["checkpoint", "search", "B", *RATES.values()]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for ck in checkpoints:
        b = ck.budgets[-1]
        for stem, record in ck.records.items():
            nodes = record["headline"]["arms"][ARM][str(b)]["nodes"]
            cells = [rate_cell(nodes[key]) for key in RATES]
            lines.append("| " + " | ".join([ck.name, SEARCHES[stem], str(b), *cells]) + " |")
    return lines


def plot(checkpoints: list[Checkpoint], path: Path) -> None:
    """The pick rate against nodes per problem: one panel per checkpoint, a line per arm."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(3.2 * len(checkpoints), 3.4), dpi=100)
    axes_list = figure.subplots(1, len(checkpoints), sharey=True, squeeze=False)[0]
    for axes, ck in zip(axes_list, checkpoints, strict=True):
        lines = {"independent": ck.pick_curve(INDEPENDENT)}
        lines.update({SEARCHES[s]: ck.pick_curve(ARM, s) for s in ck.problems})
        for label, ys in lines.items():
            axes.plot(ck.budgets, ys, marker="o", label=label, color=COLORS[label])
        axes.set_xscale("log", base=2)
        axes.set_xticks(ck.budgets, [str(b) for b in ck.budgets])
        axes.set_title(ck.name, fontsize=10)
        axes.set_xlabel("nodes per problem")
    axes_list[0].set_ylabel("pick rate (Pass@1(MCTS) rule)")
    for axes in axes_list:
        axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder of checkpoint folders")
    parser.add_argument("--plot", type=Path, help="write the figure here (PNG)")
    args = parser.parse_args(argv)
    rank = {name: i for i, name in enumerate(ORDER)}
    folders = sorted(
        (p for p in args.folder.iterdir() if p.is_dir()),
        key=lambda p: (rank.get(p.name, len(ORDER)), p.name),
    )
    try:
        checkpoints = [Checkpoint(f) for f in folders]
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not checkpoints:
        print(f"error: {args.folder}: no checkpoint folders", file=sys.stderr)
        return 2
    print("\n".join(budget_table(checkpoints)) + "\n")
    print("\n".join(rates_table(checkpoints)))
    if args.plot:
        plot(checkpoints, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
