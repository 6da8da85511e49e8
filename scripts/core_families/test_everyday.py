"""Test families (kinds of task no train family has): units, geometry, money, clocks, formatting."""

from __future__ import annotations

from core_families import NATURALS, CoreFamily

FAMILY_UNITS = CoreFamily("unit-conversions", "test")
for fn, what, factor in [
    ("minutes_to_seconds", "the number of seconds in `x` minutes", 60),
    ("hours_to_minutes", "the number of minutes in `x` hours", 60),
    ("days_to_hours", "the number of hours in `x` days", 24),
    ("weeks_to_days", "the number of days in `x` weeks", 7),
    ("meters_to_centimeters", "the number of centimeters in `x` meters", 100),
    ("kilometers_to_meters", "the number of meters in `x` kilometers", 1000),
    ("feet_to_inches", "the number of inches in `x` feet (12 inches per foot)", 12),
    ("dozens_to_items", "the number of items in `x` dozens", 12),
]:
    FAMILY_UNITS.line(fn, "x", f"x * {factor}", what, NATURALS)
for fn, what, factor in [
    ("seconds_to_minutes", "the number of whole minutes in `x` seconds (rounded down)", 60),
    ("centimeters_to_meters", "the number of whole meters in `x` centimeters (rounded down)", 100),
    ("days_to_weeks", "the number of whole weeks in `x` days (rounded down)", 7),
]:
    FAMILY_UNITS.line(fn, "x", f"x // {factor}", what, [0, 59, 60, 125, 700, 1000, 7, 14, 99, 3600])

FAMILY_GEOMETRY = CoreFamily("integer-geometry", "test")
SIDES = [(3, 4), (0, 5), (10, 10), (1, 1), (7, 2), (12, 5), (6, 9), (8, 8), (2, 15)]
FAMILY_GEOMETRY.line(
    "rectangle_area", "w, h", "w * h", "the area of a rectangle of width `w` and height `h`", SIDES
)
FAMILY_GEOMETRY.line(
    "rectangle_perimeter",
    "w, h",
    "2 * (w + h)",
    "the perimeter of a rectangle of width `w` and height `h`",
    SIDES,
)
FAMILY_GEOMETRY.line(
    "square_area",
    "side",
    "side * side",
    "the area of a square with sides of length `side`",
    NATURALS,
)
FAMILY_GEOMETRY.line(
    "square_perimeter",
    "side",
    "4 * side",
    "the perimeter of a square with sides of length `side`",
    NATURALS,
)
FAMILY_GEOMETRY.line(
    "cube_volume", "side", "side ** 3", "the volume of a cube with edges of length `side`", NATURALS
)
FAMILY_GEOMETRY.line(
    "box_volume",
    "a, b, c",
    "a * b * c",
    "the volume of a box with edges `a`, `b` and `c`",
    [
        (1, 2, 3),
        (2, 2, 2),
        (0, 4, 5),
        (10, 1, 1),
        (3, 3, 4),
        (5, 6, 7),
        (2, 5, 10),
        (9, 1, 2),
        (4, 4, 1),
    ],
)
FAMILY_GEOMETRY.line(
    "is_square",
    "w, h",
    "w == h",
    "True if a rectangle of width `w` and height `h` is a square, else False",
    SIDES,
)
FAMILY_GEOMETRY.line(
    "triangle_area_doubled",
    "base, height",
    "base * height",
    "twice the area of a triangle with base `base` and height `height` (that is, base times height)",
    SIDES,
)

FAMILY_MONEY = CoreFamily("money-and-prices", "test")
FAMILY_MONEY.line(
    "total_price",
    "price, quantity",
    "price * quantity",
    "the total cost of `quantity` items that cost `price` each",
    SIDES,
)
FAMILY_MONEY.line(
    "change_due",
    "paid, price",
    "paid - price",
    "the change to give back when `paid` is paid for something that costs `price`",
    [(10, 4), (5, 5), (20, 13), (100, 1), (7, 0), (50, 25), (40, 32), (9, 8), (15, 6)],
)
FAMILY_MONEY.line(
    "cents_to_dollars",
    "cents",
    "cents // 100",
    "the number of whole dollars in `cents` cents (rounded down)",
    [0, 99, 100, 250, 1000, 1999, 5, 420, 301],
)
FAMILY_MONEY.line(
    "dollars_to_cents",
    "dollars",
    "dollars * 100",
    "the number of cents in `dollars` dollars",
    NATURALS,
)
FAMILY_MONEY.line(
    "can_afford",
    "money, price",
    "money >= price",
    "True if `money` is enough to pay `price` (at least as much), else False",
    [(10, 4), (5, 5), (3, 13), (100, 1), (0, 1), (25, 50), (8, 9), (70, 20), (2, 3)],
)
FAMILY_MONEY.line(
    "price_tag",
    "price",
    "'$' + str(price)",
    "the string '$' followed by the integer `price` (for example '$5')",
    NATURALS,
)
FAMILY_MONEY.line(
    "half_price", "price", "price // 2", "half of the integer `price`, rounded down", NATURALS
)

FAMILY_CLOCK = CoreFamily("clock-times", "test")
FAMILY_CLOCK.line(
    "to_minutes",
    "hours, minutes",
    "hours * 60 + minutes",
    "the total number of minutes in `hours` hours and `minutes` minutes",
    [(1, 30), (0, 0), (2, 5), (0, 59), (10, 10), (23, 59), (5, 0), (12, 1), (3, 45)],
)
FAMILY_CLOCK.line(
    "minutes_past_hour",
    "m",
    "m % 60",
    "the minutes past the hour after `m` minutes (`m % 60`)",
    [0, 59, 60, 125, 700, 61, 30, 200, 1439],
)
FAMILY_CLOCK.line(
    "whole_hours",
    "m",
    "m // 60",
    "the number of whole hours in `m` minutes",
    [0, 59, 60, 125, 700, 61, 30, 200, 1439],
)
FAMILY_CLOCK.line(
    "is_morning",
    "hour",
    "hour < 12",
    "True if the hour `hour` (0 to 23) is before 12, else False",
    [0, 11, 12, 23, 6, 13, 9, 18, 3],
)
FAMILY_CLOCK.line(
    "is_weekend",
    "day",
    "day in ('Saturday', 'Sunday')",
    "True if the day name `day` is 'Saturday' or 'Sunday', else False",
    ["Monday", "Sunday", "Saturday", "Friday", "Tuesday", "sunday", "Wednesday", "Thursday", "Sat"],
)
FAMILY_CLOCK.line(
    "next_hour",
    "hour",
    "(hour + 1) % 24",
    "the hour after `hour` on a 24-hour clock (after 23 comes 0)",
    [0, 11, 23, 12, 22, 5, 18, 9, 1],
)

FAMILY_FORMAT = CoreFamily("number-formatting", "test")
FAMILY_FORMAT.line(
    "number_to_text",
    "n",
    "str(n)",
    "the integer `n` as a string",
    [4, 0, -3, 7, 10, 125, -40, 99, 2024],
)
FAMILY_FORMAT.line(
    "count_digits_of",
    "n",
    "len(str(n))",
    "how many digits the non-negative integer `n` has",
    NATURALS,
)
FAMILY_FORMAT.line(
    "digit_sum",
    "n",
    "sum(int(d) for d in str(n))",
    "the sum of the digits of the non-negative integer `n`",
    NATURALS,
)
FAMILY_FORMAT.line(
    "pad_to_three",
    "n",
    "str(n).zfill(3)",
    "the non-negative integer `n` as a string padded with zeros on the left to 3 characters (`str(n).zfill(3)`)",
    NATURALS,
)
FAMILY_FORMAT.line(
    "first_digit",
    "n",
    "int(str(n)[0])",
    "the first (leftmost) digit of the non-negative integer `n`",
    NATURALS,
)
FAMILY_FORMAT.line(
    "label_items",
    "n",
    "str(n) + ' items'",
    "the integer `n` as a string followed by ' items' (for example '3 items')",
    NATURALS,
)
FAMILY_FORMAT.line(
    "text_to_number",
    "s",
    "int(s)",
    "the integer written in the string `s` (`int(s)`)",
    ["42", "0", "-7", "100", "5", "2024", "13", "-250", "8"],
)
