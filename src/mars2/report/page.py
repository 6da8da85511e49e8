"""The self-contained index.html: inline CSS and JS, charts as data URIs, trees as embedded JSON."""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Sequence
from html import escape
from importlib.resources import files
from typing import Any

import yaml

from mars2.report import stats
from mars2.report.curves import Chart
from mars2.report.runs import Run, Tree
from mars2.report.treeview import AGENT_COLORS, SCORE_STOPS, layout
from mars2.treesearch import metrics
from mars2.version import __version__

# The tree view's controls; report.js fills them in.
TREE_VIEW = """
<div class="treebar">
  <label>Tree <select id="tree-select"></select></label>
  <input id="tree-filter" type="search" placeholder="filter by problem id">
  <span class="toggle">Colour by
    <label><input type="radio" name="colour-by" value="score" checked> score</label>
    <label><input type="radio" name="colour-by" value="agent"> agent</label>
  </span>
  <label><input type="checkbox" id="tree-fit"> fit to width</label>
  <button id="tree-download" type="button">Download SVG</button>
</div>
<div id="tree-legend"></div>
<div class="treepane">
  <div id="tree-canvas"></div>
  <div id="node-details"><p class=note>Click a node to see its code and feedback.</p></div>
</div>
"""

# Code and feedback longer than this are cut in the page (the trees files keep them whole).
MAX_TEXT = 8000


def fmt(value: Any) -> str:
    """A table cell: floats to 3 decimals (integers as integers), NaN/None as a dash."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.3f}"
    return str(value)


def table(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    """An HTML table; a row's cells equal to its `_best` value are bold."""
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for col in columns:
            value = row.get(col)
            text = escape(fmt(value))
            num = isinstance(value, int | float) and not isinstance(value, bool)
            missing = text == "—"
            if num and "_best" in row and value == row["_best"]:
                text = f"<b>{text}</b>"
            cells.append(f'<td class="{"num" if num or missing else ""}">{text}</td>')
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f'<div class="tablewrap"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _kv_table(values: dict[str, Any]) -> str:
    return table(["metric", "value"], [{"metric": k, "value": v} for k, v in values.items()])


def _asset(name: str) -> str:
    return files("mars2.report").joinpath("assets", name).read_text(encoding="utf-8")


def _cut(text: str) -> str:
    if len(text) <= MAX_TEXT:
        return text
    return f"{text[:MAX_TEXT]}\n… ({len(text) - MAX_TEXT} more characters in the trees file)"


def tree_data(run_index: int, tree: Tree) -> dict[str, Any]:
    """A tree as the page's JS reads it: nodes with layout positions (x slot, depth)."""
    pos = layout(tree)
    best = metrics.best(tree.nodes)
    return {
        "run": run_index,
        "key": tree.key,
        "problem": tree.problem_id,
        "source": tree.source,
        "best": best.node_id if best is not None else None,
        "root_x": pos[None][0],
        "nodes": [
            {
                "id": n.node_id,
                "parent": n.parent_id,
                "x": pos[n.node_id][0],
                "d": pos[n.node_id][1],
                "agent": n.agent_id,
                "score": n.score,
                "reward": n.reward,
                "passed": n.passed,
                "len": n.response_len,
                "code": _cut(n.code),
                "feedback": _cut(n.feedback),
            }
            for n in tree.nodes
        ],
    }


def page_data(runs: Sequence[Run], max_trees: int) -> dict[str, Any]:
    """Everything the tree view needs; each run's last `max_trees` trees (latest steps)."""
    trees = []
    for i, run in enumerate(runs):
        trees += [tree_data(i, t) for t in run.trees[-max_trees:] if t.nodes]
    return {
        "runs": [
            {
                "name": r.name,
                "agents": [r.agent_name(a) for a in range(max(r.agent_ids(), default=0) + 1)],
                "trees_total": len(r.trees),
            }
            for r in runs
        ],
        "agent_colors": list(AGENT_COLORS),
        "score_stops": [[s, list(c)] for s, c in SCORE_STOPS],
        "trees": trees,
    }


def _json_script(data: Any) -> str:
    # `<` escaped so no string in the data can close the script element.
    text = json.dumps(data, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="mars2-data">{text}</script>'


def _img(chart: Chart) -> str:
    data = base64.b64encode(chart.png).decode("ascii")
    return (
        f'<figure><img alt="{escape(chart.title)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{escape(chart.title)} — {escape(chart.name)}.png</figcaption></figure>"
    )


def _section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{escape(title)}</h2>{body}</section>'


def _comparison(runs: Sequence[Run]) -> str:
    # One column per run, one row per metric: a few runs by many metrics reads best this way.
    columns, rows = stats.comparison(runs)
    names = [str(r["run"]) for r in rows]
    metric_rows = []
    for column in columns[1:]:
        values = [r.get(column) for r in rows]
        line: dict[str, Any] = {"metric": column, **dict(zip(names, values, strict=True))}
        nums = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
        if "pass" in column and len(nums) > 1:
            line["_best"] = max(nums)
        metric_rows.append(line)
    body = table(["metric", *names], metric_rows)
    diffs = stats.config_differences(runs)
    if diffs:
        diff_rows = [
            {"config key": k, **dict(zip([r.name for r in runs], v, strict=True))} for k, v in diffs
        ]
        body += "<h3>Config differences</h3>" + table(
            ["config key", *[r.name for r in runs]], diff_rows
        )
    return _section("comparison", "Comparison", body)


def _summary(run: Run) -> str:
    parts = []
    scalars = stats.summary_scalars(run.summary)
    if scalars:
        parts.append(f"<div><h4>metrics.json</h4>{_kv_table(scalars)}</div>")
    if run.steps:
        last = {"steps logged": len(run.steps), "last step": run.steps[-1]["step"]}
        last.update(stats.last_values(run))
        parts.append(f"<div><h4>metrics.jsonl (last values)</h4>{_kv_table(last)}</div>")
    trees = stats.tree_summary(run.trees)
    if trees:
        parts.append(f"<div><h4>trees/*.jsonl</h4>{_kv_table(trees)}</div>")
    return f'<h3>{escape(run.name)}</h3><div class="cards">{"".join(parts)}</div>'


def _evaluations(runs: Sequence[Run]) -> str:
    parts = []
    for run in runs:
        rows = stats.eval_rows(run)
        if not rows:
            continue
        columns: list[str] = []
        for row in rows:
            columns += [k for k in row if k not in columns]
        parts.append(f"<h3>{escape(run.name)}</h3>" + table(columns, rows))
    pairs = stats.pairings(runs)
    if pairs:
        parts.append(
            "<h3>Paired comparisons</h3><p class=note>B - A per metric over the problems both "
            "evaluated: paired-bootstrap 95% interval and sign-flip p-value "
            "(<code>mars2 compare A B</code>).</p>"
        )
    for pair in pairs:
        body = table(list(pair.rows[0]), pair.rows) if pair.rows else ""
        note = f"<p class=note>{escape(pair.note)}</p>" if pair.note else ""
        parts.append(f"<h4>{escape(pair.title)}</h4>{note}{body}")
    return "".join(parts)


def _agents(run: Run) -> str:
    out = f"<h3>{escape(run.name)}</h3>"
    rows = stats.agent_rows(run)
    if rows:
        out += "<h4>From the trees</h4>" + table(list(rows[0]), rows)
    summary_rows = stats.summary_agents(run.summary)
    if summary_rows:
        columns: list[str] = []
        for row in summary_rows:
            columns += [k for k in row if k not in columns]
        out += "<h4>From metrics.json</h4>" + table(columns, summary_rows)
    if not run.trees and not summary_rows:
        out += "<p class=note>No trees and no per-agent metrics in this run.</p>"
    return out


def _tree_view(runs: Sequence[Run], max_trees: int) -> str:
    shown = sum(min(len(r.trees), max_trees) for r in runs)
    total = sum(len(r.trees) for r in runs)
    note = (
        f"<p class=note>Showing the last {max_trees} trees of each run ({shown} of {total}).</p>"
        if shown < total
        else ""
    )
    return note + TREE_VIEW


def _config(run: Run) -> str:
    text = yaml.safe_dump(run.config, sort_keys=False, allow_unicode=True)
    return f"<details><summary>{escape(run.name)}: config.yaml</summary><pre>{escape(text)}</pre></details>"


def markdown_html(text: str) -> str:
    """The tables and paragraphs of a results.md (`mars2 experiment`) as HTML: `|` rows become
    tables (the `---` row dropped), `#` lines headings, other lines paragraphs; text escaped."""
    parts: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            head, *body = rows
            parts.append(table(head, [dict(zip(head, r, strict=False)) for r in body]))
            rows.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if not all(set(c) <= {"-", ":"} for c in cells):
                rows.append(cells)
            continue
        flush()
        if stripped.startswith("#"):
            parts.append(f"<h3>{escape(stripped.lstrip('#').strip())}</h3>")
        elif stripped:
            parts.append(f"<p>{escape(stripped)}</p>")
    flush()
    return "".join(parts)


def render_page(
    runs: Sequence[Run],
    charts: Sequence[Chart],
    max_trees: int = 200,
    experiments: Sequence[tuple[str, str]] = (),
) -> str:
    """The whole report page as one HTML string (`experiments`: (name, results.md text))."""
    sections = []
    if experiments:
        body = "".join(markdown_html(text) for _, text in experiments)
        sections.append(_section("experiment", "Experiment", body))
    if len(runs) > 1:
        sections.append(_comparison(runs))
    sections.append(_section("summary", "Summary", "".join(_summary(r) for r in runs)))
    evaluations = _evaluations(runs)
    if evaluations:
        sections.append(_section("evaluations", "Evaluations (95% intervals)", evaluations))
    if charts:
        grid = '<div class="charts">' + "".join(_img(c) for c in charts) + "</div>"
        sections.append(_section("curves", "Learning curves", grid))
    sections.append(_section("agents", "Agents", "".join(_agents(r) for r in runs)))
    if any(r.trees for r in runs):
        sections.append(_section("trees", "Search trees", _tree_view(runs, max_trees)))
    sections.append(_section("config", "Config", "".join(_config(r) for r in runs)))
    nav = "".join(
        f'<a href="#{a}">{t}</a>'
        for a, t in (
            ("experiment", "Experiment"),
            ("comparison", "Comparison"),
            ("summary", "Summary"),
            ("evaluations", "Evaluations"),
            ("curves", "Curves"),
            ("agents", "Agents"),
            ("trees", "Trees"),
            ("config", "Config"),
        )
        if f'id="{a}"' in "".join(sections)
    )
    names = ", ".join(r.name for r in runs)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>mars2 report: {escape(names)}</title><style>{_asset('report.css')}</style>"
        f"</head><body><header><h1>mars2 report</h1><p>{escape(names)} · mars2 {__version__}"
        f"</p><nav>{nav}</nav></header><main>{''.join(sections)}</main>"
        f"{_json_script(page_data(runs, max_trees))}<script>{_asset('report.js')}</script>"
        "</body></html>\n"
    )
