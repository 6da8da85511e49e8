"""More test families (kinds of task no train family has): text lines, scores, ages and years,
temperatures."""

from __future__ import annotations

from core_families import CoreFamily

TEXTS = [
    "one\ntwo\nthree",
    "single",
    "a\nb",
    "",
    "first line\nsecond line",
    "x\n\ny",
    "end\n",
    "alpha\nbeta\ngamma\ndelta",
    "hi there",
]
FAMILY_LINES = CoreFamily("text-lines", "test")
FAMILY_LINES.line(
    "split_lines", "text", "text.split('\\n')",
    "the list of the lines of the string `text`, split at every newline character '\\n'", TEXTS,
)  # fmt: skip
FAMILY_LINES.line(
    "count_lines", "text", "text.count('\\n') + 1",
    "the number of lines of the string `text`: its number of newline characters '\\n' plus one", TEXTS,
)  # fmt: skip
FAMILY_LINES.line(
    "first_line", "text", "text.split('\\n')[0]",
    "the first line of the string `text` (the part before the first newline '\\n')", TEXTS,
)  # fmt: skip
FAMILY_LINES.line(
    "last_line", "text", "text.split('\\n')[-1]",
    "the last line of the string `text` (the part after the last newline '\\n')", TEXTS,
)  # fmt: skip
FAMILY_LINES.line(
    "join_lines", "lines", "'\\n'.join(lines)",
    "the strings of the list `lines` joined with a newline character '\\n' between them",
    [["a", "b"], [], ["one"], ["x", "y", "z"], ["", ""], ["hello", "world", "!"], ["1", "22"], ["q", ""], ["top", "mid", "low", "end"]],
)  # fmt: skip

SCORES = [
    [50, 70, 90],
    [],
    [10],
    [100, 0],
    [45, 55, 65, 75],
    [30, 30, 30],
    [99, 1, 50],
    [80, 20],
    [49, 51],
]
NONEMPTY_SCORES = [s for s in SCORES if s]
FAMILY_SCORES = CoreFamily("grades-and-scores", "test")
FAMILY_SCORES.line(
    "best_score",
    "scores",
    "max(scores)",
    "the highest score in the non-empty list `scores`",
    NONEMPTY_SCORES,
)
FAMILY_SCORES.line(
    "average_score", "scores", "sum(scores) // len(scores)",
    "the average of the non-empty list `scores`, rounded down", NONEMPTY_SCORES,
)  # fmt: skip
FAMILY_SCORES.line(
    "count_passing", "scores", "sum(1 for s in scores if s >= 50)",
    "how many scores in the list `scores` are at least 50", SCORES,
)  # fmt: skip
FAMILY_SCORES.line(
    "percent", "part, total", "part * 100 // total",
    "`part` out of `total` as a whole percentage, rounded down (`part * 100 // total`)",
    [(1, 2), (0, 5), (3, 4), (10, 10), (1, 3), (7, 8), (2, 5), (9, 20), (4, 7)],
)  # fmt: skip
FAMILY_SCORES.line(
    "score_spread", "scores", "max(scores) - min(scores)",
    "the highest minus the lowest score of the non-empty list `scores`", NONEMPTY_SCORES,
)  # fmt: skip

FAMILY_YEARS = CoreFamily("ages-and-years", "test")
FAMILY_YEARS.line(
    "is_adult", "age", "age >= 18", "True if a person of age `age` is 18 or older, else False",
    [18, 17, 0, 30, 65, 12, 19, 5, 40],
)  # fmt: skip
BORN = [
    (2000, 2024),
    (1990, 2000),
    (2024, 2024),
    (1950, 2025),
    (2010, 2020),
    (1985, 2023),
    (2001, 2002),
    (1970, 2000),
    (2015, 2024),
]
FAMILY_YEARS.line(
    "age_in_year", "born, year", "year - born",
    "the age in the year `year` of a person born in the year `born` (ignore birthdays)", BORN,
)  # fmt: skip
FAMILY_YEARS.line(
    "birth_year", "age, year", "year - age",
    "the year a person was born if they are `age` years old in the year `year` (ignore birthdays)",
    [(24, 2024), (10, 2000), (0, 2024), (75, 2025), (10, 2020), (38, 2023), (1, 2002), (30, 2000), (9, 2024)],
)  # fmt: skip
YEARS = [1999, 2000, 2024, 1985, 2010, 1901, 2100, 1776, 2023]
FAMILY_YEARS.line(
    "decade_of",
    "year",
    "year // 10 * 10",
    "the first year of the decade of `year` (1987 -> 1980)",
    YEARS,
)
FAMILY_YEARS.line(
    "years_until", "year, target", "target - year",
    "how many years from the year `year` until the year `target`", BORN,
)  # fmt: skip

TEMPS = [0, 100, 37, -40, 25, 10, -5, 60, 20]
FAMILY_TEMPS = CoreFamily("temperatures", "test")
FAMILY_TEMPS.line(
    "celsius_to_fahrenheit", "c", "c * 9 // 5 + 32",
    "the Celsius temperature `c` in Fahrenheit, computed as `c * 9 // 5 + 32`", TEMPS,
)  # fmt: skip
FAMILY_TEMPS.line(
    "celsius_to_kelvin",
    "c",
    "c + 273",
    "the Celsius temperature `c` in Kelvin, rounded: `c + 273`",
    TEMPS,
)
FAMILY_TEMPS.line(
    "is_freezing",
    "c",
    "c <= 0",
    "True if the Celsius temperature `c` is at or below freezing (0), else False",
    TEMPS,
)
FAMILY_TEMPS.line(
    "temperature_change", "before, after", "after - before",
    "how much the temperature went up from `before` to `after` (negative if it went down)",
    [(10, 15), (20, 20), (5, -3), (-10, 0), (30, 25), (0, 100), (18, 22), (-5, -8), (12, 30)],
)  # fmt: skip
FAMILY_TEMPS.line(
    "warmest", "temps", "max(temps)", "the highest temperature in the non-empty list `temps`",
    [[3, 8, 1], [-5, -2, -9], [20], [15, 15], [0, 10, 5], [30, 31, 29], [-1, 0], [12, 7, 19, 4], [25, 18]],
)  # fmt: skip
