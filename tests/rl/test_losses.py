"""GRPO/GSPO losses, TIS, KL and aggregation on hand-computed tensors and invariants."""

from __future__ import annotations

import math

import pytest
import torch

from mars2.config import LossConfig
from mars2.rl import kl_k1, kl_k2, kl_k3, policy_loss, tis_weights

AGGREGATIONS = ("token-mean", "seq-mean-token-mean", "seq-mean-token-sum-norm")
LOSSES = ("grpo", "gspo")


def cfg(**kw: object) -> LossConfig:
    base: dict[str, object] = {"tis": "none", "clip_low": 0.2, "clip_high": 0.28}
    return LossConfig(**(base | kw))  # type: ignore[arg-type]


def test_grpo_token_loss_by_hand() -> None:
    # one sequence, ratios 1.5 and 0.5, clip range [0.8, 1.28]
    # A = +1: -min(1.5, 1.28) = -1.28 (clipped), -min(0.5, 0.8) = -0.5 -> token-mean -0.89
    # A = -1: -min(-1.5, -1.28) = 1.5, -min(-0.5, -0.8) = 0.8 (clipped) -> token-mean 1.15
    old = torch.zeros(2, 2)
    logp = torch.log(torch.tensor([[1.5, 0.5], [1.5, 0.5]]))
    mask = torch.ones(2, 2)
    loss, stats = policy_loss(cfg(), logp, old, torch.tensor([1.0, -1.0]), mask)
    assert loss.item() == pytest.approx((-0.89 + 1.15) / 2)
    assert stats["clip_frac"] == pytest.approx(0.5)  # one clipped token in each row
    assert stats["ratio_mean"] == pytest.approx(1.0)
    assert stats["tokens"] == 4 and stats["seqs"] == 2


def test_gspo_sequence_loss_by_hand() -> None:
    # s = exp(mean(log 1.5, log 0.5)) = sqrt(0.75) = 0.8660 ∈ [0.8, 1.28]: unclipped, loss = -s·A
    # with clip_low = 0.1 the range is [0.9, 1.28]: A = -1 -> -min(-0.866, -0.9) = 0.9 (clipped)
    logp = torch.log(torch.tensor([[1.5, 0.5]]))
    old, mask = torch.zeros(1, 2), torch.ones(1, 2)
    loss, stats = policy_loss(cfg(name="gspo"), logp, old, torch.tensor([1.0]), mask)
    assert loss.item() == pytest.approx(-math.sqrt(0.75))
    assert stats["clip_frac"] == 0.0 and stats["ratio_mean"] == pytest.approx(math.sqrt(0.75))
    loss, stats = policy_loss(cfg(name="gspo", clip_low=0.1), logp, old, torch.tensor([-1.0]), mask)
    assert loss.item() == pytest.approx(0.9) and stats["clip_frac"] == 1.0


def test_aggregations_by_hand() -> None:
    # on-policy (ρ = 1) with A = -1: every token's loss is 1 -> scale by a per-token factor via TIS
    # weights: row 0 tokens (w=1, w=2, pad), row 1 tokens (w=1, pad, pad) -> ℓ = [[1, 2], [1]]
    logp = torch.zeros(2, 3)
    rollout = -torch.log(torch.tensor([[1.0, 2.0, 1.0], [1.0, 1.0, 1.0]]))  # w = exp(old - rollout)
    mask = torch.tensor([[1, 1, 0], [1, 0, 0]])
    adv = torch.tensor([-1.0, -1.0])
    expected = {
        "token-mean": (1 + 2 + 1) / 3,
        "seq-mean-token-mean": ((1 + 2) / 2 + 1 / 1) / 2,
        "seq-mean-token-sum-norm": (1 + 2 + 1) / (2 * 3),  # L = T = 3 by default
    }
    for aggregation, value in expected.items():
        config = cfg(aggregation=aggregation, tis="token", tis_cap=4.0)
        loss, _ = policy_loss(config, logp, logp, adv, mask, rollout_logp=rollout)
        assert loss.item() == pytest.approx(value), aggregation
    config = cfg(aggregation="seq-mean-token-sum-norm", tis="token", tis_cap=4.0)
    loss, _ = policy_loss(config, logp, logp, adv, mask, rollout_logp=rollout, norm_len=8)
    assert loss.item() == pytest.approx(4 / 16)


def test_tis_weights_by_hand() -> None:
    # log(π_old/π_rollout) per token: log 0.5, log 3, log 1.5 (then padding); C = 2
    old = torch.log(torch.tensor([[0.5, 3.0, 1.5, 7.0]]))
    rollout = torch.zeros(1, 4)
    mask = torch.tensor([[1, 1, 1, 0]])
    token = tis_weights(old, rollout, mask, level="token", mode="truncate", cap=2.0)
    assert token.tolist()[0] == pytest.approx([0.5, 2.0, 1.5, 1.0])
    masked = tis_weights(old, rollout, mask, level="token", mode="mask", cap=2.0)
    assert masked.tolist()[0] == pytest.approx([0.5, 0.0, 1.5, 1.0])
    # sequence: Π = 0.5 · 3 · 1.5 = 2.25 over the response (padding excluded)
    seq = tis_weights(old, rollout, mask, level="sequence", mode="truncate", cap=4.0)
    assert seq.tolist()[0] == pytest.approx([2.25, 2.25, 2.25, 1.0])
    seq = tis_weights(old, rollout, mask, level="sequence", mode="truncate", cap=2.0)
    assert seq.tolist()[0] == pytest.approx([2.0, 2.0, 2.0, 1.0])
    seq = tis_weights(old, rollout, mask, level="sequence", mode="mask", cap=2.0)
    assert seq.tolist()[0] == pytest.approx([0.0, 0.0, 0.0, 1.0])


@pytest.mark.parametrize("level", ["token", "sequence"])
@pytest.mark.parametrize("mode", ["truncate", "mask"])
def test_tis_weights_are_one_when_rollout_equals_old(level: str, mode: str) -> None:
    gen = torch.Generator().manual_seed(0)
    old = -torch.rand(4, 9, generator=gen) * 5
    mask = (torch.rand(4, 9, generator=gen) > 0.3).long()
    w = tis_weights(old, old.clone(), mask, level=level, mode=mode, cap=1.0)  # type: ignore[arg-type]
    assert torch.equal(w, torch.ones_like(w))
    config = cfg(tis=level, tis_mode=mode)
    logp = old + 0.1 * torch.randn(4, 9, generator=gen)
    adv = torch.randn(4, generator=gen)
    with_tis, stats = policy_loss(config, logp, old, adv, mask, rollout_logp=old)
    without, _ = policy_loss(cfg(), logp, old, adv, mask)
    assert torch.equal(with_tis, without)
    assert stats["tis_mean"] == 1.0 and stats["tis_max"] == 1.0


def test_tis_corrects_against_rollout_and_ratio_against_old() -> None:
    # π_θ = π_old, rollout differs: the ratio is exactly 1 (no clipping, ratio_mean 1) and
    # only the TIS weight moves the loss: ℓ = -w·A with w = exp(0.2) for every token.
    old = torch.full((1, 3), -1.0)
    rollout = torch.full((1, 3), -1.2)
    loss, stats = policy_loss(
        cfg(tis="token", tis_cap=2.0), old.clone(), old, torch.tensor([1.0]), torch.ones(1, 3),
        rollout_logp=rollout,
    )  # fmt: skip
    assert stats["ratio_mean"] == 1.0 and stats["clip_frac"] == 0.0
    assert loss.item() == pytest.approx(-math.exp(0.2))
    assert stats["tis_mean"] == pytest.approx(math.exp(0.2))


def test_kl_estimators_by_hand() -> None:
    # log π_θ = log 0.5, log π_ref = log 0.25: d = log π_ref - log π_θ = -log 2
    logp, ref = torch.tensor([math.log(0.5)]), torch.tensor([math.log(0.25)])
    assert kl_k1(logp, ref).item() == pytest.approx(math.log(2))
    assert kl_k2(logp, ref).item() == pytest.approx(0.5 * math.log(2) ** 2)
    assert kl_k3(logp, ref).item() == pytest.approx(0.5 + math.log(2) - 1)
    for fn in (kl_k1, kl_k2, kl_k3):
        assert fn(logp, logp).item() == 0.0


def test_kl_term_adds_beta_times_aggregated_kl() -> None:
    gen = torch.Generator().manual_seed(1)
    logp, ref = -torch.rand(3, 5, generator=gen), -torch.rand(3, 5, generator=gen)
    mask, adv = torch.ones(3, 5), torch.randn(3, generator=gen)
    base, _ = policy_loss(cfg(), logp, logp, adv, mask)
    loss, stats = policy_loss(cfg(kl_coef=0.1), logp, logp, adv, mask, ref_logp=ref)
    kl = kl_k3(logp, ref).mean()
    assert loss.item() == pytest.approx(base.item() + 0.1 * kl.item())
    assert stats["kl"] == pytest.approx(kl.item())


def test_missing_inputs_are_explained() -> None:
    x, mask, adv = torch.zeros(1, 2), torch.ones(1, 2), torch.zeros(1)
    with pytest.raises(ValueError, match="rollout_logp"):
        policy_loss(cfg(tis="token"), x, x, adv, mask)
    with pytest.raises(ValueError, match="ref_logp"):
        policy_loss(cfg(kl_coef=0.1), x, x, adv, mask)


@pytest.mark.parametrize("aggregation", AGGREGATIONS)
@pytest.mark.parametrize("tis", ["none", "token", "sequence"])
def test_gspo_equals_grpo_for_one_token_responses(aggregation: str, tis: str) -> None:
    gen = torch.Generator().manual_seed(2)
    old = -torch.rand(16, 1, generator=gen) * 3
    logp = old + 0.4 * torch.randn(16, 1, generator=gen)
    rollout = old + 0.3 * torch.randn(16, 1, generator=gen)
    ref = old + 0.2 * torch.randn(16, 1, generator=gen)
    adv, mask = torch.randn(16, generator=gen), torch.ones(16, 1)
    kw = {"aggregation": aggregation, "tis": tis, "kl_coef": 0.05}
    results = []
    for name in ("grpo", "gspo"):
        x = logp.clone().requires_grad_(True)
        loss, stats = policy_loss(
            cfg(name=name, **kw), x, old, adv, mask, rollout_logp=rollout, ref_logp=ref
        )
        loss.backward()
        results.append((loss, x.grad, stats))
    (grpo, grpo_grad, grpo_stats), (gspo, gspo_grad, gspo_stats) = results
    assert torch.allclose(grpo, gspo, atol=1e-7) and torch.allclose(grpo_grad, gspo_grad, atol=1e-7)
    assert grpo_stats["clip_frac"] == gspo_stats["clip_frac"] > 0


def random_batch(seed: int, b: int = 8, t: int = 11) -> dict[str, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    lengths = torch.randint(1, t + 1, (b,), generator=gen)
    mask = (torch.arange(t)[None, :] < lengths[:, None]).long()
    old = -torch.rand(b, t, generator=gen) * 4
    return {
        "logp": old + 0.3 * torch.randn(b, t, generator=gen),
        "old": old,
        "rollout": old + 0.3 * torch.randn(b, t, generator=gen),
        "ref": old + 0.3 * torch.randn(b, t, generator=gen),
        "adv": torch.randn(b, generator=gen),
        "mask": mask,
    }


@pytest.mark.parametrize("name", LOSSES)
@pytest.mark.parametrize("aggregation", AGGREGATIONS)
@pytest.mark.parametrize("tis", ["none", "token", "sequence"])
def test_micro_batch_splitting_changes_nothing(name: str, aggregation: str, tis: str) -> None:
    """The caller splits the rows of a batch into micro-batches (any sizes), passes the whole
    batch's token count, sequence count and L to each, backpropagates each micro-batch loss
    unscaled, and gets the whole-batch loss and gradient."""
    data = random_batch(3)
    config = cfg(name=name, aggregation=aggregation, tis=tis, kl_coef=0.1)
    scale = {"loss_scale_tokens": int(data["mask"].sum()), "loss_scale_seqs": 8, "norm_len": 16}

    def run(rows: slice, logp: torch.Tensor) -> torch.Tensor:
        loss, _ = policy_loss(
            config, logp[rows], data["old"][rows], data["adv"][rows], data["mask"][rows],
            rollout_logp=data["rollout"][rows], ref_logp=data["ref"][rows], **scale,
        )  # fmt: skip
        return loss

    whole = data["logp"].clone().requires_grad_(True)
    full = run(slice(None), whole)
    full.backward()
    split = data["logp"].clone().requires_grad_(True)
    total = torch.zeros(())
    for rows in (slice(0, 3), slice(3, 4), slice(4, 8)):
        part = run(rows, split)
        part.backward()
        total = total + part.detach()
    assert torch.allclose(total, full.detach(), atol=1e-6)
    assert torch.allclose(split.grad, whole.grad, atol=1e-7)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", LOSSES)
@pytest.mark.parametrize("estimator", ["k1", "k2", "k3"])
def test_gradients_are_finite_even_for_extreme_inputs(name: str, estimator: str) -> None:
    data = random_batch(4)
    logp = data["logp"].clone()
    logp[0, 0] += 80.0  # a diverged token: exp(80) would overflow fp32
    logp[1, 1] -= 80.0
    logp[data["mask"] == 0] = float("-inf")  # padding may hold anything
    logp.requires_grad_(True)
    rollout = data["rollout"].clone()
    rollout[2, 0] -= 90.0  # a token the engine found far less likely
    config = cfg(name=name, tis="sequence", tis_mode="mask", kl_coef=0.1, kl_estimator=estimator)
    loss, stats = policy_loss(
        config, logp, data["old"], data["adv"], data["mask"],
        rollout_logp=rollout, ref_logp=data["ref"],
    )  # fmt: skip
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(logp.grad).all()  # type: ignore[arg-type]
    assert all(math.isfinite(v) for v in stats.values())
    assert (logp.grad[data["mask"] == 0] == 0).all()  # type: ignore[index]
