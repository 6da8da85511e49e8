"""Extra test families (kinds of task no train family states): sports scores, recipes, distances
and speeds, parking and tickets, seats and rows, weather readings, shopping carts, passwords."""

from __future__ import annotations

from core_families import CoreFamily

MATCHES = [(2, 1), (0, 0), (1, 3), (4, 4), (5, 0), (0, 2), (3, 2), (1, 1), (2, 5), (6, 3)]
FAMILY_SPORTS = CoreFamily("sports-scores", "test")
for fn, expr, returns in [
    ("goal_difference", "home - away", "the goal difference `home - away` of a match that ended `home` goals to `away` goals"),
    ("total_goals", "home + away", "how many goals were scored in all in a match that ended `home` goals to `away` goals"),
    ("home_team_won", "home > away", "True if the home team won a match that ended `home` goals to `away` goals (it scored more), else False"),
    ("is_draw", "home == away", "True if a match that ended `home` goals to `away` goals was a draw (equal scores), else False"),
    ("winning_margin", "abs(home - away)", "by how many goals the winner of a match that ended `home` to `away` won (0 for a draw)"),
    ("match_result", "'win' if home > away else 'draw' if home == away else 'loss'", "'win' if `home` is greater than `away`, 'draw' if they are equal, and 'loss' otherwise, for the final score of a match"),
]:  # fmt: skip
    FAMILY_SPORTS.line(fn, "home, away", expr, returns, MATCHES)
FAMILY_SPORTS.line(
    "league_points", "wins, draws", "wins * 3 + draws",
    "the league points of a team with `wins` wins and `draws` draws, at 3 points per win and 1 point per draw",
    [(2, 1), (0, 0), (1, 3), (4, 4), (5, 0), (0, 2), (10, 2), (7, 1), (3, 6)],
)  # fmt: skip
FAMILY_SPORTS.line(
    "season_goals", "goals", "sum(goals)",
    "the total number of goals of a player who scored `goals[i]` goals in game i of the list `goals`",
    [[1, 0, 2], [], [3], [0, 0, 0], [2, 2, 1, 4], [5, 1], [0, 1, 0, 1], [7], [1, 1, 1, 1, 1]],
)  # fmt: skip

FAMILY_RECIPES = CoreFamily("recipes-and-servings", "test")
FAMILY_RECIPES.line(
    "eggs_needed", "servings", "servings * 2",
    "the number of eggs needed for `servings` servings of a recipe that uses 2 eggs per serving",
    [4, 0, 1, 3, 10, 6, 25, 2, 12],
)  # fmt: skip
FAMILY_RECIPES.line(
    "scale_amounts", "amounts, factor", "[a * factor for a in amounts]",
    "the list of ingredient amounts `amounts` for a recipe made `factor` times as large: every amount multiplied by `factor`",
    [([2, 1, 3], 2), ([], 3), ([5], 4), ([1, 1], 1), ([10, 20], 3), ([4, 0, 2], 5), ([7], 0), ([3, 6, 9], 2), ([2], 10)],
)  # fmt: skip
FAMILY_RECIPES.line(
    "flour_left", "have, used", "have - used",
    "how many grams of flour are left from `have` grams after a recipe used `used` grams",
    [(500, 200), (100, 100), (1000, 250), (300, 0), (750, 500), (80, 30), (1200, 1150), (60, 45), (400, 125)],
)  # fmt: skip
FAMILY_RECIPES.line(
    "cups_for_people", "people", "(people + 1) // 2",
    "how many cups of rice to cook for `people` people when one cup feeds 2 people, rounding up (`(people + 1) // 2`)",
    [4, 0, 1, 3, 10, 7, 25, 2, 12],
)  # fmt: skip
FAMILY_RECIPES.line(
    "baking_minutes", "batches", "batches * 25 + 10",
    "the minutes needed to bake `batches` batches of cookies one after another: 25 minutes per batch plus 10 minutes to heat the oven",
    [1, 0, 2, 3, 4, 6, 10, 5, 8],
)  # fmt: skip
FAMILY_RECIPES.line(
    "missing_ingredients", "have, need", "[x for x in need if x not in have]",
    "a list of the ingredients of the list `need` that are not in the list `have`, in the order of `need`",
    [(["egg", "milk"], ["egg", "flour"]), ([], ["salt"]), (["sugar"], []), (["a", "b"], ["a", "b"]), (["oil"], ["oil", "egg", "milk"]), (["milk"], ["egg"]), (["salt", "egg"], ["egg", "salt", "rice"]), (["rice"], ["rice", "beans"]), (["x"], ["y", "z"])],
)  # fmt: skip
FAMILY_RECIPES.line(
    "ingredient_line", "amount, item", "str(amount) + ' ' + item",
    "the text of a recipe line: the integer `amount`, a space, then the string `item` (for example '2 eggs')",
    [(2, "eggs"), (0, "salt"), (1, "cup"), (250, "grams"), (3, "apples"), (10, "g"), (12, "cookies"), (5, "ml"), (100, "rice")],
)  # fmt: skip
FAMILY_RECIPES.line(
    "enough_for_guests", "servings, guests", "servings >= guests",
    "True if a dish of `servings` servings is enough for `guests` guests (one serving each), else False",
    [(4, 3), (2, 2), (1, 5), (10, 8), (0, 1), (6, 7), (12, 12), (3, 9), (8, 2)],
)  # fmt: skip

TRIPS = [(60, 2), (100, 3), (0, 5), (45, 1), (80, 4), (30, 10), (120, 2), (5, 7), (90, 0)]
FAMILY_TRAVEL = CoreFamily("distances-and-speeds", "test")
FAMILY_TRAVEL.line(
    "distance_travelled", "speed, hours", "speed * hours",
    "the distance travelled in `hours` hours at a speed of `speed` kilometers per hour", TRIPS,
)  # fmt: skip
FAMILY_TRAVEL.line(
    "trip_hours", "distance, speed", "distance // speed",
    "the whole number of hours (rounded down) to travel `distance` kilometers at `speed` kilometers per hour",
    [(120, 60), (100, 30), (0, 5), (45, 45), (300, 80), (10, 20), (250, 50), (99, 10), (500, 60)],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "is_speeding", "speed, limit", "speed > limit",
    "True if a car going `speed` is faster than the speed limit `limit`, else False",
    [(60, 50), (50, 50), (30, 50), (121, 120), (90, 100), (45, 30), (0, 30), (80, 80), (110, 90)],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "over_limit_by", "speed, limit", "max(speed - limit, 0)",
    "by how much the speed `speed` is above the speed limit `limit` (0 if it is not above)",
    [(60, 50), (50, 50), (30, 50), (121, 120), (90, 100), (45, 30), (0, 30), (80, 80), (110, 90)],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "track_meters", "laps", "laps * 400",
    "how many meters a runner covers in `laps` laps of a 400 meter track", [4, 0, 1, 3, 10, 6, 25, 2, 12],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "trip_length", "legs", "sum(legs)",
    "the total length of a trip made of the legs whose distances are in the list `legs`",
    [[10, 20, 5], [], [42], [3, 3], [100, 250, 80, 70], [1, 0, 1], [15, 5], [60], [7, 8, 9]],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "distance_left", "total, done", "total - done",
    "how many kilometers are left of a `total` kilometer trip after `done` kilometers",
    [(100, 40), (50, 50), (300, 0), (12, 5), (80, 79), (1000, 250), (7, 2), (60, 15), (9, 9)],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "speed_label", "speed", "str(speed) + ' km/h'",
    "the integer speed `speed` as a string followed by ' km/h' (for example '50 km/h')", [50, 0, 120, 7, 30, 99, 100, 5, 65],
)  # fmt: skip
FAMILY_TRAVEL.line(
    "longest_leg", "legs", "max(legs)",
    "the distance of the longest leg of a trip, given the distances of its legs in the non-empty list `legs`",
    [[10, 20, 5], [42], [3, 3], [100, 250, 80, 70], [1, 0, 1], [15, 5], [60, 61], [7, 8, 9], [33, 12]],
)  # fmt: skip

FAMILY_PARKING = CoreFamily("parking-and-tickets", "test")
FAMILY_PARKING.line(
    "parking_fee", "hours", "hours * 3", "the parking fee for `hours` hours when parking costs 3 per hour",
    [4, 0, 1, 3, 10, 7, 24, 2, 12],
)  # fmt: skip
FAMILY_PARKING.line(
    "capped_parking_fee", "hours", "min(hours * 3, 20)",
    "the parking fee for `hours` hours at 3 per hour, but never more than 20 in all",
    [4, 0, 1, 3, 10, 7, 24, 2, 12],
)  # fmt: skip
FAMILY_PARKING.line(
    "tickets_cost", "adults, children", "adults * 10 + children * 5",
    "the cost of tickets for `adults` adults at 10 each and `children` children at 5 each",
    [(2, 1), (0, 0), (1, 3), (4, 4), (5, 0), (0, 2), (3, 2), (1, 1), (2, 5)],
)  # fmt: skip
FAMILY_PARKING.line(
    "free_spaces", "capacity, parked", "capacity - parked",
    "how many free spaces a parking lot with `capacity` spaces has when `parked` cars are parked",
    [(100, 40), (50, 50), (300, 0), (12, 5), (80, 79), (20, 3), (7, 2), (60, 15), (9, 1)],
)  # fmt: skip
FAMILY_PARKING.line(
    "lot_is_full", "capacity, parked", "parked >= capacity",
    "True if a parking lot with `capacity` spaces is full when `parked` cars are parked (`parked >= capacity`), else False",
    [(100, 40), (50, 50), (300, 0), (12, 12), (80, 79), (20, 21), (7, 2), (60, 60), (9, 1)],
)  # fmt: skip
FAMILY_PARKING.line(
    "ticket_code", "number", "'T-' + str(number)",
    "the ticket code for the ticket number `number`: 'T-' followed by the number (for example 'T-15')",
    [15, 0, 7, 100, 42, 3, 999, 58, 1],
)  # fmt: skip
FAMILY_PARKING.line(
    "is_valid_ticket", "code", "code.startswith('T-')",
    "True if the string `code` is a valid ticket code, that is, it starts with 'T-', else False",
    ["T-15", "", "T15", "t-3", "T-", "X-7", "T-999", "15", "T-0", "-T"],
)  # fmt: skip
FAMILY_PARKING.line(
    "overstayed", "minutes, limit", "minutes > limit",
    "True if a car parked for `minutes` minutes stayed longer than the limit of `limit` minutes, else False",
    [(60, 120), (121, 120), (30, 30), (200, 90), (0, 60), (45, 30), (90, 120), (61, 60), (15, 20)],
)  # fmt: skip

FAMILY_SEATS = CoreFamily("seats-and-rows", "test")
FAMILY_SEATS.line(
    "total_seats", "rows, per_row", "rows * per_row",
    "the number of seats in a hall with `rows` rows of `per_row` seats each",
    [(10, 20), (0, 5), (1, 1), (3, 12), (25, 30), (8, 0), (4, 9), (15, 2), (6, 6)],
)  # fmt: skip
FAMILY_SEATS.line(
    "rows_filled", "people", "people // 12",
    "how many rows of 12 seats `people` people fill completely (whole rows only)",
    [24, 0, 11, 12, 30, 100, 5, 47, 60],
)  # fmt: skip
FAMILY_SEATS.line(
    "seat_label", "row, number", "row + str(number)",
    "the label of the seat with the row letter `row` and the seat number `number` (for example 'B12')",
    [("B", 12), ("A", 1), ("C", 7), ("Z", 30), ("D", 0), ("F", 15), ("K", 2), ("A", 99), ("M", 5)],
)  # fmt: skip
SEATS = ["C7", "A1", "B12", "Z30", "D9", "A15", "K2", "M40", "A3"]
FAMILY_SEATS.line(
    "seat_row", "seat", "seat[0]",
    "the row letter of the seat label `seat` (like 'C7'), which is its first character", SEATS,
)  # fmt: skip
FAMILY_SEATS.line(
    "seat_number", "seat", "int(seat[1:])",
    "the seat number, as an integer, of the seat label `seat` (like 'C7'): the digits after the first character", SEATS,
)  # fmt: skip
FAMILY_SEATS.line(
    "is_front_row", "seat", "seat[0] == 'A'",
    "True if the seat label `seat` (like 'C7') is in the front row, whose letter is 'A', else False", SEATS,
)  # fmt: skip
TAKEN = [[1, 0, 1], [], [0, 0], [1, 1, 1, 1], [0], [1, 0, 0, 1, 0], [1], [0, 1], [1, 1, 0, 0, 0, 0]]
FAMILY_SEATS.line(
    "empty_seat_count", "seats", "seats.count(0)",
    "how many seats of a row are empty, where the list `seats` has 1 for a taken seat and 0 for an empty one",
    TAKEN,
)  # fmt: skip
FAMILY_SEATS.line(
    "taken_seat_count", "seats", "sum(seats)",
    "how many seats of a row are taken, where the list `seats` has 1 for a taken seat and 0 for an empty one",
    TAKEN,
)  # fmt: skip

FAMILY_SEATS.line(
    "row_is_full", "seats", "0 not in seats",
    "True if no seat of a row is empty, where the list `seats` has 1 for a taken seat and 0 for an empty one, else False",
    [*TAKEN, [1, 1], [1, 1, 1]],
)  # fmt: skip

RAIN = [[0, 5, 0, 12], [], [3], [0, 0, 0], [7, 7, 2], [0, 1], [20, 0, 0, 4, 0], [0], [9, 3, 0, 6]]
FAMILY_WEATHER = CoreFamily("weather-readings", "test")
FAMILY_WEATHER.line(
    "rainy_days", "rain", "sum(1 for r in rain if r > 0)",
    "how many days had rain, where the list `rain` holds the millimeters of rain of each day", RAIN,
)  # fmt: skip
FAMILY_WEATHER.line(
    "dry_days", "rain", "rain.count(0)",
    "how many days were dry (0 millimeters of rain), where the list `rain` holds the rain of each day", RAIN,
)  # fmt: skip
FAMILY_WEATHER.line(
    "total_rainfall", "rain", "sum(rain)",
    "the total millimeters of rain over all the days of the list `rain` (the rain of each day)", RAIN,
)  # fmt: skip
FAMILY_WEATHER.line(
    "wettest_day_rain", "rain", "max(rain)",
    "the most rain of a single day, where the non-empty list `rain` holds the millimeters of rain of each day",
    [r for r in RAIN if r] + [[2, 8]],
)  # fmt: skip
FAMILY_WEATHER.line(
    "is_windy", "wind", "wind >= 40",
    "True if a wind speed of `wind` km/h is windy, that is, 40 or more, else False",
    [40, 0, 39, 75, 10, 41, 100, 25, 60],
)  # fmt: skip
FAMILY_WEATHER.line(
    "forecast_word", "chance", "'rain' if chance >= 50 else 'dry'",
    "'rain' if the chance of rain `chance` (a percentage) is at least 50, and 'dry' otherwise",
    [50, 0, 49, 100, 75, 10, 51, 30, 90],
)  # fmt: skip
FAMILY_WEATHER.line(
    "weather_report", "city, sky", "city + ': ' + sky",
    "a weather report line: the string `city`, then ': ', then the string `sky` (for example 'Oslo: snow')",
    [("Oslo", "snow"), ("Rome", "sunny"), ("", "rain"), ("Lima", ""), ("Paris", "cloudy"), ("Cairo", "hot"), ("Tokyo", "windy"), ("Quito", "fog"), ("X", "Y")],
)  # fmt: skip
FAMILY_WEATHER.line(
    "needs_umbrella", "sky", "sky in ['rain', 'storm']",
    "True if the weather `sky` is 'rain' or 'storm', else False",
    ["rain", "sunny", "storm", "cloudy", "snow", "Rain", "fog", "windy", "storms"],
)  # fmt: skip

CARTS = [
    (["apple", "milk"], "milk"),
    ([], "bread"),
    (["egg"], "egg"),
    (["tea", "tea", "jam"], "tea"),
    (["rice", "beans"], "salt"),
    (["soap"], "milk"),
    (["pen", "ink", "pen", "pen"], "pen"),
    (["cake", "milk"], "cake"),
    (["oil"], "oil"),
    (["nuts", "figs"], "dates"),
]
FAMILY_CART = CoreFamily("shopping-carts", "test")
FAMILY_CART.line(
    "in_cart", "cart, item", "item in cart",
    "True if the shopping cart `cart` (a list of item names) holds the item `item`, else False", CARTS,
)  # fmt: skip
FAMILY_CART.line(
    "add_to_cart", "cart, item", "cart + [item]",
    "a new shopping cart: the list `cart` of item names with the item `item` added at the end", CARTS,
)  # fmt: skip
FAMILY_CART.line(
    "how_many_of", "cart, item", "cart.count(item)",
    "how many times the item `item` is in the shopping cart `cart` (a list of item names)", CARTS,
)  # fmt: skip
FAMILY_CART.line(
    "remove_from_cart", "cart, item", "[x for x in cart if x != item]",
    "a new shopping cart: the list `cart` of item names without any copy of the item `item`", CARTS,
)  # fmt: skip
PRICES = [[12, 5, 30], [], [60], [9, 9, 9], [25, 25], [1, 2, 3, 4], [49, 1], [8, 15, 40, 2], [3]]
FAMILY_CART.line(
    "cart_total", "prices", "sum(prices)",
    "the total to pay for a shopping cart whose item prices are in the list `prices`", PRICES,
)  # fmt: skip
FAMILY_CART.line(
    "free_shipping", "prices", "sum(prices) >= 50",
    "True if a shopping cart whose item prices are in the list `prices` costs 50 or more in all (free shipping), else False",
    PRICES,
)  # fmt: skip
FAMILY_CART.line(
    "cheap_items", "prices", "[p for p in prices if p < 10]",
    "a list of the prices under 10 of the shopping cart prices `prices`, in order", PRICES,
)  # fmt: skip
FAMILY_CART.line(
    "cart_size", "cart", "len(cart)", "how many items the shopping cart `cart` (a list of item names) holds",
    [c for c, _ in CARTS],
)  # fmt: skip

FAMILY_CART.line(
    "cart_text", "cart", "', '.join(cart)",
    "the item names of the shopping cart `cart` (a list of strings) joined into one string with ', ' between them",
    [c for c, _ in CARTS],
)  # fmt: skip

PASSWORDS = ["hunter2", "", "correcthorse", "abc", "Passw0rd!", "12345678", "qwerty", "letmein123", "x", "sunshine"]  # fmt: skip
FAMILY_PASSWORDS = CoreFamily("password-checks", "test")
FAMILY_PASSWORDS.line(
    "long_enough", "password", "len(password) >= 8",
    "True if the string `password` has at least 8 characters, else False", PASSWORDS,
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "password_strength", "password", "'strong' if len(password) >= 10 else 'weak'",
    "'strong' if the string `password` has 10 or more characters and 'weak' otherwise", PASSWORDS,
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "mask_password", "password", "'*' * len(password)",
    "a string of '*' characters as long as the string `password`", PASSWORDS,
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "has_no_digits", "password", "not any(c.isdigit() for c in password)",
    "True if the string `password` contains no digit, else False", PASSWORDS,
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "is_common_password", "password", "password in ['123456', 'password', 'qwerty']",
    "True if the string `password` is one of '123456', 'password' and 'qwerty', else False",
    ["qwerty", "hunter2", "123456", "password", "Password", "", "1234567", "qwerty1", "letmein"],
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "passwords_match", "password, again", "password == again",
    "True if the password `password` and the repeated password `again` are the same string, else False",
    [("abc", "abc"), ("abc", "abd"), ("", ""), ("Secret", "secret"), ("x1", "x1"), ("long pass", "long pass "), ("q", "w"), ("hunter2", "hunter2"), ("a", "")],
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "characters_missing", "password", "max(8 - len(password), 0)",
    "how many more characters the string `password` needs to reach 8 characters (0 if it already has 8 or more)",
    PASSWORDS,
)  # fmt: skip
FAMILY_PASSWORDS.line(
    "password_hint", "password", "password[0] + '...'",
    "a hint for the non-empty string `password`: its first character followed by '...'",
    [p for p in PASSWORDS if p],
)  # fmt: skip
