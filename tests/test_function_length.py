"""Functions fit on a screen: none in src/ is over 60 lines unless a `# long: <reason>` comment
just above it says why splitting it would hurt reading."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mars2"
LIMIT = 60


def long_functions(path: Path, root: Path = SRC.parent) -> list[str]:
    """`file:line name (N lines)` of each function over LIMIT lines without a `# long:` reason
    in the comment block just above its `def` (or its first decorator)."""
    lines = path.read_text().splitlines()
    found = []
    for node in ast.walk(ast.parse("\n".join(lines), str(path))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        assert node.end_lineno is not None
        length = node.end_lineno - node.lineno + 1
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        above = first - 2  # the comment block just above: its first line gives the reason
        while above > 0 and lines[above - 1].strip().startswith("#"):
            above -= 1
        reason = above >= 0 and lines[above].strip().startswith("# long:")
        if length > LIMIT and not reason:
            found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_is_over_60_lines_without_a_reason() -> None:
    found = [f for path in sorted(SRC.rglob("*.py")) for f in long_functions(path)]
    assert not found, "split these or say why above them (`# long: ...`):\n" + "\n".join(found)


def test_a_long_function_without_a_reason_is_caught(tmp_path: Path) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    module = tmp_path / "planted.py"
    module.write_text(f"def plain():\n{body}\n\n# long: a table\ndef excused():\n{body}")
    assert long_functions(module, tmp_path) == ["planted.py:1 plain (61 lines)"]
