"""Train families about strings: case, ends, building, checks, counting, cleaning, words."""

from __future__ import annotations

from core_families import STRINGS, WORD_LISTS, WORDS_TEXT, CoreFamily

FAMILY_CASE = CoreFamily("string-case", "train")
FAMILY_CASE.line("to_upper", "s", "s.upper()", "the string `s` in upper case", STRINGS)
FAMILY_CASE.line("to_lower", "s", "s.lower()", "the string `s` in lower case", STRINGS)
FAMILY_CASE.line(
    "to_title",
    "s",
    "s.title()",
    "the string `s` with the first letter of every word in upper case and the rest in lower case (`s.title()`)",
    STRINGS,
)
FAMILY_CASE.line(
    "swap_case",
    "s",
    "s.swapcase()",
    "the string `s` with upper case letters made lower case and lower case letters made upper case",
    STRINGS,
)
FAMILY_CASE.line(
    "capitalize_first",
    "s",
    "s.capitalize()",
    "the string `s` with its first character in upper case and the rest in lower case (`s.capitalize()`)",
    STRINGS,
)
FAMILY_CASE.line(
    "upper_then_lower",
    "s",
    "s.upper() + s.lower()",
    "the string `s` in upper case followed by `s` in lower case",
    STRINGS,
)

FAMILY_ENDS = CoreFamily("string-ends", "train")
FAMILY_ENDS.line(
    "first_char", "s", "s[0]", "the first character of the non-empty string `s`", WORDS_TEXT
)
FAMILY_ENDS.line(
    "last_char", "s", "s[-1]", "the last character of the non-empty string `s`", WORDS_TEXT
)
FAMILY_ENDS.sweep(
    "first_{kw}_chars", "s", "s[:{k}]",
    "the first {k} characters of the string `s` (all of `s` if it is shorter)", [2, 3, 4], STRINGS,
)  # fmt: skip
FAMILY_ENDS.sweep(
    "last_{kw}_chars", "s", "s[-{k}:]",
    "the last {k} characters of the string `s` (all of `s` if it is shorter)", [2, 3], WORDS_TEXT,
)  # fmt: skip
FAMILY_ENDS.line(
    "drop_first_char", "s", "s[1:]", "the string `s` without its first character", STRINGS
)
FAMILY_ENDS.line(
    "drop_last_char", "s", "s[:-1]", "the string `s` without its last character", STRINGS
)
FAMILY_ENDS.line(
    "first_and_last_char",
    "s",
    "s[0] + s[-1]",
    "the first character of the non-empty string `s` followed by its last character",
    WORDS_TEXT,
)

FAMILY_BUILD = CoreFamily("string-building", "train")
FAMILY_BUILD.sweep(
    "add_suffix_{kw}", "s", "s + {k}", "the string `s` with {k} added at the end",
    [("bang", "!"), ("question_mark", "?"), ("dots", "..."), "ing", "s"], STRINGS,
)  # fmt: skip
FAMILY_BUILD.sweep(
    "add_prefix_{kw}", "s", "{k} + s", "the string `s` with {k} added at the start",
    ["re", "un", ("hash", "#")], STRINGS,
)  # fmt: skip
FAMILY_BUILD.sweep(
    "repeat_{kw}_times", "s", "s * {k}", "the string `s` repeated {k} times", [2, 3], STRINGS
)
FAMILY_BUILD.line(
    "wrap_in_brackets",
    "s",
    "'[' + s + ']'",
    "the string `s` with '[' before it and ']' after it",
    STRINGS,
)
FAMILY_BUILD.line(
    "wrap_in_stars",
    "s",
    "'*' + s + '*'",
    "the string `s` with a '*' before it and a '*' after it",
    STRINGS,
)
FAMILY_BUILD.line(
    "greet",
    "name",
    "'Hello, ' + name + '!'",
    "the greeting 'Hello, ' followed by the string `name` and '!'",
    ["Ann", "Bob", "", "World", "x", "Dr. Who", "Zoe", "Sam", "Li"],
)
FAMILY_BUILD.line(
    "dash_between",
    "s",
    "'-'.join(s)",
    "the characters of the string `s` joined with '-' between them",
    STRINGS,
)
FAMILY_BUILD.line("mirror", "s", "s + s[::-1]", "the string `s` followed by `s` reversed", STRINGS)

FAMILY_PRED = CoreFamily("string-checks", "train")
FAMILY_PRED.sweep(
    "starts_with_{kw}", "s", "s.startswith({k})",
    "True if the string `s` starts with {k}, else False", ["a", "The", "x"],
    ["apple", "", "The end", "the end", "xyz", "banana", "a", "Xray", "Theo", "x-ray", "xylophone", "Thanks"],
)  # fmt: skip
FAMILY_PRED.sweep(
    "ends_with_{kw}", "s", "s.endswith({k})",
    "True if the string `s` ends with {k}, else False", [("bang", "!"), "ing", "s"],
    ["wow!", "", "singing", "cats", "sing", "hello", "s", "!?", "yes", "Hi!", "kings"],
)  # fmt: skip
FAMILY_PRED.line(
    "has_space", "s", "' ' in s", "True if the string `s` contains a space, else False", STRINGS
)
FAMILY_PRED.line(
    "is_all_digits",
    "s",
    "s.isdigit()",
    "True if the string `s` is non-empty and all its characters are digits (`s.isdigit()`), else False",
    ["123", "", "12a", "007", "4 2", "x", "9", "2024", "-5"],
)
FAMILY_PRED.line(
    "is_palindrome",
    "s",
    "s == s[::-1]",
    "True if the string `s` reads the same backwards, else False",
    [*STRINGS, "abba", "ab"],
)
FAMILY_PRED.sweep(
    "longer_than_{kw}_chars", "s", "len(s) > {k}",
    "True if the string `s` has more than {k} characters, else False", [3, 5], STRINGS,
)  # fmt: skip
FAMILY_PRED.line(
    "is_lowercase_word",
    "s",
    "s.islower()",
    "True if the string `s` has letters and all of them are lower case (`s.islower()`), else False",
    STRINGS,
)

FAMILY_COUNT = CoreFamily("string-counting", "train")
FAMILY_COUNT.line(
    "string_length", "s", "len(s)", "the number of characters in the string `s`", STRINGS
)
FAMILY_COUNT.sweep(
    "count_letter_{kw}", "s", "s.count({k})",
    "how many times the character {k} appears in the string `s`", ["a", "e", "o", ("space", " ")], [*STRINGS, "aaa", "eye", "oo o"],
)  # fmt: skip
FAMILY_COUNT.line(
    "count_vowels",
    "s",
    "sum(1 for c in s.lower() if c in 'aeiou')",
    "the number of vowels (a, e, i, o, u, in either case) in the string `s`",
    STRINGS,
)
FAMILY_COUNT.line(
    "count_words",
    "s",
    "len(s.split())",
    "the number of words in the string `s`, where words are separated by spaces",
    STRINGS,
)
FAMILY_COUNT.line(
    "count_digits",
    "s",
    "sum(1 for c in s if c.isdigit())",
    "how many characters of the string `s` are digits",
    [*STRINGS, "2024", "a1b2c3", "R2D2", "99 bottles"],
)
FAMILY_COUNT.line(
    "count_uppercase",
    "s",
    "sum(1 for c in s if c.isupper())",
    "how many characters of the string `s` are upper case letters",
    STRINGS,
)

FAMILY_CLEAN = CoreFamily("string-cleaning", "train")
FAMILY_CLEAN.line(
    "strip_spaces",
    "s",
    "s.strip()",
    "the string `s` without spaces at its start and end",
    ["  hi  ", "", "a b", " x", "y ", "   ", " two words ", "none", "  lead"],
)
FAMILY_CLEAN.line(
    "remove_spaces", "s", "s.replace(' ', '')", "the string `s` with every space removed", STRINGS
)
FAMILY_CLEAN.sweep(
    "spaces_to_{kw}", "s", "s.replace(' ', {k})",
    "the string `s` with every space replaced by {k}", [("underscores", "_"), ("dashes", "-")], STRINGS,
)  # fmt: skip
FAMILY_CLEAN.sweep(
    "remove_letter_{kw}", "s", "s.replace({k}, '')",
    "the string `s` with every {k} removed", ["a", "o"], [*STRINGS, "aaa", "oboe"],
)  # fmt: skip
FAMILY_CLEAN.line("reverse_string", "s", "s[::-1]", "the string `s` reversed", STRINGS)

FAMILY_WORDS = CoreFamily("word-lists", "train")
FAMILY_WORDS.line(
    "join_words",
    "words",
    "' '.join(words)",
    "the strings of the list `words` joined with single spaces",
    WORD_LISTS,
)
FAMILY_WORDS.line(
    "join_with_commas",
    "words",
    "','.join(words)",
    "the strings of the list `words` joined with ',' between them",
    WORD_LISTS,
)
FAMILY_WORDS.line(
    "word_lengths",
    "words",
    "[len(w) for w in words]",
    "a list with the length of every string of the list `words`",
    WORD_LISTS,
)
FAMILY_WORDS.line(
    "upper_words",
    "words",
    "[w.upper() for w in words]",
    "a new list with every string of the list `words` in upper case",
    WORD_LISTS,
)
FAMILY_WORDS.line(
    "first_letters",
    "words",
    "[w[0] for w in words]",
    "a list with the first character of every (non-empty) string of the list `words`",
    WORD_LISTS,
)
FAMILY_WORDS.line(
    "total_length",
    "words",
    "sum(len(w) for w in words)",
    "the total number of characters of all the strings of the list `words`",
    WORD_LISTS,
)
FAMILY_WORDS.line(
    "split_words", "s", "s.split()", "a list of the words of the string `s` (`s.split()`)", STRINGS
)
FAMILY_WORDS.sweep(
    "words_longer_than_{kw}", "words", "[w for w in words if len(w) > {k}]",
    "a new list with the strings of the list `words` that have more than {k} characters", [2, 4], WORD_LISTS,
)  # fmt: skip

FAMILY_TWO = CoreFamily("two-strings", "train")
TWO = [
    ("ab", "cd"),
    ("", "x"),
    ("Hello", "World"),
    ("a", "a"),
    ("cat", ""),
    ("Go", "go"),
    ("xyz", "abc"),
    ("Sun", "day"),
    ("ok", "OK"),
]
FAMILY_TWO.line("concat", "a, b", "a + b", "the string `a` followed by the string `b`", TWO)
FAMILY_TWO.line(
    "concat_with_space", "a, b", "a + ' ' + b", "the string `a`, a space, then the string `b`", TWO
)
FAMILY_TWO.line(
    "same_length",
    "a, b",
    "len(a) == len(b)",
    "True if the strings `a` and `b` have the same length, else False",
    [*TWO, ("abc", "de")],
)
FAMILY_TWO.line(
    "same_ignoring_case",
    "a, b",
    "a.lower() == b.lower()",
    "True if the strings `a` and `b` are equal when case is ignored, else False",
    TWO,
)
FAMILY_TWO.line("b_then_a", "a, b", "b + a", "the string `b` followed by the string `a`", TWO)
FAMILY_TWO.line(
    "is_inside",
    "a, b",
    "a in b",
    "True if the string `a` appears inside the string `b`, else False",
    [
        ("b", "abc"),
        ("", "x"),
        ("cat", "concat"),
        ("z", "abc"),
        ("ab", "ba"),
        ("Go", "go"),
        ("lo", "hello"),
        ("ana", "banana"),
        ("cd", "abdc"),
    ],
)
FAMILY_TWO.line(
    "total_chars",
    "a, b",
    "len(a) + len(b)",
    "the number of characters of the string `a` plus that of the string `b`",
    TWO,
)
