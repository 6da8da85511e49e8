"""`mars2 problems validate|list|show|calibrate`: check problem files, list the known sets, print
problems, measure base solve rates."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from mars2 import jsonl
from mars2.cli.common import agents_override
from mars2.config import load_config
from mars2.errors import UserError
from mars2.problems import known_sets, load_problems, spec_exists, validate_file
from mars2.problems.sets import FORMATS, no_hidden_tests_note
from mars2.types import Problem, TestCase

if TYPE_CHECKING:
    from mars2.evaluation.calibrate import ProblemRate

SHOWN_TESTS = 5


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("problems", help="Validate problem files, list sets, show problems.")
    inner = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    validate = inner.add_parser("validate", help="Report every bad record of problem files.")
    validate.add_argument("files", nargs="+", metavar="FILE", help="JSONL, mbpp:PATH, ...")
    validate.add_argument(
        "--run", action="store_true", help="Also run each reference solution on its tests."
    )
    validate.add_argument("--config", metavar="FILE", help="YAML config (sandbox limits).")
    validate.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="Config override, e.g. --set sandbox.timeout_s=10 (repeatable).",
    )  # fmt: skip
    validate.set_defaults(func=run_validate)

    listing = inner.add_parser("list", help="Known sets with counts per split and difficulty.")
    listing.set_defaults(func=run_list)

    show = inner.add_parser("show", help="Print the problems of a set, or one of them.")
    show.add_argument("name", metavar="NAME[:ID]", help="A set (or file), optionally :ID.")
    show.add_argument(
        "--json", action="store_true", help="Print JSONL records (schema: docs/problems.md)."
    )
    show.add_argument("--split", help="Only problems of this split.")
    show.add_argument("--limit", type=int, help="At most this many problems.")
    show.set_defaults(func=run_show)

    calibrate = inner.add_parser(
        "calibrate", help="Base solve rate of every problem: n fresh samples each (JSONL + PNG)."
    )
    calibrate.add_argument("name", metavar="SET", help="A problem set or file.")
    calibrate.add_argument(
        "--agents", metavar="M[,M...]",
        help="Models that sample (one agent each, sharing the samples); default: the config's agents.",
    )  # fmt: skip
    calibrate.add_argument(
        "--samples", type=int, default=8, metavar="N", help="Fresh samples per problem (default 8)."
    )
    calibrate.add_argument("--limit", type=int, metavar="K", help="Only K problems.")
    calibrate.add_argument(
        "--shuffle", action="store_true",
        help="Shuffle the set (seeded by the config's seed) before --limit: a random subset.",
    )  # fmt: skip
    calibrate.add_argument(
        "--out", metavar="FILE",
        help="Rates JSONL (default runs/calibrate-<time>/rates.jsonl); the PNG goes next to it.",
    )  # fmt: skip
    calibrate.add_argument("--config", metavar="FILE", help="YAML config (agents, sandbox).")
    calibrate.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="Config override, e.g. --set agents.0.max_new_tokens=256 (repeatable).",
    )  # fmt: skip
    calibrate.set_defaults(func=run_calibrate)

    for p in (validate, listing, show, calibrate):
        p.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")


def run_validate(args: argparse.Namespace) -> int:
    sandbox = load_config(args.config, args.overrides).sandbox if args.run else None
    console = Console()
    total = 0
    for file in args.files:
        issues = validate_file(file, run=args.run, sandbox_config=sandbox)
        total += len(issues)
        for issue in issues:
            console.print(escape(str(issue)), highlight=False, soft_wrap=True)
        verdict = "[green]ok[/]" if not issues else f"[red]{len(issues)} issue(s)[/]"
        Console(stderr=True).print(f"{escape(file)}: {verdict}", highlight=False)
        note = None if issues else no_hidden_tests_note(file, load_problems(file))
        if note is not None:
            Console(stderr=True).print(f"[yellow]warning:[/] {escape(note)}", highlight=False)
    return 2 if total else 0


def _counts(counts: dict[str, int]) -> str:
    return "\n".join(f"{k} {v}" for k, v in sorted(counts.items()))


def run_list(args: argparse.Namespace) -> int:
    table = Table(title="Known problem sets")
    table.add_column("set", no_wrap=True)
    for column in ("problems", "splits", "difficulties", "what"):
        table.add_column(column)
    for s in known_sets():
        table.add_row(
            s.name, str(s.count), _counts(s.splits), _counts(s.difficulties), s.description
        )
    formats = Table("spec", "reads", title="File formats (with ?split=&difficulty=&limit=)")
    formats.add_row("PATH.jsonl", FORMATS["jsonl"][1])
    for kind, (_, what) in FORMATS.items():
        if kind != "jsonl":
            formats.add_row(f"{kind}:PATH", what)
    formats.add_row("", "livecodebench also takes ?since=YYYY-MM-DD&until=...&platform=...")
    formats.add_row(
        "",
        "deepcoder also takes ?public=K&max_tests=K&source=S&exclude_since=...&exclude_until=...",
    )
    console = Console()
    console.print(table)
    console.print(formats)
    return 0


def _select(name: str, split: str | None, limit: int | None) -> list[Problem]:
    """The problems NAME[:ID] refers to: the whole set, or the one with that id."""
    spec, wanted = name, None
    if not spec_exists(name) and ":" in name:
        base, _, ident = name.rpartition(":")
        if spec_exists(base):
            spec, wanted = base, ident
    problems = load_problems(spec, split=split, limit=None if wanted else limit)
    if wanted is None:
        return problems
    chosen = [p for p in problems if p.id == wanted] or [
        p for p in problems if p.id.rsplit("/", 1)[-1] == wanted
    ]
    if not chosen:
        some = ", ".join(p.id for p in problems[:5])
        raise UserError(f"no problem '{wanted}' in {spec} (ids look like: {some}, ...)")
    return chosen


def _test_text(test: TestCase) -> str:
    if test.test is not None:
        return test.test.strip()
    return f"{json.dumps(test.input)[:200]}  ->  {json.dumps(test.output)[:200]}"


def _panel(problem: Problem) -> Panel:
    facts = (
        f"style {problem.test_style}  fn {problem.fn_name or '-'}  split {problem.split or '-'}  "
        f"difficulty {problem.difficulty or '-'}  source {problem.source or '-'}  "
        f"tests {len(problem.public_tests)} public / {len(problem.private_tests)} private"
    )
    parts: list[Text | Syntax | Table] = [Text(facts, style="dim"), Text(problem.statement + "\n")]
    if problem.starter_code:
        parts += [Text("starter code", style="bold"), Syntax(problem.starter_code, "python")]
    tests = Table("public test", show_header=True, expand=True)
    for test in problem.public_tests[:SHOWN_TESTS]:
        tests.add_row(escape(_test_text(test)))
    if len(problem.public_tests) > SHOWN_TESTS:
        tests.add_row(f"... {len(problem.public_tests) - SHOWN_TESTS} more")
    parts.append(tests)
    if problem.solution:
        parts += [Text("reference solution", style="bold"), Syntax(problem.solution, "python")]
    return Panel(Group(*parts), title=escape(problem.id), title_align="left")


def run_show(args: argparse.Namespace) -> int:
    problems = _select(args.name, args.split, args.limit)
    if args.json:
        for problem in problems:
            sys.stdout.write(json.dumps(problem.to_json(), ensure_ascii=False) + "\n")
        return 0
    console = Console()
    for problem in problems:
        console.print(_panel(problem))
    return 0


def _agent_overrides(agents: str | None) -> list[str]:
    return [agents_override(agents, alternate_roles=False)] if agents else []


def run_calibrate(args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from mars2.evaluation.calibrate import calibrate, histogram_png, write_rates

    if args.samples < 1:
        raise UserError(f"--samples must be at least 1, got {args.samples}")
    if args.limit is not None and args.limit < 1:
        raise UserError(f"--limit must be at least 1, got {args.limit}")
    config = load_config(args.config, [*_agent_overrides(args.agents), *args.overrides])
    problems = load_problems(args.name)
    if args.shuffle:
        random.Random(config.seed).shuffle(problems)
    problems = problems[: args.limit] if args.limit else problems
    if not problems:
        raise UserError(f"problem set '{args.name}' is empty")
    out = Path(args.out or f"runs/calibrate-{time.strftime('%Y%m%d-%H%M%S')}/rates.jsonl")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".partial.jsonl")
    console = Console()
    columns = (
        TextColumn("[bold]calibrate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
    )
    done = [0, 0]  # passes, samples
    with open(partial, "w", encoding="utf-8") as sink, Progress(*columns, console=console) as bar:
        task = bar.add_task("problems", total=len(problems), rate="")

        def on_problem(rate: ProblemRate) -> None:
            sink.write(jsonl.line(rate.to_json()))  # whole lines, flushed: a kill cuts one
            sink.flush()
            done[0] += rate.passes
            done[1] += rate.n
            bar.update(task, advance=1, rate=f"pass@1 so far {done[0] / max(done[1], 1):.3f}")

        rates = calibrate(config, problems, args.samples, on_problem)
    write_rates(rates, out)
    partial.unlink(missing_ok=True)
    png = out.with_suffix(".png")
    models = ",".join(sorted({a.model for a in config.agents}))
    histogram_png(rates, png, f"{args.name}: {models}, {args.samples} samples each")
    console.print(
        _rates_table(rates, f"{args.name}: base pass@1 of {len(rates)} problems ({models})")
    )
    console.print(f"rates: {out}\nhistogram: {png}")
    return 0


def _rates_table(rates: list[ProblemRate], title: str) -> Table:
    """How many problems fall in each pass@1 bin, per split and in all, and the mean."""
    from mars2.evaluation.calibrate import bin_labels, histogram

    table = Table(title=title)
    splits = sorted({r.split or "none" for r in rates})
    table.add_column("pass@1")
    for split in splits:
        table.add_column(split, justify="right")
    table.add_column("all", justify="right")
    groups = [[r for r in rates if (r.split or "none") == s] for s in splits] + [rates]
    counts = [histogram(g) for g in groups]
    for i, label in enumerate(bin_labels()):
        table.add_row(label, *(str(c[i]) for c in counts))
    table.add_row(
        "mean", *(f"{sum(r.pass_at_1 for r in g) / len(g):.3f}" if g else "-" for g in groups)
    )
    return table
