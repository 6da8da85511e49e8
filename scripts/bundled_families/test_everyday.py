"""Test families from everyday chores: dates, grades, passwords, shopping, clocks, money, shapes."""

from __future__ import annotations

from bundled_families import Family

FAMILY_CALENDAR = Family("calendar-and-leap-years", "test")


@FAMILY_CALENDAR.add(
    "easy",
    "Write a function `is_leap_year(year)` that returns True if `year` is a leap year in the "
    "Gregorian calendar: divisible by 4, except years divisible by 100 that are not divisible by "
    "400. Return False otherwise.",
    [2024, 2023, 1900, 2000, 2100, 1996, 2400, 1],
)
def is_leap_year(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


@FAMILY_CALENDAR.add(
    "medium",
    "Write a function `days_in_month(month, year)` that returns the number of days in month "
    "`month` (1 = January, ..., 12 = December) of the Gregorian year `year`, taking leap years "
    "into account for February.",
    [
        (1, 2023),
        (2, 2023),
        (2, 2024),
        (4, 2023),
        (2, 1900),
        (2, 2000),
        (12, 1999),
        (9, 2020),
        (6, 2021),
    ],
)
def days_in_month(month, year):
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


@FAMILY_CALENDAR.add(
    "easy",
    "Write a function `century(year)` that returns the century the positive year `year` belongs "
    "to: years 1 to 100 are the 1st century, 101 to 200 the 2nd, so 1900 is in the 19th and 1901 "
    "in the 20th.",
    [1905, 1700, 1, 2000, 2001, 100, 101, 89],
)
def century(year):
    return (year + 99) // 100


@FAMILY_CALENDAR.add(
    "medium",
    "Write a function `day_of_year(day, month, year)` that returns the position of the date within "
    "its year, where 1 January is day 1 and leap years (Gregorian rule) have a 29 February.",
    [
        (1, 1, 2023),
        (1, 3, 2023),
        (1, 3, 2024),
        (31, 12, 2023),
        (31, 12, 2024),
        (15, 2, 2000),
        (1, 3, 1900),
        (10, 10, 2010),
    ],
)
def day_of_year(day, month, year):
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    lengths = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return sum(lengths[: month - 1]) + day


@FAMILY_CALENDAR.add(
    "easy",
    "Write a function `is_weekend(day)` that returns True if the English day name `day` (such as "
    "'Monday') is 'Saturday' or 'Sunday', ignoring letter case, and False otherwise.",
    ["Saturday", "Monday", "sunday", "Friday", "SUNDAY", "Wednesday", "saturday", "Tuesday"],
)
def is_weekend(day):
    return day.lower() in ("saturday", "sunday")


@FAMILY_CALENDAR.add(
    "easy",
    "Write a function `days_in_year(year)` that returns 366 if the Gregorian year `year` is a leap "
    "year (divisible by 4, except century years not divisible by 400) and 365 otherwise.",
    [2024, 2023, 1900, 2000, 2100, 1996, 2400, 2019],
)
def days_in_year(year):
    return 366 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 365


FAMILY_GRADES = Family("grades-and-scoring", "test")


@FAMILY_GRADES.add(
    "easy",
    "Write a function `letter_grade(score)` that turns a score from 0 to 100 into a letter: 'A' "
    "for 90 and above, 'B' for 80-89, 'C' for 70-79, 'D' for 60-69 and 'F' below 60.",
    [95, 85, 59, 90, 70, 100, 0, 69, 80, 75],
)
def letter_grade(score):
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    return "D" if score >= 60 else "F"


@FAMILY_GRADES.add(
    "medium",
    "Write a function `scrabble_score(word)` that returns the Scrabble score of `word`, ignoring "
    "case: A, E, I, O, U, L, N, R, S, T are worth 1; D, G 2; B, C, M, P 3; F, H, V, W, Y 4; K 5; "
    "J, X 8; Q, Z 10. An empty word scores 0.",
    ["cabbage", "", "a", "Quiz", "hello", "JAZZ", "street", "oxyphenbutazone"],
)
def scrabble_score(word):
    values = {}
    for letters, points in [
        ("aeioulnrst", 1),
        ("dg", 2),
        ("bcmp", 3),
        ("fhvwy", 4),
        ("k", 5),
        ("jx", 8),
        ("qz", 10),
    ]:
        for letter in letters:
            values[letter] = points
    return sum(values[c] for c in word.lower())


@FAMILY_GRADES.add(
    "easy",
    "Write a function `total_without_lowest(scores)` that returns the sum of the list of integer "
    "scores `scores` after dropping one lowest score. A list with fewer than two scores gives 0.",
    [[7, 3, 9], [5], [], [4, 4, 4], [10, 0, 10, 0], [1, 2], [8, 6, 7, 5], [-2, 3]],
)
def total_without_lowest(scores):
    if len(scores) < 2:
        return 0
    return sum(scores) - min(scores)


@FAMILY_GRADES.add(
    "easy",
    "Write a function `tennis_score(points)` that returns how a tennis umpire calls a player's "
    "number of points won in a game: 0 is 'love', 1 is '15', 2 is '30', 3 is '40', and 4 or more "
    "is 'game'.",
    [0, 2, 5, 1, 3, 4, 7, 10],
)
def tennis_score(points):
    calls = ["love", "15", "30", "40"]
    return calls[points] if points < 4 else "game"


FAMILY_VALIDATE = Family("input-validation", "test")


@FAMILY_VALIDATE.add(
    "easy",
    "Write a function `is_strong_password(p)` that returns True if the string `p` has at least 8 "
    "characters, contains at least one digit and at least one uppercase letter, and False "
    "otherwise.",
    ["Secret123", "secret123", "SECRET", "", "Abcdefg1", "Abc1", "PASSWORD9", "longpassword"],
)
def is_strong_password(p):
    return len(p) >= 8 and any(c.isdigit() for c in p) and any(c.isupper() for c in p)


@FAMILY_VALIDATE.add(
    "easy",
    "Write a function `is_valid_username(name)` that returns True if `name` is 3 to 12 characters "
    "long and uses only lowercase letters a-z, digits and underscores, and False otherwise.",
    [
        "alice_01",
        "Al",
        "",
        "bob",
        "this_is_far_too_long",
        "Alice",
        "x_y_z",
        "tom-cat",
        "abc123def456",
    ],
)
def is_valid_username(name):
    allowed = "abcdefghijklmnopqrstuvwxyz0123456789_"
    return 3 <= len(name) <= 12 and all(c in allowed for c in name)


@FAMILY_VALIDATE.add(
    "medium",
    "Write a function `is_hex_color(s)` that returns True if the string `s` is a '#' followed by "
    "exactly six hexadecimal digits (0-9, a-f, A-F), like '#1a2B3c', and False otherwise.",
    ["#1a2B3c", "#12345", "123456", "#ffffff", "#GGGGGG", "", "#000000", "#abcdef0"],
)
def is_hex_color(s):
    return len(s) == 7 and s[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in s[1:])


@FAMILY_VALIDATE.add(
    "easy",
    "Write a function `is_yes(answer)` that returns True if the user's answer `answer` means yes: "
    "'y' or 'yes' in any letter case, possibly with spaces around it. Anything else gives False.",
    ["yes", "no", "", " Y ", "YES", "yeah", "y", "  yEs", "n"],
)
def is_yes(answer):
    return answer.strip().lower() in ("y", "yes")


@FAMILY_VALIDATE.add(
    "easy",
    "Write a function `looks_like_email(s)` that returns True if the string `s` contains exactly "
    "one '@', has at least one character before it, and has a '.' somewhere after it; otherwise "
    "return False.",
    [
        "ada@example.com",
        "ada.example.com",
        "@example.com",
        "a@b.c",
        "a@@b.com",
        "",
        "me@home",
        "x.y@z.org",
    ],
)
def looks_like_email(s):
    if s.count("@") != 1:
        return False
    user, domain = s.split("@")
    return user != "" and "." in domain


FAMILY_SHOP = Family("shopping-and-prices", "test")


@FAMILY_SHOP.add(
    "easy",
    "Write a function `discounted_price(price, percent)` that returns the price in cents after a "
    "discount of `percent` percent, where the discount amount `price * percent // 100` is rounded "
    "down to whole cents.",
    [(1000, 10), (999, 50), (500, 0), (1234, 100), (250, 15), (0, 30), (199, 25), (10000, 5)],
)
def discounted_price(price, percent):
    return price - price * percent // 100


@FAMILY_SHOP.add(
    "easy",
    "Write a function `shipping_cost(weight)` that returns the shipping cost for a parcel of "
    "`weight` kilograms: 5 for up to 1 kg, 8 for more than 1 and up to 5 kg, and 15 for more than "
    "5 kg.",
    [1, 3, 7, 0, 5, 6, 2, 100],
)
def shipping_cost(weight):
    if weight <= 1:
        return 5
    return 8 if weight <= 5 else 15


@FAMILY_SHOP.add(
    "medium",
    "Write a function `max_items(prices, budget)` that returns the largest number of items from "
    "the list `prices` that can be bought with `budget` in total, buying each item at most once.",
    [
        ([20, 10, 5, 30], 35),
        ([], 100),
        ([50], 10),
        ([1, 1, 1], 3),
        ([8, 3, 6, 3], 9),
        ([100, 200], 300),
        ([7, 7, 7], 20),
        ([2, 4, 6, 8], 0),
    ],
)
def max_items(prices, budget):
    count = 0
    for p in sorted(prices):
        if p > budget:
            break
        budget -= p
        count += 1
    return count


@FAMILY_SHOP.add(
    "medium",
    "Write a function `split_bill(total, people)` that splits `total` cents among `people` people "
    "as evenly as possible and returns the list of shares; when it does not divide evenly, the "
    "first people in the list pay one cent more.",
    [(1000, 4), (1000, 3), (5, 5), (7, 2), (0, 3), (101, 4), (9, 1), (2, 5)],
)
def split_bill(total, people):
    share, extra = divmod(total, people)
    return [share + 1 if i < extra else share for i in range(people)]


FAMILY_CLOCK = Family("clock-times", "test")


@FAMILY_CLOCK.add(
    "easy",
    "Write a function `minutes_since_midnight(t)` that takes a time string 'HH:MM' in 24-hour "
    "format and returns the number of minutes since 00:00.",
    ["09:30", "00:00", "23:59", "12:00", "01:01", "18:45", "00:59", "10:10"],
)
def minutes_since_midnight(t):
    return int(t[:2]) * 60 + int(t[3:])


@FAMILY_CLOCK.add(
    "medium",
    "Write a function `add_minutes(t, minutes)` that returns the 24-hour time 'HH:MM' that is "
    "`minutes` minutes (a non-negative number) after the time string `t`, also 'HH:MM'; times wrap "
    "past midnight.",
    [
        ("09:30", 45),
        ("23:50", 20),
        ("00:00", 0),
        ("12:00", 1440),
        ("10:10", 125),
        ("23:59", 1),
        ("06:05", 600),
        ("18:00", 2000),
    ],
)
def add_minutes(t, minutes):
    total = (int(t[:2]) * 60 + int(t[3:]) + minutes) % 1440
    return f"{total // 60:02d}:{total % 60:02d}"


@FAMILY_CLOCK.add(
    "medium",
    "Write a function `to_24_hour(t)` that converts a 12-hour time like '2:05 PM' or '12:30 AM' "
    "(hour without padding, then minutes, a space and AM or PM) to 24-hour 'HH:MM', so '12:30 AM' "
    "gives '00:30' and '12:15 PM' gives '12:15'.",
    ["2:05 PM", "12:30 AM", "12:15 PM", "9:00 AM", "11:59 PM", "1:01 AM", "10:45 PM", "12:00 AM"],
)
def to_24_hour(t):
    clock, half = t.split(" ")
    hour, minute = clock.split(":")
    h = int(hour) % 12 + (12 if half == "PM" else 0)
    return f"{h:02d}:{minute}"


@FAMILY_CLOCK.add(
    "easy",
    "Write a function `is_valid_time(t)` that returns True if the string `t` is a valid 24-hour "
    "time 'HH:MM' (two digits, a colon, two digits, hours 00-23, minutes 00-59) and False "
    "otherwise.",
    ["09:30", "24:00", "12:60", "", "9:30", "23:59", "00:00", "ab:cd", "12-30"],
)
def is_valid_time(t):
    if len(t) != 5 or t[2] != ":" or not (t[:2] + t[3:]).isdigit():
        return False
    return int(t[:2]) < 24 and int(t[3:]) < 60


FAMILY_MONEY = Family("money-formatting", "test")


@FAMILY_MONEY.add(
    "medium",
    "Write a function `format_cents(cents)` that formats a non-negative amount of cents as "
    "dollars with a '$' sign and two decimals, e.g. 1205 gives '$12.05' and 7 gives '$0.07'.",
    [1205, 7, 0, 100, 99999, 50, 1010, 123456],
)
def format_cents(cents):
    return f"${cents // 100}.{cents % 100:02d}"


@FAMILY_MONEY.add(
    "medium",
    "Write a function `with_commas(n)` that returns the non-negative integer `n` as a string with "
    "a comma between each group of three digits, counted from the right, e.g. 1234567 gives "
    "'1,234,567'.",
    [1234567, 0, 999, 1000, 12, 100000, 98765, 1000000000],
)
def with_commas(n):
    digits = str(n)
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    return ",".join(groups)


@FAMILY_MONEY.add(
    "easy",
    "Write a function `parse_price(s)` that turns a price string like '$3.50' (a '$', whole "
    "dollars, a dot and exactly two digits of cents) into an integer number of cents.",
    ["$3.50", "$0.07", "$10.00", "$0.00", "$123.45", "$1.10", "$99.99", "$5.01"],
)
def parse_price(s):
    dollars, cents = s[1:].split(".")
    return int(dollars) * 100 + int(cents)


FAMILY_SHAPES = Family("integer-geometry", "test")


@FAMILY_SHAPES.add(
    "easy",
    "Write a function `rectangle_area(width, height)` that returns the area of a rectangle with "
    "the given whole-number width and height.",
    [(3, 4), (0, 5), (1, 1), (10, 2), (7, 7), (12, 3), (5, 0), (9, 11)],
)
def rectangle_area(width, height):
    return width * height


@FAMILY_SHAPES.add(
    "easy",
    "Write a function `rectangle_perimeter(width, height)` that returns the perimeter of a "
    "rectangle with the given whole-number width and height.",
    [(3, 4), (0, 5), (1, 1), (10, 2), (7, 7), (12, 3), (5, 0), (9, 11)],
)
def rectangle_perimeter(width, height):
    return 2 * (width + height)


@FAMILY_SHAPES.add(
    "easy",
    "Write a function `is_right_triangle(a, b, c)` that returns True if positive integers `a`, `b` "
    "and `c`, given in any order, can be the side lengths of a right triangle (the squares of "
    "the two shorter sides add up to the square of the longest), and False otherwise.",
    [(3, 4, 5), (5, 3, 4), (2, 3, 4), (5, 12, 13), (1, 1, 1), (13, 12, 5), (6, 8, 10), (6, 8, 11)],
)
def is_right_triangle(a, b, c):
    x, y, z = sorted([a, b, c])
    return x * x + y * y == z * z


@FAMILY_SHAPES.add(
    "easy",
    "Write a function `manhattan_distance(p, q)` that returns the Manhattan distance |x1 - x2| + "
    "|y1 - y2| between the points `p` = [x1, y1] and `q` = [x2, y2].",
    [
        ([0, 0], [3, 4]),
        ([1, 1], [1, 1]),
        ([-2, 3], [2, -3]),
        ([5, 0], [0, 0]),
        ([0, 7], [0, 2]),
        ([-1, -1], [-4, -5]),
        ([10, 10], [0, 0]),
        ([2, 3], [3, 2]),
    ],
)
def manhattan_distance(p, q):
    return abs(p[0] - q[0]) + abs(p[1] - q[1])


@FAMILY_SHAPES.add(
    "medium",
    "Write a function `triangle_type(a, b, c)` that classifies a triangle by its side lengths: "
    "return 'invalid' if the two shorter sides do not add up to more than the longest one, else "
    "'equilateral' if all sides are equal, 'isosceles' if exactly two are equal, and 'scalene' "
    "otherwise.",
    [(3, 3, 3), (3, 4, 5), (5, 5, 8), (1, 2, 3), (2, 2, 5), (7, 10, 7), (6, 6, 6), (2, 3, 4)],
)
def triangle_type(a, b, c):
    x, y, z = sorted([a, b, c])
    if x + y <= z:
        return "invalid"
    if x == z:
        return "equilateral"
    return "isosceles" if x == y or y == z else "scalene"


@FAMILY_SHAPES.add(
    "easy",
    "Write a function `quadrant(x, y)` that returns the quadrant (1, 2, 3 or 4) of the point "
    "(`x`, `y`): 1 when both are positive, 2 when x < 0 < y, 3 when both are negative and 4 when "
    "y < 0 < x. A point on an axis gives 0.",
    [(3, 4), (-3, 4), (-1, -1), (2, -5), (0, 7), (0, 0), (-8, 0), (10, 10), (5, -1)],
)
def quadrant(x, y):
    if x == 0 or y == 0:
        return 0
    if x > 0:
        return 1 if y > 0 else 4
    return 2 if y > 0 else 3


FAMILY_STOCK = Family("inventory-records", "test")


@FAMILY_STOCK.add(
    "medium",
    "Write a function `merge_inventories(a, b)` that combines two dictionaries mapping item names "
    "to quantities into one dictionary where each item's quantity is the sum of its quantities in "
    "`a` and `b` (an item missing from one counts as 0 there).",
    [
        ({"apple": 3, "pear": 1}, {"apple": 2, "fig": 5}),
        ({}, {}),
        ({"x": 1}, {}),
        ({}, {"y": 2}),
        ({"a": 1, "b": 2}, {"a": 1, "b": 2}),
        ({"nail": 10}, {"nail": -3}),
        ({"p": 0}, {"q": 0}),
        ({"k": 4}, {"m": 6}),
    ],
)
def merge_inventories(a, b):
    merged = dict(a)
    for item, qty in b.items():
        merged[item] = merged.get(item, 0) + qty
    return merged


@FAMILY_STOCK.add(
    "easy",
    "Write a function `restock_order(stock, target)` that takes a dictionary `stock` (item name "
    "-> quantity) and returns a dictionary with, for every item whose quantity is below `target`, "
    "how many units must be ordered to bring it up to `target`.",
    [
        ({"apple": 3, "pear": 10, "fig": 1}, 5),
        ({}, 5),
        ({"x": 5}, 5),
        ({"b": 0, "a": 0}, 1),
        ({"tea": 20}, 30),
        ({"m": 2, "n": 8, "o": 4}, 5),
        ({"z": 1}, 0),
        ({"c": 9, "d": 3}, 4),
    ],
)
def restock_order(stock, target):
    return {name: target - qty for name, qty in stock.items() if qty < target}


@FAMILY_STOCK.add(
    "easy",
    "Write a function `drop_sold_out(stock)` that returns a new dictionary with the entries of "
    "`stock` (item name -> quantity) whose quantity is greater than 0.",
    [
        {"apple": 3, "pear": 0},
        {},
        {"x": 0},
        {"a": 1, "b": 2},
        {"p": 0, "q": 0},
        {"tea": 20},
        {"m": 0, "n": 8, "o": 4},
        {"z": -1, "y": 1},
    ],
)
def drop_sold_out(stock):
    return {name: qty for name, qty in stock.items() if qty > 0}


FAMILY_BOARD = Family("board-games", "test")


@FAMILY_BOARD.add(
    "medium",
    "Write a function `tic_tac_toe_winner(board)` that takes a tic-tac-toe board as a list of three "
    "strings of three characters ('X', 'O' or '.') and returns 'X' or 'O' if that player has three "
    "in a row, column or diagonal, or '' if nobody has. At most one player has a line.",
    [
        ["XXX", "OO.", "..."],
        ["XO.", "XO.", ".O."],
        ["...", "...", "..."],
        ["XOX", "OXO", "OXX"],
        ["XOX", "XOO", "OXX"],
        ["..O", ".O.", "OXX"],
        ["X..", "X..", "X.."],
        ["OOX", "XXO", "OXO"],
    ],
)
def tic_tac_toe_winner(board):
    lines = [list(row) for row in board]
    lines += [[board[r][c] for r in range(3)] for c in range(3)]
    lines.append([board[i][i] for i in range(3)])
    lines.append([board[i][2 - i] for i in range(3)])
    for line in lines:
        if line[0] != "." and line[0] == line[1] == line[2]:
            return line[0]
    return ""


@FAMILY_BOARD.add(
    "easy",
    "Write a function `rook_attacks(r1, c1, r2, c2)` that returns True if a chess rook on row `r1`, "
    "column `c1` attacks the square at row `r2`, column `c2` on an empty board, i.e. the squares "
    "are different and share a row or a column; otherwise return False.",
    [
        (1, 1, 1, 8),
        (1, 1, 2, 2),
        (4, 5, 7, 5),
        (3, 3, 3, 3),
        (8, 1, 1, 1),
        (2, 7, 6, 3),
        (5, 5, 5, 6),
        (1, 2, 3, 4),
    ],
)
def rook_attacks(r1, c1, r2, c2):
    return (r1, c1) != (r2, c2) and (r1 == r2 or c1 == c2)


@FAMILY_BOARD.add(
    "medium",
    "Write a function `king_moves(row, col)` that returns how many squares a chess king standing on "
    "row `row` and column `col` (both from 1 to 8) of an empty 8x8 board can move to.",
    [(1, 1), (4, 4), (1, 5), (8, 8), (8, 3), (2, 2), (5, 1), (7, 6)],
)
def king_moves(row, col):
    count = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 1 <= row + dr <= 8 and 1 <= col + dc <= 8:
                count += 1
    return count


@FAMILY_BOARD.add(
    "easy",
    "Write a function `square_color(row, col)` that returns the colour, 'black' or 'white', of the "
    "square at row `row` and column `col` (both from 1 to 8) of a chessboard whose square at row 1, "
    "column 1 is black; neighbouring squares always have different colours.",
    [(1, 1), (1, 2), (2, 1), (8, 8), (4, 5), (3, 3), (7, 2), (6, 3)],
)
def square_color(row, col):
    return "black" if (row + col) % 2 == 0 else "white"
