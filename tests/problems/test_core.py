"""The bundled `core` tier: splits (train, iid, test by family), schema facts, calibration
metadata within the zone, the generator reproduces the file, and (in the sandbox) every reference
solution passes while `return None` fails."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from mars2.config import SandboxConfig
from mars2.problems import load_problems

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "mars2" / "problems" / "data" / "core.jsonl"
BUILD = ROOT / "scripts" / "build_core.py"
LOW, HIGH = 0.05, 0.70


def load_records() -> list[dict[str, Any]]:
    with CORE.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


RECORDS = load_records()


def test_sizes_of_the_splits() -> None:
    splits = Counter(r["split"] for r in RECORDS)
    assert set(splits) == {"train", "iid", "test"}
    assert splits["train"] >= 200
    assert splits["iid"] + splits["test"] >= 120
    assert splits["iid"] >= 50 and splits["test"] >= 50


def test_test_families_are_new_and_iid_families_are_train_families() -> None:
    families: dict[str, set[str]] = {"train": set(), "iid": set(), "test": set()}
    for r in RECORDS:
        families[r["split"]].add(r["metadata"]["family"])
    assert families["test"].isdisjoint(families["train"] | families["iid"])
    assert families["iid"] <= families["train"]
    assert len(families["test"]) >= 10


def test_records_are_one_line_functions_with_enough_tests() -> None:
    ids = Counter(r["id"] for r in RECORDS)
    assert [i for i, n in ids.items() if n > 1] == []
    for r in RECORDS:
        assert r["source"] == "bundled:core" and r["test_style"] == "functional", r["id"]
        assert len(r["public_tests"]) >= 3 and len(r["private_tests"]) >= 5, r["id"]
        assert r["solution"].count("\n") == 2 and "    return " in r["solution"], r["id"]
        assert f"`{r['fn_name']}(" in r["statement"] and "For example" in r["statement"], r["id"]


def test_calibrated_problems_lie_in_the_zone() -> None:
    measured = [r for r in RECORDS if "calibration" in r["metadata"]]
    for r in measured:
        c = r["metadata"]["calibration"]
        assert c["n"] > 0 and LOW <= c["passes"] / c["n"] <= HIGH, r["id"]


def test_sets_resolve_by_name() -> None:
    test = load_problems("bundled:core-test")
    iid = load_problems("bundled:core-iid")
    train = load_problems("bundled:core", split="train")
    assert {p.split for p in test} == {"test"} and {p.split for p in iid} == {"iid"}
    assert len(test) + len(iid) + len(train) == len(RECORDS)


def test_the_generator_reproduces_the_committed_file() -> None:
    done = subprocess.run(
        [sys.executable, str(BUILD), "--check"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_references_pass_and_return_none_fails_in_the_sandbox() -> None:
    from mars2.sandbox import Sandbox

    problems = load_problems("bundled:core")
    stub = "{}    return None\n"
    jobs = [(p.solution or "", p, "all") for p in problems]
    jobs += [(stub.format(p.starter_code), p, "all") for p in problems]
    with Sandbox(SandboxConfig()) as sandbox:
        results = sandbox.run_many(jobs)
    references, stubs = results[: len(problems)], results[len(problems) :]
    assert sum(r.n_infra for r in results) == 0, "the sandbox itself failed"
    bad = {
        p.id: r.feedback[:300] for p, r in zip(problems, references, strict=True) if not r.passed
    }
    assert bad == {}
    for p, r in zip(problems, stubs, strict=True):
        n_public = len(p.public_tests)
        assert not all(t.passed for t in r.tests[:n_public]), f"{p.id}: None passes public"
        assert not all(t.passed for t in r.tests[n_public:]), f"{p.id}: None passes private"
