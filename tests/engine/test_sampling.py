"""Token sampling: top-p keeps the nucleus, log-probs are pre-truncation, rows are independent."""

from __future__ import annotations

import math

import torch

from mars2.engine.sampling import logits_logprobs, sample_tokens


def gens(*seeds: int) -> list[torch.Generator]:
    return [torch.Generator().manual_seed(s) for s in seeds]


def test_top_p_samples_only_the_nucleus_with_untruncated_logprobs() -> None:
    logits = torch.log(torch.tensor([[0.5, 0.3, 0.2]]))
    seen = set()
    for seed in range(200):
        token, logp = sample_tokens(logits, 1.0, 0.6, gens(seed))
        seen.add(int(token))
        # the log-prob is under the full softmax, not renormalised over the nucleus {0, 1}
        assert math.isclose(float(logp), math.log([0.5, 0.3, 0.2][int(token)]), rel_tol=1e-6)
    assert seen == {0, 1}  # 0.5 < 0.6 so token 1 is in the nucleus; 0.8 >= 0.6 so token 2 is not


def test_frequencies_follow_the_tempered_distribution() -> None:
    logits = torch.tensor([[0.0, math.log(3.0)]])  # p = 1/4, 3/4 at T = 1; at T = 2: 1/(1+√3)
    draws = [int(sample_tokens(logits, 2.0, 1.0, gens(s))[0]) for s in range(2000)]
    expected = math.sqrt(3) / (1 + math.sqrt(3))
    assert abs(sum(draws) / len(draws) - expected) < 0.04


def test_each_row_depends_only_on_its_generator() -> None:
    logits = torch.randn(3, 50, generator=torch.Generator().manual_seed(0))
    batch, _ = sample_tokens(logits, 0.8, 0.9, gens(1, 2, 3))
    for row, seed in enumerate((1, 2, 3)):
        alone, _ = sample_tokens(logits[row : row + 1], 0.8, 0.9, gens(seed))
        assert int(alone) == int(batch[row])


def test_token_logprobs_by_hand() -> None:
    logits = torch.tensor([[1.0, 2.0], [0.0, 0.0]])
    got = logits_logprobs(logits, torch.tensor([1, 0]), 0.5)
    assert torch.allclose(got, torch.tensor([-math.log1p(math.exp(-2.0)), math.log(0.5)]))


def test_top_p_over_a_large_vocabulary_matches_a_full_sort() -> None:
    """The nucleus found from the top-k candidates is the one a full sort gives."""
    gen = torch.Generator().manual_seed(1)
    logits = torch.cat(
        [torch.randn(2, 5000, generator=gen) * 4, torch.zeros(1, 5000)]
    )  # last: flat
    for top_p in (0.5, 0.95):
        probs = torch.softmax(logits, -1)
        sorted_p, order = probs.sort(dim=-1, descending=True)
        nucleus = [
            set(order[r][(sorted_p[r].cumsum(-1) - sorted_p[r]) < top_p].tolist()) for r in range(3)
        ]
        for seed in range(30):
            tokens, _ = sample_tokens(logits, 1.0, top_p, gens(seed, seed + 100, seed + 200))
            assert all(int(t) in nucleus[r] for r, t in enumerate(tokens))
