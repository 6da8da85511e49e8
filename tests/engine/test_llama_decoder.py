"""The lean Llama decoder (mars2.engine.llama) against the transformers model it stands for:
the same logits through prefill, decode steps, rows joining and leaving and cache growth; LoRA
adapters folded in (one adapter of several included); which models and settings use it."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import pytest
import torch

from mars2.agents.hf import resolve_decoder, resolve_rollout_dtype
from mars2.config import AgentConfig
from mars2.engine import llama, llama_weights
from mars2.engine.decode import compact
from mars2.engine.llama import LlamaBatch
from mars2.engine.llama_weights import LlamaWeights, unsupported

ATOL = 1e-4  # float32 rounding: the two compute the same sums in different orders


def reference(model: Any, ids: list[int]) -> torch.Tensor:
    """transformers' next-token logits after `ids`."""
    with torch.no_grad():
        return model(input_ids=torch.tensor([ids])).logits[0, -1].float()  # type: ignore[no-any-return]


def prompts(n: int, seed: int = 0) -> list[list[int]]:
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(3, 500, (int(k),), generator=g).tolist() for k in [5, 17, 9, 30][:n]]


def test_prefill_steps_joins_and_leaves_match_transformers(
    lean: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(llama, "SLOTS_MULTIPLE", 8)  # the cache grows several times below
    model = lean
    batch = LlamaBatch(LlamaWeights(model))
    seqs = prompts(4)
    rows = seqs[:2]
    with torch.no_grad():
        logits = batch.prefill(rows)
        for step in range(12):
            for row, got in zip(rows, logits, strict=True):
                assert torch.allclose(got, reference(model, row), atol=ATOL), step
            if step == 3:  # two more rows join, one longer than any cached row
                logits = torch.cat([logits, batch.prefill(seqs[2:])])
                rows = rows + seqs[2:]
                continue
            if step == 6:  # rows 0 and 2 leave: the last row moves into a freed slot
                batch.keep([1, 3])
                rows, logits = [rows[1], rows[3]], logits[[1, 3]]
            tokens = logits.argmax(-1)
            rows = [[*row, int(t)] for row, t in zip(rows, tokens, strict=True)]
            logits = batch.step(tokens)
    assert batch.size == 2 and batch.lens.tolist() == [len(r) for r in rows]
    assert batch.capacity[1] >= max(map(len, rows))
    batch.reset()
    assert batch.size == 0


def test_cache_holds_what_rows_need_and_headroom_avoids_growth(
    tiny: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(llama, "SLOTS_MULTIPLE", 8)
    monkeypatch.setattr(llama, "PREFILL_MULTIPLE", 32)
    model, _ = tiny
    weights = LlamaWeights(model)
    tokens = torch.tensor([5, 6])
    with torch.no_grad():
        roomy = LlamaBatch(weights, headroom=12)
        # rows of 5 and 17 tokens, prefilled 32 wide (PREFILL_MULTIPLE): max(17 + 12, 32)
        roomy.prefill(prompts(2))
        assert roomy.capacity == (2, 32)
        held = roomy.k[0]
        for _ in range(11):  # a decoder with max_new_tokens=12 feeds 11 tokens back
            roomy.step(tokens)
        assert roomy.k[0] is held  # never reallocated (nor copied) mid-decode

        tight = LlamaBatch(weights)
        tight.prefill(prompts(2))
        assert tight.capacity[1] == 32
        for _ in range(15):  # 32 positions: the 33rd grows the cache to 40, not to 64
            tight.step(tokens)
        assert tight.capacity[1] == 32
        tight.step(tokens)
        assert tight.capacity[1] == 40


@pytest.mark.parametrize(
    ("alive", "size", "order"),
    [
        ([1, 2, 3], 4, [3, 1, 2]),  # row 0 left: the last row takes its slot, nobody else moves
        ([0, 1, 2], 4, [0, 1, 2]),  # the last row left: nothing moves
        ([0, 3, 5], 6, [0, 3, 5]),  # slots 1 and 2 freed: rows 3 and 5 move into them
        ([], 3, []),
    ],
)
def test_compact_moves_only_rows_beyond_the_new_size(
    alive: list[int], size: int, order: list[int]
) -> None:
    got = compact(alive, size)
    assert got == order
    assert sorted(got) == alive
    moved = [i for new, i in enumerate(got) if new != i]
    assert all(i >= len(alive) for i in moved)


def test_rows_kept_out_of_order_match_transformers(lean: Any) -> None:
    model = lean
    batch = LlamaBatch(LlamaWeights(model))
    rows = prompts(4, seed=3)
    with torch.no_grad():
        logits = batch.prefill(rows)
        order = compact([1, 2, 3], 4)  # row 0 leaves: row 3 moves into slot 0
        batch.keep(order)
        rows = [rows[i] for i in order]
        tokens = logits[order].argmax(-1)
        rows = [[*row, int(t)] for row, t in zip(rows, tokens, strict=True)]
        logits = batch.step(tokens)
    for row, got in zip(rows, logits, strict=True):
        assert torch.allclose(got, reference(model, row), atol=ATOL)


def test_a_single_row_of_one_token(lean: Any) -> None:
    model = lean
    batch = LlamaBatch(LlamaWeights(model))
    with torch.no_grad():
        got = batch.prefill([[7]])[0]
        assert torch.allclose(got, reference(model, [7]), atol=ATOL)
        got = batch.step(torch.tensor([9]))[0]
    assert torch.allclose(got, reference(model, [7, 9]), atol=ATOL)


def lora_model(model: Any, adapters: list[str]) -> Any:
    """A peft copy of `model` with non-zero LoRA adapters `adapters` (different per adapter)."""
    import copy

    from mars2.training.trainable import make_trainable

    agent = AgentConfig(model="tiny-random", lora_rank=4)
    peft = None
    for i, name in enumerate(adapters):
        peft = make_trainable(copy.deepcopy(model) if peft is None else peft, agent, name)
        with torch.no_grad():
            for pname, param in peft.named_parameters():
                if f"lora_B.{name}." in pname:
                    param.copy_(
                        torch.randn(param.shape, generator=torch.Generator().manual_seed(i))
                    )
    return peft


def test_lora_adapters_are_folded_in(lean: Any) -> None:
    model = lean
    peft = lora_model(model, ["only"])
    row = prompts(1)[0]
    want = reference(peft, row)
    assert not torch.allclose(want, reference(model, row), atol=1e-2)  # the adapter matters
    with torch.no_grad():
        got = LlamaBatch(LlamaWeights(peft)).prefill([row])[0]
    assert torch.allclose(got, want, atol=ATOL)


def test_an_adapter_view_generates_with_its_own_adapter(lean: Any) -> None:
    from mars2.rollout.engines import AdapterView

    model = lean
    peft = lora_model(model, ["first", "second"])
    row = prompts(1)[0]
    lock = threading.Lock()
    for name in ("first", "second"):
        peft.set_adapter(name)
        want = reference(peft, row)
        peft.set_adapter("second" if name == "first" else "first")  # the other adapter is active
        with torch.no_grad():
            got = LlamaBatch(LlamaWeights(AdapterView(peft, name, lock))).prefill([row])[0]
        assert torch.allclose(got, want, atol=ATOL), name


def test_bfloat16_weights_stay_close(lean: Any) -> None:
    model = lean
    row = prompts(2)[1]
    weights = LlamaWeights(model, torch.bfloat16)
    assert weights.layers[0].qkv.dtype == torch.bfloat16
    with torch.no_grad():
        got = torch.log_softmax(LlamaBatch(weights).prefill([row])[0], -1)
    want = torch.log_softmax(reference(model, row), -1)
    gap = (got - want).abs().mean()
    assert 0 < gap < 0.1, gap


def test_models_it_cannot_run_are_named(tiny: tuple[Any, Any], tiny_gemma: Any) -> None:
    import copy

    model, _ = tiny
    assert unsupported(model) is None and unsupported(tiny_gemma) is None
    original = model.lm_head
    model.lm_head = torch.nn.Linear(original.in_features, original.out_features, bias=True)
    try:
        assert unsupported(model) == "lm_head has a bias"
    finally:
        model.lm_head = original
    capped = copy.deepcopy(tiny_gemma)
    capped.config.final_logit_softcapping = 30.0
    assert unsupported(capped) == "final_logit_softcapping 30.0"
    capped.config.final_logit_softcapping = None
    capped.config.rope_parameters["sliding_attention"]["rope_type"] = "linear"
    assert unsupported(capped) == "rope type 'linear'"
    capped.config.model_type = "qwen2"
    assert "model type 'qwen2' is neither" in str(unsupported(capped))
    assert resolve_decoder("auto", "model", model) == "llama"
    assert resolve_decoder("auto", "model", tiny_gemma) == "llama"
    assert resolve_decoder("auto", "int8", model) == "transformers"
    assert resolve_decoder("auto", "model", capped) == "transformers"
    with pytest.raises(ValueError, match="decoder 'llama' cannot run this model: model type"):
        resolve_decoder("llama", "model", capped)


@pytest.mark.parametrize("native", [True, False])
def test_auto_rollout_dtype_is_bfloat16_for_the_llama_decoder_on_a_bfloat16_cpu(
    tiny: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch, native: bool
) -> None:
    from mars2.agents import hf

    model, _ = tiny
    monkeypatch.setattr(hf, "cpu_has_bfloat16", lambda: native)
    assert resolve_rollout_dtype("auto", model, "llama") == ("bfloat16" if native else "model")
    assert resolve_rollout_dtype("auto", model, "transformers") == "model"
    assert resolve_rollout_dtype("model", model, "llama") == "model"


def test_int8_and_the_llama_decoder_do_not_mix() -> None:
    from mars2.errors import ConfigError

    agent = AgentConfig(model="tiny-random", rollout_dtype="int8")  # auto: transformers
    with pytest.raises(ConfigError, match="decoder"):
        dataclasses.replace(agent, decoder="llama")


needs_prepack = pytest.mark.skipif(
    not llama_weights.can_prepack(torch.zeros(1, dtype=torch.bfloat16)),
    reason="this torch build has no oneDNN bfloat16 kernels",
)


@needs_prepack
def test_a_prepacked_projection_computes_the_plain_product() -> None:
    g = torch.Generator().manual_seed(0)
    weight = torch.randn(48, 32, generator=g).to(torch.bfloat16)
    x = torch.randn(3, 5, 32, generator=g).to(torch.bfloat16)
    packed, plain = llama_weights.Projection(weight), llama_weights.Projection(weight, pack=False)
    assert packed.packed and not plain.packed and packed.dtype == torch.bfloat16
    assert packed(x).shape == (3, 5, 48)
    torch.testing.assert_close(packed(x), plain(x), atol=0, rtol=0)  # one bf16 rounding each


def test_float32_weights_and_builds_without_onednn_bf16_are_not_prepacked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not llama_weights.can_prepack(torch.zeros(2, 2))
    assert not llama_weights.Projection(torch.zeros(2, 2)).packed
    monkeypatch.setattr(llama_weights, "_onednn_bf16", lambda: False)  # its probe failed here
    weight = torch.eye(2, dtype=torch.bfloat16)
    plain = llama_weights.Projection(weight)
    assert not plain.packed and torch.equal(plain(weight), weight)


@needs_prepack
def test_prepacked_and_plain_decoders_sample_the_same_logits(lean: Any) -> None:
    model = lean
    batches = [LlamaBatch(LlamaWeights(model, torch.bfloat16, pack=p)) for p in (True, False)]
    assert batches[0].w.layers[0].qkv.packed and not batches[1].w.layers[0].qkv.packed
    seqs = prompts(3)
    with torch.no_grad():
        got, want = (b.prefill(seqs) for b in batches)
        torch.testing.assert_close(got, want, atol=0, rtol=0)
        tokens = got.argmax(-1)
        for _ in range(3):
            got, want = (b.step(tokens) for b in batches)
            torch.testing.assert_close(got, want, atol=0, rtol=0)
            tokens = got.argmax(-1)


def test_grouped_attention_computes_what_sdpa_does() -> None:
    """Decode attention of rows of different lengths (an additive mask) with 6 query heads on
    2 key/value heads: the grouped products equal sdpa's enable_gqa in float32, also when the
    keys and values carry padding rows."""
    g = torch.Generator().manual_seed(0)
    q = torch.randn(3, 6, 1, 8, generator=g)
    keys, values = (torch.randn(3, 2, 7, 8, generator=g) for _ in range(2))
    lengths = torch.tensor([7, 2, 5])
    visible = (torch.arange(7) < lengths.unsqueeze(-1))[:, None, None, :]
    mask = llama._additive(visible, torch.float32)
    want = torch.nn.functional.scaled_dot_product_attention(
        q, keys, values, attn_mask=mask, enable_gqa=True
    )
    torch.testing.assert_close(llama._grouped_attention(q, keys, values, mask, 8**-0.5), want)
    # rows of keys past q's are padding (a fourth slot, all visible): same output for the three
    padded = [torch.cat([x, torch.randn(1, *x.shape[1:], generator=g)]) for x in (keys, values)]
    mask4 = torch.cat([mask, torch.zeros(1, 1, 1, 7)])
    torch.testing.assert_close(llama._grouped_attention(q, *padded, mask4, 8**-0.5), want)
    # another scale than d^-0.5 (Gemma's query_pre_attn_scalar)
    want = torch.nn.functional.scaled_dot_product_attention(
        q, keys, values, attn_mask=mask, scale=0.3, enable_gqa=True
    )
    torch.testing.assert_close(llama._grouped_attention(q, keys, values, mask, 0.3), want)


@pytest.mark.parametrize("amx", [False, True])
def test_bfloat16_decode_attention_by_machine(
    lean: Any, monkeypatch: pytest.MonkeyPatch, amx: bool
) -> None:
    """The grouped decode attention is chosen for bfloat16 on a CPU without AMX tiles (where
    sdpa's bfloat16 kernel is slow), sdpa elsewhere; the two decoders' logits agree to bfloat16
    rounding through prefill and steps of rows of different lengths."""
    model = lean
    monkeypatch.setattr(llama_weights, "amx_tiles", lambda: amx)
    assert LlamaWeights(model, torch.bfloat16).grouped_decode is not amx
    assert not LlamaWeights(model, torch.float32).grouped_decode
    weights = [LlamaWeights(model, torch.bfloat16) for _ in range(2)]
    weights[0].grouped_decode, weights[1].grouped_decode = True, False
    batches = [LlamaBatch(w) for w in weights]
    with torch.no_grad():
        got, want = (b.prefill(prompts(3)) for b in batches)
        tokens = want.argmax(-1)
        for _ in range(4):
            got, want = (b.step(tokens) for b in batches)
            gap = (torch.log_softmax(got, -1) - torch.log_softmax(want, -1)).abs().mean()
            assert gap < 0.005, gap
            tokens = want.argmax(-1)


def test_grouped_decode_attention_runs_on_few_shapes(
    tiny: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its products see rows rounded up to DECODE_ROWS_MULTIPLE and positions to
    SLOTS_MULTIPLE (oneDNN compiles bfloat16 kernels per shape), whatever the batch."""
    model, _ = tiny
    seen: list[tuple[int, ...]] = []
    attend = llama._grouped_attention

    def spy(q: torch.Tensor, keys: torch.Tensor, *rest: torch.Tensor) -> torch.Tensor:
        seen.append((q.shape[0], *keys.shape))
        return attend(q, keys, *rest)

    monkeypatch.setattr(llama, "_grouped_attention", spy)
    weights = LlamaWeights(model, torch.bfloat16)
    weights.grouped_decode = True
    batch = LlamaBatch(weights)
    with torch.no_grad():
        tokens = batch.prefill(prompts(3)).argmax(-1)
        batch.step(tokens)
    rows, slots, _, positions, _ = seen[0]
    # the 3 rows' queries padded too: the step's projections also see few shapes
    assert rows == slots == llama.DECODE_ROWS_MULTIPLE and positions == llama.SLOTS_MULTIPLE


def test_grouped_decode_reads_the_whole_cache_in_place_and_trims_it(
    lean: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The grouped decode attention gets a prefix of the cache's rows with all its positions
    (one dense block: no copy), the unused positions masked, and matches transformers; when the
    long row leaves, the cache is cut back to what the short rows can still need."""
    monkeypatch.setattr(llama, "SLOTS_MULTIPLE", 8)
    monkeypatch.setattr(llama, "CACHE_SLACK", 16)
    model = lean
    seen: list[tuple[bool, int]] = []
    attend = llama._grouped_attention

    def spy(q: torch.Tensor, keys: torch.Tensor, *rest: torch.Tensor) -> torch.Tensor:
        seen.append((keys.is_contiguous(), keys.shape[2]))
        return attend(q, keys, *rest)

    monkeypatch.setattr(llama, "_grouped_attention", spy)
    weights = LlamaWeights(model)  # float32: the logits match transformers to ATOL
    weights.grouped_decode = True
    batch = LlamaBatch(weights, headroom=4)
    g = torch.Generator().manual_seed(1)
    rows = [*prompts(2), torch.randint(3, 500, (90,), generator=g).tolist()]
    with torch.no_grad():
        logits = batch.prefill(rows)
        for step in range(6):
            for row, got in zip(rows, logits, strict=True):
                assert torch.allclose(got, reference(model, row), atol=ATOL), step
            if step == 2:  # the long row leaves
                batch.keep([0, 1])
                rows, logits = rows[:2], logits[:2]
            tokens = logits.argmax(-1)
            rows = [[*row, int(t)] for row, t in zip(rows, tokens, strict=True)]
            seen.clear()
            logits = batch.step(tokens)
            assert seen and all(dense and n == batch.capacity[1] for dense, n in seen)
            assert batch.capacity[1] == (96 if step < 2 else 24), step  # 17 + 2 + 4 -> 24
