"""Build `src/mars2/problems/data/basic.jsonl` (the `bundled:basic` set) from the families.

Expected outputs are computed by running each reference solution, so the references pass by
construction. The build then checks every problem: ids unique, outputs plain JSON that round-trips,
at least 3 public and 5 private tests with distinct inputs, and trivially wrong answers
(`return None`, returning the first argument, always returning the most common expected output)
each fail at least one public and one private test. Families are wholly train or wholly test.

    python scripts/build_bundled.py           # (re)write the file; identical output every run
    python scripts/build_bundled.py --check   # exit 1 when the committed file is stale
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import logging
import pkgutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import bundled_families
from bundled_families import Family, Spec

OUT = Path(__file__).resolve().parent.parent / "src" / "mars2" / "problems" / "data" / "basic.jsonl"
SOURCE = "bundled:basic"
MIN_PUBLIC, MIN_PRIVATE = 3, 5
log = logging.getLogger("build_bundled")


class BuildError(Exception):
    """A family holds a problem that breaks one of the build's checks."""


def load_families() -> list[Family]:
    """Every `FAMILY` defined in a module of the `bundled_families` package, in module order."""
    families = []
    for info in sorted(pkgutil.iter_modules(bundled_families.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"bundled_families.{info.name}")
        families.extend(v for k, v in vars(module).items() if k.startswith("FAMILY"))
    return families


def is_plain(value: Any) -> bool:
    """JSON values that compare equal after a round trip: no tuples, sets, float noise."""
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):  # only dyadic values that any sane computation gets exactly
        return (value * 1024).is_integer()
    if isinstance(value, list):
        return all(is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain(v) for k, v in value.items())
    return False


def run_reference(spec: Spec) -> list[Any]:
    """Outputs of the reference solution, run in a fresh namespace, on every case."""
    namespace: dict[str, Any] = {}
    exec(compile(spec.solution, f"<{spec.id}>", "exec"), namespace)
    fn = namespace[spec.fn_name]
    outputs = []
    for args in spec.cases:
        fresh = copy.deepcopy(list(args))
        out = fn(*fresh)
        if fresh != list(args):
            raise BuildError(f"{spec.id}: the reference mutates its arguments {args!r}")
        if not is_plain(out) or json.loads(json.dumps(out)) != out:
            raise BuildError(f"{spec.id}: output {out!r} for {args!r} is not plain JSON")
        outputs.append(out)
    return outputs


def check_spec(spec: Spec, outputs: list[Any]) -> None:
    """The per-problem checks described in the module docstring."""
    n_private = len(spec.cases) - spec.n_public
    if spec.n_public < MIN_PUBLIC or n_private < MIN_PRIVATE:
        raise BuildError(f"{spec.id}: {spec.n_public} public / {n_private} private tests")
    if len({json.dumps(list(c)) for c in spec.cases}) != len(spec.cases):
        raise BuildError(f"{spec.id}: repeated test input")
    if spec.difficulty not in ("easy", "medium"):
        raise BuildError(f"{spec.id}: difficulty {spec.difficulty!r}")
    if f"`{spec.fn_name}(" not in spec.statement:
        raise BuildError(f"{spec.id}: the statement does not name `{spec.fn_name}(...)`")
    most_common = Counter(json.dumps(o) for o in outputs).most_common(1)[0][0]
    wrong = {
        "return None": [None] * len(outputs),
        "return the first argument": [c[0] for c in spec.cases],
        "return the most common output": [json.loads(most_common)] * len(outputs),
    }
    for name, answers in wrong.items():
        # plain == as a grader comparing parsed JSON would (True == 1, 2 == 2.0)
        fails = [a != o for a, o in zip(answers, outputs, strict=True)]
        if not any(fails[: spec.n_public]) or not any(fails[spec.n_public :]):
            raise BuildError(f"{spec.id}: `{name}` passes all public or all private tests")


def problem_record(
    spec: Spec, family: str, split: str, outputs: list[Any], source: str
) -> dict[str, Any]:
    """The JSONL record of one problem (docs/problems.md): the first `n_public` cases are
    public, the rest hidden; the starter code is the solution's signature line."""
    tests = [{"input": list(c), "output": o} for c, o in zip(spec.cases, outputs, strict=True)]
    return {
        "id": spec.id,
        "statement": spec.statement,
        "starter_code": spec.solution.splitlines()[0] + "\n",
        "test_style": "functional",
        "fn_name": spec.fn_name,
        "public_tests": tests[: spec.n_public],
        "private_tests": tests[spec.n_public :],
        "solution": spec.solution,
        "difficulty": spec.difficulty,
        "source": source,
        "split": split,
        "metadata": {"family": family},
    }


def record(spec: Spec, family: Family, outputs: list[Any]) -> dict[str, Any]:
    return problem_record(spec, family.name, family.split, outputs, SOURCE)


def build(families: list[Family]) -> list[dict[str, Any]]:
    """All records, checked, in family order."""
    names = Counter(f.name for f in families)
    if dup := [n for n, k in names.items() if k > 1]:
        raise BuildError(f"family names used twice: {dup}")
    records = []
    for family in families:
        if family.split not in ("train", "test") or not family.specs:
            raise BuildError(f"family {family.name}: split {family.split!r}, no problems?")
        for spec in family.specs:
            outputs = run_reference(spec)
            check_spec(spec, outputs)
            records.append(record(spec, family, outputs))
    ids = Counter(r["id"] for r in records)
    if dup := [i for i, k in ids.items() if k > 1]:
        raise BuildError(f"ids used twice: {dup}")
    return records


def render(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def summary(records: list[dict[str, Any]]) -> str:
    counts = Counter((r["split"], r["difficulty"]) for r in records)
    families = {
        s: len({r["metadata"]["family"] for r in records if r["split"] == s})
        for s in ("train", "test")
    }
    parts = [f"{s}/{d}: {n}" for (s, d), n in sorted(counts.items())]
    return f"{len(records)} problems ({', '.join(parts)}); families: {families}"


def write_or_check(out: Path, text: str, check: bool, script: str) -> int:
    """Write `text` to `out`, or with `check` only compare (exit 1 when `out` is stale)."""
    if check:
        current = out.read_text(encoding="utf-8") if out.exists() else ""
        if current != text:
            log.error("%s is out of date: run python %s", out, script)
            return 1
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    log.info("wrote %s", out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the JSONL")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        records = build(load_families())
    except BuildError as err:
        log.error("build failed: %s", err)
        return 1
    text = render(records)
    log.info("%s", summary(records))
    return write_or_check(args.out, text, args.check, "scripts/build_bundled.py")


if __name__ == "__main__":
    sys.exit(main())
