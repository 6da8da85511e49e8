"""Raw rewards and the DAPO soft overlong penalty."""

from __future__ import annotations

from dataclasses import replace

import pytest
from credit_records import node

from mars2.credit import overlong_penalty, raw_reward, rewarded
from mars2.errors import UserError


def test_raw_reward_kinds() -> None:
    record = node(0, None, 0.75, passed=True)
    assert raw_reward(record, "binary") == 1.0
    assert raw_reward(record, "fraction") == 0.75
    assert raw_reward(node(0, None, 1.0, passed=False), "binary") == 0.0
    with pytest.raises(UserError, match="unknown reward; known: binary, fraction"):
        raw_reward(record, "other")


def test_rewarded_sets_the_reward_field_by_the_rule() -> None:
    records = [node(0, None, 0.75, passed=True), node(1, 0, 0.25, passed=False)]
    assert [r.reward for r in rewarded(records, "binary")] == [1.0, 0.0]
    assert [r.reward for r in rewarded(records, "fraction")] == [0.75, 0.25]
    assert rewarded(records, "fraction")[1].node_id == 1


def test_fraction_reward_needs_the_pass_fraction_over_all_tests() -> None:
    old = replace(node(0, None, 1.0, passed=False), pass_fraction=None)
    assert raw_reward(old, "binary") == 0.0
    with pytest.raises(UserError, match="no 'pass_fraction'"):
        raw_reward(old, "fraction")


@pytest.mark.parametrize(
    ("length", "expected"),
    # L_max = 100, B = 20, f = 1: no penalty up to 80 tokens, linear to 1 at 100, capped after
    [(0, 0.0), (80, 0.0), (81, 0.05), (90, 0.5), (100, 1.0), (130, 1.0)],
)
def test_overlong_penalty(length: int, expected: float) -> None:
    assert overlong_penalty(length, 100, 20, 1.0) == pytest.approx(expected)


def test_overlong_penalty_off_and_invalid() -> None:
    assert overlong_penalty(500, 100, 0, 1.0) == 0.0
    assert overlong_penalty(90, 100, 20, 2.0) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="exceeds"):
        overlong_penalty(90, 10, 20, 1.0)
