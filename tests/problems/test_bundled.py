"""The bundled `basic` set: schema facts, split by family, and (in the sandbox) every reference
solution passes its tests while `return None` fails them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from mars2.config import SandboxConfig
from mars2.sandbox import Sandbox
from mars2.types import Problem, TestCase

ROOT = Path(__file__).resolve().parents[2]
BASIC = ROOT / "src" / "mars2" / "problems" / "data" / "basic.jsonl"
BUILD = ROOT / "scripts" / "build_bundled.py"
FIELDS = {
    "id",
    "statement",
    "starter_code",
    "test_style",
    "fn_name",
    "public_tests",
    "private_tests",
    "solution",
    "difficulty",
    "source",
    "split",
    "metadata",
}


def load_records() -> list[dict[str, Any]]:
    with BASIC.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


RECORDS = load_records()


def to_problem(record: dict[str, Any]) -> Problem:
    def tests(key: str) -> tuple[TestCase, ...]:
        return tuple(TestCase(input=t["input"], output=t["output"]) for t in record[key])

    return Problem(
        id=record["id"],
        statement=record["statement"],
        test_style=record["test_style"],
        public_tests=tests("public_tests"),
        private_tests=tests("private_tests"),
        starter_code=record["starter_code"],
        fn_name=record["fn_name"],
        solution=record["solution"],
        difficulty=record["difficulty"],
        source=record["source"],
        split=record["split"],
        metadata=record["metadata"],
    )


def test_counts_per_split_and_difficulty() -> None:
    splits = Counter(r["split"] for r in RECORDS)
    difficulty = Counter(r["difficulty"] for r in RECORDS)
    assert len(RECORDS) >= 300
    assert set(splits) == {"train", "test"} and set(difficulty) == {"easy", "medium"}
    assert 60 <= splits["test"] <= 80, "bundled:basic-test is the fixed 60-80 problem eval subset"
    assert splits["train"] >= 200
    assert 0.6 <= difficulty["easy"] / len(RECORDS) <= 0.8, "mostly easy, for a 135M model"


def test_every_record_has_the_schema_fields() -> None:
    for r in RECORDS:
        assert set(r) == FIELDS, r["id"]
        assert r["source"] == "bundled:basic" and r["test_style"] == "functional", r["id"]
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r["id"]), r["id"]
        assert r["metadata"]["family"], r["id"]
        assert len(r["public_tests"]) >= 3 and len(r["private_tests"]) >= 5, r["id"]
        for t in r["public_tests"] + r["private_tests"]:
            assert set(t) == {"input", "output"} and isinstance(t["input"], list), r["id"]


def test_starter_code_is_the_signature_of_the_solution() -> None:
    for r in RECORDS:
        assert r["starter_code"] == r["solution"].splitlines()[0] + "\n", r["id"]
        assert r["starter_code"].startswith(f"def {r['fn_name']}("), r["id"]
        assert f"`{r['fn_name']}(" in r["statement"], r["id"]


def test_ids_are_unique() -> None:
    ids = Counter(r["id"] for r in RECORDS)
    assert [i for i, n in ids.items() if n > 1] == []


def test_train_and_test_are_split_by_family() -> None:
    families: dict[str, set[str]] = {"train": set(), "test": set()}
    for r in RECORDS:
        families[r["split"]].add(r["metadata"]["family"])
    assert families["train"] and families["test"]
    assert families["train"].isdisjoint(families["test"])
    assert len(families["test"]) >= 10, "the eval subset should span many kinds of task"


def test_no_problem_repeats_a_test_input() -> None:
    for r in RECORDS:
        inputs = [json.dumps(t["input"]) for t in r["public_tests"] + r["private_tests"]]
        assert len(set(inputs)) == len(inputs), r["id"]


def test_the_generator_reproduces_the_committed_file() -> None:
    done = subprocess.run(
        [sys.executable, str(BUILD), "--check"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_references_pass_and_return_none_fails_in_the_sandbox() -> None:
    problems = [to_problem(r) for r in RECORDS]
    stub = "{}    return None\n"
    jobs = [(p.solution or "", p, "all") for p in problems]
    jobs += [(stub.format(p.starter_code), p, "all") for p in problems]
    with Sandbox(SandboxConfig()) as sandbox:
        results = sandbox.run_many(jobs)
    references, stubs = results[: len(problems)], results[len(problems) :]
    infra = sum(r.n_infra for r in results)
    assert infra == 0, f"{infra} infra verdicts: the sandbox itself failed"
    bad = {
        p.id: r.feedback[:300] for p, r in zip(problems, references, strict=True) if not r.passed
    }
    assert bad == {}, f"reference solutions that fail their own tests: {bad}"
    for p, r in zip(problems, stubs, strict=True):
        n_public = len(p.public_tests)
        assert len(r.tests) == n_public + len(p.private_tests), p.id
        # Problem.tests("all") is public then private: the stub must fail some of each
        assert not all(t.passed for t in r.tests[:n_public]), f"{p.id}: None passes public"
        assert not all(t.passed for t in r.tests[n_public:]), f"{p.id}: None passes private"
