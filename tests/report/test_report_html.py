"""The report page in headless Chromium: no errors, charts decode, the tree view responds."""

from __future__ import annotations

import json
import re
from pathlib import Path

from report_browser import Browser, console_errors
from report_fakes import AGENTS, TRICKY_CODE

from mars2.report import write_report
from mars2.report.treeview import agent_color, score_color

# Drives the page like a user: click node 0, switch colours to agents, pick the second tree.
DRIVE = """
const select = document.getElementById("tree-select");
const nodes = () => document.querySelectorAll("#tree-canvas g.node");
const dot = () => document.querySelector('#tree-canvas g.node[data-node="0"] circle.dot');
const r = {options: select.options.length, nodes0: nodes().length};
document.querySelector('#tree-canvas g.node[data-node="0"]')
  .dispatchEvent(new MouseEvent("click", {bubbles: true}));
r.code = document.querySelector("#node-details .node-code").textContent;
r.details = document.getElementById("node-details").textContent;
r.selected = document.querySelectorAll("#tree-canvas g.node.selected").length;
r.fill_score = dot().getAttribute("fill");
const agent = document.querySelector('input[name="colour-by"][value="agent"]');
agent.checked = true;
agent.dispatchEvent(new Event("change"));
r.fill_agent = dot().getAttribute("fill");
select.value = "1";
select.dispatchEvent(new Event("change"));
r.nodes1 = nodes().length;
r.details_after = document.getElementById("node-details").textContent;
r.images = Array.from(document.images).map((i) => [i.naturalWidth, i.naturalHeight]);
return r;
"""


def _first_tree(run: Path) -> list[dict]:  # type: ignore[type-arg]
    file = sorted((run / "trees").glob("*.jsonl"))[0]
    records = [json.loads(line) for line in file.read_text().splitlines()]
    return [r for r in records if r["tree_id"] == records[0]["tree_id"]]


def test_single_run_page_works_in_chromium(
    browser: Browser, train_run: Path, tmp_path: Path
) -> None:
    report = write_report([train_run], tmp_path / "out")
    page = browser.run(report.index, DRIVE)
    assert page.errors == [] and console_errors(page.stderr) == []
    r = page.result
    assert r["options"] == 6  # 3 problems x 2 tree files
    tree = _first_tree(train_run)
    assert r["nodes0"] == len(tree)
    assert r["code"] == TRICKY_CODE  # shown verbatim: escaped in the page, not interpreted
    assert "passed (hidden)" in r["details"] and AGENTS[tree[0]["agent_id"]] in r["details"]
    assert r["selected"] == 1
    assert r["fill_score"] == score_color(tree[0]["score"])
    assert r["fill_agent"] == agent_color(tree[0]["agent_id"])
    assert r["nodes1"] == 8 and "Click a node" in r["details_after"]
    assert len(r["images"]) == len(report.charts) >= 5
    assert all(w >= 300 and h >= 200 for w, h in r["images"])


def test_comparison_page_works_in_chromium(
    browser: Browser, train_run: Path, grpo_run: Path, search_run: Path, tmp_path: Path
) -> None:
    report = write_report([train_run, grpo_run, search_run], tmp_path / "out")
    script = """
    const heads = Array.from(document.querySelectorAll("#comparison div.tablewrap:first-of-type thead th")).map((h) => h.textContent);
    const best = Array.from(document.querySelectorAll("#comparison b")).map((b) => b.textContent);
    const groups = Array.from(document.querySelectorAll("#tree-select optgroup")).map((g) => g.label);
    return {heads, best, groups, text: document.getElementById("comparison").textContent};
    """
    page = browser.run(report.index, script)
    assert page.errors == [] and console_errors(page.stderr) == []
    assert page.result["heads"] == ["metric", "mcts", "grpo", "search-a"]
    assert "0.480" in page.result["best"]  # the best final eval/pass@1_mcts is bold
    assert page.result["groups"] == [
        "mcts · step_000001",
        "mcts · step_000006",
        "grpo · step_000001",
        "grpo · step_000006",
        "search-a · search",
    ]
    assert "train.mode" in page.result["text"]  # the config difference between the runs


def test_page_is_self_contained(train_run: Path, search_run: Path, tmp_path: Path) -> None:
    html = write_report([train_run, search_run], tmp_path / "out").index.read_text()
    refs = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert refs and all(r.startswith(("data:image/png;base64,", "#")) for r in refs)
    assert "<link" not in html and "@import" not in html
    assert "</script><b>" not in html  # the tricky code cannot close the data script


def test_hook_reports_page_errors(browser: Browser, tmp_path: Path) -> None:
    """The error capture itself works: a page that throws is caught."""
    page = tmp_path / "bad.html"
    page.write_text(
        "<!DOCTYPE html><html><head></head><body><script>nope();</script></body></html>"
    )
    run = browser.run(page)
    assert any("nope" in e for e in run.errors)
    assert any("nope is not defined" in line for line in console_errors(run.stderr))


def test_screenshot(browser: Browser, train_run: Path, tmp_path: Path) -> None:
    report = write_report([train_run], tmp_path / "out")
    shot = tmp_path / "shot.png"
    browser.screenshot(report.index, shot, size="1200,900")
    from PIL import Image

    with Image.open(shot) as image:
        assert image.size == (1200, 900)
        assert len(image.getcolors(1 << 20) or []) > 50  # not a blank page


def test_links_restore_tree_and_node_and_fit_scales(
    browser: Browser, search_run: Path, tmp_path: Path
) -> None:
    report = write_report([search_run], tmp_path / "out")
    script = """
    const r = {tree: document.getElementById("tree-select").value,
               title: document.querySelector("#node-details h3").textContent};
    const fit = document.getElementById("tree-fit");
    fit.checked = true;
    fit.dispatchEvent(new Event("change"));
    r.width = document.querySelector("#tree-canvas svg").getAttribute("width");
    document.querySelector('#tree-canvas g.node[data-node="4"]').dispatchEvent(new MouseEvent("click", {bubbles: true}));
    r.hash = location.hash;
    r.children = Array.from(document.querySelectorAll("#node-details a")).map((a) => a.textContent);
    const filter = document.getElementById("tree-filter");
    filter.value = "TWO";
    filter.dispatchEvent(new Event("input"));
    const visible = Array.from(document.querySelectorAll("#tree-select option")).filter((o) => !o.hidden);
    r.filtered = [visible.length, document.getElementById("tree-select").value];
    return r;
    """
    page = browser.run(report.index, script, fragment="#tree=2&node=3")
    assert page.errors == [] and console_errors(page.stderr) == []
    assert page.result["tree"] == "2" and page.result["title"].startswith("Node 3 ")
    assert page.result["width"] == "100%"
    assert page.result["hash"] == "#tree=2&node=4"
    records = [json.loads(line) for line in (search_run / "trees" / "search.jsonl").open()]
    tree = [n for n in records if n["tree_id"] == "t2"]
    parent = next(n["parent_id"] for n in tree if n["node_id"] == 4)
    links = [f"node {parent} (refines it)"] if parent is not None else []
    links += [f"node {n['node_id']}" for n in tree if n["parent_id"] == 4]
    assert page.result["children"] == links
    assert page.result["filtered"] == [1, "1"]  # only two-sum is left, and it is shown


def test_a_run_without_trees_or_curves_renders(browser: Browser, tmp_path: Path) -> None:
    """An eval run with only config.yaml and metrics.json: no tree view, no script errors."""
    from report_fakes import write_config

    run = tmp_path / "eval"
    write_config(run)
    (run / "metrics.json").write_text(json.dumps({"pass@1": 0.25, "n_problems": 4}))
    report = write_report([run], tmp_path / "out")
    script = 'return Array.from(document.querySelectorAll("section")).map((s) => s.id);'
    page = browser.run(report.index, script)
    assert page.errors == [] and console_errors(page.stderr) == []
    assert page.result == ["summary", "agents", "config"]
    assert report.charts == ()
