"""The files behind the numbers: every paired table that README.md, docs/*.md or a results/ note
shows under a `$ mars2 compare results/A.json results/B.json` line is re-derived here from the
committed evaluation files in results/, row by row, and so is every `step N: eval ...` line beside
one and every Pass@1 figure of docs/results.md's history table that names a folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mars2.evaluation import record

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "results").rglob("*.md")),
]
COMMAND = re.compile(r"^\$ mars2 compare (results/\S+) (results/\S+)$")
STEP = re.compile(r"^(results/\S+): eval (.*)$")


def code_blocks(text: str) -> list[list[str]]:
    """The lines of each ``` block of a markdown text."""
    blocks, current = [], None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def compare_blocks() -> list[tuple[Path, list[str]]]:
    found = []
    for doc in DOCS:
        for block in code_blocks(doc.read_text(encoding="utf-8")):
            if block and COMMAND.match(block[0]):
                found.append((doc, block))
    return found


BLOCKS = compare_blocks()


def test_the_readme_headline_is_among_the_rederived_tables() -> None:
    found = {doc.relative_to(ROOT).as_posix() for doc, _ in BLOCKS}
    assert {"README.md", "docs/results.md", "results/main-job/NOTES.md"} <= found


@pytest.mark.parametrize(
    ("doc", "block"), BLOCKS, ids=[f"{d.relative_to(ROOT)}:{b[0].split()[3]}" for d, b in BLOCKS]
)
def test_paired_table_rederives_from_committed_files(doc: Path, block: list[str]) -> None:
    match = COMMAND.match(block[0])
    assert match is not None
    a, b = (record.read(ROOT / name) for name in match.groups())
    diffs = record.compare(a, b)
    rows = [
        [cell.strip() for cell in line.strip("│ ").split("│")]
        for line in block
        if line.startswith("│") and not line.startswith("│ metric")
    ]
    assert rows, f"{doc.name}: no table rows under {block[0]}"
    for name, first, second, diff, interval, p in rows:
        d = diffs[name]
        assert first == f"{a['metrics'][name]['value']:.3f}", (doc.name, name)
        assert second == f"{b['metrics'][name]['value']:.3f}", (doc.name, name)
        assert diff == f"{d.value:+.3f}", (doc.name, name)
        assert interval == f"[{d.lo:+.3f}, {d.hi:+.3f}]", (doc.name, name)
        assert p == f"{d.p_value:.3f}", (doc.name, name)


@pytest.mark.parametrize(
    ("doc", "block"), BLOCKS, ids=[f"{d.relative_to(ROOT)}:{b[0].split()[3]}" for d, b in BLOCKS]
)
def test_evaluation_lines_rederive_from_committed_files(doc: Path, block: list[str]) -> None:
    """`results/X.json: eval pass@1 0.200 [0.147, 0.253] ...` lines state X's own figures."""
    for line in block:
        match = STEP.match(line)
        if match is None:
            continue
        metrics = record.read(ROOT / match.group(1))["metrics"]
        for name, value, lo, hi in re.findall(r"(\S+) ([\d.]+) \[([\d.]+), ([\d.]+)\]", line):
            m = metrics[name]
            assert (value, lo, hi) == (
                f"{m['value']:.3f}",
                f"{m['lo']:.3f}",
                f"{m['hi']:.3f}",
            ), (doc.name, line)


HISTORY_ROW = re.compile(
    r"^\| (\d+) \|.*\| ([+-]\d\.\d{3}) \[([+-]\d\.\d{3}), ([+-]\d\.\d{3})\] \| `(results/[^`]+)/` \|$"
)


def history_rows() -> list[tuple[str, str, str, str, str]]:
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    return [m.groups() for m in map(HISTORY_ROW.match, text.splitlines()) if m]  # type: ignore[misc]


def test_the_main_job_history_names_every_kept_run() -> None:
    folders = {row[4] for row in history_rows()}
    kept = {
        p.parent.relative_to(ROOT).as_posix()
        for p in (ROOT / "results" / "main-job").rglob("step_000008.json")
    }
    assert kept and folders == kept


@pytest.mark.parametrize("row", history_rows(), ids=lambda row: f"run-{row[0]}")
def test_history_pass_at_1_rederives_from_its_folder(row: tuple[str, str, str, str, str]) -> None:
    _, value, lo, hi, folder = row
    a, b = (record.read(ROOT / folder / f"step_00000{s}.json") for s in (0, 8))
    d = record.compare(a, b)["pass@1"]
    assert (value, lo, hi) == (f"{d.value:+.3f}", f"{d.lo:+.3f}", f"{d.hi:+.3f}"), folder
