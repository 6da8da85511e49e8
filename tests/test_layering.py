"""The import graph between mars2's packages follows the layers of design.md §2 (docs/architecture.md).

Every `import mars2.X` / `from mars2.X import ...` in src/ counts, lazy ones inside functions too:
a package may import only packages of a strictly lower layer (or itself). That rules out cycles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mars2"

# Lower layers first. `mars2` itself is the public Python API, on top with the CLI.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "paths", "seeds"),
    ("jsonl", "rundir"),  # the one JSONL reader (it raises errors.FileError); the run's paths
    ("registry",),  # built-in entries are dotted-path strings: it imports nothing it registers
    ("types", "config"),
    ("treesearch", "sandbox", "credit"),
    ("problems",),  # `mars2 problems validate --run` grades reference solutions in the sandbox
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
        targets = {t for t in imports_of(path) if t != source and t != "__version__"}
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
