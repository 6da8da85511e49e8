"""An asyncio queue that coalesces concurrent requests into batches run in a worker thread.

Callers `await queue.submit(request)`; a worker task takes the first waiting request, yields once
so that requests submitted in the same event-loop turn join it, and hands up to `max_batch`
requests to `run_batch` in a single background thread (the event loop never blocks on the
model). Requests that arrive while a batch runs form the next one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Req = TypeVar("Req")
Out = TypeVar("Out")

_JOIN_TURNS = 3  # event-loop turns the worker waits for concurrent submitters to join a batch


class BatchQueue(Generic[Req, Out]):
    """Coalesce concurrent `submit` calls into calls of `run_batch(list) -> list` (same order)."""

    def __init__(
        self, run_batch: Callable[[list[Req]], Sequence[Out]], max_batch: int, name: str = "gen"
    ) -> None:
        self._run_batch = run_batch
        self._max_batch = max_batch
        self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=name)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[tuple[Req, asyncio.Future[Out]]] | None = None
        self._worker: asyncio.Task[None] | None = None
        self.batch_sizes: list[int] = []

    async def submit(self, request: Req) -> Out:
        queue = self._ensure_worker()
        future: asyncio.Future[Out] = asyncio.get_running_loop().create_future()
        queue.put_nowait((request, future))
        return await future

    def _ensure_worker(self) -> asyncio.Queue[tuple[Req, asyncio.Future[Out]]]:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._queue is None or self._worker is None:
            # A new event loop (e.g. a later asyncio.run): the old queue belonged to the old one.
            self._loop = loop
            self._queue = asyncio.Queue()
            self._worker = loop.create_task(self._work(self._queue))
        return self._queue

    async def _work(self, queue: asyncio.Queue[tuple[Req, asyncio.Future[Out]]]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await queue.get()]
            for _ in range(_JOIN_TURNS):
                await asyncio.sleep(0)
            while len(batch) < self._max_batch and not queue.empty():
                batch.append(queue.get_nowait())
            batch = [(r, f) for r, f in batch if not f.cancelled()]
            if not batch:
                continue
            self.batch_sizes.append(len(batch))
            try:
                outs = await loop.run_in_executor(
                    self._executor, self._run_batch, [r for r, _ in batch]
                )
            except Exception as err:  # noqa: BLE001 - re-raised in every caller of the batch
                for _, f in batch:
                    if not f.done():
                        f.set_exception(err)
                continue
            for (_, f), out in zip(batch, outs, strict=True):
                if not f.done():
                    f.set_result(out)

    def close(self) -> None:
        if self._worker is not None and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._worker.cancel)
        self._worker = None
        self._executor.shutdown(wait=True, cancel_futures=True)
