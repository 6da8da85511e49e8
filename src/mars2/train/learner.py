"""One agent's learner: its trainable weights, optimizer, LR schedule and the policy update.

The update follows design.md §7: "old" log-probs are recomputed by the learner before the first
optimizer step of a training step (with one optimizer step per training step they are the
gradient pass's own log-probs, detached: the same values without a second forward pass),
rollout log-probs come from the engine (TIS), an optional frozen reference gives the KL term. A training step's samples are split into
`updates_per_step` mini-batches (one optimizer step each), each mini-batch into micro-batches
with gradient accumulation; the loss is normalised over the whole mini-batch, so the gradient
does not depend on the micro-batch size.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import Any

import torch

from mars2.config import AgentConfig, LossConfig, TrainConfig
from mars2.rl import policy_loss, token_logprobs
from mars2.types import Sample


def make_trainable(model: Any, agent: AgentConfig) -> Any:
    """Wrap `model` with LoRA adapters when `agent.lora_rank > 0`; otherwise train every weight."""
    if agent.lora_rank == 0:
        model.requires_grad_(True)
        return model
    from peft import LoraConfig, get_peft_model

    lora = LoraConfig(
        r=agent.lora_rank,
        lora_alpha=agent.lora_alpha,
        target_modules="all-linear",
        lora_dropout=0.0,
        task_type="CAUSAL_LM",
    )
    return get_peft_model(model, lora)


def lr_factor(step: int, total: int, warmup: int, schedule: str) -> float:
    """Multiplier of the peak LR at optimizer step `step` (0-based) of `total`."""
    if warmup > 0 and step < warmup:
        return (step + 1) / warmup
    if schedule == "constant" or total <= warmup:
        return 1.0
    progress = min(1.0, (step - warmup) / max(1, total - warmup))
    if schedule == "linear":
        return 1.0 - progress
    return 0.5 * (1.0 + math.cos(math.pi * progress))


def pad_batch(samples: Sequence[Sample], pad_id: int) -> tuple[torch.Tensor, ...]:
    """Right-padded [B, T] input ids, attention mask, and [B, T-1] response mask and rollout
    log-probs aligned with `token_logprobs` (position t-1 scores token t)."""
    width = max(len(s.prompt_ids) + len(s.response_ids) for s in samples)
    ids = torch.full((len(samples), width), pad_id, dtype=torch.long)
    attention = torch.zeros((len(samples), width), dtype=torch.long)
    response = torch.zeros((len(samples), width - 1), dtype=torch.float32)
    rollout = torch.zeros((len(samples), width - 1), dtype=torch.float32)
    for row, s in enumerate(samples):
        seq = list(s.prompt_ids) + list(s.response_ids)
        ids[row, : len(seq)] = torch.tensor(seq)
        attention[row, : len(seq)] = 1
        start, end = len(s.prompt_ids) - 1, len(seq) - 1
        response[row, start:end] = 1.0
        if s.rollout_logprobs:
            rollout[row, start:end] = torch.tensor(s.rollout_logprobs, dtype=torch.float32)
    return ids, attention, response, rollout


class Learner:
    """Trains one agent on the samples it wrote."""

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        agent: AgentConfig,
        train: TrainConfig,
        loss: LossConfig,
        *,
        total_updates: int,
        seed: int = 0,
    ) -> None:
        self.agent = agent
        self.train_config = train
        self.loss_config = loss
        self.tokenizer = tokenizer
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        # The reference is the weights before training; with LoRA, the base with adapters off.
        self.ref = None
        if loss.kl_coef > 0 and agent.lora_rank == 0:
            self.ref = copy.deepcopy(model).eval().requires_grad_(False)
        self.model = make_trainable(model, agent)
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=train.lr, weight_decay=train.weight_decay)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer,
            lambda s: lr_factor(s, total_updates, train.warmup_steps, train.schedule),
        )
        self.rng = random.Random(seed)

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def _logprobs(self, model: Any, samples: Sequence[Sample], grad: bool) -> list[torch.Tensor]:
        """Per-micro-batch [b, T-1] log-probs of the samples' tokens under `model`."""
        out = []
        mb = self.train_config.micro_batch_size
        for i in range(0, len(samples), mb):
            ids, attention, response, _ = pad_batch(samples[i : i + mb], self.pad_id)
            with torch.set_grad_enabled(grad):
                out.append(
                    token_logprobs(
                        model,
                        ids.to(self.device),
                        attention.to(self.device),
                        temperature=self.agent.temperature,
                        positions=response.to(self.device),  # no LM head on prompt tokens
                    )
                )
        return out

    def _reference_logprobs(self, samples: Sequence[Sample]) -> list[torch.Tensor] | None:
        if self.loss_config.kl_coef == 0:
            return None
        if self.ref is not None:
            return self._logprobs(self.ref, samples, grad=False)
        with self.model.disable_adapter():
            return self._logprobs(self.model, samples, grad=False)

    def update(self, samples: Sequence[Sample]) -> dict[str, float]:
        """One training step on this agent's samples: `updates_per_step` optimizer steps."""
        if not samples:
            return {}
        samples = list(samples)
        self.rng.shuffle(samples)
        n_mini = min(self.train_config.updates_per_step, len(samples))
        minis = [samples[i::n_mini] for i in range(n_mini)]
        self.model.eval()  # no dropout: old/rollout/current log-probs must be comparable
        # With one optimizer step the policy at rollout time is the current one: "old" equals
        # the current log-probs, detached, so the extra forward pass is skipped.
        olds: list[list[torch.Tensor] | None] = [
            self._logprobs(self.model, mini, grad=False) if n_mini > 1 else None for mini in minis
        ]
        refs = [self._reference_logprobs(mini) for mini in minis]
        totals: dict[str, float] = {}
        for mini, old, ref in zip(minis, olds, refs, strict=True):
            stats = self._optimizer_step(mini, old, ref)
            for key, value in stats.items():
                totals[key] = totals.get(key, 0.0) + value / n_mini
        totals["lr"] = self.scheduler.get_last_lr()[0]
        totals["samples"] = float(len(samples))
        totals["tokens"] = float(sum(len(s.response_ids) for s in samples))
        return totals

    def _optimizer_step(
        self,
        samples: Sequence[Sample],
        old: list[torch.Tensor] | None,
        ref: list[torch.Tensor] | None,
    ) -> dict[str, float]:
        mb = self.train_config.micro_batch_size
        n_tokens = sum(len(s.response_ids) for s in samples)
        self.optimizer.zero_grad(set_to_none=True)
        sums: dict[str, float] = {}
        loss_total = 0.0
        for k, i in enumerate(range(0, len(samples), mb)):
            micro = samples[i : i + mb]
            ids, attention, mask, rollout = pad_batch(micro, self.pad_id)
            logp = token_logprobs(  # chunked: never a [b, T, V] logits tensor
                self.model,
                ids.to(self.device),
                attention.to(self.device),
                temperature=self.agent.temperature,
                positions=mask.to(self.device),  # no LM head on prompt tokens
            )
            advantages = torch.tensor([s.advantage for s in micro], dtype=torch.float32)
            loss, stats = policy_loss(
                self.loss_config,
                logp,
                logp.detach() if old is None else old[k],
                advantages.to(self.device),
                mask.to(self.device),
                rollout_logp=rollout.to(self.device) if self.loss_config.tis != "none" else None,
                ref_logp=ref[k] if ref is not None else None,
                loss_scale_tokens=n_tokens,
                loss_scale_seqs=len(samples),
                norm_len=self.agent.max_new_tokens,
            )
            loss.backward()
            loss_total += float(loss.detach())
            # the loss's statistics are token-weighted means over the micro-batch
            weight = stats.pop("tokens", 0.0) / max(n_tokens, 1)
            stats.pop("seqs", None)
            stats.pop("loss", None)
            for key, value in stats.items():
                sums[key] = sums.get(key, 0.0) + value * weight
        params = [p for p in self.model.parameters() if p.requires_grad]
        clip = self.train_config.grad_clip
        norm = torch.nn.utils.clip_grad_norm_(params, clip if clip > 0 else float("inf"))
        self.optimizer.step()
        self.scheduler.step()
        sums["loss"] = loss_total
        sums["grad_norm"] = float(norm)
        return sums

    def merged_state_dict(self) -> dict[str, torch.Tensor]:
        """Full weights for an external engine (LoRA adapters merged into a copy of the base)."""
        if self.agent.lora_rank == 0:
            return {k: v.detach() for k, v in self.model.state_dict().items()}
        merged = copy.deepcopy(self.model).merge_and_unload()
        return {k: v.detach() for k, v in merged.state_dict().items()}

    def state_dict(self) -> dict[str, Any]:
        trainable = {k: v for k, v in self.model.state_dict().items() if "lora_" in k}
        return {
            "model": trainable if self.agent.lora_rank > 0 else self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "rng": self.rng.getstate(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.model.load_state_dict(state["model"], strict=self.agent.lora_rank == 0)
        self.optimizer.load_state_dict(state["optimizer"])
        self.scheduler.load_state_dict(state["scheduler"])
        self.rng.setstate(state["rng"])
