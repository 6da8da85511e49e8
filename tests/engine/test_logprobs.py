"""Chunked per-token log-probs equal the plain full-vocabulary computation, without keeping it."""

from __future__ import annotations

import pytest
import torch
from torch import nn
from transformers import LlamaConfig, LlamaForCausalLM

from mars2.engine import logprobs
from mars2.engine.logprobs import (
    BLOCK_ATTENTION,
    BLOCK_MULTIPLE,
    _register_block_attention,
    pack,
    packable,
    packed_logprobs,
    shared_prefixes,
    token_logprobs,
    use_block_attention,
)

VOCAB = 1009  # larger than every activation, so saved logits would stand out


@pytest.fixture(scope="module")
def model() -> LlamaForCausalLM:
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
    )
    return LlamaForCausalLM(config).eval()


def reference(model: nn.Module, ids: torch.Tensor, mask: torch.Tensor, temp: float) -> torch.Tensor:
    """log_softmax over the full [B, T, V] logits, then pick the next token."""
    position_ids = (mask.cumsum(-1) - 1).clamp(min=0)
    logits = model(input_ids=ids, attention_mask=mask, position_ids=position_ids).logits
    logp = (logits[:, :-1].float() / temp).log_softmax(-1)
    picked = logp.gather(-1, ids[:, 1:, None]).squeeze(-1)
    return picked * mask[:, 1:]


def inputs(seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (3, 13), generator=gen)
    mask = torch.ones_like(ids)
    mask[1, -4:] = 0  # right padding
    mask[2, :3] = 0  # left padding
    return ids, mask


@pytest.mark.parametrize("chunk", [1, 5, 12, 64])
@pytest.mark.parametrize("temp", [1.0, 0.7])
def test_chunked_equals_full_log_softmax(model: LlamaForCausalLM, chunk: int, temp: float) -> None:
    ids, mask = inputs()
    with torch.no_grad():
        got = token_logprobs(model, ids, mask, temperature=temp, chunk_size=chunk)
        want = reference(model, ids, mask, temp)
    assert got.shape == (3, 12) and got.dtype == torch.float32
    assert torch.allclose(got, want, atol=1e-5)
    assert (got[1, -4:] == 0).all() and (got[2, :2] == 0).all()


def test_gradients_match_and_logits_are_not_kept(model: LlamaForCausalLM) -> None:
    ids, mask = inputs(1)
    weights = torch.randn(3, 12)
    saved: list[int] = []

    def pack(t: torch.Tensor) -> torch.Tensor:
        saved.append(t.numel())
        return t

    model.zero_grad()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        got = token_logprobs(model, ids, mask, chunk_size=4)
    (got * weights).sum().backward()
    ours = [p.grad.clone() for p in model.parameters()]  # type: ignore[union-attr]
    # the forward kept nothing the size of one chunk's logits, let alone the full [B, T, V]
    assert max(saved) < 3 * 4 * VOCAB

    model.zero_grad()
    saved.clear()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        want = reference(model, ids, mask, 1.0)
    assert max(saved) >= 3 * 12 * VOCAB  # the plain computation does keep full logits
    (want * weights).sum().backward()
    for a, p in zip(ours, model.parameters(), strict=True):
        assert torch.allclose(a, p.grad, atol=1e-5)  # type: ignore[arg-type]


class LogitsOnly(nn.Module):
    """A model that only returns logits (no get_decoder): the fallback path."""

    def __init__(self, inner: LlamaForCausalLM) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, **kwargs: torch.Tensor) -> object:
        return self.inner(**kwargs)


def test_models_without_a_separate_head_use_full_logits(model: LlamaForCausalLM) -> None:
    ids, mask = inputs(2)
    with torch.no_grad():
        got = token_logprobs(LogitsOnly(model), ids, mask, chunk_size=3)
        want = reference(model, ids, mask, 1.0)
    assert torch.allclose(got, want, atol=1e-5)


def test_peft_wrapped_model(model: LlamaForCausalLM) -> None:
    peft = pytest.importorskip("peft")
    lora = peft.get_peft_model(
        LlamaForCausalLM(model.config),
        peft.LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]),
    )
    ids, mask = inputs(3)
    got = token_logprobs(lora, ids, mask, chunk_size=5)
    with torch.no_grad():
        want = reference(lora, ids, mask, 1.0)
    assert torch.allclose(got.detach(), want, atol=1e-5)
    got.sum().backward()
    grads = [p.grad for n, p in lora.named_parameters() if "lora_" in n]
    assert grads and all(g is not None and torch.isfinite(g).all() for g in grads)


def test_bad_temperature() -> None:
    with pytest.raises(ValueError, match="temperature"):
        token_logprobs(
            nn.Linear(1, 1), torch.zeros(1, 2, dtype=torch.long), torch.ones(1, 2), temperature=0
        )


def padded(prompts: list[list[int]], responses: list[list[int]]) -> tuple[torch.Tensor, ...]:
    """Right-padded rows of prompt + response, their attention mask and response positions."""
    width = max(len(p) + len(r) for p, r in zip(prompts, responses, strict=True))
    ids = torch.zeros(len(prompts), width, dtype=torch.long)
    mask = torch.zeros_like(ids)
    wanted = torch.zeros(len(prompts), width - 1)
    for i, (p, r) in enumerate(zip(prompts, responses, strict=True)):
        ids[i, : len(p) + len(r)] = torch.tensor(p + r)
        mask[i, : len(p) + len(r)] = 1
        wanted[i, len(p) - 1 : len(p) + len(r) - 1] = 1
    return ids, mask, wanted


# Two prompts, interleaved; one response of one token, one empty: every corner of a pack.
PROMPTS = [[5, 6, 7, 8], [9, 10], [5, 6, 7, 8], [5, 6, 7, 8], [9, 10]]
RESPONSES = [[11, 12, 13], [14], [15, 16, 17, 18, 19], [], [20, 21]]


@pytest.mark.parametrize("attention", ["sdpa", "eager", BLOCK_ATTENTION])
@pytest.mark.parametrize("temp", [1.0, 0.7])
def test_packed_equals_padded_rows(model: LlamaForCausalLM, attention: str, temp: float) -> None:
    _register_block_attention()
    model.config._attn_implementation = attention
    try:
        ids, mask, wanted = padded(PROMPTS, RESPONSES)
        with torch.no_grad():
            want = reference(model, ids, mask, temp)[wanted.bool()]
            got = packed_logprobs(model, PROMPTS, RESPONSES, temperature=temp, chunk_size=4)
    finally:
        model.config._attn_implementation = "sdpa"
    assert got.shape == (sum(len(r) for r in RESPONSES),)
    assert torch.allclose(got, want, atol=1e-5)


@pytest.mark.parametrize("attention", ["sdpa", BLOCK_ATTENTION])
def test_packed_gradients_equal_padded_ones(model: LlamaForCausalLM, attention: str) -> None:
    """A shared prompt is computed once; its gradient sums what each sample's copy gets."""
    model.zero_grad()  # the module's model: earlier tests may leave gradients
    ids, mask, wanted = padded(PROMPTS, RESPONSES)
    weights = torch.linspace(-1.0, 2.0, int(wanted.sum()))
    (token_logprobs(model, ids, mask, positions=wanted)[wanted.bool()] * weights).sum().backward()
    want = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    _register_block_attention()
    model.config._attn_implementation = attention
    try:
        (packed_logprobs(model, PROMPTS, RESPONSES) * weights).sum().backward()
    finally:
        model.config._attn_implementation = "sdpa"
    got = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    assert got.keys() == want.keys() and got
    for name, grad in got.items():
        assert torch.allclose(grad, want[name], rtol=1e-4, atol=1e-6), name


def test_a_pack_shares_each_prompt_and_masks_other_responses() -> None:
    packed = pack([[1, 2], [3], [1, 2]], [[4, 5], [6], [7]])
    # [1, 2 | 4, 5 | 7] for the first prompt's two samples, then [3 | 6]
    assert packed.tokens == [1, 2, 4, 5, 7, 3, 6]
    assert packed.positions == [0, 1, 2, 3, 2, 0, 1]
    # sample 0's tokens 4, 5 are predicted at 1 (the prompt's end) and 2; sample 1's 6 at 5;
    # sample 2's 7 at 1: samples in their given order
    assert packed.scorer == [1, 2, 5, 1]
    allowed = packed.mask(torch.device("cpu"))
    assert allowed[4].tolist() == [True, True, False, False, True, False, False]  # 7: not 4, 5
    assert allowed[6].tolist() == [False] * 5 + [True, True]  # 6: its own prompt only


# Prompts that begin alike (with MIN_SHARED_PREFIX 3): B reuses A's first 3 tokens, D (a
# prefix of A) all but its last token; C shares 2 with A, too few: it leads a run of its own.
A, B, D, C = [5, 6, 7, 8, 9], [5, 6, 7, 10], [5, 6, 7, 8], [5, 6, 11]
ALIKE = [A, B, D, B, C]
ALIKE_RESPONSES = [[12, 13], [14, 15, 16], [17], [18, 19], [20, 21]]


def test_prompts_that_begin_alike_share_their_leading_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(logprobs, "MIN_SHARED_PREFIX", 3)
    assert shared_prefixes([A, B, D, C]) == [(0, 0), (0, 3), (0, 3), (3, 0)]
    packed = pack(ALIKE, ALIKE_RESPONSES)
    # [A | 12 13 | B's rest: 10 | 14 15 16 | 18 19 | D's rest: 8 | 17] then [C | 20 21]
    assert packed.tokens == [5, 6, 7, 8, 9, 12, 13, 10, 14, 15, 16, 18, 19, 8, 17, 5, 6, 11, 20, 21]
    assert packed.positions == [0, 1, 2, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 3, 4, 0, 1, 2, 3, 4]
    assert packed.scorer == [4, 5, 7, 8, 9, 13, 7, 11, 17, 18]
    assert packed.blocks() == [(0, 15), (15, 20)]
    allowed = packed.mask(torch.device("cpu"))
    assert allowed[7].nonzero().flatten().tolist() == [0, 1, 2, 7]  # B's 10: A's first 3
    assert allowed[12].nonzero().flatten().tolist() == [0, 1, 2, 7, 11, 12]  # B's 2nd sample
    assert allowed[14].nonzero().flatten().tolist() == [0, 1, 2, 13, 14]  # D's response
    assert allowed[19].nonzero().flatten().tolist() == [15, 16, 17, 18, 19]  # C's, alone


@pytest.mark.parametrize("attention", ["sdpa", BLOCK_ATTENTION])
def test_shared_leading_positions_give_the_padded_values_and_gradients(
    model: LlamaForCausalLM, monkeypatch: pytest.MonkeyPatch, attention: str
) -> None:
    monkeypatch.setattr(logprobs, "MIN_SHARED_PREFIX", 3)
    model.zero_grad()
    ids, mask, wanted = padded(ALIKE, ALIKE_RESPONSES)
    weights = torch.linspace(-1.0, 2.0, int(wanted.sum()))
    want_values = token_logprobs(model, ids, mask, positions=wanted)[wanted.bool()]
    (want_values * weights).sum().backward()
    want = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    _register_block_attention()
    model.config._attn_implementation = attention
    try:
        got_values = packed_logprobs(model, ALIKE, ALIKE_RESPONSES)
        (got_values * weights).sum().backward()
    finally:
        model.config._attn_implementation = "sdpa"
    got = {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}
    model.zero_grad()
    assert torch.allclose(got_values, want_values, atol=1e-5)
    assert got.keys() == want.keys() and got
    for name, grad in got.items():
        assert torch.allclose(grad, want[name], rtol=1e-4, atol=1e-6), name


def test_a_packs_blocks_are_its_prompt_groups_and_the_filler() -> None:
    packed = pack([[1, 2], [3], [1, 2]], [[4, 5], [6], [7]], multiple=4)
    # [1, 2, 4, 5, 7 | 3, 6 | filler 0]: nothing in one block sees another's positions
    assert packed.blocks() == [(0, 5), (5, 7), (7, 8)]
    allowed = packed.mask(torch.device("cpu"))
    inside = torch.zeros_like(allowed)
    for start, end in packed.blocks():
        inside[start:end, start:end] = True
    assert not (allowed & ~inside).any()


def test_block_attention_attends_block_by_block(
    model: LlamaForCausalLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model switched by `use_block_attention` runs sdpa once per block of a pack (one
    query length per block), and plain sdpa on a forward pass without blocks."""
    from transformers.integrations import sdpa_attention

    lengths: list[int] = []
    plain = sdpa_attention.sdpa_attention_forward

    def spy(module: nn.Module, query: torch.Tensor, *args: object, **kwargs: object) -> object:
        lengths.append(query.shape[2])
        return plain(module, query, *args, **kwargs)

    monkeypatch.setattr(sdpa_attention, "sdpa_attention_forward", spy)
    ids, mask, _ = padded(PROMPTS, RESPONSES)
    with torch.no_grad():
        want = token_logprobs(model, ids, mask)
        assert use_block_attention(model) and model.config._attn_implementation == BLOCK_ATTENTION
        try:
            assert not use_block_attention(model)  # once only: it is no longer plain sdpa
            lengths.clear()
            got = token_logprobs(model, ids, mask)  # no blocks: plain sdpa, one call per layer
            assert lengths == [ids.shape[1]] * model.config.num_hidden_layers
            lengths.clear()
            packed_logprobs(model, PROMPTS, RESPONSES)
        finally:
            model.config._attn_implementation = "sdpa"
    torch.testing.assert_close(got, want)
    blocks = [end - start for start, end in pack(PROMPTS, RESPONSES, 64).blocks()]
    padded_blocks = [-(-n // BLOCK_MULTIPLE) * BLOCK_MULTIPLE for n in blocks]  # few shapes
    assert any(n % BLOCK_MULTIPLE for n in blocks)  # the test meets a padded block
    assert len(blocks) > 1 and lengths == padded_blocks * model.config.num_hidden_layers


@pytest.mark.parametrize("dtype", [torch.bool, torch.float32])
def test_a_padded_blocks_mask_hides_the_padding(dtype: torch.dtype) -> None:
    from mars2.engine.logprobs import _pad_mask

    visible = torch.tensor([[True, False], [True, True]])
    mask = visible if dtype == torch.bool else torch.where(visible, 0.0, -1e9)
    grown = _pad_mask(mask[None, None], 2)[0, 0]
    seen = grown if dtype == torch.bool else grown == 0
    assert seen.tolist() == [
        [True, False, False, False],
        [True, True, False, False],
        [False, False, True, False],  # a padding query sees itself only: no row all masked
        [False, False, False, True],
    ]


def test_a_pack_rounds_its_length_up_with_a_filler_nothing_sees() -> None:
    plain = pack([[1, 2], [3]], [[4, 5], [6]])  # 6 tokens
    packed = pack([[1, 2], [3]], [[4, 5], [6]], multiple=4)
    assert packed.tokens == [*plain.tokens, 0, 0] and packed.scorer == plain.scorer
    assert packed.positions[6:] == [0, 1]  # a sequence of its own
    allowed = packed.mask(torch.device("cpu"))
    assert allowed[:6, :6].equal(plain.mask(torch.device("cpu")))
    assert not allowed[:6, 6:].any() and not allowed[6:, :6].any()
    assert allowed[6:, 6:].tolist() == [[True, False], [True, True]]
    assert len(pack([[1], [3]], [[4], [6]], multiple=4)) == 4  # a multiple already: no filler


def test_packable_refuses_masks_the_model_would_not_apply(model: LlamaForCausalLM) -> None:
    assert packable(model) is None
    model.config._attn_implementation = "flash_attention_2"
    try:
        assert "flash_attention_2" in (packable(model) or "")
    finally:
        model.config._attn_implementation = "sdpa"
    model.config.layer_types = ["sliding_attention", "full_attention"]
    try:
        assert packable(model) == "sliding-window attention"
    finally:
        model.config.layer_types = ["full_attention", "full_attention"]
    assert packable(LogitsOnly(model)) is not None
