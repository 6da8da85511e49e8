"""Reports on run directories: a self-contained index.html with config, metrics, learning curves,
per-agent statistics and an interactive search-tree view; static tree figures for papers.

`write_report(["runs/a", "runs/b"], "report/")` writes `report/index.html` and the chart PNGs;
`write_tree_figures(runs, "report/", "sum-evens")` writes an SVG and a PNG of every tree of that
problem. A `mars2 experiment` output directory (one with results.md) stands for its runs
(`<arm>/seed<k>/`), and the page shows its results.md first. No torch; matplotlib draws with the Agg backend through `Figure` (no pyplot state).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mars2.errors import UserError
from mars2.report.curves import Chart, learning_curves, tree_curves
from mars2.report.page import render_page
from mars2.report.runs import Run, Tree, load_run
from mars2.report.treeview import ColorBy, tree_png, tree_svg
from mars2.rundir import ExperimentDir, RunDir

__all__ = [
    "Chart",
    "ColorBy",
    "Report",
    "Run",
    "Tree",
    "load_run",
    "load_runs",
    "write_report",
    "write_tree_figures",
]


@dataclass(frozen=True)
class Report:
    """What `write_report` wrote."""

    runs: tuple[Run, ...]
    index: Path
    charts: tuple[Path, ...]
    trees: tuple[Path, ...]


def load_runs(paths: Sequence[str | Path]) -> list[Run]:
    """Read each run directory; runs whose directory names clash get their parent's name too."""
    if not paths:
        raise UserError("no run directory given")
    resolved = [Path(p).resolve() for p in paths]
    names = [p.name for p in resolved]
    if len(set(names)) < len(names):
        names = [f"{p.parent.name}/{p.name}" for p in resolved]
    names = [n if names.count(n) == 1 else f"{n}#{i + 1}" for i, n in enumerate(names)]
    runs = [load_run(p, n) for p, n in zip(paths, names, strict=True)]
    return runs


def expand_experiments(paths: Sequence[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Run directories (an experiment's directory replaced by its `<arm>/seed<k>/` runs) and
    the experiments' (name, results.md text)."""
    runs: list[Path] = []
    experiments: list[tuple[str, str]] = []
    for path in map(Path, paths):
        results = ExperimentDir(path).results_md
        if RunDir(path).config.is_file() or not results.is_file():
            runs.append(path)
            continue
        experiments.append((path.name, results.read_text(encoding="utf-8")))
        # runs that have recorded something (a run just started has only its config.yaml)
        runs += [r.root for r in ExperimentDir(path).runs() if r.has_records()]
    return runs, experiments


def write_report(
    paths: Sequence[str | Path],
    out: str | Path,
    tree: str | None = None,
    color_by: ColorBy = "score",
    max_trees: int = 200,
) -> Report:
    """Render the report of the runs at `paths` (run or experiment directories) into `out`."""
    run_paths, experiments = expand_experiments(paths)
    runs = load_runs(run_paths)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    charts: list[Chart] = learning_curves(runs) + tree_curves(runs)
    chart_files = []
    for chart in charts:
        file = out_dir / f"{chart.name}.png"
        file.write_bytes(chart.png)
        chart_files.append(file)
    tree_files = write_tree_figures(runs, out_dir, tree, color_by) if tree is not None else []
    index = out_dir / "index.html"
    index.write_text(render_page(runs, charts, max_trees, experiments), encoding="utf-8")
    return Report(tuple(runs), index, tuple(chart_files), tuple(tree_files))


def write_tree_figures(
    runs: Sequence[Run], out: str | Path, problem_id: str, color_by: ColorBy = "score"
) -> list[Path]:
    """An SVG and a PNG of every tree of `problem_id` (or with that tree_id) in `runs`:
    `tree-<problem>.svg` when there is one such tree, else suffixed by run and trees file."""
    found = [(run, t) for run in runs for t in run.trees if problem_id in (t.problem_id, t.tree_id)]
    if not found:
        known = sorted({t.problem_id for r in runs for t in r.trees})
        sample = ", ".join(known[:10]) + (" …" if len(known) > 10 else "")
        raise UserError(
            f"--tree {problem_id}: no tree of that problem in these runs"
            + (f"; problems: {sample}" if known else " (they have no trees/*.jsonl)")
        )
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for run, t in found:
        parts = [problem_id] if len(found) == 1 else [problem_id, run.name, t.source, t.tree_id]
        stem = "tree-" + "-".join(_slug(p) for p in dict.fromkeys(parts))
        svg, png = out_dir / f"{stem}.svg", out_dir / f"{stem}.png"
        svg.write_text(tree_svg(t, run, color_by), encoding="utf-8")
        png.write_bytes(tree_png(t, run, color_by))
        files += [svg, png]
    return files


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"
