"""Extra train families about strings: stripping, properties, slices, wrapping, pairs of
strings, counting characters, replacing, mapping/filtering/counting words, two-word answers."""

from __future__ import annotations

from core_families import STRINGS, WORD_LISTS, WORDS_TEXT, CoreFamily

FAMILY_STRIP = CoreFamily("stripping-characters", "train")
for fn, ch, name in [
    ("strip_stars", "*", "'*'"),
    ("strip_dots", ".", "'.'"),
    ("strip_dashes", "-", "'-'"),
    ("strip_hashes", "#", "'#'"),
    ("strip_underscores", "_", "'_'"),
    ("strip_bangs", "!", "'!'"),
]:  # fmt: skip
    FAMILY_STRIP.line(
        fn, "s", f"s.strip({ch!r})",
        f"the string `s` without the {name} characters at its start and end (`s.strip({ch!r})`)",
        [f"{ch}hi{ch}", "", "a b", f"{ch * 3}x", f"y{ch * 2}", ch * 2, f"{ch}two{ch}words{ch}", "none", f"{ch} lead", "A"],
    )  # fmt: skip
SPACED = ["  hi  ", "", "a b", " x", "y ", "   ", " two words ", "none", "  lead", "end   "]
FAMILY_STRIP.line(
    "strip_left_spaces", "s", "s.lstrip()",
    "the string `s` without the spaces at its start (spaces at the end stay)", SPACED,
)  # fmt: skip
FAMILY_STRIP.line(
    "strip_right_spaces", "s", "s.rstrip()",
    "the string `s` without the spaces at its end (spaces at the start stay)", SPACED,
)  # fmt: skip
FAMILY_STRIP.line(
    "strip_leading_zeros", "s", "s.lstrip('0')",
    "the string `s` without the '0' characters at its start (`s.lstrip('0')`)",
    ["007", "100", "0", "", "42", "000120", "0a0", "9", "0050"],
)  # fmt: skip

PROPS = [*STRINGS, "ABC", "Mix3", "2 go", "WOW 2", "abc1", "Zz", "Noon"]
FAMILY_PROPS = CoreFamily("string-properties", "train")
for fn, expr, returns in [
    ("is_all_letters", "s.isalpha()", "True if the string `s` is non-empty and all its characters are letters (`s.isalpha()`), else False"),
    ("starts_with_capital", "s[:1].isupper()", "True if the first character of the string `s` is an upper case letter, else False (False for an empty string)"),
    ("has_uppercase", "any(c.isupper() for c in s)", "True if some character of the string `s` is an upper case letter, else False"),
    ("is_longer_than_four", "len(s) > 4", "True if the string `s` has more than 4 characters, else False"),
]:  # fmt: skip
    FAMILY_PROPS.line(fn, "s", expr, returns, PROPS)
FAMILY_PROPS.line(
    "is_all_upper", "s", "s.isupper()",
    "True if the string `s` has letters and all of them are upper case (`s.isupper()`), else False",
    ["ABC", "abc", "", "HELLO WORLD", "Hello", "X", "x", "OK 2", "Data 42", "NO!", "mIxEd", "Q"],
)  # fmt: skip
FAMILY_PROPS.line(
    "ends_with_digit", "s", "s[-1:].isdigit()",
    "True if the last character of the string `s` is a digit, else False (False for an empty string)",
    ["abc1", "hello", "", "Data 42", "7", "R2D2", "x", "2 go", "room 101", "v3.0", "end"],
)  # fmt: skip
FAMILY_PROPS.line(
    "is_blank", "s", "s.strip() == ''", "True if the string `s` is empty or has only spaces, else False",
    ["", " ", "   ", "a", " b ", "hello", "  x", "      ", "two words", "  "],
)  # fmt: skip
FAMILY_PROPS.line(
    "has_no_spaces", "s", "' ' not in s", "True if the string `s` contains no space character, else False",
    ["hello", "", "a b", "Python", "Go now!", "tick tock", "A", " lead", "trail ", "one_two", "x y z"],
)  # fmt: skip
FAMILY_PROPS.line(
    "same_first_and_last", "s", "s[0] == s[-1]",
    "True if the first and the last character of the non-empty string `s` are the same, else False",
    [*WORDS_TEXT, "aba", "xx", "level", "Abba"],
)  # fmt: skip

FAMILY_SLICES = CoreFamily("string-slices", "train")
for fn, expr, returns in [
    ("drop_first_two_chars", "s[2:]", "the string `s` without its first two characters (`s[2:]`)"),
    ("drop_last_two_chars", "s[:-2]", "the string `s` without its last two characters (`s[:-2]`)"),
    ("every_second_char", "s[::2]", "the characters of the string `s` at indexes 0, 2, 4, ... (`s[::2]`)"),
    ("without_first_and_last", "s[1:-1]", "the string `s` without its first and its last character (`s[1:-1]`)"),
    ("first_half_of_string", "s[:len(s) // 2]", "the first `len(s) // 2` characters of the string `s`"),
    ("second_half_of_string", "s[len(s) // 2:]", "the string `s` from index `len(s) // 2` to the end"),
    ("chars_one_to_three", "s[1:4]", "the characters of the string `s` at indexes 1, 2 and 3 (`s[1:4]`)"),
    ("first_three_reversed", "s[:3][::-1]", "the first 3 characters of the string `s` (all of `s` if it is shorter), in reverse order"),
]:  # fmt: skip
    FAMILY_SLICES.line(fn, "s", expr, returns, STRINGS)
FAMILY_SLICES.line(
    "second_char", "s", "s[1]",
    "the second character (index 1) of the string `s`, which has at least 2 characters",
    [s for s in STRINGS if len(s) >= 2],
)  # fmt: skip
FAMILY_SLICES.line(
    "first_n_chars", "s, n", "s[:n]", "the first `n` characters of the string `s` (`s[:n]`)",
    [("hello", 2), ("abc", 0), ("Python", 4), ("hi", 5), ("banana", 3), ("x", 1), ("racecar", 6), ("Go now", 2), ("", 3)],
)  # fmt: skip

FAMILY_WRAP = CoreFamily("string-wrapping", "train")
for fn, expr, returns in [
    ("in_parentheses", "'(' + s + ')'", "the string `s` with '(' before it and ')' after it"),
    ("in_double_quotes", "'\"' + s + '\"'", "the string `s` with a double quote character '\"' before and after it"),
    ("as_angle_tag", "'<' + s + '>'", "the string `s` between '<' and '>'"),
    ("in_bold_tags", "'<b>' + s + '</b>'", "the string `s` with '<b>' before it and '</b>' after it"),
    ("with_colon", "s + ':'", "the string `s` followed by ':'"),
    ("in_curly_braces", "'{' + s + '}'", "the string `s` with '{' before it and '}' after it"),
    ("with_arrow", "'-> ' + s", "the string '-> ' followed by the string `s`"),
    ("between_dashes", "'-' + s + '-'", "the string `s` with a '-' before it and a '-' after it"),
    ("double_wrapped", "'((' + s + '))'", "the string `s` with '((' before it and '))' after it"),
    ("with_period", "s + '.'", "the string `s` with a period '.' added at the end"),
]:  # fmt: skip
    FAMILY_WRAP.line(fn, "s", expr, returns, STRINGS)

PAIRS_OF_STRINGS = [
    ("ab", "cd"),
    ("", "x"),
    ("Hello", "World"),
    ("a", "a"),
    ("cat", ""),
    ("Go", "go"),
    ("xyz", "abcd"),
    ("Sun", "day"),
    ("ok", "OK"),
    ("long", "no"),
    ("tree", "top"),
]
FAMILY_SPAIRS = CoreFamily("string-pairs", "train")
for fn, expr, returns in [
    ("join_with_dash", "a + '-' + b", "the string `a`, then '-', then the string `b`"),
    ("join_with_underscore", "a + '_' + b", "the string `a` followed by '_' and the string `b`"),
    ("a_and_b", "a + ' and ' + b", "the string `a`, then ' and ', then the string `b`"),
    ("longer_string", "a if len(a) >= len(b) else b", "the longer of the strings `a` and `b` (`a` if they have the same length)"),
    ("shorter_length", "min(len(a), len(b))", "the length of the shorter of the strings `a` and `b`"),
    ("length_difference", "abs(len(a) - len(b))", "how many more characters the longer of the strings `a` and `b` has than the shorter"),
    ("same_first_char", "a[:1] == b[:1]", "True if the strings `a` and `b` start with the same character (or are both empty), else False"),
    ("b_in_middle_of_a", "a + b + a", "the string `a`, then the string `b`, then `a` again"),
    ("join_with_comma_space", "a + ', ' + b", "the string `a`, then a comma and a space (', '), then the string `b`"),
    ("a_twice_then_b", "a * 2 + b", "the string `a` repeated twice, followed by the string `b`"),
]:  # fmt: skip
    FAMILY_SPAIRS.line(fn, "a, b", expr, returns, PAIRS_OF_STRINGS)

PUNCT = ["a,b,c", "", "hi.", "no-one-else", "...", "x, y. z-w!", "wow!!", "1.5,2", "--", "plain", "a.b-c,d!", "?!?", "why? how?", "ok?"]  # fmt: skip
FAMILY_CHARCOUNT = CoreFamily("character-counting", "train")
FAMILY_CHARCOUNT.sweep(
    "count_{kw}", "s", "s.count({k})", "how many times the character {k} appears in the string `s`",
    [("commas", ","), ("dots", "."), ("dashes", "-"), ("exclamation_marks", "!"), ("question_marks", "?")], PUNCT,
)  # fmt: skip
MIXED = [*STRINGS, "ABC def", "a1B2", "Hi There", "   "]
for fn, expr, returns in [
    ("count_lowercase", "sum(1 for c in s if c.islower())", "how many characters of the string `s` are lower case letters"),
    ("count_letters", "sum(1 for c in s if c.isalpha())", "how many characters of the string `s` are letters"),
    ("count_non_spaces", "len(s) - s.count(' ')", "how many characters of the string `s` are not spaces"),
    ("count_non_letters", "sum(1 for c in s if not c.isalpha())", "how many characters of the string `s` are not letters"),
]:  # fmt: skip
    FAMILY_CHARCOUNT.line(fn, "s", expr, returns, MIXED)
FAMILY_CHARCOUNT.line(
    "count_char", "s, c", "s.count(c)", "how many times the character `c` appears in the string `s`",
    [("hello", "l"), ("", "a"), ("abc", "z"), ("banana", "a"), ("xyz", "x"), ("aaa", "a"), ("Mississippi", "s"), ("Python", "o"), ("moon", "o")],
)  # fmt: skip

REPLACING = ["a-b-c", "", "hi.", "no-one", "x.y.z", "plain", "a b", "tea", "2.5-3", "ban-ana", "apple"]  # fmt: skip
FAMILY_REPLACE = CoreFamily("string-replacing", "train")
for fn, old, new in [
    ("dashes_to_spaces", "-", " "),
    ("dots_to_commas", ".", ","),
    ("a_to_o", "a", "o"),
    ("e_to_three", "e", "3"),
    ("dashes_to_dots", "-", "."),
    ("spaces_to_plus", " ", "+"),
]:  # fmt: skip
    FAMILY_REPLACE.line(
        fn, "s", f"s.replace({old!r}, {new!r})",
        f"the string `s` with every {old!r} replaced by {new!r}", [*REPLACING, "see me", "a e -. "],
    )  # fmt: skip
for fn, ch in [("remove_dashes", "-"), ("remove_dots", "."), ("remove_letter_e", "e")]:
    FAMILY_REPLACE.line(
        fn, "s", f"s.replace({ch!r}, '')", f"the string `s` with every {ch!r} removed",
        [*REPLACING, "eel", "e.e-e"],
    )  # fmt: skip
FAMILY_REPLACE.line(
    "replace_char", "s, old, new", "s.replace(old, new)",
    "the string `s` with every occurrence of the character `old` replaced by the character `new`",
    [("hello", "l", "L"), ("", "a", "b"), ("abc", "z", "y"), ("banana", "a", "o"), ("x-y", "-", "+"), ("aaa", "a", "b"), ("moon", "o", "e"), ("cat", "c", "b"), ("1,2", ",", ".")],
)  # fmt: skip

FAMILY_WORDMAP = CoreFamily("word-mapping", "train")
for fn, expr, returns in [
    ("lower_words", "[w.lower() for w in words]", "a new list with every string of the list `words` in lower case"),
    ("last_letters", "[w[-1] for w in words]", "a list with the last character of every (non-empty) string of the list `words`"),
    ("add_s_to_each", "[w + 's' for w in words]", "a new list with 's' added at the end of every string of the list `words`"),
    ("reverse_each_word", "[w[::-1] for w in words]", "a new list with every string of the list `words` reversed"),
    ("first_two_letters", "[w[:2] for w in words]", "a list with the first two characters of every string of the list `words`"),
    ("capitalize_words", "[w.capitalize() for w in words]", "a new list with every string of the list `words` capitalized (`w.capitalize()`)"),
    ("words_with_bang", "[w + '!' for w in words]", "a new list with '!' added at the end of every string of the list `words`"),
    ("double_each_word", "[w * 2 for w in words]", "a new list with every string of the list `words` repeated twice"),
    ("dash_each_word", "['-' + w for w in words]", "a new list with '-' put in front of every string of the list `words`"),
    ("upper_first_letters", "[w[0].upper() for w in words]", "a list with the first character of every (non-empty) string of the list `words`, in upper case"),
]:  # fmt: skip
    FAMILY_WORDMAP.line(fn, "words", expr, returns, WORD_LISTS)

WL = [
    ["apple", "ant", "bee"],
    [],
    ["cats", "dog", "eels"],
    ["Apple", "axe"],
    ["sun", "sea", "sky", "a"],
    ["Red", "green", "BLUE"],
    ["one", "two", "three", "four"],
    ["", "x", ""],
    ["yes", "no"],
    ["antelope", "zebra", "emu", "Ares"],
    ["bus", "tree", "Sam", "seeds"],
    ["", "bees", "Ace"],
]
FAMILY_WORDFILTER = CoreFamily("word-filtering", "train")
FAMILY_WORDFILTER.sweep(
    "words_starting_with_{kw}", "words", "[w for w in words if w.startswith({k})]",
    "a new list with the strings of the list `words` that start with {k}, in order", ["a", "s"], WL,
)  # fmt: skip
for fn, expr, returns in [
    ("short_words", "[w for w in words if len(w) <= 3]", "a new list with the strings of the list `words` that have at most 3 characters"),
    ("words_with_letter_e", "[w for w in words if 'e' in w]", "a new list with the strings of the list `words` that contain the letter 'e'"),
    ("nonempty_words", "[w for w in words if w]", "a new list with the strings of the list `words` that are not empty"),
    ("capitalized_words", "[w for w in words if w[:1].isupper()]", "a new list with the strings of the list `words` whose first character is an upper case letter"),
    ("words_ending_with_s", "[w for w in words if w.endswith('s')]", "a new list with the strings of the list `words` that end with 's'"),
    ("lowercase_only_words", "[w for w in words if w.islower()]", "a new list with the strings of the list `words` for which `w.islower()` is True"),
]:  # fmt: skip
    FAMILY_WORDFILTER.line(fn, "words", expr, returns, WL)
FAMILY_WORDFILTER.line(
    "words_except", "words, x", "[w for w in words if w != x]",
    "a new list with the strings of the list `words` that are not equal to the string `x`",
    [(["a", "b", "a"], "a"), ([], "x"), (["hi"], "hi"), (["one", "two"], "three"), (["x", "y", "x", "z"], "x"), (["cat", "dog"], "dog"), (["up", "down", "up"], "down"), (["", "a"], ""), (["q"], "r")],
)  # fmt: skip

FAMILY_WORDCOUNT = CoreFamily("word-counting", "train")
for fn, expr, returns in [
    ("count_short_words", "sum(1 for w in words if len(w) <= 3)", "how many strings of the list `words` have at most 3 characters"),
    ("count_capitalized", "sum(1 for w in words if w[:1].isupper())", "how many strings of the list `words` start with an upper case letter"),
    ("count_empty_strings", "words.count('')", "how many strings of the list `words` are empty ('')"),
    ("count_words_with_e", "sum(1 for w in words if 'e' in w)", "how many strings of the list `words` contain the letter 'e'"),
    ("count_starting_with_a", "sum(1 for w in words if w.startswith('a'))", "how many strings of the list `words` start with 'a'"),
    ("count_ending_with_s", "sum(1 for w in words if w.endswith('s'))", "how many strings of the list `words` end with 's'"),
]:  # fmt: skip
    FAMILY_WORDCOUNT.line(fn, "words", expr, returns, [*WL, ["", "", "e"]])
NONEMPTY_WL = [w for w in WL if w and all(w)] + [["kiwi"], ["to", "be", "or"]]
FAMILY_WORDCOUNT.line(
    "longest_word_length", "words", "max(len(w) for w in words)",
    "the length of the longest string of the non-empty list `words`", NONEMPTY_WL,
)  # fmt: skip
FAMILY_WORDCOUNT.line(
    "shortest_word_length", "words", "min(len(w) for w in words)",
    "the length of the shortest string of the non-empty list `words`", NONEMPTY_WL,
)  # fmt: skip
FAMILY_WORDCOUNT.line(
    "count_word", "words, w", "words.count(w)", "how many times the string `w` appears in the list `words`",
    [(["a", "b", "a"], "a"), ([], "x"), (["hi"], "hi"), (["one", "two"], "three"), (["x", "x", "x", "z"], "x"), (["cat", "dog"], "dog"), (["up", "down", "up"], "up"), (["", "a"], "b"), (["q", "q"], "q")],
)  # fmt: skip

FAMILY_ANSWERS = CoreFamily("two-word-answers", "train")
FAMILY_ANSWERS.line(
    "yes_if_even", "x", "'yes' if x % 2 == 0 else 'no'",
    "'yes' if the integer `x` is even and 'no' otherwise", [4, 0, -3, 7, 10, 1, -8, 25, 100, 13],
)  # fmt: skip
FAMILY_ANSWERS.line(
    "high_or_low", "x", "'high' if x >= 50 else 'low'",
    "'high' if the integer `x` is at least 50 and 'low' otherwise", [50, 0, 49, 100, 75, 10, 51, 30, 99, -2],
)  # fmt: skip
FAMILY_ANSWERS.line(
    "long_or_short", "s", "'long' if len(s) > 4 else 'short'",
    "'long' if the string `s` has more than 4 characters and 'short' otherwise", STRINGS,
)  # fmt: skip
FAMILY_ANSWERS.line(
    "few_or_many", "xs", "'few' if len(xs) < 3 else 'many'",
    "'few' if the list `xs` has fewer than 3 elements and 'many' otherwise",
    [[3, 1, 4, 1, 5], [], [-2, 7, 0], [10], [2, 4, 6, 8], [5, 5], [9, 8, 7, 6, 5, 4], [0], [1, 2, 3], [7, 7]],
)  # fmt: skip
FAMILY_ANSWERS.line(
    "loud_or_calm", "s", "'loud' if s.endswith('!') else 'calm'",
    "'loud' if the string `s` ends with '!' and 'calm' otherwise",
    ["wow!", "", "hello", "Go now!", "stop!", "ok", "!", "yes?", "Hey!!", "quiet"],
)  # fmt: skip
FAMILY_ANSWERS.line(
    "first_or_second", "a, b", "'first' if a >= b else 'second'",
    "'first' if the integer `a` is greater than or equal to `b`, and 'second' otherwise",
    [(3, 4), (0, 5), (-2, 7), (10, 10), (6, -3), (1, 1), (-4, -9), (12, 5), (2, 9), (-5, 5)],
)  # fmt: skip
FAMILY_ANSWERS.line(
    "even_or_odd_length", "s", "'even' if len(s) % 2 == 0 else 'odd'",
    "'even' if the length of the string `s` is even and 'odd' otherwise", STRINGS,
)  # fmt: skip
FAMILY_ANSWERS.line(
    "vowel_or_consonant", "s", "'vowel' if s[0] in 'aeiou' else 'consonant'",
    "'vowel' if the first character of the non-empty lower case word `s` is one of a, e, i, o, u, and 'consonant' otherwise",
    ["apple", "banana", "egg", "kiwi", "orange", "plum", "umbrella", "tea", "ice", "moon"],
)  # fmt: skip
FAMILY_ANSWERS.line(
    "big_or_small_total", "xs", "'big' if sum(xs) > 10 else 'small'",
    "'big' if the sum of the list `xs` is greater than 10 and 'small' otherwise",
    [[3, 1, 4, 1, 5], [], [-2, 7, 0], [10], [2, 4, 6, 8], [5, -5, 5], [9, 8, 7], [11], [1, 1, 2, 3, 5, 8], [0]],
)  # fmt: skip
