"""Programming problems: the JSONL schema (docs/problems.md), loaders by name, validation.

`load_problems("bundled:basic")`, `load_problems("humaneval")`, `load_problems("mbpp:PATH")`,
`load_problems("livecodebench:PATH?since=2024-08-01")`, or a path to our JSONL; see docs/problems.md.
"""

from __future__ import annotations

from mars2.problems.schema import ProblemIssue, parse_record
from mars2.problems.sets import (
    ProblemSet,
    describe,
    known_sets,
    load_problems,
    parse_spec,
    spec_exists,
)
from mars2.problems.validate import run_solutions, validate_file
from mars2.types import Problem, TestCase

__all__ = [
    "Problem",
    "ProblemIssue",
    "ProblemSet",
    "TestCase",
    "describe",
    "known_sets",
    "load_problems",
    "parse_record",
    "parse_spec",
    "run_solutions",
    "spec_exists",
    "validate_file",
]
