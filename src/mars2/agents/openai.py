"""The `openai` backend: any OpenAI-compatible chat-completions endpoint, over stdlib HTTP.

Works with api.openai.com, `vllm serve`, llama.cpp's server, SGLang, Ollama's /v1, etc. The key is
read from the environment variable named by `api_key_env` (no Authorization header when it is
unset, for local servers). Requests run concurrently in a thread pool of `max_batch_size`
threads; the server does its own batching. Completions carry text only (no token ids or
log-probs), so these agents cannot be trained: the trainer refuses trainable `openai` agents.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import time
import urllib.error
import urllib.request
from typing import Any

from mars2.agents.base import Messages, PolicyBase
from mars2.config import AgentConfig
from mars2.errors import InfraError, UserError
from mars2.types import Completion

log = logging.getLogger(__name__)

RETRIES = 4
RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}


class OpenAIPolicy(PolicyBase):
    """A Policy on an OpenAI-compatible `/chat/completions` endpoint."""

    tokenizer: Any | None = None

    def __init__(self, agent: AgentConfig, *, seed: int = 0, timeout_s: float = 300.0) -> None:
        if agent.base_url is None:
            raise UserError("backend 'openai' needs agents.N.base_url (e.g. http://host:8000/v1)")
        self.agent = agent
        self._init_policy(agent.name or agent.model, seed)
        self.url = agent.base_url.rstrip("/") + "/chat/completions"
        self.timeout_s = timeout_s
        self._executor = concurrent.futures.ThreadPoolExecutor(
            agent.max_batch_size, thread_name_prefix=f"openai-{self.name}"
        )
        self._counters = {"tokens_generated": 0.0, "prompt_tokens": 0.0, "generate_s": 0.0}

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        seed = self._next_seed(seed)
        body = {
            "model": self.agent.model,
            "messages": messages,
            "temperature": self.agent.temperature,
            "top_p": self.agent.top_p,
            "max_tokens": self.agent.max_new_tokens,
            "seed": seed & 0x7FFFFFFF,  # some servers take 32-bit seeds only
        }
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        reply = await loop.run_in_executor(self._executor, self._post, body)
        self._counters["generate_s"] += time.perf_counter() - start
        return self._completion(reply)

    def _completion(self, reply: dict[str, Any]) -> Completion:
        try:
            choice = reply["choices"][0]
            text = choice["message"]["content"] or ""
        except (KeyError, IndexError, TypeError) as err:
            raise InfraError(f"{self.url}: unexpected reply {str(reply)[:300]!r}") from err
        usage = reply.get("usage") or {}
        self._counters["tokens_generated"] += float(usage.get("completion_tokens") or 0)
        self._counters["prompt_tokens"] += float(usage.get("prompt_tokens") or 0)
        if choice.get("finish_reason") == "length":
            return Completion(text=text, finish_reason="length")
        return Completion(text=text, finish_reason="stop")

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.agent.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        for attempt in range(RETRIES + 1):
            request = urllib.request.Request(self.url, data=data, headers=self._headers())
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                    reply: dict[str, Any] = json.loads(response.read())
                    return reply
            except urllib.error.HTTPError as err:
                detail = err.read()[:300].decode(errors="replace")
                if err.code in (401, 403):
                    raise UserError(
                        f"{self.url}: HTTP {err.code} ({detail}); set the API key in the "
                        f"environment variable {self.agent.api_key_env!r} (agents.N.api_key_env)"
                    ) from None
                if err.code not in RETRY_STATUS or attempt == RETRIES:
                    raise InfraError(f"{self.url}: HTTP {err.code}: {detail}") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
                if attempt == RETRIES:
                    raise InfraError(f"{self.url}: {err}") from None
            delay = 0.5 * 2**attempt
            log.warning("%s: retrying in %.1f s (attempt %d)", self.url, delay, attempt + 1)
            time.sleep(delay)
        raise AssertionError("unreachable")

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
