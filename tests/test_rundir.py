"""mars2.rundir: one step format (six digits) written, any number of digits read, step order
for files of older runs, and no other module of src/ spelling a step name or a run's layout."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mars2.rundir import (
    ExperimentDir,
    RunDir,
    in_step_order,
    is_step_folder,
    step_name,
    step_of,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "mars2"
OWNER = SRC / "rundir.py"


def test_a_step_is_written_with_six_digits() -> None:
    assert step_name(3) == "step_000003"
    assert step_name(123456) == "step_123456"
    run = RunDir("runs/x")
    assert run.trees(3) == Path("runs/x/trees/step_000003.jsonl")
    assert run.step_eval(3) == Path("runs/x/evals/step_000003/eval.json")
    assert run.step_eval(3, "coder") == Path("runs/x/evals/step_000003/eval-coder.json")
    assert run.step_eval_trees(0) == Path("runs/x/evals/step_000000/trees.jsonl")
    assert run.checkpoint(16) == Path("runs/x/checkpoints/step_000016")
    assert run.eval_out("step_000016").search_trees == Path(
        "runs/x/eval-step_000016/trees/search.jsonl"
    )
    assert ExperimentDir("out").run("base", 2).config == Path("out/base/seed2/config.yaml")
    assert run.named_eval("alone", "coder").eval_json() == Path(
        "runs/x/evals/alone/coder/eval.json"
    )
    assert run.named_eval("mcts-16").summary == Path("runs/x/evals/mcts-16/metrics.json")
    assert is_step_folder("step_000003") and is_step_folder("step_x")
    assert not is_step_folder("alone")


def test_any_number_of_digits_is_read() -> None:
    assert step_of("step_00003") == 3  # trees of runs written before the one format
    assert step_of("step_000003") == 3
    assert step_of("step_0003") == 3
    assert step_of("search") is None
    assert step_of("step_3a") is None


def test_files_of_older_runs_sort_by_step() -> None:
    names = ["step_000010.jsonl", "step_00003.jsonl", "step_000004.jsonl", "search.jsonl"]
    ordered = in_step_order([Path(n) for n in names])
    assert [p.name for p in ordered] == [
        "search.jsonl",
        "step_00003.jsonl",
        "step_000004.jsonl",
        "step_000010.jsonl",
    ]


def test_tree_files_of_a_step_in_either_spelling(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    run.trees_dir.mkdir()
    for name in ("step_00002.jsonl", "step_000002.jsonl", "step_000003.jsonl", "search.jsonl"):
        (run.trees_dir / name).write_text("")
    assert {p.name for p in run.tree_files_of(2)} == {"step_00002.jsonl", "step_000002.jsonl"}
    assert [p.name for p in run.tree_files()] == [
        "search.jsonl",
        *sorted(["step_00002.jsonl", "step_000002.jsonl"]),
        "step_000003.jsonl",
    ]


# A step name spelled in code: a format of `step_` (f-string or %), a `step_*` glob, or a step
# name with its digits. Docstrings may show paths (`evals/step_NNNNNN/`); code may not.
SPELLING = re.compile(r"step_(\{|%|\*|\d)")
# The files of a run's layout, as whole string constants (dict keys such as "trees" of an
# eval.json are not paths and are not listed).
LAYOUT_NAMES = {"config.yaml", "metrics.jsonl", "metrics.json", "search.jsonl", "run.log"}


def strings_in_code(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant and f-string of `source` but its docstrings."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append((node.lineno, ast.unparse(node)))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            found.append((node.lineno, node.value))
    return found


def layout_spellings(source: str) -> list[tuple[int, str]]:
    return [
        (line, text)
        for line, text in strings_in_code(source)
        if SPELLING.search(text) or text in LAYOUT_NAMES
    ]


def test_only_the_owner_spells_a_step_name_or_a_run_file() -> None:
    found = {
        str(path.relative_to(SRC)): spelled
        for path in sorted(SRC.rglob("*.py"))
        if path != OWNER and (spelled := layout_spellings(path.read_text()))
    }
    assert not found, f"run-directory names spelled outside mars2/rundir.py: {found}"
    assert layout_spellings(OWNER.read_text())  # the owner does: the check sees them


def test_the_spelling_check_catches_planted_formats() -> None:
    planted = [
        'path = folder / f"step_{step:05d}.jsonl"',
        'for p in root.glob("checkpoints/step_*/optimizer.pt"): pass',
        'name = "step_%06d" % step',
        'latest = "step_000003"',
        'file = run / "metrics.jsonl"',
    ]
    assert all(layout_spellings(line) for line in planted)
    assert not layout_spellings('def f():\n    """Reads evals/step_*/eval.json."""\n')
