"""An experiment's table as text: the rows `mars2 experiment` prints and OUT/results.md, from
the results.json object that `results.collect` builds (the numbers are computed there). No
torch."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from mars2.evaluation import record as eval_record
from mars2.experiment.results import CONDITIONAL, LABELS, METRICS
from mars2.rundir import ExperimentDir


def _interval(m: dict[str, Any] | None) -> str:
    if m is None:
        return "—"
    text = eval_record.interval(m["value"], m["lo"], m["hi"])
    return text + (" †" if m.get("interval") == CONDITIONAL else "")


def _p(p: float | None) -> str:
    return "—" if p is None or math.isnan(p) else f"{p:.3f}"


def _tested(label: str, d: dict[str, Any] | None) -> list[str]:
    """A comparison's cells: label, estimate [95% CI], p, p (Holm), conditional interval and p."""
    if d is None or math.isnan(d["diff"]):
        return [label, "—", "—", "—", "—"]
    estimate = f"{d['diff']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"
    if d.get("interval") == CONDITIONAL:
        return [label, estimate + " †", _p(d["p"]), _p(d.get("p_holm")), "(the same)"]
    fixed = d["conditional"]
    problems_only = f"[{fixed['lo']:+.3f}, {fixed['hi']:+.3f}] p={fixed['p']:.3f}"
    return [label, estimate, _p(d["p"]), _p(d.get("p_holm")), problems_only]


def _tokens(arm: dict[str, Any]) -> str:
    mean = arm["tokens"]["mean"]
    if arm["eval_only"] or mean is None:
        return "—"
    return f"{mean:,.0f} ({arm['planned_nodes']} nodes)"


def metric_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The metrics table as text: header and one row per arm."""
    head = [
        "arm",
        "seeds",
        "problems",
        *(f"{LABELS[m]} [95% CI]" for m in METRICS),
        "train tokens/seed (planned nodes)",
    ]
    body = [[arm["name"], *_figures(arm), _tokens(arm)] for arm in results["arms"]]
    return head, body


def _figures(entry: dict[str, Any]) -> list[str]:
    """An arm's (or a final evaluation's row's) cells: finished/planned seeds, problems, and
    each metric with its interval."""
    seeds = f"{len(entry['seeds'])}/{len(entry['seeds']) + len(entry['missing_seeds'])}"
    metrics = entry["metrics"] or {}
    return [seeds, str(entry["problems"]), *(_interval(metrics.get(m)) for m in METRICS)]


def _comparison_rows(
    results: dict[str, Any], key: str, what: str, skip_reference: bool
) -> tuple[list[str], list[list[str]]]:
    """One row per arm and metric of the arms' `key` comparisons (arms without one: a row of
    dashes against the reference, else skipped)."""
    head = ["arm", "metric", f"{what} [95% CI]", "p", "p (Holm)", f"{CONDITIONAL}: [95% CI], p"]
    body = []
    for arm in results["arms"]:
        if skip_reference and arm["name"] == results["reference"]:
            continue
        tested = arm.get(key)
        if key != "vs_reference" and tested is None:
            continue
        for m in METRICS:
            body.append([arm["name"], *_tested(LABELS[m], tested[m] if tested else None)])
    return head, body


def difference_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The differences against the reference as text: header and a row per other arm and
    metric."""
    return _comparison_rows(results, "vs_reference", f"Δ vs {results['reference']}", True)


def gain_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Each training arm's change from its step-0 to its final evaluation as text."""
    return _comparison_rows(results, "gain", "last − first", False)


def gain_difference_rows(results: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Each other training arm's change minus the reference arm's change as text."""
    what = f"change − {results['reference']}'s change"
    return _comparison_rows(results, "gain_vs_reference", what, True)


def change_note(results: dict[str, Any]) -> str | None:
    """Which training arms have no change during training (their runs skipped the step-0
    evaluation, `eval.before: false`), or None when every one has it."""
    without = [
        a["name"]
        for a in results["arms"]
        if not a["eval_only"] and a["seeds"] and a.get("gain") is None
    ]
    if not without:
        return None
    note = (
        f"No change during training for {', '.join(without)}: their runs have no step-0 "
        "evaluation (eval.before: false); Δ against an untrained arm measures them instead."
    )
    if results["reference"] in without and len(without) < sum(
        not a["eval_only"] and bool(a["seeds"]) for a in results["arms"]
    ):
        note += f" Without {results['reference']}'s change, no change is compared with it."
    return note


def precision_note(results: dict[str, Any]) -> str | None:
    """A warning when the trained runs' learners did not all compute alike (`train.precision:
    auto` is bf16 on CPUs with AMX tiles, fp32 on others), or some did not record it; None when
    all are alike."""
    runs = [
        (f"{a['name']}/seed{r['seed']}", r["precision"])
        for a in results["arms"]
        if not a["eval_only"]
        for r in a["runs"]
    ]
    kinds = {precision for _, precision in runs}
    if len(kinds) <= 1 and None not in kinds:
        return None
    said = ", ".join(f"{run} {precision or 'unrecorded'}" for run, precision in runs)
    return (
        f"Learner precision differs or is unrecorded across the trained runs ({said}): "
        "differences between their arms include it (environment.jsonl names each run's machine)."
    )


def final_title(section: dict[str, Any]) -> str:
    """`final evaluation alone: each agent alone, eval.budget=1` (the settings it changes)."""
    who = "each agent alone" if section["each_agent"] else "the team"
    how = ", ".join(section["set"]) or "the evaluation protocol unchanged"
    return f"final evaluation {section['name']}: {who}, {how}"


def _who(section: dict[str, Any], row: dict[str, Any]) -> list[str]:
    return [row["arm"], *([row["agent"]] if section["each_agent"] else [])]


def final_metric_rows(section: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A final evaluation's figures as text: a row per arm (and agent alone, `each_agent`)."""
    agent = ["agent alone"] if section["each_agent"] else []
    head = ["arm", *agent, "seeds", "problems", *(f"{LABELS[m]} [95% CI]" for m in METRICS)]
    return head, [[*_who(section, row), *_figures(row)] for row in section["rows"]]


def final_difference_rows(section: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """A final evaluation's differences against the reference arm's same evaluation (each agent
    alone: against the reference arm's first agent alone, as the header says)."""
    reference = section["reference"]
    against = reference["arm"] + (f"'s {reference['agent']} alone" if reference["agent"] else "")
    agent = ["agent alone"] if section["each_agent"] else []
    head = [
        "arm",
        *agent,
        "metric",
        f"Δ vs {against} [95% CI]",
        "p",
        "p (Holm)",
        f"{CONDITIONAL}: [95% CI], p",
    ]
    body = []
    for row in section["rows"]:
        if (row["arm"], row["agent"]) == (reference["arm"], reference["agent"]):
            continue
        tested = row["vs_reference"]
        for m in METRICS:
            cells = _tested(LABELS[m], tested[m] if tested else None)
            body.append([*_who(section, row), *cells])
    return head, body


def _markdown_table(head: list[str], body: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(head) + " |",
        "| " + " | ".join("---" for _ in head) + " |",
        *("| " + " | ".join(r) + " |" for r in body),
    ]


def _reading(results: dict[str, Any]) -> str:
    """How the figures were computed, for results.md."""
    ci, reference = results["ci"], results["reference"]
    return (
        "Each figure: the mean over problems of the per-problem value averaged over the arm's "
        f"seeds (training runs). With two or more runs per arm the {ci['level']:.0%} interval "
        "includes run-to-run variance: a t interval on the variance components of runs and "
        "problems (Welch-Satterthwaite degrees of freedom; with 3 runs about 2-4, so it is "
        'wide), and p is the t test of the same. Beside it, "conditional on these runs": '
        f"the percentile bootstrap over problems only ({ci['resamples']} resamples; for a "
        "difference, paired bootstrap and sign-flip p-value), which leaves out how another run "
        "of the same arm would differ. † marks a figure whose arm(s) have one finished run: "
        f"its interval and p are conditional on that run. Δ: arm − {reference} over the "
        "shared problems (problems paired, runs independent). p (Holm): Holm-adjusted over "
        f"the experiment's {results['holm']['tests']} p-values (every table here, the final "
        "evaluations' included: one family). Tokens: "
        "`tokens/generated` summed over training, mean per seed, beside the nodes the config "
        "plans (steps × problems per step × tree budget or GRPO group size)."
    )


def markdown(results: dict[str, Any]) -> str:
    """results.md: the tables and how to read them."""
    title = Path(results["experiment"]).name + (" (--quick)" if results["quick"] else "")
    reference = results["reference"]
    lines = [
        f"# Experiment {title}",
        "",
        *_markdown_table(*metric_rows(results)),
        "",
        f"Differences against the reference arm, {reference}:",
        "",
        *_markdown_table(*difference_rows(results)),
        "",
        _reading(results),
    ]
    head, body = gain_rows(results)
    if body:
        lines += [
            "",
            "Change during training: per run and problem, the final evaluation minus the "
            "step-0 one, averaged as above; then that change minus "
            f"{reference}'s. Unlike the Δ above it does not depend on where an arm starts (a "
            "team with another model starts elsewhere).",
            "",
            *_markdown_table(head, body),
        ]
        head, body = gain_difference_rows(results)
        if body:
            lines += ["", *_markdown_table(head, body)]
    for note in (change_note(results), precision_note(results)):
        if note:
            lines += ["", note]
    lines += _final_markdown(results)
    if results["allowed_differences"]:
        lines.append(
            "\nThe arms' evaluation protocols may differ in: "
            + ", ".join(results["allowed_differences"])
            + " (allowed by the experiment file)."
        )
    missing = [
        f"{a['name']} seeds {a['missing_seeds']}" for a in results["arms"] if a["missing_seeds"]
    ] + [
        f"{section['name']} of {'/'.join(_who(section, row))} seeds {row['missing_seeds']}"
        for section in results.get("final_evals", [])
        for row in section["rows"]
        if row["missing_seeds"]
    ]
    if missing:
        lines.append("\nNot finished yet: " + "; ".join(missing) + ".")
    return "\n".join(lines) + "\n"


def _final_markdown(results: dict[str, Any]) -> list[str]:
    """The final evaluations' sections of results.md."""
    sections = results.get("final_evals") or []
    if not sections:
        return []
    lines = [
        "",
        "Final evaluations (`final_evals`): more evaluations of every run's final weights after "
        "it finished (an eval-only arm: of its untrained team), each under its own settings; "
        "figures, intervals and Δ as above, Δ against the reference arm's same evaluation (each "
        "agent alone: against the reference arm's first agent alone). Their p-values are in the "
        "Holm family above.",
    ]
    for section in sections:
        title = final_title(section)
        lines += [
            "",
            f"## {title[0].upper()}{title[1:]}",
            "",
            *_markdown_table(*final_metric_rows(section)),
            "",
            *_markdown_table(*final_difference_rows(section)),
        ]
    return lines


def write(results: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """OUT/results.json and OUT/results.md."""
    out.mkdir(parents=True, exist_ok=True)
    json_file, md_file = ExperimentDir(out).results_json, ExperimentDir(out).results_md
    json_file.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    md_file.write_text(markdown(results), encoding="utf-8")
    return json_file, md_file
