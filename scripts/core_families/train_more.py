"""More train families: distances and bounds, list building, elementwise pairs, repeated
characters, conditional words, membership of letters, prefix sums."""

from __future__ import annotations

from core_families import INTS, LISTS, STRINGS, CoreFamily

FAMILY_BOUNDS = CoreFamily("distances-and-bounds", "train")
FAMILY_BOUNDS.line("absolute_value", "x", "abs(x)", "the absolute value of the integer `x`", INTS)
FAMILY_BOUNDS.sweep(
    "distance_from_{kw}", "x", "abs(x - {k})",
    "how far the integer `x` is from {k}: the absolute value of `x - {k}`", [1, 5, 10, 20, 100], INTS,
)  # fmt: skip
FAMILY_BOUNDS.sweep(
    "at_least_{kw}_or_more", "x", "max(x, {k})",
    "the integer `x`, or {k} if `x` is smaller than {k} (`max(x, {k})`)", [0, 5, 10], INTS,
)  # fmt: skip
FAMILY_BOUNDS.sweep(
    "cap_at_{kw}", "x", "min(x, {k})",
    "the integer `x`, or {k} if `x` is larger than {k} (`min(x, {k})`)", [10, 20, 50], INTS,
)  # fmt: skip

FAMILY_BUILD = CoreFamily("list-building", "train")
FAMILY_BUILD.sweep(
    "append_{kw}", "xs", "xs + [{k}]", "a new list: the list `xs` with {k} added at the end",
    [0, 1, 5, 10], LISTS,
)  # fmt: skip
FAMILY_BUILD.sweep(
    "prepend_{kw}", "xs", "[{k}] + xs", "a new list: {k} followed by the elements of the list `xs`",
    [0, 1, 7], LISTS,
)  # fmt: skip
FAMILY_BUILD.line(
    "list_twice",
    "xs",
    "xs + xs",
    "a new list: the list `xs` followed by the list `xs` again",
    LISTS,
)
FAMILY_BUILD.line(
    "join_lists", "a, b", "a + b", "a new list: the elements of the list `a` followed by those of the list `b`",
    [([1, 2], [3]), ([], [4, 5]), ([6], []), ([], []), ([1], [1]), ([9, 8], [7, 6]), ([0], [0, 0]), ([5, 4, 3], [2]), ([2], [3, 4, 5])],
)  # fmt: skip

ZIPPED = [
    ([1, 2, 3], [4, 5, 6]),
    ([], []),
    ([0], [7]),
    ([5, -1], [2, 2]),
    ([10, 20], [1, 2]),
    ([3, 3, 3], [1, 2, 3]),
    ([-4, 8], [4, -8]),
    ([9], [9]),
    ([2, 7, 1, 8], [1, 1, 1, 1]),
]
FAMILY_ZIP = CoreFamily("elementwise-pairs", "train")
FAMILY_ZIP.line(
    "add_elementwise", "a, b", "[x + y for x, y in zip(a, b)]",
    "a new list whose element i is `a[i] + b[i]`, for two lists `a` and `b` of the same length", ZIPPED,
)  # fmt: skip
FAMILY_ZIP.line(
    "multiply_elementwise", "a, b", "[x * y for x, y in zip(a, b)]",
    "a new list whose element i is `a[i] * b[i]`, for two lists `a` and `b` of the same length", ZIPPED,
)  # fmt: skip
FAMILY_ZIP.line(
    "subtract_elementwise", "a, b", "[x - y for x, y in zip(a, b)]",
    "a new list whose element i is `a[i] - b[i]`, for two lists `a` and `b` of the same length", ZIPPED,
)  # fmt: skip
FAMILY_ZIP.line(
    "larger_elementwise", "a, b", "[max(x, y) for x, y in zip(a, b)]",
    "a new list whose element i is the larger of `a[i]` and `b[i]`, for two lists of the same length", ZIPPED,
)  # fmt: skip
FAMILY_ZIP.line(
    "dot_product", "a, b", "sum(x * y for x, y in zip(a, b))",
    "the sum of `a[i] * b[i]` over all i, for two lists `a` and `b` of the same length", ZIPPED,
)  # fmt: skip

SIZES = [3, 0, 1, 5, 2, 8, 4, 10, 6]
FAMILY_REPEAT = CoreFamily("repeated-characters", "train")
FAMILY_REPEAT.sweep(
    "row_of_{kw}", "n", "{k} * n", "a string made of {k} repeated `n` times",
    [("stars", "*"), ("dashes", "-"), ("hashes", "#"), ("dots", "."), ("zeros", "0"), ("xs", "x")], SIZES,
)  # fmt: skip
FAMILY_REPEAT.line(
    "repeat_char", "c, n", "c * n", "the one-character string `c` repeated `n` times",
    [("a", 3), ("b", 0), ("*", 5), ("z", 1), ("-", 4), ("7", 2), ("q", 6), ("!", 3), (" ", 2)],
)  # fmt: skip

FAMILY_WORDS = CoreFamily("conditional-words", "train")
FAMILY_WORDS.line(
    "even_or_odd", "x", "'even' if x % 2 == 0 else 'odd'",
    "the string 'even' if the integer `x` is even and 'odd' otherwise", INTS,
)  # fmt: skip
FAMILY_WORDS.line(
    "sign_word", "x", "'positive' if x > 0 else 'not positive'",
    "'positive' if the integer `x` is greater than 0 and 'not positive' otherwise", INTS,
)  # fmt: skip
FAMILY_WORDS.sweep(
    "big_or_small_{kw}", "x", "'big' if x > {k} else 'small'",
    "'big' if the integer `x` is greater than {k} and 'small' otherwise", [5, 10, 50], INTS,
)  # fmt: skip
FAMILY_WORDS.line(
    "pass_or_fail", "score", "'pass' if score >= 50 else 'fail'",
    "'pass' if the integer `score` is at least 50 and 'fail' otherwise",
    [50, 0, 49, 100, 75, 10, 51, 30, 99],
)  # fmt: skip
FAMILY_WORDS.line(
    "hot_or_cold", "t", "'hot' if t >= 25 else 'cold'",
    "'hot' if the integer temperature `t` is at least 25 and 'cold' otherwise",
    [30, 10, 25, 24, -5, 40, 0, 26, 18],
)  # fmt: skip

FAMILY_LETTERS = CoreFamily("letter-membership", "train")
FAMILY_LETTERS.sweep(
    "has_letter_{kw}", "s", "{k} in s", "True if the string `s` contains the character {k}, else False",
    ["a", "e", "o", "z", "x"], [*STRINGS, "zoo", "box", "maze", "x"],
)  # fmt: skip
FAMILY_LETTERS.line(
    "has_digit", "s", "any(c.isdigit() for c in s)",
    "True if some character of the string `s` is a digit, else False", [*STRINGS, "R2D2", "7up"],
)  # fmt: skip

FAMILY_PREFIX = CoreFamily("prefix-sums", "train")
FAMILY_PREFIX.sweep(
    "sum_of_first_{kw}", "xs", "sum(xs[:{k}])",
    "the sum of the first {k} elements of the list `xs` (of all of them if it is shorter)", [2, 3], LISTS,
)  # fmt: skip
FAMILY_PREFIX.sweep(
    "sum_of_last_{kw}", "xs", "sum(xs[-{k}:])",
    "the sum of the last {k} elements of the list `xs` (of all of them if it is shorter)", [2, 3], LISTS,
)  # fmt: skip
FAMILY_PREFIX.line(
    "sum_without_first", "xs", "sum(xs[1:])",
    "the sum of all the elements of the list `xs` except the first", LISTS,
)  # fmt: skip
