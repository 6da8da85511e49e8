"""mars2.machine: the processor facts `precision: auto` decides on, and a run's record of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from mars2 import machine
from mars2.training.learner import resolve_precision


def test_the_cpu_is_named_from_cpuinfo(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon X 9\n\n")
    assert machine.cpu_model(info) == "Xeon X 9"
    assert isinstance(machine.cpu_model(tmp_path / "missing"), str)  # platform's answer


def test_amx_decides_auto_precision_and_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    cpu = torch.device("cpu")
    for amx, precision in ((True, "bf16"), (False, "fp32")):
        monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda amx=amx: amx)
        assert machine.amx_tiles() is amx and resolve_precision("auto", cpu) == precision
        facts = machine.facts()
        assert facts["amx"] is amx
        assert facts["cpu_bf16"] or not amx  # AMX tiles multiply bfloat16 natively


def test_facts_are_one_json_line_with_the_versions() -> None:
    facts = json.loads(json.dumps(machine.facts()))
    assert facts["torch"] == str(torch.__version__)  # the installed distribution's version
    assert facts["mars2"] and facts["python"] and facts["cores"] >= 1
    assert facts["gpus"] == [] or torch.cuda.is_available()
    assert machine.installed_version("no-such-distribution-xyz") is None
