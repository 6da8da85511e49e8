"""Train families about lists of integers: aggregates, positions, mapping, filtering, counting."""

from __future__ import annotations

from core_families import LISTS, LONG, NONEMPTY, CoreFamily

FAMILY_AGG = CoreFamily("list-aggregates", "train")
FAMILY_AGG.line(
    "list_sum",
    "xs",
    "sum(xs)",
    "the sum of the integers in the list `xs` (0 for an empty list)",
    LISTS,
)
FAMILY_AGG.line("list_length", "xs", "len(xs)", "the number of elements in the list `xs`", LISTS)
FAMILY_AGG.line(
    "list_max", "xs", "max(xs)", "the largest integer in the non-empty list `xs`", NONEMPTY
)
FAMILY_AGG.line(
    "list_min", "xs", "min(xs)", "the smallest integer in the non-empty list `xs`", NONEMPTY
)
FAMILY_AGG.line(
    "list_range", "xs", "max(xs) - min(xs)",
    "the largest minus the smallest integer of the non-empty list `xs`", NONEMPTY,
)  # fmt: skip
FAMILY_AGG.line(
    "sum_of_squares_list", "xs", "sum(x * x for x in xs)",
    "the sum of the squares of the integers in the list `xs`", LISTS,
)  # fmt: skip
FAMILY_AGG.line(
    "double_sum", "xs", "2 * sum(xs)", "twice the sum of the integers in the list `xs`", LISTS
)
FAMILY_AGG.line(
    "sum_of_absolute_values", "xs", "sum(abs(x) for x in xs)",
    "the sum of the absolute values of the integers in the list `xs`", LISTS,
)  # fmt: skip
FAMILY_AGG.sweep(
    "sum_plus_{kw}", "xs", "sum(xs) + {k}",
    "the sum of the integers in the list `xs` plus {k}", [1, 10, 100], LISTS,
)  # fmt: skip

FAMILY_POS = CoreFamily("list-positions", "train")
FAMILY_POS.line(
    "first_item", "xs", "xs[0]", "the first element of the non-empty list `xs`", NONEMPTY
)
FAMILY_POS.line(
    "last_item", "xs", "xs[-1]", "the last element of the non-empty list `xs`", NONEMPTY
)
FAMILY_POS.line(
    "second_item",
    "xs",
    "xs[1]",
    "the second element (index 1) of the list `xs`, which has at least 3 elements",
    LONG,
)
FAMILY_POS.line(
    "third_item",
    "xs",
    "xs[2]",
    "the third element (index 2) of the list `xs`, which has at least 3 elements",
    LONG,
)
FAMILY_POS.line(
    "first_plus_last", "xs", "xs[0] + xs[-1]",
    "the first element plus the last element of the non-empty list `xs`", NONEMPTY,
)  # fmt: skip
FAMILY_POS.line(
    "item_at", "xs, i", "xs[i]", "the element at index `i` of the list `xs`",
    [([5, 6, 7], 0), ([5, 6, 7], 2), ([9, 8], 1), ([1, 2, 3, 4], 3), ([0, -1], 0), ([4, 4, 3], 2), ([8, 1, 6], 1), ([3, 5], 0), ([2, 7, 1, 8], 2)],
)  # fmt: skip
FAMILY_POS.line(
    "first_and_last", "xs", "[xs[0], xs[-1]]",
    "a list of two elements: the first and the last element of the non-empty list `xs`", NONEMPTY,
)  # fmt: skip

FAMILY_MAP = CoreFamily("list-mapping", "train")
FAMILY_MAP.sweep(
    "add_{kw}_to_each", "xs", "[x + {k} for x in xs]",
    "a new list with {k} added to every integer of the list `xs`", [1, 2, 5, 10], LISTS,
)  # fmt: skip
FAMILY_MAP.sweep(
    "multiply_each_by_{kw}", "xs", "[x * {k} for x in xs]",
    "a new list with every integer of the list `xs` multiplied by {k}", [2, 3, 10], LISTS,
)  # fmt: skip
FAMILY_MAP.line(
    "square_each",
    "xs",
    "[x * x for x in xs]",
    "a new list with the square of every integer of the list `xs`",
    LISTS,
)
FAMILY_MAP.line(
    "negate_each",
    "xs",
    "[-x for x in xs]",
    "a new list with the sign of every integer of the list `xs` flipped",
    LISTS,
)
FAMILY_MAP.line(
    "absolute_each",
    "xs",
    "[abs(x) for x in xs]",
    "a new list with the absolute value of every integer of the list `xs`",
    LISTS,
)
FAMILY_MAP.line(
    "halve_each", "xs", "[x // 2 for x in xs]",
    "a new list with every integer of the list `xs` divided by 2, rounded down (`x // 2`)", LISTS,
)  # fmt: skip
FAMILY_MAP.line(
    "parity_each", "xs", "[x % 2 for x in xs]",
    "a new list with `x % 2` for every integer `x` of the list `xs`", LISTS,
)  # fmt: skip
FAMILY_MAP.line(
    "is_even_each", "xs", "[x % 2 == 0 for x in xs]",
    "a new list of booleans, True where the integer of the list `xs` is even", LISTS,
)  # fmt: skip

FAMILY_FILTER = CoreFamily("list-filtering", "train")
FAMILY_FILTER.line(
    "keep_evens",
    "xs",
    "[x for x in xs if x % 2 == 0]",
    "a new list with only the even integers of the list `xs`, in order",
    LISTS,
)
FAMILY_FILTER.line(
    "keep_odds",
    "xs",
    "[x for x in xs if x % 2 == 1]",
    "a new list with only the odd integers of the list `xs`, in order",
    LISTS,
)
FAMILY_FILTER.line(
    "keep_positives",
    "xs",
    "[x for x in xs if x > 0]",
    "a new list with only the integers of the list `xs` that are greater than 0, in order",
    LISTS,
)
FAMILY_FILTER.line(
    "keep_negatives",
    "xs",
    "[x for x in xs if x < 0]",
    "a new list with only the integers of the list `xs` that are less than 0, in order",
    LISTS,
)
FAMILY_FILTER.line(
    "keep_nonzero",
    "xs",
    "[x for x in xs if x != 0]",
    "a new list with the integers of the list `xs` that are not 0, in order",
    [*LISTS, [0, 1, 0]],
)
FAMILY_FILTER.sweep(
    "keep_above_{kw}", "xs", "[x for x in xs if x > {k}]",
    "a new list with only the integers of the list `xs` that are greater than {k}, in order",
    [2, 4, 5, 6], LISTS,
)  # fmt: skip
FAMILY_FILTER.sweep(
    "keep_below_{kw}", "xs", "[x for x in xs if x < {k}]",
    "a new list with only the integers of the list `xs` that are less than {k}, in order",
    [3, 5, 8], LISTS,
)  # fmt: skip
FAMILY_FILTER.sweep(
    "keep_multiples_of_{kw}", "xs", "[x for x in xs if x % {k} == 0]",
    "a new list with only the integers of the list `xs` that are divisible by {k}, in order",
    [3, 4, 5], [*LISTS, [15, 20, 12]],
)  # fmt: skip

FAMILY_COUNT = CoreFamily("list-counting", "train")
FAMILY_COUNT.line(
    "count_evens",
    "xs",
    "sum(1 for x in xs if x % 2 == 0)",
    "how many integers of the list `xs` are even",
    LISTS,
)
FAMILY_COUNT.line(
    "count_odds",
    "xs",
    "sum(1 for x in xs if x % 2 == 1)",
    "how many integers of the list `xs` are odd",
    LISTS,
)
FAMILY_COUNT.line(
    "count_positives",
    "xs",
    "sum(1 for x in xs if x > 0)",
    "how many integers of the list `xs` are greater than 0",
    LISTS,
)
FAMILY_COUNT.line(
    "count_negatives",
    "xs",
    "sum(1 for x in xs if x < 0)",
    "how many integers of the list `xs` are less than 0",
    LISTS,
)
FAMILY_COUNT.line(
    "count_zeros",
    "xs",
    "xs.count(0)",
    "how many times 0 appears in the list `xs`",
    [*LISTS, [0, 0, 1]],
)
FAMILY_COUNT.sweep(
    "count_above_{kw}", "xs", "sum(1 for x in xs if x > {k})",
    "how many integers of the list `xs` are greater than {k}", [3, 5, 7], LISTS,
)  # fmt: skip
FAMILY_COUNT.line(
    "count_value", "xs, v", "xs.count(v)", "how many times the integer `v` appears in the list `xs`",
    [([1, 2, 1, 3], 1), ([], 5), ([4, 4, 4], 4), ([1, 2], 3), ([0, 1, 0], 0), ([7], 7), ([2, 3, 2], 3), ([5, 5, 1, 5], 5), ([9, 8], 9)],
)  # fmt: skip

FAMILY_CHECK = CoreFamily("list-checks", "train")
FAMILY_CHECK.line(
    "contains_zero", "xs", "0 in xs", "True if the list `xs` contains 0, else False", LISTS
)
FAMILY_CHECK.line(
    "all_positive",
    "xs",
    "all(x > 0 for x in xs)",
    "True if every integer of the list `xs` is greater than 0 (True for an empty list), else False",
    [*LISTS, [1, 2]],
)
FAMILY_CHECK.line(
    "any_negative",
    "xs",
    "any(x < 0 for x in xs)",
    "True if some integer of the list `xs` is less than 0, else False",
    LISTS,
)
FAMILY_CHECK.line(
    "all_even",
    "xs",
    "all(x % 2 == 0 for x in xs)",
    "True if every integer of the list `xs` is even (True for an empty list), else False",
    LISTS,
)
FAMILY_CHECK.line(
    "is_sorted",
    "xs",
    "xs == sorted(xs)",
    "True if the list `xs` is in non-decreasing order, else False",
    [*LISTS, [1, 2, 2, 3]],
)
FAMILY_CHECK.line(
    "contains", "xs, v", "v in xs", "True if the integer `v` is in the list `xs`, else False",
    [([1, 2, 3], 2), ([], 1), ([4, 5], 6), ([0], 0), ([7, 8, 9], 10), ([3, 3], 3), ([-1, 1], -1), ([2, 4], 3), ([6, 1], 1)],
)  # fmt: skip
FAMILY_CHECK.sweep(
    "longer_than_{kw}", "xs", "len(xs) > {k}",
    "True if the list `xs` has more than {k} elements, else False", [2, 3], LISTS,
)  # fmt: skip

FAMILY_SLICE = CoreFamily("list-slicing", "train")
FAMILY_SLICE.sweep(
    "first_{kw}_items", "xs", "xs[:{k}]",
    "a list of the first {k} elements of the list `xs` (all of them if it is shorter)", [2, 3], LISTS,
)  # fmt: skip
FAMILY_SLICE.sweep(
    "last_{kw}_items", "xs", "xs[-{k}:]",
    "a list of the last {k} elements of the list `xs` (all of them if it is shorter)", [2, 3], LISTS,
)  # fmt: skip
FAMILY_SLICE.line(
    "drop_first_item",
    "xs",
    "xs[1:]",
    "the list `xs` without its first element (an empty list stays empty)",
    LISTS,
)
FAMILY_SLICE.line(
    "drop_last_item",
    "xs",
    "xs[:-1]",
    "the list `xs` without its last element (an empty list stays empty)",
    LISTS,
)
FAMILY_SLICE.line(
    "reverse_list",
    "xs",
    "xs[::-1]",
    "a new list with the elements of the list `xs` in reverse order",
    LISTS,
)
FAMILY_SLICE.line(
    "every_other",
    "xs",
    "xs[::2]",
    "a new list with the elements of `xs` at even indexes 0, 2, 4, ...",
    LISTS,
)
FAMILY_SLICE.line(
    "sort_list",
    "xs",
    "sorted(xs)",
    "a new list with the integers of `xs` sorted from smallest to largest",
    LISTS,
)
FAMILY_SLICE.line(
    "sort_descending",
    "xs",
    "sorted(xs, reverse=True)",
    "a new list with the integers of `xs` sorted from largest to smallest",
    LISTS,
)
