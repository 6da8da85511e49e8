"""Third batch, held-out instances of train families about strings and words: the templates of
those families with other characters, affixes, lengths and letters, all `iid`. They were added
after the train split was drawn, so that split does not change."""

from __future__ import annotations

from core_families import STRINGS, WORD_LISTS, WORDS_TEXT, CoreFamily
from core_families.extra2_train_strings import BASES, COUNTS, LENGTH_TEXTS, STRING_PAIRS
from core_families.extra_train_strings import WL
from core_families.train_more import SIZES

SIGNS = ["a;b;c", "", "x+y=z", "1+1=2", ";;", "plain", "a = b + c", "==", "+;=", "hi;", "c++", "x=1; y=2"]  # fmt: skip
FAMILY_IID_CHARCOUNT = CoreFamily("character-counting", "iid")
FAMILY_IID_CHARCOUNT.sweep(
    "count_{kw}", "s", "s.count({k})", "how many times the character {k} appears in the string `s`",
    [("semicolons", ";"), ("plus_signs", "+"), ("equals_signs", "=")], SIGNS,
)  # fmt: skip

FAMILY_IID_SYMBOLS = CoreFamily("symbol-counting", "iid")
for fn, ch in [
    ("count_percent_signs", "%"),
    ("count_dollar_signs", "$"),
    ("count_one_chars", "1"),
    ("count_letter_n", "n"),
    ("count_letter_s", "s"),
]:  # fmt: skip
    FAMILY_IID_SYMBOLS.line(
        fn, "s", f"s.count({ch!r})", f"how many times the character {ch!r} appears in the string `s`",
        [f"a{ch}b", "", f"{ch}{ch}", "none", f"{ch}x{ch}y{ch}", "hello", ch, f"12{ch}34", f"{ch * 2} {ch}", "abc"],
    )  # fmt: skip

FAMILY_IID_COUNT = CoreFamily("string-counting", "iid")
FAMILY_IID_COUNT.sweep(
    "count_letter_{kw}", "s", "s.count({k})", "how many times the character {k} appears in the string `s`",
    ["u", "l", "r"], [*STRINGS, "lull", "ruler", "usual", "null"],
)  # fmt: skip

FAMILY_IID_REPEAT = CoreFamily("repeated-characters", "iid")
FAMILY_IID_REPEAT.sweep(
    "row_of_{kw}", "n", "{k} * n", "a string made of {k} repeated `n` times",
    [("bangs", "!"), ("as", "a"), ("sevens", "7")], SIZES,
)  # fmt: skip

FAMILY_IID_ROWS = CoreFamily("character-rows", "iid")
for fn, text in [
    ("row_of_carets", "^"),
    ("row_of_pipes", "|"),
    ("row_of_colons", ":"),
    ("row_of_ha", "ha"),
    ("row_of_xo", "xo"),
]:  # fmt: skip
    kind = "character" if len(text) == 1 else "string"
    FAMILY_IID_ROWS.line(fn, "n", f"{text!r} * n", f"a string made of the {kind} {text!r} repeated `n` times", COUNTS)  # fmt: skip

FAMILY_IID_BUILD = CoreFamily("string-building", "iid")
FAMILY_IID_BUILD.sweep(
    "add_suffix_{kw}", "s", "s + {k}", "the string `s` with {k} added at the end",
    [("star", "*"), ("colon", ":"), ("dash", "-")], STRINGS,
)  # fmt: skip
FAMILY_IID_BUILD.sweep(
    "add_prefix_{kw}", "s", "{k} + s", "the string `s` with {k} added at the start",
    ["dis", ("dollar", "$")], STRINGS,
)  # fmt: skip
FAMILY_IID_BUILD.sweep(
    "repeat_{kw}_times", "s", "s * {k}", "the string `s` repeated {k} times", [4, 5], STRINGS
)

FAMILY_IID_SUFFIXES = CoreFamily("word-suffixes", "iid")
for fn, expr, returns in [
    ("add_suffix_able", "s + 'able'", "the string `s` with 'able' added at the end"),
    ("add_suffix_less", "s + 'less'", "the string `s` with 'less' added at the end"),
    ("add_suffix_ish", "s + 'ish'", "the string `s` with 'ish' added at the end"),
    ("add_prefix_over", "'over' + s", "the string `s` with 'over' added at the start"),
    ("add_prefix_anti", "'anti' + s", "the string `s` with 'anti' added at the start"),
]:  # fmt: skip
    FAMILY_IID_SUFFIXES.line(fn, "s", expr, returns, BASES)

FAMILY_IID_STRIP = CoreFamily("stripping-characters", "iid")
for fn, ch in [
    ("strip_tildes", "~"),
    ("strip_colons", ":"),
    ("strip_commas", ","),
    ("strip_zeros", "0"),
]:  # fmt: skip
    FAMILY_IID_STRIP.line(
        fn, "s", f"s.strip({ch!r})",
        f"the string `s` without the {ch!r} characters at its start and end (`s.strip({ch!r})`)",
        [f"{ch}hi{ch}", "", "a b", f"{ch * 3}x", f"y{ch * 2}", ch * 2, f"{ch}two{ch}words{ch}", "none", f"{ch} lead", "A"],
    )  # fmt: skip

FAMILY_IID_TRIM = CoreFamily("trimming-one-end", "iid")
for fn, method, end, ch in [
    ("trim_trailing_stars", "rstrip", "end", "*"),
    ("trim_trailing_commas", "rstrip", "end", ","),
    ("trim_leading_stars", "lstrip", "start", "*"),
    ("trim_leading_underscores", "lstrip", "start", "_"),
]:  # fmt: skip
    FAMILY_IID_TRIM.line(
        fn, "s", f"s.{method}({ch!r})",
        f"the string `s` without the {ch!r} characters at its {end} (`s.{method}({ch!r})`)",
        [f"{ch}hi{ch}", "", "a b", f"{ch * 3}ab", f"yz{ch * 2}", ch * 2, f"{ch}two{ch}words{ch}", "none", f"{ch} lead", "end" + ch],
    )  # fmt: skip

FAMILY_IID_CLEAN = CoreFamily("string-cleaning", "iid")
FAMILY_IID_CLEAN.sweep(
    "spaces_to_{kw}", "s", "s.replace(' ', {k})", "the string `s` with every space replaced by {k}",
    [("dots", "."), ("stars", "*"), ("commas", ",")], STRINGS,
)  # fmt: skip
FAMILY_IID_CLEAN.sweep(
    "remove_letter_{kw}", "s", "s.replace({k}, '')", "the string `s` with every {k} removed",
    ["n", "i"], [*STRINGS, "nine", "kiwi", "mississippi", "hi"],
)  # fmt: skip

FAMILY_IID_ENDS = CoreFamily("string-ends", "iid")
FAMILY_IID_ENDS.sweep(
    "first_{kw}_chars", "s", "s[:{k}]",
    "the first {k} characters of the string `s` (all of `s` if it is shorter)", [6], STRINGS,
)  # fmt: skip
FAMILY_IID_ENDS.sweep(
    "last_{kw}_chars", "s", "s[-{k}:]",
    "the last {k} characters of the string `s` (all of `s` if it is shorter)", [5], WORDS_TEXT,
)  # fmt: skip

FAMILY_IID_PRED = CoreFamily("string-checks", "iid")
FAMILY_IID_PRED.sweep(
    "longer_than_{kw}_chars", "s", "len(s) > {k}",
    "True if the string `s` has more than {k} characters, else False", [2, 4], STRINGS,
)  # fmt: skip
FAMILY_IID_PRED.sweep(
    "ends_with_{kw}", "s", "s.endswith({k})", "True if the string `s` ends with {k}, else False",
    ["ed", "y"], ["played", "", "toy", "bed", "happy", "edge", "y", "red!", "jumped", "yes", "sky"],
)  # fmt: skip

FAMILY_IID_WORDMAP = CoreFamily("word-mapping", "iid")
for fn, expr, returns in [
    ("words_with_dot", "[w + '.' for w in words]", "a new list with '.' added at the end of every string of the list `words`"),
    ("star_each_word", "['*' + w for w in words]", "a new list with '*' put in front of every string of the list `words`"),
]:  # fmt: skip
    FAMILY_IID_WORDMAP.line(fn, "words", expr, returns, WORD_LISTS)

FAMILY_IID_PER_WORD = CoreFamily("per-word-changes", "iid")
for fn, expr, returns in [
    ("add_ed_to_each", "[w + 'ed' for w in words]", "a new list with 'ed' added at the end of every string of the list `words`"),
    ("words_with_colon", "[w + ':' for w in words]", "a new list with ':' added at the end of every string of the list `words`"),
]:  # fmt: skip
    FAMILY_IID_PER_WORD.line(fn, "words", expr, returns, WORD_LISTS)

FAMILY_IID_JOIN_TWO = CoreFamily("joining-two-strings", "iid")
for fn, expr, returns in [
    ("join_with_slash", "a + '/' + b", "the string `a`, then '/', then the string `b`"),
    ("join_with_plus", "a + '+' + b", "the string `a`, then '+', then the string `b`"),
    ("join_with_pipe", "a + '|' + b", "the string `a`, then '|', then the string `b`"),
]:  # fmt: skip
    FAMILY_IID_JOIN_TWO.line(fn, "a, b", expr, returns, STRING_PAIRS)

FAMILY_IID_LENGTHS = CoreFamily("length-and-start-checks", "iid")
for fn, expr, returns in [
    ("length_is_five", "len(s) == 5", "True if the string `s` has exactly 5 characters, else False"),
    ("at_least_five_chars", "len(s) >= 5", "True if the string `s` has 5 or more characters, else False"),
]:  # fmt: skip
    FAMILY_IID_LENGTHS.line(fn, "s", expr, returns, LENGTH_TEXTS)

FAMILY_IID_WORDCOUNT = CoreFamily("word-counting", "iid")
for fn, expr, returns in [
    ("count_words_with_a", "sum(1 for w in words if 'a' in w)", "how many strings of the list `words` contain the letter 'a'"),
    ("count_words_with_o", "sum(1 for w in words if 'o' in w)", "how many strings of the list `words` contain the letter 'o'"),
]:  # fmt: skip
    FAMILY_IID_WORDCOUNT.line(fn, "words", expr, returns, [*WL, ["", "", "e"]])
