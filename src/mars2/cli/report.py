"""`mars2 report RUN_DIR [RUN_DIR...] --out DIR`: an HTML report (and tree figures) of runs."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mars2.errors import UserError
from mars2.report import write_report
from mars2.report.page import fmt
from mars2.report.stats import comparison


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "report",
        help="Render run directories as a self-contained HTML report (curves, agents, trees).",
        description="Writes DIR/index.html (open it in any browser, no network needed), the "
        "learning-curve PNGs and, with --tree, an SVG and a PNG of that problem's search trees.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR", help="Run directories to report.")
    parser.add_argument("--out", required=True, metavar="DIR", help="Where to write the report.")
    parser.add_argument(
        "--tree", metavar="PROBLEM_ID", help="Also write static SVG/PNG figures of this tree."
    )
    parser.add_argument(
        "--color-by",
        choices=("score", "agent"),
        default="score",
        help="Node colours of the --tree figures (default: score).",
    )
    parser.add_argument(
        "--max-trees",
        type=int,
        default=200,
        metavar="N",
        help="Embed at most the last N trees of each run in the page (default 200).",
    )
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.max_trees < 1:
        raise UserError(f"--max-trees must be >= 1, got {args.max_trees}")
    report = write_report(
        args.runs, args.out, tree=args.tree, color_by=args.color_by, max_trees=args.max_trees
    )
    console = Console()
    columns, rows = comparison(report.runs)
    # One column per run (narrow terminals fit a few runs better than many metrics).
    table = Table("", *(escape(str(row["run"])) for row in rows), title="runs")
    for column in columns:
        if column in ("algo", "steps", "trees") or "pass" in column:
            table.add_row(escape(column), *(escape(fmt(row.get(column))) for row in rows))
    console.print(table)
    for file in (*report.charts, *report.trees):
        console.print(f"wrote {escape(str(file))}", highlight=False, soft_wrap=True)
    console.print(f"[bold]report:[/] {escape(str(report.index))}", highlight=False, soft_wrap=True)
    return 0
