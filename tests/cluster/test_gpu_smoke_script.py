"""bench/gpu_smoke.sh (bench/gpu_check.py) on CPU: its arguments, the clear exit 1 when vllm is
missing, and its verdict and JSON summary on fabricated runs (eval.json, metrics.jsonl): it must
fail when a check fails or the local and Ray runs differ. The GPU runs themselves need a GPU."""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mars2.agents.hf import HFPolicy
from mars2.config import Config, load_config
from mars2.evaluation import record
from mars2.evaluation.outcomes import ProblemOutcome
from mars2.evaluation.protocol import protocol
from mars2.training.loop import Trainer
from mars2.training.placement import LocalPlacement

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "gpu_smoke.sh"
_spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "bench" / "gpu_check.py")
assert _spec is not None and _spec.loader is not None
gpu_check = importlib.util.module_from_spec(_spec)
sys.modules["gpu_check"] = gpu_check  # dataclasses look their module up
_spec.loader.exec_module(gpu_check)

PLAN = gpu_check.Plan(
    "test", steps=2, problems_per_step=2, eval_limit=4, eval_samples=1, backend_check=False
)
PROTOCOL = {"problems": "bundled:core-test", "limit": 4, "samples": 1, "search": {"algo": "abmcts"}}
BASE, GRPO, MARS2 = [0, 0, 1, 0], [1, 0, 1, 0], [1, 1, 1, 0]  # passed or not, per problem


def smoke(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=60, env=env
    )


def evaluation(passes: list[int], proto: dict[str, Any] = PROTOCOL) -> dict[str, Any]:
    outcomes = [
        ProblemOutcome(f"p{i}", 1, 1, p, p, p, 4, 0, 1 - p, 0) for i, p in enumerate(passes)
    ]
    return record.build(
        label="x",
        proto=proto,
        seed=0,
        problems_checksum="abc",
        members=[],
        outcomes=outcomes,
        resamples=200,
    )


def rows(steps: int = 2, **change: float) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"step": 0, "eval/pass@1": 0.25, "time/eval": 3.0}]
    for step in range(1, steps + 1):
        row = {"step": step, "train/nodes": 8, "loss/coder": 0.125, "grad_norm/coder": 0.5}
        out.append({**row, "logp_diff/coder": 0.001, "time/step": 9.0 * step, **change})
    return out


def fake_run(
    path: Path, metrics: list[dict[str, Any]], evals: dict[int, dict[str, Any]] | None = None
) -> Path:
    path.mkdir(parents=True)
    (path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in metrics))
    for step, data in (evals or {}).items():
        record.write(gpu_check.eval_path(path, step), data)
    return path


def fake_out(tmp_path: Path, ray_metrics: list[dict[str, Any]] | None = None) -> Path:
    """A finished check folder: GRPO and MARS² runs from the same base, MARS² again on Ray."""
    base = evaluation(BASE)
    fake_run(tmp_path / "grpo", rows(), {0: base, 2: evaluation(GRPO)})
    fake_run(tmp_path / "mars2", rows(), {0: base, 2: evaluation(MARS2)})
    fake_run(tmp_path / "mars2-ray", ray_metrics or rows(), {0: base, 2: evaluation(MARS2)})
    return tmp_path


PASSED = [gpu_check.Check("preflight", "pass", 1.0), gpu_check.Check("gemma3-270m", "skip")]


# ---------------------------------------------------------------- arguments


def test_help_describes_usage_and_exit_status() -> None:
    done = smoke("--help")
    assert done.returncode == 0
    assert "--quick" in done.stdout and "--compare" in done.stdout
    assert "1 a check failed or local and Ray metrics differ" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--out"], "argument --out: expected one argument"),
        (["--rtol", "lots"], "argument --rtol: 'lots' is not a number"),
        (["--atol", "-1"], "argument --atol: '-1' is negative"),
        (["--dtype", "int8"], "argument --dtype: invalid choice: 'int8'"),
        (["--compare", "only-one"], "argument --compare: expected 2 arguments"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    done = smoke(*args)
    assert done.returncode == 2
    assert message in done.stderr


def test_an_out_folder_with_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "grpo").mkdir()
    done = smoke("--out", str(tmp_path))
    assert done.returncode == 2
    assert f"--out {tmp_path} is not empty" in done.stderr


def test_quick_without_vllm_names_what_is_missing_and_exits_1(tmp_path: Path) -> None:
    fake = tmp_path / "site" / "vllm"  # an installed vllm is hidden by one that cannot import
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError(\"No module named 'vllm'\")\n")
    env = {
        **os.environ,
        "PYTHONPATH": f"{fake.parent}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
    }
    done = smoke("--quick", "--out", str(tmp_path / "out"), env=env)
    assert done.returncode == 1, done.stderr
    assert "FAIL preflight" in done.stdout
    assert "missing vllm (pip install vllm; import failed: No module named 'vllm')" in done.stdout
    summary = json.loads(done.stdout.splitlines()[-1])  # the last line is the JSON summary
    assert summary["passed"] is False and summary["mode"] == "quick"
    assert [c["name"] for c in summary["checks"]] == ["preflight"]
    assert summary["local_vs_ray"]["status"] == "not run"
    assert json.loads((tmp_path / "out" / "summary.json").read_text()) == summary


# ---------------------------------------------------------------- local vs Ray


def test_compare_only_passes_equal_metrics_and_ignores_times(tmp_path: Path) -> None:
    slower = [{k: v * 2 if k.startswith("time/") else v for k, v in r.items()} for r in rows()]
    a, b = fake_run(tmp_path / "a", rows()), fake_run(tmp_path / "b", slower)
    done = smoke("--compare", str(a), str(b))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS local and ray metrics agree" in done.stdout
    other = fake_run(tmp_path / "c", rows(**{"loss/coder": 0.25}))
    done = smoke("--compare", str(a), str(other))
    assert done.returncode == 1
    assert "step 1 loss/coder: local 0.125 ray 0.25" in done.stdout
    missing = smoke("--compare", str(a), str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "metrics.jsonl does not exist" in missing.stdout


@pytest.mark.parametrize(
    ("ray", "message"),
    [
        (rows(**{"loss/coder": 0.25}), "step 1 loss/coder: local 0.125 ray 0.25"),
        (rows(**{"extra/key": 1.0}), "step 1 extra/key: only in ray"),
        (rows(steps=1), "steps: local [0, 1, 2] ray [0, 1]"),
    ],
)
def test_metrics_that_differ_are_named(ray: list[dict[str, Any]], message: str) -> None:
    assert message in gpu_check.metric_differences(rows(), ray, 0.02, 0.001)


def test_tolerances_decide_what_differs() -> None:
    near = rows(**{"loss/coder": 0.126})
    assert gpu_check.metric_differences(rows(), near, 0.02, 0.001) == []
    assert gpu_check.metric_differences(rows(), near, 0.0, 0.0) != []


# ---------------------------------------------------------------- one training run


def test_a_good_run_has_no_problem(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "r", rows(), {0: evaluation(BASE), 2: evaluation(GRPO)})
    assert gpu_check.run_problems(run, 2) == []


@pytest.mark.parametrize(
    ("metrics", "evals", "message"),
    [
        (rows(steps=1), (0, 2), "training steps logged [1], expected 1..2"),
        (rows(**{"grad_norm/coder": 0.0}), (0, 2), "no update: grad_norm/coder is 0"),
        (rows(**{"grad_norm/coder": math.nan}), (0, 2), "step 1: NaN in grad_norm/coder"),
        (rows(**{"logp_diff/coder": 0.0136}), (0, 2), "step 1: logp_diff/coder 0.0136 > 0.005"),
        (rows(**{"logp_diff/coder": math.nan}), (0, 2), "step 1: logp_diff/coder nan > 0.005"),
        (rows(**{"loss/coder": math.nan}), (0, 2), "step 2: NaN in loss/coder"),
        (
            [{k: v for k, v in r.items() if k != "logp_diff/coder"} for r in rows()],
            (0, 2),
            "logp_diff/coder missing",
        ),
        (rows(), (0,), "evals/step_000002/eval.json missing"),
    ],
)
def test_a_bad_run_is_named(
    tmp_path: Path, metrics: list[dict[str, Any]], evals: tuple[int, ...], message: str
) -> None:
    run = fake_run(tmp_path / "r", metrics, {step: evaluation(BASE) for step in evals})
    assert any(message in problem for problem in gpu_check.run_problems(run, 2))


# ---------------------------------------------------------------- the summary and its verdict


def test_summary_of_good_runs_passes_with_intervals_and_paired_differences(
    tmp_path: Path,
) -> None:
    summary = gpu_check.summarize(fake_out(tmp_path), PLAN, PASSED, 0.02, 0.001, 12.3)
    assert summary["passed"] is True
    assert summary["local_vs_ray"] == {
        "rtol": 0.02,
        "atol": 0.001,
        "status": "pass",
        "differences": [],
    }
    assert summary["checks"][1] == {
        "name": "gemma3-270m",
        "status": "skip",
        "seconds": 0.0,
        "detail": "",
    }
    for name, passes in (("base", BASE), ("grpo", GRPO), ("mars2", MARS2)):
        assert set(summary["eval"][name]) == {"pass@1", "pass@1_mcts", "pass@n"}
        one = summary["eval"][name]["pass@1"]
        assert one["value"] == sum(passes) / 4 and one["lo"] <= one["value"] <= one["hi"]
    for label, want in (("grpo-base", 0.25), ("mars2-base", 0.5), ("mars2-grpo", 0.25)):
        diff = summary["differences"][label]["pass@1"]
        assert diff["diff"] == pytest.approx(want) and diff["lo"] <= diff["diff"] <= diff["hi"]
        assert diff["n"] == 4 and 0 <= diff["p"] <= 1
    assert summary["protocol"] == PROTOCOL
    json.dumps(summary)  # the printed line


def test_summary_fails_when_ray_differs(tmp_path: Path) -> None:
    out = fake_out(tmp_path, ray_metrics=rows(**{"train/nodes": 7}))
    summary = gpu_check.summarize(out, PLAN, PASSED, 0.02, 0.001, 1.0)
    assert summary["passed"] is False
    assert summary["local_vs_ray"]["status"] == "fail"
    assert "step 1 train/nodes: local 8 ray 7" in summary["local_vs_ray"]["differences"]


def test_summary_fails_when_a_check_failed(tmp_path: Path) -> None:
    checks = [*PASSED, gpu_check.Check("train-grpo", "fail", 5.0, "exit 1")]
    summary = gpu_check.summarize(fake_out(tmp_path), PLAN, checks, 0.02, 0.001, 1.0)
    assert summary["passed"] is False and summary["local_vs_ray"]["status"] == "pass"


def test_summary_fails_when_the_evaluations_cannot_be_paired(tmp_path: Path) -> None:
    out = fake_out(tmp_path)
    other = evaluation(MARS2, {**PROTOCOL, "limit": 8})
    record.write(gpu_check.eval_path(out / "mars2", 2), other)
    summary = gpu_check.summarize(out, PLAN, PASSED, 0.02, 0.001, 1.0)
    assert summary["passed"] is False
    assert "protocol.limit" in summary["differences"]["mars2-base"]["error"]
    assert "pass@1" in summary["differences"]["grpo-base"]


def test_runs_share_one_evaluation_protocol_and_equal_budgets() -> None:
    """The arms come from the pinned configs/gpu-check.yaml and differ only in the mode (and the
    Ray run in its placement): a GRPO group is as large as a MARS² tree, the same problems per
    step, no refill (one round per step), the same lr and training settings."""
    config = ROOT / gpu_check.CONFIG
    for plan in (gpu_check.FULL, gpu_check.QUICK):
        grpo, mars2, on_ray = (
            gpu_check.train_overrides(plan, mode, "float32", ray)
            for mode, ray in (("grpo", False), ("mcts", False), ("mcts", True))
        )
        configs = [load_config(config, overrides) for overrides in (grpo, mars2, on_ray)]
        assert configs[0].train.mode == "grpo" and configs[1].train.mode == "mcts"
        assert configs[2].cluster.backend == "ray" and configs[1].cluster.backend == "local"
        assert all(c.agents[0].backend == "vllm" and len(c.agents) == 1 for c in configs)
        assert protocol(configs[0]) == protocol(configs[1]) == protocol(configs[2])
        assert protocol(configs[0])["problems"] == "bundled:core-test"
        assert configs[0].data.train == "bundled:core"
        train = [c.train for c in configs]
        assert train[0].samples_per_problem == configs[1].search.budget == 4
        assert all(t.min_samples_per_agent == 0 and t.max_rollout_rounds == 1 for t in train)
        assert all(
            t.steps == plan.steps and t.problems_per_step == plan.problems_per_step for t in train
        )
        assert (
            train[0]
            == dataclasses.replace(train[1], mode="grpo")
            == dataclasses.replace(train[2], mode="grpo")
        )
        assert configs[0].agents == configs[1].agents == configs[2].agents
        assert configs[0].credit == configs[1].credit and configs[0].loss == configs[1].loss
    quick = gpu_check.train_overrides(gpu_check.QUICK, "mcts", "float32")
    assert load_config(config, quick).train.steps < gpu_check.FULL.steps


def test_docs_state_the_sizes_the_script_uses() -> None:
    text = " ".join((ROOT / "docs" / "distributed.md").read_text().split())
    full, quick = gpu_check.FULL, gpu_check.QUICK
    assert f"({full.steps} training steps of {full.problems_per_step} problems" in text
    assert f"{full.eval_limit} `bundled:core-test` problems x {full.eval_samples} trees" in text
    assert f"({quick.steps} steps of {quick.problems_per_step} problems" in text
    assert f"{quick.eval_limit} problems x {quick.eval_samples} tree, no backend check" in text


# ---------------------------------------------------------------- the weight-sync gate on real runs


class OwnEngine(LocalPlacement):
    """The one-process layout with the engine on its own copy of the weights, synced by copying
    the learner's into it as a vLLM or Ray engine is synced; the sync calls numbered in `skip`
    are dropped (the fault the GPU check must catch). Test-only."""

    def __init__(self, config: Config, skip: tuple[int, ...] = ()) -> None:
        super().__init__(config)
        for policy in self.policies:
            policy.close()
        learner = self._local[0]
        engine = copy.deepcopy(learner.model)
        self.policies = [HFPolicy(config.agents[0], engine, learner.tokenizer, seed=config.seed)]
        self.calls, self.skip = 0, skip

    def sync(self, agent_id: int) -> None:
        self.calls += 1
        if self.calls not in self.skip:
            self.policies[agent_id].sync_weights(self._local[agent_id].merged_state_dict())


@pytest.mark.slow
def test_the_gate_fails_a_skipped_weight_sync_and_passes_a_healthy_run(tmp_path: Path) -> None:
    """tiny-random, full fine-tuning, a reward with a spread (spread_reward.py) so the weights
    change at every step: with every sync the engine's log-probs are the learner's (~1e-7);
    with the first sync dropped, step 2 samples from the step-0 weights, and the gate names it,
    while the mean TIS weight stays within 0.1 of 1 (the old gate passed it)."""
    cfg = load_config(
        ROOT / "configs" / "smoke.yaml",
        [
            "agents=[{name: coder, model: tiny-random, max_new_tokens: 32, temperature: 1.0, "
            "rollout_dtype: model}]",
            "credit.reward=spread_reward:by_code",
            "train.steps=2",
            "train.checkpoint_every=0",
            "eval.limit=1",
            "output.tensorboard=false",
        ],
    )
    runs = {}
    for name, skip in (("healthy", ()), ("stale", (1,))):
        runs[name] = tmp_path / name
        runs[name].mkdir()
        Trainer(cfg, runs[name], OwnEngine(cfg, skip)).fit()
    assert gpu_check.run_problems(runs["healthy"], 2) == []
    problems = gpu_check.run_problems(runs["stale"], 2)
    assert len(problems) == 1 and problems[0].startswith("step 2: logp_diff/coder ")
    stale = gpu_check.read_rows(runs["stale"])[2]
    assert stale["logp_diff/coder"] > 5 * gpu_check.LOGP_DIFF_MAX["float32"]
    assert abs(stale["tis_mean/coder"] - 1) < 0.1
