"""`mars2 compare A B`: the paired difference B - A of every metric of two evaluations over the
problems both evaluated, with its paired-bootstrap 95% interval and a sign-flip p-value."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from mars2.errors import UserError

if TYPE_CHECKING:
    from mars2.evaluation.stats import Difference

console = Console()


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "compare",
        help="Paired comparison of two evaluations (eval.json files or run directories).",
        description="B - A for each metric over the shared problems: mean difference, paired "
        "bootstrap 95% interval and sign-flip permutation p-value. Exit 2 when the two "
        "evaluations' protocols differ (the message names the fields).",
    )
    parser.add_argument("a", metavar="A", help="eval.json, or a run directory (its latest eval).")
    parser.add_argument("b", metavar="B", help="eval.json, or a run directory (its latest eval).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object instead.")
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mars2.evaluation import record

    paths = [record.find(args.a), record.find(args.b)]
    if paths[0].resolve() == paths[1].resolve():
        console.print(f"[yellow]A and B are the same file: {paths[0]}[/]")
    first, second = (record.read(p) for p in paths)
    try:
        diffs = record.compare(first, second)
    except UserError as err:
        raise UserError(f"{paths[0]} vs {paths[1]}: {err}") from None
    if args.json:
        out = {
            "a": str(paths[0]),
            "b": str(paths[1]),
            "metrics": {
                name: {
                    "a": first["metrics"][name]["value"],
                    "b": second["metrics"][name]["value"],
                    **d.to_json(),
                }
                for name, d in diffs.items()
            },
        }
        print(json.dumps(out))
        return 0
    shared = next(iter(diffs.values())).n if diffs else 0
    title = f"A = {paths[0]}\nB = {paths[1]}\n{shared} shared problems"
    caption = "95% CI: paired bootstrap over problems; p: sign-flip permutation test"
    table = paired_table(first, second, diffs, title=title, caption=caption)
    console.print(table)
    return 0


def paired_table(
    first: dict[str, Any],
    second: dict[str, Any],
    diffs: dict[str, Difference],
    title: str,
    caption: str,
) -> Table:
    """Each metric of two eval.json records (A, B), B - A, its 95% CI and p-value."""
    table = Table("metric", "A", "B", "B - A", "95% CI", "p", title=title, caption=caption)
    for name, d in diffs.items():
        table.add_row(
            name,
            f"{first['metrics'][name]['value']:.3f}",
            f"{second['metrics'][name]['value']:.3f}",
            f"{d.value:+.3f}",
            f"[{d.lo:+.3f}, {d.hi:+.3f}]",
            f"{d.p_value:.3f}",
        )
    return table
