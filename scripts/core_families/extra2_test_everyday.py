"""Second batch of extra test families (kinds of task no train family states), plain one-step
operations in a small everyday story: savings, library books, class attendance, game lives and
levels, store stock, phone batteries, votes, sharing pizza and garden plants."""

from __future__ import annotations

from core_families import CoreFamily

FAMILY_SAVINGS = CoreFamily("savings-and-piggy-banks", "test")
FAMILY_SAVINGS.line(
    "saved_after_weeks", "weekly, weeks", "weekly * weeks",
    "how much money is saved after `weeks` weeks when `weekly` is put in the piggy bank every week",
    [(5, 4), (0, 10), (10, 1), (3, 0), (7, 3), (20, 5), (1, 12), (2, 2), (15, 6)],
)  # fmt: skip
FAMILY_SAVINGS.line(
    "goal_reached", "saved, goal", "saved >= goal",
    "True if the money `saved` in a piggy bank is at least the savings goal `goal`, else False",
    [(50, 40), (10, 30), (25, 25), (0, 5), (100, 99), (7, 70), (60, 20), (15, 16), (30, 30)],
)  # fmt: skip
FAMILY_SAVINGS.line(
    "still_to_save", "saved, goal", "max(goal - saved, 0)",
    "how much money must still be saved to reach the goal `goal` when `saved` is already saved (0 if the goal is reached)",
    [(10, 30), (50, 40), (25, 25), (0, 5), (90, 100), (7, 70), (60, 20), (15, 16), (33, 50)],
)  # fmt: skip
DEPOSITS = [[5, 10, 3], [], [20], [1, 1, 1, 1], [12, 0, 8], [50, 25], [2, 30, 4, 11], [9, 9], [15, 5, 40]]  # fmt: skip
FAMILY_SAVINGS.line(
    "total_deposits", "deposits", "sum(deposits)",
    "the money in a piggy bank that started empty after the deposits in the list `deposits`",
    DEPOSITS,
)  # fmt: skip
FAMILY_SAVINGS.line(
    "big_deposits", "deposits", "[d for d in deposits if d >= 10]",
    "a list of the deposits of the list `deposits` that are 10 or more, in order",
    DEPOSITS,
)  # fmt: skip
FAMILY_SAVINGS.line(
    "piggy_bank_label", "saved", "'Saved: ' + str(saved)",
    "the label of a piggy bank holding `saved` (an integer): 'Saved: ' followed by the number",
    [12, 0, 5, 100, 37, 8, 250, 61, 9],
)  # fmt: skip
FAMILY_SAVINGS.line(
    "coins_to_money", "coins", "coins * 5",
    "the money in a jar of `coins` coins that are each worth 5",
    [4, 0, 1, 3, 10, 7, 25, 2, 12],
)  # fmt: skip
FAMILY_SAVINGS.line(
    "weeks_of_saving", "goal, weekly", "goal // weekly",
    "how many full weeks of saving `weekly` per week fit into the goal `goal` (`goal // weekly`)",
    [(100, 10), (50, 20), (7, 7), (0, 5), (99, 10), (30, 4), (12, 5), (60, 15), (9, 2)],
)  # fmt: skip

FAMILY_LIBRARY = CoreFamily("library-books", "test")
FAMILY_LIBRARY.line(
    "books_on_shelf", "books, borrowed", "books - borrowed",
    "how many books are still on a shelf that held `books` books after `borrowed` of them were borrowed",
    [(20, 5), (10, 10), (7, 0), (30, 12), (15, 1), (8, 3), (100, 45), (4, 2), (50, 49)],
)  # fmt: skip
FAMILY_LIBRARY.line(
    "is_overdue", "days_kept, limit", "days_kept > limit",
    "True if a book kept `days_kept` days is overdue, that is, kept longer than the `limit` days allowed, else False",
    [(15, 14), (3, 14), (14, 14), (30, 21), (0, 7), (22, 21), (10, 7), (5, 7), (7, 10)],
)  # fmt: skip
FAMILY_LIBRARY.line(
    "late_fee", "days_late", "days_late * 2",
    "the late fee for a library book returned `days_late` days late, at 2 per day",
    [3, 0, 1, 5, 10, 7, 25, 2, 12],
)  # fmt: skip
FAMILY_LIBRARY.line(
    "can_borrow_more", "borrowed, limit", "borrowed < limit",
    "True if a reader who has `borrowed` books may borrow another one, that is, `borrowed` is below the `limit`, else False",
    [(2, 5), (5, 5), (0, 3), (6, 5), (4, 5), (3, 3), (1, 2), (9, 10), (10, 8)],
)  # fmt: skip
PAGES = [[120, 350, 90], [], [400], [200, 301], [50, 60, 70], [320, 310, 100], [299, 300], [1000], [150, 450, 80, 330]]  # fmt: skip
FAMILY_LIBRARY.line(
    "books_in_stack", "pages", "len(pages)",
    "how many books are in a stack whose page counts are in the list `pages`",
    PAGES,
)  # fmt: skip
FAMILY_LIBRARY.line(
    "thick_books", "pages", "[p for p in pages if p > 300]",
    "a list of the page counts of the list `pages` that are over 300 (thick books), in order",
    PAGES,
)  # fmt: skip
FAMILY_LIBRARY.line(
    "pages_left_to_read", "total, read", "total - read",
    "how many pages of a book with `total` pages are left after reading `read` pages",
    [(300, 120), (100, 100), (250, 0), (90, 45), (400, 399), (50, 10), (620, 300), (12, 7), (200, 50)],
)  # fmt: skip
FAMILY_LIBRARY.line(
    "on_the_shelf", "shelf, title", "title in shelf",
    "True if the book title `title` is in the list `shelf` of titles, else False",
    [(["Emma", "Dune"], "Dune"), ([], "Emma"), (["Heidi"], "Emma"), (["Dune", "Heidi", "Emma"], "Emma"), (["Ulysses"], "Ulysses"), (["Dune"], "dune"), (["A", "B"], "C"), (["It", "Dune"], "It"), (["Emma"], "Dune")],
)  # fmt: skip

FAMILY_ATTENDANCE = CoreFamily("class-attendance", "test")
FAMILY_ATTENDANCE.line(
    "absent_students", "total, present", "total - present",
    "how many students of a class of `total` students are absent when `present` of them are present",
    [(25, 20), (30, 30), (12, 0), (28, 27), (20, 15), (18, 9), (32, 30), (10, 4), (24, 21)],
)  # fmt: skip
FAMILY_ATTENDANCE.line(
    "everyone_here", "total, present", "present == total",
    "True if all `total` students of a class are present when `present` students are present, else False",
    [(25, 20), (30, 30), (12, 0), (28, 27), (20, 20), (18, 9), (5, 5), (10, 4), (24, 24)],
)  # fmt: skip
MARKS = [["P", "A", "P"], [], ["A"], ["P", "P", "P", "P"], ["A", "A", "P"], ["P"], ["P", "A", "A", "A", "P"], ["A", "P"], ["P", "P", "A"]]  # fmt: skip
FAMILY_ATTENDANCE.line(
    "days_present", "marks", "marks.count('P')",
    "how many days a student was present, given the list `marks` of daily marks where 'P' means present and 'A' absent",
    MARKS,
)  # fmt: skip
FAMILY_ATTENDANCE.line(
    "days_absent", "marks", "marks.count('A')",
    "how many days a student was absent, given the list `marks` of daily marks where 'P' means present and 'A' absent",
    MARKS,
)  # fmt: skip
FAMILY_ATTENDANCE.line(
    "never_absent", "marks", "'A' not in marks",
    "True if a student was never absent, given the list `marks` of daily marks where 'P' means present and 'A' absent, else False",
    [["P", "A", "P"], [], ["A"], ["P", "P", "P", "P"], ["A", "A", "P"], ["P"], ["P", "P"], ["A", "P"], ["P", "P", "A"]],
)  # fmt: skip
FAMILY_ATTENDANCE.line(
    "full_groups", "students, size", "students // size",
    "how many full groups of `size` students can be made from `students` students",
    [(25, 4), (30, 5), (12, 3), (7, 2), (20, 6), (3, 4), (28, 7), (10, 3), (24, 5)],
)  # fmt: skip
FAMILY_ATTENDANCE.line(
    "students_without_group", "students, size", "students % size",
    "how many of `students` students are left without a group when making as many full groups of `size` as possible",
    [(25, 4), (30, 5), (12, 5), (7, 2), (20, 6), (3, 4), (28, 7), (10, 3), (24, 5)],
)  # fmt: skip
FAMILY_ATTENDANCE.line(
    "present_on_day", "marks, day", "marks[day] == 'P'",
    "True if the student was present on day `day` (an index into the list `marks` of daily marks, 'P' for present and 'A' for absent), else False",
    [(["P", "A", "P"], 0), (["P", "A", "P"], 1), (["A"], 0), (["P", "P", "P", "P"], 3), (["A", "A", "P"], 2), (["A", "A", "P"], 0), (["P", "A"], 1), (["A", "P"], 1), (["P", "P", "A"], 2)],
)  # fmt: skip

FAMILY_GAME = CoreFamily("game-lives-and-levels", "test")
FAMILY_GAME.line(
    "lives_left", "lives, hits", "lives - hits",
    "how many lives a player who had `lives` lives has left after being hit `hits` times (one life per hit)",
    [(3, 1), (5, 5), (9, 0), (3, 2), (10, 4), (1, 1), (7, 3), (4, 0), (6, 5)],
)  # fmt: skip
FAMILY_GAME.line(
    "is_game_over", "lives", "lives <= 0",
    "True if the game is over for a player with `lives` lives left (0 or fewer), else False",
    [3, 0, 1, -1, 5, 2, -2, 9, 4],
)  # fmt: skip
FAMILY_GAME.line(
    "score_with_stars", "score, stars", "score + 10 * stars",
    "the final score of a player who scored `score` points and collected `stars` stars worth 10 points each",
    [(100, 2), (0, 0), (55, 1), (20, 5), (300, 0), (0, 3), (45, 10), (7, 7), (250, 4)],
)  # fmt: skip
FAMILY_GAME.line(
    "level_for_score", "score", "score // 100 + 1",
    "the level of a player with `score` points: level 1 below 100 points, and one level more for every full 100 points (`score // 100 + 1`)",
    [150, 0, 99, 100, 320, 45, 999, 1000, 201],
)  # fmt: skip
FAMILY_GAME.line(
    "new_best_score", "score, best", "max(score, best)",
    "the new best score after a game with `score` points when the best score so far was `best`",
    [(120, 100), (50, 80), (0, 0), (300, 299), (10, 90), (75, 75), (500, 20), (1, 2), (60, 45)],
)  # fmt: skip
FAMILY_GAME.line(
    "beat_best_score", "score, best", "score > best",
    "True if a game with `score` points beat the best score so far `best` (scored more), else False",
    [(120, 100), (50, 80), (0, 0), (300, 299), (10, 90), (75, 75), (500, 20), (1, 2), (60, 45)],
)  # fmt: skip
FAMILY_GAME.line(
    "coins_collected", "coins", "sum(coins)",
    "how many coins a player collected in all, given the coins collected on each level in the list `coins`",
    [[3, 5, 2], [], [10], [0, 0, 4], [7, 7], [1, 2, 3, 4], [25], [12, 0], [6, 9, 1]],
)  # fmt: skip
FAMILY_GAME.line(
    "extra_lives", "coins", "coins // 100",
    "how many extra lives a player earns with `coins` coins when every 100 coins give one extra life",
    [250, 0, 99, 100, 310, 45, 1000, 200, 199],
)  # fmt: skip

FAMILY_STOCK = CoreFamily("store-stock", "test")
FAMILY_STOCK.line(
    "needs_restock", "stock", "stock < 5",
    "True if a product with `stock` units left must be reordered (fewer than 5 left), else False",
    [3, 0, 5, 12, 4, 1, 20, 6, 50],
)  # fmt: skip
FAMILY_STOCK.line(
    "stock_after_sales", "stock, sold", "stock - sold",
    "how many units of a product are left in the store after `sold` of the `stock` units were sold",
    [(20, 5), (10, 10), (7, 0), (30, 12), (15, 1), (8, 3), (100, 45), (4, 2), (50, 49)],
)  # fmt: skip
SHELVES = [[4, 0, 7], [], [0], [5, 5, 5], [12, 0, 0, 3], [9], [0, 2, 0], [1, 1], [30, 8, 0, 6]]
FAMILY_STOCK.line(
    "units_in_store", "counts", "sum(counts)",
    "how many units the store has in all, given the unit counts of its products in the list `counts`",
    SHELVES,
)  # fmt: skip
FAMILY_STOCK.line(
    "sold_out_products", "counts", "counts.count(0)",
    "how many products are sold out (have 0 units), given the unit counts of the products in the list `counts`",
    SHELVES,
)  # fmt: skip
FAMILY_STOCK.line(
    "full_crates", "units", "units // 12",
    "how many full crates of 12 units can be packed from `units` units",
    [30, 0, 12, 11, 24, 100, 5, 37, 60],
)  # fmt: skip
FAMILY_STOCK.line(
    "in_stock_names", "names, counts", "[n for n, c in zip(names, counts) if c > 0]",
    "a list of the product names of the list `names` whose unit count in the list `counts` (same order) is more than 0",
    [(["tea", "jam"], [3, 0]), ([], []), (["milk"], [0]), (["egg", "oil", "salt"], [1, 2, 3]), (["rice", "soap"], [0, 7]), (["pen"], [4]), (["a", "b", "c"], [0, 0, 5]), (["cup", "mug"], [0, 0]), (["tea", "oil"], [9, 1])],
)  # fmt: skip
FAMILY_STOCK.line(
    "stock_label", "stock", "'low' if stock < 10 else 'ok'",
    "the shelf label of a product with `stock` units: 'low' if fewer than 10 units are left and 'ok' otherwise",
    [3, 0, 10, 12, 9, 40, 20, 6, 2],
)  # fmt: skip

FAMILY_BATTERY = CoreFamily("phone-batteries", "test")
FAMILY_BATTERY.line(
    "battery_after_use", "level, used", "max(level - used, 0)",
    "the battery level in percent of a phone at `level` percent after using `used` percent, but never below 0",
    [(80, 30), (20, 25), (100, 0), (50, 50), (15, 5), (60, 70), (90, 45), (10, 3), (35, 40)],
)  # fmt: skip
FAMILY_BATTERY.line(
    "needs_charging", "level", "level < 15",
    "True if a phone with `level` percent battery needs charging (below 15), else False",
    [50, 5, 14, 15, 0, 100, 12, 75, 21],
)  # fmt: skip
FAMILY_BATTERY.line(
    "battery_bars", "level", "level // 25",
    "how many bars the battery icon of a phone at `level` percent shows, one bar per full 25 percent (`level // 25`)",
    [50, 100, 99, 0, 20, 75, 10, 88, 30],
)  # fmt: skip
FAMILY_BATTERY.line(
    "battery_text", "level", "str(level) + '%'",
    "the battery level `level` (an integer) as a text followed by '%' (for example '42%')",
    [50, 100, 7, 0, 20, 75, 13, 88, 1],
)  # fmt: skip
FAMILY_BATTERY.line(
    "minutes_to_full", "level", "(100 - level) * 2",
    "how many minutes a phone at `level` percent needs to charge to 100 percent when each percent takes 2 minutes",
    [50, 100, 7, 0, 20, 75, 13, 88, 99],
)  # fmt: skip
FAMILY_BATTERY.line(
    "lowest_battery", "levels", "min(levels)",
    "the lowest battery level of the non-empty list `levels` of the phones of a family",
    [[50, 20, 80], [100], [7, 7], [0, 45], [99, 98, 97], [12, 60, 3, 40], [75, 88], [30], [65, 15, 90]],
)  # fmt: skip
FAMILY_BATTERY.line(
    "hours_left", "level, per_hour", "level // per_hour",
    "how many full hours a phone at `level` percent lasts when it uses `per_hour` percent every hour",
    [(80, 10), (50, 20), (100, 25), (9, 10), (30, 7), (60, 15), (45, 5), (12, 4), (99, 33)],
)  # fmt: skip

FAMILY_VOTES = CoreFamily("votes-and-polls", "test")
BALLOTS = [["yes", "no", "yes"], [], ["no"], ["yes", "yes", "yes"], ["no", "no", "yes", "no"], ["yes"], ["no", "yes"], ["yes", "no", "no", "yes", "yes"]]  # fmt: skip
FAMILY_VOTES.line(
    "yes_votes", "votes", "votes.count('yes')",
    "how many 'yes' votes are in the list `votes` of 'yes' and 'no' votes",
    BALLOTS,
)  # fmt: skip
FAMILY_VOTES.line(
    "no_votes", "votes", "votes.count('no')",
    "how many 'no' votes are in the list `votes` of 'yes' and 'no' votes",
    BALLOTS,
)  # fmt: skip
VOTE_PAIRS = [(12, 8), (5, 5), (0, 3), (100, 99), (7, 20), (40, 40), (15, 2), (1, 0), (30, 31)]
FAMILY_VOTES.line(
    "is_tied_vote", "a, b", "a == b",
    "True if a vote between two candidates that got `a` and `b` votes is a tie, else False",
    [(12, 8), (5, 5), (0, 0), (100, 99), (7, 20), (40, 40), (15, 2), (1, 0), (30, 30)],
)  # fmt: skip
FAMILY_VOTES.line(
    "vote_winner", "a, b", "'A' if a > b else 'B'",
    "'A' if candidate A with `a` votes got more votes than candidate B with `b` votes, and 'B' otherwise",
    VOTE_PAIRS,
)  # fmt: skip
FAMILY_VOTES.line(
    "winning_margin_votes", "a, b", "abs(a - b)",
    "by how many votes the winner won a vote between two candidates that got `a` and `b` votes (0 for a tie)",
    VOTE_PAIRS,
)  # fmt: skip
FAMILY_VOTES.line(
    "ballots_cast", "votes", "len(votes)",
    "how many votes were cast, given the list `votes` of all the 'yes' and 'no' votes",
    BALLOTS,
)  # fmt: skip
FAMILY_VOTES.line(
    "has_majority", "votes, total", "votes * 2 > total",
    "True if a candidate with `votes` votes out of `total` votes has a majority (more than half), else False",
    [(12, 20), (5, 10), (0, 3), (51, 100), (7, 20), (40, 40), (15, 31), (1, 1), (30, 61)],
)  # fmt: skip
FAMILY_VOTES.line(
    "voters_missing", "voters, voted", "voters - voted",
    "how many of the `voters` people allowed to vote did not vote when `voted` of them voted",
    [(120, 80), (50, 50), (10, 0), (100, 99), (70, 20), (40, 35), (15, 2), (8, 5), (300, 210)],
)  # fmt: skip

FAMILY_PIZZA = CoreFamily("sharing-pizza", "test")
SHARES = [(8, 4), (8, 3), (12, 5), (16, 4), (6, 6), (10, 3), (24, 7), (5, 2), (9, 9), (3, 4)]
FAMILY_PIZZA.line(
    "slices_each", "slices, people", "slices // people",
    "how many slices each of `people` people gets when `slices` pizza slices are shared equally (whole slices only)",
    SHARES,
)  # fmt: skip
FAMILY_PIZZA.line(
    "slices_left_over", "slices, people", "slices % people",
    "how many of `slices` pizza slices are left over after giving each of `people` people the same number of whole slices",
    SHARES,
)  # fmt: skip
FAMILY_PIZZA.line(
    "shares_evenly", "slices, people", "slices % people == 0",
    "True if `slices` pizza slices can be shared among `people` people with none left over, else False",
    SHARES,
)  # fmt: skip
FAMILY_PIZZA.line(
    "slices_in_pizzas", "pizzas", "pizzas * 8",
    "how many slices there are in `pizzas` pizzas that are each cut into 8 slices",
    [3, 0, 1, 5, 10, 7, 25, 2, 12],
)  # fmt: skip
FAMILY_PIZZA.line(
    "enough_slices", "pizzas, people", "pizzas * 8 >= people * 2",
    "True if `pizzas` pizzas of 8 slices each are enough to give `people` people 2 slices each, else False",
    [(1, 4), (1, 5), (2, 8), (3, 13), (0, 1), (5, 20), (2, 9), (4, 10), (1, 2)],
)  # fmt: skip
FAMILY_PIZZA.line(
    "slices_eaten", "eaten", "sum(eaten)",
    "how many slices were eaten in all, given how many slices each person ate in the list `eaten`",
    [[2, 3, 1], [], [4], [0, 0, 2], [3, 3], [1, 2, 3, 4], [8], [2, 0], [5, 1, 1]],
)  # fmt: skip
FAMILY_PIZZA.line(
    "slices_remaining", "pizzas, eaten", "pizzas * 8 - eaten",
    "how many slices are left of `pizzas` pizzas of 8 slices each after `eaten` slices were eaten",
    [(2, 10), (1, 8), (3, 0), (1, 3), (4, 30), (5, 17), (2, 16), (6, 1), (3, 20)],
)  # fmt: skip

FAMILY_GARDEN = CoreFamily("garden-plants", "test")
FAMILY_GARDEN.line(
    "height_after_weeks", "height, weeks", "height + 2 * weeks",
    "the height in cm of a plant that is `height` cm tall now and grows 2 cm every week, after `weeks` weeks",
    [(10, 3), (0, 0), (5, 1), (20, 10), (1, 4), (30, 0), (12, 6), (7, 2), (0, 9)],
)  # fmt: skip
FAMILY_GARDEN.line(
    "needs_watering", "dry_days", "dry_days >= 4",
    "True if a plant that has not been watered for `dry_days` days needs water (4 days or more), else False",
    [2, 0, 3, 5, 1, 10, 4, 7, 6],
)  # fmt: skip
FAMILY_GARDEN.line(
    "seeds_per_row", "seeds, rows", "seeds // rows",
    "how many seeds go in each of `rows` garden rows when `seeds` seeds are shared equally (whole seeds only)",
    [(20, 4), (30, 7), (12, 12), (9, 2), (50, 5), (3, 4), (100, 8), (18, 3), (25, 6)],
)  # fmt: skip
FLOWERS = [[3, 5, 2], [], [10], [0, 0, 4], [7, 7], [1, 2, 3, 4], [25], [12, 0], [6, 9, 1]]
FAMILY_GARDEN.line(
    "total_flowers", "flowers", "sum(flowers)",
    "how many flowers there are in all in a garden, given the number of flowers on each plant in the list `flowers`",
    FLOWERS,
)  # fmt: skip
FAMILY_GARDEN.line(
    "plants_without_flowers", "flowers", "flowers.count(0)",
    "how many plants have no flowers, given the number of flowers on each plant in the list `flowers`",
    [[3, 0, 2], [], [0], [0, 0, 4], [7, 7], [0, 2, 0, 0], [25], [12, 0], [6, 9, 1]],
)  # fmt: skip
FAMILY_GARDEN.line(
    "tallest_plant", "heights", "max(heights)",
    "the height of the tallest plant, given the heights of the plants of a garden in the non-empty list `heights`",
    [[30, 12, 45], [8], [5, 5], [0, 14], [99, 98, 97], [12, 60, 3, 40], [75, 88], [1], [65, 15, 90]],
)  # fmt: skip
FAMILY_GARDEN.line(
    "tall_plants", "heights", "[h for h in heights if h > 50]",
    "a list of the heights of the list `heights` of garden plants that are over 50, in order",
    [[30, 52, 45], [], [80], [50, 51], [99, 98, 7], [12, 60, 3, 40], [75, 88], [1], [65, 15, 90]],
)  # fmt: skip
FAMILY_GARDEN.line(
    "water_for_plants", "plants", "plants * 3",
    "how many liters of water are needed for `plants` plants that each need 3 liters",
    [4, 0, 1, 3, 10, 7, 25, 2, 12],
)  # fmt: skip
