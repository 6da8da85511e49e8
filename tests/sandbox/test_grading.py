"""Reference solutions pass, wrong ones get the right verdict, each limit fires, feedback."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import time

import pytest
from sandbox_cases import ASSERT, FAST, FUNC, REFERENCE, REFERENCE_STDIN, STDIN

from mars2.errors import InfraError, UserError
from mars2.sandbox import Sandbox
from mars2.types import Problem, TestCase

SUM_EVENS = Problem(
    "sum-evens",
    "Return the sum of the even numbers in xs.",
    "functional",
    (TestCase([[1, 2, 3, 4]], 6),),
    (TestCase([[]], 0), TestCase([[2, 2]], 4)),
    fn_name="sum_evens",
)
GOOD = "def sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 0)\n"


@pytest.mark.parametrize(
    ("problem", "code"),
    [(FUNC, REFERENCE), (ASSERT, REFERENCE), (STDIN, REFERENCE_STDIN), (SUM_EVENS, GOOD)],
)
def test_reference_solutions_pass(sandbox: Sandbox, problem: Problem, code: str) -> None:
    result = sandbox.run(code, problem)
    assert [t.verdict for t in result.tests] == ["pass"] * len(problem.tests("all"))
    assert result.passed and result.pass_fraction == 1.0 and result.feedback == ""


def test_solution_class_method_is_called(sandbox: Sandbox) -> None:
    code = "class Solution:\n    def sum_evens(self, xs):\n        return sum(x for x in xs if x % 2 == 0)\n"
    assert sandbox.run(code, SUM_EVENS).passed


def test_tuples_compare_as_json_lists(sandbox: Sandbox) -> None:
    problem = Problem("pair", "", "functional", (TestCase([1], [1, 2]),), fn_name="g")
    assert sandbox.run("def g(x):\n    return (x, x + 1)\n", problem).passed


def test_stdin_ignores_trailing_whitespace_only(sandbox: Sandbox) -> None:
    problem = Problem("lines", "", "stdin", (TestCase("", "a b\nc\n"),))
    assert sandbox.run("print('a b   ')\nprint('c')\nprint()\n", problem).passed
    assert not sandbox.run("print('a  b')\nprint('c')\n", problem).passed


def test_wrong_answer_verdicts_and_detail(sandbox: Sandbox) -> None:
    result = sandbox.run("def sum_evens(xs):\n    return sum(xs)\n", SUM_EVENS)
    assert [t.verdict for t in result.tests] == ["wrong", "pass", "pass"]
    assert result.tests[0].detail == "10"
    assert result.pass_fraction == pytest.approx(2 / 3)
    wrong_assert = sandbox.run("def f(x):\n    return 0\n", ASSERT)
    assert [t.verdict for t in wrong_assert.tests] == ["wrong", "wrong"]
    wrong_stdin = sandbox.run("print(1)\n", STDIN)
    assert [t.verdict for t in wrong_stdin.tests] == ["wrong", "wrong"]


def test_exception_is_an_error_with_traceback(sandbox: Sandbox) -> None:
    result = sandbox.run("def sum_evens(xs):\n    return 1 // 0\n", SUM_EVENS)
    assert {t.verdict for t in result.tests} == {"error"}
    assert "ZeroDivisionError" in result.tests[0].detail
    syntax = sandbox.run("def sum_evens(xs) return 1\n", SUM_EVENS)
    assert {t.verdict for t in syntax.tests} == {"error"}
    assert "SyntaxError" in syntax.tests[0].detail


@pytest.mark.parametrize(
    ("code", "verdict"),
    [
        ("import time\ndef sum_evens(xs):\n    time.sleep(30)\n", "timeout"),
        ("def sum_evens(xs):\n    while True: pass\n", "timeout"),
        ("def sum_evens(xs):\n    return len(bytearray(2**31))\n", "memory"),
        ("def sum_evens(xs):\n    print('x' * 10**6)\n    return 0\n", "output_limit"),
        ("def sum_evens(xs):\n    open('big', 'wb').write(b'x' * 2**21)\n    return 0\n", "error"),
    ],
    ids=["wall", "cpu", "memory", "output", "file_size"],
)
def test_each_limit_fires(sandbox: Sandbox, code: str, verdict: str) -> None:
    result = sandbox.run(code, SUM_EVENS, "public")
    assert result.tests[0].verdict == verdict
    assert sandbox.run(GOOD, SUM_EVENS).passed


def test_process_limit_fires(sandbox: Sandbox) -> None:
    code = (
        "import threading, time\n"
        "def sum_evens(xs):\n"
        "    for _ in range(64):\n"
        "        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n"
        "    return 6\n"
    )
    assert sandbox.run(code, SUM_EVENS, "public").tests[0].verdict == "error"


def test_timeout_on_one_test_does_not_sink_the_others(sandbox: Sandbox) -> None:
    code = "import time\ndef sum_evens(xs):\n    if not xs: time.sleep(30)\n    return sum(x for x in xs if x % 2 == 0)\n"
    result = sandbox.run(code, SUM_EVENS)
    assert [t.verdict for t in result.tests] == ["pass", "timeout", "pass"]


def test_feedback_describes_only_the_failing_tests_that_ran(sandbox: Sandbox) -> None:
    code = "def sum_evens(xs):\n    return 99\n"
    public = sandbox.run(code, SUM_EVENS, "public")
    assert "Input: [[1, 2, 3, 4]]" in public.feedback and "Expected: 6" in public.feedback
    assert "Got: 99" in public.feedback and "[[2, 2]]" not in public.feedback
    private = sandbox.run(code, SUM_EVENS, "private")
    assert "[[2, 2]]" in private.feedback and "[[1, 2, 3, 4]]" not in private.feedback
    crash = sandbox.run("def sum_evens(xs):\n    raise ValueError('boom')\n", SUM_EVENS, "public")
    assert "ValueError: boom" in crash.feedback
    slow = sandbox.run("def sum_evens(xs):\n    while True: pass\n", SUM_EVENS, "public")
    assert "timed out" in slow.feedback


def test_feedback_is_truncated(sandbox: Sandbox) -> None:
    many = dataclasses.replace(SUM_EVENS, public_tests=SUM_EVENS.public_tests * 40)
    result = sandbox.run("def sum_evens(xs):\n    return 'x' * 250\n", many, "public")
    assert len(result.feedback) <= FAST.feedback_chars


def test_run_many_keeps_input_order() -> None:
    config = dataclasses.replace(FAST, workers=2)
    codes = [f"def sum_evens(xs):\n    return {k}\n" for k in range(8)]
    with Sandbox(config) as box:
        results = box.run_many([(c, SUM_EVENS, "public") for c in codes])
        assert [r.tests[0].detail or "6" for r in results] == [str(k) for k in range(8)]
        assert box.stats.runs == 8


def test_arun_does_not_block_the_event_loop(sandbox: Sandbox) -> None:
    async def main() -> tuple[int, bool]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        task = asyncio.create_task(ticker())
        code = "import time\ndef sum_evens(xs):\n    time.sleep(0.4)\n    return 6\n"
        result = await sandbox.arun(code, SUM_EVENS, "public")
        task.cancel()
        return ticks, result.passed

    ticks, passed = asyncio.run(main())
    assert passed and ticks >= 10


def test_functional_problem_without_fn_name_is_a_user_error(sandbox: Sandbox) -> None:
    with pytest.raises(UserError, match="fn_name"):
        sandbox.run("x = 1", dataclasses.replace(SUM_EVENS, fn_name=None))


def test_infra_failures_stop_the_run_past_the_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    with Sandbox(dataclasses.replace(FAST, max_infra_rate=0.1)) as box:
        assert box.run(GOOD, SUM_EVENS).passed
        monkeypatch.setattr(box, "_execute", lambda *a: ([], "ok"))
        first = box.run(GOOD, SUM_EVENS)
        assert {t.verdict for t in first.tests} == {"infra"} and not first.passed
        box.run(GOOD, SUM_EVENS)
        with pytest.raises(InfraError, match="max_infra_rate"):
            box.run(GOOD, SUM_EVENS)
        assert box.stats.infra_runs == 3


def test_stats_count_runs_and_verdicts(sandbox: Sandbox) -> None:
    before = sandbox.stats
    sandbox.run(GOOD, SUM_EVENS)
    after = sandbox.stats
    assert after.runs == before.runs + 1 and after.tests == before.tests + 3
    assert after.verdicts["pass"] == before.verdicts.get("pass", 0) + 3


def test_a_warm_run_is_fast(sandbox: Sandbox) -> None:
    sandbox.run(GOOD, SUM_EVENS)
    start = time.perf_counter()
    for _ in range(10):
        sandbox.run(GOOD, SUM_EVENS)
    assert (time.perf_counter() - start) / 10 < 0.5


def test_a_broken_test_program_is_infra_not_the_candidates_fault(sandbox: Sandbox) -> None:
    problem = Problem("bad-test", "", "assert", (TestCase(test="assert f(3) ==="),))
    result = sandbox.run(REFERENCE, problem)
    assert result.tests[0].verdict == "infra" and "does not compile" in result.tests[0].detail


def test_large_inputs_and_outputs_cross_the_pipes() -> None:
    config = dataclasses.replace(FAST, max_output_bytes=4_000_000)
    text = "x" * 2_000_000
    stdin = Problem("big-stdin", "", "stdin", (TestCase(text + "\n", text + "\n"),))
    func = Problem("big-func", "", "functional", (TestCase([text], len(text)),), fn_name="g")
    with Sandbox(config) as box:
        assert box.run("print(input())\n", stdin).passed
        assert box.run("def g(s):\n    return len(s)\n", func).passed


def test_auto_falls_back_when_a_level_does_not_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mars2.sandbox import isolation, pool

    real = isolation.worker_command

    def broken_best(level: str, cpu: int | None = None) -> list[str]:
        return ["/bin/false"] if level == "bwrap" else real(level, cpu)  # type: ignore[arg-type]

    monkeypatch.setattr(pool, "worker_command", broken_best)
    monkeypatch.setattr(pool, "available_levels", lambda _: ["bwrap", "rlimit"])
    with Sandbox(FAST) as box:
        assert box.isolation == "rlimit"
        assert box.run(GOOD, SUM_EVENS).passed
    assert "bwrap failed to start" in caplog.text


def test_no_level_starting_is_an_infra_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from mars2.sandbox import pool

    monkeypatch.setattr(pool, "worker_command", lambda level, cpu=None: ["/bin/false"])
    with pytest.raises(InfraError, match="could not start a sandbox worker"):
        Sandbox(FAST)


@pytest.mark.parametrize(
    "code",
    [
        "import sys\nd = sys.stdin.buffer.read().decode().split('\\n')\nprint(sum(map(int, d[0].split())))\nprint(d[1])\n",
        "d = open(0).read().split('\\n')\nprint(sum(map(int, d[0].split())))\nprint(d[1])\n",
        "import os\nprint(7)\nprint('hé', flush=True)\nos._exit(0)\n",
        "print(7)\nprint('hé')\nexit(0)\n",
        "print(7)\nprint('hé')\nquit()\n",
    ],
    ids=["buffer", "open0", "os_exit_after_flush", "exit", "quit"],
)
def test_stdin_programs_read_and_exit_the_usual_ways(sandbox: Sandbox, code: str) -> None:
    problem = Problem("io", "", "stdin", (TestCase("3 4\nhé\n", "7\nhé\n"),))
    assert sandbox.run(code, problem).passed


def test_nonzero_exit_is_an_error(sandbox: Sandbox) -> None:
    problem = Problem("io", "", "stdin", (TestCase("", "7\n"),))
    result = sandbox.run("print(7)\nraise SystemExit(3)\n", problem)
    assert result.tests[0].verdict == "error" and "status 3" in result.tests[0].detail


def test_worker_cpus_pin_only_with_one_worker_per_usable_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mars2.sandbox import pool

    monkeypatch.setattr(pool.os, "sched_getaffinity", lambda _pid: {5, 2, 7})
    config = dataclasses.replace(FAST, workers=3)
    assert pool._worker_cpus(config) == [2, 5, 7]
    assert pool._worker_cpus(dataclasses.replace(config, workers=2)) == [None] * 2
    assert pool._worker_cpus(dataclasses.replace(config, workers=4)) == [None] * 4
    assert pool._worker_cpus(dataclasses.replace(config, pin_cpus=False)) == [None] * 3
    assert pool._worker_cpus(dataclasses.replace(config, workers=1)) == [None]


@pytest.mark.parametrize("pin", [True, False])
def test_pinned_workers_run_their_candidates_on_their_own_cpu(pin: bool) -> None:
    cpus = sorted(os.sched_getaffinity(0))
    if not 2 <= len(cpus) <= 8:
        pytest.skip("needs 2-8 usable CPUs (one worker each)")
    probe = Problem("cpus", "", "functional", (TestCase([], None),), fn_name="f")
    code = "import os\ndef f():\n    return sorted(os.sched_getaffinity(0))\n"
    config = dataclasses.replace(FAST, workers=len(cpus), pin_cpus=pin)
    with Sandbox(config) as box:
        assert [w.cpu for w in box._workers] == (cpus if pin else [None] * len(cpus))
        seen = set()
        for result in box.run_many([(code, probe, "all")] * 4 * len(cpus)):
            test = result.tests[0]  # expected None: `wrong`, its detail the JSON returned
            assert test.verdict == "wrong", test
            seen.add(tuple(json.loads(test.detail)))
    if pin:  # each candidate on its worker's one CPU
        assert seen and seen <= {(cpu,) for cpu in cpus}
    else:
        assert seen == {tuple(cpus)}
