"""Prompt rendering with the chat template, left-cutting of long prompts, lazy imports."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from mars2.agents.base import encode_chat, request_seed
from mars2.errors import UserError


def test_prompt_is_the_chat_template_with_generation_prompt(tiny: tuple[Any, Any]) -> None:
    _, tokenizer = tiny
    ids = encode_chat(tokenizer, [{"role": "user", "content": "hello"}], 1024)
    assert tokenizer.decode(ids) == "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n"


def test_long_prompt_is_cut_from_the_left_of_the_last_user_message(tiny: tuple[Any, Any]) -> None:
    _, tokenizer = tiny
    content = " ".join(f"word{i}" for i in range(400)) + " THE END"
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": content}]
    ids = encode_chat(tokenizer, messages, 64)
    text = tokenizer.decode(ids)
    assert len(ids) <= 64
    assert text.startswith("<|im_start|>system\nsys<|im_end|>\n<|im_start|>user\n…")
    assert text.endswith("THE END<|im_end|>\n<|im_start|>assistant\n")


def test_prompt_that_cannot_fit_is_a_user_error(tiny: tuple[Any, Any]) -> None:
    _, tokenizer = tiny
    messages = [{"role": "system", "content": "x " * 200}, {"role": "user", "content": "hi"}]
    with pytest.raises(UserError, match="max_prompt_tokens"):
        encode_chat(tokenizer, messages, 32)


def test_request_seeds_are_stable_and_distinct() -> None:
    assert request_seed(0, 0) == request_seed(0, 0)
    assert len({request_seed(s, i) for s in range(3) for i in range(100)}) == 300


def test_importing_agents_does_not_import_torch() -> None:
    code = "import sys, mars2.agents; mars2.agents.Policy; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_backends_and_the_scripted_fake_satisfy_the_protocol(tiny: tuple[Any, Any]) -> None:
    import asyncio

    from fakes import ScriptedPolicy
    from mars2.agents.base import Policy
    from mars2.agents.hf import HFPolicy
    from mars2.config import AgentConfig

    fake = ScriptedPolicy(["```python\nprint(1)\n```"])
    out = asyncio.run(fake.generate([{"role": "user", "content": "hi"}], seed=3))
    assert out.response_ids == tuple(b"```python\nprint(1)\n```") and sum(out.logprobs) == -22.0
    assert isinstance(fake, Policy)
    assert isinstance(HFPolicy(AgentConfig(model="tiny-random"), *tiny), Policy)
