"""`mars2 check PROBLEMS SOLUTIONS`: grade a JSONL of solutions in the sandbox."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mars2 import jsonl
from mars2.agents.prompts import extract_code
from mars2.cli.common import add_common, flag_overrides, load
from mars2.errors import UserError
from mars2.problems import load_problems
from mars2.sandbox import Sandbox
from mars2.types import ExecResult, Problem


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "check", help="Grade solutions (JSONL) against problems in the sandbox."
    )
    parser.add_argument(
        "problems",
        metavar="PROBLEMS",
        help="Problems: a JSONL file or a set name (both in docs/problems.md).",
    )
    parser.add_argument(
        "solutions",
        metavar="SOLUTIONS",
        help='Solutions JSONL: {"problem_id", "code"} or {"problem_id", "completion"} per line.',
    )
    parser.add_argument("--json", action="store_true", help="One JSON object per solution.")
    parser.add_argument("--workers", type=int, help="Parallel sandbox workers.")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="Wall seconds per test.")
    parser.add_argument(
        "--tests", choices=("public", "private", "all"), default="all", help="Which tests to run."
    )
    add_common(parser, out=False)
    parser.set_defaults(func=run)


def _rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    return jsonl.read(path)


def read_solutions(path: Path, problems: dict[str, Problem]) -> list[dict[str, Any]]:
    """Solution rows with their code; unknown problems and rows without code are user errors."""
    out = []
    for number, record in _rows(path):
        where = f"{path}:{number}"
        if record.get("problem_id") not in problems:
            raise UserError(f"{where}: unknown problem_id {record.get('problem_id')!r}")
        if isinstance(record.get("code"), str):
            code = record["code"]
        elif isinstance(record.get("completion"), str):
            code = extract_code(record["completion"])
        else:
            raise UserError(f"{where}: needs a 'code' or a 'completion' string")
        out.append({**record, "code": code})
    return out


def _summary(result: ExecResult) -> str:
    counts = Counter(t.verdict for t in result.tests)
    return ", ".join(f"{v} {n}" for v, n in counts.most_common())


def run(args: argparse.Namespace) -> int:
    keys = {"workers": "sandbox.workers", "timeout": "sandbox.timeout_s"}
    cpu = {"timeout": "sandbox.cpu_s"}
    args.overrides = [
        *flag_overrides(args, keys),
        *flag_overrides(args, cpu),
        *(args.overrides or []),
    ]
    config = load(args).sandbox
    problems = {p.id: p for p in load_problems(args.problems)}
    solutions = read_solutions(Path(args.solutions), problems)
    with Sandbox(config) as sandbox:
        jobs = [(s["code"], problems[s["problem_id"]], args.tests) for s in solutions]
        results = sandbox.run_many(jobs)
        isolation = sandbox.isolation
    if args.json:
        for solution, result in zip(solutions, results, strict=True):
            record: dict[str, Any] = {"problem_id": solution["problem_id"]}
            if "id" in solution:
                record["id"] = solution["id"]
            print(json.dumps({**record, **result.to_json()}))
        return 0
    table = Table(
        "problem", "id", "passed", "fraction", "verdicts", title=f"isolation: {isolation}"
    )
    for solution, result in zip(solutions, results, strict=True):
        table.add_row(
            escape(str(solution["problem_id"])),
            escape(str(solution.get("id", ""))),
            "[green]yes[/]" if result.passed else "[red]no[/]",
            f"{result.pass_fraction:.2f}",
            _summary(result),
        )
    console = Console()
    console.print(table)
    passed = sum(r.passed for r in results)
    console.print(f"{passed}/{len(results)} solutions pass")
    return 0
