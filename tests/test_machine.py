"""mars2.machine: the processor facts `precision: auto` decides on, and a run's record of them."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
import torch

from mars2 import machine
from mars2.training.trainable import resolve_precision

MEASURED = machine.bf16_product_speedup  # at import, before any fixture patches it


def test_the_cpu_is_named_from_cpuinfo(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon X 9\n\n")
    assert machine.cpu_model(info) == "Xeon X 9"
    assert isinstance(machine.cpu_model(tmp_path / "missing"), str)  # platform's answer


def test_amx_and_the_measured_speedup_are_recorded_and_auto_stays_fp32(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cpu = torch.device("cpu")
    for amx, speedup in ((True, 0.6), (False, 0.6), (False, 2.0)):
        monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda amx=amx: amx)
        monkeypatch.setattr(machine, "bf16_product_speedup", lambda speedup=speedup: speedup)
        assert machine.amx_tiles() is amx and resolve_precision("auto", cpu) == "fp32"
        facts = machine.facts()
        assert facts["amx"] is amx and facts["bf16_speedup"] == speedup
        assert facts["cpu_bf16"] or not amx  # AMX tiles multiply bfloat16 natively


def test_the_bf16_speedup_is_measured_once_and_zero_without_native_bf16(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    probe = MEASURED  # the real probe (conftest's cpu_without_amx patches it)
    probe.cache_clear()
    monkeypatch.setattr(machine, "cpu_has_bfloat16", lambda: False)
    assert probe() == 0.0
    probe.cache_clear()
    monkeypatch.setattr(machine, "cpu_has_bfloat16", lambda: True)
    first = probe()
    assert first > 0.0 and probe() == first  # measured, then kept
    probe.cache_clear()


def test_facts_are_one_json_line_with_the_versions() -> None:
    facts = json.loads(json.dumps(machine.facts()))
    assert facts["torch"] == str(torch.__version__)  # the installed distribution's version
    assert facts["mars2"] and facts["python"] and facts["cores"] >= 1
    assert facts["gpus"] == [] or torch.cuda.is_available()
    assert machine.installed_version("no-such-distribution-xyz") is None


def test_the_source_commit_is_the_checkout_of_this_package_or_none(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *args],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()

    package = tmp_path / "src" / "mars2"
    package.mkdir(parents=True)
    (package / "x.py").write_text("A = 1\n")
    assert machine.source_commit(package) is None  # not a repository
    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    head = git("rev-parse", "HEAD")
    assert machine.source_commit(package) == head
    (tmp_path / "notes.txt").write_text("untracked\n")
    assert machine.source_commit(package) == head  # untracked files are not the source
    (package / "x.py").write_text("A = 2\n")
    assert machine.source_commit(package) == head + "+dirty"
    elsewhere = tmp_path / "lib" / "mars2"  # a copy inside another project's repository
    elsewhere.mkdir(parents=True)
    assert machine.source_commit(elsewhere) is None
    assert machine.facts()["source"] in (None, machine.source_commit())


def test_stolen_share_is_the_steal_column_over_all_time_spent(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 0 20 300 0 0 0 40 0 0\ncpu0 50 0 10 150 0 0 0 20 0 0\n")
    before = machine.cpu_times(stat)
    assert before == [100, 0, 20, 300, 0, 0, 0, 40]
    stat.write_text("cpu  160 0 30 330 0 0 10 70 0 0\n")
    after = machine.cpu_times(stat)
    # spent: 60 user + 10 system + 30 idle + 10 softirq + 30 steal = 140
    assert machine.stolen_share(before, after) == pytest.approx(30 / 140)
    assert machine.stolen_share(after, after) is None  # no time passed
    assert machine.stolen_share(None, after) is None
    assert machine.cpu_times(tmp_path / "missing") is None
    stat.write_text("intr 1 2 3\n")
    assert machine.cpu_times(stat) is None


def test_this_machine_reports_a_share_between_zero_and_one() -> None:
    before = machine.cpu_times()
    if before is None:
        pytest.skip("no /proc/stat here")
    time.sleep(0.1)  # ~10 ticks of 10 ms per core pass, idle or not
    share = machine.stolen_share(before, machine.cpu_times())
    assert share is not None and 0.0 <= share <= 1.0
