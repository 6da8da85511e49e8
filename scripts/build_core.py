"""Build the bundled one-line tiers from `core_families/`: `core.jsonl` (`bundled:core`) and
`zone.jsonl` (`bundled:zone`, the calibrated tier).

Problems are one-line functions (see `core_families/__init__.py`). Each statement gets one worked
example, taken from the first public test. Expected outputs come from running the reference, and
every problem passes the checks of `build_bundled.py` (unique ids, plain JSON outputs, >= 3 public
and >= 5 private tests with distinct inputs, trivially wrong answers fail). Splits: `test` for the
test families; for each train family a seeded draw of a quarter of its problems is `iid`, the rest
`train`; every problem of an `iid` family (more held-out instances of the train family of that
name, added after its draw) is `iid`.

Modules are read in name order, except the later batches of APPENDED, read last: their problems
come after every earlier one in the file, so adding a batch leaves the earlier records (and the
first N problems of a split that an evaluation takes) where they were.

Two tiers, two calibration files (records of `mars2 problems calibrate`; several files
concatenated are fine: the counts of one id add up):

- `core` (frozen: the tier of the recorded main job and experiments): the families of the modules
  not named `extra*`, filtered by `scripts/core_calibration.jsonl`: a measured problem is kept
  only when its pass@1 lies in [LOW, HIGH]; an unmeasured one is kept.
- `zone` (calibrated): the families of every module, filtered by `scripts/zone_calibration.jsonl`:
  a problem is kept only when it was measured with at least ZONE_MIN_SAMPLES samples and its
  pass@1 lies in [LOW, HIGH]. Kept problems carry their counts in `metadata.calibration`.

In both, an `iid` problem whose family kept no `train` problem is dropped too.

    python scripts/build_core.py [--tier zone]              # (re)write the tier; same output every run
    python scripts/build_core.py [--tier zone] --check      # exit 1 when the committed file is stale
    python scripts/build_core.py --tier zone --pool FILE    # every candidate, unfiltered (to calibrate)
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import pkgutil
import random
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import core_families
from build_bundled import (
    BuildError,
    check_spec,
    problem_record,
    render,
    run_reference,
    write_or_check,
)
from bundled_families import Spec
from core_families import CoreFamily

from mars2 import jsonl

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "mars2" / "problems" / "data"
LOW, HIGH = 0.05, 0.70
ZONE_MIN_SAMPLES = 8
EXTRA = "extra"  # extra_*, extra2_*, extra3_*: modules of the zone tier only
APPENDED = ("extra3_",)  # later batches of the zone tier, in order: read after all other modules


@dataclass(frozen=True)
class Tier:
    name: str
    extra: bool  # the `extra*` modules' families too
    calibration: Path
    measured_only: bool  # drop unmeasured problems (and those with < ZONE_MIN_SAMPLES samples)

    @property
    def out(self) -> Path:
        return DATA / f"{self.name}.jsonl"

    @property
    def source(self) -> str:
        return f"bundled:{self.name}"


TIERS = {
    "core": Tier("core", False, ROOT / "scripts" / "core_calibration.jsonl", False),
    "zone": Tier("zone", True, ROOT / "scripts" / "zone_calibration.jsonl", True),
}
IID_SHARE = 0.25
log = logging.getLogger("build_core")


def load_families(extra: bool = True) -> list[CoreFamily]:
    """Every `FAMILY*` of the modules of `core_families` (without the `extra*` ones unless
    `extra`), in module order."""
    families = []
    for info in sorted(pkgutil.iter_modules(core_families.__path__), key=module_order):
        if info.name.startswith(EXTRA) and not extra:
            continue
        module = importlib.import_module(f"core_families.{info.name}")
        families.extend(v for k, v in vars(module).items() if k.startswith("FAMILY"))
    return families


def module_order(info: pkgutil.ModuleInfo) -> tuple[int, str]:
    """Name order, with the batches of APPENDED after every other module, batch by batch."""
    batch = next((i for i, p in enumerate(APPENDED, 1) if info.name.startswith(p)), 0)
    return batch, info.name


def with_example(spec: Spec, outputs: list[Any]) -> Spec:
    """The statement plus "For example, `f(args)` returns `out`." from the first case."""
    args = ", ".join(repr(a) for a in spec.cases[0])
    example = f" For example, `{spec.fn_name}({args})` returns `{outputs[0]!r}`."
    return replace(spec, statement=spec.statement + example)


def ordered(spec: Spec, outputs: list[Any]) -> tuple[Spec, list[Any]]:
    """The cases reordered so that the checks of `check_spec` pass when some order makes them
    pass: first the cases interleaved by output (the public tests then show different answers),
    then seeded shuffles. The order is the same on every build."""
    by_output: dict[str, list[int]] = {}
    for i, out in enumerate(outputs):
        by_output.setdefault(json.dumps(out), []).append(i)
    groups = list(by_output.values())
    first = [g[j] for j in range(max(map(len, groups))) for g in groups if j < len(g)]
    rng = random.Random(spec.id)
    order = first
    for _ in range(200):
        candidate = replace(spec, cases=tuple(spec.cases[i] for i in order))
        answers = [outputs[i] for i in order]
        try:
            check_spec(candidate, answers)
        except BuildError:
            order = rng.sample(range(len(outputs)), len(outputs))
            continue
        return candidate, answers
    check_spec(spec, outputs)  # raises the error of the written order
    return spec, outputs


def splits_of(family: CoreFamily) -> list[str]:
    """`test` for a test family and `iid` for an iid family; for a train family a seeded quarter
    (at least one) `iid`, the rest `train`."""
    if family.pool in ("test", "iid"):
        return [family.pool] * len(family.specs)
    n_iid = max(1, round(IID_SHARE * len(family.specs)))
    chosen = set(random.Random(f"core:{family.name}").sample(range(len(family.specs)), n_iid))
    return ["iid" if i in chosen else "train" for i in range(len(family.specs))]


def read_calibration(path: Path) -> dict[str, tuple[int, int]]:
    """id -> (samples, passes), summed over every record of that id."""
    counts: dict[str, tuple[int, int]] = {}
    if not path.exists():
        return counts
    for _, row in jsonl.read(path):
        n, passes = counts.get(row["id"], (0, 0))
        counts[row["id"]] = (n + int(row["n"]), passes + int(row["passes"]))
    return counts


def build(families: list[CoreFamily], source: str = "bundled:core") -> list[dict[str, Any]]:
    """Every candidate record, checked, in family order (no calibration filter)."""
    names = Counter(f.name for f in families if f.pool != "iid")
    if dup := [n for n, k in names.items() if k > 1]:
        raise BuildError(f"family names used twice: {dup}")
    train = {f.name for f in families if f.pool == "train"}
    if orphans := [f.name for f in families if f.pool == "iid" and f.name not in train]:
        raise BuildError(f"iid families without a train family of the same name: {orphans}")
    records = []
    for family in families:
        if family.pool not in ("train", "test", "iid") or not family.specs:
            raise BuildError(f"family {family.name}: pool {family.pool!r}, no problems?")
        for spec, split in zip(family.specs, splits_of(family), strict=True):
            outputs = run_reference(spec)
            spec, outputs = ordered(spec, outputs)
            spec = with_example(spec, outputs)
            check_spec(spec, outputs)
            records.append(problem_record(spec, family.name, split, outputs, source))
    ids = Counter(r["id"] for r in records)
    if dup := [i for i, k in ids.items() if k > 1]:
        raise BuildError(f"ids used twice: {dup}")
    return records


def calibrated(
    records: list[dict[str, Any]], counts: dict[str, tuple[int, int]], measured_only: bool = False
) -> list[dict[str, Any]]:
    """Drop measured problems outside [LOW, HIGH] (and, when `measured_only`, those measured
    with fewer than ZONE_MIN_SAMPLES samples or not at all); note the counts of those kept."""
    kept = []
    for r in records:
        if r["id"] not in counts:
            if not measured_only:
                kept.append(r)
            continue
        n, passes = counts[r["id"]]
        if measured_only and n < ZONE_MIN_SAMPLES:
            continue
        if n and LOW <= passes / n <= HIGH:
            kept.append(
                {**r, "metadata": {**r["metadata"], "calibration": {"n": n, "passes": passes}}}
            )
    return kept


def with_train_siblings(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop the `iid` problems whose family kept no `train` problem: the iid split is new
    instances of families the model trains on."""
    trained = {r["metadata"]["family"] for r in records if r["split"] == "train"}
    return [r for r in records if r["split"] != "iid" or r["metadata"]["family"] in trained]


def summary(records: list[dict[str, Any]]) -> str:
    counts = Counter(r["split"] for r in records)
    measured = Counter(r["split"] for r in records if "calibration" in r["metadata"])
    families = {
        s: len({r["metadata"]["family"] for r in records if r["split"] == s}) for s in counts
    }
    parts = [
        f"{s}: {n} ({measured[s]} calibrated, {families[s]} families)"
        for s, n in sorted(counts.items())
    ]
    return f"{len(records)} problems; " + "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=sorted(TIERS), default="core", help="which tier")
    parser.add_argument("--check", action="store_true", help="fail if the file is out of date")
    parser.add_argument("--out", type=Path, help="where to write the JSONL (default: the tier's)")
    parser.add_argument("--pool", type=Path, help="write every candidate, unfiltered, here")
    parser.add_argument("--calibration", type=Path, help="measured rates (default: the tier's)")
    args = parser.parse_args(argv)
    tier = TIERS[args.tier]
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        records = build(load_families(tier.extra), tier.source)
    except BuildError as err:
        log.error("build failed: %s", err)
        return 1
    if args.pool:
        args.pool.write_text(render(records), encoding="utf-8")
        log.info("candidates: %s\nwrote %s", summary(records), args.pool)
        return 0
    counts = read_calibration(args.calibration or tier.calibration)
    kept = with_train_siblings(calibrated(records, counts, tier.measured_only))
    log.info("candidates: %s", summary(records))
    log.info("kept: %s", summary(kept))
    text = render(kept)
    return write_or_check(args.out or tier.out, text, args.check, "scripts/build_core.py")


if __name__ == "__main__":
    sys.exit(main())
