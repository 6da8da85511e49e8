"""The learner: LR schedule, batch layout, micro-batch invariance, and that updates move the
policy in the direction of the advantage."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
import torch
from transformers import LlamaForCausalLM

from learner_fixtures import _Tok, grouped_samples, samples, tiny_gemma_model, tiny_model
from mars2 import machine
from mars2.config import AgentConfig, LossConfig, TrainConfig
from mars2.engine import logprobs
from mars2.engine.logprobs import PACK_MULTIPLE, pack, token_logprobs
from mars2.rl import policy_loss
from mars2.training.learner import Learner, lr_factor, packed_micro_batches, pad_batch
from mars2.training.trainable import make_trainable, resolve_precision
from mars2.types import Sample


@pytest.mark.parametrize(
    ("step", "total", "warmup", "schedule", "expected"),
    [
        (0, 10, 2, "constant", 0.5),
        (1, 10, 2, "constant", 1.0),
        (5, 10, 2, "constant", 1.0),
        (6, 10, 2, "linear", 0.5),  # progress (6-2)/(10-2) = 0.5
        (6, 10, 2, "cosine", 0.5),  # 0.5 * (1 + cos(pi/2))
        (2, 10, 2, "cosine", 1.0),
        (10, 10, 0, "linear", 0.0),
    ],
)
def test_lr_factor(step: int, total: int, warmup: int, schedule: str, expected: float) -> None:
    assert lr_factor(step, total, warmup, schedule) == pytest.approx(expected)


def test_pad_batch_aligns_response_positions() -> None:
    s = Sample(
        agent_id=0,
        prompt_ids=[1, 2, 3],
        response_ids=[4, 5],
        rollout_logprobs=[-1.0, -2.0],
        advantage=1.0,
    )
    t = Sample(agent_id=0, prompt_ids=[6], response_ids=[7], rollout_logprobs=[-0.5], advantage=1.0)
    ids, attention, response, rollout = pad_batch([s, t], pad_id=0)
    assert ids.tolist() == [[1, 2, 3, 4, 5], [6, 7, 0, 0, 0]]
    assert attention.tolist() == [[1, 1, 1, 1, 1], [1, 1, 0, 0, 0]]
    # position t-1 scores token t: tokens 4 and 5 sit at 3 and 4, so positions 2 and 3
    assert response.tolist() == [[0, 0, 1, 1], [1, 0, 0, 0]]
    assert rollout.tolist() == [[0, 0, -1, -2], [-0.5, 0, 0, 0]]
    # rounded up to a multiple: more padding, the same values where the samples are
    wide = pad_batch([s, t], pad_id=0, multiple=4)
    assert [x.shape[1] for x in wide] == [8, 8, 7, 7]
    assert wide[0][:, :5].tolist() == ids.tolist() and not wide[1][:, 5:].any()
    assert wide[2][:, :4].tolist() == response.tolist() and not wide[2][:, 4:].any()


@pytest.mark.parametrize("logprobs", [[], [-1.0]])
def test_pad_batch_never_zero_fills_missing_rollout_logprobs(logprobs: list[float]) -> None:
    s = Sample(
        agent_id=0, prompt_ids=[1], response_ids=[4, 5], rollout_logprobs=logprobs, advantage=1.0
    )
    with pytest.raises(AssertionError, match="rollout log-probs missing"):
        pad_batch([s], pad_id=0)


def make_learner(
    model: LlamaForCausalLM, micro: int, updates: int = 1, tokens: int = 0, **loss: object
) -> Learner:
    """A learner on `model`: packed micro-batches of `tokens` tokens, or (0) padded ones of
    `micro` samples."""
    train = TrainConfig(
        lr=1e-2,
        micro_batch_size=micro,
        micro_batch_tokens=tokens,
        updates_per_step=updates,
        grad_clip=0.0,
    )
    return Learner(
        model,
        _Tok(),
        AgentConfig(model="tiny"),
        train,
        LossConfig(**loss),  # type: ignore[arg-type]
        total_updates=10,
        seed=0,
    )


def assert_same_gradients(a: Learner, b: Learner) -> None:
    # Compare the accumulated gradients: Adam's first step is ~lr·sign(g), which would turn
    # float noise in near-zero gradient entries into full-size weight differences.
    for (n, p), (_, q) in zip(a.model.named_parameters(), b.model.named_parameters(), strict=True):
        assert p.grad is not None and q.grad is not None, n
        assert torch.allclose(p.grad, q.grad, rtol=1e-4, atol=1e-7), n


@pytest.mark.parametrize(
    "aggregation", ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum-norm"]
)
@pytest.mark.parametrize("name", ["grpo", "gspo"])
@pytest.mark.parametrize(
    ("whole", "split"),
    [
        ({"micro": 4}, {"micro": 1}),  # padded: 4 samples per pass vs one
        ({"micro": 1, "tokens": 1000}, {"micro": 1, "tokens": 1}),  # packed: all vs each alone
        ({"micro": 1, "tokens": 1000}, {"micro": 4}),  # packed vs padded
    ],
)
def test_update_is_invariant_to_micro_batching(
    name: str, aggregation: str, whole: dict[str, int], split: dict[str, int]
) -> None:
    base = tiny_model()
    a = make_learner(copy.deepcopy(base), **whole, name=name, aggregation=aggregation)
    b = make_learner(copy.deepcopy(base), **split, name=name, aggregation=aggregation)
    assert a.packing == ("tokens" in whole) and b.packing == ("tokens" in split)
    a.update(grouped_samples())
    b.update(grouped_samples())
    assert_same_gradients(a, b)


def alike_samples() -> list[Sample]:
    """Samples of three prompts, two of which begin alike ([1, 2, 3, ...])."""
    rows = [
        ([1, 2, 3, 9], [4, 5]),
        ([7, 8], [6]),
        ([1, 2, 3, 4, 4], [5, 6, 7]),
        ([1, 2, 3, 9], [8]),
    ]
    return [
        Sample(
            agent_id=0, prompt_ids=p, response_ids=r, rollout_logprobs=[-1.0] * len(r), advantage=a
        )
        for (p, r), a in zip(rows, [1.0, -1.0, 0.5, -0.5], strict=True)
    ]


def test_packed_micro_batches_count_shared_leading_tokens_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(logprobs, "MIN_SHARED_PREFIX", 3)
    batch = alike_samples()
    # prompts in token order: [1, 2, 3, 4, 4] (5 + 3), [1, 2, 3, 9] (1 more + 2 + 1), [7, 8]
    # (2 + 1): 15 packed tokens in all, where whole prompts would take 18
    assert [[batch.index(s) for s in m] for m in packed_micro_batches(batch, 15)] == [[2, 0, 3, 1]]
    assert [[batch.index(s) for s in m] for m in packed_micro_batches(batch, 12)] == [
        [2, 0, 3],
        [1],
    ]
    (micro,) = packed_micro_batches(batch, 15)
    assert len(pack([s.prompt_ids for s in micro], [s.response_ids for s in micro])) == 15


def test_an_update_over_prompts_that_begin_alike_equals_the_padded_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(logprobs, "MIN_SHARED_PREFIX", 3)
    base = tiny_model()
    packed, rows = make_learner(copy.deepcopy(base), 1, tokens=1000), make_learner(base, 4)
    assert packed.packing and not rows.packing
    packed.update(alike_samples())
    rows.update(alike_samples())
    assert_same_gradients(packed, rows)


def test_packed_micro_batches_share_prompts_within_the_token_budget() -> None:
    batch = grouped_samples()  # prompts [1,2,3] (responses 3, 1, 2) and [5,6] (2, 4, 3)
    # everything fits: one pass of 3 + 6 + 2 + 9 = 20 tokens, grouped by prompt
    assert [[batch.index(s) for s in m] for m in packed_micro_batches(batch, 20)] == [
        [0, 2, 4, 1, 3, 5]
    ]
    # 19 tokens: the groups (9 and 11 packed tokens) go apart
    assert [[batch.index(s) for s in m] for m in packed_micro_batches(batch, 19)] == [
        [0, 2, 4],
        [1, 3, 5],
    ]
    # 8 tokens: the second group is cut, each part with its prompt: 2+2+4 | 2+3
    assert [[batch.index(s) for s in m] for m in packed_micro_batches(batch, 8)] == [
        [0, 2],  # 3 + 3 + 1 = 7; adding 2 more would make 9
        [4],
        [1, 3],
        [5],
    ]
    # a budget below any sample: each alone
    assert [len(m) for m in packed_micro_batches(batch, 1)] == [1] * 6


def test_positive_advantage_raises_log_prob() -> None:
    model = tiny_model()
    learner = make_learner(model, micro=2, tis="none")
    good = samples()[0]
    ids, attention, mask, _ = pad_batch([good], 0)

    def seq_logp() -> float:
        with torch.no_grad():
            return float((token_logprobs(model, ids, attention) * mask).sum())

    before = seq_logp()
    for _ in range(3):
        stats = learner.update([good, samples()[1]])
    assert seq_logp() > before
    assert stats["samples"] == 2 and torch.isfinite(torch.tensor(stats["loss"]))


def test_lora_trains_only_adapters_and_checkpoints_them() -> None:
    model = tiny_model().train()
    agent = AgentConfig(model="tiny", lora_rank=4)
    learner = Learner(model, _Tok(), agent, TrainConfig(lr=1e-2), LossConfig(), total_updates=4)
    assert not learner.model.training  # in eval mode from the start: no dropout, no switching
    trainable = [n for n, p in learner.model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n for n in trainable)
    learner.update(samples())
    state = learner.state_dict()
    assert state["weights"] and all("lora_" in k for k in state["weights"])


def test_lora_initialisation_follows_the_learner_seed() -> None:
    """Same seed, same adapter (so a run's starting checksum and trajectory repeat); another
    seed, another adapter; torch's global generator is left where it was."""

    def adapter(seed: int) -> dict[str, torch.Tensor]:
        agent = AgentConfig(model="tiny", lora_rank=4)
        learner = Learner(
            tiny_model(), _Tok(), agent, TrainConfig(), LossConfig(), total_updates=1, seed=seed
        )
        return {k: v.clone() for k, v in learner.state_dict()["weights"].items()}

    first, again, other = adapter(1), adapter(1), adapter(2)
    model = tiny_model()
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    make_trainable(model, AgentConfig(model="tiny", lora_rank=4), seed=1)
    assert torch.equal(torch.rand(3), expected)
    a_keys = [k for k in first if "lora_A" in k]
    assert a_keys and first.keys() == again.keys() == other.keys()
    assert all(torch.equal(first[k], again[k]) for k in first)
    assert not any(torch.equal(first[k], other[k]) for k in a_keys)


@pytest.mark.parametrize("name", ["grpo", "gspo"])
def test_single_update_reuses_the_gradient_pass_as_old_policy(name: str) -> None:
    """With one optimizer step, π_old is the gradient pass's own log-probs: the step matches one
    taken against separately recomputed old log-probs, and no extra forward pass runs."""
    base = tiny_model()
    fast = make_learner(copy.deepcopy(base), micro=2, name=name, tis="token")
    slow = make_learner(copy.deepcopy(base), micro=2, name=name, tis="token")
    calls = []
    fast.model.model.register_forward_hook(lambda *_: calls.append(1))
    fast.update(samples())
    assert len(calls) == 2  # two micro-batches, one pass each
    batch = samples()
    slow.rng.shuffle(batch)  # the order update() uses with the same seed
    slow.model.eval()
    slow._optimizer_step(batch, slow._logprobs(slow.model, batch, grad=False), None)
    for (n, a), (_, b) in zip(
        fast.model.named_parameters(), slow.model.named_parameters(), strict=True
    ):
        assert a.grad is not None and b.grad is not None, n
        assert torch.allclose(a.grad, b.grad, rtol=1e-5, atol=1e-7), n


def full_logits_logprobs(
    model: LlamaForCausalLM, ids: torch.Tensor, attention: torch.Tensor, temperature: float
) -> torch.Tensor:
    """The unchunked reference: log_softmax over the whole [B, T, V] logits at every position."""
    position_ids = (attention.cumsum(-1) - 1).clamp(min=0)
    logits = model(input_ids=ids, attention_mask=attention, position_ids=position_ids).logits
    logp = (
        (logits[:, :-1].float() / temperature)
        .log_softmax(-1)
        .gather(-1, ids[:, 1:, None])
        .squeeze(-1)
    )
    return logp * attention[:, 1:]


@pytest.mark.parametrize("name", ["grpo", "gspo"])
def test_chunked_step_equals_the_full_logits_step(name: str) -> None:
    """The learner's log-probs (chunked, response positions only) and the gradients of its
    optimizer step equal those of a plain full-vocabulary computation."""
    base = tiny_model(3)
    learner = make_learner(copy.deepcopy(base), micro=2, name=name, tis="token")
    learner.optimizer.param_groups[0]["lr"] = 0.0  # keep the weights: compare gradients
    batch = samples()
    ours = learner._logprobs(learner.model, batch, grad=False)
    reference = copy.deepcopy(base)
    loss_config = LossConfig(name=name, tis="token")  # type: ignore[arg-type]
    n_tokens = sum(len(s.response_ids) for s in batch)
    for k, i in enumerate(range(0, len(batch), 2)):
        ids, attention, mask, rollout = pad_batch(batch[i : i + 2], 0)
        want = full_logits_logprobs(reference, ids, attention, learner.agent.temperature)
        # the learner pads further (engine.logprobs.PACK_MULTIPLE): the same values, then zeros
        width = mask.shape[1]
        assert (
            ours[k].shape[1] % PACK_MULTIPLE == PACK_MULTIPLE - 1 and not ours[k][:, width:].any()
        )
        assert torch.allclose(ours[k][:, :width] * mask, want * mask, atol=1e-5)
        assert (ours[k][:, :width][mask == 0] == 0).all()  # no work, and no value, off the response
        loss, _ = policy_loss(
            loss_config,
            want,
            want.detach(),
            torch.tensor([s.advantage for s in batch[i : i + 2]]),
            mask,
            rollout_logp=rollout,
            loss_scale_tokens=n_tokens,
            loss_scale_seqs=len(batch),
            norm_len=learner.agent.max_new_tokens,
        )
        loss.backward()
    learner._optimizer_step(batch, None, None)
    for (n, a), (_, b) in zip(
        learner.model.named_parameters(), reference.named_parameters(), strict=True
    ):
        assert a.grad is not None and b.grad is not None, n
        assert torch.allclose(a.grad, b.grad, rtol=1e-4, atol=1e-6), n


@pytest.mark.parametrize("lora", [0, 4])
def test_activation_checkpointing_gives_the_same_gradients(lora: int) -> None:
    """Recomputing each decoder layer in backward changes memory, not the update; a no-grad
    forward (generation on a shared model) does not recompute anything."""
    base = tiny_model(5)
    grads = []
    calls: list[int] = []  # pre-hooks: a recompute stops once it has what backward needs
    for on in (False, True):
        # packed, one sample per pass (a budget below every sample)
        train = TrainConfig(
            lr=1e-2, micro_batch_tokens=1, grad_clip=0.0, activation_checkpointing=on
        )
        agent = AgentConfig(model="tiny", lora_rank=lora)
        torch.manual_seed(0)  # the same LoRA initialisation both times
        learner = Learner(copy.deepcopy(base), _Tok(), agent, train, LossConfig(), total_updates=4)
        learner.optimizer.param_groups[0]["lr"] = 0.0  # keep the weights: compare gradients
        calls.clear()
        layer = (
            learner.model.get_base_model().model.layers[0]
            if lora
            else learner.model.model.layers[0]
        )
        layer.mlp.register_forward_pre_hook(lambda *_: calls.append(1))
        learner.update(samples())
        grads.append(
            {n: p.grad.clone() for n, p in learner.model.named_parameters() if p.grad is not None}
        )
        forwards = 2 * len(samples())  # a pass per sample, twice each when recomputed
        assert len(calls) == (forwards if on else forwards // 2)
        calls.clear()
        with torch.no_grad():
            learner.model(input_ids=torch.tensor([[1, 2, 3]]))
        assert len(calls) == 1
    assert grads[0].keys() == grads[1].keys() and grads[0]
    for name, grad in grads[0].items():
        assert torch.allclose(grad, grads[1][name], rtol=1e-5, atol=1e-7), name


def bf16_pair(seed: int = 3, lora_rank: int = 0, **loss: object) -> tuple[Learner, Learner]:
    """Learners in fp32 and bf16 on copies of one tiny model (with a LoRA adapter when
    `lora_rank` > 0)."""
    base = tiny_model(seed)
    pair = []
    for precision in ("fp32", "bf16"):
        train = TrainConfig(lr=1e-2, grad_clip=0.0, precision=precision)  # type: ignore[arg-type]
        pair.append(
            Learner(
                copy.deepcopy(base),
                _Tok(),
                AgentConfig(model="tiny", lora_rank=lora_rank),
                train,
                LossConfig(**loss),  # type: ignore[arg-type]
                total_updates=4,
            )
        )
    return pair[0], pair[1]


def test_bf16_gradients_and_update_agree_with_fp32() -> None:
    """bf16 autocast changes rounding, not the update: the gradient's direction within 1%
    (cosine >= 0.99), its norm within 5%, and the first AdamW step within 10% of the fp32 one
    (relative norm of the difference of the weight changes: Adam's first step is ~lr·sign(g),
    so only entries whose sign rounding flips can move apart)."""
    fp32, bf16 = bf16_pair()
    assert (fp32.precision, bf16.precision) == ("fp32", "bf16")
    before = {n: p.detach().clone() for n, p in fp32.model.named_parameters()}
    recorded = [learner.update(grouped_samples())["bf16"] for learner in (fp32, bf16)]
    assert recorded == [0.0, 1.0]  # metrics.jsonl's bf16/<agent>
    g32 = torch.cat([p.grad.flatten() for p in fp32.model.parameters() if p.grad is not None])
    g16 = torch.cat([p.grad.flatten() for p in bf16.model.parameters() if p.grad is not None])
    assert torch.nn.functional.cosine_similarity(g32, g16, dim=0) >= 0.99
    assert abs(g16.norm() / g32.norm() - 1) <= 0.05
    assert all(p.dtype == torch.float32 for p in bf16.model.parameters())  # master weights
    step32 = torch.cat(
        [(p.detach() - before[n]).flatten() for n, p in fp32.model.named_parameters()]
    )
    step16 = torch.cat(
        [(p.detach() - before[n]).flatten() for n, p in bf16.model.named_parameters()]
    )
    assert (step16 - step32).norm() / step32.norm() <= 0.10


def test_bf16_ratios_tis_and_kl_compare_logprobs_computed_alike() -> None:
    """The old, current and reference log-probs all come from bf16 passes: with the weights
    held (lr 0) a LoRA agent's policy is its reference (adapter B = 0) and its old policy, so
    the KL is exactly 0 and every ratio exactly 1 over two optimizer steps (old log-probs from
    a separate no-grad pass), which a float32 reference or old pass would break."""
    base = tiny_model(4)
    train = TrainConfig(lr=1e-2, grad_clip=0.0, precision="bf16", updates_per_step=2)
    agent = AgentConfig(model="tiny", lora_rank=4)
    learner = Learner(
        base, _Tok(), agent, train, LossConfig(kl_coef=0.1, tis="token"), total_updates=4
    )
    learner.optimizer.param_groups[0]["lr"] = 0.0
    stats = learner.update(grouped_samples())
    assert learner.precision == "bf16"
    assert stats["kl"] == 0.0 and stats["ratio_mean"] == 1.0 and stats["clip_frac"] == 0.0


def test_auto_precision_is_fp32_on_every_cpu_and_an_explicit_one_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # results/precision: the bf16 learner was not shown non-inferior, so no CPU probe picks it
    cpu = torch.device("cpu")
    for amx, speedup in ((False, 0.6), (False, 2.0), (True, 0.0), (True, 3.0)):
        monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda amx=amx: amx)
        monkeypatch.setattr(machine, "bf16_product_speedup", lambda speedup=speedup: speedup)
        assert resolve_precision("auto", cpu) == "fp32"
    assert resolve_precision("fp32", cpu) == "fp32" and resolve_precision("bf16", cpu) == "bf16"


@pytest.mark.parametrize("build", [tiny_model, tiny_gemma_model], ids=["llama", "gemma"])
def test_a_bf16_lora_learner_keeps_its_frozen_model_and_residual_stream_in_bf16(
    build: Callable[[int], Any],
) -> None:
    """Base weights and norms stored in bfloat16, the embedding's weight float32 (tied to the
    LM head) with its output cast: the hidden states between layers are bfloat16, as in the
    rollout engine's snapshot (Llama's and Gemma 3's); adapters and their optimizer state stay
    float32."""
    learner = Learner(
        build(5),
        _Tok(),
        AgentConfig(model="tiny", lora_rank=4),
        TrainConfig(lr=1e-2, precision="bf16"),
        LossConfig(),
        total_updates=4,
    )
    assert learner.frozen_bf16
    dtypes = {n: p.dtype for n, p in learner.model.named_parameters()}
    assert {d for n, d in dtypes.items() if "base_layer" in n or "norm" in n} == {torch.bfloat16}
    assert {d for n, d in dtypes.items() if "lora_" in n or "embed" in n} == {torch.float32}
    seen: list[torch.dtype] = []
    layers = learner.model.get_base_model().model.layers
    layers[1].register_forward_pre_hook(lambda _m, args: seen.append(args[0].dtype))
    learner.update(grouped_samples())
    assert seen and set(seen) == {torch.bfloat16}
    states = [s for g in learner.optimizer.state_dict()["state"].values() for s in g.values()]
    assert {t.dtype for t in states if torch.is_tensor(t) and t.dim() > 0} == {torch.float32}


def test_bf16_lora_gradients_and_update_agree_with_fp32() -> None:
    """The bf16 LoRA learner (frozen model and residual stream in bfloat16) against the float32
    one on the same batch: the gradient's tolerances of
    `test_bf16_gradients_and_update_agree_with_fp32`, and the adapters' first AdamW step within
    20%. That step is ~lr·sign(g) on B only (B = 0 gives A no gradient yet), so the near-zero
    entries whose sign rounding flips set it: 0.06-0.14 on seeds 5-7 here, and 0.07-0.12 with
    the float32 residual stream this scheme replaced."""
    pair = bf16_pair(seed=5, lora_rank=4)
    assert not pair[0].frozen_bf16 and pair[1].frozen_bf16
    before = {n: p.detach().float().clone() for n, p in pair[0].model.named_parameters()}
    for learner in pair:
        learner.update(grouped_samples())
    grads = [
        torch.cat([p.grad.flatten() for p in learner.model.parameters() if p.grad is not None])
        for learner in pair
    ]
    assert torch.nn.functional.cosine_similarity(grads[0], grads[1], dim=0) >= 0.99
    assert abs(grads[1].norm() / grads[0].norm() - 1) <= 0.05
    steps = [
        torch.cat(
            [
                (p.detach().float() - before[n]).flatten()
                for n, p in learner.model.named_parameters()
                if "lora_" in n
            ]
        )
        for learner in pair
    ]
    assert steps[0].norm() > 0
    assert (steps[1] - steps[0]).norm() / steps[0].norm() <= 0.20


def test_a_bf16_base_merges_its_adapter_in_float32() -> None:
    """The engine's snapshot and `merged_state_dict` add the adapter to the bfloat16 base in
    float32: a small trained delta is not rounded away before the snapshot's own cast."""
    from mars2.engine.llama_weights import LlamaWeights

    agent = AgentConfig(model="tiny", lora_rank=4)
    train = TrainConfig(lr=1e-2, grad_clip=0.0, precision="bf16")
    learner = Learner(tiny_model(5), _Tok(), agent, train, LossConfig(), total_updates=4)
    learner.update(grouped_samples())
    q = learner.model.base_model.model.model.layers[0].self_attn.q_proj
    delta = q.get_delta_weight("default")
    assert delta.abs().max() > 0  # the adapter moved
    expected = q.base_layer.weight.float() + delta
    rounded = (q.base_layer.weight + delta.to(torch.bfloat16)).float()  # a bf16 merge
    assert not torch.allclose(rounded, expected, rtol=0, atol=1e-7)
    merged = learner.merged_state_dict()["model.layers.0.self_attn.q_proj.weight"]
    assert merged.dtype == torch.float32
    torch.testing.assert_close(merged, expected, rtol=0, atol=1e-7)
    snapshot = LlamaWeights(learner.model, pack=False)  # in the model's dtype, float32
    rows = expected.shape[0]
    torch.testing.assert_close(snapshot.layers[0].qkv.weight[:rows], expected, rtol=0, atol=1e-7)


def test_a_second_adapter_on_a_bf16_base_trains_in_float32() -> None:
    """MARS² agents train their own adapters on one base: the second one, added after the first
    learner stored the base in bfloat16, still keeps float32 weights (and optimizer state)."""
    agent = AgentConfig(model="tiny", lora_rank=4)
    train = TrainConfig(lr=1e-2, precision="bf16")
    first = Learner(tiny_model(5), _Tok(), agent, train, LossConfig(), total_updates=4)
    second = Learner(
        first.model, _Tok(), agent, train, LossConfig(), total_updates=4, adapter="debugger"
    )
    lora = {n: p.dtype for n, p in second.model.named_parameters() if "lora_" in n}
    assert any("debugger" in n for n in lora) and set(lora.values()) == {torch.float32}
    assert len(first.model.get_input_embeddings()._forward_hooks) == 1  # cast once, not twice
    assert second.frozen_bf16 and all(
        p.dtype == torch.float32 for group in second.optimizer.param_groups for p in group["params"]
    )
