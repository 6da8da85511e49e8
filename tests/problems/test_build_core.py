"""The calibration filter of `scripts/build_core.py`, by hand: the `core` tier keeps unmeasured
problems and drops measured ones outside [0.05, 0.70]; the `zone` tier keeps only problems
measured with at least 8 samples inside it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from script_modules import script_module

INTS = [4, 0, -3, 7, 10, 1, -8, 25, 100]


@pytest.fixture(scope="module")
def build_core() -> Iterator[ModuleType]:
    yield from script_module("build_core")


def records(*ids: str) -> list[dict[str, object]]:
    return [{"id": i, "metadata": {"family": "f"}} for i in ids]


COUNTS = {
    "in": (8, 2),  # 0.25
    "never": (8, 0),
    "easy": (8, 6),  # 0.75 > 0.70
    "low-edge": (20, 1),  # 0.05: inside
    "high-edge": (10, 7),  # 0.70: inside
    "few": (4, 2),  # 0.5 from 4 samples only
}
ALL = records("in", "never", "easy", "low-edge", "high-edge", "few", "unmeasured")


def kept(build_core: ModuleType, measured_only: bool) -> dict[str, object]:
    out = build_core.calibrated(ALL, COUNTS, measured_only)
    return {r["id"]: r["metadata"].get("calibration") for r in out}


def test_core_keeps_unmeasured_and_drops_measured_outside(build_core: ModuleType) -> None:
    assert kept(build_core, measured_only=False) == {
        "in": {"n": 8, "passes": 2},
        "low-edge": {"n": 20, "passes": 1},
        "high-edge": {"n": 10, "passes": 7},
        "few": {"n": 4, "passes": 2},
        "unmeasured": None,
    }


def test_zone_keeps_only_problems_measured_enough_inside(build_core: ModuleType) -> None:
    assert kept(build_core, measured_only=True) == {
        "in": {"n": 8, "passes": 2},
        "low-edge": {"n": 20, "passes": 1},
        "high-edge": {"n": 10, "passes": 7},
    }


def test_counts_of_one_id_add_up(build_core: ModuleType, tmp_path: Path) -> None:
    file = tmp_path / "rates.jsonl"
    file.write_text(
        '{"id": "a", "n": 4, "passes": 1}\n\n{"id": "a", "n": 4, "passes": 0}\n'
        '{"id": "b", "n": 8, "passes": 8}\n'
    )
    assert build_core.read_calibration(file) == {"a": (8, 1), "b": (8, 8)}


def test_iid_problems_need_a_train_sibling(build_core: ModuleType) -> None:
    rows = [
        {"id": "a", "split": "train", "metadata": {"family": "f"}},
        {"id": "b", "split": "iid", "metadata": {"family": "f"}},
        {"id": "c", "split": "iid", "metadata": {"family": "g"}},  # g kept no train problem
        {"id": "d", "split": "test", "metadata": {"family": "h"}},
    ]
    assert [r["id"] for r in build_core.with_train_siblings(rows)] == ["a", "b", "d"]


def test_an_iid_family_adds_held_out_instances_to_a_train_family(build_core: ModuleType) -> None:
    from core_families import CoreFamily

    train = CoreFamily("f", "train")
    train.sweep("add_{kw}", "x", "x + {k}", "the integer `x` plus {k}", [1, 2, 3, 4], INTS)
    more = CoreFamily("f", "iid")
    more.sweep("add_{kw}", "x", "x + {k}", "the integer `x` plus {k}", [5, 6], INTS)
    alone = build_core.build([train])
    both = build_core.build([train, more])
    assert both[: len(alone)] == alone  # the train family's draw is unchanged
    assert [(r["id"], r["split"]) for r in both[len(alone) :]] == [
        ("add-five", "iid"),
        ("add-six", "iid"),
    ]
    with pytest.raises(build_core.BuildError, match="without a train family"):
        build_core.build([more])


def test_later_batches_are_read_after_every_other_module(build_core: ModuleType) -> None:
    import pkgutil

    names = ["train_a", "extra3_test_x", "extra_b", "extra2_c", "test_d", "extra3_iid_y"]
    infos = [pkgutil.ModuleInfo(None, n, False) for n in names]  # type: ignore[arg-type]
    ordered = [i.name for i in sorted(infos, key=build_core.module_order)]
    assert ordered == ["extra2_c", "extra_b", "test_d", "train_a", "extra3_iid_y", "extra3_test_x"]
