"""Train families with a little structure: frequencies, runs, brackets, grids, dicts, ciphers."""

from __future__ import annotations

from bundled_families import Family

FAMILY_FREQ = Family("character-frequency", "train")


@FAMILY_FREQ.add(
    "medium",
    "Write a function `char_counts(s)` that returns a dictionary mapping each character of the "
    "string `s` to the number of times it occurs. An empty string gives {}.",
    ["hello", "", "aaa", "abcabc", "a b", "Mississippi", "xyz", "112"],
)
def char_counts(s):
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    return counts


@FAMILY_FREQ.add(
    "medium",
    "Write a function `most_common_char(s)` that returns the character that occurs most often in "
    "the non-empty string `s`. If several characters are tied, return the one that appears first "
    "in `s`.",
    ["hello", "aab", "abc", "Mississippi", "bbaa", "x", "abcbca", "zzzyy"],
)
def most_common_char(s):
    best = s[0]
    for c in s:
        if s.count(c) > s.count(best):
            best = c
    return best


@FAMILY_FREQ.add(
    "medium",
    "Write a function `first_unique_char(s)` that returns the first character of the string `s` "
    "that occurs exactly once in it, or '' if there is none.",
    ["leetcode", "aabb", "", "abcabd", "x", "swiss", "aabbc", "zz"],
)
def first_unique_char(s):
    for c in s:
        if s.count(c) == 1:
            return c
    return ""


@FAMILY_FREQ.add(
    "medium",
    "Write a function `is_anagram(a, b)` that returns True if the strings `a` and `b` contain "
    "exactly the same characters the same number of times (case-sensitive), and False otherwise.",
    [
        ("listen", "silent"),
        ("hello", "world"),
        ("", ""),
        ("aab", "abb"),
        ("abc", "cba"),
        ("Abc", "abc"),
        ("a", "aa"),
        ("evil", "vile"),
    ],
)
def is_anagram(a, b):
    return sorted(a) == sorted(b)


@FAMILY_FREQ.add(
    "easy",
    "Write a function `count_repeated_chars(s)` that returns how many different characters occur "
    "more than once in the string `s`.",
    ["hello", "", "abc", "aabbcc", "Mississippi", "x", "abca", "112233"],
)
def count_repeated_chars(s):
    return sum(1 for c in set(s) if s.count(c) > 1)


FAMILY_RUNS = Family("runs-and-run-length", "train")


@FAMILY_RUNS.add(
    "medium",
    "Write a function `run_length_encode(s)` that compresses the string `s` by replacing every run "
    "of a repeated character with the character followed by the run length, e.g. 'aaabcc' gives "
    "'a3b1c2'. An empty string gives ''.",
    ["aaabcc", "", "abc", "zzzz", "aabbaa", "x", "wwwwaaadexxxxxx", "1122"],
)
def run_length_encode(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(s[i] + str(j - i))
        i = j
    return "".join(out)


@FAMILY_RUNS.add(
    "medium",
    "Write a function `run_length_decode(s)` that expands a string of letter-and-count pairs such "
    "as 'a3b1c2' (each count is a single digit 1-9) back into 'aaabcc'. An empty string gives ''.",
    ["a3b1c2", "", "x1", "z9", "a1b1c1", "m2n3", "q5", "a2a2"],
)
def run_length_decode(s):
    return "".join(s[i] * int(s[i + 1]) for i in range(0, len(s), 2))


@FAMILY_RUNS.add(
    "medium",
    "Write a function `group_runs(xs)` that splits the list `xs` into runs of equal consecutive "
    "elements and returns the list of runs, e.g. [1, 1, 2, 3, 3, 3] gives [[1, 1], [2], [3, 3, "
    "3]]. An empty list gives [].",
    [
        [1, 1, 2, 3, 3, 3],
        [],
        [5],
        [1, 2, 3],
        [4, 4, 4],
        [1, 1, 2, 1, 1],
        ["a", "a", "b"],
        [0, 0, 0, 1],
    ],
)
def group_runs(xs):
    runs = []
    for x in xs:
        if runs and runs[-1][0] == x:
            runs[-1].append(x)
        else:
            runs.append([x])
    return runs


@FAMILY_RUNS.add(
    "medium",
    "Write a function `longest_run(xs)` that returns the length of the longest block of equal "
    "consecutive elements in the list `xs`, or 0 for an empty list.",
    [
        [1, 1, 2, 2, 2, 3],
        [],
        [5],
        [1, 2, 3],
        [4, 4, 4, 4],
        [1, 1, 2, 1, 1, 1],
        ["a", "a", "b"],
        [7, 8, 8],
    ],
)
def longest_run(xs):
    best = current = 0
    for i, x in enumerate(xs):
        current = current + 1 if i > 0 and xs[i - 1] == x else 1
        best = max(best, current)
    return best


@FAMILY_RUNS.add(
    "easy",
    "Write a function `remove_adjacent_duplicates(s)` that returns the string `s` where every "
    "run of the same character repeated next to itself is reduced to one character, e.g. "
    "'aabccc' gives 'abc'.",
    ["aabccc", "", "abc", "aaaa", "abba", "x", "Mississippi", "112233"],
)
def remove_adjacent_duplicates(s):
    out = ""
    for c in s:
        if not out or out[-1] != c:
            out += c
    return out


FAMILY_BRACKETS = Family("brackets-and-nesting", "train")


@FAMILY_BRACKETS.add(
    "medium",
    "Write a function `balanced_parens(s)` that returns True if the parentheses in the string `s`, "
    "which contains only '(' and ')', are balanced: every '(' is closed by a later ')' and no ')' "
    "comes before its '('. An empty string is balanced.",
    ["(())", "(()", "", ")(", "()()", "((()))", "())(", "("],
)
def balanced_parens(s):
    depth = 0
    for c in s:
        depth += 1 if c == "(" else -1
        if depth < 0:
            return False
    return depth == 0


@FAMILY_BRACKETS.add(
    "medium",
    "Write a function `balanced_brackets(s)` that returns True if the brackets '()', '[]' and '{}' "
    "in the string `s` are balanced and properly nested, and False otherwise. Other characters are "
    "ignored; an empty string is balanced.",
    ["([]{})", "([)]", "", "{[()]}", "((", "a(b)c", "}", "[x{y}(z)]"],
)
def balanced_brackets(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif c in pairs and (not stack or stack.pop() != pairs[c]):
            return False
    return not stack


@FAMILY_BRACKETS.add(
    "medium",
    "Write a function `max_depth(s)` that returns the maximum nesting depth of parentheses in the "
    "string `s`, whose parentheses are balanced; other characters are ignored. '(a(b))' has depth "
    "2 and a string without parentheses has depth 0.",
    ["(a(b))", "", "()", "abc", "((()))", "()(())", "(1)+((2))", "(()(()))"],
)
def max_depth(s):
    depth = best = 0
    for c in s:
        if c == "(":
            depth += 1
            best = max(best, depth)
        elif c == ")":
            depth -= 1
    return best


@FAMILY_BRACKETS.add(
    "easy",
    "Write a function `count_open_parens(s)` that returns how many '(' characters the string `s` "
    "has minus how many ')' characters it has.",
    ["(()", "", "())", "((", "()()", "a(b", "))", "(x)(y"],
)
def count_open_parens(s):
    return s.count("(") - s.count(")")


FAMILY_GRID = Family("grids-and-matrices", "train")

GRIDS = [
    [[1, 2], [3, 4]],
    [[5]],
    [[1, 2, 3], [4, 5, 6]],
    [[0, 0], [0, 0]],
    [[-1, 2], [3, -4], [5, 6]],
    [[9, 8, 7]],
    [[1], [2], [3]],
    [[2, 4, 6], [1, 3, 5], [7, 8, 9]],
]


@FAMILY_GRID.add(
    "easy",
    "Write a function `row_sums(grid)` that returns a list with the sum of each row of the grid "
    "`grid`, given as a list of lists of integers.",
    GRIDS,
)
def row_sums(grid):
    return [sum(row) for row in grid]


@FAMILY_GRID.add(
    "medium",
    "Write a function `column_sums(grid)` that returns a list with the sum of each column of the "
    "rectangular grid `grid` (a non-empty list of equal-length lists of integers).",
    GRIDS,
)
def column_sums(grid):
    return [sum(row[j] for row in grid) for j in range(len(grid[0]))]


@FAMILY_GRID.add(
    "medium",
    "Write a function `transpose(grid)` that returns the transpose of the rectangular grid `grid` "
    "(a non-empty list of equal-length lists): row i of the result is column i of `grid`.",
    GRIDS,
)
def transpose(grid):
    return [[row[j] for row in grid] for j in range(len(grid[0]))]


@FAMILY_GRID.add(
    "easy",
    "Write a function `flatten(grid)` that returns a single list with all the elements of the "
    "list of lists `grid`, row by row.",
    GRIDS,
)
def flatten(grid):
    return [x for row in grid for x in row]


@FAMILY_GRID.add(
    "medium",
    "Write a function `diagonal_sum(grid)` that returns the sum of the main diagonal grid[0][0], "
    "grid[1][1], ... of the square grid `grid` given as a list of lists of integers.",
    [
        [[1, 2], [3, 4]],
        [[5]],
        [[1, 2, 3], [4, 5, 6], [7, 8, 9]],
        [[0, 1], [1, 0]],
        [[-1, 0], [0, -1]],
        [[2, 9], [9, 2]],
        [[1, 1, 1], [1, 1, 1], [1, 1, 1]],
        [[10, 20], [30, 40]],
    ],
)
def diagonal_sum(grid):
    return sum(grid[i][i] for i in range(len(grid)))


@FAMILY_GRID.add(
    "easy",
    "Write a function `grid_max(grid)` that returns the largest number in the grid `grid`, a "
    "non-empty list of non-empty lists of integers.",
    GRIDS,
)
def grid_max(grid):
    return max(max(row) for row in grid)


@FAMILY_GRID.add(
    "medium",
    "Write a function `make_grid(rows, cols, value)` that returns a grid with `rows` rows and "
    "`cols` columns where every cell holds `value`, as a list of lists. Zero rows give [].",
    [(2, 3, 0), (0, 4, 1), (1, 1, 7), (3, 1, "x"), (2, 2, -1), (1, 4, 5), (4, 0, 9), (2, 1, "")],
)
def make_grid(rows, cols, value):
    return [[value] * cols for _ in range(rows)]


@FAMILY_GRID.add(
    "easy",
    "Write a function `count_in_grid(grid, value)` that returns how many cells of the grid "
    "`grid` (a list of lists) are equal to `value`.",
    [
        ([[1, 2], [2, 1]], 2),
        ([[]], 5),
        ([[0, 0], [0, 0]], 0),
        ([["x", "o"], ["o", "x"]], "x"),
        ([[1]], 2),
        ([[3, 3, 3]], 3),
        ([[1], [1], [0]], 1),
        ([[5, 6], [7, 8]], 8),
    ],
)
def count_in_grid(grid, value):
    return sum(row.count(value) for row in grid)


FAMILY_DICTS = Family("dictionary-basics", "train")

SCORES = [
    {"ann": 3, "bob": 5, "cy": 1},
    {},
    {"x": 10},
    {"a": 2, "b": 2},
    {"tom": -1, "sue": 0},
    {"p": 7, "q": 3, "r": 9, "s": 3},
    {"k": 0},
    {"m": 4, "n": 6},
]


@FAMILY_DICTS.add(
    "easy",
    "Write a function `sum_values(d)` that returns the sum of the values of the dictionary `d`, "
    "whose values are integers; an empty dictionary gives 0.",
    SCORES,
)
def sum_values(d):
    return sum(d.values())


@FAMILY_DICTS.add(
    "medium",
    "Write a function `key_of_max(d)` that returns the key with the largest value in the "
    "dictionary `d` of integers. If several keys share the largest value, return the one that "
    "comes first alphabetically; for an empty dictionary return None.",
    SCORES,
)
def key_of_max(d):
    if not d:
        return None
    best = max(d.values())
    return min(k for k in d if d[k] == best)


@FAMILY_DICTS.add(
    "easy",
    "Write a function `sorted_keys(d)` that returns the keys of the dictionary `d` as a list in "
    "alphabetical order.",
    [
        {"b": 1, "a": 2},
        {},
        {"x": 0},
        {"pear": 1, "apple": 2, "fig": 3},
        {"B": 1, "a": 1},
        {"z": 1, "y": 2, "x": 3},
        {"one": 1},
        {"ab": 1, "aa": 2},
    ],
)
def sorted_keys(d):
    return sorted(d)


@FAMILY_DICTS.add(
    "medium",
    "Write a function `invert(d)` that returns a new dictionary with the keys and values of `d` "
    "swapped. The values of `d` are distinct strings.",
    [
        {"a": "x", "b": "y"},
        {},
        {"one": "1"},
        {"cat": "dog", "dog": "cat"},
        {"k": "v"},
        {"red": "stop", "green": "go"},
        {"1": "a", "2": "b", "3": "c"},
        {"x": "x"},
    ],
)
def invert(d):
    return {v: k for k, v in d.items()}


@FAMILY_DICTS.add(
    "easy",
    "Write a function `keys_with_value(d, value)` that returns the keys of the dictionary `d` "
    "whose value equals `value`, as a list in alphabetical order.",
    [
        ({"a": 1, "b": 2, "c": 1}, 1),
        ({}, 0),
        ({"x": 5}, 6),
        ({"p": 0, "q": 0}, 0),
        ({"z": 3, "y": 3, "w": 1}, 3),
        ({"k": -1}, -1),
        ({"m": 2, "n": 3}, 3),
        ({"a": 1}, 2),
    ],
)
def keys_with_value(d, value):
    return sorted(k for k in d if d[k] == value)


@FAMILY_DICTS.add(
    "medium",
    "Write a function `word_length_map(words)` that returns a dictionary mapping each string of "
    "the list `words` to its length.",
    [
        ["a", "bb"],
        [],
        ["hello"],
        ["x", "x"],
        ["one", "three", "five"],
        [""],
        ["Python", "is"],
        ["ab", "cd"],
    ],
)
def word_length_map(words):
    return {w: len(w) for w in words}


@FAMILY_DICTS.add(
    "medium",
    "Write a function `group_by_first_letter(words)` that returns a dictionary mapping each first "
    "letter to the list of words of `words` that start with it, in their original order. The "
    "words are non-empty.",
    [
        ["apple", "avocado", "banana"],
        [],
        ["x"],
        ["cat", "car", "dog", "cow"],
        ["b", "a", "b"],
        ["Ann", "ann"],
        ["one", "two", "three"],
        ["zz", "z"],
    ],
)
def group_by_first_letter(words):
    groups = {}
    for w in words:
        groups.setdefault(w[0], []).append(w)
    return groups


FAMILY_SHIFT = Family("letter-shifting", "train")


@FAMILY_SHIFT.add(
    "medium",
    "Write a function `caesar(s, k)` that shifts every lowercase letter of the string `s` forward "
    "by `k` places in the alphabet, wrapping from 'z' back to 'a'; all other characters are left "
    "unchanged. `k` is between 0 and 25.",
    [
        ("abc", 1),
        ("xyz", 3),
        ("", 5),
        ("hello world", 13),
        ("a-b", 25),
        ("zzz", 1),
        ("Abc", 2),
        ("python", 0),
    ],
)
def caesar(s, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if "a" <= c <= "z" else c for c in s)


@FAMILY_SHIFT.add(
    "medium",
    "Write a function `next_letters(s)` that replaces every letter of the lowercase string `s` by "
    "the next letter of the alphabet ('z' becomes 'a'); spaces stay as they are.",
    ["abc", "", "xyz", "hello world", "z", "a b", "zoo", "cat"],
)
def next_letters(s):
    return "".join(" " if c == " " else chr((ord(c) - 96) % 26 + 97) for c in s)


@FAMILY_SHIFT.add(
    "easy",
    "Write a function `alphabet_positions(s)` that returns a list with the position in the "
    "alphabet (a = 1, ..., z = 26) of every character of the lowercase string `s`, which "
    "contains only letters.",
    ["abc", "", "z", "hello", "az", "cab", "python", "m"],
)
def alphabet_positions(s):
    return [ord(c) - 96 for c in s]


FAMILY_NESTED = Family("nested-lists", "train")


@FAMILY_NESTED.add(
    "easy",
    "Write a function `sum_of_sublists(lists)` that returns a list with the sum of each inner "
    "list of `lists`; an empty inner list sums to 0.",
    [
        [[1, 2], [3]],
        [],
        [[]],
        [[5, 5], [], [-1, 1]],
        [[10]],
        [[1, 2, 3], [4, 5, 6]],
        [[-3], [-4, 4]],
        [[0, 0], [7]],
    ],
)
def sum_of_sublists(lists):
    return [sum(x) for x in lists]


@FAMILY_NESTED.add(
    "easy",
    "Write a function `longest_sublist(lists)` that returns the longest inner list of `lists` "
    "(the first one if several are equally long), or [] if `lists` is empty.",
    [
        [[1, 2], [3]],
        [],
        [[]],
        [[5, 5], [], [-1, 1, 2]],
        [[10]],
        [[1], [2]],
        [[], [0, 0], [1, 1]],
        [[7, 8, 9], [1, 2, 3, 4]],
    ],
)
def longest_sublist(lists):
    best = []
    for x in lists:
        if len(x) > len(best):
            best = x
    return best


@FAMILY_NESTED.add(
    "easy",
    "Write a function `count_items(lists)` that returns the total number of elements in all the "
    "inner lists of `lists`.",
    [
        [[1, 2], [3]],
        [],
        [[]],
        [[5, 5], [], [-1, 1, 2]],
        [[10]],
        [[1], [2], [3]],
        [[], []],
        [["a", "b", "c"]],
    ],
)
def count_items(lists):
    return sum(len(x) for x in lists)


@FAMILY_NESTED.add(
    "medium",
    "Write a function `chunk(xs, size)` that splits the list `xs` into consecutive pieces of "
    "`size` elements (the last piece may be shorter) and returns the list of pieces, e.g. "
    "[1, 2, 3, 4, 5] with size 2 gives [[1, 2], [3, 4], [5]].",
    [
        ([1, 2, 3, 4, 5], 2),
        ([], 3),
        ([1, 2, 3], 1),
        ([1, 2, 3], 3),
        ([1, 2, 3], 5),
        (["a", "b", "c", "d"], 2),
        ([0, 0, 0, 0, 0, 0, 0], 3),
        ([9, 8], 1),
    ],
)
def chunk(xs, size):
    return [xs[i : i + size] for i in range(0, len(xs), size)]


FAMILY_PAIRCOUNT = Family("pairs-with-a-property", "train")


@FAMILY_PAIRCOUNT.add(
    "medium",
    "Write a function `count_pairs_with_sum(xs, target)` that returns how many pairs of positions "
    "i < j in the list `xs` have `xs[i] + xs[j] == target`.",
    [
        ([1, 2, 3, 4], 5),
        ([], 0),
        ([1, 1, 1], 2),
        ([5], 10),
        ([0, 0], 0),
        ([-1, 1, 2, -2], 0),
        ([3, 3, 3, 3], 6),
        ([1, 9, 5, 5], 10),
    ],
)
def count_pairs_with_sum(xs, target):
    count = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                count += 1
    return count


@FAMILY_PAIRCOUNT.add(
    "medium",
    "Write a function `two_sum(xs, target)` that returns the indexes [i, j] with i < j of the "
    "first pair (smallest i, then smallest j) of elements of `xs` that add up to `target`, or [] "
    "if there is none.",
    [
        ([2, 7, 11, 15], 9),
        ([1, 2], 7),
        ([], 1),
        ([3, 3], 6),
        ([1, 5, 3, 3], 6),
        ([0, -1, 1], 0),
        ([4, 4, 4], 8),
        ([10, 20, 30], 50),
    ],
)
def two_sum(xs, target):
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                return [i, j]
    return []


@FAMILY_PAIRCOUNT.add(
    "medium",
    "Write a function `count_equal_pairs(xs)` that returns how many pairs of positions i < j in the "
    "list `xs` hold equal values.",
    [[1, 2, 1, 2], [], [5], [3, 3, 3], [1, 2, 3], ["a", "a"], [0, 0, 0, 0], [7, 8, 7]],
)
def count_equal_pairs(xs):
    count = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            count += xs[i] == xs[j]
    return count
