"""Extra train families about lists and dictionaries: membership, filtered sums, clamping,
rearranging, minimum and maximum mixes, lengths, lists of booleans, dictionary lookups and
building, conditional mapping."""

from __future__ import annotations

from core_families import LISTS, LONG, NONEMPTY, WORD_LISTS, CoreFamily
from core_families.train_misc import DICTS
from core_families.train_misc import KEYED as TRAIN_KEYED

MEMBER_LISTS = [
    [3, 1, 4, 1, 5],
    [],
    [-2, 7, 0],
    [10],
    [2, 4, 6, 8],
    [5, -5, 5],
    [9, 8, 7, 6, 5, 4],
    [1, 1, 2, 3, 5, 8],
    [-7, -1, -3],
    [12, 15, 20, 3],
    [1, 5, 7, 10],
    [7, 10, 3],
    [2, 5],
    [10, 2, 1],
    [0, 3, 6],
]
FAMILY_MEMBER = CoreFamily("list-membership", "train")
FAMILY_MEMBER.sweep(
    "contains_{kw}", "xs", "{k} in xs", "True if the list `xs` contains the integer {k}, else False",
    [1, 2, 3, 5, 7, 10], MEMBER_LISTS,
)  # fmt: skip
FAMILY_MEMBER.sweep(
    "lacks_{kw}", "xs", "{k} not in xs", "True if the integer {k} does not appear in the list `xs`, else False",
    [1, 5], MEMBER_LISTS,
)  # fmt: skip
FAMILY_MEMBER.line(
    "contains_either", "xs, a, b", "a in xs or b in xs",
    "True if the integer `a` or the integer `b` (or both) is in the list `xs`, else False",
    [([1, 2, 3], 2, 9), ([], 1, 2), ([4, 5], 6, 7), ([0], 1, 0), ([7, 8, 9], 10, 11), ([3, 3], 3, 4), ([-1, 1], 5, 6), ([2, 4], 4, 2), ([6, 1], 0, 2)],
)  # fmt: skip
FAMILY_MEMBER.line(
    "contains_both", "xs, a, b", "a in xs and b in xs",
    "True if both integers `a` and `b` are in the list `xs`, else False",
    [([1, 2, 3], 2, 3), ([], 1, 2), ([4, 5], 4, 7), ([0, 1], 1, 0), ([7, 8, 9], 9, 7), ([3, 3], 3, 4), ([-1, 1], -1, 1), ([2, 4], 5, 2), ([6, 1], 6, 2)],
)  # fmt: skip

FAMILY_FSUMS = CoreFamily("filtered-sums", "train")
for fn, expr, returns in [
    ("sum_of_positives", "sum(x for x in xs if x > 0)", "the sum of the integers of the list `xs` that are greater than 0"),
    ("sum_of_negatives", "sum(x for x in xs if x < 0)", "the sum of the integers of the list `xs` that are less than 0"),
    ("sum_of_evens", "sum(x for x in xs if x % 2 == 0)", "the sum of the even integers of the list `xs`"),
    ("sum_of_odds", "sum(x for x in xs if x % 2 == 1)", "the sum of the odd integers of the list `xs`"),
    ("sum_of_multiples_of_three", "sum(x for x in xs if x % 3 == 0)", "the sum of the integers of the list `xs` that are divisible by 3"),
]:  # fmt: skip
    FAMILY_FSUMS.line(fn, "xs", expr, returns, LISTS)
FAMILY_FSUMS.sweep(
    "sum_above_{kw}", "xs", "sum(x for x in xs if x > {k})",
    "the sum of the integers of the list `xs` that are greater than {k}", [3, 5, 8], LISTS,
)  # fmt: skip
FAMILY_FSUMS.sweep(
    "sum_below_{kw}", "xs", "sum(x for x in xs if x < {k})",
    "the sum of the integers of the list `xs` that are less than {k}", [4, 10], LISTS,
)  # fmt: skip

FAMILY_CLAMP = CoreFamily("list-clamping", "train")
FAMILY_CLAMP.sweep(
    "cap_each_at_{kw}", "xs", "[min(x, {k}) for x in xs]",
    "a new list where every integer of the list `xs` that is larger than {k} is replaced by {k}",
    [3, 5, 8], LISTS,
)  # fmt: skip
FAMILY_CLAMP.sweep(
    "raise_each_to_{kw}", "xs", "[max(x, {k}) for x in xs]",
    "a new list where every integer of the list `xs` that is smaller than {k} is replaced by {k}",
    [0, 2, 5], LISTS,
)  # fmt: skip
FAMILY_CLAMP.sweep(
    "distance_each_from_{kw}", "xs", "[abs(x - {k}) for x in xs]",
    "a new list with the absolute value of `x - {k}` for every integer `x` of the list `xs`",
    [1, 5, 10], LISTS,
)  # fmt: skip
FAMILY_CLAMP.line(
    "last_digit_each", "xs", "[x % 10 for x in xs]",
    "a new list with the last digit of every non-negative integer of the list `xs`",
    [[13, 27, 5], [], [100, 0], [9], [45, 46, 47, 48], [10, 21, 32], [7, 70, 700], [99, 1], [58]],
)  # fmt: skip

FAMILY_REARRANGE = CoreFamily("list-rearranging", "train")
for fn, expr, returns in [
    ("rotate_left", "xs[1:] + xs[:1]", "a new list: the list `xs` with its first element moved to the end (`xs[1:] + xs[:1]`)"),
    ("rotate_right", "xs[-1:] + xs[:-1]", "a new list: the list `xs` with its last element moved to the front (`xs[-1:] + xs[:-1]`)"),
    ("middle_items", "xs[1:-1]", "the list `xs` without its first and its last element (`xs[1:-1]`)"),
    ("first_half_of_list", "xs[:len(xs) // 2]", "a list of the first `len(xs) // 2` elements of the list `xs`"),
    ("second_half_of_list", "xs[len(xs) // 2:]", "a list of the elements of `xs` from index `len(xs) // 2` to the end"),
    ("drop_first_two_items", "xs[2:]", "the list `xs` without its first two elements (`xs[2:]`)"),
    ("drop_last_two_items", "xs[:-2]", "the list `xs` without its last two elements (`xs[:-2]`)"),
    ("odd_index_items", "xs[1::2]", "a new list with the elements of `xs` at indexes 1, 3, 5, ... (`xs[1::2]`)"),
    ("reverse_then_append_zero", "xs[::-1] + [0]", "the list `xs` reversed, with 0 added at the end"),
]:  # fmt: skip
    FAMILY_REARRANGE.line(fn, "xs", expr, returns, LISTS)

FAMILY_MINMAX = CoreFamily("min-max-mixes", "train")
for fn, expr, returns in [
    ("max_plus_min", "max(xs) + min(xs)", "the largest plus the smallest integer of the non-empty list `xs`"),
    ("max_times_two", "max(xs) * 2", "twice the largest integer of the non-empty list `xs`"),
    ("max_minus_first", "max(xs) - xs[0]", "the largest integer of the non-empty list `xs` minus its first element"),
    ("last_minus_min", "xs[-1] - min(xs)", "the last element of the non-empty list `xs` minus its smallest integer"),
    ("min_plus_one", "min(xs) + 1", "the smallest integer of the non-empty list `xs`, plus 1"),
]:  # fmt: skip
    FAMILY_MINMAX.line(fn, "xs", expr, returns, NONEMPTY)
for fn, expr, returns in [
    ("smallest_two", "sorted(xs)[:2]", "a list of the two smallest integers of the list `xs` (which has at least 3 elements), smallest first"),
    ("largest_two", "sorted(xs)[-2:]", "a list of the two largest integers of the list `xs` (which has at least 3 elements), in increasing order"),
    ("second_smallest", "sorted(xs)[1]", "the element at index 1 of the list `xs` sorted in increasing order (`sorted(xs)[1]`)"),
    ("second_largest", "sorted(xs)[-2]", "the element at index -2 of the list `xs` sorted in increasing order (`sorted(xs)[-2]`)"),
]:  # fmt: skip
    FAMILY_MINMAX.line(fn, "xs", expr, returns, LONG)

SIZED = [
    [3, 1, 4, 1, 5],
    [],
    [-2, 7, 0],
    [10],
    [2, 4, 6, 8],
    [5, 5],
    [9, 8, 7, 6, 5, 4],
    [0],
    [1, 2, 3],
    [7, 7, 7, 7],
    [4, 2],
    [8, 8, 1],
    [6],
    [1, 9],
    [0, 1, 2, 3],
]
FAMILY_SIZES = CoreFamily("list-size-checks", "train")
FAMILY_SIZES.sweep(
    "has_exactly_{kw}_items", "xs", "len(xs) == {k}", "True if the list `xs` has exactly {k} elements, else False",
    [1, 2, 3], SIZED,
)  # fmt: skip
for fn, expr, returns in [
    ("length_is_even", "len(xs) % 2 == 0", "True if the number of elements of the list `xs` is even, else False"),
    ("at_most_two_items", "len(xs) <= 2", "True if the list `xs` has 2 elements or fewer, else False"),
    ("length_times_ten", "len(xs) * 10", "ten times the number of elements of the list `xs`"),
    ("length_plus_first", "len(xs) + xs[0] if xs else 0", "the number of elements of the list `xs` plus its first element, or 0 if `xs` is empty"),
    ("sum_minus_length", "sum(xs) - len(xs)", "the sum of the list `xs` minus its number of elements"),
]:  # fmt: skip
    FAMILY_SIZES.line(fn, "xs", expr, returns, SIZED)

FLAGS = [
    [True, True],
    [],
    [False],
    [True, False, True],
    [False, False],
    [True],
    [False, True, False, False],
    [True, True, True],
    [False, False, True],
    [True, False],
]
FAMILY_BOOLS = CoreFamily("boolean-lists", "train")
for fn, expr, returns in [
    ("all_true", "all(flags)", "True if every boolean of the list `flags` is True (True for an empty list), else False"),
    ("any_true", "any(flags)", "True if at least one boolean of the list `flags` is True, else False"),
    ("none_true", "not any(flags)", "True if no boolean of the list `flags` is True (True for an empty list), else False"),
    ("count_true_flags", "flags.count(True)", "how many booleans of the list `flags` are True"),
    ("count_false_flags", "flags.count(False)", "how many booleans of the list `flags` are False"),
    ("flip_flags", "[not f for f in flags]", "a new list with every boolean of the list `flags` flipped (True becomes False, False becomes True)"),
    ("more_true_than_false", "flags.count(True) > flags.count(False)", "True if the list `flags` has more True values than False values, else False"),
    ("flags_to_words", "['yes' if f else 'no' for f in flags]", "a new list with 'yes' for every True and 'no' for every False of the list `flags`"),
]:  # fmt: skip
    FAMILY_BOOLS.line(fn, "flags", expr, returns, FLAGS)
FAMILY_BOOLS.line(
    "first_flag", "flags", "flags[0]", "the first boolean of the non-empty list `flags`",
    [f for f in FLAGS if f] + [[False, True]],
)  # fmt: skip
FAMILY_BOOLS.line(
    "last_flag", "flags", "flags[-1]", "the last boolean of the non-empty list `flags`",
    [f for f in FLAGS if f] + [[True, True, False]],
)  # fmt: skip

KEYED = [*TRAIN_KEYED, ({"w": 5, "v": 6}, "v")]
FAMILY_LOOKUP = CoreFamily("dict-lookups", "train")
for fn, expr, returns in [
    ("get_or_minus_one", "d.get(k, -1)", "the value of key `k` in the dictionary `d`, or -1 if `k` is not a key"),
    ("get_or_missing", "d.get(k, 'missing')", "the value of key `k` in the dictionary `d`, or the string 'missing' if `k` is not a key"),
    ("get_plus_ten", "d.get(k, 0) + 10", "the value of key `k` in the dictionary `d` (0 if `k` is not a key) plus 10"),
    ("lacks_key", "k not in d", "True if the string `k` is not a key of the dictionary `d`, else False"),
]:  # fmt: skip
    FAMILY_LOOKUP.line(fn, "d, k", expr, returns, KEYED)
for fn, expr, returns in [
    ("key_list", "list(d)", "a list of the keys of the dictionary `d`, in insertion order"),
    ("value_list", "list(d.values())", "a list of the values of the dictionary `d`, in insertion order"),
    ("keys_with_positive_values", "[k for k in d if d[k] > 0]", "a list of the keys of the dictionary `d` whose values are greater than 0, in insertion order"),
    ("double_values", "{k: v * 2 for k, v in d.items()}", "a new dictionary with the same keys as the dictionary `d` and every value doubled"),
    ("count_positive_values", "sum(1 for v in d.values() if v > 0)", "how many values of the dictionary `d` are greater than 0"),
]:  # fmt: skip
    FAMILY_LOOKUP.line(fn, "d", expr, returns, DICTS)
FAMILY_LOOKUP.line(
    "min_value", "d", "min(d.values())", "the smallest value of the non-empty dictionary `d`",
    [d for d in DICTS if d] + [{"r": 20, "s": 15}],
)  # fmt: skip
FAMILY_LOOKUP.line(
    "has_value", "d, v", "v in d.values()",
    "True if the integer `v` is one of the values of the dictionary `d`, else False",
    [({"a": 1, "b": 2}, 2), ({}, 0), ({"x": 10}, 5), ({"k": 0}, 0), ({"b": 7, "a": 3}, 3), ({"q": 2}, 9), ({"n": 4, "c": 1}, 4), ({"y": -1}, 1), ({"m": 3, "e": 12}, 12)],
)  # fmt: skip

FAMILY_DICTBUILD = CoreFamily("dict-building", "train")
FAMILY_DICTBUILD.line(
    "single_entry", "k, v", "{k: v}", "a dictionary with the single key `k` (a string) mapped to the integer `v`",
    [("a", 1), ("x", 0), ("key", -5), ("b", 10), ("zz", 3), ("n", 42), ("", 7), ("m", -1), ("q", 100)],
)  # fmt: skip
for fn, expr, returns in [
    ("word_length_dict", "{w: len(w) for w in words}", "a dictionary mapping every string of the list `words` to its length"),
    ("zero_counts", "{w: 0 for w in words}", "a dictionary mapping every string of the list `words` to 0"),
    ("first_letter_dict", "{w: w[0] for w in words}", "a dictionary mapping every (non-empty) string of the list `words` to its first character"),
    ("upper_dict", "{w: w.upper() for w in words}", "a dictionary mapping every string of the list `words` to the same string in upper case"),
    ("last_letter_dict", "{w: w[-1] for w in words}", "a dictionary mapping every (non-empty) string of the list `words` to its last character"),
    ("position_dict", "{w: i for i, w in enumerate(words)}", "a dictionary mapping every string of the list `words` to its index in the list (the strings are all different)"),
]:  # fmt: skip
    FAMILY_DICTBUILD.line(fn, "words", expr, returns, WORD_LISTS)
FAMILY_DICTBUILD.line(
    "with_entry", "d, k, v", "{**d, k: v}",
    "a new dictionary: a copy of the dictionary `d` in which the key `k` is set to the integer `v`",
    [({"a": 1}, "b", 2), ({}, "x", 0), ({"x": 10}, "x", 5), ({"k": 0, "m": 1}, "z", 3), ({"b": 7}, "a", 7), ({"q": 2}, "q", 9), ({}, "n", -4), ({"y": -1}, "w", 1), ({"m": 3, "e": 12}, "e", 0)],
)  # fmt: skip
FAMILY_DICTBUILD.line(
    "without_key", "d, k", "{x: d[x] for x in d if x != k}",
    "a new dictionary: a copy of the dictionary `d` without the key `k` (unchanged if `k` is not a key)",
    KEYED,
)  # fmt: skip
FAMILY_DICTBUILD.line(
    "pair_up", "keys, values", "dict(zip(keys, values))",
    "a dictionary mapping `keys[i]` to `values[i]` for every i, for two lists of the same length",
    [(["a", "b"], [1, 2]), ([], []), (["x"], [0]), (["k", "m", "z"], [5, 6, 7]), (["q"], [-1]), (["one", "two"], [1, 2]), (["p", "r"], [9, 9]), (["s"], [3]), (["u", "v", "w"], [0, 1, 0])],
)  # fmt: skip

FAMILY_CONDMAP = CoreFamily("conditional-mapping", "train")
for fn, expr, returns in [
    ("even_odd_words", "['even' if x % 2 == 0 else 'odd' for x in xs]", "a new list with 'even' for every even integer of the list `xs` and 'odd' for every odd one"),
    ("plus_minus_signs", "['+' if x >= 0 else '-' for x in xs]", "a new list with '+' for every integer of the list `xs` that is 0 or more and '-' for every negative one"),
    ("double_the_evens", "[x * 2 if x % 2 == 0 else x for x in xs]", "a new list where every even integer of the list `xs` is doubled and every odd one is unchanged"),
    ("zero_the_odds", "[0 if x % 2 == 1 else x for x in xs]", "a new list where every odd integer of the list `xs` is replaced by 0"),
    ("ones_for_positives", "[1 if x > 0 else 0 for x in xs]", "a new list with 1 for every integer of the list `xs` that is greater than 0 and 0 for every other one"),
    ("big_small_each", "['big' if x > 5 else 'small' for x in xs]", "a new list with 'big' for every integer of the list `xs` greater than 5 and 'small' for every other one"),
    ("halve_the_evens", "[x // 2 if x % 2 == 0 else x for x in xs]", "a new list where every even integer of the list `xs` is halved and every odd one is unchanged"),
    ("odds_plus_one", "[x + 1 if x % 2 == 1 else x for x in xs]", "a new list where 1 is added to every odd integer of the list `xs` and every even one is unchanged"),
    ("is_big_each", "[x > 5 for x in xs]", "a new list of booleans, True where the integer of the list `xs` is greater than 5"),
]:  # fmt: skip
    FAMILY_CONDMAP.line(fn, "xs", expr, returns, LISTS)
