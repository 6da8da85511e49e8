"""Third batch, held-out instances of train families about numbers and lists: the templates of
those families with other parameters (thresholds, divisors, constants, bounds), all `iid`. They
were added after the train split was drawn, so that split does not change."""

from __future__ import annotations

from core_families import INTS, LISTS, NATURALS, CoreFamily
from core_families.extra2_train_numbers import (
    BOUND_INTS,
    COUNT_LISTS,
    MORE_NATURALS,
    THRESHOLD_INTS,
)
from core_families.extra_train_lists import SIZED
from core_families.extra_train_numbers import SMALL

FAMILY_IID_THRESHOLDS = CoreFamily("threshold-tests", "iid")
for fn, expr, returns in [
    ("greater_than_nine", "x > 9", "True if the integer `x` is greater than 9, and False otherwise"),
    ("greater_than_twenty_five", "x > 25", "True if the integer `x` is greater than 25, and False otherwise"),
    ("less_than_three", "x < 3", "True if the integer `x` is less than 3, and False otherwise"),
    ("less_than_eight", "x < 8", "True if the integer `x` is less than 8, and False otherwise"),
    ("at_least_four", "x >= 4", "True if the integer `x` is at least 4 (greater than or equal), and False otherwise"),
    ("at_least_twelve", "x >= 12", "True if the integer `x` is at least 12 (greater than or equal), and False otherwise"),
    ("at_most_two", "x <= 2", "True if the integer `x` is at most 2 (less than or equal), and False otherwise"),
    ("at_most_ten", "x <= 10", "True if the integer `x` is at most 10 (less than or equal), and False otherwise"),
]:  # fmt: skip
    FAMILY_IID_THRESHOLDS.line(fn, "x", expr, returns, THRESHOLD_INTS)

FAMILY_IID_COMPARE = CoreFamily("compare-with-a-constant", "iid")
FAMILY_IID_COMPARE.sweep(
    "greater_than_{kw}", "x", "x > {k}",
    "True if the integer `x` is greater than {k}, and False otherwise",
    [2, 8], [*INTS, 5, 50, 3, 12, 20],
)  # fmt: skip
FAMILY_IID_COMPARE.sweep(
    "less_than_{kw}", "x", "x < {k}",
    "True if the integer `x` is less than {k}, and False otherwise",
    [5, 12], [*INTS, 15, 5, -1, 99, 60],
)  # fmt: skip
FAMILY_IID_COMPARE.sweep(
    "at_least_{kw}", "x", "x >= {k}",
    "True if the integer `x` is at least {k} (greater than or equal), and False otherwise",
    [5, 9], [*INTS, 18, 17, 6],
)  # fmt: skip

FAMILY_IID_QUOTIENTS = CoreFamily("quotients-and-remainders", "iid")
for fn, expr, returns in [
    ("remainder_by_eleven", "x % 11", "the remainder of the non-negative integer `x` divided by 11 (`x % 11`)"),
    ("remainder_by_fifteen", "x % 15", "the remainder of the non-negative integer `x` divided by 15 (`x % 15`)"),
    ("divide_by_nine", "x // 9", "the non-negative integer `x` divided by 9, rounded down (`x // 9`)"),
    ("divide_by_twelve", "x // 12", "the non-negative integer `x` divided by 12, rounded down (`x // 12`)"),
    ("is_multiple_of_eight", "x % 8 == 0", "True if the integer `x` is divisible by 8, and False otherwise"),
    ("is_multiple_of_fifteen", "x % 15 == 0", "True if the integer `x` is divisible by 15, and False otherwise"),
]:  # fmt: skip
    FAMILY_IID_QUOTIENTS.line(fn, "x", expr, returns, [*MORE_NATURALS, 45, 30, 16])

FAMILY_IID_DIV = CoreFamily("division-and-remainder", "iid")
FAMILY_IID_DIV.sweep(
    "remainder_by_{kw}", "x", "x % {k}",
    "the remainder of the non-negative integer `x` divided by {k} (`x % {k}`)", [20], NATURALS,
)  # fmt: skip
FAMILY_IID_DIV.sweep(
    "divide_by_{kw}", "x", "x // {k}",
    "the non-negative integer `x` divided by {k}, rounded down (`x // {k}`)", [20, 50], NATURALS,
)  # fmt: skip
FAMILY_IID_DIV.sweep(
    "is_multiple_of_{kw}", "x", "x % {k} == 0", "True if the integer `x` is divisible by {k}, and False otherwise",
    [25], [4, 0, 7, 10, 1, 25, 100, 13, 21, 6, 15, 12, 49, 8, 75, 50],
)  # fmt: skip

FAMILY_IID_VALUE_COUNTS = CoreFamily("counting-values", "iid")
for fn, expr, returns in [
    ("count_twos", "xs.count(2)", "how many times 2 appears in the list `xs`"),
    ("count_threes", "xs.count(3)", "how many times 3 appears in the list `xs`"),
    ("count_below_five", "sum(1 for x in xs if x < 5)", "how many integers of the list `xs` are less than 5"),
    ("count_above_six", "sum(1 for x in xs if x > 6)", "how many integers of the list `xs` are greater than 6"),
    ("count_at_least_ten", "sum(1 for x in xs if x >= 10)", "how many integers of the list `xs` are 10 or more"),
    ("count_at_most_two", "sum(1 for x in xs if x <= 2)", "how many integers of the list `xs` are 2 or less"),
    ("count_multiples_of_four", "sum(1 for x in xs if x % 4 == 0)", "how many integers of the list `xs` are divisible by 4"),
    ("count_not_one", "sum(1 for x in xs if x != 1)", "how many integers of the list `xs` are not 1"),
]:  # fmt: skip
    FAMILY_IID_VALUE_COUNTS.line(fn, "xs", expr, returns, [*COUNT_LISTS, [2, 3, 2]])

FAMILY_IID_COUNT = CoreFamily("list-counting", "iid")
FAMILY_IID_COUNT.sweep(
    "count_above_{kw}", "xs", "sum(1 for x in xs if x > {k})",
    "how many integers of the list `xs` are greater than {k}", [2, 4, 8], LISTS,
)  # fmt: skip

FAMILY_IID_FSUMS = CoreFamily("filtered-sums", "iid")
FAMILY_IID_FSUMS.sweep(
    "sum_above_{kw}", "xs", "sum(x for x in xs if x > {k})",
    "the sum of the integers of the list `xs` that are greater than {k}", [4, 6], LISTS,
)  # fmt: skip
FAMILY_IID_FSUMS.sweep(
    "sum_below_{kw}", "xs", "sum(x for x in xs if x < {k})",
    "the sum of the integers of the list `xs` that are less than {k}", [3, 5, 8], LISTS,
)  # fmt: skip

FAMILY_IID_BOUNDED = CoreFamily("sums-with-a-bound", "iid")
for fn, expr, returns in [
    ("sum_at_least_three", "sum(x for x in xs if x >= 3)", "the sum of the integers of the list `xs` that are 3 or more"),
    ("sum_at_most_five", "sum(x for x in xs if x <= 5)", "the sum of the integers of the list `xs` that are 5 or less"),
    ("sum_of_multiples_of_ten", "sum(x for x in xs if x % 10 == 0)", "the sum of the integers of the list `xs` that are divisible by 10"),
    ("sum_except_twos", "sum(x for x in xs if x != 2)", "the sum of the integers of the list `xs` that are not equal to 2"),
]:  # fmt: skip
    FAMILY_IID_BOUNDED.line(fn, "xs", expr, returns, [*COUNT_LISTS, [20, 2, 7]])

FAMILY_IID_FILTER = CoreFamily("list-filtering", "iid")
FAMILY_IID_FILTER.sweep(
    "keep_above_{kw}", "xs", "[x for x in xs if x > {k}]",
    "a new list with only the integers of the list `xs` that are greater than {k}, in order",
    [1, 3, 7, 8], LISTS,
)  # fmt: skip
FAMILY_IID_FILTER.sweep(
    "keep_below_{kw}", "xs", "[x for x in xs if x < {k}]",
    "a new list with only the integers of the list `xs` that are less than {k}, in order",
    [4, 6, 10], LISTS,
)  # fmt: skip
FAMILY_IID_FILTER.sweep(
    "keep_multiples_of_{kw}", "xs", "[x for x in xs if x % {k} == 0]",
    "a new list with only the integers of the list `xs` that are divisible by {k}, in order",
    [10], [*LISTS, [15, 20, 12], [30, 5, 10]],
)  # fmt: skip

FAMILY_IID_MAP = CoreFamily("list-mapping", "iid")
FAMILY_IID_MAP.sweep(
    "add_{kw}_to_each", "xs", "[x + {k} for x in xs]",
    "a new list with {k} added to every integer of the list `xs`", [4, 100], LISTS,
)  # fmt: skip
FAMILY_IID_MAP.sweep(
    "multiply_each_by_{kw}", "xs", "[x * {k} for x in xs]",
    "a new list with every integer of the list `xs` multiplied by {k}", [6, 7], LISTS,
)  # fmt: skip

FAMILY_IID_EACH = CoreFamily("arithmetic-on-each-element", "iid")
for fn, expr, returns in [
    ("subtract_two_from_each", "[x - 2 for x in xs]", "a new list with 2 subtracted from every integer of the list `xs`"),
    ("subtract_three_from_each", "[x - 3 for x in xs]", "a new list with 3 subtracted from every integer of the list `xs`"),
    ("subtract_ten_from_each", "[x - 10 for x in xs]", "a new list with 10 subtracted from every integer of the list `xs`"),
    ("multiply_each_by_eight", "[x * 8 for x in xs]", "a new list with every integer of the list `xs` multiplied by 8"),
    ("multiply_each_by_nine", "[x * 9 for x in xs]", "a new list with every integer of the list `xs` multiplied by 9"),
    ("quarter_of_each", "[x // 4 for x in xs]", "a new list with `x // 4` for every integer `x` of the list `xs`"),
    ("triple_plus_one_each", "[3 * x + 1 for x in xs]", "a new list with `3 * x + 1` for every integer `x` of the list `xs`"),
    ("double_minus_one_each", "[2 * x - 1 for x in xs]", "a new list with `2 * x - 1` for every integer `x` of the list `xs`"),
]:  # fmt: skip
    FAMILY_IID_EACH.line(fn, "xs", expr, returns, LISTS)

FAMILY_IID_LIMITS = CoreFamily("distances-and-limits", "iid")
for fn, expr, returns in [
    ("distance_from_four", "abs(x - 4)", "how far the integer `x` is from 4: the absolute value of `x - 4`"),
    ("distance_from_seven", "abs(x - 7)", "how far the integer `x` is from 7: the absolute value of `x - 7`"),
    ("at_least_two_or_more", "max(x, 2)", "the integer `x`, or 2 if `x` is smaller than 2 (`max(x, 2)`)"),
    ("at_least_four_or_more", "max(x, 4)", "the integer `x`, or 4 if `x` is smaller than 4 (`max(x, 4)`)"),
    ("cap_at_two", "min(x, 2)", "the integer `x`, or 2 if `x` is larger than 2 (`min(x, 2)`)"),
    ("cap_at_fifteen", "min(x, 15)", "the integer `x`, or 15 if `x` is larger than 15 (`min(x, 15)`)"),
]:  # fmt: skip
    FAMILY_IID_LIMITS.line(fn, "x", expr, returns, BOUND_INTS)

FAMILY_IID_BOUNDS = CoreFamily("distances-and-bounds", "iid")
FAMILY_IID_BOUNDS.sweep(
    "distance_from_{kw}", "x", "abs(x - {k})",
    "how far the integer `x` is from {k}: the absolute value of `x - {k}`", [12], INTS,
)  # fmt: skip
FAMILY_IID_BOUNDS.sweep(
    "at_least_{kw}_or_more", "x", "max(x, {k})",
    "the integer `x`, or {k} if `x` is smaller than {k} (`max(x, {k})`)", [50], INTS,
)  # fmt: skip
FAMILY_IID_BOUNDS.sweep(
    "cap_at_{kw}", "x", "min(x, {k})",
    "the integer `x`, or {k} if `x` is larger than {k} (`min(x, {k})`)", [100], [*INTS, 150, 101],
)  # fmt: skip

FAMILY_IID_WORDS = CoreFamily("conditional-words", "iid")
FAMILY_IID_WORDS.sweep(
    "big_or_small_{kw}", "x", "'big' if x > {k} else 'small'",
    "'big' if the integer `x` is greater than {k} and 'small' otherwise", [3, 7, 12], INTS,
)  # fmt: skip

FAMILY_IID_SIZES = CoreFamily("list-size-checks", "iid")
FAMILY_IID_SIZES.sweep(
    "has_exactly_{kw}_items", "xs", "len(xs) == {k}", "True if the list `xs` has exactly {k} elements, else False",
    [4], SIZED,
)  # fmt: skip
for fn, expr, returns in [
    ("at_most_three_items", "len(xs) <= 3", "True if the list `xs` has 3 elements or fewer, else False"),
    ("length_times_two", "len(xs) * 2", "two times the number of elements of the list `xs`"),
]:  # fmt: skip
    FAMILY_IID_SIZES.line(fn, "xs", expr, returns, SIZED)

FAMILY_IID_CHECK = CoreFamily("list-checks", "iid")
FAMILY_IID_CHECK.sweep(
    "longer_than_{kw}", "xs", "len(xs) > {k}",
    "True if the list `xs` has more than {k} elements, else False", [1, 4], LISTS,
)  # fmt: skip

FAMILY_IID_POWERS = CoreFamily("powers", "iid")
FAMILY_IID_POWERS.line(
    "power_of_five", "n", "5 ** n", "5 to the power of the non-negative integer `n`", SMALL
)
for fn, expr, returns in [
    ("square_plus_ten", "x * x + 10", "the square of the integer `x`, plus 10"),
    ("square_of_previous", "(x - 1) ** 2", "the square of `x - 1`, for the integer `x`"),
]:  # fmt: skip
    FAMILY_IID_POWERS.line(fn, "x", expr, returns, INTS)

FAMILY_IID_RANGE = CoreFamily("range-membership", "iid")
for lo, hi in [(2, 8), (10, 30)]:
    inside = [lo, hi, lo + 1, hi - 1, (lo + hi) // 2, (lo + hi) // 2 + 1]
    FAMILY_IID_RANGE.line(
        f"between_{lo}_and_{hi}", "x", f"{lo} <= x <= {hi}",
        f"True if the integer `x` is between {lo} and {hi}, both included, else False",
        list(dict.fromkeys([*INTS[:8], lo - 1, hi + 1, *inside])),
    )  # fmt: skip
