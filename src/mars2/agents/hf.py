"""The `hf` backend: a transformers model driven by one engine thread with continuous batching.

`generate` renders the chat prompt and hands the request to the engine. Requests made in the
same event-loop turn (e.g. by `asyncio.gather`) are delivered together and prefilled as one
group; the engine thread then loops `Decoder.step` (mars2.agents.decode), admitting requests
that arrive meanwhile into the running batch (up to `max_batch_size` rows) instead of making
them wait for the slowest row. Results go back to each caller's event loop thread-safely, so
the event loop never blocks on the model. Each decode step holds a lock that `sync_weights`
shares, and runs with the model in eval mode (its training flag is restored after the step).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import torch

from mars2.agents.base import Messages, encode_chat, request_seed
from mars2.agents.decode import Decoder, Row
from mars2.config import AgentConfig
from mars2.types import Completion

_JOIN_TURNS = 3  # event-loop turns a request waits for others made at the same time


@dataclass
class _Pending:
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Completion]
    prompt_ids: list[int]
    seed: int


class HFPolicy:
    """A Policy on a transformers causal LM (shared with a learner or loaded by load_policy)."""

    def __init__(self, agent: AgentConfig, model: Any, tokenizer: Any, *, seed: int = 0) -> None:
        self.agent = agent
        self.name = agent.name or agent.model
        self.model = model
        self.tokenizer = tokenizer
        self._seed = seed
        self._n_requests = 0
        self._lock = threading.Lock()  # the model: decode steps vs sync_weights
        self._cond = threading.Condition()  # the inbox
        self._inbox: list[list[_Pending]] = []  # groups of requests made together
        self._staged: dict[asyncio.AbstractEventLoop, list[_Pending]] = {}
        self._thread: threading.Thread | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        eos = _eos_ids(model, tokenizer)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos[0]
        self._decoder_args = {
            "pad_id": pad,
            "eos_ids": eos,
            "temperature": agent.temperature,
            "top_p": agent.top_p,
            "max_new_tokens": agent.max_new_tokens,
        }
        self._counters = {
            "tokens_generated": 0.0,
            "prompt_tokens": 0.0,
            "generate_s": 0.0,
            "batches": 0.0,  # prefill groups
            "steps": 0.0,
            "row_steps": 0.0,
        }

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        prompt_ids = encode_chat(self.tokenizer, messages, self.agent.max_prompt_tokens)
        if seed is None:
            seed = request_seed(self._seed, self._n_requests)
        self._n_requests += 1
        loop = asyncio.get_running_loop()
        pending = _Pending(loop, loop.create_future(), prompt_ids, seed)
        staged = self._staged.setdefault(loop, [])
        staged.append(pending)
        if len(staged) == 1:
            task = loop.create_task(self._deliver_staged(loop))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await pending.future

    async def _deliver_staged(self, loop: asyncio.AbstractEventLoop) -> None:
        for _ in range(_JOIN_TURNS):
            await asyncio.sleep(0)
        group = self._staged.pop(loop, [])
        if group:
            self._start_engine()
            with self._cond:
                self._inbox.append(group)
                self._cond.notify()

    def generate_ids(self, prompts: list[list[int]], seeds: list[int]) -> list[Completion]:
        """Synchronous batch generation from token ids, in the calling thread (benchmarks)."""
        decoder = Decoder(self.model, **self._decoder_args)  # type: ignore[arg-type]
        finished: dict[int, Row] = {}
        with self._model_turn():
            decoder.admit([(i, p, s) for i, (p, s) in enumerate(zip(prompts, seeds, strict=True))])
        while decoder.rows:
            with self._model_turn():
                finished.update((row.key, row) for row in decoder.step())
        return [self._completion(finished[i]) for i in range(len(prompts))]

    def stats(self) -> dict[str, float]:
        out = dict(self._counters)
        out["requests"] = float(self._n_requests)
        out["mean_batch_size"] = out["row_steps"] / out["steps"] if out["steps"] else 0.0
        gen_s = out["generate_s"]
        out["tokens_per_s"] = out["tokens_generated"] / gen_s if gen_s > 0 else 0.0
        return out

    def sync_weights(self, state_dict: dict[str, torch.Tensor] | None = None) -> None:
        """Copy `state_dict` into the engine's model; None (a shared model object) is a no-op.

        Call it between rollouts: a request in flight would otherwise mix two policies.
        """
        if state_dict is None:
            return
        with self._lock, torch.no_grad():
            _, unexpected = self.model.load_state_dict(state_dict, strict=False)
            if unexpected:
                raise ValueError(f"sync_weights: unknown parameter names {unexpected[:5]}")

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    # ------------------------------------------------------------------ engine thread

    def _start_engine(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._closed = False
            self._thread = threading.Thread(target=self._run, name=f"hf-{self.name}", daemon=True)
            self._thread.start()

    @contextlib.contextmanager
    def _model_turn(self) -> Iterator[None]:
        start = time.perf_counter()
        with self._lock:
            was_training = self.model.training
            self.model.eval()
            try:
                yield
            finally:
                self.model.train(was_training)
        self._counters["generate_s"] += time.perf_counter() - start

    def _run(self) -> None:
        decoder = Decoder(self.model, **self._decoder_args)  # type: ignore[arg-type]
        while True:
            with self._cond:
                while not self._closed and not self._inbox and not decoder.rows:
                    self._cond.wait()
                if self._closed:
                    break
                new = self._take(decoder) if decoder.can_merge or not decoder.rows else []
            try:
                with self._model_turn():
                    if new:
                        decoder.admit([(p, p.prompt_ids, p.seed) for p in new])
                        self._counters["batches"] += 1
                    self._counters["steps"] += 1
                    self._counters["row_steps"] += len(decoder.rows)
                    done = decoder.step()
            except Exception as err:  # noqa: BLE001 - re-raised in every waiting caller
                for p in {id(p): p for p in new + [row.key for row in decoder.rows]}.values():
                    _deliver(p, _fail, err)
                decoder = Decoder(self.model, **self._decoder_args)  # type: ignore[arg-type]
                continue
            for row in done:
                _deliver(row.key, _succeed, self._completion(row))

    def _take(self, decoder: Decoder) -> list[_Pending]:
        """Requests from the inbox that fit in the batch (a group may be split); call locked."""
        room = self.agent.max_batch_size - len(decoder.rows)
        taken: list[_Pending] = []
        while self._inbox and room > 0:
            group = [p for p in self._inbox[0] if not p.future.cancelled()]
            taken.extend(group[:room])
            rest = group[room:]
            room -= len(group[:room])
            if rest:
                self._inbox[0] = rest
            else:
                self._inbox.pop(0)
        return taken

    def _completion(self, row: Row) -> Completion:
        self._counters["tokens_generated"] += len(row.ids)
        self._counters["prompt_tokens"] += len(row.prompt_ids)
        text_ids = row.ids[:-1] if row.stopped else row.ids
        return Completion(
            text=self.tokenizer.decode(text_ids, skip_special_tokens=True),
            prompt_ids=tuple(row.prompt_ids),
            response_ids=tuple(row.ids),
            logprobs=tuple(row.logprobs),
            finish_reason="stop" if row.stopped else "length",
        )


def _deliver(pending: _Pending, setter: Any, value: Any) -> None:
    """Hand a result to the caller's event loop (gone if that loop has closed)."""
    with contextlib.suppress(RuntimeError):
        pending.loop.call_soon_threadsafe(setter, pending.future, value)


def _succeed(future: asyncio.Future[Completion], completion: Completion) -> None:
    if not future.done():
        future.set_result(completion)


def _fail(future: asyncio.Future[Completion], err: Exception) -> None:
    if not future.done():
        future.set_exception(err)


def _eos_ids(model: Any, tokenizer: Any) -> list[int]:
    ids: list[int] = []
    for source in (getattr(model, "generation_config", None), getattr(model, "config", None)):
        eos = getattr(source, "eos_token_id", None)
        ids.extend([eos] if isinstance(eos, int) else list(eos or []))
    if tokenizer.eos_token_id is not None:
        ids.append(tokenizer.eos_token_id)
    if not ids:
        raise ValueError("the model and tokenizer define no EOS token")
    return sorted(set(ids))
