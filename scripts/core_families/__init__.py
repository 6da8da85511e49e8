"""Problem families of the bundled `core` tier; `build_core.py` turns them into JSONL.

The core tier is sized for the learning zone of SmolLM2-135M: one-line functions whose statement
says exactly what to return. Most families are *sweeps*: one template and a list of parameters
(add 3, add 7, ...), so a family has many close instances. Train families (`train_*.py`) give
the `train` split and, by a seeded draw of about a quarter of each family, the `iid` split (new
instances of training families). Test families (`test_*.py`) give the `test` split: kinds of
task that no train family has. An iid family (`extra3_iid_*.py`) adds held-out instances to the
train family of the same name after its draw: all of them are `iid`, and the train split of that
family does not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bundled_families import Spec


@dataclass
class CoreFamily:
    """A family of one-line problems, wholly in the train pool or wholly in the test split (or
    more iid instances of a train family)."""

    name: str
    pool: str  # "train" (train + iid), "test", or "iid" (more instances of the train family `name`)
    specs: list[Spec] = field(default_factory=list)

    def line(
        self,
        fn: str,
        params: str,
        expr: str,
        returns: str,
        cases: Sequence[Any],
        *,
        difficulty: str = "easy",
        note: str = "",
    ) -> None:
        """Add `def fn(params): return expr`. The statement is "Write a function `fn(params)`
        that returns RETURNS." plus `note`; the build appends one example from the first case."""
        statement = f"Write a function `{fn}({params})` that returns {returns}."
        if note:
            statement += " " + note
        self.specs.append(
            Spec(
                id=fn.replace("_", "-"),
                statement=statement,
                difficulty=difficulty,
                solution=f"def {fn}({params}):\n    return {expr}\n",
                fn_name=fn,
                cases=tuple(c if isinstance(c, tuple) else (c,) for c in cases),
                n_public=3,
            )
        )

    def sweep(
        self,
        fn: str,
        params: str,
        expr: str,
        returns: str,
        values: Sequence[Any],
        cases: Sequence[Any],
        **kwargs: Any,
    ) -> None:
        """One `line` per value `k` of `values`: `{k}` in fn, expr and returns is replaced by
        it (`{kw}` in fn by its word, for names like `add_three`). A value may be a pair
        `(word, k)` to name it (`("bang", "!")`)."""
        for value in values:
            word, k = value if isinstance(value, tuple) else (WORDS.get(value, str(value)), value)
            self.line(
                fn.format(k=k, kw=word),
                params,
                expr.format(k=repr(k)),
                returns.format(k=k if not isinstance(k, str) else repr(k)),
                cases,
                **kwargs,
            )


WORDS = {
    0: "zero",
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
    15: "fifteen",
    20: "twenty",
    25: "twenty_five",
    50: "fifty",
    100: "hundred",
    1000: "thousand",
}

INTS = [4, 0, -3, 7, 10, 1, -8, 25, 100, 13, 56, 9]
NATURALS = [4, 0, 7, 10, 1, 25, 100, 13, 38, 6, 421, 99]
PAIRS = [(3, 4), (0, 5), (-2, 7), (10, 10), (6, -3), (1, 1), (-4, -9), (12, 5), (2, 9), (-5, 5)]
TRIPLES = [
    (1, 2, 3),
    (5, 0, -1),
    (4, 4, 4),
    (-2, 8, 3),
    (10, 20, 5),
    (7, 7, 1),
    (0, 0, 9),
    (3, 1, 2),
    (-4, -4, 2),
    (6, 5, 9),
]
LISTS = [
    [3, 1, 4, 1, 5],
    [],
    [-2, 7, 0],
    [10],
    [2, 4, 6, 8],
    [5, -5, 5],
    [9, 8, 7, 6, 5, 4],
    [1, 1, 2, 3, 5, 8],
    [-7, -1, -3],
    [0],
    [12, 15, 20, 3],
]
NONEMPTY = [x for x in LISTS if x] + [[1, 1, 2, 3], [0, 0]]
LONG = [x for x in LISTS if len(x) >= 3] + [[4, 3, 2, 1], [0, 5, 10, 15]]
STRINGS = [
    "hello",
    "",
    "Python",
    "a b c",
    "Data 42",
    "racecar",
    "XyZ",
    "banana",
    "Go now!",
    "tick tock",
    "A",
]
WORDS_TEXT = [s for s in STRINGS if s]
WORD_LISTS = [
    ["apple", "kiwi", "banana"],
    [],
    ["a"],
    ["hello", "world"],
    ["Red", "green", "BLUE"],
    ["one", "two", "three", "four"],
    ["x", "yy", "zzz"],
    ["Sun", "moon"],
    ["code", "is", "fun"],
    ["longword"],
]
