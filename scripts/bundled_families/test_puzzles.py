"""Test families of small puzzles: bases, Roman numerals, coins, windows, naming styles, sequences."""

from __future__ import annotations

from bundled_families import Family

FAMILY_WAYS = Family("counting-problems", "test")


@FAMILY_WAYS.add(
    "medium",
    "Write a function `climb_stairs(n)` that returns in how many different ways a staircase of "
    "`n` steps can be climbed when each move goes up 1 or 2 steps. There is 1 way to climb 0 "
    "steps.",
    [3, 0, 1, 2, 4, 5, 10, 20],
)
def climb_stairs(n):
    a, b = 1, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@FAMILY_WAYS.add(
    "medium",
    "Write a function `grid_paths(rows, cols)` that returns how many paths lead from the top-left "
    "to the bottom-right cell of a grid with `rows` rows and `cols` columns (both at least 1) when "
    "each step moves one cell right or one cell down.",
    [(2, 2), (1, 5), (3, 3), (3, 7), (1, 1), (4, 2), (5, 5), (2, 6)],
)
def grid_paths(rows, cols):
    paths = [1] * cols
    for _ in range(rows - 1):
        for j in range(1, cols):
            paths[j] += paths[j - 1]
    return paths[-1]


@FAMILY_WAYS.add(
    "easy",
    "Write a function `tiles_needed(width, height, tile)` that returns how many square tiles of "
    "side `tile` are needed to cover a `width` by `height` floor, where tiles may be cut, so each "
    "side needs its length divided by `tile`, rounded up.",
    [(10, 10, 5), (11, 10, 5), (0, 4, 2), (1, 1, 3), (7, 3, 2), (12, 8, 4), (9, 9, 10), (20, 1, 3)],
)
def tiles_needed(width, height, tile):
    return -(-width // tile) * -(-height // tile)


FAMILY_ROMAN = Family("roman-numerals", "test")


@FAMILY_ROMAN.add(
    "medium",
    "Write a function `to_roman(n)` that returns the Roman numeral for the integer `n` between 1 "
    "and 3999, using the subtractive forms IV, IX, XL, XC, CD and CM, e.g. 1994 gives 'MCMXCIV'.",
    [3, 4, 1994, 9, 58, 3999, 40, 444, 1000, 14],
)
def to_roman(n):
    numerals = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ]
    out = ""
    for value, symbol in numerals:
        while n >= value:
            out += symbol
            n -= value
    return out


@FAMILY_ROMAN.add(
    "medium",
    "Write a function `from_roman(s)` that returns the integer value of the valid Roman numeral "
    "`s` (letters I, V, X, L, C, D, M; a smaller value before a larger one is subtracted), e.g. "
    "'MCMXCIV' gives 1994.",
    ["III", "IV", "MCMXCIV", "IX", "LVIII", "MMMCMXCIX", "XL", "CDXLIV", "M", "XIV"],
)
def from_roman(s):
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, c in enumerate(s):
        if i + 1 < len(s) and values[c] < values[s[i + 1]]:
            total -= values[c]
        else:
            total += values[c]
    return total


FAMILY_BASES = Family("binary-and-bases", "test")


@FAMILY_BASES.add(
    "easy",
    "Write a function `to_binary(n)` that returns the binary representation of the non-negative "
    "integer `n` as a string of 0s and 1s without leading zeros or a '0b' prefix; 0 gives '0'.",
    [5, 0, 1, 8, 255, 10, 2, 1023],
)
def to_binary(n):
    return bin(n)[2:]


@FAMILY_BASES.add(
    "easy",
    "Write a function `from_binary(s)` that returns the integer value of the non-empty string `s` "
    "of binary digits, e.g. '101' gives 5.",
    ["101", "0", "1", "1000", "11111111", "0011", "1010", "10000000000"],
)
def from_binary(s):
    return int(s, 2)


@FAMILY_BASES.add(
    "easy",
    "Write a function `count_one_bits(n)` that returns how many 1s appear in the binary "
    "representation of the non-negative integer `n`.",
    [5, 0, 1, 8, 255, 10, 7, 1023],
)
def count_one_bits(n):
    return bin(n).count("1")


@FAMILY_BASES.add(
    "easy",
    "Write a function `is_power_of_two(n)` that returns True if the integer `n` equals 2 raised to "
    "some non-negative whole power (1, 2, 4, 8, ...), and False otherwise, including for 0 and "
    "negative numbers.",
    [8, 6, 1, 0, 1024, -4, 3, 64, 12],
)
def is_power_of_two(n):
    return n > 0 and n & (n - 1) == 0


@FAMILY_BASES.add(
    "medium",
    "Write a function `to_base(n, base)` that returns the non-negative integer `n` written in base "
    "`base` (between 2 and 10) as a string of digits; 0 gives '0'.",
    [(10, 2), (0, 5), (255, 8), (7, 7), (100, 10), (9, 3), (64, 4), (1, 2)],
)
def to_base(n, base):
    if n == 0:
        return "0"
    digits = ""
    while n:
        digits = str(n % base) + digits
        n //= base
    return digits


FAMILY_COINS = Family("coins-and-change", "test")


@FAMILY_COINS.add(
    "medium",
    "Write a function `min_coins(amount)` that returns the smallest number of coins worth 25, 10, "
    "5 and 1 cents that add up to `amount` cents.",
    [41, 0, 3, 25, 99, 30, 7, 100],
)
def min_coins(amount):
    count = 0
    for coin in (25, 10, 5, 1):
        count += amount // coin
        amount %= coin
    return count


@FAMILY_COINS.add(
    "medium",
    "Write a function `make_change(amount)` that returns how many quarters (25), dimes (10), "
    "nickels (5) and pennies (1) make up `amount` cents using as few coins as possible, as a list "
    "[quarters, dimes, nickels, pennies].",
    [41, 0, 3, 25, 99, 30, 7, 65],
)
def make_change(amount):
    out = []
    for coin in (25, 10, 5, 1):
        out.append(amount // coin)
        amount %= coin
    return out


@FAMILY_COINS.add(
    "easy",
    "Write a function `coins_value(quarters, dimes, nickels, pennies)` that returns the total "
    "value in cents of the given numbers of quarters (25), dimes (10), nickels (5) and pennies "
    "(1).",
    [
        (1, 1, 1, 1),
        (0, 0, 0, 0),
        (4, 0, 0, 0),
        (0, 3, 0, 2),
        (2, 2, 2, 2),
        (0, 0, 7, 0),
        (10, 0, 0, 5),
        (3, 1, 0, 4),
    ],
)
def coins_value(quarters, dimes, nickels, pennies):
    return 25 * quarters + 10 * dimes + 5 * nickels + pennies


FAMILY_TEXT = Family("text-patterns", "test")


@FAMILY_TEXT.add(
    "medium",
    "Write a function `count_substring(s, sub)` that returns how many times the non-empty string "
    "`sub` occurs in `s`, counting overlapping occurrences, so 'aaa' contains 'aa' twice.",
    [
        ("aaa", "aa"),
        ("hello", "l"),
        ("", "a"),
        ("abcabc", "abc"),
        ("banana", "ana"),
        ("abc", "d"),
        ("aaaa", "a"),
        ("ab", "abc"),
    ],
)
def count_substring(s, sub):
    return sum(1 for i in range(len(s) - len(sub) + 1) if s[i : i + len(sub)] == sub)


@FAMILY_TEXT.add(
    "medium",
    "Write a function `common_prefix(words)` that returns the longest string that every string of "
    "the list `words` starts with; an empty list gives ''.",
    [
        ["flower", "flow", "flight"],
        [],
        ["dog", "racecar"],
        ["same", "same"],
        ["alone"],
        ["ab", "abc", "abcd"],
        ["", "x"],
        ["prefix", "pre", "prepare"],
    ],
)
def common_prefix(words):
    if not words:
        return ""
    prefix = words[0]
    for w in words[1:]:
        while not w.startswith(prefix):
            prefix = prefix[:-1]
    return prefix


@FAMILY_TEXT.add(
    "medium",
    "Write a function `is_rotation(a, b)` that returns True if the string `b` can be obtained by "
    "moving some characters from the front of `a` to its end (like 'waterbottle' and "
    "'erbottlewat'), and False otherwise. A string is a rotation of itself.",
    [
        ("waterbottle", "erbottlewat"),
        ("abc", "acb"),
        ("", ""),
        ("abc", "abc"),
        ("ab", "ba"),
        ("abc", "abcd"),
        ("aab", "aba"),
        ("hello", "lohel"),
    ],
)
def is_rotation(a, b):
    return len(a) == len(b) and b in a + a


@FAMILY_TEXT.add(
    "easy",
    "Write a function `censor(text, word)` that returns `text` with every occurrence of the "
    "non-empty string `word` replaced by as many '*' characters as `word` has.",
    [
        ("I love cats", "cats"),
        ("nothing here", "bad"),
        ("", "x"),
        ("aaa", "a"),
        ("bad bad word", "bad"),
        ("Hello", "hello"),
        ("darn it, darn", "darn"),
        ("abcabc", "bc"),
    ],
)
def censor(text, word):
    return text.replace(word, "*" * len(word))


@FAMILY_TEXT.add(
    "easy",
    "Write a function `mask_card(number)` that hides all but the last four characters of the "
    "card number string `number`, replacing each hidden character with '#'. Strings of four "
    "characters or fewer are returned unchanged.",
    [
        "4556364607935616",
        "1234",
        "",
        "64607935616",
        "12",
        "12345",
        "nananananananananananana",
        "abcdefgh",
    ],
)
def mask_card(number):
    return "#" * max(len(number) - 4, 0) + number[-4:]


FAMILY_PROPS = Family("number-properties", "test")


@FAMILY_PROPS.add(
    "easy",
    "Write a function `is_perfect_square(n)` that returns True if the integer `n` is the square of "
    "a whole number (0, 1, 4, 9, ...), and False otherwise, including for negative numbers.",
    [16, 15, 0, 1, -4, 25, 26, 10000],
)
def is_perfect_square(n):
    if n < 0:
        return False
    root = int(n**0.5)
    while root * root > n:
        root -= 1
    while (root + 1) * (root + 1) <= n:
        root += 1
    return root * root == n


@FAMILY_PROPS.add(
    "medium",
    "Write a function `collatz_steps(n)` that returns how many steps it takes the positive integer "
    "`n` to reach 1 when each step replaces an even number by half of it and an odd number by 3 "
    "times it plus 1. For n = 1 the answer is 0.",
    [6, 1, 2, 3, 7, 27, 16, 10],
)
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@FAMILY_PROPS.add(
    "medium",
    "Write a function `is_perfect_number(n)` that returns True if the positive integer `n` equals "
    "the sum of its divisors smaller than itself (like 6 = 1 + 2 + 3), and False otherwise.",
    [6, 8, 28, 1, 496, 12, 27, 8128],
)
def is_perfect_number(n):
    return n == sum(d for d in range(1, n) if n % d == 0)


@FAMILY_PROPS.add(
    "easy",
    "Write a function `round_to_multiple(n, k)` that rounds the non-negative integer `n` to the "
    "nearest multiple of the positive integer `k`; when `n` is exactly halfway, round up.",
    [(12, 5), (13, 5), (10, 5), (0, 3), (7, 10), (15, 10), (14, 10), (99, 4), (8, 3), (7, 3)],
)
def round_to_multiple(n, k):
    return (n + k // 2) // k * k


@FAMILY_PROPS.add(
    "easy",
    "Write a function `sum_multiples_3_or_5(n)` that returns the sum of all positive integers "
    "below `n` that are multiples of 3 or of 5 (each such number counted once), e.g. 10 gives "
    "3 + 5 + 6 + 9 = 23.",
    [10, 0, 1, 4, 16, 100, 6, 31],
)
def sum_multiples_3_or_5(n):
    return sum(i for i in range(1, n) if i % 3 == 0 or i % 5 == 0)


FAMILY_WINDOWS = Family("sliding-windows", "test")


@FAMILY_WINDOWS.add(
    "medium",
    "Write a function `max_window_sum(xs, k)` that returns the largest sum of `k` consecutive "
    "elements of the list `xs`, where 1 <= k <= len(xs).",
    [
        ([1, 2, 3, 4, 5], 2),
        ([5], 1),
        ([-1, -2, -3], 2),
        ([4, -1, 2, 1], 4),
        ([1, 9, 1, 9, 1], 3),
        ([3, 3, 3], 1),
        ([2, 1, 5, 1, 3, 2], 3),
        ([-5, 10, -5], 1),
    ],
)
def max_window_sum(xs, k):
    return max(sum(xs[i : i + k]) for i in range(len(xs) - k + 1))


@FAMILY_WINDOWS.add(
    "easy",
    "Write a function `count_increases(xs)` that returns how many elements of the list `xs` are "
    "larger than the element just before them.",
    [
        [1, 2, 3],
        [],
        [5],
        [3, 2, 1],
        [1, 3, 2, 4],
        [2, 2, 2],
        [199, 200, 208, 210, 200, 207],
        [0, -1, 0, -1],
    ],
)
def count_increases(xs):
    return sum(1 for i in range(1, len(xs)) if xs[i] > xs[i - 1])


@FAMILY_WINDOWS.add(
    "medium",
    "Write a function `peak_indexes(xs)` that returns the list of indexes i with 0 < i < "
    "len(xs) - 1 where `xs[i]` is strictly larger than both of its neighbours.",
    [[1, 3, 2, 4, 1], [], [1, 2, 3], [5, 1, 5], [2, 2, 2], [0, 1, 0, 1, 0], [1, 2], [3, 9, 9, 3]],
)
def peak_indexes(xs):
    return [i for i in range(1, len(xs) - 1) if xs[i - 1] < xs[i] > xs[i + 1]]


@FAMILY_WINDOWS.add(
    "medium",
    "Write a function `window_maxes(xs, k)` that returns, for every block of `k` consecutive "
    "elements of the list `xs` from left to right, the largest element of the block, e.g. "
    "[1, 3, 2, 5, 4] with k = 2 gives [3, 3, 5, 5]. If `xs` has fewer than `k` elements return [].",
    [
        ([1, 3, 2, 5, 4], 2),
        ([], 1),
        ([4, 2], 3),
        ([7, 7, 7], 1),
        ([1, 2, 3, 4], 4),
        ([9, 1, 1, 1, 9], 3),
        ([-3, -1, -2], 2),
        ([5, 4, 3, 2, 1], 2),
    ],
)
def window_maxes(xs, k):
    return [max(xs[i : i + k]) for i in range(len(xs) - k + 1)]


FAMILY_NAMING = Family("identifier-naming-styles", "test")


@FAMILY_NAMING.add(
    "easy",
    "Write a function `snake_to_camel(name)` that converts a snake_case identifier such as "
    "'get_user_name' into camelCase, 'getUserName': the first word stays lower case and each "
    "later word starts with a capital letter.",
    ["get_user_name", "x", "", "hello_world", "a_b_c", "already", "max_value_2", "to_json"],
)
def snake_to_camel(name):
    words = name.split("_")
    return words[0] + "".join(w.capitalize() for w in words[1:])


@FAMILY_NAMING.add(
    "easy",
    "Write a function `camel_to_snake(name)` that converts a camelCase identifier such as "
    "'getUserName' into snake_case, 'get_user_name': each uppercase letter becomes an underscore "
    "followed by its lowercase form.",
    ["getUserName", "x", "", "helloWorld", "aBC", "already", "toJson", "maxValue"],
)
def camel_to_snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


@FAMILY_NAMING.add(
    "easy",
    "Write a function `is_identifier(name)` that returns True if `name` is a valid simple "
    "identifier: non-empty, made only of ASCII letters, digits and underscores, and not starting "
    "with a digit. Otherwise return False.",
    ["user_name", "2fast", "", "_hidden", "x", "has space", "camelCase9", "dash-ed", "A1_b2"],
)
def is_identifier(name):
    allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
    return name != "" and not name[0].isdigit() and all(c in allowed for c in name)


@FAMILY_NAMING.add(
    "easy",
    "Write a function `is_snake_case(name)` that returns True if `name` is non-empty, contains only "
    "lowercase letters and underscores, and neither starts nor ends with an underscore; otherwise "
    "return False.",
    [
        "get_user",
        "getUser",
        "",
        "_private",
        "x",
        "trailing_",
        "two__underscores",
        "with1digit",
        "snake",
    ],
)
def is_snake_case(name):
    if not name or name[0] == "_" or name[-1] == "_":
        return False
    return all(c == "_" or "a" <= c <= "z" for c in name)


FAMILY_SEQ = Family("sequence-puzzles", "test")


@FAMILY_SEQ.add(
    "medium",
    "Write a function `pascal_row(n)` that returns row `n` of Pascal's triangle as a list, where "
    "row 0 is [1], row 1 is [1, 1] and row 2 is [1, 2, 1].",
    [2, 0, 1, 4, 5, 3, 6, 10],
)
def pascal_row(n):
    row = [1]
    for _ in range(n):
        row = [1] + [row[i] + row[i + 1] for i in range(len(row) - 1)] + [1]
    return row


@FAMILY_SEQ.add(
    "easy",
    "Write a function `geometric_sequence(start, ratio, n)` that returns the list of the first "
    "`n` terms of the geometric sequence that begins with `start` and multiplies by `ratio` at "
    "each step, e.g. 3, 2, 4 gives [3, 6, 12, 24].",
    [(3, 2, 4), (5, 3, 0), (1, 10, 3), (7, 1, 3), (2, -1, 5), (1, 2, 8), (-4, 3, 2), (6, 0, 3)],
)
def geometric_sequence(start, ratio, n):
    out = []
    term = start
    for _ in range(n):
        out.append(term)
        term *= ratio
    return out


@FAMILY_SEQ.add(
    "easy",
    "Write a function `is_arithmetic(xs)` that returns True if the differences between consecutive "
    "elements of the list `xs` are all the same (like [3, 5, 7, 9]), and False otherwise. Lists "
    "with fewer than 3 elements give True.",
    [[3, 5, 7, 9], [1, 2, 4], [], [5], [10, 5, 0, -5], [1, 1, 1], [2, 4, 6, 9], [7, 3]],
)
def is_arithmetic(xs):
    return all(xs[i + 1] - xs[i] == xs[1] - xs[0] for i in range(len(xs) - 1))


FAMILY_SENTENCES = Family("sentences-and-snippets", "test")


@FAMILY_SENTENCES.add(
    "easy",
    "Write a function `first_sentence(text)` that returns the beginning of `text` up to and "
    "including the first '.', '!' or '?'. If `text` has none of these, return the whole text.",
    [
        "Hi. How are you?",
        "",
        "No ending",
        "Wow! Great.",
        "Really? Yes.",
        "a.b.c",
        "One sentence.",
        "?!",
    ],
)
def first_sentence(text):
    for i, c in enumerate(text):
        if c in ".!?":
            return text[: i + 1]
    return text


@FAMILY_SENTENCES.add(
    "easy",
    "Write a function `shorten(text, limit)` that returns `text` unchanged if it has at most "
    "`limit` characters; otherwise it returns the first `limit - 3` characters followed by '...', "
    "so the result has exactly `limit` characters. `limit` is at least 3.",
    [
        ("Hello world", 8),
        ("short", 10),
        ("", 3),
        ("exactly", 7),
        ("abcdef", 3),
        ("The quick brown fox", 12),
        ("abcd", 3),
        ("hi there", 5),
    ],
)
def shorten(text, limit):
    return text if len(text) <= limit else text[: limit - 3] + "..."


FAMILY_REARRANGE = Family("list-rearranging", "test")


@FAMILY_REARRANGE.add(
    "easy",
    "Write a function `duplicate_each(xs)` that returns a new list in which every element of `xs` "
    "appears twice in a row, e.g. [1, 2] gives [1, 1, 2, 2].",
    [[1, 2], [], [5], ["a", "b", "c"], [0, 0], [3, -3], [9, 8, 7, 6], [True, False]],
)
def duplicate_each(xs):
    out = []
    for x in xs:
        out += [x, x]
    return out


@FAMILY_REARRANGE.add(
    "easy",
    "Write a function `swap_pairs(xs)` that swaps the elements of the list `xs` two by two, "
    "returning [xs[1], xs[0], xs[3], xs[2], ...]; when the length is odd the last element stays "
    "in place.",
    [[1, 2, 3, 4], [], [5], [1, 2, 3], ["a", "b"], [9, 8, 7, 6, 5], [0, 1], [4, 4, 5, 5]],
)
def swap_pairs(xs):
    out = list(xs)
    for i in range(0, len(xs) - 1, 2):
        out[i], out[i + 1] = out[i + 1], out[i]
    return out


@FAMILY_REARRANGE.add(
    "easy",
    "Write a function `zeros_to_end(xs)` that returns a new list with all the 0s of `xs` moved to "
    "the end, keeping the other elements in their original order.",
    [[0, 1, 0, 3, 12], [], [0], [1, 2, 3], [0, 0, 1], [4, 0, 5, 0, 6], [0, -1, 0], [7, 0]],
)
def zeros_to_end(xs):
    return [x for x in xs if x != 0] + [x for x in xs if x == 0]
