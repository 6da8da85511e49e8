"""Simulated agents and sandbox for search studies (importable as `simulated`): each program is a
line `# sim:<public passed>:<all passed>:<nonce>`, so its verdicts are known without running it.

A `SimPolicy` writes a fresh attempt that passes with probability `fresh`; a refinement of a
failing parent passes with probability `repair`, else copies the parent byte for byte with
probability `copy`, else fails anew; a refinement of a passing parent copies it. A failing
program passes a uniform number (0..PUBLIC-1) of the PUBLIC public tests. The outcome is drawn
from the request seed, so a tree depends only on its seed. `SimSandbox` grades such programs and
counts its calls.
"""

from __future__ import annotations

import asyncio
import random
import re

from mars2.types import Completion, ExecResult, Problem, TestCase, TestResult, TestSet

PUBLIC, HIDDEN = 4, 2
PROGRAM = re.compile(r"# sim:(\d+):(\d):(\d+)")

SIM_PROBLEM = Problem(
    id="sim",
    statement="A simulated problem.",
    test_style="functional",
    fn_name="f",
    public_tests=tuple(TestCase([i], i) for i in range(PUBLIC)),
    private_tests=tuple(TestCase([i], i) for i in range(HIDDEN)),
)


def program(public: int, passed: bool, nonce: int) -> str:
    return f"def f(x):\n    return x  # sim:{public}:{int(passed)}:{nonce}\n"


class SimPolicy:
    """A Policy whose attempts pass at known rates (see the module docstring)."""

    tokenizer = None

    def __init__(self, fresh: float, repair: float, copy: float = 0.0, name: str = "sim") -> None:
        self.name = name
        self.fresh, self.repair, self.copy = fresh, repair, copy
        self.requests = 0

    async def generate(
        self, messages: list[dict[str, str]], *, seed: int | None = None
    ) -> Completion:
        self.requests += 1
        await asyncio.sleep(0)
        rng = random.Random(seed)
        shown = PROGRAM.findall("\n".join(m["content"] for m in messages))
        nonce = rng.randrange(10**9)
        if not shown:
            code = self._attempt(rng, self.fresh, nonce)
        else:
            public, passed, parent_nonce = shown[-1]
            parent = program(int(public), passed == "1", int(parent_nonce))
            if passed == "1" or rng.random() < self.copy:
                code = parent
            else:
                code = self._attempt(rng, self.repair, nonce)
        text = f"```python\n{code}```"
        ids = tuple(text.encode())
        return Completion(text, (1,), ids, tuple(-1.0 for _ in ids), "stop")

    def _attempt(self, rng: random.Random, rate: float, nonce: int) -> str:
        if rng.random() < rate:
            return program(PUBLIC, True, nonce)
        return program(rng.randrange(PUBLIC), False, nonce)

    def stats(self) -> dict[str, float]:
        return {"requests": float(self.requests)}

    def close(self) -> None:
        """Nothing to release."""

    def sync_weights(self, state_dict: object = None) -> None:
        """No weights."""


class SimSandbox:
    """Grades `program()` lines; `calls` counts the programs it was asked to run."""

    def __init__(self) -> None:
        self.calls = 0

    async def arun(self, code: str, problem: Problem, which: TestSet = "all") -> ExecResult:
        self.calls += 1
        match = PROGRAM.search(code)
        public, passed = (int(match[1]), match[2] == "1") if match else (0, False)
        if which == "public":
            verdicts = ["pass"] * public + ["wrong"] * (PUBLIC - public)
        else:
            verdicts = ["pass" if passed else "wrong"] * HIDDEN
        tests = tuple(TestResult(v) for v in verdicts)  # type: ignore[arg-type]
        return ExecResult(tests=tests, feedback=f"{public} of {PUBLIC} public tests pass")
