"""Second batch of extra train families about numbers, lists and dictionaries, modelled on the
kinds that a 135M model solves some of the time: sums with a bound, threshold tests, arithmetic on
every element, dictionaries built from words, quotients and remainders, tests on a pair of
numbers, distances and limits, counting values in a list and zipped lists."""

from __future__ import annotations

from core_families import INTS, LISTS, NATURALS, PAIRS, WORD_LISTS, CoreFamily

COUNT_LISTS = [*LISTS, [5, 5, 1], [1, 0, 1, 1], [3, 6, 9, 12], [11, 2, 30]]
FAMILY_BOUNDED = CoreFamily("sums-with-a-bound", "train")
for fn, expr, returns in [
    ("sum_below_six", "sum(x for x in xs if x < 6)", "the sum of the integers of the list `xs` that are less than 6"),
    ("sum_below_two", "sum(x for x in xs if x < 2)", "the sum of the integers of the list `xs` that are less than 2"),
    ("sum_above_one", "sum(x for x in xs if x > 1)", "the sum of the integers of the list `xs` that are greater than 1"),
    ("sum_above_ten", "sum(x for x in xs if x > 10)", "the sum of the integers of the list `xs` that are greater than 10"),
    ("sum_at_least_five", "sum(x for x in xs if x >= 5)", "the sum of the integers of the list `xs` that are 5 or more"),
    ("sum_at_most_three", "sum(x for x in xs if x <= 3)", "the sum of the integers of the list `xs` that are 3 or less"),
    ("sum_of_multiples_of_four", "sum(x for x in xs if x % 4 == 0)", "the sum of the integers of the list `xs` that are divisible by 4"),
    ("sum_of_multiples_of_five", "sum(x for x in xs if x % 5 == 0)", "the sum of the integers of the list `xs` that are divisible by 5"),
    ("sum_except_ones", "sum(x for x in xs if x != 1)", "the sum of the integers of the list `xs` that are not equal to 1"),
]:  # fmt: skip
    FAMILY_BOUNDED.line(fn, "xs", expr, returns, COUNT_LISTS)

THRESHOLD_INTS = [*INTS, 2, 6, 20, 5, 3, 16]
FAMILY_THRESHOLDS = CoreFamily("threshold-tests", "train")
for fn, expr, returns in [
    ("greater_than_seven", "x > 7", "True if the integer `x` is greater than 7, and False otherwise"),
    ("greater_than_fifteen", "x > 15", "True if the integer `x` is greater than 15, and False otherwise"),
    ("less_than_two", "x < 2", "True if the integer `x` is less than 2, and False otherwise"),
    ("less_than_six", "x < 6", "True if the integer `x` is less than 6, and False otherwise"),
    ("less_than_twenty", "x < 20", "True if the integer `x` is less than 20, and False otherwise"),
    ("at_least_three", "x >= 3", "True if the integer `x` is at least 3 (greater than or equal), and False otherwise"),
    ("at_least_ten", "x >= 10", "True if the integer `x` is at least 10 (greater than or equal), and False otherwise"),
    ("at_most_five", "x <= 5", "True if the integer `x` is at most 5 (less than or equal), and False otherwise"),
    ("at_most_zero", "x <= 0", "True if the integer `x` is at most 0 (less than or equal), and False otherwise"),
]:  # fmt: skip
    FAMILY_THRESHOLDS.line(fn, "x", expr, returns, THRESHOLD_INTS)

FAMILY_EACH = CoreFamily("arithmetic-on-each-element", "train")
for fn, expr, returns in [
    ("add_three_to_each", "[x + 3 for x in xs]", "a new list with 3 added to every integer of the list `xs`"),
    ("add_twenty_to_each", "[x + 20 for x in xs]", "a new list with 20 added to every integer of the list `xs`"),
    ("subtract_one_from_each", "[x - 1 for x in xs]", "a new list with 1 subtracted from every integer of the list `xs`"),
    ("subtract_five_from_each", "[x - 5 for x in xs]", "a new list with 5 subtracted from every integer of the list `xs`"),
    ("multiply_each_by_four", "[x * 4 for x in xs]", "a new list with every integer of the list `xs` multiplied by 4"),
    ("multiply_each_by_five", "[x * 5 for x in xs]", "a new list with every integer of the list `xs` multiplied by 5"),
    ("multiply_each_by_hundred", "[x * 100 for x in xs]", "a new list with every integer of the list `xs` multiplied by 100"),
    ("third_of_each", "[x // 3 for x in xs]", "a new list with `x // 3` for every integer `x` of the list `xs`"),
    ("double_plus_one_each", "[2 * x + 1 for x in xs]", "a new list with `2 * x + 1` for every integer `x` of the list `xs`"),
]:  # fmt: skip
    FAMILY_EACH.line(fn, "xs", expr, returns, LISTS)

FAMILY_WORD_DICTS = CoreFamily("word-dictionaries", "train")
for fn, expr, returns in [
    ("reversed_word_dict", "{w: w[::-1] for w in words}", "a dictionary mapping every string of the list `words` to the same string reversed"),
    ("lower_dict", "{w: w.lower() for w in words}", "a dictionary mapping every string of the list `words` to the same string in lower case"),
    ("doubled_word_dict", "{w: w * 2 for w in words}", "a dictionary mapping every string of the list `words` to the same string repeated twice"),
    ("first_two_dict", "{w: w[:2] for w in words}", "a dictionary mapping every string of the list `words` to its first 2 characters"),
    ("one_counts", "{w: 1 for w in words}", "a dictionary mapping every string of the list `words` to the integer 1"),
    ("is_long_dict", "{w: len(w) > 3 for w in words}", "a dictionary mapping every string of the list `words` to True if it has more than 3 characters, else False"),
    ("starts_upper_dict", "{w: w[0].isupper() for w in words}", "a dictionary mapping every (non-empty) string of the list `words` to True if its first character is upper case, else False"),
]:  # fmt: skip
    FAMILY_WORD_DICTS.line(fn, "words", expr, returns, WORD_LISTS)
FAMILY_WORD_DICTS.line(
    "two_entry_dict", "a, b", "{a: 1, b: 2}",
    "a dictionary mapping the string `a` to 1 and the different string `b` to 2",
    [("x", "y"), ("a", "b"), ("one", "two"), ("red", "blue"), ("k", "v"), ("cat", "dog"), ("A", "a"), ("up", "down"), ("", "z")],
)  # fmt: skip
FAMILY_WORD_DICTS.line(
    "value_to_key_dict", "keys, values", "dict(zip(values, keys))",
    "a dictionary mapping `values[i]` to `keys[i]` for every i, for two lists of strings of the same length (the values are all different)",
    [(["a", "b"], ["x", "y"]), ([], []), (["k"], ["v"]), (["one", "two", "three"], ["1", "2", "3"]), (["red"], ["rot"]), (["up", "down"], ["u", "d"]), (["cat", "dog"], ["c", "d"]), (["p", "q", "r"], ["z", "y", "x"])],
)  # fmt: skip

MORE_NATURALS = [*NATURALS, 18, 36, 12, 54, 9, 8]
FAMILY_QUOTIENTS = CoreFamily("quotients-and-remainders", "train")
for fn, expr, returns in [
    ("remainder_by_six", "x % 6", "the remainder of the non-negative integer `x` divided by 6 (`x % 6`)"),
    ("remainder_by_eight", "x % 8", "the remainder of the non-negative integer `x` divided by 8 (`x % 8`)"),
    ("remainder_by_nine", "x % 9", "the remainder of the non-negative integer `x` divided by 9 (`x % 9`)"),
    ("remainder_by_twelve", "x % 12", "the remainder of the non-negative integer `x` divided by 12 (`x % 12`)"),
    ("divide_by_six", "x // 6", "the non-negative integer `x` divided by 6, rounded down (`x // 6`)"),
    ("divide_by_seven", "x // 7", "the non-negative integer `x` divided by 7, rounded down (`x // 7`)"),
    ("divide_by_eight", "x // 8", "the non-negative integer `x` divided by 8, rounded down (`x // 8`)"),
    ("is_multiple_of_six", "x % 6 == 0", "True if the integer `x` is divisible by 6, and False otherwise"),
    ("is_multiple_of_nine", "x % 9 == 0", "True if the integer `x` is divisible by 9, and False otherwise"),
    ("is_multiple_of_twelve", "x % 12 == 0", "True if the integer `x` is divisible by 12, and False otherwise"),
]:  # fmt: skip
    FAMILY_QUOTIENTS.line(fn, "x", expr, returns, MORE_NATURALS)

CHECK_PAIRS = [*PAIRS, (4, 3), (7, 0), (3, -3), (8, 4), (5, 15), (8, 7), (1, 0), (0, 0), (-6, 2)]
FAMILY_PAIR_TESTS = CoreFamily("number-pair-tests", "train")
for fn, expr, returns in [
    ("is_one_more", "a == b + 1", "True if the integer `a` is exactly 1 more than the integer `b`, else False"),
    ("sum_is_zero", "a + b == 0", "True if the sum of the integers `a` and `b` is 0, else False"),
    ("both_odd", "a % 2 == 1 and b % 2 == 1", "True if the integers `a` and `b` are both odd, else False"),
    ("one_is_zero", "a == 0 or b == 0", "True if at least one of the integers `a` and `b` is 0, else False"),
    ("both_at_least_two", "a >= 2 and b >= 2", "True if the integers `a` and `b` are both 2 or more, else False"),
    ("is_smaller", "a < b", "True if the integer `a` is less than the integer `b`, else False"),
    ("at_least_as_big", "a >= b", "True if the integer `a` is greater than or equal to the integer `b`, else False"),
    ("sum_is_negative", "a + b < 0", "True if the sum of the integers `a` and `b` is less than 0, else False"),
    ("difference_over_five", "abs(a - b) > 5", "True if the integers `a` and `b` differ by more than 5, else False"),
]:  # fmt: skip
    FAMILY_PAIR_TESTS.line(fn, "a, b", expr, returns, CHECK_PAIRS)

BOUND_INTS = [*INTS, 2, 3, 50]
FAMILY_LIMITS = CoreFamily("distances-and-limits", "train")
for fn, expr, returns in [
    ("distance_from_two", "abs(x - 2)", "how far the integer `x` is from 2: the absolute value of `x - 2`"),
    ("distance_from_three", "abs(x - 3)", "how far the integer `x` is from 3: the absolute value of `x - 3`"),
    ("distance_from_fifty", "abs(x - 50)", "how far the integer `x` is from 50: the absolute value of `x - 50`"),
    ("at_least_one_or_more", "max(x, 1)", "the integer `x`, or 1 if `x` is smaller than 1 (`max(x, 1)`)"),
    ("at_least_three_or_more", "max(x, 3)", "the integer `x`, or 3 if `x` is smaller than 3 (`max(x, 3)`)"),
    ("at_least_twenty_or_more", "max(x, 20)", "the integer `x`, or 20 if `x` is smaller than 20 (`max(x, 20)`)"),
    ("cap_at_zero", "min(x, 0)", "the integer `x`, or 0 if `x` is larger than 0 (`min(x, 0)`)"),
    ("cap_at_five", "min(x, 5)", "the integer `x`, or 5 if `x` is larger than 5 (`min(x, 5)`)"),
    ("cap_at_thirty", "min(x, 30)", "the integer `x`, or 30 if `x` is larger than 30 (`min(x, 30)`)"),
]:  # fmt: skip
    FAMILY_LIMITS.line(fn, "x", expr, returns, BOUND_INTS)

FAMILY_VALUE_COUNTS = CoreFamily("counting-values", "train")
for fn, expr, returns in [
    ("count_ones", "xs.count(1)", "how many times 1 appears in the list `xs`"),
    ("count_fives", "xs.count(5)", "how many times 5 appears in the list `xs`"),
    ("count_below_three", "sum(1 for x in xs if x < 3)", "how many integers of the list `xs` are less than 3"),
    ("count_above_ten", "sum(1 for x in xs if x > 10)", "how many integers of the list `xs` are greater than 10"),
    ("count_at_least_five", "sum(1 for x in xs if x >= 5)", "how many integers of the list `xs` are 5 or more"),
    ("count_multiples_of_three", "sum(1 for x in xs if x % 3 == 0)", "how many integers of the list `xs` are divisible by 3"),
    ("count_nonzero", "sum(1 for x in xs if x != 0)", "how many integers of the list `xs` are not 0"),
    ("count_above_one", "sum(1 for x in xs if x > 1)", "how many integers of the list `xs` are greater than 1"),
]:  # fmt: skip
    FAMILY_VALUE_COUNTS.line(fn, "xs", expr, returns, COUNT_LISTS)

ZIPPED = [
    ([1, 2, 3], [4, 5, 6]),
    ([], []),
    ([7], [2]),
    ([0, 0], [0, 1]),
    ([5, -1, 4], [5, 3, 2]),
    ([10, 20], [1, 30]),
    ([-2, 6], [-2, 6]),
    ([3, 8, 1, 9], [2, 8, 5, 0]),
    ([4], [9]),
    ([6, 6, 6], [1, 6, 7]),
]
FAMILY_ZIPPED = CoreFamily("zipped-lists", "train")
for fn, expr, returns in [
    ("smaller_elementwise", "[min(x, y) for x, y in zip(a, b)]", "a new list whose element i is the smaller of `a[i]` and `b[i]`, for two lists of the same length"),
    ("equal_elementwise", "[x == y for x, y in zip(a, b)]", "a new list whose element i is True if `a[i] == b[i]` and False otherwise, for two lists of the same length"),
    ("gap_elementwise", "[abs(x - y) for x, y in zip(a, b)]", "a new list whose element i is the absolute value of `a[i] - b[i]`, for two lists of the same length"),
    ("average_elementwise", "[(x + y) // 2 for x, y in zip(a, b)]", "a new list whose element i is `(a[i] + b[i]) // 2`, for two lists of the same length"),
    ("greater_elementwise", "[x > y for x, y in zip(a, b)]", "a new list whose element i is True if `a[i] > b[i]` and False otherwise, for two lists of the same length"),
    ("count_equal_positions", "sum(1 for x, y in zip(a, b) if x == y)", "how many indexes i have `a[i] == b[i]`, for two lists `a` and `b` of the same length"),
    ("sum_of_both_lists", "sum(a) + sum(b)", "the sum of all the integers of the list `a` plus the sum of all the integers of the list `b`"),
    ("first_plus_double_second", "[x + 2 * y for x, y in zip(a, b)]", "a new list whose element i is `a[i] + 2 * b[i]`, for two lists of the same length"),
]:  # fmt: skip
    FAMILY_ZIPPED.line(fn, "a, b", expr, returns, ZIPPED)
