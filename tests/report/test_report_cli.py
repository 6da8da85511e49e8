"""`mars2 report`: files written, exit codes, and no torch import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

from mars2.cli import main


def test_report_cli_writes_page_curves_and_tree_figures(
    train_run: Path, search_run: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    assert (
        main(["report", str(train_run), str(search_run), "--out", str(out), "--tree", "fizzbuzz"])
        == 0
    )
    printed = capsys.readouterr().out
    assert "index.html" in printed and "pass@1" in printed
    assert (out / "index.html").stat().st_size > 10_000
    pngs = sorted(p.name for p in out.glob("curve-*.png"))
    assert pngs[:3] == ["curve-clip_frac.png", "curve-eval.png", "curve-kl.png"]
    assert "curve-time-busy.png" in pngs  # summed busy seconds: not stacked with the wall times
    assert "curve-trees.png" in pngs  # trees from step 1 and step 6
    for png in out.glob("*.png"):
        with Image.open(png) as image:
            width, height = image.size
        assert 300 <= width <= 4000 and 200 <= height <= 3000, (png.name, image.size)
    # fizzbuzz has two trees in the training run and one in the search run
    svgs = sorted(p.name for p in out.glob("tree-*.svg"))
    assert svgs == [
        "tree-fizzbuzz-mcts-step_000001-s1-2.svg",
        "tree-fizzbuzz-mcts-step_000006-s6-2.svg",
        "tree-fizzbuzz-search-a-search-t2.svg",
    ]
    svg = (out / svgs[0]).read_text()
    assert svg.startswith("<svg") and svg.count("<circle") >= 8


def test_one_tree_gets_a_plain_name_and_agent_colours(search_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        main(["report", str(search_run), "--out", str(out), "--tree", "t0", "--color-by", "agent"])
        == 0
    )
    svg = (out / "tree-t0.svg").read_text()
    assert "qwen-coder" in svg and "#1f77b4" in svg  # the legend names the agents
    assert (out / "tree-t0.png").stat().st_size > 1000


def test_user_errors_exit_2(search_run: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["report", str(tmp_path / "missing"), "--out", str(tmp_path / "o")]) == 2
    assert main(["report", str(search_run), "--out", str(tmp_path / "o"), "--tree", "nope"]) == 2
    err = capsys.readouterr().err
    assert "run directory not found" in err and "sum-evens" in err  # lists known problems


def test_report_does_not_import_torch() -> None:
    code = "import sys, mars2.report, mars2.cli.report; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
