"""The bundled one-line tiers, `core` and the calibrated `zone`: splits (train, iid, test by
family), schema facts, calibration metadata within the zone (every `zone` problem measured with
>= 8 samples), the generator reproduces each file, and (in the sandbox) every reference solution
passes while `return None` fails."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from mars2.config import SandboxConfig
from mars2.problems import load_problems

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "mars2" / "problems" / "data"
BUILD = ROOT / "scripts" / "build_core.py"
LOW, HIGH = 0.05, 0.70
TIERS = ["core", "zone"]


@cache
def load_records(tier: str) -> list[dict[str, Any]]:
    with (DATA / f"{tier}.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.mark.parametrize("tier", TIERS)
def test_sizes_of_the_splits(tier: str) -> None:
    splits = Counter(r["split"] for r in load_records(tier))
    assert set(splits) == {"train", "iid", "test"}
    assert splits["train"] >= 200
    assert splits["iid"] + splits["test"] >= 120
    assert splits["iid"] >= 50 and splits["test"] >= 50


@pytest.mark.parametrize("tier", TIERS)
def test_test_families_are_new_and_iid_families_are_train_families(tier: str) -> None:
    families: dict[str, set[str]] = {"train": set(), "iid": set(), "test": set()}
    for r in load_records(tier):
        families[r["split"]].add(r["metadata"]["family"])
    assert families["test"].isdisjoint(families["train"] | families["iid"])
    assert families["iid"] <= families["train"]
    assert len(families["test"]) >= 10


@pytest.mark.parametrize("tier", TIERS)
def test_records_are_one_line_functions_with_enough_tests(tier: str) -> None:
    records = load_records(tier)
    ids = Counter(r["id"] for r in records)
    assert [i for i, n in ids.items() if n > 1] == []
    for r in records:
        assert r["source"] == f"bundled:{tier}" and r["test_style"] == "functional", r["id"]
        assert len(r["public_tests"]) >= 3 and len(r["private_tests"]) >= 5, r["id"]
        assert r["solution"].count("\n") == 2 and "    return " in r["solution"], r["id"]
        assert f"`{r['fn_name']}(" in r["statement"] and "For example" in r["statement"], r["id"]


@pytest.mark.parametrize("tier", TIERS)
def test_calibrated_problems_lie_in_the_zone(tier: str) -> None:
    records = load_records(tier)
    measured = [r for r in records if "calibration" in r["metadata"]]
    if tier == "zone":
        assert len(measured) == len(records)
    for r in measured:
        c = r["metadata"]["calibration"]
        assert c["n"] >= (8 if tier == "zone" else 1), r["id"]
        assert LOW <= c["passes"] / c["n"] <= HIGH, r["id"]


@pytest.mark.parametrize("tier", TIERS)
def test_sets_resolve_by_name(tier: str) -> None:
    test = load_problems(f"bundled:{tier}-test")
    iid = load_problems(f"bundled:{tier}-iid")
    train = load_problems(f"bundled:{tier}", split="train")
    assert {p.split for p in test} == {"test"} and {p.split for p in iid} == {"iid"}
    assert len(test) + len(iid) + len(train) == len(load_records(tier))


def test_zone_held_out_union_has_200_problems_by_name() -> None:
    # the evaluation set of the pre-registered experiment (issue 28): iid and test together
    held_out = load_problems("bundled:zone?split=iid,test")
    assert {p.split for p in held_out} == {"iid", "test"}
    assert len(held_out) >= 200


def test_zone_problems_of_core_families_equal_the_core_problems() -> None:
    # the zone tier's problems of core families are the core build's problems (same tests)
    core = {r["id"]: r for r in load_records("core")}
    for r in load_records("zone"):
        if r["id"] in core:
            assert r["public_tests"] == core[r["id"]]["public_tests"], r["id"]
            assert r["split"] == core[r["id"]]["split"], r["id"]


# sha256 of zone.jsonl's first 371 lines (the tier as first calibrated, 2026-12-01) and of its
# train records. Later batches are appended after those lines: the first records (and so the first
# N held-out problems an evaluation takes) and the train split never change.
ZONE_FIRST_LINES = 371
ZONE_FIRST_SHA256 = "91be83cdca452b93eb45b06e420619e929aaaf5764ff739ad16874aef897d1ec"
ZONE_TRAIN_SHA256 = "021856698ab0adf379ee92e56f478d92adbbbccb504716f94ab5750f223eba11"


def test_zone_keeps_its_first_records_and_its_train_split() -> None:
    lines = (DATA / "zone.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    first = "".join(lines[:ZONE_FIRST_LINES])
    train = "".join(line for line in lines if json.loads(line)["split"] == "train")
    assert hashlib.sha256(first.encode()).hexdigest() == ZONE_FIRST_SHA256
    assert hashlib.sha256(train.encode()).hexdigest() == ZONE_TRAIN_SHA256


@pytest.mark.parametrize("tier", TIERS)
def test_the_generator_reproduces_the_committed_file(tier: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BUILD), "--tier", tier, "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("tier", TIERS)
def test_references_pass_and_return_none_fails_in_the_sandbox(tier: str) -> None:
    from mars2.sandbox import Sandbox

    problems = load_problems(f"bundled:{tier}")
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
