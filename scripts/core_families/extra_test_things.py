"""Extra test families (kinds of task no train family states): file names, emails and usernames,
tally marks, weekdays by index, musical notes, names and initials, plurals, scoreboard strings."""

from __future__ import annotations

from core_families import CoreFamily

FILES = ["notes.txt", "main.py", "photo.png", "README.md", "setup.py", "data.csv", "cat.png", "a.b", "report.pdf"]  # fmt: skip
FAMILY_FILES = CoreFamily("file-names", "test")
FAMILY_FILES.line(
    "file_extension", "name", "name.split('.')[-1]",
    "the extension of the file name `name`, which has exactly one '.': the part after the '.' (for example 'txt')",
    FILES,
)  # fmt: skip
FAMILY_FILES.line(
    "file_stem", "name", "name.split('.')[0]",
    "the file name `name`, which has exactly one '.', without its extension: the part before the '.'",
    FILES,
)  # fmt: skip
FAMILY_FILES.line(
    "is_python_file", "name", "name.endswith('.py')",
    "True if the file name `name` ends with '.py', else False",
    [*FILES, "py", "script.pyc", "x.py"],
)  # fmt: skip
FAMILY_FILES.line(
    "add_txt_extension", "name", "name + '.txt'", "the file name `name` with '.txt' added at the end",
    ["notes", "", "report", "a", "draft 2", "list", "todo", "log", "x.y"],
)  # fmt: skip
FAMILY_FILES.line(
    "is_hidden_file", "name", "name.startswith('.')",
    "True if the file name `name` starts with '.' (a hidden file), else False",
    [".bashrc", "main.py", ".git", "notes.txt", ".", "a.b", ".env", "x", "file."],
)  # fmt: skip
FAMILY_FILES.line(
    "python_files", "names", "[n for n in names if n.endswith('.py')]",
    "a list of the file names of the list `names` that end with '.py', in order",
    [["main.py", "notes.txt"], [], ["a.py", "b.py"], ["photo.png"], ["x.py", "y.txt", "z.py"], ["setup.py"], ["py", "a.pyc", "b.py"], ["c.md", "d.md"], ["e.py", "f.csv"]],
)  # fmt: skip
FAMILY_FILES.line(
    "count_images", "names", "sum(1 for n in names if n.endswith('.png'))",
    "how many file names of the list `names` end with '.png'",
    [["cat.png", "notes.txt"], [], ["a.png", "b.png"], ["photo.jpg"], ["x.png", "y.txt", "z.png", "w.png"], ["logo.png"], ["png", "a.pngx"], ["c.md", "d.png"], ["e.gif"]],
)  # fmt: skip
FAMILY_FILES.line(
    "to_markdown_name", "name", "name.split('.')[0] + '.md'",
    "the file name `name`, which has exactly one '.', with its extension changed to 'md' (for example 'notes.md')",
    FILES,
)  # fmt: skip

FAMILY_FILES.line(
    "file_path", "folder, name", "folder + '/' + name",
    "the path of the file named `name` in the folder `folder`: `folder`, then '/', then `name`",
    [("docs", "notes.txt"), ("src", "main.py"), ("", "a.b"), ("img", "cat.png"), ("home/ann", "todo.md"), ("x", "y"), ("data", ""), ("music", "song.mp3"), ("tmp", "log.txt")],
)  # fmt: skip

EMAILS = ["ann@example.com", "bob@mail.org", "x@y.z", "joe.smith@work.net", "li@gmail.com", "zoe99@school.edu", "sam@gmail.com", "kim@home.io", "a@b.c"]  # fmt: skip
FAMILY_EMAILS = CoreFamily("emails-and-usernames", "test")
FAMILY_EMAILS.line(
    "email_user", "email", "email.split('@')[0]",
    "the user part of the email address `email`: the text before the '@'", EMAILS,
)  # fmt: skip
FAMILY_EMAILS.line(
    "email_domain", "email", "email.split('@')[1]",
    "the domain of the email address `email`: the text after the '@'", EMAILS,
)  # fmt: skip
FAMILY_EMAILS.line(
    "is_gmail", "email", "email.endswith('@gmail.com')",
    "True if the email address `email` ends with '@gmail.com', else False",
    [*EMAILS, "tom@gmail.co", "gmail.com@ann.org"],
)  # fmt: skip
FAMILY_EMAILS.line(
    "make_email", "user", "user + '@example.com'",
    "the email address made of the username `user` followed by '@example.com'",
    ["ann", "bob", "x", "joe.smith", "", "zoe99", "sam", "kim", "li"],
)  # fmt: skip
FAMILY_EMAILS.line(
    "looks_like_email", "text", "'@' in text",
    "True if the string `text` contains the character '@', else False",
    [*EMAILS[:5], "hello", "", "at sign", "me at home", "@"],
)  # fmt: skip
FAMILY_EMAILS.line(
    "user_handle", "name", "'@' + name",
    "the handle of the username `name`: '@' followed by `name`",
    ["ann", "bob", "x", "joe_smith", "", "zoe99", "Sam", "kim", "li"],
)  # fmt: skip
FAMILY_EMAILS.line(
    "username_from_name", "name", "name.lower().replace(' ', '.')",
    "a username made from the full name `name`: `name` in lower case with every space replaced by '.'",
    ["Ann Lee", "bob", "X Y Z", "Joe Smith", "", "Zoe", "sam ONE", "Kim Park", "LI"],
)  # fmt: skip
FAMILY_EMAILS.line(
    "valid_username_length", "name", "3 <= len(name) <= 12",
    "True if the username `name` has between 3 and 12 characters, both included, else False",
    ["ann", "bo", "x", "joe_smith", "", "zoe99", "a_very_long_name", "kim", "abcdefghijkl", "abcdefghijklm"],
)  # fmt: skip

FAMILY_EMAILS.line(
    "same_domain", "a, b", "a.split('@')[1] == b.split('@')[1]",
    "True if the email addresses `a` and `b` have the same domain (the text after the '@'), else False",
    [("ann@x.com", "bob@x.com"), ("ann@x.com", "ann@y.com"), ("a@b.c", "d@b.c"), ("li@gmail.com", "li@mail.com"), ("x@y.z", "x@y.z"), ("joe@work.net", "sue@work.net"), ("kim@home.io", "kim@home.org"), ("z@a.b", "y@a.bc"), ("m@n.o", "p@n.o")],
)  # fmt: skip

FAMILY_TALLY = CoreFamily("tally-marks", "test")
FAMILY_TALLY.line(
    "tally", "n", "'|' * n", "the tally marks for the count `n`: a string of `n` '|' characters",
    [3, 0, 1, 5, 2, 8, 4, 10, 6],
)  # fmt: skip
MARKS = ["|||", "", "|", "|||||", "||", "||||||||", "||||", "|||||||", "||||||"]
FAMILY_TALLY.line(
    "read_tally", "marks", "len(marks)",
    "the count shown by the string `marks`, which is made only of tally marks '|' (one mark per unit)", MARKS,
)  # fmt: skip
FAMILY_TALLY.line(
    "add_tally_mark", "marks", "marks + '|'",
    "the string of tally marks `marks` with one more '|' added at the end", MARKS,
)  # fmt: skip
FAMILY_TALLY.line(
    "tally_bundles", "n", "n // 5",
    "how many complete bundles of five tally marks there are in a count of `n`",
    [3, 0, 5, 12, 25, 9, 10, 4, 17],
)  # fmt: skip
FAMILY_TALLY.line(
    "loose_tallies", "n", "n % 5",
    "how many tally marks are left over after making bundles of five out of a count of `n` (`n % 5`)",
    [3, 0, 5, 12, 25, 9, 10, 4, 17],
)  # fmt: skip
FAMILY_TALLY.line(
    "tally_sum", "tallies", "sum(len(t) for t in tallies)",
    "the total count of the list `tallies`, whose strings are made only of tally marks '|'",
    [["||", "|"], [], ["|||"], ["", "|"], ["||||", "||||", "|"], ["|", "|", "|"], ["||||||"], ["||", ""], ["|||", "||"]],
)  # fmt: skip
FAMILY_TALLY.line(
    "more_tallies", "a, b", "len(a) > len(b)",
    "True if the tally string `a` (only '|' marks) shows a larger count than the tally string `b`, else False",
    [("|||", "||"), ("", "|"), ("||", "||"), ("|||||", "|"), ("|", "||||"), ("||||", ""), ("|", "|"), ("||||||", "|||"), ("", "")],
)  # fmt: skip

FAMILY_TALLY.line(
    "tally_difference", "a, b", "len(a) - len(b)",
    "the count of the tally string `a` minus the count of the tally string `b` (both made only of '|' marks)",
    [("|||", "||"), ("", "|"), ("||", "||"), ("|||||", "|"), ("|", "||||"), ("||||", ""), ("|", ""), ("||||||", "|||"), ("", "")],
)  # fmt: skip

DAYS = "['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']"
DAY_NAMES = ["Monday", "Sunday", "Thursday", "Saturday", "Tuesday", "Friday", "Wednesday"]
FAMILY_WEEKDAYS = CoreFamily("weekdays-by-index", "test")
FAMILY_WEEKDAYS.line(
    "weekday_name", "i", f"{DAYS}[i % 7]",
    "the name of the day of the week `i` days after a Monday: 0 gives 'Monday', 1 'Tuesday', ..., 6 'Sunday', and 7 'Monday' again (`i % 7` picks the day)",
    [0, 6, 3, 5, 1, 4, 2, 7, 9, 13, 20],
)  # fmt: skip
FAMILY_WEEKDAYS.line(
    "is_workday_name", "day", f"day in {DAYS}[:5]",
    "True if the string `day` is one of 'Monday', 'Tuesday', 'Wednesday', 'Thursday' and 'Friday', else False",
    [*DAY_NAMES, "monday", "Funday", "Fri"],
)  # fmt: skip
FAMILY_WEEKDAYS.line(
    "day_index_later", "i, n", "(i + n) % 7",
    "the index of the day `n` days after the day with index `i`, where days go 0 (Monday) to 6 (Sunday) and after 6 comes 0",
    [(0, 1), (6, 1), (3, 7), (5, 3), (1, 10), (4, 0), (2, 14), (0, 6), (6, 6)],
)  # fmt: skip
FAMILY_WEEKDAYS.line(
    "short_day_name", "day", "day[:3]",
    "the first three letters of the day name `day` (for example 'Mon')",
    [*DAY_NAMES, "Today", "Yesterday"],
)  # fmt: skip
FAMILY_WEEKDAYS.line(
    "week_of_month", "day", "(day - 1) // 7 + 1",
    "the week of the month of the day `day` (1 to 31): days 1 to 7 are week 1, days 8 to 14 week 2, and so on",
    [1, 7, 8, 14, 15, 21, 22, 28, 30, 31, 3],
)  # fmt: skip
FAMILY_WEEKDAYS.line(
    "weekday_of_date", "day", f"{DAYS}[(day - 1) % 7]",
    "the weekday name of day `day` of a month whose day 1 is a 'Monday' (day 2 is a 'Tuesday', ..., day 8 a 'Monday' again)",
    [1, 7, 8, 14, 15, 21, 3, 28, 30, 31, 12],
)  # fmt: skip

FAMILY_WEEKDAYS.line(
    "is_weekend_date", "day", "(day - 1) % 7 >= 5",
    "True if day `day` of a month whose day 1 is a Monday falls on a Saturday or a Sunday (`(day - 1) % 7 >= 5`), else False",
    [1, 6, 7, 8, 13, 14, 20, 21, 27, 30, 12],
)  # fmt: skip

FAMILY_NOTES = CoreFamily("musical-notes", "test")
NOTES = [["C", "E", "G"], [], ["A"], ["C", "C", "D"], ["F#", "G", "A"], ["D", "E"], ["B", "C#", "C"], ["G", "G", "G", "C"], ["E"]]  # fmt: skip
FAMILY_NOTES.line(
    "has_note_c", "notes", "'C' in notes",
    "True if the note 'C' is in the list of note names `notes`, else False", NOTES,
)  # fmt: skip
FAMILY_NOTES.line(
    "count_note", "notes, note", "notes.count(note)",
    "how many times the note `note` is played in the melody `notes` (a list of note names)",
    [(["C", "E", "C"], "C"), ([], "A"), (["A"], "A"), (["D", "E"], "C"), (["G", "G", "G"], "G"), (["F#", "F"], "F"), (["B", "C", "B", "B"], "B"), (["E"], "G"), (["A", "B", "A"], "A")],
)  # fmt: skip
FAMILY_NOTES.line(
    "sharpen", "note", "note + '#'", "the note name `note` with '#' added at the end (for example 'C#')",
    ["C", "D", "F", "G", "A", "E", "B", "c", "Do"],
)  # fmt: skip
FAMILY_NOTES.line(
    "is_sharp", "note", "note.endswith('#')", "True if the note name `note` ends with '#', else False",
    ["C#", "D", "F#", "G", "A#", "E", "Bb", "G#", "C"],
)  # fmt: skip
FAMILY_NOTES.line(
    "natural_notes", "notes", "[n for n in notes if not n.endswith('#')]",
    "a list of the note names of the list `notes` that do not end with '#', in order", NOTES,
)  # fmt: skip
FAMILY_NOTES.line(
    "play_twice", "notes", "notes * 2", "the melody `notes` (a list of note names) played twice in a row: the list repeated twice",
    NOTES,
)  # fmt: skip
FAMILY_NOTES.line(
    "melody_text", "notes", "'-'.join(notes)",
    "the note names of the list `notes` joined into one string with '-' between them (for example 'C-E-G')", NOTES,
)  # fmt: skip
FAMILY_NOTES.line(
    "melody_length", "melody", "len(melody.split())",
    "how many notes the string `melody` has, where the note names are separated by spaces (for example 'C E G' has 3)",
    ["C E G", "", "A", "C C D", "F# G A B", "D E", "B", "G G G C", "E F"],
)  # fmt: skip

PEOPLE = [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper"), ("Li", "Na"), ("Bo", "Xu"), ("Emmy", "Noether"), ("Tim", "Berners"), ("Ken", "Thompson"), ("Zoe", "Ray")]  # fmt: skip
FAMILY_NAMES = CoreFamily("names-and-initials", "test")
FAMILY_NAMES.line(
    "initials", "first, last", "first[0] + last[0]",
    "the initials of a person with first name `first` and last name `last`: their first letters joined (for example 'AL')",
    PEOPLE,
)  # fmt: skip
FAMILY_NAMES.line(
    "initials_with_dots", "first, last", "first[0] + '.' + last[0] + '.'",
    "the first letter of `first`, a '.', the first letter of `last` and a '.' (for example 'A.L.')", PEOPLE,
)  # fmt: skip
FAMILY_NAMES.line(
    "full_name", "first, last", "first + ' ' + last",
    "the full name of a person with first name `first` and last name `last`: the two joined with a space", PEOPLE,
)  # fmt: skip
FAMILY_NAMES.line(
    "last_comma_first", "first, last", "last + ', ' + first",
    "the last name `last`, then ', ', then the first name `first` (for example 'Lovelace, Ada')", PEOPLE,
)  # fmt: skip
FULL = [f + " " + s for f, s in PEOPLE]
FAMILY_NAMES.line(
    "first_name", "name", "name.split()[0]",
    "the first name of the full name `name`, which is a first name and a last name separated by one space", FULL,
)  # fmt: skip
FAMILY_NAMES.line(
    "last_name", "name", "name.split()[1]",
    "the last name of the full name `name`, which is a first name and a last name separated by one space", FULL,
)  # fmt: skip
FAMILY_NAMES.line(
    "doctor_title", "last", "'Dr. ' + last",
    "the title 'Dr. ' followed by the last name `last`", [s for _, s in PEOPLE],
)  # fmt: skip
FAMILY_NAMES.line(
    "name_tag", "name", "'Hi, I am ' + name",
    "the text of a name tag: 'Hi, I am ' followed by the string `name`", FULL,
)  # fmt: skip

NOUNS = [("cat", 1), ("cat", 3), ("dog", 0), ("box", 2), ("apple", 1), ("day", 7), ("pen", 10), ("car", 1), ("tree", 4)]  # fmt: skip
FAMILY_PLURALS = CoreFamily("plurals", "test")
FAMILY_PLURALS.line(
    "pluralize", "word, n", "word if n == 1 else word + 's'",
    "the noun `word` unchanged if the count `n` is 1, and `word` with 's' added otherwise", NOUNS,
)  # fmt: skip
FAMILY_PLURALS.line(
    "count_label", "n, word", "str(n) + ' ' + word + 's'",
    "the count `n`, a space, then the noun `word` with an 's' added (for example '3 cats')",
    [(n, w) for w, n in NOUNS],
)  # fmt: skip
FAMILY_PLURALS.line(
    "plural_es", "word", "word + 'es' if word.endswith('s') or word.endswith('x') else word + 's'",
    "the plural of the noun `word`: `word` with 'es' added if it ends with 's' or 'x', and with 's' added otherwise",
    ["cat", "box", "bus", "dog", "fox", "gas", "pen", "tree", "kiss", "map"],
)  # fmt: skip
FAMILY_PLURALS.line(
    "plural_y", "word", "word[:-1] + 'ies' if word.endswith('y') else word + 's'",
    "the plural of the noun `word`: if it ends with 'y', that 'y' replaced by 'ies', otherwise `word` with 's' added",
    ["city", "cat", "baby", "dog", "party", "pen", "story", "tree", "lady", "map"],
)  # fmt: skip
FAMILY_PLURALS.line(
    "there_are", "n, word", "'There are ' + str(n) + ' ' + word + 's'",
    "the sentence 'There are ', then the count `n`, a space, and the noun `word` with 's' added (for example 'There are 3 cats')",
    [(n, w) for w, n in NOUNS],
)  # fmt: skip
FAMILY_PLURALS.line(
    "count_label_exact", "n, word", "'1 ' + word if n == 1 else str(n) + ' ' + word + 's'",
    "'1 ' followed by the noun `word` if the count `n` is 1, otherwise `n`, a space, and `word` with 's' added (for example '3 cats')",
    [(n, w) for w, n in NOUNS],
)  # fmt: skip

BOARDS = ["2-1", "0-0", "1-3", "4-4", "5-0", "0-2", "10-7", "1-1", "2-12"]
FAMILY_BOARD = CoreFamily("scoreboard-strings", "test")
FAMILY_BOARD.line(
    "score_line", "home, away", "str(home) + '-' + str(away)",
    "the scoreboard text for the integer scores `home` and `away`: the two numbers joined by '-' (for example '2-1')",
    [(2, 1), (0, 0), (1, 3), (4, 4), (5, 0), (0, 2), (10, 7), (1, 1), (2, 12)],
)  # fmt: skip
FAMILY_BOARD.line(
    "home_score", "board", "int(board.split('-')[0])",
    "the home score, as an integer, of the scoreboard text `board` like '2-1' (the number before the '-')", BOARDS,
)  # fmt: skip
FAMILY_BOARD.line(
    "away_score", "board", "int(board.split('-')[1])",
    "the away score, as an integer, of the scoreboard text `board` like '2-1' (the number after the '-')", BOARDS,
)  # fmt: skip
FAMILY_BOARD.line(
    "board_total", "board", "int(board.split('-')[0]) + int(board.split('-')[1])",
    "the total of the two scores of the scoreboard text `board` like '2-1' (two numbers joined by '-')", BOARDS,
)  # fmt: skip
FAMILY_BOARD.line(
    "board_is_draw", "board", "board.split('-')[0] == board.split('-')[1]",
    "True if the two numbers of the scoreboard text `board` like '2-1' (two numbers joined by '-') are equal, else False",
    BOARDS,
)  # fmt: skip
FAMILY_BOARD.line(
    "flip_board", "board", "board.split('-')[1] + '-' + board.split('-')[0]",
    "the scoreboard text `board` like '2-1' with its two numbers swapped (for example '1-2')", BOARDS,
)  # fmt: skip
