"""Learning curves from metrics.jsonl: one chart per key family (`loss/agent0` -> `loss`),
headline families first; several runs are overlaid (colour = run, line style = series)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from mars2.report.runs import Run, Tree
from mars2.rundir import step_of

# Families shown first, in this order; every other family follows alphabetically.
HEADLINE_FAMILIES = ("eval", "train/reward", "train", "loss", "time")
NOT_PLOTTED = ("step", "time_s")
RUN_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf")
LINE_STYLES = ("-", "--", ":", "-.")
TITLES = {
    "eval": "Evaluation pass rates",
    "train/reward": "Training reward per agent",
    "train": "Training",
    "loss": "Policy loss per agent",
    "time": "Time per step, split (s)",
    "time/busy": "Busy seconds summed over concurrent trees",
    "machine": "Share of CPU time the hypervisor stole (step, evaluation)",
    "kl": "KL to the reference per agent",
    "clip_frac": "Clipped fraction per agent",
    "tis_mean": "Mean TIS weight per agent",
    "tokens": "Tokens per agent",
    "train/truncated": "Share of responses that hit max_new_tokens, per agent",
    "train/samples": "Samples after filtering and refill, per agent",
    "train/starved": "The agent's weights got no sample this step (1)",
    "train/entropy": "Sampling entropy per token (mean -log p of sampled tokens), per agent",
    "train/response_len": "Mean response tokens, per agent",
}


@dataclass(frozen=True)
class Chart:
    """One PNG chart: `name` is its file stem (e.g. `curve-train-reward`)."""

    name: str
    title: str
    png: bytes


def family(key: str) -> str:
    """`train/reward/agent0` -> `train/reward`; a key without a slash is its own family."""
    return key.rsplit("/", 1)[0] if "/" in key else key


def families(runs: Sequence[Run]) -> dict[str, list[str]]:
    """Family -> its keys (in first-seen order), headline families first."""
    found: dict[str, list[str]] = {}
    for run in runs:
        for row in run.steps:
            for key in row:
                if key in NOT_PLOTTED or _is_bound(key, row):
                    continue
                keys = found.setdefault(family(key), [])
                if key not in keys:
                    keys.append(key)
    order = [f for f in HEADLINE_FAMILIES if f in found]
    order += sorted(f for f in found if f not in order)
    return {f: found[f] for f in order}


def learning_curves(runs: Sequence[Run], dpi: int = 100) -> list[Chart]:
    """One chart per family over all runs with metrics.jsonl. One run's time split is stacked."""
    with_steps = [r for r in runs if r.steps]
    charts = []
    for name, keys in families(with_steps).items():
        stacked = name == "time" and len(with_steps) == 1 and len(keys) > 1
        if stacked:  # the phases' wall times stack up to the step; the total is not a phase
            keys = [k for k in keys if k != "time/step"]
        png = _plot(with_steps, name, keys, stacked, dpi)
        charts.append(Chart(f"curve-{_slug(name)}", TITLES.get(name, name), png))
    return charts


def tree_curves(runs: Sequence[Run], dpi: int = 100) -> list[Chart]:
    """Search quality over training, from trees/step_*.jsonl: per trees file (x = the number in
    its name) the mean best score and the tree-derived Pass@1(MCTS) and Pass@N. Empty unless a
    run has trees from at least two numbered files."""
    from matplotlib.figure import Figure

    from mars2.report.stats import tree_summary

    per_run = {run.name: _tree_points(run) for run in runs}
    per_run = {name: points for name, points in per_run.items() if len(points) >= 2}
    if not per_run:
        return []
    fig = Figure(figsize=(6.4, 3.6), dpi=dpi)
    ax = fig.add_subplot()
    keys = ("best score", "pass@1_mcts (trees)", "pass@n (trees)")
    for r, (name, points) in enumerate(per_run.items()):
        for k, key in enumerate(keys):
            xs = sorted(points)
            ys = [tree_summary(points[x])[key] for x in xs]
            label = f"{name}: {key}" if len(per_run) > 1 else key
            color = RUN_COLORS[r % len(RUN_COLORS)] if len(per_run) > 1 else None
            ax.plot(xs, ys, color=color, ls=LINE_STYLES[k], marker="o", ms=3, label=label)
    title = "Search trees per training step (trees/*.jsonl)"
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("step")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return [Chart("curve-trees", title, buf.getvalue())]


def _tree_points(run: Run) -> dict[int, list[Tree]]:
    """Trees grouped by the step their file name spells (`step_000003` -> 3)."""
    points: dict[int, list[Tree]] = {}
    for tree in run.trees:
        step = step_of(tree.source)
        if step is not None:
            points.setdefault(step, []).append(tree)
    return points


def _series(run: Run, key: str) -> tuple[list[float], list[float]]:
    points = [(row["step"], row[key]) for row in run.steps if key in row]
    return [p[0] for p in points], [p[1] for p in points]


def _plot(runs: Sequence[Run], name: str, keys: list[str], stacked: bool, dpi: int) -> bytes:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 3.6), dpi=dpi)
    ax = fig.add_subplot()
    several = len(runs) > 1
    if stacked:
        steps = [row["step"] for row in runs[0].steps]
        values = [[row.get(k, 0.0) for row in runs[0].steps] for k in keys]
        labels = [_label(k, name, runs[0]) for k in keys]
        ax.stackplot(steps, values, labels=labels, alpha=0.85)
    else:
        for r, run in enumerate(runs):
            for k, key in enumerate(keys):
                xs, ys = _series(run, key)
                if not xs:
                    continue
                label = _label(key, name, run)
                lows, highs = _series(run, f"{key}_lo")[1], _series(run, f"{key}_hi")[1]
                if len(lows) == len(xs) == len(highs):  # the 95% interval as a band
                    ax.fill_between(
                        xs,
                        lows,
                        highs,
                        alpha=0.15,
                        color=RUN_COLORS[r % len(RUN_COLORS)] if several else f"C{k}",
                        lw=0,
                    )
                ax.plot(
                    xs,
                    ys,
                    color=RUN_COLORS[r % len(RUN_COLORS)] if several else f"C{k}",
                    ls=LINE_STYLES[k % len(LINE_STYLES)] if several else "-",
                    marker="o" if len(xs) < 12 else None,
                    ms=3,
                    label=f"{run.name}: {label}" if several else label,
                )
    ax.set_title(TITLES.get(name, name), fontsize=10)
    ax.set_xlabel("step")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def _is_bound(key: str, row: dict[str, float]) -> bool:
    """`eval/pass@1_lo` and `_hi` are drawn as the band of `eval/pass@1`, not as curves."""
    return key.endswith(("_lo", "_hi")) and key[:-3] in row


def _label(key: str, name: str, run: Run) -> str:
    """The part of `key` after its family (`loss/agent0` -> `agent0`), or the key itself;
    `agent<i>` becomes the agent's name from the config."""
    label = key[len(name) + 1 :] if key.startswith(name + "/") else key
    match = re.fullmatch(r"agent(\d+)", label)
    return run.agent_name(int(match.group(1))) if match else label


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"
