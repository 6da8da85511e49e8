"""Third batch of test families (kinds of task no train family states), plain one-step
operations in a small everyday story: elevators, dice, playing cards, hotel rooms, cars and fuel,
steps and exercise, parcels, traffic lights and birthday parties."""

from __future__ import annotations

from core_families import CoreFamily

STOPS = [[3, 7, 12], [1], [5, 2], [10, 4, 8, 1], [0, 6], [9, 9, 2], [4, 15, 3], [2], [11, 20]]
FAMILY_ELEVATOR = CoreFamily("elevator-floors", "test")
FAMILY_ELEVATOR.line(
    "floor_after_ride", "floor, up", "floor + up",
    "the floor an elevator reaches when it starts on floor `floor` and goes up `up` floors",
    [(2, 3), (0, 5), (7, 1), (10, 0), (4, 4), (1, 9), (12, 3), (6, 2), (3, 11)],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "floors_apart", "a, b", "abs(a - b)",
    "how many floors apart the floors `a` and `b` are (never negative)",
    [(2, 7), (9, 4), (0, 0), (5, 1), (3, 10), (8, 8), (12, 0), (1, 6), (7, 2)],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "is_top_floor", "floor, top", "floor == top",
    "True if an elevator on floor `floor` is on the top floor `top` of the building, else False",
    [(5, 10), (10, 10), (0, 3), (3, 3), (7, 8), (12, 12), (1, 20), (20, 20), (9, 6)],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "floor_button", "floor", "'G' if floor == 0 else str(floor)",
    "the label of the elevator button for floor `floor`: 'G' for floor 0, else the floor number as a string",
    [3, 0, 12, 1, 7, 20, 5, 9, 2],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "over_capacity", "people, limit", "people > limit",
    "True if `people` people are too many for an elevator that takes at most `limit` people, else False",
    [(9, 8), (4, 8), (8, 8), (12, 10), (0, 6), (7, 6), (3, 4), (11, 12), (15, 10)],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "elevator_trips", "people", "(people + 3) // 4",
    "how many trips an elevator that takes 4 people at a time needs to carry `people` people, rounding up (`(people + 3) // 4`)",
    [9, 0, 4, 1, 8, 13, 20, 5, 3],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "stops_made", "stops", "len(stops)",
    "how many stops an elevator made, given the list `stops` of the floors where it stopped",
    [[3, 7, 12], [], [5, 2], [10, 4, 8, 1], [6], [9, 9, 2], [4, 15, 3, 1, 2], [2, 8], [11]],
)  # fmt: skip
FAMILY_ELEVATOR.line(
    "highest_stop", "stops", "max(stops)",
    "the highest floor of the non-empty list `stops` of the floors where an elevator stopped",
    STOPS,
)  # fmt: skip

ROLLS = [[3, 6, 2], [], [6, 6], [1], [4, 5, 1, 6], [2, 2, 2], [5], [6, 1, 3, 6, 6], [1, 4]]
FAMILY_DICE = CoreFamily("dice-games", "test")
FAMILY_DICE.line(
    "dice_total", "a, b", "a + b",
    "the total shown by two dice that show `a` and `b`",
    [(3, 4), (6, 6), (1, 1), (2, 5), (6, 1), (4, 4), (5, 3), (1, 6), (2, 2)],
)  # fmt: skip
FAMILY_DICE.line(
    "is_double", "a, b", "a == b",
    "True if two dice that show `a` and `b` show a double (the same number), else False",
    [(3, 4), (6, 6), (1, 1), (2, 5), (6, 1), (4, 4), (5, 3), (1, 6), (2, 2)],
)  # fmt: skip
FAMILY_DICE.line(
    "rolled_a_six", "rolls", "6 in rolls",
    "True if the list `rolls` of dice rolls contains a 6, else False", ROLLS,
)  # fmt: skip
FAMILY_DICE.line(
    "count_sixes", "rolls", "rolls.count(6)",
    "how many sixes there are in the list `rolls` of dice rolls", ROLLS,
)  # fmt: skip
FAMILY_DICE.line(
    "move_on_board", "square, roll", "(square + roll) % 20",
    "the square a token on square `square` of a round board with squares 0 to 19 reaches after moving `roll` squares forward (`(square + roll) % 20`)",
    [(3, 4), (18, 5), (0, 6), (19, 1), (10, 3), (15, 5), (7, 2), (16, 6), (12, 1)],
)  # fmt: skip
FAMILY_DICE.line(
    "best_roll", "rolls", "max(rolls)",
    "the highest roll of the non-empty list `rolls` of dice rolls", [r for r in ROLLS if r],
)  # fmt: skip
FAMILY_DICE.line(
    "rolls_total", "rolls", "sum(rolls)",
    "the total of all the dice rolls of the list `rolls` (0 if there are none)", ROLLS,
)  # fmt: skip
FAMILY_DICE.line(
    "is_high_total", "total", "total >= 10",
    "True if the total `total` of two dice (2 to 12) is a high total, 10 or more, else False",
    [10, 3, 12, 7, 11, 2, 9, 6, 8],
)  # fmt: skip

FAMILY_CARDS = CoreFamily("playing-cards", "test")
FAMILY_CARDS.line(
    "card_name", "rank, suit", "rank + ' of ' + suit",
    "the name of a playing card: the string `rank`, then ' of ', then the string `suit`",
    [("King", "Hearts"), ("2", "Spades"), ("Ace", "Clubs"), ("10", "Diamonds"), ("Queen", "Spades"), ("7", "Hearts"), ("Jack", "Clubs"), ("3", "Diamonds"), ("Ace", "Hearts")],
)  # fmt: skip
FAMILY_CARDS.line(
    "is_face_card", "rank", "rank in ['Jack', 'Queen', 'King']",
    "True if a card of rank `rank` is a face card ('Jack', 'Queen' or 'King'), else False",
    ["King", "2", "Jack", "Ace", "Queen", "10", "7", "king", "9"],
)  # fmt: skip
FAMILY_CARDS.line(
    "cards_to_draw", "hand, target", "max(target - hand, 0)",
    "how many cards a player who holds `hand` cards must draw to hold `target` cards (0 if they already hold that many or more)",
    [(3, 7), (7, 7), (0, 5), (9, 5), (2, 3), (5, 10), (1, 1), (6, 4), (4, 8)],
)  # fmt: skip
FAMILY_CARDS.line(
    "hand_size", "hand", "len(hand)",
    "how many cards are in the list `hand` of card names",
    [["Ace", "King"], [], ["2"], ["3", "4", "5"], ["Queen", "Jack", "10", "9"], ["7", "7"], ["Ace"], ["5", "6", "7", "8", "9"], ["King", "2", "Ace"]],
)  # fmt: skip
FAMILY_CARDS.line(
    "hand_points", "points", "sum(points)",
    "the total points of a hand of cards, given the points of each card in the list `points`",
    [[10, 5], [], [11], [2, 3, 4], [10, 10, 1], [7], [9, 8, 2], [1, 1, 1, 1], [11, 10]],
)  # fmt: skip
FAMILY_CARDS.line(
    "cards_each", "cards, players", "cards // players",
    "how many cards each of `players` players gets when `cards` cards are dealt out equally (whole cards only)",
    [(52, 4), (52, 3), (20, 5), (7, 2), (52, 5), (10, 10), (3, 4), (36, 6), (52, 2)],
)  # fmt: skip
FAMILY_CARDS.line(
    "cards_left_in_deck", "dealt", "52 - dealt",
    "how many cards are left in a deck of 52 cards after `dealt` cards were dealt",
    [5, 0, 52, 13, 20, 1, 40, 26, 7],
)  # fmt: skip
FAMILY_CARDS.line(
    "has_an_ace", "hand", "'Ace' in hand",
    "True if the list `hand` of card names contains 'Ace', else False",
    [["Ace", "King"], [], ["2"], ["3", "Ace", "5"], ["Queen", "Jack"], ["ace"], ["Ace"], ["5", "6", "7"], ["King", "2", "Ace"]],
)  # fmt: skip

FAMILY_HOTEL = CoreFamily("hotel-rooms", "test")
FAMILY_HOTEL.line(
    "room_floor", "room", "room // 100",
    "the floor of the hotel room number `room`: the room number divided by 100, rounded down (room 305 is on floor 3)",
    [305, 112, 1204, 7, 450, 999, 201, 68, 1510],
)  # fmt: skip
FAMILY_HOTEL.line(
    "room_on_floor", "room", "room % 100",
    "the number of the hotel room `room` on its floor: the last two digits (`room % 100`; room 305 is room 5 of its floor)",
    [305, 112, 1204, 7, 450, 999, 201, 68, 1510],
)  # fmt: skip
FAMILY_HOTEL.line(
    "stay_cost", "nights, rate", "nights * rate",
    "the cost of a hotel stay of `nights` nights at `rate` per night",
    [(3, 80), (1, 120), (0, 90), (7, 50), (2, 200), (5, 75), (10, 60), (4, 99), (6, 45)],
)  # fmt: skip
FAMILY_HOTEL.line(
    "rooms_free", "rooms, booked", "rooms - booked",
    "how many rooms of a hotel with `rooms` rooms are free when `booked` of them are booked",
    [(50, 20), (10, 10), (30, 0), (120, 97), (8, 3), (40, 39), (15, 6), (200, 150), (12, 1)],
)  # fmt: skip
FAMILY_HOTEL.line(
    "is_fully_booked", "rooms, booked", "booked >= rooms",
    "True if a hotel with `rooms` rooms is fully booked when `booked` rooms are booked (all of them or more), else False",
    [(50, 20), (10, 10), (30, 0), (8, 9), (40, 39), (15, 15), (200, 150), (12, 12), (6, 2)],
)  # fmt: skip
FAMILY_HOTEL.line(
    "room_key_label", "room", "'Room ' + str(room)",
    "the label of the key of the hotel room number `room` (an integer): 'Room ' followed by the number",
    [305, 112, 7, 1204, 450, 21, 999, 68, 201],
)  # fmt: skip
FAMILY_HOTEL.line(
    "nights_of_stay", "arrive, leave", "leave - arrive",
    "how many nights a guest stays who arrives on day `arrive` and leaves on day `leave` of the same month",
    [(3, 7), (10, 11), (1, 15), (20, 27), (5, 5), (12, 14), (2, 30), (18, 21), (8, 16)],
)  # fmt: skip
FAMILY_HOTEL.line(
    "guests_in_hotel", "guests", "sum(guests)",
    "how many guests are in a hotel, given the number of guests in each occupied room in the list `guests`",
    [[2, 1, 3], [], [4], [1, 1, 1, 1], [2, 2], [3, 0, 2], [1], [2, 4, 1, 2, 2], [5, 3]],
)  # fmt: skip

TRIPS = [[120, 45, 300], [], [80], [15, 15, 30], [250, 10], [60, 60, 60, 60], [5], [400, 120, 90], [33, 77]]  # fmt: skip
FAMILY_FUEL = CoreFamily("cars-and-fuel", "test")
FAMILY_FUEL.line(
    "liters_for_trip", "km", "km // 10",
    "how many whole liters of fuel a car that uses 1 liter every 10 kilometers uses on a trip of `km` kilometers (`km // 10`)",
    [120, 0, 35, 10, 400, 99, 250, 8, 61],
)  # fmt: skip
FAMILY_FUEL.line(
    "fuel_left", "tank, used", "tank - used",
    "how many liters are left in a tank that held `tank` liters after the car used `used` liters",
    [(50, 20), (40, 40), (60, 0), (45, 12), (30, 29), (55, 7), (20, 15), (70, 33), (10, 1)],
)  # fmt: skip
FAMILY_FUEL.line(
    "fill_up_cost", "liters, price", "liters * price",
    "the cost of filling up `liters` liters of fuel at `price` per liter",
    [(40, 2), (0, 3), (25, 4), (10, 10), (55, 2), (1, 7), (30, 3), (12, 5), (48, 1)],
)  # fmt: skip
FAMILY_FUEL.line(
    "can_reach", "range_left, distance", "range_left >= distance",
    "True if a car that can still drive `range_left` kilometers can reach a place `distance` kilometers away, else False",
    [(100, 80), (50, 60), (30, 30), (0, 5), (400, 399), (12, 40), (90, 10), (70, 71), (25, 25)],
)  # fmt: skip
FAMILY_FUEL.line(
    "is_low_on_fuel", "liters", "liters < 5",
    "True if a car with `liters` liters of fuel is low on fuel (fewer than 5 liters), else False",
    [3, 20, 5, 0, 4, 45, 1, 6, 12],
)  # fmt: skip
FAMILY_FUEL.line(
    "room_in_tank", "capacity, liters", "capacity - liters",
    "how many liters still fit in a tank of `capacity` liters that holds `liters` liters",
    [(50, 20), (40, 40), (60, 0), (45, 12), (30, 29), (55, 7), (20, 15), (70, 33), (10, 1)],
)  # fmt: skip
FAMILY_FUEL.line(
    "odometer_after_trips", "odometer, trips", "odometer + sum(trips)",
    "the reading of a car's odometer that showed `odometer` kilometers after the trips of the list `trips` (in kilometers)",
    [(1000, [120, 45]), (0, []), (500, [80]), (2500, [15, 15, 30]), (90, [10]), (7000, [60, 60]), (1, [5, 5]), (300, [400, 120, 90]), (42, [])],
)  # fmt: skip
FAMILY_FUEL.line(
    "longest_trip", "trips", "max(trips)",
    "the longest trip of the non-empty list `trips` of trip lengths in kilometers", [t for t in TRIPS if t],
)  # fmt: skip

STEPS = [[4000, 9000, 12000], [], [6500], [10000, 10000], [2000, 3000, 8000, 500], [7500, 4999], [15000, 200], [5000], [3000, 6000, 9000]]  # fmt: skip
FAMILY_STEPS = CoreFamily("steps-and-exercise", "test")
FAMILY_STEPS.line(
    "total_steps", "steps", "sum(steps)",
    "the total number of steps walked, given the steps of each day in the list `steps`", STEPS,
)  # fmt: skip
FAMILY_STEPS.line(
    "step_goal_met", "steps, goal", "steps >= goal",
    "True if walking `steps` steps meets the daily goal of `goal` steps (at least that many), else False",
    [(8000, 10000), (12000, 10000), (5000, 5000), (0, 3000), (9999, 10000), (7000, 6000), (10000, 8000), (2500, 2600), (4000, 4000)],
)  # fmt: skip
FAMILY_STEPS.line(
    "steps_still_needed", "steps, goal", "max(goal - steps, 0)",
    "how many more steps are needed to reach the goal `goal` after walking `steps` steps (0 if the goal is reached)",
    [(8000, 10000), (12000, 10000), (5000, 5000), (0, 3000), (9999, 10000), (7000, 6000), (2500, 2600), (100, 8000), (4000, 4500)],
)  # fmt: skip
FAMILY_STEPS.line(
    "steps_to_kilometers", "steps", "steps // 1300",
    "how many whole kilometers are walked in `steps` steps when 1300 steps make a kilometer (`steps // 1300`)",
    [2600, 0, 1299, 13000, 5000, 1300, 9100, 700, 20000],
)  # fmt: skip
FAMILY_STEPS.line(
    "active_days", "steps", "sum(1 for s in steps if s >= 5000)",
    "how many days were active (5000 steps or more), given the steps of each day in the list `steps`", STEPS,
)  # fmt: skip
FAMILY_STEPS.line(
    "best_day", "steps", "max(steps)",
    "the most steps walked on one day, given the steps of each day in the non-empty list `steps`",
    [s for s in STEPS if s],
)  # fmt: skip
FAMILY_STEPS.line(
    "push_ups_done", "sets, reps", "sets * reps",
    "how many push-ups were done in `sets` sets of `reps` push-ups each",
    [(3, 10), (0, 15), (5, 5), (1, 20), (4, 12), (2, 8), (6, 0), (10, 3), (3, 25)],
)  # fmt: skip
FAMILY_STEPS.line(
    "calories_burned", "minutes", "minutes * 8",
    "how many calories are burned in `minutes` minutes of running at 8 calories per minute",
    [30, 0, 1, 45, 10, 60, 5, 90, 12],
)  # fmt: skip

WEIGHTS = [[2, 5, 1], [], [12], [3, 3, 3], [25, 4], [1], [8, 0, 7, 2], [30, 22], [6, 9]]
FAMILY_PARCELS = CoreFamily("parcels-and-post", "test")
FAMILY_PARCELS.line(
    "stamps_needed", "letters", "letters * 2",
    "how many stamps are needed for `letters` letters when each letter needs 2 stamps",
    [3, 0, 1, 10, 7, 25, 4, 12, 6],
)  # fmt: skip
FAMILY_PARCELS.line(
    "shipping_cost", "kilos", "5 + kilos * 2",
    "the cost of shipping a parcel of `kilos` kilograms: 5, plus 2 for every kilogram",
    [3, 0, 1, 10, 7, 25, 4, 12, 6],
)  # fmt: skip
FAMILY_PARCELS.line(
    "is_heavy_parcel", "kilos", "kilos > 20",
    "True if a parcel of `kilos` kilograms is heavy (more than 20 kilograms), else False",
    [25, 3, 20, 21, 0, 40, 19, 100, 8],
)  # fmt: skip
FAMILY_PARCELS.line(
    "total_weight", "kilos", "sum(kilos)",
    "the total weight of a delivery, given the weight of each parcel in kilograms in the list `kilos`",
    WEIGHTS,
)  # fmt: skip
FAMILY_PARCELS.line(
    "boxes_for_items", "items", "(items + 9) // 10",
    "how many boxes are needed for `items` items when a box holds 10 items, rounding up (`(items + 9) // 10`)",
    [25, 0, 10, 1, 9, 11, 40, 99, 5],
)  # fmt: skip
FAMILY_PARCELS.line(
    "address_line", "number, street", "str(number) + ' ' + street",
    "the first line of an address: the house number `number` (an integer), a space, then the string `street`",
    [(12, "Oak Road"), (1, "High Street"), (221, "Baker Street"), (7, "Elm Lane"), (50, "Main Street"), (3, "Mill Way"), (99, "Park Avenue"), (18, "Church Road"), (4, "Bay Close")],
)  # fmt: skip
FAMILY_PARCELS.line(
    "is_postcode", "code", "len(code) == 5 and code.isdigit()",
    "True if the string `code` is a valid postcode: exactly 5 characters, all of them digits, else False",
    ["12345", "1234", "abcde", "99999", "123456", "00501", "12a45", "", "54321"],
)  # fmt: skip
FAMILY_PARCELS.line(
    "delivered_count", "statuses", "statuses.count('delivered')",
    "how many parcels were delivered, given the list `statuses` of parcel statuses ('delivered', 'on the way' or 'lost')",
    [["delivered", "lost"], [], ["on the way"], ["delivered", "delivered"], ["lost", "delivered", "on the way", "delivered"], ["delivered"], ["lost", "lost"], ["on the way", "delivered", "delivered", "delivered"], ["delivered", "on the way"]],
)  # fmt: skip

LIGHTS = [["red", "green"], [], ["green"], ["red", "red", "yellow"], ["yellow"], ["green", "red", "green", "red"], ["red"], ["green", "green", "yellow", "red"], ["yellow", "red"]]  # fmt: skip
FAMILY_TRAFFIC = CoreFamily("traffic-lights", "test")
FAMILY_TRAFFIC.line(
    "green_time_left", "length, passed", "length - passed",
    "how many seconds are left of a green light that lasts `length` seconds when `passed` seconds have passed",
    [(30, 12), (45, 45), (20, 0), (60, 59), (25, 5), (40, 17), (15, 14), (90, 30), (35, 20)],
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "light_cycle_seconds", "green, yellow, red", "green + yellow + red",
    "how many seconds a full cycle of a traffic light takes when it is green for `green`, yellow for `yellow` and red for `red` seconds",
    [(30, 3, 40), (45, 5, 45), (20, 2, 20), (60, 4, 30), (25, 3, 25), (10, 1, 50), (35, 4, 60), (15, 2, 15), (50, 5, 35)],
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "cars_through_green", "seconds", "seconds // 2",
    "how many cars pass a green light that lasts `seconds` seconds when one car passes every 2 seconds (`seconds // 2`)",
    [30, 0, 1, 45, 10, 60, 5, 90, 12],
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "cars_still_waiting", "waiting, passed", "waiting - passed",
    "how many cars are still waiting at a light after `passed` of the `waiting` cars passed",
    [(12, 5), (3, 3), (20, 0), (8, 1), (15, 9), (6, 4), (30, 29), (2, 1), (10, 7)],
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "red_lights_met", "lights", "lights.count('red')",
    "how many red lights a driver met, given the list `lights` of the colors of the lights on the way", LIGHTS,
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "light_letter", "light", "light[0].upper()",
    "the first letter of the color name `light`, in upper case ('green' gives 'G')",
    ["green", "red", "yellow", "amber", "blue", "white", "orange", "pink", "black"],
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "is_rush_hour", "hour", "7 <= hour <= 9",
    "True if the hour `hour` (0 to 23) is in the morning rush hour, from 7 to 9 both included, else False",
    [8, 12, 7, 6, 9, 10, 0, 23, 17],
)  # fmt: skip
FAMILY_TRAFFIC.line(
    "all_green", "lights", "all(light == 'green' for light in lights)",
    "True if every light of the list `lights` of traffic light colors is 'green' (True for an empty list), else False",
    [["green", "green"], ["red", "green"], [], ["green"], ["yellow"], ["green", "red", "green"], ["green", "green", "green"], ["red"], ["green", "yellow"]],
)  # fmt: skip

AGES = [[7, 8, 6], [30], [12, 40, 9, 11], [5, 5], [70, 68, 3], [18, 17], [1, 2, 3, 4], [25, 52], [10]]  # fmt: skip
FAMILY_BIRTHDAYS = CoreFamily("birthday-parties", "test")
FAMILY_BIRTHDAYS.line(
    "candles_on_cake", "age", "age + 1",
    "how many candles go on the birthday cake of someone turning `age`: one per year plus one for luck",
    [7, 0, 1, 10, 40, 18, 5, 99, 12],
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "balloons_needed", "guests", "guests * 3",
    "how many balloons are needed for a party with `guests` guests when each guest gets 3 balloons",
    [7, 0, 1, 10, 40, 18, 5, 12, 2],
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "birthday_message", "name", "'Happy birthday, ' + name + '!'",
    "the birthday message for `name`: 'Happy birthday, ', then the name, then '!'",
    ["Ann", "Bob", "Zoe", "Mohammed", "Li", "Eva Marie", "Tom", "X", "Sam"],
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "is_birthday_today", "today, birthday", "today == birthday",
    "True if the date `today` is the birthday `birthday`, both strings like '05-12' (month-day), else False",
    [("05-12", "05-12"), ("01-01", "12-31"), ("07-04", "07-04"), ("03-15", "03-16"), ("11-30", "11-03"), ("02-29", "02-29"), ("10-10", "10-01"), ("06-21", "06-21"), ("09-09", "08-09")],
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "guests_coming", "invited, declined", "invited - declined",
    "how many guests are coming to a party when `invited` people were invited and `declined` of them said no",
    [(12, 3), (5, 5), (20, 0), (8, 1), (30, 12), (6, 4), (15, 14), (3, 1), (10, 7)],
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "is_round_birthday", "age", "age % 10 == 0",
    "True if turning `age` is a round birthday (`age` is a positive multiple of 10), else False",
    [30, 7, 10, 18, 50, 21, 40, 99, 60],
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "oldest_guest", "ages", "max(ages)",
    "the age of the oldest guest, given the ages of the guests in the non-empty list `ages`", AGES,
)  # fmt: skip
FAMILY_BIRTHDAYS.line(
    "gifts_received", "gifts", "len(gifts)",
    "how many gifts someone received, given the list `gifts` of the names of the gifts",
    [["ball", "book"], [], ["kite"], ["game", "socks", "cake"], ["bike"], ["doll", "car", "pen", "hat"], ["lego", "lego"], ["card"], ["puzzle", "drum"]],
)  # fmt: skip
