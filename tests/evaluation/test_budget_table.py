"""scripts/budget_table.py on the committed base-checkpoint records (results/budget/base/): the
rows re-derive the figures results/budget/NOTES.md cites, a folder whose two records were not
grown alike is refused, and the plot is written."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from script_modules import script_module

BASE = Path(__file__).resolve().parents[2] / "results" / "budget" / "base"


@pytest.fixture(scope="module")
def table() -> Iterator[ModuleType]:
    yield from script_module("budget_table")


def test_rows_rederive_the_base_checkpoint(table: ModuleType, tmp_path: Path) -> None:
    shutil.copytree(BASE, tmp_path / "base")
    (tmp_path / "not-a-checkpoint.txt").write_text("ignored")
    [ck] = [table.Checkpoint(tmp_path / "base")]
    assert ck.budgets == [4, 8, 16]
    rows = table.budget_rows(ck)
    assert rows[0].startswith("| base | 4 | 0.600 / 0.630 | -0.095 [-0.150, -0.040] / ")
    assert rows[0].endswith("| +0.080 [+0.030, +0.135] |")
    assert "-0.010 [-0.030, +0.010] / -0.010 [-0.030, +0.010]" in rows[2]
    rates = table.rates_table([ck])
    assert rates[2] == (
        "| base | per-tree | 16 | 0.040 (29/734) | 0.292 (541/1851) | 0.449 (606/1349) "
        "| 0.200 (640/3200) |"
    )
    assert table.main([str(tmp_path), "--plot", str(tmp_path / "b.png")]) == 0
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"


def test_one_record_leaves_the_other_columns_unmeasured(table: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "grpo").mkdir()
    shutil.copy(BASE / "adaptive.json", tmp_path / "grpo" / "adaptive.json")
    [row, *_] = table.budget_rows(table.Checkpoint(tmp_path / "grpo"))
    assert "| not measured | -0.015 [-0.040, +0.010] / " in row
    assert row.endswith("|  |")


def test_records_grown_apart_compare_each_search_with_its_own_independent_arm(
    table: ModuleType, tmp_path: Path
) -> None:
    folder = tmp_path / "base"
    shutil.copytree(BASE, folder)
    record = json.loads((folder / "adaptive.json").read_text())
    first = record["per_problem"][0]["arms"]["independent"]["4"]
    first["picked"] = 1 - first["picked"]  # problem 0's independent pick at 4 nodes flipped
    (folder / "adaptive.json").write_text(json.dumps(record))
    ck = table.Checkpoint(folder)
    assert ck.regrown == 1
    row = table.budget_rows(ck)[0]
    assert "| 0.600 / 0.630 |" in row  # pertree.json's independent arm
    flipped = +0.005 if first["picked"] == 0 else -0.005  # adaptive's own reference moved
    assert f"{-0.015 + flipped:+.3f} [" in row.split(" | ")[4]
    assert "differ on 1 of 200 problems" in table.budget_table([ck])[-1]
    assert table.main([str(tmp_path)]) == 0
    (folder / "pertree.json").unlink()
    (folder / "adaptive.json").unlink()
    with pytest.raises(ValueError, match=r"neither pertree\.json nor adaptive\.json"):
        table.Checkpoint(folder)
    assert table.main([str(tmp_path)]) == 2
