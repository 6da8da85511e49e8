"""Statistics, layout and colours on a hand-made tree, checked against values computed by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from mars2.report import stats
from mars2.report.curves import families, family
from mars2.report.runs import Run, Tree
from mars2.report.treeview import layout, score_color
from mars2.types import NodeRecord


def _node(
    node_id: int, parent: int | None, agent: int, score: float, passed: bool, length: int
) -> NodeRecord:
    depth = 1 if parent is None else 2
    return NodeRecord("t", "p", node_id, parent, depth, agent, score, score, passed, length)


#   root ── 0 (a0, .5) ── 1 (a1, 1.0, passes)
#        │            └── 3 (a0, .25)
#        └── 2 (a1, 0.0)
TREE = Tree(
    key="search/t",
    source="search",
    tree_id="t",
    problem_id="p",
    nodes=(
        _node(0, None, 0, 0.5, False, 100),
        _node(1, 0, 1, 1.0, True, 200),
        _node(2, None, 1, 0.0, False, 50),
        _node(3, 0, 0, 0.25, False, 150),
    ),
)
RUN = Run(Path("r"), "r", {}, ("a", "b"), (), None, (TREE,))


def test_layout_puts_parents_over_their_children() -> None:
    assert layout(TREE) == {1: (0, 2), 3: (1, 2), 0: (0.5, 1), 2: (2, 1), None: (1.25, 0)}


def test_layout_of_a_long_chain_does_not_recurse() -> None:
    nodes = tuple(_node(i, i - 1 if i else None, 0, 0.0, False, 1) for i in range(5000))
    pos = layout(Tree("k", "s", "t", "p", nodes))
    assert pos[4999] == (0, 5000) and pos[None] == (0, 0)


def test_agent_rows_by_hand() -> None:
    a, b = stats.agent_rows(RUN)
    assert (a["agent"], a["nodes"], a["share"], a["mean score"], a["pass rate"]) == (
        "a",
        2,
        0.5,
        0.375,
        0.0,
    )
    assert (a["wins"], a["trees solved"], a["refinements"], a["refine gain"]) == (0, 0, 1, -0.25)
    assert (b["agent"], b["nodes"], b["mean score"], b["pass rate"], b["wins"]) == (
        "b",
        2,
        0.5,
        0.5,
        1,
    )
    assert (b["trees solved"], b["refinements"], b["refine gain"]) == (1, 1, 0.5)
    assert b["mean response len"] == 125.0


def test_tree_summary_by_hand() -> None:
    assert stats.tree_summary([TREE]) == {
        "trees": 1.0,
        "nodes per tree": 4.0,
        "max depth": 2.0,
        "branching": 2.0,
        "best score": 1.0,
        "pass@1_mcts (trees)": 1.0,
        "pass@n (trees)": 1.0,
    }


def test_an_agent_without_nodes_gets_no_row() -> None:
    run = Run(Path("r"), "r", {}, ("a", "b", "c"), (), None, (TREE,))
    assert [row["agent"] for row in stats.agent_rows(run)] == ["a", "b"]


def test_score_colours_end_points_and_clamp() -> None:
    assert score_color(0.0) == "#d73027" and score_color(1.0) == "#1a9850"
    assert score_color(0.5) == "#fee08b" and score_color(2.0) == "#1a9850"
    assert score_color(0.25) == "#eb8859"  # halfway red -> yellow, halves rounded up


def test_key_families_headline_first() -> None:
    assert family("train/reward/agent0") == "train/reward" and family("lr") == "lr"
    steps = ({"step": 1.0, "time_s": 2.0, "lr": 1.0, "loss/agent0": 1.0, "eval/pass@1": 0.5},)
    run = Run(Path("r"), "r", {}, ("a",), steps, None, ())
    assert families([run]) == {"eval": ["eval/pass@1"], "loss": ["loss/agent0"], "lr": ["lr"]}


def test_comparison_and_config_differences() -> None:
    one = Run(
        Path("x"),
        "x",
        {"seed": 0, "agents": [{"name": "a"}]},
        ("a",),
        (),
        {"pass@1": 0.5, "algo": "abmcts"},
        (),
    )
    two = Run(
        Path("y"),
        "y",
        {"seed": 1, "agents": [{"name": "a"}]},
        ("a",),
        ({"step": 3.0, "eval/pass@1": 0.7},),
        None,
        (TREE,),
    )
    columns, rows = stats.comparison([one, two])
    assert columns[:4] == ["run", "agents", "algo", "pass@1"]
    assert rows[1]["final eval/pass@1"] == 0.7 and rows[1]["steps"] == 3 and rows[1]["trees"] == 1
    assert stats.config_differences([one, two]) == [("seed", ["0", "1"])]


@pytest.mark.parametrize("value", [math.nan, None])
def test_missing_values_show_a_dash(value: float | None) -> None:
    from mars2.report.page import fmt

    assert fmt(value) == "—" and fmt(2.0) == "2" and fmt(0.12345) == "0.123" and fmt(True) == "yes"


def test_curve_labels_use_agent_names() -> None:
    from mars2.report.curves import _label

    assert _label("loss/agent1", "loss", RUN) == "b"
    assert _label("loss/agent7", "loss", RUN) == "agent7"  # not in the config
    assert (
        _label("train/reward/mean", "train/reward", RUN) == "mean"
        and _label("lr", "lr", RUN) == "lr"
    )
