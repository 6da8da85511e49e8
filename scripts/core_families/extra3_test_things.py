"""Third batch of test families (kinds of task no train family states), plain one-step
operations on the things of daily life: pets, playlists, buses, bank accounts, chess boards,
months of the year, recycling, queues and sleep."""

from __future__ import annotations

from core_families import CoreFamily

PETS = [["dog", "cat"], [], ["dog"], ["cat", "cat", "fish"], ["dog", "dog", "bird"], ["fish"], ["cat", "dog", "dog", "dog"], ["bird", "cat"], ["dog", "fish", "dog"]]  # fmt: skip
FAMILY_PETS = CoreFamily("pets-and-animals", "test")
FAMILY_PETS.line(
    "dog_years", "age", "age * 7",
    "the age in dog years of a dog that is `age` years old, at 7 dog years per year",
    [3, 0, 1, 10, 7, 12, 5, 2, 15],
)  # fmt: skip
FAMILY_PETS.line(
    "legs_on_farm", "chickens, cows", "chickens * 2 + cows * 4",
    "how many legs there are on a farm with `chickens` chickens (2 legs each) and `cows` cows (4 legs each)",
    [(3, 2), (0, 0), (1, 0), (0, 1), (10, 5), (4, 4), (7, 3), (2, 9), (12, 1)],
)  # fmt: skip
FAMILY_PETS.line(
    "cans_of_cat_food", "cats, days", "cats * days",
    "how many cans of food `cats` cats eat in `days` days when each cat eats one can a day",
    [(2, 7), (1, 30), (0, 5), (3, 3), (4, 0), (5, 10), (1, 1), (6, 14), (3, 21)],
)  # fmt: skip
FAMILY_PETS.line(
    "pet_tag", "name", "'My name is ' + name",
    "the text on the collar tag of a pet called `name`: 'My name is ' followed by the name",
    ["Rex", "Tom", "Bella", "Max", "Luna", "Mr Whiskers", "Bo", "Coco", "Fido"],
)  # fmt: skip
FAMILY_PETS.line(
    "is_puppy", "months", "months < 12",
    "True if a dog that is `months` months old is still a puppy (younger than 12 months), else False",
    [3, 12, 11, 24, 0, 13, 6, 40, 1],
)  # fmt: skip
FAMILY_PETS.line(
    "walks_per_week", "per_day", "per_day * 7",
    "how many walks a dog gets in a week when it is walked `per_day` times a day",
    [2, 0, 1, 3, 4, 5, 6, 10, 8],
)  # fmt: skip
FAMILY_PETS.line(
    "heaviest_pet", "weights", "max(weights)",
    "the weight of the heaviest pet, given the weights of the pets in kilograms in the non-empty list `weights`",
    [[4, 30, 2], [12], [5, 5], [1, 2, 3], [40, 8], [3, 20, 15, 7], [9], [2, 6], [25, 18, 33]],
)  # fmt: skip
FAMILY_PETS.line(
    "count_dogs", "pets", "pets.count('dog')",
    "how many dogs there are in the list `pets` of kinds of pets ('dog', 'cat', 'fish', ...)", PETS,
)  # fmt: skip

SONGS = [[200, 180, 240], [], [150], [300, 90], [120, 120, 120], [215, 185, 178, 260], [60], [400, 170], [181, 179, 200]]  # fmt: skip
FAMILY_PLAYLISTS = CoreFamily("music-playlists", "test")
FAMILY_PLAYLISTS.line(
    "playlist_seconds", "songs", "sum(songs)",
    "how many seconds a playlist lasts, given the length of each song in seconds in the list `songs`", SONGS,
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "songs_in_playlist", "songs", "len(songs)",
    "how many songs a playlist has, given the length of each song in seconds in the list `songs`", SONGS,
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "longest_song", "songs", "max(songs)",
    "the length of the longest song of the non-empty list `songs` of song lengths in seconds",
    [s for s in SONGS if s],
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "fits_on_disc", "songs, limit", "sum(songs) <= limit",
    "True if all the songs of the list `songs` (lengths in seconds) fit on a disc that holds `limit` seconds, else False",
    [([200, 180], 400), ([300, 300], 500), ([], 100), ([150], 150), ([100, 100, 100], 299), ([60, 60], 1000), ([500], 400), ([90, 90, 90], 300), ([250, 250], 500)],
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "next_track", "track, total", "track % total + 1",
    "the number of the track played after track `track` of an album of `total` tracks numbered from 1, going back to 1 after the last one (`track % total + 1`)",
    [(3, 10), (10, 10), (1, 12), (12, 12), (5, 8), (7, 7), (2, 3), (9, 11), (4, 4)],
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "track_label", "number, title", "str(number) + '. ' + title",
    "the label of a track: its number `number` (an integer), then '. ', then its title `title`",
    [(1, "Yesterday"), (12, "Blue"), (3, "Home"), (7, "Rain"), (10, "Sun and Moon"), (2, "Go"), (5, "Hello"), (14, "Stars"), (9, "Run")],
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "short_songs", "songs", "[s for s in songs if s < 180]",
    "a list of the songs of the list `songs` (lengths in seconds) that are shorter than 180 seconds, in order", SONGS,
)  # fmt: skip
FAMILY_PLAYLISTS.line(
    "volume_up", "volume", "min(volume + 10, 100)",
    "the volume after pressing volume up once at volume `volume`: 10 more, but never above 100",
    [50, 95, 0, 100, 90, 35, 99, 70, 81],
)  # fmt: skip

FAMILY_BUSES = CoreFamily("buses-and-stops", "test")
FAMILY_BUSES.line(
    "passengers_after_stop", "on_bus, off, on", "on_bus - off + on",
    "how many passengers are on a bus that had `on_bus` passengers after `off` get off and `on` get on at a stop",
    [(20, 5, 3), (0, 0, 10), (12, 12, 0), (30, 1, 1), (8, 2, 6), (15, 10, 4), (40, 0, 2), (25, 7, 0), (5, 3, 9)],
)  # fmt: skip
FAMILY_BUSES.line(
    "bus_is_full", "passengers, seats", "passengers >= seats",
    "True if a bus with `seats` seats is full when `passengers` passengers are on it (as many as the seats or more), else False",
    [(40, 40), (12, 50), (55, 50), (0, 30), (29, 30), (30, 30), (60, 40), (10, 11), (45, 44)],
)  # fmt: skip
FAMILY_BUSES.line(
    "buses_needed", "people", "(people + 39) // 40",
    "how many buses of 40 seats are needed for `people` people, rounding up (`(people + 39) // 40`)",
    [80, 0, 1, 40, 41, 100, 39, 120, 7],
)  # fmt: skip
FAMILY_BUSES.line(
    "fares_collected", "riders, fare", "riders * fare",
    "how much money a bus collects from `riders` riders that each pay the fare `fare`",
    [(20, 2), (0, 3), (1, 5), (35, 2), (12, 4), (50, 1), (7, 3), (18, 0), (9, 6)],
)  # fmt: skip
FAMILY_BUSES.line(
    "stops_to_go", "stop, last", "last - stop",
    "how many more stops a bus on stop number `stop` makes until the last stop, number `last`",
    [(3, 10), (10, 10), (1, 12), (0, 5), (7, 20), (14, 15), (2, 3), (8, 16), (5, 9)],
)  # fmt: skip
FAMILY_BUSES.line(
    "most_boarding", "boarding", "max(boarding)",
    "the most people who got on at one stop, given how many got on at each stop in the non-empty list `boarding`",
    [[3, 8, 1], [5], [0, 0, 2], [12, 4], [6, 6], [1, 9, 9, 2], [7, 3, 10], [2, 1], [0, 4, 0]],
)  # fmt: skip
FAMILY_BUSES.line(
    "standing_passengers", "passengers, seats", "max(passengers - seats, 0)",
    "how many passengers must stand on a bus with `seats` seats that carries `passengers` passengers (0 if everyone can sit)",
    [(50, 40), (12, 50), (40, 40), (0, 30), (31, 30), (60, 45), (25, 20), (10, 11), (45, 44)],
)  # fmt: skip
FAMILY_BUSES.line(
    "route_sign", "number", "'Bus ' + str(number)",
    "the sign on the front of a bus on route `number` (an integer): 'Bus ' followed by the number",
    [12, 7, 100, 3, 45, 1, 88, 21, 9],
)  # fmt: skip

MOVES = [[50, -20, 10], [], [100], [-5, -5], [30, 30, -70], [-1], [200, -50, -50, 25], [7, -3], [0, 0, 40]]  # fmt: skip
FAMILY_BANK = CoreFamily("bank-accounts", "test")
FAMILY_BANK.line(
    "balance_after", "balance, deposit, withdrawal", "balance + deposit - withdrawal",
    "the balance of a bank account that held `balance` after a deposit of `deposit` and a withdrawal of `withdrawal`",
    [(100, 50, 30), (0, 20, 0), (50, 0, 50), (10, 5, 40), (200, 100, 100), (75, 25, 0), (30, 0, 10), (0, 0, 0), (500, 10, 250)],
)  # fmt: skip
FAMILY_BANK.line(
    "is_overdrawn", "balance", "balance < 0",
    "True if a bank account with the balance `balance` is overdrawn (below 0), else False",
    [-20, 100, 0, -1, 50, 7, -300, 1, 2500],
)  # fmt: skip
FAMILY_BANK.line(
    "can_withdraw", "balance, amount", "amount <= balance",
    "True if `amount` can be taken out of a bank account with the balance `balance` (not more than the balance), else False",
    [(100, 50), (20, 30), (40, 40), (0, 5), (500, 499), (10, 11), (75, 0), (60, 100), (33, 33)],
)  # fmt: skip
FAMILY_BANK.line(
    "final_balance", "moves", "sum(moves)",
    "the balance of a new bank account (it starts at 0) after the deposits (positive) and withdrawals (negative) of the list `moves`",
    MOVES,
)  # fmt: skip
FAMILY_BANK.line(
    "withdrawal_count", "moves", "sum(1 for m in moves if m < 0)",
    "how many withdrawals (negative amounts) the list `moves` of deposits and withdrawals of a bank account has",
    MOVES,
)  # fmt: skip
FAMILY_BANK.line(
    "biggest_deposit", "deposits", "max(deposits)",
    "the biggest deposit of the non-empty list `deposits` of amounts put into a bank account",
    [[50, 20, 10], [100], [5, 5], [30, 60, 10], [7], [200, 25], [1, 2, 3, 4], [40, 80, 80], [15, 9]],
)  # fmt: skip
FAMILY_BANK.line(
    "yearly_interest", "balance", "balance // 50",
    "the interest a bank account earns in a year with the balance `balance`: 1 for every full 50 (`balance // 50`)",
    [100, 0, 49, 50, 275, 1000, 99, 150, 20],
)  # fmt: skip
FAMILY_BANK.line(
    "account_name", "owner", "owner + \"'s account\"",
    "the name of the bank account of `owner`: the owner's name followed by \"'s account\" (for example \"Ann's account\")",
    ["Ann", "Bob", "Zoe", "Mohammed", "Li", "Eva Marie", "Tom", "X", "Sam"],
)  # fmt: skip

FAMILY_CHESS = CoreFamily("chess-boards", "test")
FAMILY_CHESS.line(
    "square_name", "column, row", "column + str(row)",
    "the name of a chess square: the column letter `column` followed by the row number `row` (an integer), like 'e4'",
    [("e", 4), ("a", 1), ("h", 8), ("d", 2), ("b", 7), ("g", 1), ("c", 5), ("f", 3), ("a", 8)],
)  # fmt: skip
FAMILY_CHESS.line(
    "is_light_square", "column, row", "(column + row) % 2 == 1",
    "True if the square in column number `column` and row `row` (both 1 to 8) of a chess board is light, that is, `column + row` is odd, else False",
    [(1, 1), (1, 2), (5, 4), (8, 8), (3, 6), (2, 7), (4, 4), (6, 1), (7, 3)],
)  # fmt: skip
FAMILY_CHESS.line(
    "squares_on_board", "n", "n * n",
    "how many squares there are on a square board with `n` rows and `n` columns",
    [8, 0, 1, 3, 10, 4, 19, 5, 2],
)  # fmt: skip
FAMILY_CHESS.line(
    "pieces_left", "pieces, captured", "pieces - captured",
    "how many pieces a player who started with `pieces` pieces has left after losing `captured` of them",
    [(16, 3), (16, 0), (16, 15), (10, 4), (8, 8), (12, 1), (16, 9), (5, 2), (16, 16)],
)  # fmt: skip
FAMILY_CHESS.line(
    "count_pawns", "pieces", "pieces.count('pawn')",
    "how many pawns there are in the list `pieces` of chess piece names ('pawn', 'rook', 'king', ...)",
    [["pawn", "rook"], [], ["king"], ["pawn", "pawn", "pawn"], ["queen", "pawn"], ["rook", "knight", "bishop"], ["pawn"], ["pawn", "king", "pawn", "rook"], ["bishop", "pawn", "pawn"]],
)  # fmt: skip
FAMILY_CHESS.line(
    "on_the_board", "row", "1 <= row <= 8",
    "True if `row` is a row of a chess board (1 to 8, both included), else False",
    [4, 0, 1, 9, 8, -1, 5, 12, 2],
)  # fmt: skip
FAMILY_CHESS.line(
    "same_column", "a, b", "a[0] == b[0]",
    "True if the chess squares `a` and `b` (names like 'e4') are in the same column (same first letter), else False",
    [("e4", "e7"), ("a1", "b1"), ("h8", "h1"), ("d2", "c2"), ("b7", "b3"), ("g1", "f3"), ("c5", "c6"), ("a8", "h8"), ("f3", "f3")],
)  # fmt: skip
FAMILY_CHESS.line(
    "moves_played", "white, black", "white + black",
    "how many moves were played in all in a game where white played `white` moves and black played `black` moves",
    [(20, 19), (0, 0), (1, 1), (35, 35), (12, 11), (40, 39), (5, 4), (60, 60), (8, 7)],
)  # fmt: skip

MONTHS = "['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']"  # fmt: skip
FAMILY_MONTHS = CoreFamily("months-of-the-year", "test")
FAMILY_MONTHS.line(
    "month_name", "m", f"{MONTHS}[m - 1]",
    "the English name of month number `m` (1 is 'January', 12 is 'December')",
    [1, 12, 5, 2, 9, 7, 3, 11, 6],
)  # fmt: skip
FAMILY_MONTHS.line(
    "is_summer_month", "m", "m in [6, 7, 8]",
    "True if month number `m` is a summer month (6, 7 or 8), else False",
    [7, 1, 6, 12, 8, 5, 9, 3, 10],
)  # fmt: skip
FAMILY_MONTHS.line(
    "next_month", "m", "m % 12 + 1",
    "the number of the month after month number `m` (1 to 12; after 12 comes 1)",
    [3, 12, 1, 11, 6, 9, 2, 7, 10],
)  # fmt: skip
FAMILY_MONTHS.line(
    "months_between", "a, b", "b - a",
    "how many months there are from month number `a` to the later month number `b` of the same year",
    [(1, 12), (3, 3), (2, 5), (6, 7), (1, 2), (4, 10), (9, 11), (5, 12), (7, 8)],
)  # fmt: skip
FAMILY_MONTHS.line(
    "quarter_of_month", "m", "(m - 1) // 3 + 1",
    "the quarter of the year (1 to 4) of month number `m`: months 1-3 are quarter 1, 4-6 quarter 2, and so on (`(m - 1) // 3 + 1`)",
    [1, 12, 5, 3, 4, 9, 7, 10, 6],
)  # fmt: skip
FAMILY_MONTHS.line(
    "month_short_name", "name", "name[:3]",
    "the short name of the month called `name`: its first 3 letters ('January' gives 'Jan')",
    ["January", "May", "September", "June", "December", "March", "July", "October", "August"],
)  # fmt: skip
FAMILY_MONTHS.line(
    "is_month_number", "m", "1 <= m <= 12",
    "True if `m` is a valid month number (1 to 12, both included), else False",
    [5, 0, 12, 13, 1, -3, 7, 20, 11],
)  # fmt: skip
FAMILY_MONTHS.line(
    "months_in_years", "years", "years * 12",
    "how many months there are in `years` years",
    [3, 0, 1, 10, 7, 25, 4, 2, 6],
)  # fmt: skip

BINS = [["paper", "glass"], [], ["plastic"], ["glass", "glass", "paper"], ["metal", "plastic", "glass", "glass"], ["paper"], ["plastic", "plastic"], ["glass"], ["paper", "metal", "glass"]]  # fmt: skip
FAMILY_RECYCLING = CoreFamily("recycling", "test")
FAMILY_RECYCLING.line(
    "bottle_refund", "bottles", "bottles * 25",
    "the refund in cents for returning `bottles` bottles at 25 cents each",
    [4, 0, 1, 10, 7, 12, 3, 40, 2],
)  # fmt: skip
FAMILY_RECYCLING.line(
    "bins_for_bags", "bags", "(bags + 3) // 4",
    "how many recycling bins are needed for `bags` bags when a bin holds 4 bags, rounding up (`(bags + 3) // 4`)",
    [8, 0, 1, 4, 5, 13, 3, 20, 9],
)  # fmt: skip
FAMILY_RECYCLING.line(
    "count_glass", "items", "items.count('glass')",
    "how many items are glass, given the list `items` of the materials of the items in a recycling bin", BINS,
)  # fmt: skip
FAMILY_RECYCLING.line(
    "is_recyclable", "material", "material in ['paper', 'glass', 'plastic', 'metal']",
    "True if the material `material` is recyclable ('paper', 'glass', 'plastic' or 'metal'), else False",
    ["paper", "food", "glass", "wood", "plastic", "cloth", "metal", "stone", "Paper"],
)  # fmt: skip
FAMILY_RECYCLING.line(
    "total_recycled", "kilos", "sum(kilos)",
    "how many kilograms were recycled in all, given the kilograms of each week in the list `kilos`",
    [[3, 5, 2], [], [10], [1, 1, 1, 1], [4, 0, 6], [12, 8], [7], [2, 9, 3, 5], [6, 6]],
)  # fmt: skip
FAMILY_RECYCLING.line(
    "waste_not_recycled", "waste, recycled", "waste - recycled",
    "how many kilograms of waste were not recycled when `recycled` of the `waste` kilograms were recycled",
    [(20, 5), (10, 10), (30, 0), (45, 12), (8, 7), (100, 60), (15, 9), (6, 1), (50, 49)],
)  # fmt: skip
FAMILY_RECYCLING.line(
    "full_sacks", "cans", "cans // 20",
    "how many full sacks of 20 cans can be filled with `cans` cans (`cans // 20`)",
    [45, 0, 20, 19, 100, 61, 5, 40, 85],
)  # fmt: skip
FAMILY_RECYCLING.line(
    "only_recyclable", "items", "[i for i in items if i != 'trash']",
    "a new list with the items of the list `items` that are not 'trash', in order",
    [["paper", "trash"], [], ["trash"], ["glass", "trash", "glass"], ["metal"], ["trash", "trash", "paper"], ["plastic", "paper"], ["trash", "metal", "trash", "glass"], ["glass"]],
)  # fmt: skip

QUEUES = [["Ann", "Bob", "Cy"], ["Zoe"], ["Li", "Max"], ["Tom", "Eva", "Sam", "Kim"], ["Bo"], ["Jo", "Al"], ["Mia", "Ned", "Oz"], ["Pat", "Ray", "Sue", "Ted", "Uma"], ["Vic", "Wu"]]  # fmt: skip
FAMILY_QUEUES = CoreFamily("waiting-in-line", "test")
FAMILY_QUEUES.line(
    "people_ahead", "position", "position - 1",
    "how many people are ahead of someone at place `position` of a line (the first place is 1)",
    [5, 1, 2, 10, 3, 7, 20, 4, 12],
)  # fmt: skip
FAMILY_QUEUES.line(
    "wait_minutes", "position, minutes", "(position - 1) * minutes",
    "how many minutes someone at place `position` of a line (the first place is 1) waits when each person ahead takes `minutes` minutes",
    [(5, 3), (1, 10), (2, 4), (10, 2), (3, 5), (7, 1), (4, 0), (6, 6), (12, 3)],
)  # fmt: skip
FAMILY_QUEUES.line(
    "is_next_in_line", "line, name", "line[0] == name",
    "True if `name` is the first name of the non-empty line `line` (a list of names), else False",
    [(["Ann", "Bob", "Cy"], "Bob"), (["Zoe"], "Zoe"), (["Li", "Max"], "Li"), (["Tom", "Eva", "Sam", "Kim"], "Kim"), (["Jo", "Al"], "Jo"), (["Mia", "Ned", "Oz"], "Oz"), (["Pat", "Ray", "Sue", "Ted", "Uma"], "Pat"), (["Vic", "Wu"], "Wu"), (["Ann", "Bob", "Cy"], "Ann")],
)  # fmt: skip
FAMILY_QUEUES.line(
    "line_length", "line", "len(line)",
    "how many people are waiting in the line `line`, a list of their names", [*QUEUES[:8], []],
)  # fmt: skip
FAMILY_QUEUES.line(
    "first_in_line", "line", "line[0]",
    "the name of the first person of the non-empty line `line`, a list of names", QUEUES,
)  # fmt: skip
FAMILY_QUEUES.line(
    "join_line", "line, name", "line + [name]",
    "a new line: the list `line` of names with the name `name` added at the end",
    [(q, n) for q, n in zip(QUEUES, ["Dee", "Al", "Kim", "Ann", "Cy", "Ed", "Fay", "Gus", "Hal"], strict=True)],
)  # fmt: skip
FAMILY_QUEUES.line(
    "serve_next", "line", "line[1:]",
    "the line `line` (a list of names) after its first person was served and left", QUEUES,
)  # fmt: skip
FAMILY_QUEUES.line(
    "place_in_line", "line, name", "line.index(name) + 1",
    "the place of the name `name` in the list `line` (the first place is 1; the name is in the line)",
    [(["Ann", "Bob", "Cy"], "Bob"), (["Zoe"], "Zoe"), (["Li", "Max"], "Max"), (["Tom", "Eva", "Sam", "Kim"], "Kim"), (["Jo", "Al"], "Jo"), (["Mia", "Ned", "Oz"], "Oz"), (["Pat", "Ray", "Sue", "Ted", "Uma"], "Sue"), (["Vic", "Wu"], "Wu"), (["Ann", "Bob", "Cy"], "Ann")],
)  # fmt: skip

NIGHTS = [[7, 8, 6], [9], [5, 5, 6], [8, 8, 8, 7], [4, 10], [6], [7, 6, 9, 5], [8, 3], [10, 9]]
FAMILY_SLEEP = CoreFamily("sleep-and-alarms", "test")
FAMILY_SLEEP.line(
    "hours_slept", "bed, wake", "(wake - bed) % 24",
    "how many hours someone sleeps who goes to bed at hour `bed` and wakes at hour `wake` of a 24-hour clock (`(wake - bed) % 24`)",
    [(22, 6), (23, 7), (0, 8), (21, 5), (1, 9), (20, 4), (22, 8), (23, 23), (2, 10)],
)  # fmt: skip
FAMILY_SLEEP.line(
    "slept_enough", "hours", "hours >= 8",
    "True if `hours` hours of sleep are enough (8 or more), else False",
    [7, 8, 9, 5, 10, 6, 12, 0, 4],
)  # fmt: skip
FAMILY_SLEEP.line(
    "sleep_missing", "hours", "max(8 - hours, 0)",
    "how many hours of sleep are missing after sleeping `hours` hours when 8 are needed (0 if 8 or more were slept)",
    [7, 8, 9, 5, 10, 6, 12, 0, 4],
)  # fmt: skip
FAMILY_SLEEP.line(
    "sleep_this_week", "nights", "sum(nights)",
    "how many hours someone slept in all, given the hours of each night in the list `nights`", [*NIGHTS, []],
)  # fmt: skip
FAMILY_SLEEP.line(
    "shortest_night", "nights", "min(nights)",
    "the fewest hours slept in one night, given the hours of each night in the non-empty list `nights`", NIGHTS,
)  # fmt: skip
FAMILY_SLEEP.line(
    "alarm_text", "hour", "'Alarm at ' + str(hour) + ':00'",
    "the text of an alarm set for the hour `hour` (an integer): 'Alarm at ', the hour, then ':00'",
    [7, 6, 10, 5, 12, 8, 9, 11, 4],
)  # fmt: skip
FAMILY_SLEEP.line(
    "short_nights", "nights", "sum(1 for h in nights if h < 7)",
    "how many nights were short (fewer than 7 hours), given the hours of each night in the list `nights`", [*NIGHTS, []],
)  # fmt: skip
FAMILY_SLEEP.line(
    "wake_up_hour", "bed, hours", "(bed + hours) % 24",
    "the hour someone wakes who goes to bed at hour `bed` of a 24-hour clock and sleeps `hours` hours (`(bed + hours) % 24`)",
    [(22, 8), (23, 7), (0, 8), (21, 9), (1, 6), (20, 10), (22, 6), (23, 1), (2, 5)],
)  # fmt: skip
