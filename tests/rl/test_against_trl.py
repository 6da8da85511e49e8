"""Our GRPO and GSPO losses equal TRL's GRPOTrainer loss on identical tensors.

TRL is only a test reference. We call `GRPOTrainer._compute_loss` unbound, on a minimal stand-in
for the trainer whose `_get_per_token_logps_and_entropies` returns our log-prob tensor, so TRL's
own code computes the ratio, clipping, importance-sampling product, KL and aggregation. Mapping:
loss_type `bnpo` = token-mean, `grpo` = seq-mean-token-mean, `dr_grpo` = seq-mean-token-sum-norm
(L = max_completion_length); importance_sampling_level `sequence` = GSPO; the vLLM importance
sampling ratio input = our TIS weights; beta = kl_coef with TRL's estimator k3.
"""

from __future__ import annotations

from collections import defaultdict
from types import SimpleNamespace
from typing import Any

import pytest
import torch

from mars2.config import LossConfig
from mars2.rl import policy_loss, tis_weights

trl_grpo = pytest.importorskip("trl.trainer.grpo_trainer")

LOSS_TYPES = {
    "token-mean": "bnpo",
    "seq-mean-token-mean": "grpo",
    "seq-mean-token-sum-norm": "dr_grpo",
}


class _Accelerator:
    num_processes = 1

    def gather(self, x: torch.Tensor) -> torch.Tensor:
        return x

    gather_for_metrics = gather

    def reduce(self, x: torch.Tensor, reduction: str = "sum") -> torch.Tensor:
        return x


def trl_loss(config: LossConfig, logp: torch.Tensor, inputs: dict[str, Any]) -> torch.Tensor:
    """TRL's GRPOTrainer._compute_loss on a stand-in trainer with our settings."""
    stand_in = SimpleNamespace(
        _get_per_token_logps_and_entropies=lambda *a, **k: (logp, torch.zeros_like(logp), None),
        top_entropy_quantile=1.0,
        aux_loss_enabled=False,
        off_policy_mask_threshold=None,
        importance_sampling_level="sequence" if config.name == "gspo" else "token",
        loss_type=LOSS_TYPES[config.aggregation],
        epsilon_low=config.clip_low,
        epsilon_high=config.clip_high,
        beta=config.kl_coef,
        args=SimpleNamespace(use_bias_correction_kl=False, delta=None),
        use_vllm=config.tis != "none",
        vllm_importance_sampling_correction=config.tis != "none",
        model=SimpleNamespace(training=True),
        current_gradient_accumulation_steps=1,
        max_completion_length=logp.shape[1],
        _entropy_bonus_enabled=False,
        _metrics={"train": defaultdict(list), "eval": defaultdict(list)},
        accelerator=_Accelerator(),
    )
    loss: torch.Tensor = trl_grpo.GRPOTrainer._compute_loss(stand_in, None, inputs)
    return loss


def batch(seed: int) -> dict[str, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    b, t = 6, 9
    lengths = torch.randint(1, t + 1, (b,), generator=gen)
    mask = (torch.arange(t)[None, :] < lengths[:, None]).long()
    old = -torch.rand(b, t, generator=gen) * 3
    return {
        "logp": old + 0.25 * torch.randn(b, t, generator=gen),
        "old": old,
        "rollout": old + 0.3 * torch.randn(b, t, generator=gen),
        "ref": old + 0.3 * torch.randn(b, t, generator=gen),
        "adv": torch.randn(b, generator=gen),
        "mask": mask,
    }


@pytest.mark.parametrize("name", ["grpo", "gspo"])
@pytest.mark.parametrize("aggregation", list(LOSS_TYPES))
@pytest.mark.parametrize(("tis", "tis_mode"), [("none", "truncate"), ("token", "truncate"),
                                               ("sequence", "mask")])  # fmt: skip
@pytest.mark.parametrize("kl_coef", [0.0, 0.04])
@pytest.mark.parametrize("clip", [(0.2, 0.28), (3e-4, 4e-4)])  # PPO-style and GSPO-paper ranges
def test_loss_and_gradient_equal_trl(
    name: str, aggregation: str, tis: str, tis_mode: str, kl_coef: float, clip: tuple[float, float]
) -> None:
    data = batch(7)
    config = LossConfig(
        name=name,  # type: ignore[arg-type]
        clip_low=clip[0],
        clip_high=clip[1],
        tis=tis,  # type: ignore[arg-type]
        tis_mode=tis_mode,  # type: ignore[arg-type]
        tis_cap=1.5,
        kl_coef=kl_coef,
        kl_estimator="k3",
        aggregation=aggregation,  # type: ignore[arg-type]
    )
    ours_x = data["logp"].clone().requires_grad_(True)
    ours, _ = policy_loss(
        config, ours_x, data["old"], data["adv"], data["mask"],
        rollout_logp=data["rollout"], ref_logp=data["ref"],
    )  # fmt: skip
    ours.backward()

    b = data["mask"].shape[0]
    inputs: dict[str, Any] = {
        "prompt_ids": torch.zeros(b, 0, dtype=torch.long),
        "prompt_mask": torch.zeros(b, 0, dtype=torch.long),
        "completion_ids": torch.zeros_like(data["mask"]),
        "completion_mask": data["mask"],
        "advantages": data["adv"],
        "old_per_token_logps": data["old"],
        "ref_per_token_logps": data["ref"],
    }
    if tis != "none":
        inputs["importance_sampling_ratio"] = tis_weights(
            data["old"],
            data["rollout"],
            data["mask"],
            level=tis,
            mode=tis_mode,
            cap=1.5,  # type: ignore[arg-type]
        )
    theirs_x = data["logp"].clone().requires_grad_(True)
    theirs = trl_loss(config, theirs_x, inputs)
    theirs.backward()

    assert abs(ours.item() - theirs.item()) < 1e-6
    assert torch.allclose(ours_x.grad, theirs_x.grad, atol=1e-6)  # type: ignore[arg-type]
