"""Train families about whole lists: uniqueness, slicing, predicates, indexes, pairs, sorted lists."""

# ruff: noqa: B905, RUF005  (reference solutions stay plain: zip without strict=, list +)
from __future__ import annotations

from bundled_families import Family

FAMILY_UNIQUE = Family("duplicates-and-uniques", "train")

WITH_REPEATS = [
    [1, 2, 2, 3, 1],
    [],
    [4, 5, 6],
    [7, 7, 7],
    [3, 1, 3, 2, 1, 4],
    [0],
    [-1, 1, -1, 1],
    [9, 8, 9, 7, 8, 6],
]


@FAMILY_UNIQUE.add(
    "easy",
    "Write a function `remove_duplicates(xs)` that returns a new list with the elements of `xs` "
    "where only the first occurrence of each value is kept, in the original order.",
    WITH_REPEATS,
)
def remove_duplicates(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


@FAMILY_UNIQUE.add(
    "easy",
    "Write a function `count_distinct(xs)` that returns how many different values the list `xs` "
    "contains.",
    WITH_REPEATS,
)
def count_distinct(xs):
    return len(set(xs))


@FAMILY_UNIQUE.add(
    "easy",
    "Write a function `has_duplicates(xs)` that returns True if some value appears more than once "
    "in the list `xs`, and False otherwise.",
    WITH_REPEATS,
)
def has_duplicates(xs):
    return len(set(xs)) != len(xs)


@FAMILY_UNIQUE.add(
    "easy",
    "Write a function `sorted_unique(xs)` that returns the distinct values of the list of "
    "integers `xs` in increasing order.",
    WITH_REPEATS,
)
def sorted_unique(xs):
    return sorted(set(xs))


@FAMILY_UNIQUE.add(
    "medium",
    "Write a function `appear_once(xs)` that returns, in their original order, the elements of "
    "the list `xs` that occur exactly once in it.",
    WITH_REPEATS,
)
def appear_once(xs):
    return [x for x in xs if xs.count(x) == 1]


@FAMILY_UNIQUE.add(
    "medium",
    "Write a function `first_repeated(xs)` that returns the first element of the list `xs` whose "
    "value has already appeared earlier in the list, or None if all values are distinct. For "
    "[3, 1, 3, 1] the answer is 3.",
    WITH_REPEATS,
)
def first_repeated(xs):
    seen = set()
    for x in xs:
        if x in seen:
            return x
        seen.add(x)
    return None


@FAMILY_UNIQUE.add(
    "medium",
    "Write a function `unique_words(s)` that returns the distinct words of the sentence `s` "
    "(words separated by single spaces), lower-cased, in the order of their first appearance.",
    [
        "The cat and the hat",
        "",
        "a A a",
        "one two three",
        "Go go GO stop",
        "x",
        "b a b c a",
        "Hello hello world",
    ],
)
def unique_words(s):
    out = []
    for w in s.lower().split():
        if w not in out:
            out.append(w)
    return out


FAMILY_SLICING = Family("list-slicing", "train")

ITEMS = [
    [1, 2, 3, 4, 5],
    [],
    [7],
    [10, 20],
    ["a", "b", "c"],
    [1, 2, 3, 4, 5, 6],
    [0, -1, -2],
    [9, 8, 7, 6],
]


@FAMILY_SLICING.add(
    "easy",
    "Write a function `first_n(xs, n)` that returns a list of the first `n` elements of `xs`, or "
    "all of `xs` if it has fewer than `n` elements.",
    [
        ([1, 2, 3, 4], 2),
        ([], 3),
        ([1, 2], 5),
        ([5, 6, 7], 0),
        (["a", "b"], 1),
        ([9, 8, 7], 3),
        ([0], 1),
        ([4, 3, 2, 1], 3),
    ],
)
def first_n(xs, n):
    return xs[:n]


@FAMILY_SLICING.add(
    "easy",
    "Write a function `every_other(xs)` that returns the elements of the list `xs` at indexes 0, "
    "2, 4, ...",
    ITEMS,
)
def every_other(xs):
    return xs[::2]


@FAMILY_SLICING.add(
    "easy",
    "Write a function `without_ends(xs)` that returns the list `xs` without its first and last "
    "elements. Lists with fewer than 3 elements give [].",
    ITEMS,
)
def without_ends(xs):
    return xs[1:-1]


@FAMILY_SLICING.add(
    "medium",
    "Write a function `rotate_left(xs, k)` that returns the list `xs` rotated `k` positions to the "
    "left, so [1, 2, 3, 4] with k = 1 gives [2, 3, 4, 1]. `k` may be larger than the length; an "
    "empty list stays empty.",
    [
        ([1, 2, 3, 4], 1),
        ([], 3),
        ([1, 2, 3], 0),
        ([1, 2, 3], 3),
        ([1, 2, 3], 4),
        (["a", "b"], 1),
        ([5, 6, 7, 8, 9], 2),
        ([1], 10),
    ],
)
def rotate_left(xs, k):
    if not xs:
        return []
    k %= len(xs)
    return xs[k:] + xs[:k]


@FAMILY_SLICING.add(
    "medium",
    "Write a function `rotate_right(xs, k)` that returns the list `xs` rotated `k` positions to "
    "the right, so [1, 2, 3, 4] with k = 1 gives [4, 1, 2, 3]. `k` may be larger than the length; "
    "an empty list stays empty.",
    [
        ([1, 2, 3, 4], 1),
        ([], 3),
        ([1, 2, 3], 0),
        ([1, 2, 3], 3),
        ([1, 2, 3], 4),
        (["a", "b"], 1),
        ([5, 6, 7, 8, 9], 2),
        ([1], 10),
    ],
)
def rotate_right(xs, k):
    if not xs:
        return []
    k %= len(xs)
    return xs[len(xs) - k :] + xs[: len(xs) - k]


@FAMILY_SLICING.add(
    "easy",
    "Write a function `halves(xs)` that splits the list `xs` into two lists and returns them as "
    "[first_half, second_half]; when the length is odd, the second half gets the extra element.",
    ITEMS,
)
def halves(xs):
    mid = len(xs) // 2
    return [xs[:mid], xs[mid:]]


@FAMILY_SLICING.add(
    "easy",
    "Write a function `reverse_list(xs)` that returns a new list with the elements of `xs` in "
    "reverse order.",
    ITEMS,
)
def reverse_list(xs):
    return xs[::-1]


@FAMILY_SLICING.add(
    "easy",
    "Write a function `last_element(xs)` that returns the last element of the list `xs`, or None "
    "if the list is empty.",
    ITEMS,
)
def last_element(xs):
    return xs[-1] if xs else None


FAMILY_LIST_PRED = Family("list-predicates", "train")


@FAMILY_LIST_PRED.add(
    "easy",
    "Write a function `all_positive(xs)` that returns True if every number in the list `xs` is "
    "greater than 0, and False otherwise. An empty list gives True.",
    [[1, 2, 3], [1, -2, 3], [], [0], [5], [-1], [3, 3, 0], [10, 20, 30]],
)
def all_positive(xs):
    return all(x > 0 for x in xs)


@FAMILY_LIST_PRED.add(
    "easy",
    "Write a function `any_negative(xs)` that returns True if at least one number in the list "
    "`xs` is less than 0, and False otherwise.",
    [[1, -2, 3], [1, 2, 3], [], [0], [-5], [0, 0, -1], [3, 3, 0], [-1, -2]],
)
def any_negative(xs):
    return any(x < 0 for x in xs)


@FAMILY_LIST_PRED.add(
    "easy",
    "Write a function `all_equal(xs)` that returns True if all elements of the list `xs` are "
    "equal to each other, and False otherwise. An empty list gives True.",
    [[2, 2, 2], [1, 2, 1], [], [5], ["a", "a"], ["a", "b"], [0, 0, 0, 1], [-3, -3]],
)
def all_equal(xs):
    return all(x == xs[0] for x in xs)


@FAMILY_LIST_PRED.add(
    "easy",
    "Write a function `is_sorted(xs)` that returns True if the list `xs` is in non-decreasing "
    "order (equal neighbours are allowed), and False otherwise.",
    [[1, 2, 3], [3, 1, 2], [], [5], [1, 1, 2], [2, 1], [-5, 0, 5, 5], [1, 2, 3, 2]],
)
def is_sorted(xs):
    return all(xs[i] <= xs[i + 1] for i in range(len(xs) - 1))


@FAMILY_LIST_PRED.add(
    "easy",
    "Write a function `is_strictly_increasing(xs)` that returns True if every element of the list "
    "`xs` is greater than the one before it, and False otherwise. Lists with fewer than two "
    "elements give True.",
    [[1, 2, 3], [1, 1, 2], [], [5], [3, 2, 1], [-5, 0, 5], [1, 3, 2], [10, 20]],
)
def is_strictly_increasing(xs):
    return all(xs[i] < xs[i + 1] for i in range(len(xs) - 1))


@FAMILY_LIST_PRED.add(
    "easy",
    "Write a function `contains(xs, value)` that returns True if `value` is an element of the "
    "list `xs`, and False otherwise.",
    [
        ([1, 2, 3], 2),
        ([1, 2, 3], 4),
        ([], 1),
        (["a", "b"], "b"),
        (["a", "b"], "B"),
        ([0], 0),
        ([-1, -2], 1),
        ([5, 6, 7], 7),
    ],
)
def contains(xs, value):
    return value in xs


@FAMILY_LIST_PRED.add(
    "medium",
    "Write a function `is_symmetric(xs)` that returns True if the list `xs` reads the same from "
    "both ends (like [1, 2, 1]), and False otherwise. An empty list gives True.",
    [[1, 2, 1], [1, 2, 3], [], [7], [1, 2, 2, 1], [1, 2], ["a", "b", "a"], [3, 4, 3, 4]],
)
def is_symmetric(xs):
    return xs == xs[::-1]


FAMILY_INDEX = Family("index-finding", "train")


@FAMILY_INDEX.add(
    "easy",
    "Write a function `find_index(xs, value)` that returns the index of the first occurrence of "
    "`value` in the list `xs`, or -1 if it does not occur.",
    [
        ([5, 3, 7, 3], 3),
        ([1, 2], 9),
        ([], 1),
        (["a", "b"], "a"),
        ([0, 0], 0),
        ([4, 5, 6], 6),
        ([-1, -2], -2),
        ([8], 8),
    ],
)
def find_index(xs, value):
    return xs.index(value) if value in xs else -1


@FAMILY_INDEX.add(
    "easy",
    "Write a function `last_index(xs, value)` that returns the index of the last occurrence of "
    "`value` in the list `xs`, or -1 if it does not occur.",
    [
        ([5, 3, 7, 3], 3),
        ([1, 2], 9),
        ([], 1),
        (["a", "b", "a"], "a"),
        ([0, 0], 0),
        ([4, 5, 6], 4),
        ([-1, -2], -2),
        ([8], 8),
    ],
)
def last_index(xs, value):
    for i in range(len(xs) - 1, -1, -1):
        if xs[i] == value:
            return i
    return -1


@FAMILY_INDEX.add(
    "easy",
    "Write a function `all_indexes(xs, value)` that returns the list of every index at which "
    "`value` occurs in the list `xs`, in increasing order.",
    [
        ([5, 3, 7, 3], 3),
        ([1, 2], 9),
        ([], 1),
        (["a", "b", "a"], "a"),
        ([0, 0, 0], 0),
        ([4, 5, 6], 6),
        ([1, 2, 1, 2], 2),
        ([8], 8),
    ],
)
def all_indexes(xs, value):
    return [i for i, x in enumerate(xs) if x == value]


@FAMILY_INDEX.add(
    "easy",
    "Write a function `first_negative_index(xs)` that returns the index of the first negative "
    "number in the list `xs`, or -1 if there is none.",
    [[3, -1, -2], [1, 2, 3], [], [-5], [0, 0, -7, 1], [4, 4, 4, -4], [0], [9, -9]],
)
def first_negative_index(xs):
    for i, x in enumerate(xs):
        if x < 0:
            return i
    return -1


@FAMILY_INDEX.add(
    "easy",
    "Write a function `char_position(s, ch)` that returns the index of the first occurrence of "
    "the character `ch` in the string `s`, or -1 if it does not occur.",
    [
        ("hello", "l"),
        ("hello", "z"),
        ("", "a"),
        ("abc", "a"),
        ("banana", "n"),
        ("Hello", "h"),
        ("x y", " "),
        ("aaa", "a"),
    ],
)
def char_position(s, ch):
    return s.find(ch)


FAMILY_PAIRS = Family("two-lists-elementwise", "train")


@FAMILY_PAIRS.add(
    "easy",
    "Write a function `add_lists(a, b)` that returns a list whose element i is `a[i] + b[i]`, for "
    "two lists of numbers of the same length.",
    [
        ([1, 2, 3], [4, 5, 6]),
        ([], []),
        ([0], [0]),
        ([-1, 1], [1, -1]),
        ([10], [5]),
        ([2, 2, 2], [3, 3, 3]),
        ([7, 8], [0, 1]),
        ([100, 200], [-50, -50]),
    ],
)
def add_lists(a, b):
    return [x + y for x, y in zip(a, b)]


@FAMILY_PAIRS.add(
    "easy",
    "Write a function `dot_product(a, b)` that returns the sum of `a[i] * b[i]` over all indexes "
    "of two lists of numbers of the same length; two empty lists give 0.",
    [
        ([1, 2, 3], [4, 5, 6]),
        ([], []),
        ([0], [0]),
        ([-1, 1], [1, -1]),
        ([10], [5]),
        ([2, 2, 2], [3, 3, 3]),
        ([7, 8], [0, 1]),
        ([100, 200], [-50, -50]),
    ],
)
def dot_product(a, b):
    return sum(x * y for x, y in zip(a, b))


@FAMILY_PAIRS.add(
    "easy",
    "Write a function `pairwise_max(a, b)` that returns a list whose element i is the larger of "
    "`a[i]` and `b[i]`, for two lists of numbers of the same length.",
    [
        ([1, 5, 3], [4, 2, 6]),
        ([], []),
        ([0], [0]),
        ([-1, 1], [1, -1]),
        ([10], [5]),
        ([2, 2, 2], [3, 1, 3]),
        ([7, 8], [0, 9]),
        ([-4, -6], [-5, -5]),
    ],
)
def pairwise_max(a, b):
    return [max(x, y) for x, y in zip(a, b)]


@FAMILY_PAIRS.add(
    "medium",
    "Write a function `interleave(a, b)` that returns a list taking elements alternately from `a` "
    "and `b`, starting with `a`: [a[0], b[0], a[1], b[1], ...]. When one list runs out, the rest "
    "of the other list is appended.",
    [
        ([1, 2, 3], [4, 5, 6]),
        ([], []),
        ([1], []),
        ([1, 2, 3], ["a"]),
        ([], [7, 8]),
        (["x", "y"], ["p", "q", "r", "s"]),
        ([0], [0]),
        ([1, 3], [2, 4]),
    ],
)
def interleave(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return out


@FAMILY_PAIRS.add(
    "easy",
    "Write a function `count_same_positions(a, b)` that returns how many indexes i have "
    "`a[i] == b[i]`, for two lists of the same length.",
    [
        ([1, 2, 3], [1, 5, 3]),
        ([], []),
        ([0], [1]),
        (["a", "b"], ["a", "b"]),
        ([1, 1, 1], [1, 1, 1]),
        ([4, 5, 6], [6, 5, 4]),
        ([7, 8], [8, 7]),
        ([0, 0, 1], [0, 1, 1]),
    ],
)
def count_same_positions(a, b):
    return sum(1 for x, y in zip(a, b) if x == y)


@FAMILY_PAIRS.add(
    "medium",
    "Write a function `hamming_distance(a, b)` that returns the number of positions at which the "
    "two equal-length strings `a` and `b` have different characters.",
    [
        ("karolin", "kathrin"),
        ("", ""),
        ("abc", "abc"),
        ("abc", "xyz"),
        ("1011101", "1001001"),
        ("a", "A"),
        ("hello", "hallo"),
        ("ab", "ba"),
    ],
)
def hamming_distance(a, b):
    return sum(1 for x, y in zip(a, b) if x != y)


FAMILY_AGG = Family("list-aggregation", "train")


@FAMILY_AGG.add(
    "easy",
    "Write a function `product_of_list(xs)` that returns the product of all numbers in the list "
    "`xs`; the product of an empty list is 1.",
    [[1, 2, 3, 4], [], [5], [2, 0, 3], [-1, -1, -1], [3, 3], [10, -2], [7, 1, 1]],
)
def product_of_list(xs):
    product = 1
    for x in xs:
        product *= x
    return product


@FAMILY_AGG.add(
    "easy",
    "Write a function `average_floor(xs)` that returns the average of the integers in the list "
    "`xs` rounded down to a whole number (use floor division), or 0 for an empty list.",
    [[1, 2, 3, 4], [], [5], [2, 3], [-1, -2], [10, 20, 31], [0, 0, 0], [7, 8, 9, 10]],
)
def average_floor(xs):
    return sum(xs) // len(xs) if xs else 0


@FAMILY_AGG.add(
    "easy",
    "Write a function `total_length(words)` that returns the total number of characters of all "
    "the strings in the list `words`.",
    [
        ["ab", "cde"],
        [],
        [""],
        ["hello", "world"],
        ["x"],
        ["a", "b", "c"],
        ["Python", ""],
        ["  ", "!"],
    ],
)
def total_length(words):
    return sum(len(w) for w in words)


@FAMILY_AGG.add(
    "easy",
    "Write a function `sum_list(xs)` that returns the sum of the numbers in the list `xs`, or 0 "
    "for an empty list.",
    [[1, 2, 3], [], [5], [-1, 1], [10, 20, 30], [-5, -5], [0], [100, -1, 1]],
)
def sum_list(xs):
    return sum(xs)


@FAMILY_AGG.add(
    "easy",
    "Write a function `concat_all(words)` that returns all the strings of the list `words` glued "
    "together in order, with nothing between them.",
    [
        ["ab", "cd"],
        [],
        [""],
        ["hello", " ", "world"],
        ["x"],
        ["a", "b", "c"],
        ["Py", "thon"],
        ["1", "2", "3"],
    ],
)
def concat_all(words):
    return "".join(words)


@FAMILY_AGG.add(
    "medium",
    "Write a function `mode(xs)` that returns the value that occurs most often in the non-empty "
    "list `xs`. If several values are equally frequent, return the smallest of them.",
    [
        [1, 2, 2, 3],
        [5],
        [4, 4, 1, 1],
        [3, 3, 3, 2, 2],
        [7, 8, 9],
        [-1, -1, 0],
        [2, 1, 2, 1, 3],
        [10, 10],
    ],
)
def mode(xs):
    return min(xs, key=lambda x: (-xs.count(x), x))


FAMILY_SORTED = Family("sorted-list-operations", "train")


@FAMILY_SORTED.add(
    "medium",
    "Write a function `merge_sorted(a, b)` that merges two lists of integers, each already sorted "
    "in increasing order, into one sorted list (keeping duplicates).",
    [
        ([1, 3, 5], [2, 4, 6]),
        ([], []),
        ([1, 2], []),
        ([], [3]),
        ([1, 1], [1]),
        ([-5, 0, 10], [-6, 11]),
        ([2], [1]),
        ([1, 4, 9], [2, 3, 10, 12]),
    ],
)
def merge_sorted(a, b):
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


@FAMILY_SORTED.add(
    "medium",
    "Write a function `insert_sorted(xs, value)` that returns a new list with `value` inserted "
    "into the increasingly sorted list `xs` so that the result is still sorted.",
    [
        ([1, 3, 5], 4),
        ([], 7),
        ([1, 2, 3], 0),
        ([1, 2, 3], 9),
        ([2, 2], 2),
        ([-3, 5], 1),
        ([10], 5),
        ([1, 4, 6, 8], 6),
    ],
)
def insert_sorted(xs, value):
    i = 0
    while i < len(xs) and xs[i] < value:
        i += 1
    return xs[:i] + [value] + xs[i:]


@FAMILY_SORTED.add(
    "easy",
    "Write a function `sort_descending(xs)` that returns a new list with the numbers of `xs` "
    "sorted from largest to smallest.",
    [[3, 1, 2], [], [5], [1, 2, 3], [-1, 5, 0], [4, 4, 1], [10, -10, 3, 7], [2, 1]],
)
def sort_descending(xs):
    return sorted(xs, reverse=True)


@FAMILY_SORTED.add(
    "easy",
    "Write a function `sort_by_length(words)` that returns the strings of `words` sorted by "
    "length, shortest first; words of equal length keep their original order.",
    [
        ["ccc", "a", "bb"],
        [],
        ["x"],
        ["hello", "hi", "hey"],
        ["ab", "cd", "e"],
        ["same", "size", "four"],
        ["long word", "", "mid"],
        ["b", "a"],
    ],
)
def sort_by_length(words):
    return sorted(words, key=len)


@FAMILY_SORTED.add(
    "medium",
    "Write a function `common_elements(a, b)` that returns the values that appear in both lists "
    "of integers `a` and `b`, without repeats, in increasing order.",
    [
        ([1, 2, 3, 4], [3, 4, 5]),
        ([], [1]),
        ([1, 2], [3, 4]),
        ([1, 1, 2], [1, 1]),
        ([5, -1, 3], [3, 5, 7]),
        ([9], [9]),
        ([4, 3, 2, 1], [1, 2, 3, 4]),
        ([0, 2, 4], [1, 2, 3, 4]),
    ],
)
def common_elements(a, b):
    return sorted(set(a) & set(b))


@FAMILY_SORTED.add(
    "medium",
    "Write a function `k_smallest(xs, k)` that returns a list of the `k` smallest numbers of `xs` "
    "in increasing order (all of them, sorted, if `xs` has fewer than `k`).",
    [
        ([5, 1, 4, 2, 3], 2),
        ([], 3),
        ([7, 7, 1], 2),
        ([3, 2, 1], 0),
        ([10, -1, 4], 5),
        ([8], 1),
        ([2, 9, 2, 9], 3),
        ([6, 5, 4, 3], 4),
    ],
)
def k_smallest(xs, k):
    return sorted(xs)[:k]
