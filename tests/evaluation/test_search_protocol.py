"""The adaptive search settings join an evaluation's protocol only when set off their defaults:
a default protocol is what it was before they existed, a pooled one never pairs with it."""

from __future__ import annotations

from mars2.config import SearchConfig
from mars2.evaluation.protocol import SEARCH_FIELDS, search_protocol


def test_default_search_protocol_has_only_the_core_fields() -> None:
    assert list(search_protocol(SearchConfig())) == list(SEARCH_FIELDS)


def test_pooled_search_protocol_names_what_differs() -> None:
    pooled = SearchConfig(pooling="call", refine_solved=False, copies="skip", pool_lag=8)
    fields = search_protocol(pooled)
    extra = {k: v for k, v in fields.items() if k not in SEARCH_FIELDS}
    assert extra == {"pooling": "call", "refine_solved": False, "copies": "skip", "pool_lag": 8}
    assert search_protocol(SearchConfig()) != fields


def test_a_sampling_protocol_leaves_out_the_settings_sampling_ignores() -> None:
    pooled = SearchConfig(algo="sampling", pooling="call", refine_solved=False, copies="skip")
    assert search_protocol(pooled) == search_protocol(SearchConfig(algo="sampling"))
    tree = SearchConfig(algo="abmcts", pooling="call")
    assert search_protocol(tree) != search_protocol(SearchConfig(algo="abmcts"))
