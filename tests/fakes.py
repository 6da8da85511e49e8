"""Test doubles shared by the test packages (importable as `fakes`): a scripted Policy and a
small problem with right and wrong answers. Fakes live here, never in the product.

ScriptedPolicy is the `scripted` backend of the agents issue.

Answers come from a function of the messages, or from a list used in request order; token
ids are the bytes of the answer and every log-prob is -1.0, so lengths and sums are known.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from mars2.types import Completion, Problem, TestCase

Messages = list[dict[str, str]]


class ScriptedPolicy:
    """Implements mars2.agents.base.Policy without a model."""

    tokenizer: Any | None = None

    def __init__(
        self, answers: Sequence[str] | Callable[[Messages], str], name: str = "scripted"
    ) -> None:
        self.name = name
        self._answers = answers
        self.requests: list[tuple[Messages, int | None]] = []
        self.closed = False

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        self.requests.append((messages, seed))
        await asyncio.sleep(0)  # yield like a real backend
        if callable(self._answers):
            text = self._answers(messages)
        else:
            text = self._answers[(len(self.requests) - 1) % len(self._answers)]
        ids = tuple(text.encode())
        prompt = tuple("".join(m["content"] for m in messages).encode())
        return Completion(text, prompt, ids, tuple(-1.0 for _ in ids), "stop")

    def stats(self) -> dict[str, float]:
        return {"requests": float(len(self.requests))}

    def close(self) -> None:
        self.closed = True

    def sync_weights(self, state_dict: Any = None) -> None:
        """Nothing to copy: a scripted policy has no weights."""


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


def fenced(code: str) -> str:
    return f"Here you go:\n```python\n{code}```\n"


def refines_to_right(messages: Messages) -> str:
    """Wrong on a fresh attempt, right when asked to refine (the prompt shows previous code)."""
    text = "\n".join(m["content"] for m in messages)
    return fenced(RIGHT if "return sum(xs)" in text else WRONG)


class DeferredLearner:
    """A learner that `submit`s like a Ray learner actor and trains only when its result is
    asked for: in one process it reproduces the overlapped pipeline (`train.overlap`), where
    the next rollout runs before the update lands. `events` notes ('submit' | 'train', n)."""

    def __init__(self, learner: Any, events: list[tuple[str, int]]) -> None:
        self.learner, self.events = learner, events
        self.submitted = 0

    def update(self, samples: list[Any], *args: Any) -> dict[str, float]:
        return self.submit(samples, *args).result()

    def submit(self, samples: list[Any], *args: Any) -> _Deferred:
        self.submitted += 1
        self.events.append(("submit", self.submitted))
        return _Deferred(self, self.submitted, samples, args)

    def state_dict(self) -> dict[str, Any]:
        return self.learner.state_dict()

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.learner.load_state_dict(state)


class _Deferred:
    def __init__(self, owner: DeferredLearner, n: int, samples: list[Any], args: Any) -> None:
        self.owner, self.n, self.samples, self.args = owner, n, samples, args

    def result(self) -> dict[str, float]:
        self.owner.events.append(("train", self.n))
        return self.owner.learner.update(self.samples, *self.args)
