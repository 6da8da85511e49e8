"""The supervised repair term against hand-computed values: a 2-token vocabulary."""

from __future__ import annotations

import math

import pytest
import torch

from mars2.rl import sft_loss


def test_two_token_vocabulary_by_hand() -> None:
    # One sequence [prompt p, target y1, y2] over the vocabulary {0, 1}: position 0 scores y1,
    # position 1 scores y2. logits (0, ln 3) give p(1) = 3/4; logits (ln 4, 0) give p(0) = 4/5.
    logits = torch.tensor([[[0.0, math.log(3)], [math.log(4), 0.0], [5.0, -5.0]]])
    logits.requires_grad_(True)
    targets = torch.tensor([[1, 0, 1]])  # the last one sits on a masked (prompt) position
    logp = torch.log_softmax(logits, -1).gather(-1, targets[..., None])[..., 0]  # [1, 3]
    mask = torch.tensor([[1.0, 1.0, 0.0]])
    loss = sft_loss(logp, mask, n_tokens=2)
    # -(ln 3/4 + ln 4/5) / 2 = -ln(3/5) / 2
    assert float(loss) == pytest.approx(-math.log(3 / 5) / 2, abs=1e-7)
    loss.backward()
    # d/dz of -log softmax(z)[y] is softmax(z) - onehot(y), over N = 2 tokens; 0 where masked
    expected = torch.tensor(
        [[[0.25 / 2, -0.25 / 2], [-0.2 / 2, 0.2 / 2], [0.0, 0.0]]], dtype=torch.float32
    )
    assert logits.grad is not None
    assert torch.allclose(logits.grad, expected, atol=1e-7)


def test_micro_batch_shares_add_up_to_the_mini_batch_loss() -> None:
    # per token over the whole mini-batch: [3 tokens] + [1 token] cut in two parts
    a = torch.tensor([[-1.0, -2.0, -3.0]])
    b = torch.tensor([[-4.0, 0.0, 0.0]])
    mask_a, mask_b = torch.ones(1, 3), torch.tensor([[1.0, 0.0, 0.0]])
    whole = sft_loss(torch.cat([a, b]), torch.cat([mask_a, mask_b]), 4)
    parts = sft_loss(a, mask_a, 4) + sft_loss(b, mask_b, 4)
    assert float(whole) == pytest.approx(10 / 4) and float(parts) == pytest.approx(10 / 4)


def test_no_target_token_is_an_error() -> None:
    with pytest.raises(AssertionError):
        sft_loss(torch.zeros(1, 2), torch.zeros(1, 2), 0)
