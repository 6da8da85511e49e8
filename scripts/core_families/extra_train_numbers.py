"""Extra train families about integers: scale and shift, subtracting from a constant, ranges,
checks and formulas on two or three integers, powers, digits, conditional arithmetic."""

from __future__ import annotations

from core_families import INTS, PAIRS, CoreFamily

FAMILY_SHIFT = CoreFamily("scale-and-shift", "train")
for fn, expr, returns in [
    ("double_plus_one", "x * 2 + 1", "the integer `x` times 2, plus 1"),
    ("double_minus_one", "x * 2 - 1", "the integer `x` times 2, minus 1"),
    ("triple_plus_two", "x * 3 + 2", "the integer `x` times 3, plus 2"),
    ("triple_minus_three", "x * 3 - 3", "three times the integer `x`, minus 3"),
    ("times_ten_plus_five", "x * 10 + 5", "the integer `x` multiplied by 10, plus 5"),
    ("times_five_minus_one", "x * 5 - 1", "the integer `x` multiplied by 5, minus 1"),
    ("minus_one_times_three", "(x - 1) * 3", "the integer `x` minus 1, all multiplied by 3"),
    ("plus_two_times_ten", "(x + 2) * 10", "the integer `x` plus 2, all multiplied by 10"),
    ("minus_four_times_two", "(x - 4) * 2", "`x - 4` multiplied by 2, for the integer `x`"),
    ("half_plus_one", "x // 2 + 1", "half of the integer `x` rounded down (`x // 2`), plus 1"),
]:  # fmt: skip
    FAMILY_SHIFT.line(fn, "x", expr, returns, INTS)

FAMILY_FROM = CoreFamily("subtract-from-a-constant", "train")
FAMILY_FROM.sweep(
    "{kw}_minus_x", "x", "{k} - x", "{k} minus the integer `x` (`{k} - x`)",
    [1, 5, 10, 12, 20, 50, 100, 1000], INTS,
)  # fmt: skip
FAMILY_FROM.sweep(
    "missing_to_{kw}", "x", "{k} - x",
    "how much must be added to the integer `x` to reach {k} (negative if `x` is above {k})",
    [15, 25], INTS,
)  # fmt: skip

FAMILY_RANGE = CoreFamily("range-membership", "train")
for lo, hi in [(1, 10), (10, 20), (0, 100), (5, 15), (-5, 5), (20, 50), (3, 7), (50, 99)]:
    name = f"between_{lo}_and_{hi}".replace("-", "minus_")
    inside = [lo, hi, lo + 1, hi - 1, (lo + hi) // 2, (lo + hi) // 2 + 1]
    cases = list(dict.fromkeys([*INTS[:8], lo - 1, hi + 1, *inside]))
    FAMILY_RANGE.line(
        name, "x", f"{lo} <= x <= {hi}",
        f"True if the integer `x` is between {lo} and {hi}, both included, else False", cases,
    )  # fmt: skip
FAMILY_RANGE.line(
    "outside_one_to_ten", "x", "x < 1 or x > 10",
    "True if the integer `x` is less than 1 or greater than 10, else False",
    [*INTS, 11, 2, 6],
)  # fmt: skip
FAMILY_RANGE.line(
    "outside_zero_to_fifty", "x", "x < 0 or x > 50",
    "True if the integer `x` is below 0 or above 50, else False", [*INTS, 50, 51, 30],
)  # fmt: skip

FAMILY_TWO_CHECKS = CoreFamily("two-number-checks", "train")
for fn, expr, returns in [
    ("is_bigger", "a > b", "True if the integer `a` is greater than the integer `b`, else False"),
    ("at_most", "a <= b", "True if the integer `a` is less than or equal to `b`, else False"),
    ("both_even", "a % 2 == 0 and b % 2 == 0", "True if both integers `a` and `b` are even, else False"),
    ("either_negative", "a < 0 or b < 0", "True if at least one of the integers `a` and `b` is below 0, else False"),
    ("sum_is_even", "(a + b) % 2 == 0", "True if the sum of the integers `a` and `b` is even, else False"),
    ("sum_over_ten", "a + b > 10", "True if `a + b` is greater than 10, else False"),
    ("product_is_positive", "a * b > 0", "True if the product `a * b` is greater than 0, else False"),
]:  # fmt: skip
    FAMILY_TWO_CHECKS.line(fn, "a, b", expr, returns, [*PAIRS, (8, 4), (6, 3), (11, 2), (0, -6)])
FAMILY_TWO_CHECKS.line(
    "different_numbers", "a, b", "a != b", "True if the integers `a` and `b` are not equal, else False",
    [*PAIRS, (0, 0), (-3, -3), (7, 7), (2, 3)],
)  # fmt: skip
FAMILY_TWO_CHECKS.line(
    "one_positive", "a, b", "a > 0 or b > 0", "True if `a` or `b` (or both) is greater than 0, else False",
    [*PAIRS, (0, 0), (-3, 0), (0, -7), (-1, -2)],
)  # fmt: skip
FAMILY_TWO_CHECKS.line(
    "a_is_double_b", "a, b", "a == 2 * b", "True if the integer `a` is exactly twice the integer `b`, else False",
    [*PAIRS, (8, 4), (6, 3), (0, 0), (-4, -2), (20, 10), (5, 10)],
)  # fmt: skip

FAMILY_FORMULAS = CoreFamily("two-number-formulas", "train")
for fn, expr, returns in [
    ("twice_a_plus_b", "2 * a + b", "two times the integer `a`, plus the integer `b`"),
    ("a_plus_twice_b", "a + 2 * b", "the integer `a` plus two times the integer `b`"),
    ("sum_minus_one", "a + b - 1", "the sum of the integers `a` and `b`, minus 1"),
    ("product_plus_one", "a * b + 1", "the product of the integers `a` and `b`, plus 1"),
    ("sum_then_squared", "(a + b) ** 2", "the sum of the integers `a` and `b`, squared"),
    ("difference_times_three", "(a - b) * 3", "`a` minus `b`, all multiplied by 3"),
    ("sum_plus_product", "a + b + a * b", "the sum of the integers `a` and `b` plus their product"),
    ("a_squared_minus_b", "a * a - b", "the integer `a` squared, minus the integer `b`"),
    ("ten_times_a_plus_b", "10 * a + b", "ten times the integer `a`, plus the integer `b`"),
    ("b_minus_a", "b - a", "the integer `b` minus the integer `a`"),
]:  # fmt: skip
    FAMILY_FORMULAS.line(fn, "a, b", expr, returns, PAIRS)

SMALL = [0, 1, 2, 3, 4, 5, 6, 8, 10]
FAMILY_POWERS = CoreFamily("powers", "train")
FAMILY_POWERS.line(
    "power_of_two", "n", "2 ** n", "2 to the power of the non-negative integer `n`", SMALL
)
FAMILY_POWERS.line(
    "power_of_ten", "n", "10 ** n", "10 to the power of the non-negative integer `n`", SMALL
)
FAMILY_POWERS.line(
    "power_of_three", "n", "3 ** n", "3 raised to the non-negative integer power `n`", SMALL
)
for fn, expr, returns in [
    ("square_plus_one", "x * x + 1", "the square of the integer `x`, plus 1"),
    ("square_minus_one", "x * x - 1", "the integer `x` times itself, minus 1"),
    ("twice_the_square", "2 * x * x", "two times the square of the integer `x`"),
    ("fourth_power", "x ** 4", "the integer `x` to the power 4"),
    ("square_minus_x", "x * x - x", "the square of the integer `x` minus `x` itself"),
    ("square_of_next", "(x + 1) ** 2", "the square of `x + 1`, for the integer `x`"),
]:  # fmt: skip
    FAMILY_POWERS.line(fn, "x", expr, returns, INTS)
FAMILY_POWERS.line(
    "raise_to", "x, n", "x ** n", "the integer `x` raised to the non-negative integer power `n`",
    [(2, 3), (5, 0), (3, 2), (10, 3), (-2, 3), (1, 7), (0, 4), (4, 1), (-3, 2), (7, 2)],
)  # fmt: skip

DIVIDE = [(7, 2), (10, 5), (0, 3), (25, 4), (9, 9), (100, 7), (13, 10), (4, 6), (18, 3), (31, 8)]
FAMILY_DIVIDE = CoreFamily("division-of-two", "train")
for fn, expr, returns in [
    ("quotient", "a // b", "the non-negative integer `a` divided by the positive integer `b`, rounded down"),
    ("remainder_of", "a % b", "the remainder of the non-negative integer `a` divided by the positive integer `b`"),
    ("quotient_plus_remainder", "a // b + a % b", "`a // b` plus `a % b`, for a non-negative integer `a` and a positive integer `b`"),
    ("round_down_to_multiple", "a // b * b", "the largest multiple of the positive integer `b` that is not above the non-negative integer `a` (`a // b * b`)"),
    ("leftover_after_groups", "a - a // b * b", "how many of `a` things are left over after making as many full groups of `b` as possible"),
]:  # fmt: skip
    FAMILY_DIVIDE.line(fn, "a, b", expr, returns, DIVIDE)
FAMILY_DIVIDE.line(
    "last_digit_of_sum", "a, b", "(a + b) % 10",
    "the last digit of the sum of the non-negative integers `a` and `b`", DIVIDE,
)  # fmt: skip
FAMILY_DIVIDE.line(
    "last_digit_of_product", "a, b", "a * b % 10",
    "the last digit of the product of the non-negative integers `a` and `b`", DIVIDE,
)  # fmt: skip

DIGITS = [4, 0, 70, 105, 1, 25, 100, 13, 38, 65, 421, 99, 35, 1230, 5]
FAMILY_DIGITS = CoreFamily("digit-arithmetic", "train")
for fn, expr, returns in [
    ("last_two_digits", "x % 100", "the last two digits of the non-negative integer `x` as a number (`x % 100`)"),
    ("tens_digit", "x // 10 % 10", "the tens digit of the non-negative integer `x` (`x // 10 % 10`)"),
    ("ends_in_five", "x % 10 == 5", "True if the non-negative integer `x` ends with the digit 5, else False"),
    ("last_digit_doubled", "x % 10 * 2", "twice the last digit of the non-negative integer `x`"),
    ("last_digit_plus_one", "x % 10 + 1", "the last digit of the non-negative integer `x`, plus 1"),
    ("last_two_digits_sum", "x % 10 + x // 10 % 10", "the last digit plus the tens digit of the non-negative integer `x`"),
]:  # fmt: skip
    FAMILY_DIGITS.line(fn, "x", expr, returns, DIGITS)
FAMILY_DIGITS.line(
    "hundreds_digit", "x", "x // 100 % 10", "the hundreds digit of the non-negative integer `x` (`x // 100 % 10`)",
    [4, 105, 250, 1230, 999, 70, 3456, 800, 12, 461, 5023],
)  # fmt: skip
FAMILY_DIGITS.line(
    "same_last_digit", "a, b", "a % 10 == b % 10",
    "True if the non-negative integers `a` and `b` end with the same digit, else False",
    [(12, 2), (5, 15), (7, 8), (0, 10), (31, 41), (9, 90), (44, 4), (123, 13), (6, 66), (20, 21)],
)  # fmt: skip

TRIPLES = [
    (1, 2, 3),
    (5, 0, -1),
    (4, 4, 4),
    (-2, 8, 3),
    (10, 20, 5),
    (7, 7, 1),
    (0, 0, 9),
    (3, 1, 2),
    (2, 3, 5),
    (6, 5, 9),
    (0, 1, 2),
    (9, 4, 5),
    (-3, -1, 0),
    (3, 4, 7),
    (1, 1, 2),
]
FAMILY_THREE_CHECKS = CoreFamily("three-number-checks", "train")
for fn, expr, returns in [
    ("is_increasing", "a < b < c", "True if `a < b < c` for the integers `a`, `b` and `c`, else False"),
    ("any_zero_of_three", "a == 0 or b == 0 or c == 0", "True if at least one of the integers `a`, `b` and `c` is 0, else False"),
    ("first_is_largest", "a >= b and a >= c", "True if the integer `a` is at least as large as both `b` and `c`, else False"),
    ("two_are_equal", "a == b or b == c or a == c", "True if at least two of the integers `a`, `b` and `c` are equal, else False"),
    ("sum_of_two_is_third", "a + b == c", "True if `a + b` equals `c` for the integers `a`, `b` and `c`, else False"),
    ("all_positive_three", "a > 0 and b > 0 and c > 0", "True if the integers `a`, `b` and `c` are all greater than 0, else False"),
]:  # fmt: skip
    FAMILY_THREE_CHECKS.line(fn, "a, b, c", expr, returns, TRIPLES)
for fn, expr, returns in [
    ("average_of_three", "(a + b + c) // 3", "the average of the integers `a`, `b` and `c`, rounded down (`(a + b + c) // 3`)"),
    ("spread_of_three", "max(a, b, c) - min(a, b, c)", "the largest minus the smallest of the integers `a`, `b` and `c`"),
    ("a_times_b_plus_c", "a * b + c", "`a` multiplied by `b`, plus `c`, for the integers `a`, `b` and `c`"),
]:  # fmt: skip
    FAMILY_THREE_CHECKS.line(fn, "a, b, c", expr, returns, TRIPLES)

FAMILY_IFNUM = CoreFamily("conditional-arithmetic", "train")
for fn, expr, returns in [
    ("double_if_even", "x * 2 if x % 2 == 0 else x", "`x * 2` if the integer `x` is even, otherwise `x` unchanged"),
    ("half_if_even", "x // 2 if x % 2 == 0 else x", "half of the integer `x` if `x` is even, otherwise `x` unchanged"),
    ("negate_if_odd", "-x if x % 2 == 1 else x", "`-x` if the integer `x` is odd, otherwise `x` unchanged"),
    ("one_if_positive", "1 if x > 0 else 0", "1 if the integer `x` is greater than 0, otherwise 0"),
    ("zero_if_odd", "0 if x % 2 == 1 else x", "0 if the integer `x` is odd, otherwise `x` itself"),
    ("square_if_small", "x * x if x < 5 else x", "the square of the integer `x` if `x` is less than 5, otherwise `x` unchanged"),
    ("minus_five_if_big", "x - 5 if x > 20 else x", "`x - 5` if the integer `x` is greater than 20, otherwise `x` unchanged"),
]:  # fmt: skip
    FAMILY_IFNUM.line(fn, "x", expr, returns, INTS)
FAMILY_IFNUM.line(
    "plus_ten_if_negative", "x", "x + 10 if x < 0 else x",
    "`x + 10` if the integer `x` is below 0, otherwise `x` unchanged", [*INTS, -1, -20, -6],
)  # fmt: skip
FAMILY_IFNUM.line(
    "bigger_minus_smaller", "a, b", "a - b if a > b else b - a",
    "`a - b` if the integer `a` is greater than `b`, otherwise `b - a`", PAIRS,
)  # fmt: skip
FAMILY_IFNUM.line(
    "add_if_both_positive", "a, b", "a + b if a > 0 and b > 0 else 0",
    "the sum of the integers `a` and `b` if both are greater than 0, otherwise 0", PAIRS,
)  # fmt: skip
