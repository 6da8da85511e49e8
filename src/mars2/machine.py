"""The machine a run runs on: the processor facts that choose a precision, and the record of
versions and hardware a run writes each time it starts (RUN/environment.jsonl, mars2.rundir).
Importing it does not import torch (`mars2 doctor` runs without torch).

A run's numbers depend on more than its config: `train.precision: auto` trains in bfloat16 on a
CPU with AMX tiles and in float32 on one without, and kernels change between torch versions. A
run resumed on another machine is two machines' work; each start appends one line, so every
step's machine can be looked up (the line's `step` is the first step it ran).

A virtual machine's speed also depends on its neighbours: the hypervisor "steals" time from
its cores when the host is busy (measured here: 16-26% of a 2-core machine's time for minutes,
which made one evaluation ~2x slower). `cpu_times` and `stolen_share` put that share beside
every step's and benchmark's wall time, so a slow figure can be told from a slow machine.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mars2.version import __version__

PACKAGES = ("torch", "transformers", "peft", "ray", "vllm")


def amx_tiles() -> bool:
    """Whether this CPU has AMX tiles (bfloat16 matrix products faster than float32)."""
    import torch

    return bool(getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)())


def cpu_has_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 matrices natively (AVX512-BF16 or AMX tiles)."""
    import torch

    avx512_bf16 = getattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)
    return bool(avx512_bf16()) or amx_tiles()


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The processor's name (`model name` of /proc/cpuinfo on Linux, else what `platform`
    knows; "" when nothing names it)."""
    try:
        for line in cpuinfo.read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                return value.strip()
    except OSError:
        pass
    return platform.processor()


def cpu_times(stat: Path = Path("/proc/stat")) -> list[int] | None:
    """The machine's cumulative CPU time counters (the `cpu` line of /proc/stat: user, nice,
    system, idle, iowait, irq, softirq, steal, ...), None where there is no such file."""
    try:
        with stat.open() as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 9:
        return None
    return [int(v) for v in fields[1:9]]


def stolen_share(before: list[int] | None, after: list[int] | None) -> float | None:
    """The share of all cores' time the hypervisor took between two `cpu_times` readings
    (0.0 on bare metal; None when either reading is missing or no time passed)."""
    if before is None or after is None:
        return None
    spent = [a - b for a, b in zip(after, before, strict=True)]
    total = sum(spent)
    return spent[7] / total if total > 0 else None


def installed_version(dist: str) -> str | None:
    """The installed version of distribution `dist`, None when it is not installed."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def facts() -> dict[str, Any]:
    """Versions and hardware of this process's machine, as one JSON-ready object."""
    import torch

    gpus = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return {
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "mars2": __version__,
        "python": platform.python_version(),
        **{name: installed_version(name) for name in PACKAGES},
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "cpu_bf16": cpu_has_bfloat16(),
        "amx": amx_tiles(),
        "gpus": gpus,
    }
