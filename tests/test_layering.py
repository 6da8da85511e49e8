"""The import graph of src/ follows the layers of docs/architecture.md and has no cycle.

Every `import mars2.X` / `from mars2.X import ...` in src/ counts, lazy ones inside functions and
type-only ones under `if TYPE_CHECKING:` too: a package may import only packages of a strictly
lower layer (or itself), and no module reaches itself through the modules it imports (a cycle
inside one package).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mars2"

# Lower layers first. `mars2` itself is the public Python API, on top with the CLI.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "heap", "paths", "seeds", "version"),
    ("jsonl", "rundir", "machine"),  # the one JSONL reader (it raises errors.FileError); the
    # run's paths; the machine's facts (versions, CPU: what `precision: auto` decides on)
    ("registry",),  # built-in entries are dotted-path strings: it imports nothing it registers
    ("types", "config"),
    ("treesearch", "sandbox", "credit"),
    ("problems",),  # `mars2 problems validate --run` grades reference solutions in the sandbox
    ("engine",),  # the CPU inference engine and the learner-exact log-prob forward (torch)
    ("agents", "rl"),
    ("rollout",),
    ("evaluation",),
    ("training", "report"),
    ("cluster",),
    ("api",),
    ("experiment",),  # runs `mars2 train` subprocesses; uses api.agents_for
    ("cli", "mars2"),
    ("__main__",),
)
RANK = {package: rank for rank, names in enumerate(LAYERS) for package in names}


def package_of(path: Path) -> str:
    """`mars2/treesearch/abmcts.py` -> `treesearch`; `mars2/__init__.py` -> `mars2`; `mars2/types.py` ->
    `types`."""
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts == ("__init__",):
        return "mars2"
    return parts[0]


def imports_of(path: Path) -> set[str]:
    """The mars2 packages that the module at `path` imports, anywhere in its body."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: Iterable[str] = ()
        if isinstance(node, ast.Import):
            names = (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = (node.module,)
            if node.module == "mars2":  # `from mars2 import paths`
                names = (f"mars2.{alias.name}" for alias in node.names)
        for name in names:
            parts = name.split(".")
            if parts[0] == "mars2":
                found.add(parts[1] if len(parts) > 1 else "mars2")
    return found


def package_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        source = package_of(path)
        targets = {t for t in imports_of(path) if t != source}
        edges.setdefault(source, set()).update(targets)
    return edges


def violations(edges: Mapping[str, Iterable[str]]) -> list[str]:
    """Every arrow that does not point to a strictly lower layer, and every unknown package."""
    bad = []
    for source, targets in sorted(edges.items()):
        for target in sorted(targets):
            if source not in RANK or target not in RANK:
                bad.append(f"{source} -> {target}: unknown package (add it to LAYERS)")
            elif RANK[target] >= RANK[source]:
                bad.append(f"{source} -> {target}: points up or sideways")
    return bad


def test_the_import_graph_follows_the_layers() -> None:
    edges = package_edges()
    assert {"treesearch", "credit", "training", "cli"} <= set(edges)
    assert not violations(edges), "\n".join(violations(edges))


def test_a_planted_wrong_arrow_is_caught() -> None:
    edges = package_edges()
    edges["treesearch"] = {*edges["treesearch"], "agents"}  # the pure search importing a backend
    edges["training"] = {*edges["training"], "cluster"}  # the loop reaching up to Ray
    assert violations(edges) == [
        "training -> cluster: points up or sideways",
        "treesearch -> agents: points up or sideways",
    ]


def test_lazy_imports_count(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from mars2.cluster import RayPlacement\n    import mars2.rl\n")
    assert imports_of(module) == {"cluster", "rl"}


def test_type_only_imports_count(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from mars2.cluster import RayPlacement\n"
        "    from mars2 import __version__\n"
    )
    # `from mars2 import __version__` names the top package's attribute: an arrow to `mars2`,
    # the top layer, which every package below it would point up to
    assert imports_of(module) == {"cluster", "__version__"}
    assert violations({"evaluation": {"__version__"}}) == [
        "evaluation -> __version__: unknown package (add it to LAYERS)"
    ]


# ---------------------------------------------------------------- modules: no cycle


def module_name(path: Path, root: Path = SRC) -> str:
    """`mars2/training/loop.py` -> `mars2.training.loop`; `mars2/cluster/__init__.py` ->
    `mars2.cluster` (`root`: the `mars2` folder)."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_edges(root: Path = SRC) -> dict[str, set[str]]:
    """Every module of `root` -> the modules of `root` it imports anywhere in its body (lazy and
    type-only imports included). `from P import x` points at module `P.x` when there is one,
    else at `P`; relative imports are resolved against the importing module's package."""
    paths = {module_name(p, root): p for p in root.rglob("*.py")}

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, *([base] if base else [])])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in paths else known(base))
        edges[name] = {m for m in found if m is not None and m != name}
    return edges


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_module_import_cycle() -> None:
    edges = module_edges()
    assert "mars2.sandbox.runtime.candidate" in edges["mars2.sandbox.runtime.zygote"]  # relative
    assert "mars2.training.learner" in edges["mars2.training.placement"]  # type-only
    assert not cycles(edges), cycles(edges)


def test_a_planted_cycle_is_caught(tmp_path: Path) -> None:
    package = tmp_path / "mars2" / "pkg"
    package.mkdir(parents=True)
    (tmp_path / "mars2" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from mars2.pkg import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import thing\n"
    )
    edges = module_edges(tmp_path / "mars2")
    assert cycles(edges) == [["mars2.pkg.a", "mars2.pkg.b"]]
