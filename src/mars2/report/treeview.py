"""Search-tree pictures: a tidy layout, colours, and static SVG/PNG figures for papers."""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence
from html import escape
from typing import Literal

from mars2.report.runs import Run, Tree
from mars2.treesearch import metrics

ColorBy = Literal["score", "agent"]

# Score colour ramp (red -> yellow -> green, ColorBrewer RdYlGn ends); the page's JS uses the same.
SCORE_STOPS = ((0.0, (215, 48, 39)), (0.5, (254, 224, 139)), (1.0, (26, 152, 80)))
# Agent colours (matplotlib's tab10), cycled.
AGENT_COLORS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
ROOT_COLOR = "#555555"
# Pixels per layout unit in the static SVG.
DX, DY, RADIUS, MARGIN = 30, 60, 10, 30


def score_color(score: float) -> str:
    """The hex colour of a score in [0, 1] (clamped)."""
    s = min(max(score, 0.0), 1.0)
    for (a, ca), (b, cb) in itertools.pairwise(SCORE_STOPS):
        if s <= b:
            t = (s - a) / (b - a)
            # floor(v + 0.5), like JS Math.round (Python's round() rounds half to even)
            rgb = [math.floor(x + (y - x) * t + 0.5) for x, y in zip(ca, cb, strict=True)]
            return "#{:02x}{:02x}{:02x}".format(*rgb)
    return "#{:02x}{:02x}{:02x}".format(*SCORE_STOPS[-1][1])


def agent_color(agent_id: int) -> str:
    return AGENT_COLORS[agent_id % len(AGENT_COLORS)]


def layout(tree: Tree) -> dict[int | None, tuple[float, int]]:
    """(x, depth) per node id, root = None at depth 0. Leaves take consecutive x slots in
    depth-first order (children by node id); a parent sits above the middle of its children."""
    children = tree.children()
    pos: dict[int | None, tuple[float, int]] = {}
    next_leaf = 0.0
    # Iterative post-order (refinement chains can be deeper than Python's recursion limit).
    stack: list[tuple[int | None, int, bool]] = [(None, 0, False)]
    while stack:
        node_id, depth, done = stack.pop()
        kids = children.get(node_id, [])
        if not kids:
            pos[node_id] = (next_leaf, depth)
            next_leaf += 1
        elif done:
            pos[node_id] = ((pos[kids[0].node_id][0] + pos[kids[-1].node_id][0]) / 2, depth)
        else:
            stack.append((node_id, depth, True))
            stack.extend((k.node_id, depth + 1, False) for k in reversed(kids))
    return pos


def tree_svg(tree: Tree, run: Run, color_by: ColorBy = "score") -> str:
    """A standalone SVG of `tree`: nodes coloured by score or agent, a thick dark ring on nodes
    that pass the hidden tests, a double ring on the Pass@1(MCTS) pick, and a legend."""
    pos = layout(tree)
    width = max(x for x, _ in pos.values()) + 1
    depth = max(d for _, d in pos.values())
    legend_h = 40
    h = int(depth * DY + 2 * MARGIN + legend_h + 20)
    legend, legend_w = _svg_legend(tree, run, color_by, MARGIN, h - legend_h + 5)
    w = int(max(width * DX, legend_w, 7 * (len(tree.problem_id) + 30)) + 2 * MARGIN)
    x0 = (w - (width - 1) * DX) / 2

    def xy(node_id: int | None) -> tuple[float, float]:
        x, d = pos[node_id]
        return x0 + x * DX, MARGIN + 20 + d * DY

    best = metrics.best(tree.nodes)
    title = f"{tree.problem_id} ({tree.source}) — {len(tree.nodes)} nodes"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{MARGIN}" y="18" font-size="13">{escape(title)}</text>',
    ]
    for node in tree.nodes:
        (x1, y1), (x2, y2) = xy(node.parent_id), xy(node.node_id)
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#999"/>'
        )
    rx, ry = xy(None)
    parts.append(
        f'<rect x="{rx - RADIUS:.1f}" y="{ry - RADIUS:.1f}" width="{2 * RADIUS}" '
        f'height="{2 * RADIUS}" fill="{ROOT_COLOR}"><title>problem {escape(tree.problem_id)}'
        "</title></rect>"
    )
    for node in tree.nodes:
        x, y = xy(node.node_id)
        fill = score_color(node.score) if color_by == "score" else agent_color(node.agent_id)
        stroke = 'stroke="#111" stroke-width="3"' if node.passed else 'stroke="#fff"'
        tip = (
            f"node {node.node_id} by {run.agent_name(node.agent_id)}: score {node.score:.2f}, "
            f"{'passes' if node.passed else 'fails'} hidden tests"
        )
        if best is not None and node.node_id == best.node_id:
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS + 5}" fill="none" stroke="#111"/>'
            )
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}" fill="{fill}" {stroke}>'
            f"<title>{escape(tip)}</title></circle>"
        )
    parts.append(legend)
    parts.append("</svg>")
    return "\n".join(parts)


def _svg_legend(tree: Tree, run: Run, color_by: ColorBy, x: float, y: float) -> tuple[str, float]:
    """The legend's SVG and its width."""
    items: list[str] = []
    if color_by == "score":
        for i in range(11):
            items.append(
                f'<rect x="{x + i * 12:.0f}" y="{y}" width="12" height="10" '
                f'fill="{score_color(i / 10)}"/>'
            )
        items.append(f'<text x="{x}" y="{y + 24}">score 0</text>')
        items.append(f'<text x="{x + 132}" y="{y + 24}" text-anchor="end">1</text>')
        cursor = x + 160
    else:
        cursor = x
        for agent_id in sorted({n.agent_id for n in tree.nodes}):
            name = escape(run.agent_name(agent_id))
            items.append(
                f'<circle cx="{cursor + 5}" cy="{y + 5}" r="5" fill="{agent_color(agent_id)}"/>'
                f'<text x="{cursor + 14}" y="{y + 9}">{name}</text>'
            )
            cursor += 24 + 7 * len(run.agent_name(agent_id))
    items.append(
        f'<circle cx="{cursor + 5}" cy="{y + 5}" r="5" fill="#ddd" stroke="#111" '
        f'stroke-width="2"/><text x="{cursor + 14}" y="{y + 9}">passes hidden tests</text>'
        f'<circle cx="{cursor + 145}" cy="{y + 5}" r="7" fill="none" stroke="#111"/>'
        f'<text x="{cursor + 156}" y="{y + 9}">Pass@1(MCTS) pick</text>'
    )
    return "".join(items), cursor + 270 - x


def tree_png(tree: Tree, run: Run, color_by: ColorBy = "score", dpi: int = 150) -> bytes:
    """The same picture as `tree_svg`, drawn with matplotlib (Agg), as PNG bytes."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    pos = layout(tree)
    width = max(x for x, _ in pos.values()) + 1
    depth = max(d for _, d in pos.values())
    fig = Figure(
        figsize=(min(max(0.35 * width + 1.5, 5.0), 24.0), min(max(0.8 * depth + 1.8, 3.0), 16.0)),
        dpi=dpi,
    )
    ax = fig.add_subplot()
    for node in tree.nodes:
        (x1, d1), (x2, d2) = pos[node.parent_id], pos[node.node_id]
        ax.plot([x1, x2], [d1, d2], color="#999", lw=1, zorder=1)
    rx, rd = pos[None]
    ax.scatter([rx], [rd], marker="s", s=120, color=ROOT_COLOR, zorder=2)
    xs = [pos[n.node_id][0] for n in tree.nodes]
    ds = [pos[n.node_id][1] for n in tree.nodes]
    colors = [
        score_color(n.score) if color_by == "score" else agent_color(n.agent_id) for n in tree.nodes
    ]
    edges = ["#111" if n.passed else "white" for n in tree.nodes]
    widths = [2.5 if n.passed else 1.0 for n in tree.nodes]
    ax.scatter(xs, ds, s=140, c=colors, edgecolors=edges, linewidths=widths, zorder=3)
    best = metrics.best(tree.nodes)
    if best is not None:
        bx, bd = pos[best.node_id]
        ax.scatter([bx], [bd], s=420, facecolors="none", edgecolors="#111", zorder=2)
    ax.set_ylim(depth + 0.6, -0.6)
    ax.set_xlim(-0.8, width - 0.2)
    ax.axis("off")
    ax.set_title(f"{tree.problem_id} ({tree.source}) — {len(tree.nodes)} nodes", fontsize=10)
    handles = _png_legend(tree, run, color_by, Line2D)
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=5, fontsize=7)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def _png_legend(tree: Tree, run: Run, color_by: ColorBy, line: type) -> Sequence[object]:
    def dot(label: str, color: str, edge: str = "white", width: float = 1.0) -> object:
        return line(
            [], [], marker="o", ls="", label=label, markerfacecolor=color,
            markeredgecolor=edge, markeredgewidth=width, markersize=8,
        )  # fmt: skip

    if color_by == "score":
        handles = [dot(f"score {s:g}", score_color(s)) for s in (0.0, 0.5, 1.0)]
    else:
        ids = sorted({n.agent_id for n in tree.nodes})
        handles = [dot(run.agent_name(a), agent_color(a)) for a in ids]
    handles.append(dot("passes hidden tests", "#ddd", "#111", 2.5))
    handles.append(
        line([], [], marker="o", ls="", label="Pass@1(MCTS) pick", markerfacecolor="none",
             markeredgecolor="#111", markersize=12)
    )  # fmt: skip
    return handles
