"""Train families about one, two or three integers: constants, division, comparisons."""

from __future__ import annotations

from core_families import INTS, NATURALS, PAIRS, TRIPLES, CoreFamily

FAMILY_ADD = CoreFamily("add-a-constant", "train")
FAMILY_ADD.sweep(
    "add_{kw}",
    "x",
    "x + {k}",
    "the integer `x` plus {k}",
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 50, 100],
    INTS,
)
FAMILY_ADD.sweep(
    "subtract_{kw}",
    "x",
    "x - {k}",
    "the integer `x` minus {k}",
    [1, 2, 3, 4, 5, 7, 10, 20, 100],
    INTS,
)

FAMILY_TIMES = CoreFamily("multiply-by-a-constant", "train")
FAMILY_TIMES.sweep(
    "times_{kw}",
    "x",
    "x * {k}",
    "the integer `x` multiplied by {k}",
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 100],
    INTS,
)
FAMILY_TIMES.line("square", "x", "x * x", "the integer `x` multiplied by itself", INTS)
FAMILY_TIMES.line("cube", "x", "x * x * x", "the integer `x` to the power 3", INTS)
FAMILY_TIMES.line("negate", "x", "-x", "the integer `x` with its sign flipped (`-x`)", INTS)
FAMILY_TIMES.sweep(
    "plus_{kw}_times_two",
    "x",
    "(x + {k}) * 2",
    "the integer `x` plus {k}, all multiplied by 2",
    [1, 3, 5],
    INTS,
)

FAMILY_DIV = CoreFamily("division-and-remainder", "train")
FAMILY_DIV.sweep(
    "remainder_by_{kw}", "x", "x % {k}",
    "the remainder of the non-negative integer `x` divided by {k} (`x % {k}`)",
    [2, 3, 4, 5, 7, 10], NATURALS,
)  # fmt: skip
FAMILY_DIV.sweep(
    "divide_by_{kw}", "x", "x // {k}",
    "the non-negative integer `x` divided by {k}, rounded down (`x // {k}`)",
    [2, 3, 4, 5, 10, 100], NATURALS,
)  # fmt: skip
FAMILY_DIV.sweep(
    "is_multiple_of_{kw}", "x", "x % {k} == 0",
    "True if the integer `x` is divisible by {k}, and False otherwise",
    [2, 3, 4, 5, 7, 10], [4, 0, 7, 10, 1, 25, 100, 13, 21, 6, 15, 12, 49, 8],
)  # fmt: skip
FAMILY_DIV.line(
    "is_odd", "x", "x % 2 == 1", "True if the integer `x` is odd, and False otherwise", INTS
)
FAMILY_DIV.line(
    "last_digit", "x", "x % 10", "the last digit of the non-negative integer `x`", NATURALS
)
FAMILY_DIV.line(
    "drop_last_digit", "x", "x // 10",
    "the non-negative integer `x` without its last digit (`x // 10`)", NATURALS,
)  # fmt: skip

FAMILY_COMPARE = CoreFamily("compare-with-a-constant", "train")
FAMILY_COMPARE.sweep(
    "greater_than_{kw}", "x", "x > {k}",
    "True if the integer `x` is greater than {k}, and False otherwise",
    [0, 3, 5, 10, 12, 20, 50], [*INTS, 5, 50, 3, 12, 20],
)  # fmt: skip
FAMILY_COMPARE.sweep(
    "less_than_{kw}", "x", "x < {k}",
    "True if the integer `x` is less than {k}, and False otherwise",
    [0, 4, 10, 15, 50], [*INTS, 15, 5, -1, 99, 60],
)  # fmt: skip
FAMILY_COMPARE.sweep(
    "at_least_{kw}", "x", "x >= {k}",
    "True if the integer `x` is at least {k} (greater than or equal), and False otherwise",
    [1, 7, 18, 25], [*INTS, 18, 17, 6],
)  # fmt: skip
FAMILY_COMPARE.line(
    "is_single_digit", "x", "0 <= x <= 9",
    "True if the integer `x` is between 0 and 9 inclusive, and False otherwise", INTS,
)  # fmt: skip
FAMILY_COMPARE.line(
    "is_teen", "x", "13 <= x <= 19",
    "True if the integer `x` is between 13 and 19 inclusive, and False otherwise",
    [*INTS, 19, 20, 12, 16],
)  # fmt: skip

FAMILY_TWO = CoreFamily("two-number-arithmetic", "train")
FAMILY_TWO.line("add_numbers", "a, b", "a + b", "the sum of the integers `a` and `b`", PAIRS)
FAMILY_TWO.line(
    "subtract_numbers", "a, b", "a - b", "`a` minus `b` for the integers `a` and `b`", PAIRS
)
FAMILY_TWO.line(
    "multiply_numbers", "a, b", "a * b", "the product of the integers `a` and `b`", PAIRS
)
FAMILY_TWO.line("larger", "a, b", "max(a, b)", "the larger of the integers `a` and `b`", PAIRS)
FAMILY_TWO.line("smaller", "a, b", "min(a, b)", "the smaller of the integers `a` and `b`", PAIRS)
FAMILY_TWO.line(
    "distance", "a, b", "abs(a - b)", "the absolute difference of the integers `a` and `b`", PAIRS
)
FAMILY_TWO.line("sum_of_squares", "a, b", "a * a + b * b", "`a` squared plus `b` squared", PAIRS)
FAMILY_TWO.line(
    "average_down", "a, b", "(a + b) // 2",
    "the average of the integers `a` and `b`, rounded down (`(a + b) // 2`)", PAIRS,
)  # fmt: skip
FAMILY_TWO.line(
    "same_number", "a, b", "a == b", "True if the integers `a` and `b` are equal, else False", PAIRS
)
FAMILY_TWO.line(
    "both_positive", "a, b", "a > 0 and b > 0",
    "True if both integers `a` and `b` are greater than 0, else False", PAIRS,
)  # fmt: skip
FAMILY_TWO.line(
    "sum_times_two", "a, b", "(a + b) * 2", "the sum of `a` and `b`, multiplied by 2", PAIRS
)
FAMILY_TWO.line(
    "is_divisible", "a, b", "a % b == 0",
    "True if the integer `a` is divisible by the positive integer `b`, else False",
    [(6, 3), (7, 2), (0, 5), (10, 10), (9, 4), (12, 4), (15, 6), (20, 5), (8, 3)],
)  # fmt: skip

FAMILY_THREE = CoreFamily("three-number-arithmetic", "train")
FAMILY_THREE.line(
    "sum_of_three", "a, b, c", "a + b + c", "the sum of the integers `a`, `b` and `c`", TRIPLES
)
FAMILY_THREE.line(
    "largest_of_three",
    "a, b, c",
    "max(a, b, c)",
    "the largest of the integers `a`, `b` and `c`",
    TRIPLES,
)
FAMILY_THREE.line(
    "smallest_of_three",
    "a, b, c",
    "min(a, b, c)",
    "the smallest of the integers `a`, `b` and `c`",
    TRIPLES,
)
FAMILY_THREE.line(
    "product_of_three",
    "a, b, c",
    "a * b * c",
    "the product of the integers `a`, `b` and `c`",
    TRIPLES,
)
FAMILY_THREE.line(
    "middle_of_three", "a, b, c", "sorted([a, b, c])[1]",
    "the middle value of the integers `a`, `b` and `c` when they are sorted", TRIPLES,
)  # fmt: skip
FAMILY_THREE.line(
    "all_equal", "a, b, c", "a == b == c",
    "True if the integers `a`, `b` and `c` are all equal, else False",
    [*TRIPLES, (2, 2, 2), (-1, -1, -1)],
)  # fmt: skip
FAMILY_THREE.line("a_plus_b_minus_c", "a, b, c", "a + b - c", "`a` plus `b` minus `c`", TRIPLES)
