"""Train families about booleans and dictionaries."""

from __future__ import annotations

from core_families import CoreFamily

FAMILY_LOGIC = CoreFamily("boolean-logic", "train")
B3 = [
    (True, True, True),
    (True, False, True),
    (False, False, False),
    (False, True, False),
    (True, True, False),
    (False, False, True),
    (True, False, False),
    (False, True, True),
]
FAMILY_LOGIC.line(
    "count_true", "a, b, c", "[a, b, c].count(True)",
    "how many of the booleans `a`, `b` and `c` are True", B3,
)  # fmt: skip
FAMILY_LOGIC.line(
    "a_and_not_b", "a, b, c", "a and not b",
    "True if the boolean `a` is True and the boolean `b` is False (ignore `c`), else False", B3,
)  # fmt: skip
FAMILY_LOGIC.line(
    "majority", "a, b, c", "[a, b, c].count(True) >= 2",
    "True if at least two of the booleans `a`, `b` and `c` are True, else False", B3,
)  # fmt: skip
FAMILY_LOGIC.line(
    "exactly_one_true", "a, b, c", "[a, b, c].count(True) == 1",
    "True if exactly one of the booleans `a`, `b` and `c` is True, else False", B3,
)  # fmt: skip
FAMILY_LOGIC.line(
    "b_or_c", "a, b, c", "b or c",
    "True if the boolean `b` or the boolean `c` is True (ignore `a`), else False", B3,
)  # fmt: skip

DICTS = [
    {"a": 1, "b": 2},
    {},
    {"x": 10},
    {"k": 0, "m": -3, "z": 5},
    {"b": 7, "a": 7},
    {"q": 2, "p": 9},
    {"n": 4, "c": 1, "d": 8},
    {"y": -1},
    {"m": 3, "e": 12},
]
KEYED = [
    ({"a": 1, "b": 2}, "a"),
    ({}, "x"),
    ({"x": 10}, "y"),
    ({"k": 0}, "k"),
    ({"b": 7, "a": 3}, "b"),
    ({"q": 2}, "z"),
    ({"n": 4, "c": 1}, "c"),
    ({"y": -1}, "y"),
    ({"m": 3, "e": 12}, "a"),
]
FAMILY_DICT = CoreFamily("dict-basics", "train")
FAMILY_DICT.line("dict_size", "d", "len(d)", "the number of keys in the dictionary `d`", DICTS)
FAMILY_DICT.line(
    "sum_of_values",
    "d",
    "sum(d.values())",
    "the sum of the integer values of the dictionary `d`",
    DICTS,
)
FAMILY_DICT.line(
    "sorted_keys", "d", "sorted(d)", "a list of the keys of the dictionary `d`, sorted", DICTS
)
FAMILY_DICT.line(
    "has_key",
    "d, k",
    "k in d",
    "True if the string `k` is a key of the dictionary `d`, else False",
    KEYED,
)
FAMILY_DICT.line(
    "get_or_zero",
    "d, k",
    "d.get(k, 0)",
    "the value of key `k` in the dictionary `d`, or 0 if `k` is not a key",
    KEYED,
)
FAMILY_DICT.line(
    "max_value",
    "d",
    "max(d.values())",
    "the largest value of the non-empty dictionary `d`",
    [d for d in DICTS if d],
)
FAMILY_DICT.line(
    "get_or_none",
    "d, k",
    "d.get(k)",
    "the value of key `k` in the dictionary `d`, or None if `k` is not a key",
    KEYED,
)
