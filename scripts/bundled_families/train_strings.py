"""Train families about strings: counting characters, case, reversal, cleaning, predicates."""

from __future__ import annotations

from bundled_families import Family

TEXTS = [
    "Hello World",
    "",
    "Python 3.12 is OUT",
    "aeiou",
    "xyz",
    "A quick brown Fox",
    "123 Main St.",
    "  spaces   here ",
    "MiXeD CaSe 42!",
]

FAMILY_COUNT = Family("count-characters-of-a-kind", "train")


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_vowels(s)` that returns the number of vowels in the string `s`. "
    "The vowels are a, e, i, o and u, in lower or upper case; return 0 for an empty string.",
    TEXTS,
)
def count_vowels(s):
    return sum(1 for c in s.lower() if c in "aeiou")


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_digits(s)` that returns how many characters of the string `s` are "
    "digits 0-9.",
    ["abc123", "", "no digits", "2024-01-15", "a1b2c3d4", "007", "x", "9 lives, 3 wishes"],
)
def count_digits(s):
    return sum(1 for c in s if c.isdigit())


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_uppercase(s)` that returns the number of uppercase letters in the "
    "string `s`.",
    TEXTS,
)
def count_uppercase(s):
    return sum(1 for c in s if c.isupper())


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_lowercase(s)` that returns the number of lowercase letters in the "
    "string `s`.",
    ["Hello World", "", "ABC", "abc", "Python 3.12 is OUT", "MiXeD", "a1b2", "Zz"],
)
def count_lowercase(s):
    return sum(1 for c in s if c.islower())


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_spaces(s)` that returns how many space characters ' ' the string "
    "`s` contains.",
    ["a b c", "", "nospace", "  two leading", "one two three four", " ", "end ", "x  y"],
)
def count_spaces(s):
    return s.count(" ")


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_char(s, ch)` that returns how many times the single character `ch` "
    "appears in the string `s`. The comparison is case-sensitive.",
    [
        ("banana", "a"),
        ("hello", "z"),
        ("", "x"),
        ("Mississippi", "s"),
        ("AaAa", "a"),
        ("aaa", "a"),
        ("a-b-c-d", "-"),
        ("Bob", "b"),
    ],
)
def count_char(s, ch):
    return s.count(ch)


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_letters(s)` that returns how many characters of the string `s` are "
    "letters (a-z or A-Z).",
    TEXTS,
)
def count_letters(s):
    return sum(1 for c in s if c.isalpha())


@FAMILY_COUNT.add(
    "easy",
    "Write a function `count_consonants(s)` that returns the number of consonants in the string "
    "`s`: letters that are not a, e, i, o or u (in either case). Digits, spaces and punctuation "
    "are not consonants.",
    TEXTS,
)
def count_consonants(s):
    return sum(1 for c in s.lower() if c.isalpha() and c not in "aeiou")


FAMILY_CASE = Family("string-case-changes", "train")


@FAMILY_CASE.add(
    "easy",
    "Write a function `shout(s)` that returns the string `s` in upper case with an exclamation "
    "mark '!' added at the end.",
    ["hello", "", "Stop", "go now", "abc123", "OK", "yes please", "x"],
)
def shout(s):
    return s.upper() + "!"


@FAMILY_CASE.add(
    "easy",
    "Write a function `swap_case(s)` that returns a copy of the string `s` where every uppercase "
    "letter becomes lowercase and every lowercase letter becomes uppercase. Other characters stay "
    "the same.",
    ["Hello World", "", "abc", "ABC", "MiXeD 42!", "pYTHON", "a", "123"],
)
def swap_case(s):
    return s.swapcase()


@FAMILY_CASE.add(
    "easy",
    "Write a function `capitalize_words(s)` that takes a string of lowercase words separated by "
    "single spaces and returns it with the first letter of every word in upper case.",
    ["hello world", "", "a", "the quick brown fox", "python", "x y z", "make it so", "ab cd"],
)
def capitalize_words(s):
    return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))


@FAMILY_CASE.add(
    "medium",
    "Write a function `alternate_case(s)` that returns the string `s` with its characters in "
    "alternating case: the character at index 0 lower case, index 1 upper case, index 2 lower "
    "case, and so on. Non-letters keep their position in the alternation.",
    ["hello", "", "abcdef", "HELLO WORLD", "a", "ab", "x1y2", "Python"],
)
def alternate_case(s):
    return "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(s))


@FAMILY_CASE.add(
    "easy",
    "Write a function `lower_first(s)` that returns the string `s` with only its first character "
    "changed to lower case. Return an empty string unchanged.",
    ["Hello", "", "ABC", "already", "X", "Title Case", "1abc", "QUIET"],
)
def lower_first(s):
    return s[:1].lower() + s[1:]


@FAMILY_CASE.add(
    "easy",
    "Write a function `is_all_caps(s)` that returns True if the string `s` contains at least one "
    "letter and all of its letters are upper case, and False otherwise.",
    ["HELLO", "Hello", "", "ABC 123!", "123", "aBC", "OK", "no"],
)
def is_all_caps(s):
    letters = [c for c in s if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


FAMILY_REVERSE = Family("string-reversal-variants", "train")


@FAMILY_REVERSE.add(
    "easy",
    "Write a function `reverse_string(s)` that returns the string `s` reversed.",
    ["hello", "", "a", "racecar", "Python", "12345", "ab", "hello world"],
)
def reverse_string(s):
    return s[::-1]


@FAMILY_REVERSE.add(
    "easy",
    "Write a function `reverse_words(s)` that takes a sentence whose words are separated by "
    "single spaces and returns the words in reverse order, joined by single spaces.",
    ["hello world", "", "one", "the quick brown fox", "a b c", "I like code", "x y", "go home now"],
)
def reverse_words(s):
    return " ".join(s.split(" ")[::-1])


@FAMILY_REVERSE.add(
    "easy",
    "Write a function `reverse_each_word(s)` that takes a sentence whose words are separated by "
    "single spaces and returns it with the letters of each word reversed, keeping the words in "
    "their original order.",
    ["hello world", "", "abc", "the quick fox", "a bc def", "Python rocks", "xy z", "level up"],
)
def reverse_each_word(s):
    return " ".join(w[::-1] for w in s.split(" "))


@FAMILY_REVERSE.add(
    "easy",
    "Write a function `is_palindrome(s)` that returns True if the string `s` reads the same "
    "forwards and backwards, and False otherwise. The comparison is case-sensitive and an empty "
    "string is a palindrome.",
    ["racecar", "hello", "", "a", "abba", "Abba", "abcba", "ab"],
)
def is_palindrome(s):
    return s == s[::-1]


@FAMILY_REVERSE.add(
    "medium",
    "Write a function `is_loose_palindrome(s)` that returns True if the string `s` is a "
    "palindrome when case is ignored and only letters and digits are kept, and False otherwise. "
    "For example 'A man, a plan, a canal: Panama' is one.",
    [
        "A man, a plan, a canal: Panama",
        "hello",
        "",
        "No lemon, no melon",
        "Was it a car or a cat I saw?",
        "abc",
        "12 21",
        "Race car!",
        "ab1ba2",
    ],
)
def is_loose_palindrome(s):
    kept = [c.lower() for c in s if c.isalnum()]
    return kept == kept[::-1]


@FAMILY_REVERSE.add(
    "easy",
    "Write a function `mirror(s)` that returns the string `s` followed by its reverse, e.g. "
    "'abc' gives 'abccba'.",
    ["abc", "", "a", "xy", "hello", "12", "ab c", "zz"],
)
def mirror(s):
    return s + s[::-1]


FAMILY_CLEAN = Family("string-cleaning", "train")


@FAMILY_CLEAN.add(
    "easy",
    "Write a function `remove_vowels(s)` that returns the string `s` with every vowel (a, e, i, "
    "o, u, in either case) removed.",
    TEXTS,
)
def remove_vowels(s):
    return "".join(c for c in s if c.lower() not in "aeiou")


@FAMILY_CLEAN.add(
    "easy",
    "Write a function `remove_spaces(s)` that returns the string `s` with all space characters "
    "removed.",
    TEXTS,
)
def remove_spaces(s):
    return s.replace(" ", "")


@FAMILY_CLEAN.add(
    "easy",
    "Write a function `remove_digits(s)` that returns the string `s` with all digits 0-9 removed.",
    ["abc123", "", "no digits", "2024-01-15", "R2D2", "1a2b3c", "007 Bond", "x"],
)
def remove_digits(s):
    return "".join(c for c in s if not c.isdigit())


@FAMILY_CLEAN.add(
    "easy",
    "Write a function `only_letters(s)` that returns a string made of just the letters of `s`, "
    "in their original order (no digits, spaces or punctuation).",
    TEXTS,
)
def only_letters(s):
    return "".join(c for c in s if c.isalpha())


@FAMILY_CLEAN.add(
    "medium",
    "Write a function `collapse_spaces(s)` that returns the string `s` with leading and trailing "
    "spaces removed and every run of several spaces inside it replaced by a single space.",
    ["  hello   world  ", "", "a  b", "nothing", "   ", " one two  three   four ", "x", "a b"],
)
def collapse_spaces(s):
    return " ".join(s.split())


@FAMILY_CLEAN.add(
    "easy",
    "Write a function `replace_spaces(s)` that returns the string `s` with every space replaced "
    "by an underscore '_'.",
    ["hello world", "", "no_space", " a b ", "one two three", "  ", "x", "tab\tstays"],
)
def replace_spaces(s):
    return s.replace(" ", "_")


@FAMILY_CLEAN.add(
    "easy",
    "Write a function `strip_punctuation(s)` that returns the string `s` without the characters "
    "'.', ',', '!', '?', ';' and ':'.",
    [
        "Hello, world!",
        "",
        "No punctuation",
        "Wait... what?!",
        "a;b:c",
        "x",
        "Yes. No. Maybe?",
        "1,000",
    ],
)
def strip_punctuation(s):
    return "".join(c for c in s if c not in ".,!?;:")


FAMILY_PREDICATES = Family("string-predicates", "train")


@FAMILY_PREDICATES.add(
    "easy",
    "Write a function `starts_with_vowel(s)` that returns True if the string `s` starts with a "
    "vowel (a, e, i, o or u, in either case) and False otherwise, including for an empty string.",
    ["apple", "banana", "", "Orange", "umbrella", "xylophone", "E", "1a"],
)
def starts_with_vowel(s):
    return s[:1].lower() in ("a", "e", "i", "o", "u")


@FAMILY_PREDICATES.add(
    "easy",
    "Write a function `is_all_digits(s)` that returns True if the string `s` is non-empty and "
    "every character is a digit 0-9, and False otherwise.",
    ["12345", "12a45", "", "0", "3.14", " 12", "007", "-5"],
)
def is_all_digits(s):
    return s != "" and all(c in "0123456789" for c in s)


@FAMILY_PREDICATES.add(
    "easy",
    "Write a function `has_uppercase(s)` that returns True if the string `s` contains at least "
    "one uppercase letter, and False otherwise.",
    ["hello", "Hello", "", "123", "abC", "ALL", "no caps here", "x Y z"],
)
def has_uppercase(s):
    return any(c.isupper() for c in s)


@FAMILY_PREDICATES.add(
    "easy",
    "Write a function `contains_word(sentence, word)` that returns True if `word` is one of the "
    "space-separated words of `sentence` (exact, case-sensitive match), and False otherwise.",
    [
        ("the cat sat", "cat"),
        ("the cat sat", "ca"),
        ("", "cat"),
        ("concatenate", "cat"),
        ("Cat and dog", "cat"),
        ("one two three", "three"),
        ("a", "a"),
        ("hello world", "world!"),
    ],
)
def contains_word(sentence, word):
    return word in sentence.split()


@FAMILY_PREDICATES.add(
    "easy",
    "Write a function `all_unique_chars(s)` that returns True if no character appears more than "
    "once in the string `s`, and False otherwise. An empty string has only unique characters.",
    ["abc", "hello", "", "a", "abcdefa", "AaBb", "12345", "  "],
)
def all_unique_chars(s):
    return len(set(s)) == len(s)


@FAMILY_PREDICATES.add(
    "medium",
    "Write a function `is_pangram(s)` that returns True if the string `s` contains every letter "
    "of the English alphabet at least once, ignoring case, and False otherwise.",
    [
        "The quick brown fox jumps over the lazy dog",
        "Hello world",
        "",
        "abcdefghijklmnopqrstuvwxyz",
        "ABCDEFGHIJKLMNOPQRSTUVWXY",
        "Pack my box with five dozen liquor jugs!",
        "abcdefghijklm nopqrstuvwxy",
        "Sphinx of black quartz, judge my vow",
    ],
)
def is_pangram(s):
    return set("abcdefghijklmnopqrstuvwxyz") <= set(s.lower())


@FAMILY_PREDICATES.add(
    "easy",
    "Write a function `ends_with(s, suffix)` that returns True if the string `s` ends with the "
    "string `suffix`, and False otherwise. Every string ends with the empty suffix.",
    [
        ("hello.py", ".py"),
        ("hello.txt", ".py"),
        ("abc", ""),
        ("", "a"),
        ("running", "ing"),
        ("py", "hello.py"),
        ("Test", "st"),
        ("Test", "ST"),
    ],
)
def ends_with(s, suffix):
    return s.endswith(suffix)


FAMILY_BUILD = Family("string-building", "train")


@FAMILY_BUILD.add(
    "easy",
    "Write a function `repeat_string(s, n)` that returns the string `s` repeated `n` times. For "
    "`n` equal to 0 return an empty string.",
    [("ab", 3), ("x", 0), ("", 5), ("hi ", 2), ("abc", 1), ("-", 10), ("ok", 4), ("z", 2)],
)
def repeat_string(s, n):
    return s * n


@FAMILY_BUILD.add(
    "easy",
    "Write a function `join_with_dashes(words)` that returns the strings of the list `words` "
    "joined with '-' between them. An empty list gives an empty string.",
    [
        ["a", "b", "c"],
        [],
        ["solo"],
        ["2024", "01", "15"],
        ["x", ""],
        ["hello", "world"],
        ["", ""],
        ["a b", "c"],
    ],
)
def join_with_dashes(words):
    return "-".join(words)


@FAMILY_BUILD.add(
    "easy",
    "Write a function `initials(name)` that takes a full name made of words separated by single "
    "spaces and returns the upper-case first letter of each word followed by a dot, e.g. 'ada "
    "lovelace' gives 'A.L.'.",
    [
        "ada lovelace",
        "Alan Mathison Turing",
        "grace",
        "j r r tolkien",
        "X Y",
        "mary ann evans",
        "Bo",
        "linus benedict torvalds",
    ],
)
def initials(name):
    return "".join(w[0].upper() + "." for w in name.split(" "))


@FAMILY_BUILD.add(
    "easy",
    "Write a function `wrap_in_brackets(s)` that returns the string `s` surrounded by square "
    "brackets, e.g. 'hi' gives '[hi]'.",
    ["hi", "", "a b", "[x]", "123", "long text here", "!", "z"],
)
def wrap_in_brackets(s):
    return "[" + s + "]"


@FAMILY_BUILD.add(
    "easy",
    "Write a function `greet(name)` that returns the greeting 'Hello, NAME!' for the given name. "
    "If `name` is an empty string, return 'Hello, stranger!'.",
    ["Ada", "", "Bob", "world", "x", "Dr. Who", "Alice Smith", "42"],
)
def greet(name):
    return f"Hello, {name or 'stranger'}!"


@FAMILY_BUILD.add(
    "medium",
    "Write a function `pad_number(n, width)` that returns the non-negative integer `n` as a "
    "string padded on the left with zeros to at least `width` characters. Numbers that are "
    "already long enough are returned unchanged as strings.",
    [(7, 3), (123, 2), (0, 4), (42, 5), (99999, 5), (5, 1), (10, 3), (0, 0)],
)
def pad_number(n, width):
    return str(n).zfill(width)


@FAMILY_BUILD.add(
    "easy",
    "Write a function `make_sentence(words)` that joins the list of strings `words` with single "
    "spaces and adds a full stop '.' at the end. An empty list gives just '.'.",
    [
        ["I", "like", "tea"],
        [],
        ["Hello"],
        ["this", "is", "fine"],
        ["a", "b"],
        ["Go"],
        ["x", "y", "z"],
        ["The", "end"],
    ],
)
def make_sentence(words):
    return " ".join(words) + "."


FAMILY_SLICE = Family("string-slicing", "train")


@FAMILY_SLICE.add(
    "easy",
    "Write a function `first_and_last(s)` that returns a string made of the first and the last "
    "character of `s`. For a one-character string return that character twice; for an empty "
    "string return ''.",
    ["hello", "a", "", "ab", "Python", "xyz", "racecar", "Qz"],
)
def first_and_last(s):
    return s[:1] + s[-1:] if s else ""


@FAMILY_SLICE.add(
    "easy",
    "Write a function `last_n_chars(s, n)` that returns the last `n` characters of the string "
    "`s`, or all of `s` if it is shorter than `n`. For `n` equal to 0 return ''.",
    [
        ("hello", 3),
        ("hi", 5),
        ("abc", 0),
        ("", 2),
        ("python", 1),
        ("abcdef", 6),
        ("xyz", 2),
        ("a", 1),
    ],
)
def last_n_chars(s, n):
    return s[len(s) - n :] if n < len(s) else s


@FAMILY_SLICE.add(
    "medium",
    "Write a function `middle(s)` that returns the middle character of the string `s` if its "
    "length is odd, or the two middle characters if its length is even. Return '' for an empty "
    "string.",
    ["abc", "abcd", "", "a", "hello", "python", "ab", "racecar"],
)
def middle(s):
    if not s:
        return ""
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else s[mid - 1 : mid + 1]


@FAMILY_SLICE.add(
    "easy",
    "Write a function `strip_ends(s)` that returns the string `s` without its first and last "
    "characters. Strings shorter than 3 characters give ''.",
    ["hello", "ab", "", "abc", "[x]", "a", "python", "(tuple)"],
)
def strip_ends(s):
    return s[1:-1] if len(s) >= 3 else ""


@FAMILY_SLICE.add(
    "easy",
    "Write a function `every_other_char(s)` that returns the characters of `s` at even indexes "
    "(0, 2, 4, ...) as a string.",
    ["abcdef", "", "a", "hello world", "ab", "123456789", "xyz", "PYTHON"],
)
def every_other_char(s):
    return s[::2]


@FAMILY_SLICE.add(
    "easy",
    "Write a function `first_word(s)` that returns the first word of the sentence `s`, whose "
    "words are separated by single spaces. Return '' for an empty string.",
    ["hello world", "", "single", "the quick fox", "a b", "Python is fun", "x", "42 is the answer"],
)
def first_word(s):
    return s.split(" ")[0]


FAMILY_WORDS = Family("word-statistics", "train")

SENTENCES = [
    "the quick brown fox",
    "",
    "hello",
    "a bb ccc bb a",
    "jumps over the lazy dog",
    "I am here",
    "one three five seven",
    "same size word",
]


@FAMILY_WORDS.add(
    "easy",
    "Write a function `count_words(s)` that returns the number of words in the string `s`, "
    "where words are separated by one or more spaces. An empty or all-space string has 0 words.",
    [
        "hello world",
        "",
        "one",
        "  lots   of   space  ",
        "a b c d e",
        "   ",
        "Python is fun",
        "x  y",
    ],
)
def count_words(s):
    return len(s.split())


@FAMILY_WORDS.add(
    "easy",
    "Write a function `longest_word(s)` that returns the longest word of the sentence `s` "
    "(words separated by single spaces). If several words share the greatest length, return the "
    "first of them; return '' for an empty string.",
    SENTENCES,
)
def longest_word(s):
    best = ""
    for w in s.split():
        if len(w) > len(best):
            best = w
    return best


@FAMILY_WORDS.add(
    "easy",
    "Write a function `shortest_word(s)` that returns the shortest word of the sentence `s` "
    "(words separated by single spaces). If several words share the smallest length, return the "
    "first of them; return '' for an empty string.",
    SENTENCES,
)
def shortest_word(s):
    words = s.split()
    if not words:
        return ""
    best = words[0]
    for w in words:
        if len(w) < len(best):
            best = w
    return best


@FAMILY_WORDS.add(
    "easy",
    "Write a function `word_lengths(s)` that returns a list with the length of each word of the "
    "sentence `s` (words separated by single spaces), in order. An empty string gives [].",
    SENTENCES,
)
def word_lengths(s):
    return [len(w) for w in s.split()]


@FAMILY_WORDS.add(
    "easy",
    "Write a function `count_capitalized(s)` that returns how many words of the sentence `s` "
    "(words separated by single spaces) start with an uppercase letter.",
    [
        "Hello World",
        "",
        "hello world",
        "I met Ada and Alan",
        "ALL CAPS here",
        "x Y z",
        "Paris",
        "one Two three Four",
    ],
)
def count_capitalized(s):
    return sum(1 for w in s.split() if w[0].isupper())


@FAMILY_WORDS.add(
    "medium",
    "Write a function `most_frequent_word(s)` that returns the word that occurs most often in "
    "the sentence `s` (words separated by single spaces, case-sensitive). If several words tie, "
    "return the one that appears first in the sentence; return '' for an empty string.",
    [
        "a b a c b a",
        "",
        "hello",
        "x y z",
        "the cat and the hat",
        "b a b a",
        "one two two three three",
        "A a a",
    ],
)
def most_frequent_word(s):
    words = s.split()
    best = ""
    for w in words:
        if words.count(w) > words.count(best):
            best = w
    return best
