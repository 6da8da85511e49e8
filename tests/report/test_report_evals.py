"""Evaluations in the report: intervals per evaluation, paired comparisons within and across runs."""

from __future__ import annotations

import random
from pathlib import Path

from report_fakes import make_train_run, write_config, write_eval

from mars2.report import load_runs, stats, write_report


def test_evaluations_and_pairings(tmp_path: Path) -> None:
    one = make_train_run(tmp_path / "one", seed=0)
    two = make_train_run(tmp_path / "two", seed=1)
    other = tmp_path / "other"
    write_config(other)
    write_eval(other / "eval.json", random.Random(0), 0.5, "eval.budget=8")
    runs = load_runs([one, two, other])
    rows = stats.eval_rows(runs[0])
    assert [r["evaluation"] for r in rows] == ["evals/step_000000/eval", "evals/step_000006/eval"]
    assert rows[0]["problems"] == 20 and rows[0]["pass@1"].count("[") == 1
    pairs = stats.pairings(runs)
    titles = [p.title for p in pairs]
    assert titles[0].startswith("one: A = evals/step_000000/eval")
    within = pairs[0]
    assert {r["metric"] for r in within.rows} >= {"pass@1", "pass@2", "pass@1_mcts", "pass@n"}
    assert all(r["problems"] == 20 and 0 <= r["p"] <= 1 for r in within.rows)
    across = [p for p in pairs if p.title.startswith("A = one")]
    assert len(across) == 2 and across[0].rows and not across[0].note
    assert "protocol.search.budget" in across[1].note and not across[1].rows

    report = write_report([one, two, other], tmp_path / "report")
    page = report.index.read_text()
    assert 'id="evaluations"' in page and "Paired comparisons" in page
    assert "protocol.search.budget" in page
