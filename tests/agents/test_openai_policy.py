"""The openai backend against a stub OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from mars2.agents.backends import load_policy
from mars2.agents.openai import OpenAIPolicy
from mars2.config import AgentConfig
from mars2.errors import UserError


class Stub:
    """Records requests; answers with canned replies (status, body) in order, then echoes."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, Any], dict[str, str]]] = []
        self.script: list[tuple[int, dict[str, Any]]] = []
        self.lock = threading.Lock()

    def reply(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            if self.script:
                return self.script.pop(0)
        last = body["messages"][-1]["content"]
        return 200, {
            "choices": [
                {
                    "message": {"role": "assistant", "content": f"echo: {last}"},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 7, "completion_tokens": 3},
        }


@pytest.fixture
def stub() -> Iterator[tuple[Stub, str]]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with state.lock:
                state.requests.append((body, dict(self.headers)))
            status, reply = state.reply(body) if self.path == "/v1/chat/completions" else (404, {})
            data = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    server.server_close()


def agent(url: str, **kw: Any) -> AgentConfig:
    return AgentConfig(
        model="stub-model",
        backend="openai",
        base_url=url,
        api_key_env="MARS2_TEST_KEY",
        temperature=0.5,
        max_new_tokens=40,
        **kw,
    )


def test_chat_request_and_reply(stub: tuple[Stub, str], monkeypatch: pytest.MonkeyPatch) -> None:
    state, url = stub
    monkeypatch.setenv("MARS2_TEST_KEY", "sk-test")
    policy = load_policy(agent(url + "/"), seed=1)
    assert isinstance(policy, OpenAIPolicy) and policy.tokenizer is None
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]
    out = asyncio.run(policy.generate(messages, seed=5))
    assert out.text == "echo: hi" and out.finish_reason == "stop" and out.response_ids == ()
    body, headers = state.requests[0]
    assert body == {
        "model": "stub-model",
        "messages": messages,
        "temperature": 0.5,
        "top_p": 1.0,
        "max_tokens": 40,
        "seed": 5,
    }
    assert headers["Authorization"] == "Bearer sk-test"
    assert policy.stats()["tokens_generated"] == 3 and policy.stats()["requests"] == 1
    policy.close()


def test_concurrent_requests_and_length_finish(stub: tuple[Stub, str]) -> None:
    state, url = stub
    state.script = [
        (200, {"choices": [{"message": {"content": "cut"}, "finish_reason": "length"}]})
    ]
    policy = OpenAIPolicy(agent(url, max_batch_size=4))

    async def main() -> list[Any]:
        return await asyncio.gather(
            *(policy.generate([{"role": "user", "content": str(i)}]) for i in range(8))
        )

    outs = asyncio.run(main())
    assert len(state.requests) == 8
    assert sorted(o.finish_reason for o in outs) == ["length"] + ["stop"] * 7
    assert "Authorization" not in state.requests[0][1]  # key variable unset: no header
    policy.close()


def test_retries_server_errors(stub: tuple[Stub, str]) -> None:
    state, url = stub
    state.script = [(503, {"error": "busy"})]
    policy = OpenAIPolicy(agent(url))
    out = asyncio.run(policy.generate([{"role": "user", "content": "again"}]))
    assert out.text == "echo: again" and len(state.requests) == 2
    policy.close()


def test_bad_key_is_a_user_error_naming_the_variable(stub: tuple[Stub, str]) -> None:
    state, url = stub
    state.script = [(401, {"error": "bad key"})]
    policy = OpenAIPolicy(agent(url))
    with pytest.raises(UserError, match="MARS2_TEST_KEY"):
        asyncio.run(policy.generate([{"role": "user", "content": "x"}]))
    policy.close()
