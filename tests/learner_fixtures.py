"""Tiny learner fixtures shared by the learner tests: a 2-layer Llama, a tokenizer stand-in and a
batch of four samples with known lengths and advantages; a 2-layer Gemma 3 of the same size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from transformers import LlamaConfig, LlamaForCausalLM

from mars2.config import Config, load_config
from mars2.types import Sample


class _Tok:
    pad_token_id = 0


def tiny_model(seed: int = 0) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    return LlamaForCausalLM(config).float()


def tiny_gemma_model(seed: int = 0) -> Any:
    """A Gemma 3 text model of tiny_model's size: a sliding-window layer, then a global one."""
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    torch.manual_seed(seed)
    config = Gemma3TextConfig(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=1,
        head_dim=8,
        query_pre_attn_scalar=8,
        layer_types=["sliding_attention", "full_attention"],
        sliding_window=4,
        max_position_embeddings=64,
    )
    return Gemma3ForCausalLM(config).float()


def samples() -> list[Sample]:
    rows = [
        ([1, 2, 3], [4, 5, 6], 1.0),
        ([1, 7], [8, 9], -1.0),
        ([2, 3, 4, 5], [10], 0.5),
        ([3], [11, 12, 13, 14], -0.5),
    ]
    return [
        Sample(
            agent_id=0, prompt_ids=p, response_ids=r, rollout_logprobs=[-3.0] * len(r), advantage=a
        )
        for p, r, a in rows
    ]


def grouped_samples() -> list[Sample]:
    """Six samples of two prompts, interleaved (a GRPO batch after shuffling): three share
    [1, 2, 3], three share [5, 6]; one response has a single token."""
    rows = [
        ([1, 2, 3], [4, 5, 6], 1.0),
        ([5, 6], [8, 9], -1.0),
        ([1, 2, 3], [10], 0.5),
        ([5, 6], [11, 12, 13, 14], -0.5),
        ([1, 2, 3], [7, 8], -1.0),
        ([5, 6], [20, 21, 22], 1.0),
    ]
    return [
        Sample(
            agent_id=0, prompt_ids=p, response_ids=r, rollout_logprobs=[-3.0] * len(r), advantage=a
        )
        for p, r, a in rows
    ]


TINY_CONFIG = Path(__file__).resolve().parents[1] / "configs" / "tiny.yaml"


def make_config(*extra: str) -> Config:
    """configs/tiny.yaml (tiny-random agents) with a learning rate that moves weights in a step."""
    return load_config(TINY_CONFIG, ["output.tensorboard=false", "train.lr=0.01", *extra])


def agent_batch(agent_id: int, sign: float = 1.0) -> list[Sample]:
    """Three samples of agent `agent_id` (advantages times `sign`)."""
    rows = [([1, 2, 3], [4, 5, 6], 1.0), ([1, 7], [8, 9], -1.0), ([2, 3, 4], [10, 11], 0.5)]
    return [
        Sample(
            agent_id=agent_id,
            prompt_ids=p,
            response_ids=r,
            rollout_logprobs=[-3.0] * len(r),
            advantage=a * sign,
        )
        for p, r, a in rows
    ]
