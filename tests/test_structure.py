"""Layering: every module imports; the pure layers never pull in torch; only agents/ and cluster/
may import vllm or ray."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import mars2

PURE = (
    "mars2.treesearch",
    "mars2.credit",
    "mars2.sandbox",
    "mars2.problems",
    "mars2.types",
    "mars2.config",
)
HEAVY_OPTIONAL = ("vllm", "ray")
MAY_IMPORT_HEAVY = ("mars2.agents", "mars2.cluster")


def all_modules() -> list[str]:
    names = ["mars2"]
    for info in pkgutil.walk_packages(mars2.__path__, "mars2."):
        names.append(info.name)
    return sorted(n for n in names if not n.endswith("__main__"))


def imported_after(module: str) -> set[str]:
    """Top-level packages imported by importing `module` in a fresh interpreter."""
    code = (
        f"import sys; before = set(sys.modules); import importlib; importlib.import_module({module!r}); "
        "print('\\n'.join(sorted({m.split('.')[0] for m in set(sys.modules) - before})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_every_module_imports() -> None:
    code = f"import importlib\nfor m in {all_modules()!r}: importlib.import_module(m)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_pure_layers_do_not_import_torch() -> None:
    pure = [m for m in all_modules() if m.startswith(PURE)]
    assert pure, "no pure modules found"
    offenders = {m: "torch" for m in pure if "torch" in imported_after(m)}
    assert not offenders, f"these modules import torch (directly or transitively): {offenders}"


def test_only_agents_and_cluster_import_vllm_or_ray() -> None:
    others = [m for m in all_modules() if not m.startswith(MAY_IMPORT_HEAVY)]
    code = (
        "import sys, importlib\n"
        f"for m in {others!r}: importlib.import_module(m)\n"
        f"print(' '.join(p for p in {HEAVY_OPTIONAL!r} if p in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"imported by modules outside agents/cluster: {out.stdout}"


def test_layer_check_catches_an_offender(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The torch check itself can fail: a module that imports torch is seen."""
    (tmp_path / "offender.py").write_text("import torch\n")
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); before=set(sys.modules); "
        "import offender; print('torch' in set(sys.modules) - before)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
