"""One agent's learner: its trainable weights, optimizer, LR schedule and the policy update.

The update follows docs/algorithms.md, "Policy losses": "old" log-probs are recomputed by the
learner before the first optimizer step of a training step (with one optimizer step per training
step they are the gradient pass's own log-probs, detached: the same values without a second
forward pass), rollout log-probs come from the engine (TIS), an optional frozen reference gives
the KL term. A training step's samples are split into `updates_per_step` mini-batches (one
optimizer step each), each mini-batch into micro-batches with gradient accumulation: packed ones
(`packed_micro_batches`: a shared prompt once, no padding) or padded rows; the loss is normalised
over the whole mini-batch, so the gradient does not depend on how the mini-batch is cut. Every
pass runs in `train.precision` (`resolve_precision`).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import Any

import torch

from mars2 import heap
from mars2.config import AgentConfig, LossConfig, TrainConfig
from mars2.engine.logprobs import (
    PACK_MULTIPLE,
    packable,
    packed_logprobs,
    shared_prefixes,
    token_logprobs,
    use_block_attention,
)
from mars2.rl import policy_loss, sft_loss
from mars2.training.hindsight import RepairPair, repair_samples
from mars2.training.trainable import (
    checkpoint_layers,
    engine_uses_snapshot,
    frozen_in_bf16,
    make_trainable,
    resolve_precision,
)
from mars2.types import Sample


def _fused_adam(params: Sequence[torch.nn.Parameter]) -> bool:
    """Whether AdamW's fused kernel (one pass per tensor, no temporaries across the parameter
    list) can run on `params`: floating point, all on CPU or all on CUDA."""
    devices = {p.device.type for p in params}
    return (
        len(devices) == 1
        and devices <= {"cpu", "cuda"}
        and all(p.is_floating_point() for p in params)
    )


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


def pad_batch(
    samples: Sequence[Sample], pad_id: int, multiple: int = 1
) -> tuple[torch.Tensor, ...]:
    """Right-padded [B, T] input ids, attention mask, and [B, T-1] response mask and rollout
    log-probs aligned with `token_logprobs` (position t-1 scores token t); T is the longest
    sample rounded up to `multiple`."""
    width = max(len(s.prompt_ids) + len(s.response_ids) for s in samples)
    width += -width % multiple
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
        # to_samples guarantees one per response token; zeros would read as probability 1
        assert len(s.rollout_logprobs) == len(s.response_ids), "rollout log-probs missing"
        rollout[row, start:end] = torch.tensor(s.rollout_logprobs, dtype=torch.float32)
    return ids, attention, response, rollout


def packed_micro_batches(samples: Sequence[Sample], budget: int) -> list[list[Sample]]:
    """Split `samples` into micro-batches of at most `budget` packed tokens each, as
    `rl.packed_logprobs` lays them out: a shared prompt counted once, and a prompt that begins
    like the one leading its run counted without the leading tokens it reuses
    (`engine.logprobs.shared_prefixes`). Samples with one prompt stay together, the prompts in
    token order (one problem's prompts, alike up to their code and feedback, side by side); a
    group larger than the budget is cut into parts that each carry their own copy of the prompt.
    A single sample over the budget goes alone."""
    groups: dict[tuple[int, ...], list[Sample]] = {}
    for s in samples:
        groups.setdefault(tuple(s.prompt_ids), []).append(s)
    parts: list[tuple[tuple[int, ...], list[Sample]]] = []  # samples of one prompt copy
    for prompt in sorted(groups):
        part: list[Sample] = []
        cost = len(prompt)
        for s in groups[prompt]:
            if part and cost + len(s.response_ids) > budget:  # cut the group: a new prompt copy
                parts.append((prompt, part))
                part, cost = [], len(prompt)
            part.append(s)
            cost += len(s.response_ids)
        parts.append((prompt, part))
    micros: list[list[Sample]] = []
    prompts: list[tuple[int, ...]] = []  # the distinct prompts of the last micro-batch
    used = 0
    for prompt, part in parts:
        responses = sum(len(s.response_ids) for s in part)
        if micros:
            shared = shared_prefixes([*prompts, prompt])[-1][1]
            new = 0 if prompt in prompts else len(prompt) - shared
            if used + new + responses <= budget:
                micros[-1] += part
                prompts += [] if prompt in prompts else [prompt]
                used += new + responses
                continue
        micros.append(list(part))
        prompts, used = [prompt], len(prompt) + responses
    return micros


class _LogpGap:
    """How far the engine's sampling log-probs are from the learner's for the same tokens under
    the weights the engine was synced to ("old", before this step's update): the mean
    |log π_old - log π_rollout| per response token, `logp_diff`. Unlike the mean TIS weight,
    whose expectation under the engine's own samples is 1 however far apart the two are, this
    grows with the mismatch: a weight sync that never reached the engine shows here."""

    def __init__(self) -> None:
        self.sums: list[torch.Tensor] = []  # [gap, tokens] per micro-batch, left on the device

    def add(self, old: torch.Tensor, rollout: torch.Tensor, mask: torch.Tensor) -> None:
        valid = mask.to(old.device)  # [b, T-1] response tokens
        diff = (old.float() - rollout.to(old.device)).abs().where(valid.bool(), 0.0)
        self.sums.append(torch.stack([diff.sum(), valid.sum()]))

    def stats(self) -> dict[str, float]:
        """`logp_diff`, fetched with one device sync."""
        if not self.sums:
            return {}
        total, tokens = torch.stack(self.sums).sum(0).tolist()
        return {"logp_diff": total / tokens} if tokens else {}


class Learner:
    """Trains one agent on the samples it wrote (or one set of weights on the samples of the
    agents that share it, `agents.N.share_with`).

    With LoRA, `adapter` names this learner's adapter: learners built on the same peft model
    object each add their own adapter and optimizer over one frozen base, and an update
    activates its adapter first (updates run between rollouts, never during one).
    """

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
        adapter: str = "default",
    ) -> None:
        self.agent = agent
        self.adapter = adapter
        self.train_config = train
        self.loss_config = loss
        self.tokenizer = tokenizer
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        # The reference is the weights before training; with LoRA, the base with adapters off.
        self.ref = None
        if loss.kl_coef > 0 and agent.lora_rank == 0:
            self.ref = copy.deepcopy(model).eval().requires_grad_(False)
        self.model = make_trainable(model, agent, adapter, seed)
        self.model.eval()  # the learner never needs dropout (`_update`), nor its engine
        # Shared prompts computed once, no padding (rl.packed_logprobs) where the model allows
        self.packing = train.micro_batch_tokens > 0 and packable(self.model) is None
        if self.packing:  # and each pack's attention block by block (rl.use_block_attention)
            for packed_model in (self.model, self.ref):
                if packed_model is not None:
                    use_block_attention(packed_model)
        self.precision = resolve_precision(train.precision, self.device)
        # bf16 + LoRA: the frozen model and the residual stream in bfloat16, where no engine
        # runs this model object itself (the llama decoder generates with a snapshot)
        self.frozen_bf16 = (
            self.precision == "bf16" and agent.lora_rank > 0 and engine_uses_snapshot(model, agent)
        )
        if self.frozen_bf16:
            frozen_in_bf16(self.model)
        if train.activation_checkpointing:
            checkpoint_layers(self.model)
        self._activate()
        params = self._own_parameters()
        beta1, beta2 = train.adam_betas
        self.optimizer = torch.optim.AdamW(
            params,
            lr=train.lr,
            betas=(beta1, beta2),
            weight_decay=train.weight_decay,
            fused=_fused_adam(params),
        )
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer,
            lambda s: lr_factor(s, total_updates, train.warmup_steps, train.schedule),
        )
        self.rng = random.Random(seed)

    def _own_parameters(self) -> list[torch.nn.Parameter]:
        """The weights this learner trains: all of them, or its own LoRA adapter's."""
        if self.agent.lora_rank == 0:
            return list(self.model.parameters())
        tag = f".{self.adapter}."
        return [p for n, p in self.model.named_parameters() if "lora_" in n and tag in n]

    def _activate(self) -> None:
        """Make this learner's adapter the active (and only trainable) one of its peft model."""
        if self.agent.lora_rank > 0 and self.model.active_adapter != self.adapter:
            self.model.set_adapter(self.adapter)

    @property
    def device(self) -> torch.device:
        device: torch.device = next(self.model.parameters()).device
        return device

    def _micro_batches(self, samples: Sequence[Sample]) -> list[list[Sample]]:
        """The forward/backward passes of one mini-batch: packed up to `micro_batch_tokens`
        tokens, or `micro_batch_size` padded samples when the model cannot be packed."""
        if self.packing:
            return packed_micro_batches(samples, self.train_config.micro_batch_tokens)
        mb = self.train_config.micro_batch_size
        return [list(samples[i : i + mb]) for i in range(0, len(samples), mb)]

    def _forward(
        self, model: Any, micro: Sequence[Sample]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """[b, T-1] log-probs of the micro-batch's response tokens under `model` in `pad_batch`'s
        layout, with that layout's response mask and rollout log-probs (entries off the mask
        are 0). Never a [b, T, V] logits tensor: the LM head runs on chunks of response
        positions only."""
        # padded rows run the model: widths of few values, for the reason packs have them
        # (engine.logprobs.PACK_MULTIPLE); packed ones only use this layout for their results
        multiple = 1 if self.packing else PACK_MULTIPLE
        ids, attention, mask, rollout = pad_batch(micro, self.pad_id, multiple)
        mask = mask.to(self.device)
        # bf16: every pass (gradient, old, reference) under one autocast, so the ratios, TIS
        # and KL compare log-probs computed alike; weights and optimizer stay float32
        with torch.autocast(self.device.type, torch.bfloat16, enabled=self.precision == "bf16"):
            if self.packing:
                values = packed_logprobs(
                    model,
                    [s.prompt_ids for s in micro],
                    [s.response_ids for s in micro],
                    temperature=self.agent.temperature,
                )  # response tokens, sample by sample: the order masked_scatter fills
                logp = torch.zeros(mask.shape, device=self.device).masked_scatter(
                    mask.bool(), values
                )
            else:
                logp = token_logprobs(
                    model,
                    ids.to(self.device),
                    attention.to(self.device),
                    temperature=self.agent.temperature,
                    positions=mask,  # no LM head on prompt tokens
                )
        return logp, mask, rollout

    def _logprobs(self, model: Any, samples: Sequence[Sample], grad: bool) -> list[torch.Tensor]:
        """Per-micro-batch [b, T-1] log-probs of the samples' tokens under `model`."""
        with torch.set_grad_enabled(grad):
            return [self._forward(model, micro)[0] for micro in self._micro_batches(samples)]

    def _reference_logprobs(self, samples: Sequence[Sample]) -> list[torch.Tensor] | None:
        if self.loss_config.kl_coef == 0:
            return None
        if self.ref is not None:
            return self._logprobs(self.ref, samples, grad=False)
        with self.model.disable_adapter():
            return self._logprobs(self.model, samples, grad=False)

    def update(
        self,
        samples: Sequence[Sample],
        repairs: Sequence[RepairPair] = (),
        repair_weight: float = 0.0,
    ) -> dict[str, float]:
        """One training step on this agent's samples: `updates_per_step` optimizer steps. With
        `repairs` and `repair_weight` > 0 each step adds `repair_weight` x the supervised loss on
        its share of the repair pairs (`rl.sft_loss`); with no samples that term alone (the
        warm-up, `mars2 sft`)."""
        supervised = repair_weight > 0 and bool(repairs)
        if not samples and not supervised:
            return {}
        encoded = self.encode_repairs(repairs) if supervised else []
        # activations unmapped when freed: a lower peak (mars2.heap), during the update only
        with heap.large_blocks_to_os():
            totals = self._update(samples, encoded, repair_weight)
        heap.release()  # the micro-batches' activations: back to the OS before the rollout
        return totals

    def encode_repairs(self, repairs: Sequence[RepairPair]) -> list[Sample]:
        """Repair pairs as token ids, the prompt rendered as this agent's engine renders it."""
        return repair_samples(repairs, self.tokenizer, 0, self.agent.max_prompt_tokens)

    def _update(
        self,
        samples: Sequence[Sample],
        supervised: Sequence[Sample] = (),
        supervised_weight: float = 0.0,
    ) -> dict[str, float]:
        self._activate()
        samples = list(samples)
        self.rng.shuffle(samples)
        supervised = list(supervised)
        if supervised:  # never drawn without pairs: the RL-only update is today's exactly
            self.rng.shuffle(supervised)
        n_mini = min(self.train_config.updates_per_step, len(samples) or len(supervised))
        minis = [samples[i::n_mini] for i in range(n_mini)]
        supervised_minis = [supervised[i::n_mini] for i in range(n_mini)]
        self.model.eval()  # no dropout: old/rollout/current log-probs must be comparable
        # With one optimizer step the policy at rollout time is the current one: "old" equals
        # the current log-probs, detached, so the extra forward pass is skipped.
        olds: list[list[torch.Tensor] | None] = [
            self._logprobs(self.model, mini, grad=False) if n_mini > 1 else None for mini in minis
        ]
        refs = [self._reference_logprobs(mini) for mini in minis]
        totals: dict[str, float] = {}
        for mini, old, ref, extra in zip(minis, olds, refs, supervised_minis, strict=True):
            stats = self._optimizer_step(mini, old, ref, extra, supervised_weight)
            for key, value in stats.items():
                totals[key] = totals.get(key, 0.0) + value / n_mini
        totals["lr"] = float(self.scheduler.get_last_lr()[0])
        totals["bf16"] = float(self.precision == "bf16")  # the run records its precision
        totals["samples"] = float(len(samples))
        totals["tokens"] = float(sum(len(s.response_ids) for s in samples))
        if supervised:
            totals["sft_pairs"] = float(len(supervised))
            totals["sft_tokens"] = float(sum(len(s.response_ids) for s in supervised))
        return totals

    def _optimizer_step(
        self,
        samples: Sequence[Sample],
        old: list[torch.Tensor] | None,
        ref: list[torch.Tensor] | None,
        supervised: Sequence[Sample] = (),
        supervised_weight: float = 0.0,
    ) -> dict[str, float]:
        n_tokens = sum(len(s.response_ids) for s in samples)
        self.optimizer.zero_grad(set_to_none=True)
        sums: dict[str, float] = {}
        loss_total = 0.0
        gap = _LogpGap()
        for k, micro in enumerate(self._micro_batches(samples)):
            logp, mask, rollout = self._forward(self.model, micro)
            gap.add(logp.detach() if old is None else old[k], rollout, mask)
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
            loss.backward()  # type: ignore[no-untyped-call]
            loss_total += float(loss.detach())
            # the loss's statistics are token-weighted means over the micro-batch
            weight = stats.pop("tokens", 0.0) / max(n_tokens, 1)
            stats.pop("seqs", None)
            stats.pop("loss", None)
            for key, value in stats.items():
                sums[key] = sums.get(key, 0.0) + value * weight
        if supervised:
            nll = self._supervised_backward(supervised, supervised_weight)
            loss_total += supervised_weight * nll
            sums["sft_nll"] = nll
        params = [p for p in self.model.parameters() if p.requires_grad]
        clip = self.train_config.grad_clip
        norm = torch.nn.utils.clip_grad_norm_(params, clip if clip > 0 else float("inf"))
        self.optimizer.step()
        self.scheduler.step()
        sums["loss"] = loss_total
        sums["grad_norm"] = float(norm)
        sums.update(gap.stats())
        return sums

    def _supervised_backward(self, samples: Sequence[Sample], weight: float) -> float:
        """Accumulate the gradient of `weight` x the supervised loss of `samples` (prompt ->
        target, `rl.sft_loss`: target tokens only, normalised by all of the mini-batch's target
        tokens) at the sampling temperature, as the policy loss sees the policy; return L_sft."""
        n_tokens = sum(len(s.response_ids) for s in samples)
        total = 0.0
        for micro in self._micro_batches(samples):
            logp, mask, _ = self._forward(self.model, micro)
            loss = sft_loss(logp, mask.to(self.device), n_tokens)
            (weight * loss).backward()  # type: ignore[no-untyped-call]
            total += float(loss.detach())
        return total

    def merged_state_dict(self) -> dict[str, torch.Tensor]:
        """Full weights for an external engine (LoRA adapters merged into a copy of the base)."""
        if self.agent.lora_rank == 0:
            return {k: v.detach() for k, v in self.model.state_dict().items()}
        model = copy.deepcopy(self.model)
        if self.frozen_bf16:  # merge in float32: a bfloat16 base would round the adapter away
            model.float()
        merged = model.merge_and_unload(adapter_names=[self.adapter])
        return {k: v.detach() for k, v in merged.state_dict().items()}

    def weights(self) -> dict[str, torch.Tensor]:
        """The trained weights with the names their files use: the model's state dict (HF names)
        or, with LoRA, this learner's adapter as peft saves it (`adapter_model.safetensors`)."""
        if self.agent.lora_rank == 0:
            return {k: v.detach() for k, v in self.model.state_dict().items()}
        from peft import get_peft_model_state_dict

        state = get_peft_model_state_dict(self.model, adapter_name=self.adapter)
        return {k: v.detach() for k, v in state.items()}

    def state_dict(self) -> dict[str, Any]:
        """Weights (`weights()`), the LoRA config (None for full fine-tuning), optimizer,
        scheduler and the shuffling RNG: what a checkpoint stores of this learner."""
        return {
            "weights": self.weights(),
            "lora": self.model.peft_config[self.adapter] if self.agent.lora_rank > 0 else None,
            "optimizer": self.optimizer.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "rng": self.rng.getstate(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        load_weights(
            self.model, state["weights"], lora=self.agent.lora_rank > 0, adapter=self.adapter
        )
        self.optimizer.load_state_dict(state["optimizer"])
        self.scheduler.load_state_dict(state["scheduler"])
        self.rng.setstate(state["rng"])


def load_weights(
    model: Any, weights: dict[str, torch.Tensor], *, lora: bool, adapter: str = "default"
) -> None:
    """Copy `weights` (as `Learner.weights` names them) into `model`.

    Full weights may lack the tied copies that files store once (`lm_head.weight` of a model
    with tied embeddings); any other missing or unknown name is an error.
    """
    if lora:
        from peft import set_peft_model_state_dict

        result = set_peft_model_state_dict(model, weights, adapter_name=adapter)
        unexpected = [k for k in getattr(result, "unexpected_keys", []) if "lora_" in k]
        if unexpected:
            raise ValueError(f"adapter weights with unknown names: {unexpected[:5]}")
        return
    current = model.state_dict()
    missing, unexpected = model.load_state_dict(weights, strict=False)
    stored = {current[k].data_ptr() for k in weights if k in current}
    untied = [k for k in missing if current[k].data_ptr() not in stored]
    if untied or unexpected:
        raise ValueError(
            f"weights do not fit the model: missing {untied[:5]}, unknown {unexpected[:5]}"
        )
