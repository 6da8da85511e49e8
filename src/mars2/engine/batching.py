"""The generation engine thread shared by the hf and vllm backends: continuous batching.

`await engine.submit(prompt_ids, seed)` stages a request; requests made in the same event-loop
turn (e.g. one `asyncio.gather`) reach the engine thread together. The thread loops: admit
waiting requests while there is room (`max_batch` rows), run one step, hand finished
completions back to each caller's event loop thread-safely. The event loop never blocks on the
model, and a request that arrives mid-batch joins it at the next step. Subclasses say how to
admit rows and run a step.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from mars2.types import Completion

JOIN_TURNS = 3  # event-loop turns a request waits for others made at the same time


@dataclass(eq=False)
class Pending:
    """A request waiting for, or being, generated."""

    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Completion]
    prompt_ids: list[int]
    seed: int


class Engine(ABC):
    """Owns one background thread that drives a model; subclasses implement the four hooks."""

    def __init__(self, name: str, max_batch: int) -> None:
        self._engine_name = name
        self._max_batch = max_batch
        self._cond = threading.Condition()  # guards the inbox and `_closed`
        self._inbox: list[list[Pending]] = []  # groups of requests made together
        self._staged: dict[asyncio.AbstractEventLoop, list[Pending]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.batches = 0  # admitted groups
        self.steps = 0
        self.row_steps = 0  # rows summed over steps

    # ---------------------------------------------------------------- hooks (engine thread)

    @abstractmethod
    def _active(self) -> int:
        """Rows in flight."""

    def _can_admit(self) -> bool:
        """Whether new rows may join now (False: wait until the batch drains)."""
        return True

    @abstractmethod
    def _admit(self, requests: list[Pending]) -> None:
        """Start generating `requests`."""

    @abstractmethod
    def _step(self) -> list[tuple[Pending, Completion]]:
        """Advance every row; return the finished ones."""

    @abstractmethod
    def _abort(self) -> list[Pending]:
        """Drop every row after a failure; return their requests."""

    # ---------------------------------------------------------------- event-loop side

    async def submit(self, prompt_ids: list[int], seed: int) -> Completion:
        loop = asyncio.get_running_loop()
        pending = Pending(loop, loop.create_future(), prompt_ids, seed)
        staged = self._staged.setdefault(loop, [])
        staged.append(pending)
        if len(staged) == 1:
            task = loop.create_task(self._deliver_staged(loop))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await pending.future

    async def _deliver_staged(self, loop: asyncio.AbstractEventLoop) -> None:
        for _ in range(JOIN_TURNS):
            await asyncio.sleep(0)
        group = self._staged.pop(loop, [])
        if group:
            with self._cond:
                if self._thread is None or not self._thread.is_alive():
                    self._closed = False
                    self._thread = threading.Thread(
                        target=self._run, name=self._engine_name, daemon=True
                    )
                    self._thread.start()
                self._inbox.append(group)
                self._cond.notify()

    def close_engine(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    # ---------------------------------------------------------------- engine thread

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed and not self._inbox and not self._active():
                    self._cond.wait()
                if self._closed:
                    return
                new = self._take() if self._can_admit() or not self._active() else []
            try:
                if new:
                    self._admit(new)
                    self.batches += 1
                self.steps += 1
                self.row_steps += self._active()
                done = self._step()
            except Exception as err:  # noqa: BLE001 - re-raised in every waiting caller
                for p in {id(p): p for p in new + self._abort()}.values():
                    _deliver(p, _fail, err)
                continue
            for pending, completion in done:
                _deliver(pending, _succeed, completion)

    def _take(self) -> list[Pending]:
        """Requests from the inbox that fit (a group may be split); call with `_cond` held."""
        room = self._max_batch - self._active()
        taken: list[Pending] = []
        while self._inbox and room > 0:
            group = [p for p in self._inbox.pop(0) if not p.future.cancelled()]
            taken.extend(group[:room])
            if len(group) > room:
                self._inbox.insert(0, group[room:])
            room -= min(room, len(group))
        return taken

    def engine_stats(self) -> dict[str, float]:
        return {
            "batches": float(self.batches),
            "steps": float(self.steps),
            "mean_batch_size": self.row_steps / self.steps if self.steps else 0.0,
        }


def _deliver(pending: Pending, setter: Any, value: Any) -> None:
    """Hand a result to the caller's event loop (dropped if that loop has closed)."""
    with contextlib.suppress(RuntimeError):
        pending.loop.call_soon_threadsafe(setter, pending.future, value)


def _succeed(future: asyncio.Future[Completion], completion: Completion) -> None:
    if not future.done():
        future.set_result(completion)


def _fail(future: asyncio.Future[Completion], err: Exception) -> None:
    if not future.done():
        future.set_exception(err)
