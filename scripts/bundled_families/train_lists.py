"""Train families about lists of numbers: sums, counts, extremes, filters, maps, running values."""

from __future__ import annotations

from bundled_families import Family

INTS = [
    [3, 1, 4, 1, 5, 9, 2, 6],
    [],
    [-3, -2, 0, 7, 9],
    [10],
    [5, -5, 5, -5],
    [2, 4, 6, 8],
    [-1, -7, -12],
    [0, 0, 3, 11, 14, -6],
    [15, 9, 30, 1],
    [1, 2, 3, 4, 5, 6],
]

FAMILY_SUM = Family("sum-of-filtered-elements", "train")


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_evens(xs)` that returns the sum of the even numbers in the list of "
    "integers `xs`. Return 0 if there are none.",
    INTS,
)
def sum_evens(xs):
    return sum(x for x in xs if x % 2 == 0)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_odds(xs)` that returns the sum of the odd numbers in the list of "
    "integers `xs` (negative odd numbers count too). Return 0 if there are none.",
    INTS,
)
def sum_odds(xs):
    return sum(x for x in xs if x % 2 != 0)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_positives(xs)` that returns the sum of the numbers greater than 0 in "
    "the list of integers `xs`. Return 0 if there are none.",
    INTS,
)
def sum_positives(xs):
    return sum(x for x in xs if x > 0)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_negatives(xs)` that returns the sum of the negative numbers in the "
    "list of integers `xs`. Return 0 if there are none.",
    INTS,
)
def sum_negatives(xs):
    return sum(x for x in xs if x < 0)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_multiples_of_three(xs)` that returns the sum of the numbers in the "
    "list of integers `xs` that are divisible by 3. Return 0 if there are none.",
    INTS,
)
def sum_multiples_of_three(xs):
    return sum(x for x in xs if x % 3 == 0)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_above(xs, limit)` that returns the sum of the numbers in the list "
    "`xs` that are strictly greater than `limit`. Return 0 if there are none.",
    [
        ([1, 5, 10, 20], 5),
        ([], 0),
        ([1, 2, 3], 10),
        ([-5, -1, 0, 4], -2),
        ([7, 7, 7], 6),
        ([7, 7, 7], 7),
        ([100, 50, 25], 30),
        ([3, 8, 1, 9], 2),
    ],
)
def sum_above(xs, limit):
    return sum(x for x in xs if x > limit)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_of_squares(xs)` that returns the sum of the squares of the numbers in "
    "the list of integers `xs`. Return 0 for an empty list.",
    INTS,
)
def sum_of_squares(xs):
    return sum(x * x for x in xs)


@FAMILY_SUM.add(
    "easy",
    "Write a function `sum_even_positions(xs)` that returns the sum of the elements of the list "
    "`xs` at even indexes 0, 2, 4, ... Return 0 for an empty list.",
    INTS,
)
def sum_even_positions(xs):
    return sum(xs[::2])


FAMILY_COUNT = Family("count-filtered-elements", "train")


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_evens(xs)` that returns how many numbers in the list of integers "
    "`xs` are even.",
    INTS,
)
def count_evens(xs):
    return sum(1 for x in xs if x % 2 == 0)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_negatives(xs)` that returns how many numbers in the list `xs` are "
    "less than 0.",
    INTS,
)
def count_negatives(xs):
    return sum(1 for x in xs if x < 0)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_zeros(xs)` that returns how many elements of the list `xs` are "
    "equal to 0.",
    [[0, 1, 0, 2], [], [1, 2, 3], [0], [0, 0, 0], [-1, 0, 1], [5, 0, 5, 0, 5, 0], [7]],
)
def count_zeros(xs):
    return xs.count(0)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_greater(xs, limit)` that returns how many numbers in the list `xs` "
    "are strictly greater than `limit`.",
    [
        ([1, 5, 10, 20], 5),
        ([], 3),
        ([1, 2, 3], 10),
        ([-5, -1, 0, 4], -2),
        ([7, 7, 7], 6),
        ([7, 7, 7], 7),
        ([100, 50, 25], 30),
        ([3, 8, 1, 9], 2),
    ],
)
def count_greater(xs, limit):
    return sum(1 for x in xs if x > limit)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_occurrences(xs, value)` that returns how many times `value` "
    "appears in the list `xs`.",
    [
        ([1, 2, 1, 3, 1], 1),
        ([], 5),
        ([1, 2, 3], 4),
        (["a", "b", "a"], "a"),
        ([0, 0], 0),
        ([2, 2, 2, 2], 2),
        ([-1, 1, -1], -1),
        (["x"], "y"),
    ],
)
def count_occurrences(xs, value):
    return xs.count(value)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_in_range(xs, low, high)` that returns how many numbers in the list "
    "`xs` lie between `low` and `high`, both ends included.",
    [
        ([1, 5, 10, 15], 5, 10),
        ([], 0, 10),
        ([1, 2, 3], 4, 9),
        ([-3, -2, -1, 0], -2, 0),
        ([5, 5, 5], 5, 5),
        ([0, 100, 50], 1, 99),
        ([7, 8, 9], 0, 100),
        ([4, 12, 6, 20], 6, 12),
    ],
)
def count_in_range(xs, low, high):
    return sum(1 for x in xs if low <= x <= high)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_long_words(words, n)` that returns how many strings in the list "
    "`words` have more than `n` characters.",
    [
        (["apple", "fig", "banana"], 3),
        ([], 2),
        (["a", "bb", "ccc"], 5),
        (["hello", "world"], 4),
        (["x"], 0),
        (["", "a"], 0),
        (["tree", "leaf", "branch", "root"], 4),
        (["cat", "dog"], 3),
    ],
)
def count_long_words(words, n):
    return sum(1 for w in words if len(w) > n)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_odds(xs)` that returns how many numbers in the list of integers "
    "`xs` are odd (negative odd numbers count too).",
    INTS,
)
def count_odds(xs):
    return sum(1 for x in xs if x % 2 != 0)


FAMILY_EXTREMES = Family("list-extremes", "train")


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `max_of_list(xs)` that returns the largest number in the list `xs`, or "
    "None if the list is empty.",
    INTS,
)
def max_of_list(xs):
    return max(xs) if xs else None


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `min_of_list(xs)` that returns the smallest number in the list `xs`, or "
    "None if the list is empty.",
    INTS,
)
def min_of_list(xs):
    return min(xs) if xs else None


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `spread(xs)` that returns the difference between the largest and the "
    "smallest number in the list `xs`. Return 0 for an empty list.",
    INTS,
)
def spread(xs):
    return max(xs) - min(xs) if xs else 0


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `index_of_max(xs)` that returns the index of the largest number in the "
    "list `xs` (the first such index if the largest value appears several times), or -1 for an "
    "empty list.",
    INTS,
)
def index_of_max(xs):
    return xs.index(max(xs)) if xs else -1


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `index_of_min(xs)` that returns the index of the smallest number in the "
    "list `xs` (the first such index if the smallest value appears several times), or -1 for an "
    "empty list.",
    INTS,
)
def index_of_min(xs):
    return xs.index(min(xs)) if xs else -1


@FAMILY_EXTREMES.add(
    "medium",
    "Write a function `second_largest(xs)` that returns the second largest distinct value in the "
    "list of integers `xs`. If there are fewer than two distinct values, return None.",
    [[1, 2, 3, 4], [], [5, 5, 5], [10, 10, 9], [-1, -2, -3], [7], [3, 1, 3, 2], [2, 8, 8, 6]],
)
def second_largest(xs):
    values = sorted(set(xs))
    return values[-2] if len(values) >= 2 else None


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `largest_even(xs)` that returns the largest even number in the list of "
    "integers `xs`, or None if it contains no even number.",
    INTS,
)
def largest_even(xs):
    evens = [x for x in xs if x % 2 == 0]
    return max(evens) if evens else None


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `max_abs(xs)` that returns the largest absolute value among the numbers in "
    "the list `xs`, or 0 for an empty list.",
    INTS,
)
def max_abs(xs):
    return max((abs(x) for x in xs), default=0)


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `smallest_positive(xs)` that returns the smallest number greater than 0 in "
    "the list `xs`, or None if there is none.",
    INTS,
)
def smallest_positive(xs):
    positives = [x for x in xs if x > 0]
    return min(positives) if positives else None


@FAMILY_EXTREMES.add(
    "easy",
    "Write a function `min_max(xs)` that returns a list `[smallest, largest]` with the smallest "
    "and largest numbers of the non-empty list `xs`.",
    [[3, 1, 2], [5], [-4, 10, 0], [7, 7], [1, 2, 3, 4, 5], [-1, -9, -3], [100, 99, 101], [0, 0, 1]],
)
def min_max(xs):
    return [min(xs), max(xs)]


FAMILY_FILTER = Family("list-filtering", "train")


@FAMILY_FILTER.add(
    "easy",
    "Write a function `keep_evens(xs)` that returns a new list with only the even numbers of the "
    "list of integers `xs`, in their original order.",
    INTS,
)
def keep_evens(xs):
    return [x for x in xs if x % 2 == 0]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `keep_positives(xs)` that returns a new list with only the numbers of `xs` "
    "that are greater than 0, in their original order.",
    INTS,
)
def keep_positives(xs):
    return [x for x in xs if x > 0]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `remove_zeros(xs)` that returns a new list with every 0 removed from the "
    "list `xs`, keeping the other elements in order.",
    [[0, 1, 0, 2], [], [1, 2, 3], [0], [0, 0, 0], [-1, 0, 1], [5, 0, 5, 0, 5, 0], [7]],
)
def remove_zeros(xs):
    return [x for x in xs if x != 0]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `remove_value(xs, value)` that returns a new list with every occurrence of "
    "`value` removed from the list `xs`.",
    [
        ([1, 2, 1, 3], 1),
        ([], 1),
        ([1, 2, 3], 4),
        (["a", "b", "a"], "a"),
        ([5, 5], 5),
        ([0, 1, 0], 0),
        ([-2, 2, -2], 2),
        (["x", "y"], "y"),
    ],
)
def remove_value(xs, value):
    return [x for x in xs if x != value]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `keep_above(xs, limit)` that returns a new list with the numbers of `xs` "
    "that are strictly greater than `limit`, in their original order.",
    [
        ([1, 5, 10, 20], 5),
        ([], 0),
        ([1, 2, 3], 10),
        ([-5, -1, 0, 4], -2),
        ([7, 7, 7], 6),
        ([7, 7, 7], 7),
        ([100, 50, 25], 30),
        ([3, 8, 1, 9], 2),
    ],
)
def keep_above(xs, limit):
    return [x for x in xs if x > limit]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `long_words(words, n)` that returns the strings of the list `words` that "
    "have at least `n` characters, in their original order.",
    [
        (["apple", "fig", "banana"], 4),
        ([], 2),
        (["a", "bb", "ccc"], 5),
        (["hello", "world"], 5),
        (["x", ""], 0),
        (["tree", "leaf", "branch", "root"], 5),
        (["cat", "dog", "mouse"], 3),
        (["one", "three"], 4),
    ],
)
def long_words(words, n):
    return [w for w in words if len(w) >= n]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `words_starting_with(words, letter)` that returns the strings of the list "
    "`words` that start with the character `letter` (case-sensitive), in their original order.",
    [
        (["apple", "avocado", "banana"], "a"),
        ([], "a"),
        (["Apple", "apple"], "a"),
        (["cat", "dog"], "z"),
        (["bee", "bat", "ball"], "b"),
        (["", "a"], "a"),
        (["Xena", "Xavier", "xray"], "X"),
        (["one"], "o"),
    ],
)
def words_starting_with(words, letter):
    return [w for w in words if w.startswith(letter)]


@FAMILY_FILTER.add(
    "easy",
    "Write a function `non_empty(strings)` that returns the strings of the list `strings` that "
    "are not empty, in their original order.",
    [
        ["a", "", "b"],
        [],
        ["", ""],
        ["x"],
        ["", "hello", "", "world"],
        [" ", ""],
        ["a", "b"],
        ["", "z"],
    ],
)
def non_empty(strings):
    return [s for s in strings if s]


FAMILY_MAP = Family("list-mapping", "train")


@FAMILY_MAP.add(
    "easy",
    "Write a function `double_all(xs)` that returns a new list with every number of the list "
    "`xs` multiplied by 2.",
    INTS,
)
def double_all(xs):
    return [2 * x for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `square_all(xs)` that returns a new list with the square of every number "
    "of the list `xs`.",
    INTS,
)
def square_all(xs):
    return [x * x for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `negate_all(xs)` that returns a new list with every number of the list "
    "`xs` negated (its sign flipped).",
    INTS,
)
def negate_all(xs):
    return [-x for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `add_to_all(xs, k)` that returns a new list where `k` has been added to "
    "every number of the list `xs`.",
    [
        ([1, 2, 3], 1),
        ([], 5),
        ([0], 0),
        ([-1, -2], 3),
        ([10, 20], -10),
        ([5, 5, 5], 2),
        ([100], -1),
        ([7, 0, 7], 7),
    ],
)
def add_to_all(xs, k):
    return [x + k for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `abs_all(xs)` that returns a new list with the absolute value of every "
    "number of the list `xs`.",
    INTS,
)
def abs_all(xs):
    return [abs(x) for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `lengths(words)` that returns a list with the length of each string in the "
    "list `words`.",
    [
        ["a", "bb", "ccc"],
        [],
        [""],
        ["hello", "world"],
        ["Python"],
        ["x", "", "yz"],
        ["tree", "leaf"],
        ["  "],
    ],
)
def lengths(words):
    return [len(w) for w in words]


@FAMILY_MAP.add(
    "easy",
    "Write a function `first_letters(words)` that returns a string made of the first character of "
    "each non-empty string in the list `words`; empty strings are skipped.",
    [
        ["hello", "world"],
        [],
        ["", "a"],
        ["Python", "is", "fun"],
        ["x"],
        ["abc", "", "def"],
        ["Never", "Again"],
        [""],
    ],
)
def first_letters(words):
    return "".join(w[0] for w in words if w)


@FAMILY_MAP.add(
    "easy",
    "Write a function `last_digits(xs)` that returns a list with the last decimal digit of each "
    "non-negative integer in the list `xs`.",
    [[123, 45, 6], [], [0], [10, 20, 31], [7], [99, 100, 101], [5, 15, 25], [1234567]],
)
def last_digits(xs):
    return [x % 10 for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `to_strings(xs)` that returns a list with every integer of the list `xs` "
    "converted to its decimal string.",
    [[1, 2, 3], [], [-5], [0, 10], [42], [100, -100], [7, 7], [123456]],
)
def to_strings(xs):
    return [str(x) for x in xs]


@FAMILY_MAP.add(
    "easy",
    "Write a function `upper_all(words)` that returns a new list with every string of `words` in "
    "upper case.",
    [
        ["a", "b"],
        [],
        ["Hello", "World"],
        ["already UP"],
        ["x1"],
        ["mixed Case", "lower"],
        [""],
        ["abc", "DEF"],
    ],
)
def upper_all(words):
    return [w.upper() for w in words]


FAMILY_RUNNING = Family("running-values", "train")


@FAMILY_RUNNING.add(
    "easy",
    "Write a function `running_sum(xs)` that returns a list whose element i is the sum of the "
    "first i+1 numbers of `xs`, e.g. [1, 2, 3] gives [1, 3, 6]. An empty list gives [].",
    INTS,
)
def running_sum(xs):
    out, total = [], 0
    for x in xs:
        total += x
        out.append(total)
    return out


@FAMILY_RUNNING.add(
    "easy",
    "Write a function `running_max(xs)` that returns a list whose element i is the largest of the "
    "first i+1 numbers of `xs`, e.g. [1, 3, 2, 5] gives [1, 3, 3, 5]. An empty list gives [].",
    INTS,
)
def running_max(xs):
    out = []
    for x in xs:
        out.append(x if not out or x > out[-1] else out[-1])
    return out


@FAMILY_RUNNING.add(
    "medium",
    "Write a function `running_product(xs)` that returns a list whose element i is the product of "
    "the first i+1 numbers of `xs`, e.g. [1, 2, 3, 4] gives [1, 2, 6, 24]. An empty list gives "
    "[].",
    [[1, 2, 3, 4], [], [5], [2, 0, 3], [-1, -1, -1], [3, 3, 3], [10, -2], [1, 1, 2, 2]],
)
def running_product(xs):
    out, product = [], 1
    for x in xs:
        product *= x
        out.append(product)
    return out


@FAMILY_RUNNING.add(
    "easy",
    "Write a function `differences(xs)` that returns the list of differences between consecutive "
    "numbers of `xs` (each element minus the one before it). Lists with fewer than two elements "
    "give [].",
    INTS,
)
def differences(xs):
    return [xs[i] - xs[i - 1] for i in range(1, len(xs))]


@FAMILY_RUNNING.add(
    "medium",
    "Write a function `running_min(xs)` that returns a list whose element i is the smallest of "
    "the first i+1 numbers of `xs`, e.g. [3, 1, 2] gives [3, 1, 1]. An empty list gives [].",
    INTS,
)
def running_min(xs):
    out = []
    for x in xs:
        out.append(x if not out or x < out[-1] else out[-1])
    return out


@FAMILY_RUNNING.add(
    "medium",
    "Write a function `count_new_records(xs)` that returns how many numbers in the list `xs` are "
    "strictly greater than every number before them. The first element always counts; an empty "
    "list gives 0.",
    INTS,
)
def count_new_records(xs):
    count, best = 0, None
    for x in xs:
        if best is None or x > best:
            count, best = count + 1, x
    return count
