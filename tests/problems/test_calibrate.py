"""`mars2 problems calibrate`: per-problem pass counts (scripted agents with known answers), the
rates file, the histogram, and the CLI end to end with tiny-random."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from fakes import RIGHT, SUM_EVENS, WRONG, ScriptedPolicy, fenced
from mars2.cli import main
from mars2.config import load_config
from mars2.evaluation.calibrate import (
    ProblemRate,
    bin_labels,
    calibrate,
    calibration_config,
    histogram,
    histogram_png,
    read_rates,
    write_rates,
)

# passes the public tests but not the private ones ([2, 2] -> 4, [-2, 1] -> -2)
PUBLIC_ONLY = (
    "def sum_evens(xs):\n    return {(1, 2, 3, 4): 6, (): 0, (5,): 0}.get(tuple(xs), 99)\n"
)


def config(samples_agents: int = 1):  # type: ignore[no-untyped-def]
    agents = ", ".join(
        f"{{name: a{i}, model: tiny-random, role: coder, trainable: false}}"
        for i in range(samples_agents)
    )
    # one expansion at a time: ScriptedPolicy hands out its answers in request order
    overrides = [f"agents=[{agents}]", "sandbox.workers=1", "search.parallel_expansions=1"]
    return load_config(None, overrides)


def test_calibration_config_is_sampling_with_budget_n() -> None:
    cfg = calibration_config(config(), 5)
    assert (cfg.search.algo, cfg.search.budget) == ("sampling", 5)
    with pytest.raises(ValueError):
        calibration_config(config(), 0)


def test_counts_passes_on_all_tests_per_problem() -> None:
    # 8 samples in request order: right 3 times, wrong 3 times, public-only twice
    answers = [
        fenced(c) for c in (RIGHT, WRONG, PUBLIC_ONLY, RIGHT, WRONG, RIGHT, PUBLIC_ONLY, WRONG)
    ]
    policy = ScriptedPolicy(answers)
    seen: list[ProblemRate] = []
    rates = calibrate(config(), [SUM_EVENS], 8, seen.append, policies=[policy])
    assert len(policy.requests) == 8
    assert [(r.id, r.n, r.passes) for r in rates] == [("sum-evens", 8, 3)]
    assert rates[0].pass_at_1 == pytest.approx(3 / 8)
    assert seen == rates
    assert not policy.closed, "policies given by the caller stay open"


def test_a_problem_without_public_tests_counts_its_passes() -> None:
    # every test is hidden: the search score (public fraction) is 0 even for the right program
    hidden_only = dataclasses.replace(
        SUM_EVENS,
        id="hidden-only",
        public_tests=(),
        private_tests=SUM_EVENS.public_tests + SUM_EVENS.private_tests,
    )
    answers = [fenced(c) for c in (RIGHT, WRONG, PUBLIC_ONLY, RIGHT)]
    rates = calibrate(config(), [hidden_only], 4, policies=[ScriptedPolicy(answers)])
    assert [(r.id, r.n, r.passes) for r in rates] == [("hidden-only", 4, 2)]


def test_every_sample_is_a_fresh_attempt_from_the_generate_prompt() -> None:
    policy = ScriptedPolicy([fenced(WRONG)])
    rates = calibrate(config(), [SUM_EVENS, SUM_EVENS], 3, policies=[policy])
    assert [(r.n, r.passes) for r in rates] == [(3, 0), (3, 0)]
    # no refinement prompt (it would show the previous code and its feedback)
    assert all("Previous code" not in m[-1]["content"] for m, _ in policy.requests)


def rate(pid: str, n: int, passes: int, split: str = "train") -> ProblemRate:
    return ProblemRate(pid, "fam", "easy", split, n, passes)


def test_histogram_bins_and_rates_file_round_trip(tmp_path: Path) -> None:
    rates = [rate("a", 4, 0), rate("b", 4, 1), rate("c", 4, 2), rate("d", 4, 3), rate("e", 4, 4)]
    # 0 | (0, .05] | (.05, .2] | (.2, .4] | (.4, .7] | (.7, 1]
    assert histogram(rates) == [1, 0, 0, 1, 1, 2]
    assert histogram([rate("f", 40, 2)]) == [0, 1, 0, 0, 0, 0]
    assert bin_labels()[0] == "0" and bin_labels()[-1] == "(0.7, 1]"
    path = tmp_path / "r" / "rates.jsonl"
    write_rates(rates, path)
    assert read_rates(path) == rates
    row = json.loads(path.read_text().splitlines()[1])
    assert row == {
        "id": "b", "family": "fam", "difficulty": "easy", "split": "train",
        "n": 4, "passes": 1, "pass@1": 0.25,
    }  # fmt: skip
    png = tmp_path / "hist.png"
    histogram_png([*rates, rate("g", 4, 1, "test")], png, "title")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_with_tiny_random(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cal" / "rates.jsonl"
    argv = [
        "problems", "calibrate", "bundled:core-test", "--agents", "tiny-random",
        "--samples", "2", "--limit", "3", "--shuffle", "--out", str(out),
        "--set", "agents.0.max_new_tokens=16", "--set", "sandbox.workers=1",
    ]  # fmt: skip
    assert main(argv) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 3 and all(r["n"] == 2 and 0 <= r["passes"] <= 2 for r in rows)
    assert all(r["split"] == "test" and r["family"] for r in rows)
    assert out.with_suffix(".png").is_file()
    assert not out.with_suffix(".partial.jsonl").exists()
    text = capsys.readouterr().out
    assert "bundled:core-test" in text and "(0.4, 0.7]" in text and "mean" in text


def test_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["problems", "calibrate", "bundled:core", "--samples", "0"]) != 0
    assert "--samples" in capsys.readouterr().err
