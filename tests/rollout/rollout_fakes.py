"""Test doubles. Fakes live here, never in the product."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mars2.types import Completion, Problem, TestCase

SUM_EVENS = Problem(
    id="sum-evens",
    statement="Return the sum of the even numbers in xs.",
    starter_code="def sum_evens(xs):\n",
    test_style="functional",
    fn_name="sum_evens",
    public_tests=(TestCase([[1, 2, 3, 4]], 6), TestCase([[]], 0), TestCase([[5]], 0)),
    private_tests=(TestCase([[2, 2]], 4), TestCase([[-2, 1]], -2)),
    solution="def sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 0)\n",
)
RIGHT = SUM_EVENS.solution or ""
WRONG = "def sum_evens(xs):\n    return sum(xs)\n"


class ScriptedPolicy:
    """A Policy whose answer is a function of the chat messages: deterministic, no model."""

    tokenizer: Any = None

    def __init__(self, name: str, answer: Callable[[list[dict[str, str]]], str]) -> None:
        self.name = name
        self.answer = answer
        self.calls: list[list[dict[str, str]]] = []
        self.synced = 0

    async def generate(
        self, messages: list[dict[str, str]], *, seed: int | None = None
    ) -> Completion:
        self.calls.append(messages)
        code = self.answer(messages)
        return Completion(
            text=f"Here you go:\n```python\n{code}```\n",
            prompt_ids=(1, 2, 3),
            response_ids=(4, 5, 6, 7),
            logprobs=(-0.5, -0.5, -0.5, -0.5),
        )

    def stats(self) -> dict[str, float]:
        return {"requests": float(len(self.calls))}

    def sync_weights(self, state_dict: Any = None) -> None:
        self.synced += 1

    def close(self) -> None:
        pass


def refines_to_right(messages: list[dict[str, str]]) -> str:
    """Wrong on a fresh attempt, right when asked to refine (the prompt shows previous code)."""
    text = "\n".join(m["content"] for m in messages)
    return RIGHT if "return sum(xs)" in text else WRONG
