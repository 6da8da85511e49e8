"""eval.json records, the protocol as data, and `mars2 compare` on hand-made evaluations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2.cli import main
from mars2.config import load_config
from mars2.errors import UserError
from mars2.evaluation import record
from mars2.evaluation.outcomes import ProblemOutcome
from mars2.evaluation.protocol import eval_search, problems_checksum, protocol
from mars2.problems import load_problems


def outcome(pid: str, passed: int, trees: int = 1) -> ProblemOutcome:
    return ProblemOutcome(pid, trees, trees, passed, passed, passed, trees, 0, trees - passed, 0)


def make(passes: dict[str, int], **changes: object) -> dict[str, object]:
    config = load_config(None, [f"{k}={v}" for k, v in changes.items()])
    return record.build(
        label="x",
        proto=protocol(config),
        seed=1,
        problems_checksum="sha256:abc",
        members=[],
        outcomes=[outcome(p, c) for p, c in passes.items()],
        resamples=500,
    )


def test_build_and_flat_metrics() -> None:
    rec = make({"a": 1, "b": 0, "c": 0, "d": 1})
    assert rec["metrics"]["pass@1"]["value"] == pytest.approx(0.5)
    flat = record.flat(rec)
    assert flat["eval/pass@1"] == pytest.approx(0.5)
    assert flat["eval/pass@1_lo"] <= 0.5 <= flat["eval/pass@1_hi"]
    assert {"eval/pass@1_mcts_hi", "eval/pass@n_lo"} <= set(flat)


def test_compare_pairs_shared_problems() -> None:
    a = make({"p1": 0, "p2": 0, "p3": 0, "p4": 1, "only-a": 1})
    b = make({"p1": 1, "p2": 1, "p3": 0, "p4": 1, "only-b": 0})
    diffs = record.compare(a, b)
    d = diffs["pass@1"]
    assert d.n == 4 and d.value == pytest.approx(0.5)
    assert (d.lo, d.hi) == (0.0, 1.0) and d.p_value == pytest.approx(0.5)
    same = record.compare(a, a)["pass@1_mcts"]
    assert same.value == 0.0 and same.p_value == 1.0
    with pytest.raises(UserError, match="no problem in common"):
        record.compare(make({"x": 1}), make({"y": 1}))


def test_compare_names_the_differing_protocol_field() -> None:
    a = make({"p": 1})
    b = make({"p": 1}, **{"eval.budget": 8})
    with pytest.raises(UserError, match=r"protocol\.search\.budget"):
        record.compare(a, b)
    c = make({"p": 1})
    c["problems_checksum"] = "sha256:other"
    with pytest.raises(UserError, match="problems_checksum"):
        record.compare(a, c)


def test_grpo_and_mcts_runs_share_the_evaluation_search() -> None:
    grpo = load_config(None, ["train.mode=grpo"])
    mcts = load_config(None, ["train.mode=mcts"])
    assert eval_search(grpo) == eval_search(mcts)
    assert eval_search(grpo).algo == "abmcts" and eval_search(grpo).budget >= 4
    assert protocol(grpo) == protocol(mcts)


def test_old_eval_keys_still_work() -> None:
    config = load_config(
        None, ["data.eval=bundled:basic", "data.eval_limit=5", "train.eval_budget=6"]
    )
    assert (config.eval.problems, config.eval.limit, config.eval.budget) == ("bundled:basic", 5, 6)


def test_old_eval_keys_in_a_file_still_work(tmp_path: Path) -> None:
    file = tmp_path / "old.yaml"
    file.write_text("data:\n  eval_limit: 7\ntrain:\n  eval_every: 3\n")
    config = load_config(file)
    assert (config.eval.limit, config.eval.every) == (7, 3)


def test_problems_checksum_changes_with_the_problems() -> None:
    problems = load_problems("bundled:basic-test", limit=3)
    assert problems_checksum(problems) == problems_checksum(list(problems))
    assert problems_checksum(problems) != problems_checksum(problems[:2])


def write(tmp_path: Path, name: str, rec: dict[str, object]) -> Path:
    return record.write(tmp_path / name / "eval.json", rec)


def test_find_a_run_directory_latest_eval(tmp_path: Path) -> None:
    rec = make({"p": 1})
    record.write(tmp_path / "run" / "evals" / "step_000000" / "eval.json", rec)
    latest = record.write(tmp_path / "run" / "evals" / "step_000016" / "eval.json", rec)
    assert record.find(tmp_path / "run") == latest
    with pytest.raises(UserError, match=r"no eval\.json"):
        record.find(tmp_path)


def test_compare_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path, "a", make({"p1": 0, "p2": 0, "p3": 1}))
    b = write(tmp_path, "b", make({"p1": 1, "p2": 1, "p3": 1}))
    assert main(["compare", str(a), str(tmp_path / "b"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["metrics"]["pass@1"]
    assert row["a"] == pytest.approx(1 / 3) and row["b"] == 1.0
    assert row["diff"] == pytest.approx(2 / 3) and row["p"] == pytest.approx(0.5)
    assert main(["compare", str(a), str(b)]) == 0
    assert "pass@1_mcts" in capsys.readouterr().out
    c = write(tmp_path, "c", make({"p1": 1}, **{"eval.samples": 2}))
    assert main(["compare", str(a), str(c)]) == 2
    assert "protocol.samples" in capsys.readouterr().err
