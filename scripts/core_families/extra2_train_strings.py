"""Second batch of extra train families about strings, modelled on the kinds that a 135M model
solves some of the time: word suffixes, rows of a character, two-label answers, joining two
strings, heads and tails, trimming one end, counting a symbol, inner slices, per-word changes,
joining word lists and length or start checks."""

from __future__ import annotations

from core_families import INTS, WORD_LISTS, WORDS_TEXT, CoreFamily

BASES = ["play", "help", "", "jump", "kind", "Go", "read", "x y", "OK", "cook"]
FAMILY_SUFFIXES = CoreFamily("word-suffixes", "train")
for fn, expr, returns in [
    ("add_suffix_ed", "s + 'ed'", "the string `s` with 'ed' added at the end"),
    ("add_suffix_er", "s + 'er'", "the string `s` with 'er' added at the end"),
    ("add_suffix_ly", "s + 'ly'", "the string `s` with 'ly' added at the end"),
    ("add_suffix_ful", "s + 'ful'", "the string `s` with 'ful' added at the end"),
    ("add_suffix_est", "s + 'est'", "the string `s` with 'est' added at the end"),
    ("add_suffix_ness", "s + 'ness'", "the string `s` with 'ness' added at the end"),
    ("add_prefix_pre", "'pre' + s", "the string `s` with 'pre' added at the start"),
    ("add_prefix_mis", "'mis' + s", "the string `s` with 'mis' added at the start"),
    ("add_prefix_non", "'non' + s", "the string `s` with 'non' added at the start"),
    ("add_prefix_plus", "'+' + s", "the string `s` with '+' added at the start"),
]:  # fmt: skip
    FAMILY_SUFFIXES.line(fn, "s", expr, returns, BASES)

COUNTS = [3, 0, 1, 5, 2, 7, 4, 10, 6]
FAMILY_ROWS = CoreFamily("character-rows", "train")
for fn, text in [
    ("row_of_equals", "="),
    ("row_of_plus_signs", "+"),
    ("row_of_tildes", "~"),
    ("row_of_underscores", "_"),
    ("row_of_os", "o"),
    ("row_of_ones", "1"),
    ("row_of_slashes", "/"),
    ("row_of_ab", "ab"),
    ("row_of_hearts", "<3"),
]:  # fmt: skip
    kind = "character" if len(text) == 1 else "string"
    FAMILY_ROWS.line(fn, "n", f"{text!r} * n", f"a string made of the {kind} {text!r} repeated `n` times", COUNTS)  # fmt: skip

NUMBERS = [*INTS, 150, 20, 101, 230]
FAMILY_LABELS = CoreFamily("two-label-answers", "train")
for fn, expr, returns in [
    ("many_or_few", "'many' if x > 100 else 'few'", "'many' if the integer `x` is greater than 100 and 'few' otherwise"),
    ("round_or_not", "'round' if x % 10 == 0 else 'not round'", "'round' if the integer `x` is divisible by 10 and 'not round' otherwise"),
    ("negative_word", "'negative' if x < 0 else 'not negative'", "'negative' if the integer `x` is less than 0 and 'not negative' otherwise"),
    ("big_or_small_twenty", "'big' if x > 20 else 'small'", "'big' if the integer `x` is greater than 20 and 'small' otherwise"),
    ("ok_or_too_big", "'ok' if x <= 10 else 'too big'", "'ok' if the integer `x` is at most 10 and 'too big' otherwise"),
    ("tall_or_short", "'tall' if x >= 13 else 'short'", "'tall' if the integer height `x` is at least 13 and 'short' otherwise"),
]:  # fmt: skip
    FAMILY_LABELS.line(fn, "x", expr, returns, NUMBERS)
FAMILY_LABELS.line(
    "same_or_different", "a, b", "'same' if a == b else 'different'",
    "'same' if the integers `a` and `b` are equal and 'different' otherwise",
    [(3, 4), (5, 5), (0, 0), (-2, 7), (10, 10), (6, -3), (1, 1), (12, 5), (2, 9)],
)  # fmt: skip
FAMILY_LABELS.line(
    "up_or_down", "a, b", "'up' if b > a else 'down'",
    "'up' if the integer `b` is greater than the integer `a` and 'down' otherwise",
    [(3, 4), (5, 5), (0, 8), (-2, 7), (10, 1), (6, -3), (1, 2), (12, 5), (9, 2)],
)  # fmt: skip
FAMILY_LABELS.line(
    "blank_or_text", "s", "'blank' if s.strip() == '' else 'text'",
    "'blank' if the string `s` is empty or has only spaces, and 'text' otherwise",
    ["hello", "", "a", " ", "Data 42", "   ", "x y", "  ", " ok "],
)  # fmt: skip

STRING_PAIRS = [
    ("ab", "cd"),
    ("", "x"),
    ("hello", "world"),
    ("a", ""),
    ("key", "value"),
    ("Go", "now"),
    ("x", "y"),
    ("red", "Blue"),
    ("12", "34"),
    ("", ""),
]
FAMILY_JOINS = CoreFamily("joining-two-strings", "train")
for fn, expr, returns in [
    ("join_with_colon", "a + ':' + b", "the string `a`, then ':', then the string `b`"),
    ("join_with_arrow", "a + '->' + b", "the string `a`, then '->', then the string `b`"),
    ("join_with_equals", "a + '=' + b", "the string `a`, then '=', then the string `b`"),
    ("join_with_dot", "a + '.' + b", "the string `a`, then '.', then the string `b`"),
    ("a_or_b_text", "a + ' or ' + b", "the string `a`, then ' or ', then the string `b`"),
    ("b_space_a", "b + ' ' + a", "the string `b`, a space, then the string `a`"),
    ("concat_with_bang", "a + b + '!'", "the string `a` followed by the string `b` and then '!'"),
    ("concat_upper", "(a + b).upper()", "the string `a` followed by the string `b`, all in upper case"),
]:  # fmt: skip
    FAMILY_JOINS.line(fn, "a, b", expr, returns, STRING_PAIRS)
FAMILY_JOINS.line(
    "longer_than_five_together", "a, b", "len(a) + len(b) > 5",
    "True if the strings `a` and `b` have more than 5 characters together, else False",
    [("abc", "cd"), ("", "x"), ("hello", "hi"), ("a", ""), ("key", "value"), ("Go", "now"), ("x", "y"), ("red", "Blue"), ("12345", "34")],
)  # fmt: skip

TEXTS = [*WORDS_TEXT, "ok"]
FAMILY_HEADS = CoreFamily("heads-and-tails", "train")
for fn, expr, returns in [
    ("last_four_chars", "s[-4:]", "the last 4 characters of the string `s` (all of `s` if it is shorter)"),
    ("first_five_chars", "s[:5]", "the first 5 characters of the string `s` (all of `s` if it is shorter)"),
    ("first_char_upper", "s[0].upper()", "the first character of the non-empty string `s`, in upper case"),
    ("last_char_twice", "s[-1] * 2", "the last character of the non-empty string `s`, repeated twice"),
    ("last_then_first_char", "s[-1] + s[0]", "the last character of the non-empty string `s` followed by its first character"),
    ("first_two_and_last_two", "s[:2] + s[-2:]", "the first 2 characters of the non-empty string `s` followed by its last 2 characters"),
    ("first_char_three_times", "s[0] * 3", "the first character of the non-empty string `s`, repeated 3 times"),
    ("last_char_lower", "s[-1].lower()", "the last character of the non-empty string `s`, in lower case"),
]:  # fmt: skip
    FAMILY_HEADS.line(fn, "s", expr, returns, TEXTS)

FAMILY_TRIM = CoreFamily("trimming-one-end", "train")
for fn, expr, returns, ch in [
    ("trim_trailing_zeros", "s.rstrip('0')", "the string `s` without the '0' characters at its end (`s.rstrip('0')`)", "0"),
    ("trim_trailing_bangs", "s.rstrip('!')", "the string `s` without the '!' characters at its end (`s.rstrip('!')`)", "!"),
    ("trim_trailing_dots", "s.rstrip('.')", "the string `s` without the '.' characters at its end (`s.rstrip('.')`)", "."),
    ("trim_leading_hashes", "s.lstrip('#')", "the string `s` without the '#' characters at its start (`s.lstrip('#')`)", "#"),
    ("trim_leading_dashes", "s.lstrip('-')", "the string `s` without the '-' characters at its start (`s.lstrip('-')`)", "-"),
    ("strip_equals_signs", "s.strip('=')", "the string `s` without the '=' characters at its start and end (`s.strip('=')`)", "="),
    ("strip_plus_signs", "s.strip('+')", "the string `s` without the '+' characters at its start and end (`s.strip('+')`)", "+"),
    ("strip_slashes", "s.strip('/')", "the string `s` without the '/' characters at its start and end (`s.strip('/')`)", "/"),
    ("strip_letter_x", "s.strip('x')", "the string `s` without the 'x' characters at its start and end (`s.strip('x')`)", "x"),
]:  # fmt: skip
    FAMILY_TRIM.line(
        fn, "s", expr, returns,
        [f"{ch}hi{ch}", "", "a b", f"{ch * 3}ab", f"yz{ch * 2}", ch * 2, f"{ch}two{ch}words{ch}", "none", f"{ch} lead", "end" + ch],
    )  # fmt: skip

FAMILY_SYMBOLS = CoreFamily("symbol-counting", "train")
for fn, ch in [
    ("count_colons", ":"),
    ("count_slashes", "/"),
    ("count_at_signs", "@"),
    ("count_stars", "*"),
    ("count_hash_signs", "#"),
    ("count_zero_chars", "0"),
    ("count_letter_i", "i"),
    ("count_letter_t", "t"),
]:  # fmt: skip
    FAMILY_SYMBOLS.line(
        fn, "s", f"s.count({ch!r})", f"how many times the character {ch!r} appears in the string `s`",
        [f"a{ch}b", "", f"{ch}{ch}", "none", f"{ch}x{ch}y{ch}", "hello", ch, f"12{ch}34", f"{ch * 2} {ch}", "abc"],
    )  # fmt: skip
FAMILY_SYMBOLS.line(
    "count_non_digits", "s", "sum(1 for c in s if not c.isdigit())",
    "how many characters of the string `s` are not digits",
    ["a1b2", "", "123", "hello", "Data 42", "7", "R2D2", "x", "2 go", "room 101"],
)  # fmt: skip

SLICE_TEXTS = ["hello", "", "Python", "a b c", "Data 42", "racecar", "XyZ", "banana", "Go now!", "ab", "tick tock"]  # fmt: skip
FAMILY_INNER = CoreFamily("inner-slices", "train")
for fn, expr, returns in [
    ("drop_first_three_chars", "s[3:]", "the string `s` without its first three characters (`s[3:]`)"),
    ("drop_last_three_chars", "s[:-3]", "the string `s` without its last three characters (`s[:-3]`)"),
    ("every_third_char", "s[::3]", "the characters of the string `s` at indexes 0, 3, 6, ... (`s[::3]`)"),
    ("odd_index_chars", "s[1::2]", "the characters of the string `s` at indexes 1, 3, 5, ... (`s[1::2]`)"),
    ("chars_two_to_four", "s[2:5]", "the characters of the string `s` at indexes 2, 3 and 4 (`s[2:5]`)"),
    ("last_three_reversed", "s[-3:][::-1]", "the last 3 characters of the string `s` (all of `s` if it is shorter), in reverse order"),
    ("reversed_without_first", "s[1:][::-1]", "the string `s` without its first character, reversed"),
]:  # fmt: skip
    FAMILY_INNER.line(fn, "s", expr, returns, SLICE_TEXTS)
FAMILY_INNER.line(
    "chars_from_index", "s, i", "s[i:]", "the string `s` from index `i` to the end (`s[i:]`)",
    [("hello", 2), ("", 0), ("Python", 0), ("abc", 1), ("banana", 3), ("Go now!", 5), ("xy", 2), ("tick", 1), ("racecar", 4)],
)  # fmt: skip
FAMILY_INNER.line(
    "middle_char", "s", "s[len(s) // 2]", "the character of the non-empty string `s` at index `len(s) // 2`",
    ["hello", "Python", "a b c", "Data 42", "racecar", "XyZ", "banana", "Go now!", "ab", "A"],
)  # fmt: skip

FAMILY_PER_WORD = CoreFamily("per-word-changes", "train")
for fn, expr, returns in [
    ("words_with_question_mark", "[w + '?' for w in words]", "a new list with '?' added at the end of every string of the list `words`"),
    ("last_two_letters", "[w[-2:] for w in words]", "a list with the last 2 characters of every string of the list `words` (all of it if it is shorter)"),
    ("drop_first_letter_each", "[w[1:] for w in words]", "a new list with every string of the list `words` without its first character"),
    ("hashtag_each", "['#' + w for w in words]", "a new list with '#' added at the start of every string of the list `words`"),
    ("triple_each_word", "[w * 3 for w in words]", "a new list with every string of the list `words` repeated 3 times"),
    ("first_three_letters", "[w[:3] for w in words]", "a list with the first 3 characters of every string of the list `words` (all of it if it is shorter)"),
    ("add_ing_to_each", "[w + 'ing' for w in words]", "a new list with 'ing' added at the end of every string of the list `words`"),
    ("upper_last_letters", "[w[-1].upper() for w in words]", "a list with the last character of every (non-empty) string of the list `words`, in upper case"),
    ("first_and_last_letters", "[w[0] + w[-1] for w in words]", "a list with, for every (non-empty) string of the list `words`, its first character followed by its last character"),
]:  # fmt: skip
    FAMILY_PER_WORD.line(fn, "words", expr, returns, WORD_LISTS)

FAMILY_WORD_JOINS = CoreFamily("joining-word-lists", "train")
for fn, expr, returns in [
    ("join_with_underscores", "'_'.join(words)", "the strings of the list `words` joined with '_' between them"),
    ("join_with_slashes", "'/'.join(words)", "the strings of the list `words` joined with '/' between them"),
    ("join_with_plus_signs", "'+'.join(words)", "the strings of the list `words` joined with '+' between them"),
    ("join_with_and", "' and '.join(words)", "the strings of the list `words` joined with ' and ' between them"),
    ("join_without_spaces", "''.join(words)", "the strings of the list `words` joined together with nothing between them"),
    ("join_with_bars", "' | '.join(words)", "the strings of the list `words` joined with ' | ' between them"),
    ("words_longer_than_three", "[w for w in words if len(w) > 3]", "a new list with the strings of the list `words` that have more than 3 characters"),
    ("words_longer_than_five", "[w for w in words if len(w) > 5]", "a new list with the strings of the list `words` that have more than 5 characters"),
    ("words_of_length_three", "[w for w in words if len(w) == 3]", "a new list with the strings of the list `words` that have exactly 3 characters"),
]:  # fmt: skip
    FAMILY_WORD_JOINS.line(fn, "words", expr, returns, WORD_LISTS)

LENGTH_TEXTS = [
    "hello", "", "cat", "Python", "a b c", "Data 42", "bee", "XyZ", "banana", "Go now!", "tick tock", "A",
    "blue sky", "3 dogs", "bike", "apple", "42nd", "7up",
]  # fmt: skip
FAMILY_LENGTHS = CoreFamily("length-and-start-checks", "train")
for fn, expr, returns in [
    ("length_is_three", "len(s) == 3", "True if the string `s` has exactly 3 characters, else False"),
    ("shorter_than_four", "len(s) < 4", "True if the string `s` has fewer than 4 characters, else False"),
    ("at_least_six_chars", "len(s) >= 6", "True if the string `s` has 6 or more characters, else False"),
    ("length_is_odd", "len(s) % 2 == 1", "True if the number of characters of the string `s` is odd, else False"),
    ("has_two_words", "len(s.split()) == 2", "True if the string `s` has exactly 2 words separated by spaces, else False"),
    ("starts_with_digit", "s[:1].isdigit()", "True if the first character of the string `s` is a digit, else False (False for an empty string)"),
    ("ends_with_e", "s.endswith('e')", "True if the string `s` ends with 'e', else False"),
    ("starts_with_b", "s.startswith('b')", "True if the string `s` starts with 'b', else False"),
]:  # fmt: skip
    FAMILY_LENGTHS.line(fn, "s", expr, returns, LENGTH_TEXTS)
