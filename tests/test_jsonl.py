"""mars2.jsonl: the one JSONL reader's rule for a bad line (a cut last line skipped with a
warning, any other bad line an error naming file and line), its collect mode, and the writers."""

from __future__ import annotations

from pathlib import Path

import pytest

from mars2 import jsonl
from mars2.cli import main
from mars2.errors import FileError, UserError


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_objects_come_with_their_line_numbers_and_blank_lines_are_skipped(
    tmp_path: Path,
) -> None:
    file = write(tmp_path / "a.jsonl", '{"a": 1}\n\n  \n{"b": [2]}\n')
    assert jsonl.read(file) == [(1, {"a": 1}), (4, {"b": [2]})]


def test_an_empty_file_has_no_rows(tmp_path: Path) -> None:
    assert jsonl.read(write(tmp_path / "e.jsonl", "")) == []
    assert jsonl.read(write(tmp_path / "n.jsonl", "\n\n")) == []


def test_the_last_line_may_lack_its_newline(tmp_path: Path) -> None:
    file = write(tmp_path / "a.jsonl", '{"a": 1}\n{"a": 2}')
    assert jsonl.read(file) == [(1, {"a": 1}), (2, {"a": 2})]


def test_a_cut_last_line_is_skipped_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    file = write(tmp_path / "m.jsonl", '{"step": 0}\n{"step": 1}\n{"step": 2, "rew')
    assert jsonl.read(file) == [(1, {"step": 0}), (2, {"step": 1})]
    assert f"{file}:3: the last line is cut off" in caplog.text


def test_warn_false_skips_the_cut_line_silently(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    file = write(tmp_path / "m.jsonl", '{"step": 0}\n{"st')
    assert jsonl.read(file, warn=False) == [(1, {"step": 0})]
    assert "cut off" not in caplog.text


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('{"a": 1}\n{"a": \n{"a": 3}\n', 2, "not valid JSON (Expecting value, column 7)"),
        ('{"a": 1}\n[1, 2]\n{"a": 3}\n', 2, "expected a JSON object, got list"),
        # terminated by its newline, a bad last line was not cut by a kill: an error too
        ('{"a": 1}\n{"a": \n', 2, "not valid JSON"),
        # an unterminated last line that parses but is no object is not a cut line either
        ('{"a": 1}\n"text"', 2, "expected a JSON object, got str"),
        ("\n\n[]\n", 3, "expected a JSON object, got list"),
    ],
)
def test_a_bad_line_elsewhere_is_a_user_error_naming_file_and_line(
    tmp_path: Path, text: str, line: int, words: str
) -> None:
    file = write(tmp_path / "bad.jsonl", text)
    with pytest.raises(FileError) as caught:
        jsonl.read(file)
    assert isinstance(caught.value, UserError)  # the CLI: the message, exit 2
    assert (caught.value.file, caught.value.line) == (str(file), line)
    assert str(caught.value).startswith(f"{file}:{line}: {words}")


def test_a_missing_or_non_utf8_file_is_a_user_error_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(FileError, match=r"absent.jsonl: cannot read \(No such file"):
        jsonl.read(tmp_path / "absent.jsonl")
    (tmp_path / "latin.jsonl").write_bytes(b'{"a": "\xe9"}\n')
    with pytest.raises(FileError, match=r"latin.jsonl: not UTF-8 text"):
        jsonl.read(tmp_path / "latin.jsonl")


def test_collect_returns_every_bad_line_in_order_the_cut_last_one_included(
    tmp_path: Path,
) -> None:
    file = write(tmp_path / "p.jsonl", '{"a": 1}\n{bad\n[3]\n{"a": 4}\n{"a": 5, "b')
    rows = jsonl.read(file, collect=True)
    assert [n for n, _ in rows] == [1, 2, 3, 4, 5]
    assert rows[0] == (1, {"a": 1}) and rows[3] == (4, {"a": 4})
    bad = {n: v.message for n, v in rows if isinstance(v, jsonl.BadLine)}
    assert bad[2].startswith("not valid JSON")
    assert bad[3] == "expected a JSON object, got list"
    assert bad[5].startswith("not valid JSON")


def test_append_writes_whole_lines_that_read_back(tmp_path: Path) -> None:
    file = tmp_path / "sub" / "log.jsonl"
    jsonl.append(file, [{"step": 0}])
    jsonl.append(file, [{"step": 1, "x": 0.5}, {"step": 2}])
    assert file.read_text() == '{"step": 0}\n{"step": 1, "x": 0.5}\n{"step": 2}\n'
    assert [row["step"] for _, row in jsonl.read(file)] == [0, 1, 2]


def test_write_replaces_the_file_atomically(tmp_path: Path) -> None:
    file = write(tmp_path / "t.jsonl", '{"old": 1}\n')
    jsonl.write(file, [{"new": 1}, {"new": 2}])
    assert jsonl.read(file) == [(1, {"new": 1}), (2, {"new": 2})]
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]  # no temporary file left


def test_the_cli_turns_a_bad_line_into_exit_2_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path / "t.jsonl", '{"tree_id": "t"}\n{oops\n{"tree_id": "t"}\n')
    assert main(["credit", str(file)]) == 2
    err = "".join(capsys.readouterr().err.split())  # rich wraps long lines anywhere
    assert "t.jsonl:2:notvalidJSON" in err and "Traceback" not in err
