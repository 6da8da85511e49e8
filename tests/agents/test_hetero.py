"""A heterogeneous team: `tiny-random` (ChatML, 4k vocabulary) with `tiny-random-base` (a Gemma-3
base model, no chat template, 1k vocabulary) — plain prompts, each agent's tokens and log-probs
under its own tokenizer and model, and `mars2 search` / `mars2 train` end to end."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import torch

from mars2.agents.base import encode_chat
from mars2.agents.hf import HFPolicy
from mars2.agents.models import load_model
from mars2.agents.prompts import PLAIN
from mars2.cli import main
from mars2.config import AgentConfig
from mars2.engine.logprobs import token_logprobs

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = [
    {"role": "system", "content": "You are an expert Python programmer."},
    {"role": "user", "content": "Write a function `f` that returns the sum of a list."},
]


@pytest.fixture(scope="module")
def base(model_cache: Path) -> tuple[Any, Any]:
    return load_model("tiny-random-base", device="cpu")


def test_a_model_without_chat_template_gets_the_plain_prompt(base: tuple[Any, Any]) -> None:
    _, tokenizer = base
    ids = encode_chat(tokenizer, MESSAGES, 1024)
    assert ids[0] == tokenizer.bos_token_id and ids.count(tokenizer.bos_token_id) == 1
    assert tokenizer.decode(ids[1:]) == (
        "You are an expert Python programmer.\n\n"
        + PLAIN["example"]
        + "Write a function `f` that returns the sum of a list.\n\nAnswer:\n```python\n"
    )
    long = [MESSAGES[0], {"role": "user", "content": "word " * 300 + "THE END"}]
    cut = tokenizer.decode(encode_chat(tokenizer, long, 300))
    assert len(encode_chat(tokenizer, long, 300)) <= 300
    assert "…" in cut and cut.endswith("THE END\n\nAnswer:\n```python\n")


def test_each_agent_samples_and_scores_under_its_own_tokenizer(
    tiny: tuple[Any, Any], base: tuple[Any, Any]
) -> None:
    for model, tokenizer in (tiny, base):
        agent = AgentConfig(model="tiny", max_new_tokens=12, temperature=0.9, rollout_dtype="model")
        policy = HFPolicy(agent, model, tokenizer)
        out = asyncio.run(policy.generate(MESSAGES, seed=3))
        policy.close()
        assert list(out.prompt_ids) == encode_chat(tokenizer, MESSAGES, agent.max_prompt_tokens)
        ids = list(out.prompt_ids) + list(out.response_ids)
        assert max(ids) < model.config.vocab_size
        with torch.no_grad():
            learner = token_logprobs(
                model, torch.tensor([ids]), torch.ones(1, len(ids)), temperature=0.9
            )[0, len(out.prompt_ids) - 1 :]
        assert torch.allclose(learner, torch.tensor(out.logprobs), atol=1e-4)
    assert tiny[0].config.vocab_size != base[0].config.vocab_size


def test_mixed_team_searches_and_trains_one_step(
    tmp_path: Path, base: tuple[Any, Any], tiny: tuple[Any, Any]
) -> None:
    # in-process (the models are already in the session's cache): two CLI runs in ~10 s of CPU
    search = [
        "search", "--problems", "bundled:basic-test", "--agents", "tiny-random,tiny-random-base",
        "--algo", "abmcts", "--budget", "2", "--limit", "1", "--out", str(tmp_path / "search"),
        "agents.0.max_new_tokens=16", "agents.1.max_new_tokens=16", "sandbox.timeout_s=2",
        "eval.samples=1",
    ]  # fmt: skip
    assert main(search) == 0
    metrics = json.loads((tmp_path / "search" / "metrics.json").read_text())
    assert set(metrics["agents"]) == {"coder", "debugger"}  # named by their roles
    assert metrics["nodes"] == 2
    train = [
        "train", "--config", str(ROOT / "configs" / "smoke.yaml"), "--out", str(tmp_path / "train"),
        "agents.1.model=tiny-random-base", "train.steps=1", "train.checkpoint_every=0",
        "output.tensorboard=false", "data.eval_limit=1", "train.eval_budget=1",
        "agents.0.max_new_tokens=16", "agents.1.max_new_tokens=16",
    ]  # fmt: skip
    assert main(train) == 0
    rows = [json.loads(x) for x in (tmp_path / "train" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [0, 1]
    assert "loss/coder" in rows[1] and "loss/debugger" in rows[1]
