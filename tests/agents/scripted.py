"""A deterministic fake Policy for tests (the `scripted` backend of the issue; tests only).

Answers come from a function of the messages, or from a list used in request order; token
ids are the bytes of the answer and every log-prob is -1.0, so lengths and sums are known.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from mars2.types import Completion

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
