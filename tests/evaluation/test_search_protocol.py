"""The adaptive search settings join an evaluation's protocol only when set off the per-tree
search's values: a per-tree protocol is what it was before they existed (whatever the defaults),
a pooled one never pairs with it, and `pooling: run` evaluates as `call`."""

from __future__ import annotations

from mars2.config import SearchConfig
from mars2.evaluation.protocol import PER_TREE_SEARCH, SEARCH_FIELDS, search_protocol


def test_default_search_protocol_names_the_adaptive_settings() -> None:
    default = search_protocol(SearchConfig())
    extra = {k: v for k, v in default.items() if k not in SEARCH_FIELDS}
    assert extra == {"pooling": "call", "refine_solved": False, "copies": "skip"}


def test_pooled_search_protocol_names_what_differs() -> None:
    pooled = SearchConfig(pooling="call", refine_solved=False, copies="skip", pool_lag=8)
    fields = search_protocol(pooled)
    extra = {k: v for k, v in fields.items() if k not in SEARCH_FIELDS}
    assert extra == {"pooling": "call", "refine_solved": False, "copies": "skip", "pool_lag": 8}
    assert search_protocol(SearchConfig(**PER_TREE_SEARCH)) != fields


def test_a_sampling_protocol_leaves_out_the_settings_sampling_ignores() -> None:
    pooled = SearchConfig(algo="sampling", pooling="call", refine_solved=False, copies="skip")
    assert search_protocol(pooled) == search_protocol(SearchConfig(algo="sampling"))
    tree = SearchConfig(algo="abmcts", pooling="call")
    assert search_protocol(tree) != search_protocol(SearchConfig(**PER_TREE_SEARCH))


def test_the_per_tree_reference_is_a_config_the_search_accepts() -> None:
    per_tree = SearchConfig(**PER_TREE_SEARCH)
    assert list(search_protocol(per_tree)) == list(SEARCH_FIELDS)


def test_run_pooling_evaluates_as_call_and_forgetting_is_not_recorded() -> None:
    run = search_protocol(SearchConfig(pooling="run", forgetting=0.5))
    assert run == search_protocol(SearchConfig(pooling="call"))
    assert run["pooling"] == "call" and "forgetting" not in run
