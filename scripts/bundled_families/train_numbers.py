"""Train families about single numbers: digits, arithmetic, labels, conversions, sequences."""

from __future__ import annotations

from bundled_families import Family

FAMILY_DIGITS = Family("number-digits", "train")

NUMBERS = [1234, 0, 7, 9081, 1000, 55555, 30, 987654, 11]


@FAMILY_DIGITS.add(
    "easy",
    "Write a function `digit_sum(n)` that returns the sum of the decimal digits of the "
    "non-negative integer `n`, e.g. 1234 gives 10.",
    NUMBERS,
)
def digit_sum(n):
    return sum(int(d) for d in str(n))


@FAMILY_DIGITS.add(
    "easy",
    "Write a function `num_digits(n)` that returns how many decimal digits the integer `n` has. "
    "The minus sign of a negative number does not count, and 0 has one digit.",
    [1234, 0, -56, 7, 1000000, -1, 99, 10],
)
def num_digits(n):
    return len(str(abs(n)))


@FAMILY_DIGITS.add(
    "easy",
    "Write a function `digit_product(n)` that returns the product of the decimal digits of the "
    "non-negative integer `n`, e.g. 234 gives 24 and 0 gives 0.",
    [234, 0, 7, 1111, 105, 99, 12345, 6],
)
def digit_product(n):
    product = 1
    for d in str(n):
        product *= int(d)
    return product


@FAMILY_DIGITS.add(
    "easy",
    "Write a function `largest_digit(n)` that returns the largest decimal digit of the "
    "non-negative integer `n`.",
    NUMBERS,
)
def largest_digit(n):
    return max(int(d) for d in str(n))


@FAMILY_DIGITS.add(
    "medium",
    "Write a function `reverse_number(n)` that returns the integer whose decimal digits are those "
    "of `n` in reverse order, keeping the sign: 123 gives 321, -45 gives -54 and 1200 gives 21.",
    [123, -45, 1200, 0, 7, -100, 9081, 11],
)
def reverse_number(n):
    value = int(str(abs(n))[::-1])
    return -value if n < 0 else value


@FAMILY_DIGITS.add(
    "medium",
    "Write a function `digital_root(n)` that repeatedly replaces the non-negative integer `n` by "
    "the sum of its decimal digits until a single digit remains, and returns that digit, e.g. "
    "942 -> 15 -> 6.",
    [942, 0, 5, 99, 123456, 10, 38, 1000000],
)
def digital_root(n):
    while n >= 10:
        n = sum(int(d) for d in str(n))
    return n


@FAMILY_DIGITS.add(
    "easy",
    "Write a function `digits_list(n)` that returns the list of decimal digits of the "
    "non-negative integer `n`, most significant first, e.g. 507 gives [5, 0, 7].",
    [507, 0, 9, 1234, 1000, 86, 31415, 42],
)
def digits_list(n):
    return [int(d) for d in str(n)]


@FAMILY_DIGITS.add(
    "easy",
    "Write a function `count_even_digits(n)` that returns how many of the decimal digits of the "
    "non-negative integer `n` are even (0 counts as even).",
    [1234, 0, 7, 2468, 13579, 1000, 9081, 22],
)
def count_even_digits(n):
    return sum(1 for d in str(n) if int(d) % 2 == 0)


FAMILY_ARITH = Family("basic-arithmetic", "train")


@FAMILY_ARITH.add(
    "easy",
    "Write a function `is_even(n)` that returns True if the integer `n` is even and False "
    "otherwise. Negative numbers and 0 follow the usual rule.",
    [4, 7, 0, -2, -3, 100, 1, 13],
)
def is_even(n):
    return n % 2 == 0


@FAMILY_ARITH.add(
    "easy",
    "Write a function `is_divisible(a, b)` that returns True if the integer `a` is divisible by "
    "the non-zero integer `b` (no remainder), and False otherwise.",
    [(10, 5), (10, 3), (0, 7), (-9, 3), (7, 7), (7, 14), (100, -10), (1, 2)],
)
def is_divisible(a, b):
    return a % b == 0


@FAMILY_ARITH.add(
    "easy",
    "Write a function `factorial(n)` that returns n! for a non-negative integer `n`, the product "
    "1 * 2 * ... * n; 0! is 1.",
    [5, 0, 1, 3, 10, 2, 7, 12],
)
def factorial(n):
    result = 1
    for k in range(2, n + 1):
        result *= k
    return result


@FAMILY_ARITH.add(
    "easy",
    "Write a function `sum_to_n(n)` that returns the sum 1 + 2 + ... + n for a non-negative "
    "integer `n` (0 for n = 0).",
    [5, 0, 1, 10, 100, 3, 7, 2],
)
def sum_to_n(n):
    return n * (n + 1) // 2


@FAMILY_ARITH.add(
    "medium",
    "Write a function `gcd(a, b)` that returns the greatest common divisor of two non-negative "
    "integers `a` and `b`, not both zero. gcd(n, 0) is n.",
    [(12, 18), (7, 5), (0, 9), (100, 10), (21, 6), (17, 17), (48, 180), (9, 0)],
)
def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@FAMILY_ARITH.add(
    "medium",
    "Write a function `lcm(a, b)` that returns the least common multiple of two positive integers "
    "`a` and `b`.",
    [(4, 6), (3, 5), (1, 9), (10, 10), (12, 18), (7, 14), (8, 9), (2, 3)],
)
def lcm(a, b):
    x, y = a, b
    while y:
        x, y = y, x % y
    return a * b // x


@FAMILY_ARITH.add(
    "medium",
    "Write a function `is_prime(n)` that returns True if the integer `n` is a prime number and "
    "False otherwise. Numbers below 2 are not prime.",
    [7, 1, 10, 2, 0, 97, 91, -5, 13, 25],
)
def is_prime(n):
    if n < 2:
        return False
    return all(n % d for d in range(2, int(n**0.5) + 1))


@FAMILY_ARITH.add(
    "medium",
    "Write a function `fibonacci(n)` that returns the n-th Fibonacci number, where fibonacci(0) "
    "is 0, fibonacci(1) is 1 and each later number is the sum of the two before it.",
    [6, 0, 1, 2, 10, 20, 3, 15],
)
def fibonacci(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@FAMILY_ARITH.add(
    "easy",
    "Write a function `power(base, exp)` that returns `base` raised to the non-negative integer "
    "power `exp`; any base to the power 0 is 1.",
    [(2, 10), (5, 0), (3, 3), (-2, 3), (0, 5), (10, 2), (1, 100), (-3, 2)],
)
def power(base, exp):
    result = 1
    for _ in range(exp):
        result *= base
    return result


@FAMILY_ARITH.add(
    "easy",
    "Write a function `count_divisors(n)` that returns how many positive integers divide the "
    "positive integer `n` exactly (including 1 and `n`).",
    [12, 1, 7, 36, 100, 2, 30, 17],
)
def count_divisors(n):
    return sum(1 for d in range(1, n + 1) if n % d == 0)


FAMILY_LABELS = Family("fizzbuzz-like-labels", "train")


@FAMILY_LABELS.add(
    "easy",
    "Write a function `fizzbuzz(n)` that returns a list of strings for the numbers 1 to `n`: "
    "'Fizz' for multiples of 3, 'Buzz' for multiples of 5, 'FizzBuzz' for multiples of both, and "
    "the number itself as a string otherwise. For n = 0 return [].",
    [5, 0, 15, 1, 3, 10, 16, 2],
)
def fizzbuzz(n):
    out = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out


@FAMILY_LABELS.add(
    "easy",
    "Write a function `ping_pong(n)` that returns a list of strings for the numbers 1 to `n`: "
    "'Ping' for multiples of 2, 'Pong' for multiples of 7, 'PingPong' for multiples of both, and "
    "the number as a string otherwise.",
    [7, 0, 14, 1, 3, 15, 8, 2],
)
def ping_pong(n):
    out = []
    for i in range(1, n + 1):
        label = ("Ping" if i % 2 == 0 else "") + ("Pong" if i % 7 == 0 else "")
        out.append(label or str(i))
    return out


@FAMILY_LABELS.add(
    "easy",
    "Write a function `even_odd_labels(xs)` that returns a list with 'even' or 'odd' for each "
    "integer of the list `xs`, in order.",
    [[1, 2, 3], [], [0], [-1, -2], [10, 11, 12, 13], [7], [4, 4], [99, 100]],
)
def even_odd_labels(xs):
    return ["even" if x % 2 == 0 else "odd" for x in xs]


@FAMILY_LABELS.add(
    "easy",
    "Write a function `sign_labels(xs)` that returns a list with 'positive', 'negative' or 'zero' "
    "for each number of the list `xs`, in order.",
    [[1, -2, 0], [], [0], [-5, -6], [3, 0, -3, 8], [100], [-1], [0, 0, 2]],
)
def sign_labels(xs):
    return ["positive" if x > 0 else "negative" if x < 0 else "zero" for x in xs]


@FAMILY_LABELS.add(
    "easy",
    "Write a function `size_label(n)` that returns 'small' if the integer `n` is less than 10, "
    "'medium' if it is from 10 to 99, and 'large' if it is 100 or more.",
    [5, 10, 99, 100, -3, 50, 1000, 9],
)
def size_label(n):
    if n < 10:
        return "small"
    return "medium" if n < 100 else "large"


@FAMILY_LABELS.add(
    "easy",
    "Write a function `fizzbuzz_one(n)` that returns 'Fizz' if the positive integer `n` is a "
    "multiple of 3, 'Buzz' if it is a multiple of 5, 'FizzBuzz' if it is a multiple of both, and "
    "otherwise `n` as a string.",
    [3, 5, 15, 7, 30, 9, 10, 1],
)
def fizzbuzz_one(n):
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    return "Buzz" if n % 5 == 0 else str(n)


FAMILY_UNITS = Family("unit-conversions", "train")


@FAMILY_UNITS.add(
    "easy",
    "Write a function `celsius_to_fahrenheit(c)` that converts the temperature `c`, a whole "
    "number of degrees Celsius that is a multiple of 5, to Fahrenheit using F = C * 9 / 5 + 32, "
    "and returns it as an integer.",
    [0, 100, -40, 35, 20, -10, 5, 40],
)
def celsius_to_fahrenheit(c):
    return c * 9 // 5 + 32


@FAMILY_UNITS.add(
    "easy",
    "Write a function `hours_to_seconds(hours)` that returns the number of seconds in `hours` "
    "hours.",
    [1, 0, 2, 24, 10, 3, 100, 7],
)
def hours_to_seconds(hours):
    return hours * 3600


@FAMILY_UNITS.add(
    "easy",
    "Write a function `minutes_to_hours(minutes)` that splits a non-negative number of minutes "
    "into whole hours and remaining minutes and returns them as a list [hours, minutes], e.g. "
    "135 gives [2, 15].",
    [135, 0, 59, 60, 61, 600, 1439, 45],
)
def minutes_to_hours(minutes):
    return [minutes // 60, minutes % 60]


@FAMILY_UNITS.add(
    "easy",
    "Write a function `feet_to_inches(feet, inches)` that returns the total number of inches in a "
    "length of `feet` feet and `inches` inches (one foot is 12 inches).",
    [(5, 10), (0, 0), (1, 0), (0, 11), (6, 2), (3, 3), (10, 5), (2, 12)],
)
def feet_to_inches(feet, inches):
    return feet * 12 + inches


@FAMILY_UNITS.add(
    "easy",
    "Write a function `km_to_meters(km)` that converts a whole number of kilometres to metres.",
    [1, 0, 5, 42, 100, 3, 12, 7],
)
def km_to_meters(km):
    return km * 1000


@FAMILY_UNITS.add(
    "easy",
    "Write a function `days_to_weeks(days)` that returns a list [weeks, days] with the number of "
    "whole weeks in the non-negative number `days` and the days left over, e.g. 10 gives [1, 3].",
    [10, 0, 6, 7, 14, 100, 365, 1],
)
def days_to_weeks(days):
    return [days // 7, days % 7]


@FAMILY_UNITS.add(
    "medium",
    "Write a function `format_seconds(total)` that turns a non-negative number of seconds into a "
    "string 'H:MM:SS' (hours without padding, minutes and seconds with two digits), e.g. 3725 "
    "gives '1:02:05'.",
    [3725, 0, 59, 60, 3600, 86399, 7322, 45296],
)
def format_seconds(total):
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"


FAMILY_BOUNDS = Family("clamp-and-bounds", "train")


@FAMILY_BOUNDS.add(
    "easy",
    "Write a function `clamp(x, low, high)` that returns `x` limited to the range from `low` to "
    "`high`: `low` if `x` is below it, `high` if `x` is above it, and `x` itself otherwise.",
    [
        (5, 0, 10),
        (-3, 0, 10),
        (15, 0, 10),
        (0, 0, 10),
        (10, 0, 10),
        (7, 7, 7),
        (-5, -10, -1),
        (0, -10, -1),
    ],
)
def clamp(x, low, high):
    return max(low, min(x, high))


@FAMILY_BOUNDS.add(
    "easy",
    "Write a function `clamp_all(xs, low, high)` that returns a new list where every number of "
    "`xs` is limited to the range from `low` to `high` (values below `low` become `low`, values "
    "above `high` become `high`).",
    [
        ([1, 5, 10], 2, 8),
        ([], 0, 1),
        ([-5, 0, 5], 0, 3),
        ([4, 4], 4, 4),
        ([100, -100], -10, 10),
        ([3, 4, 5], 0, 10),
        ([0, 1, 2, 3], 1, 2),
        ([9], 10, 20),
    ],
)
def clamp_all(xs, low, high):
    return [max(low, min(x, high)) for x in xs]


@FAMILY_BOUNDS.add(
    "easy",
    "Write a function `is_between(x, low, high)` that returns True if `low <= x <= high` and "
    "False otherwise.",
    [
        (5, 1, 10),
        (0, 1, 10),
        (1, 1, 10),
        (10, 1, 10),
        (11, 1, 10),
        (-3, -5, -1),
        (-6, -5, -1),
        (3, 3, 3),
    ],
)
def is_between(x, low, high):
    return low <= x <= high


@FAMILY_BOUNDS.add(
    "easy",
    "Write a function `sign(x)` that returns 1 if the number `x` is positive, -1 if it is "
    "negative and 0 if it is zero.",
    [5, -3, 0, 100, -1, 1, -250, 42],
)
def sign(x):
    return (x > 0) - (x < 0)


@FAMILY_BOUNDS.add(
    "easy",
    "Write a function `distance(a, b)` that returns the absolute difference between the integers "
    "`a` and `b`.",
    [(3, 8), (8, 3), (0, 0), (-5, 5), (-2, -9), (10, 10), (0, -7), (100, 1)],
)
def distance(a, b):
    return abs(a - b)


@FAMILY_BOUNDS.add(
    "medium",
    "Write a function `wrap_index(i, n)` that maps any integer index `i` into the range 0 to "
    "`n - 1` by wrapping around like a circular list of length `n` (n > 0): -1 becomes n - 1, n "
    "becomes 0.",
    [(3, 5), (5, 5), (-1, 5), (12, 5), (0, 1), (-7, 3), (0, 4), (9, 10)],
)
def wrap_index(i, n):
    return i % n


FAMILY_CHOOSE = Family("choose-among-arguments", "train")


@FAMILY_CHOOSE.add(
    "easy",
    "Write a function `max_of_two(a, b)` that returns the larger of the two numbers `a` and `b`.",
    [(3, 7), (7, 3), (-1, -5), (4, 4), (0, -2), (-8, 2), (100, 99), (5, 6)],
)
def max_of_two(a, b):
    return a if a > b else b


@FAMILY_CHOOSE.add(
    "easy",
    "Write a function `max_of_three(a, b, c)` that returns the largest of the three numbers `a`, "
    "`b` and `c`.",
    [(1, 2, 3), (8, 2, 1), (2, 9, 1), (-1, -2, -3), (5, 5, 1), (0, 0, 0), (-7, 4, 4), (10, 20, 15)],
)
def max_of_three(a, b, c):
    return max(a, b, c)


@FAMILY_CHOOSE.add(
    "easy",
    "Write a function `min_of_three(a, b, c)` that returns the smallest of the three numbers `a`, "
    "`b` and `c`.",
    [(4, 5, 6), (3, 2, 1), (2, 0, 3), (-1, -2, -3), (5, 5, 1), (0, 0, 0), (-7, 4, 4), (10, 20, 15)],
)
def min_of_three(a, b, c):
    return min(a, b, c)


@FAMILY_CHOOSE.add(
    "easy",
    "Write a function `longer_string(a, b)` that returns whichever of the strings `a` and `b` is "
    "longer. If they have the same length, return `a`.",
    [
        ("hello", "hi"),
        ("a", "abc"),
        ("", ""),
        ("same", "size"),
        ("", "x"),
        ("long one", "short"),
        ("ab", "cd"),
        ("x", ""),
    ],
)
def longer_string(a, b):
    return b if len(b) > len(a) else a


@FAMILY_CHOOSE.add(
    "medium",
    "Write a function `middle_of_three(a, b, c)` that returns the median of the three numbers "
    "`a`, `b` and `c`: the one that is neither the smallest nor the largest (with ties, the "
    "value in the middle after sorting).",
    [
        (1, 2, 3),
        (9, 1, 4),
        (6, 8, 1),
        (5, 5, 1),
        (-1, -10, 0),
        (7, 7, 7),
        (10, 2, 10),
        (0, 100, 50),
    ],
)
def middle_of_three(a, b, c):
    return sorted([a, b, c])[1]


FAMILY_SEQUENCES = Family("number-sequences", "train")


@FAMILY_SEQUENCES.add(
    "easy",
    "Write a function `range_list(a, b)` that returns the list of integers from `a` to `b` "
    "inclusive, in increasing order. If `a` is greater than `b`, return [].",
    [(1, 5), (3, 3), (5, 1), (-2, 2), (0, 0), (10, 12), (-5, -3), (7, 6)],
)
def range_list(a, b):
    return list(range(a, b + 1))


@FAMILY_SEQUENCES.add(
    "easy",
    "Write a function `evens_up_to(n)` that returns the list of even numbers from 0 to `n` "
    "inclusive, in increasing order. For negative `n` return [].",
    [10, 0, 1, 7, -4, 2, 15, 3],
)
def evens_up_to(n):
    return list(range(0, n + 1, 2))


@FAMILY_SEQUENCES.add(
    "easy",
    "Write a function `squares_up_to(n)` that returns the list [1, 4, 9, ...] of the squares of "
    "the integers from 1 to `n`. For n = 0 return [].",
    [5, 0, 1, 3, 10, 2, 7, 4],
)
def squares_up_to(n):
    return [i * i for i in range(1, n + 1)]


@FAMILY_SEQUENCES.add(
    "easy",
    "Write a function `countdown(n)` that returns the list of integers from `n` down to 0, e.g. 3 "
    "gives [3, 2, 1, 0]. For negative `n` return [].",
    [3, 0, 10, -1, 1, 5, 2, 7],
)
def countdown(n):
    return list(range(n, -1, -1))


@FAMILY_SEQUENCES.add(
    "easy",
    "Write a function `first_multiples(k, n)` that returns the list of the first `n` positive "
    "multiples of `k`, e.g. k = 3, n = 4 gives [3, 6, 9, 12].",
    [(3, 4), (5, 0), (1, 5), (7, 1), (10, 3), (2, 6), (-2, 3), (4, 2)],
)
def first_multiples(k, n):
    return [k * i for i in range(1, n + 1)]


@FAMILY_SEQUENCES.add(
    "medium",
    "Write a function `triangular_numbers(n)` that returns the first `n` triangular numbers, where "
    "the i-th one is 1 + 2 + ... + i: [1, 3, 6, 10, ...]. For n = 0 return [].",
    [4, 0, 1, 2, 6, 10, 3, 5],
)
def triangular_numbers(n):
    out, total = [], 0
    for i in range(1, n + 1):
        total += i
        out.append(total)
    return out


@FAMILY_SEQUENCES.add(
    "medium",
    "Write a function `fibonacci_list(n)` that returns a list of the first `n` Fibonacci numbers "
    "starting 0, 1, 1, 2, 3, ... For n = 0 return [].",
    [5, 0, 1, 2, 10, 3, 7, 12],
)
def fibonacci_list(n):
    out, a, b = [], 0, 1
    for _ in range(n):
        out.append(a)
        a, b = b, a + b
    return out
