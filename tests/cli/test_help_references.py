"""Help texts, docs and code cite only pages that ship in the repository: no `design.md` (it is not
in the repository), and every `docs/X.md` a help text names exists."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

from mars2.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def helps(parser: argparse.ArgumentParser, name: str = "mars2") -> Iterator[tuple[str, str]]:
    """(command, --help text) of the parser and of every sub-command, recursively."""
    yield name, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from helps(sub, f"{name} {sub_name}")


def test_help_texts_cite_only_docs_that_exist() -> None:
    texts = dict(helps(build_parser()))
    assert len(texts) > 10  # every command and sub-command was reached
    for command, text in texts.items():
        flat = " ".join(text.split())  # argparse wraps lines
        assert "design.md" not in flat, command
        for page in re.findall(r"docs/[\w-]+\.md", flat):
            assert (ROOT / page).is_file(), f"`{command} --help` cites {page}, which does not exist"


def test_docs_do_not_cite_design_md() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    citing = [p.relative_to(ROOT) for p in pages if "design.md" in p.read_text()]
    assert not citing, f"these cite design.md, which is not in the repository: {citing}"


def test_code_does_not_cite_design_md() -> None:
    # `design.md §N` and bare `§N` both pointed into a file that is not in the repository;
    # dotted section numbers of published books (`§3.4.3.3`) are fine
    cited = re.compile(r"design\.md|design §|§\d+\b(?!\.)")
    files = [p for d in ("src", "tests", "bench", "scripts") for p in (ROOT / d).rglob("*.py")]
    citing = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in files
        if p != Path(__file__).resolve()
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if cited.search(line)
    ]
    assert not citing, f"these cite design.md, which is not in the repository: {citing}"
