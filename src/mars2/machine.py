"""The machine a run runs on: the processor facts that choose a precision, and the record of
versions, hardware and source commit a run writes each time it starts (RUN/environment.jsonl,
mars2.rundir), and each evaluation beside its eval.json.
Importing it does not import torch (`mars2 doctor` runs without torch).

A run's numbers depend on more than its config: kernels differ between processors (AMX tiles,
native bfloat16: what `bf16_product_speedup` measures) and change between torch versions. A
run resumed on another machine is two machines' work; each start appends one line, so every
step's machine can be looked up (the line's `step` is the first step it ran).

A virtual machine's speed also depends on its neighbours: the hypervisor "steals" time from
its cores when the host is busy (measured here: 16-26% of a 2-core machine's time for minutes,
which made one evaluation ~2x slower). `cpu_times` and `stolen_share` put that share beside
every step's and benchmark's wall time, so a slow figure can be told from a slow machine.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import platform
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mars2.version import __version__

PACKAGES = ("torch", "transformers", "peft", "ray", "vllm")
PACKAGE_DIR = Path(__file__).resolve().parent  # src/mars2 in a checkout


def amx_tiles() -> bool:
    """Whether this CPU has AMX tiles (bfloat16 matrix products faster than float32)."""
    import torch

    return bool(getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)())


def cpu_has_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 matrices natively (AVX512-BF16 or AMX tiles)."""
    import torch

    avx512_bf16 = getattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)
    return bool(avx512_bf16()) or amx_tiles()


# CPUs that report AVX512-BF16 differ: on one (2026-12-02) oneDNN's bfloat16 product took 1.6x
# the float32 one; on a 2-core AMD EPYC (2026-12-04) it took 0.43x, and the bfloat16 learner
# 0.6x (docs/performance.md). `mars2 doctor` prints the figure: what `train.precision=bf16`
# would buy here (`auto` trains in float32 on every CPU: mars2.training.trainable).


@functools.cache
def bf16_product_speedup() -> float:
    """Float32 over bfloat16 time of one learner-sized matrix product on this CPU (SmolLM2's
    MLP: [1024 x 576] by [576 x 1536]), the best of 4 interleaved timings each (~0.1-0.2 s, once
    per process); 0.0 where the CPU has no native bfloat16 (its products are emulated)."""
    if not cpu_has_bfloat16():
        return 0.0
    import torch

    g = torch.Generator().manual_seed(0)
    x, w = torch.randn(1024, 576, generator=g), torch.randn(1536, 576, generator=g)
    pairs = {"fp32": (x, w), "bf16": (x.bfloat16(), w.bfloat16())}
    best = dict.fromkeys(pairs, float("inf"))
    with torch.no_grad():
        for _ in range(4):  # the first round also builds oneDNN's kernels: the best one counts
            for name, (a, b) in pairs.items():
                start = time.perf_counter()
                torch.nn.functional.linear(a, b)
                best[name] = min(best[name], time.perf_counter() - start)
    return best["fp32"] / best["bf16"]


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


def source_commit(package: Path = PACKAGE_DIR) -> str | None:
    """The git commit of the checkout mars2 runs from (`<commit>+dirty` when tracked files of
    the package differ from it); None for an installed copy, or when git is missing. Only a checkout
    whose src/mars2 is this package counts: a site-packages inside someone's repository is not it.
    """

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(package), *args], capture_output=True, text=True, timeout=10
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    top = git("rev-parse", "--show-toplevel")
    if top is None or (Path(top) / "src" / "mars2").resolve() != package.resolve():
        return None
    commit = git("rev-parse", "HEAD")
    if commit is None:
        return None
    changed = git("status", "--porcelain", "--untracked-files=no", "--", str(package))
    return f"{commit}+dirty" if changed else commit


def facts() -> dict[str, Any]:
    """Versions and hardware of this process's machine, as one JSON-ready object."""
    import torch

    gpus = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return {
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "mars2": __version__,
        "source": source_commit(),
        "python": platform.python_version(),
        **{name: installed_version(name) for name in PACKAGES},
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "cpu_bf16": cpu_has_bfloat16(),
        "amx": amx_tiles(),
        "bf16_speedup": round(bf16_product_speedup(), 2),
        "gpus": gpus,
    }
