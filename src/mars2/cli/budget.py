"""`mars2 budget`: tree search against independent sampling at equal node budgets — pick@B and
pass@B of each, paired over problems, and how the trees spent their nodes (docs/search.md,
"Equal-budget comparison")."""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from mars2.cli.common import add_common, agents_override, flag_overrides, load
from mars2.errors import UserError

console = Console()

RATE_COLUMNS = {
    "refine_pass_after_fail": "P(refine passes | parent failed)",
    "fresh_pass": "P(fresh passes)",
    "refine_minus_fresh": "refine - fresh",
    "copy_rate": "copies parent",
    "below_solved_share": "below a public pass",
}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "budget",
        help="Tree search vs independent sampling at equal node budgets (pick@B, pass@B, "
        "refinement and copy rates), paired over problems.",
    )
    add_common(parser)
    team = parser.add_argument_group("the team (default: the config's agents)")
    team.add_argument("--run", metavar="DIR", help="A training run (or a checkpoint folder).")
    team.add_argument("--step", type=int, help="The run's checkpoint step (default: latest).")
    team.add_argument("--base", action="store_true", help="The run's untrained base agents.")
    team.add_argument(
        "--agents",
        metavar="A[,B...]",
        help="Without --run: models, one agent each (as `mars2 search`); with --run: names of "
        "the run's agents to keep.",
    )
    parser.add_argument("--problems", metavar="NAME", help="Problem set (default eval.problems).")
    parser.add_argument("--limit", type=int, metavar="K", help="Only the first K problems.")
    parser.add_argument(
        "--budgets", type=int, nargs="+", metavar="B", help="Nodes per problem (default 4 8 16)."
    )
    parser.add_argument(
        "--algos", metavar="A[,B...]", help="Search algorithms (default: search.algo)."
    )
    parser.add_argument(
        "--trees",
        nargs="+",
        metavar="FILE",
        help="Instead: the figures of finished trees in files (trees/*.jsonl); grows nothing.",
    )
    parser.add_argument("--json", action="store_true", help="Print the headline JSON object.")
    parser.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    """Flag combinations that make no sense (exit 2 before anything loads)."""
    from mars2.evaluation.budget_run import check_algos, check_budgets

    if args.run is None and (args.step is not None or args.base):
        raise UserError("--step and --base choose a checkpoint of --run DIR; name the run")
    if args.step is not None and args.base:
        raise UserError("--step and --base exclude each other")
    if args.trees and (args.run or args.agents or args.algos or args.budgets):
        raise UserError(
            "--trees reads finished trees; it takes no --run, --agents, --algos or --budgets"
        )
    if args.budgets is not None:
        check_budgets(args.budgets)
    if args.algos is not None:
        check_algos(_names(args.algos))


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def run(args: argparse.Namespace) -> int:
    from mars2.api import budget, run_directory

    _check(args)
    if args.trees:
        from mars2.evaluation.budget_run import compare_tree_files, write

        record = compare_tree_files(args.trees)
        out = Path(args.out) if args.out else None
        if out is not None:
            write(record, out, title="trees")
        return _report(record, args.json, out)
    overrides = flag_overrides(args, {"problems": "eval.problems", "limit": "eval.limit"})
    if args.agents and args.run is None:
        overrides.append(agents_override(args.agents))
    args.overrides = [*overrides, *(args.overrides or [])]
    common: dict[str, Any] = {
        "budgets": args.budgets or (4, 8, 16),
        "algos": _names(args.algos) if args.algos else None,
    }
    with _progress(not args.json) as on_tree:
        if args.run is None:
            config = load(args)
            out = run_directory(config, "budget")
            record = budget(config=config, out=out, on_tree=on_tree, **common)
        else:
            out = Path(args.out or Path(args.run) / "budget")
            record = budget(
                args.run,
                step=args.step,
                base=args.base,
                agents=_names(args.agents) if args.agents else None,
                overrides=args.overrides,
                out=out,
                on_tree=on_tree,
                **common,
            )
    return _report(record, args.json, out)


@contextlib.contextmanager
def _progress(show: bool) -> Iterator[Callable[[Any], None] | None]:
    """The search's progress bar of finished trees (nothing with --json: stdout is the JSON)."""
    if not show:
        yield None
        return
    from mars2.cli.search import _progress as bar

    with bar() as on_tree:
        yield on_tree


def _report(record: dict[str, Any], as_json: bool, out: Path | None) -> int:
    headline = record["headline"]
    if as_json:
        print(json.dumps(headline))
        return 0
    console.print(outcome_table(headline))
    console.print(node_table(headline, record["agent_names"]))
    if record.get("cached"):
        console.print(
            "every arm was read from the evaluation cache (eval.cache=false to recompute)"
        )
    if out is not None:
        console.print(f"budget.json, budget.png: {out}")
    return 0


def _cell(estimate: dict[str, Any], digits: int = 3) -> str:
    if estimate["value"] is None:
        return "—"
    value, lo, hi = estimate["value"], estimate["lo"], estimate["hi"]
    return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _diff(diff: dict[str, Any] | None) -> str:
    if diff is None or diff["diff"] is None:
        return ""
    return f"{diff['diff']:+.3f} [{diff['lo']:+.3f}, {diff['hi']:+.3f}] p={diff['p']:.3f}"


def outcome_table(headline: dict[str, Any]) -> Table:
    """pick@B and pass@B of every arm and budget, and a search's paired difference against
    independent sampling at the same budget (when there is an independent arm)."""
    paired = "independent" in headline["arms"]
    columns = ["arm", "B", "pick@B"] + (["pick - independent"] if paired else [])
    columns += ["pass@B"] + (["pass - independent"] if paired else [])
    caption = "pick@B: the best of B nodes by public score passes; pass@B: one of them passes."
    if paired:
        caption += " Differences: paired bootstrap over problems, sign-flip p."
    table = Table(
        *columns,
        title=f"equal budgets: {headline['problems']} problems, means with 95% CI",
        caption=caption,
    )
    for arm, entries in headline["arms"].items():
        for b, entry in entries.items():
            pick, passed = _cell(entry["pick"]), _cell(entry["pass"])
            if not paired:
                table.add_row(arm, b, pick, passed)
                continue
            pick_diff = _diff(entry.get("pick_vs_independent"))
            table.add_row(arm, b, pick, pick_diff, passed, _diff(entry.get("pass_vs_independent")))
    return table


def _rate(rate: dict[str, Any]) -> str:
    if rate["value"] is None:
        return "—"
    if "count" not in rate:  # a difference of two rates
        return f"{rate['value']:+.2f} [{rate['lo']:+.2f}, {rate['hi']:+.2f}]"
    return f"{_cell(rate, 2)} {rate['count']}/{rate['of']}"


def node_table(headline: dict[str, Any], names: list[str]) -> Table:
    """The node rates of every arm and budget, overall and per agent (with several agents); the
    independent arm at its largest budget only (its smaller budgets are prefixes of it)."""
    table = Table(
        "arm", "B", "agent", *RATE_COLUMNS.values(),
        title="how the nodes were spent (95% CI: cluster bootstrap over problems)",
    )  # fmt: skip
    for arm, entries in headline["arms"].items():
        for b, entry in entries.items():
            if arm == "independent" and int(b) != max(headline["budgets"]):
                continue
            rows = [("all", entry["nodes"])]
            if len(names) > 1:
                rows += list(entry["agents"].items())
            for agent, rates in rows:
                table.add_row(arm, b, agent, *(_rate(rates[name]) for name in RATE_COLUMNS))
    return table
