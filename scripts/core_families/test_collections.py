"""Test families (kinds of task no train family has): characters, ranges, sets, pairs, search."""

from __future__ import annotations

from core_families import LISTS, NONEMPTY, CoreFamily

CHARS = ["a", "z", "A", "m", "Q", "e", "b", "K", "u"]
FAMILY_CHARS = CoreFamily("character-codes", "test")
FAMILY_CHARS.line(
    "char_code",
    "c",
    "ord(c)",
    "the character code of the one-character string `c` (`ord(c)`)",
    CHARS,
)
FAMILY_CHARS.line(
    "code_to_char",
    "n",
    "chr(n)",
    "the character whose code is `n` (`chr(n)`)",
    [97, 65, 122, 48, 90, 100, 33, 120, 77],
)
FAMILY_CHARS.line(
    "next_letter",
    "c",
    "chr(ord(c) + 1)",
    "the character whose code is one more than that of the character `c`",
    ["a", "y", "A", "m", "Q", "e", "k", "B", "t"],
)
FAMILY_CHARS.line(
    "is_vowel",
    "c",
    "c.lower() in 'aeiou'",
    "True if the one-letter string `c` is a vowel (a, e, i, o, u in either case), else False",
    [*CHARS, "U"],
)
FAMILY_CHARS.line(
    "alphabet_position",
    "c",
    "ord(c.lower()) - ord('a') + 1",
    "the position of the letter `c` in the alphabet, in either case: 1 for a, 2 for b, ..., 26 for z",
    CHARS,
)
FAMILY_CHARS.line(
    "is_capital",
    "c",
    "c.isupper()",
    "True if the one-character string `c` is an upper case letter, else False",
    CHARS,
)

FAMILY_RANGES = CoreFamily("ranges-and-sequences", "test")
SIZES = [5, 0, 1, 3, 10, 7, 2, 4, 6]
FAMILY_RANGES.line(
    "one_to_n",
    "n",
    "list(range(1, n + 1))",
    "the list of the integers from 1 to `n` inclusive",
    SIZES,
)
FAMILY_RANGES.line(
    "zero_to_n", "n", "list(range(n))", "the list of the integers from 0 to `n - 1`", SIZES
)
FAMILY_RANGES.line(
    "countdown", "n", "list(range(n, 0, -1))", "the list of the integers from `n` down to 1", SIZES
)
FAMILY_RANGES.line(
    "evens_below",
    "n",
    "list(range(0, n, 2))",
    "the list of the even integers from 0 up to but not including `n`",
    SIZES,
)
FAMILY_RANGES.line(
    "squares_up_to",
    "n",
    "[i * i for i in range(1, n + 1)]",
    "the list of the squares of 1, 2, ..., `n`",
    SIZES,
)
FAMILY_RANGES.line(
    "sum_one_to_n",
    "n",
    "sum(range(1, n + 1))",
    "the sum of the integers from 1 to `n` inclusive",
    SIZES,
)
FAMILY_RANGES.line(
    "repeat_value",
    "x, n",
    "[x] * n",
    "a list with the integer `x` repeated `n` times",
    [(3, 2), (0, 0), (7, 1), (-1, 4), (5, 3), (2, 5), (9, 2), (4, 0), (1, 3)],
)

FAMILY_SETS = CoreFamily("sets-and-uniques", "test")
FAMILY_SETS.line(
    "count_distinct",
    "xs",
    "len(set(xs))",
    "how many different integers the list `xs` contains",
    LISTS,
)
FAMILY_SETS.line(
    "unique_sorted",
    "xs",
    "sorted(set(xs))",
    "a sorted list of the different integers of the list `xs` (each once)",
    LISTS,
)
FAMILY_SETS.line(
    "has_repeats",
    "xs",
    "len(set(xs)) < len(xs)",
    "True if some integer appears more than once in the list `xs`, else False",
    LISTS,
)
PAIRS_OF_LISTS = [
    ([1, 2, 3], [2, 3, 4]),
    ([], [1]),
    ([5, 5], [5]),
    ([1, 2], [3, 4]),
    ([0, -1], [-1, 0]),
    ([7, 8, 9], [9]),
    ([4, 1, 4], []),
    ([3, 6, 9], [9, 6, 2]),
    ([10, 20], [20, 30, 10]),
]
FAMILY_SETS.line(
    "common_sorted",
    "a, b",
    "sorted(set(a) & set(b))",
    "a sorted list of the integers that are in both lists `a` and `b` (each once)",
    PAIRS_OF_LISTS,
)
FAMILY_SETS.line(
    "all_sorted",
    "a, b",
    "sorted(set(a) | set(b))",
    "a sorted list of the integers that are in the list `a` or the list `b` (each once)",
    PAIRS_OF_LISTS,
)
FAMILY_SETS.line(
    "only_in_first",
    "a, b",
    "sorted(set(a) - set(b))",
    "a sorted list of the integers of the list `a` that are not in the list `b` (each once)",
    PAIRS_OF_LISTS,
)

FAMILY_PAIRS = CoreFamily("pairs-as-lists", "test")
TWO = [(3, 4), (0, 5), (-2, 7), (10, 10), (6, -3), (1, 1), (8, 2), (-4, -1), (5, 9)]
FAMILY_PAIRS.line(
    "make_pair", "a, b", "[a, b]", "the list `[a, b]` of the two integers `a` and `b`", TWO
)
FAMILY_PAIRS.line(
    "swapped_pair", "a, b", "[b, a]", "the list `[b, a]` (the two integers in swapped order)", TWO
)
FAMILY_PAIRS.line(
    "pair_total",
    "pair",
    "pair[0] + pair[1]",
    "the sum of the two integers of the two-element list `pair`",
    [[3, 4], [0, 5], [-2, 7], [10, 10], [6, -3], [1, 1], [8, 2], [-4, -1], [5, 9]],
)
FAMILY_PAIRS.line(
    "wrap_in_list",
    "x",
    "[x]",
    "a list that holds only the integer `x`",
    [4, 0, -3, 7, 10, 1, 12, -6, 2],
)
FAMILY_PAIRS.line(
    "sorted_pair",
    "a, b",
    "[min(a, b), max(a, b)]",
    "the list of the integers `a` and `b` with the smaller one first",
    TWO,
)
FAMILY_PAIRS.line(
    "number_and_square",
    "x",
    "[x, x * x]",
    "the list `[x, x * x]` for the integer `x`",
    [4, 0, -3, 7, 10, 1, 12, -6, 2],
)

FAMILY_SEARCH = CoreFamily("finding-positions", "test")
FAMILY_SEARCH.line(
    "index_of",
    "xs, v",
    "xs.index(v)",
    "the index of the first occurrence of the integer `v` in the list `xs` (it is always there)",
    [
        ([5, 6, 7], 6),
        ([1], 1),
        ([4, 4, 2], 4),
        ([9, 8, 7, 6], 6),
        ([0, 1, 0], 1),
        ([3, 2, 1], 1),
        ([2, 4, 6, 8, 10], 8),
        ([7, 7], 7),
        ([1, 3, 5], 5),
    ],
)
FAMILY_SEARCH.line(
    "find_char",
    "s, c",
    "s.find(c)",
    "the index of the first occurrence of the character `c` in the string `s`, or -1 if it is not there (`s.find(c)`)",
    [
        ("hello", "l"),
        ("", "a"),
        ("abc", "z"),
        ("banana", "a"),
        ("xyz", "x"),
        ("aaa", "a"),
        ("hey", "y"),
        ("Python", "o"),
        ("moon", "n"),
    ],
)
FAMILY_SEARCH.line(
    "index_of_largest",
    "xs",
    "xs.index(max(xs))",
    "the index of the largest integer of the non-empty list `xs` (the first one if there are ties)",
    NONEMPTY,
)
FAMILY_SEARCH.line(
    "index_of_smallest",
    "xs",
    "xs.index(min(xs))",
    "the index of the smallest integer of the non-empty list `xs` (the first one if there are ties)",
    NONEMPTY,
)
FAMILY_SEARCH.line(
    "last_index",
    "xs",
    "len(xs) - 1",
    "the index of the last element of the non-empty list `xs`",
    NONEMPTY,
)
