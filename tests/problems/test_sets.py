"""Problem sets by name: spec parsing, options, bundled sets, known_sets, clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mars2.errors import UserError
from mars2.problems import known_sets, load_problems, parse_spec, spec_exists
from mars2.problems import sets as sets_module

DATA = Path(__file__).parent / "data"
BASIC = sets_module.BUNDLED_DIR / "basic.jsonl"


@pytest.fixture
def bundled_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bundled-data folder holding the fixture as set `tiny`."""
    shutil.copy(DATA / "good.jsonl", tmp_path / "tiny.jsonl")
    monkeypatch.setattr(sets_module, "BUNDLED_DIR", tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("spec", "kind", "arg", "options"),
    [
        ("bundled:basic", "bundled", "basic", {}),
        ("bundled:basic-test?limit=5", "bundled", "basic-test", {"limit": "5"}),
        ("humaneval", "humaneval", "", {}),
        ("mbpp:/data/mbpp.jsonl", "mbpp", "/data/mbpp.jsonl", {}),
        ("livecodebench:x.jsonl?since=2024-08-01", "livecodebench", "x.jsonl", {"since": "2024-08-01"}),
        ("runs/mine.jsonl", "jsonl", "runs/mine.jsonl", {}),
        ("jsonl:mine", "jsonl", "mine", {}),
    ],
)  # fmt: skip
def test_parse_spec(spec: str, kind: str, arg: str, options: dict[str, str]) -> None:
    parsed = parse_spec(spec)
    assert (parsed.kind, parsed.arg, parsed.options) == (kind, arg, options)


def test_unknown_spec_lists_known_sets_and_formats() -> None:
    with pytest.raises(UserError) as err:
        load_problems("leetcode-hard")
    text = str(err.value)
    assert "unknown problem set 'leetcode-hard'" in text
    assert "humaneval" in text and "livecodebench:PATH" in text and "mbpp:PATH" in text


def test_unknown_option_and_bad_limit() -> None:
    with pytest.raises(UserError, match="unknown option 'since'"):
        load_problems(f"{DATA / 'good.jsonl'}?since=2024-01-01")
    with pytest.raises(UserError, match="limit must be a positive integer"):
        load_problems(f"{DATA / 'good.jsonl'}?limit=0")


def test_split_difficulty_and_limit_narrow_in_order() -> None:
    path = str(DATA / "good.jsonl")
    assert [p.id for p in load_problems(path, split="test")] == ["echo-sum", "double"]
    assert [p.id for p in load_problems(path + "?split=test", limit=1)] == ["echo-sum"]
    both = load_problems(path + "?split=test,train")  # several splits, in file order
    assert [p.id for p in both] == [
        p.id for p in load_problems(path) if p.split in ("test", "train")
    ]
    assert {p.split for p in both} == {"test", "train"}
    assert [p.id for p in load_problems(path, difficulty="medium")] == ["double"]
    assert [p.id for p in load_problems(path + "?difficulty=easy&limit=1")] == ["sum-evens"]


def test_bundled_set_and_its_split_subset(bundled_dir: Path) -> None:
    assert len(load_problems("bundled:tiny")) == 3
    assert [p.id for p in load_problems("bundled:tiny-test")] == ["echo-sum", "double"]
    assert [p.id for p in load_problems("bundled:tiny-train")] == ["sum-evens"]
    assert spec_exists("bundled:tiny-test") and not spec_exists("bundled:other")
    with pytest.raises(UserError, match="unknown bundled set 'other'"):
        load_problems("bundled:other")
    with pytest.raises(UserError, match="no problems with split 'dev'"):
        load_problems("bundled:tiny-dev")


def test_known_sets_counts_per_split_and_difficulty(bundled_dir: Path) -> None:
    found = {s.name: s for s in known_sets()}
    tiny = found["bundled:tiny"]
    assert tiny.count == 3
    assert tiny.splits == {"train": 1, "test": 2}
    assert tiny.difficulties == {"easy": 2, "medium": 1}
    assert found["bundled:tiny-test"].count == 2
    if "humaneval" in found:
        assert found["humaneval"].count == 164 and found["humaneval"].splits == {"test": 164}


def test_the_real_bundled_basic_set_loads() -> None:
    problems = load_problems("bundled:basic")
    test = load_problems("bundled:basic-test")
    assert test and len(test) < len(problems)
    assert {p.id for p in test} == {p.id for p in problems if p.split == "test"}
    assert all(p.source == "bundled:basic" and p.solution for p in problems)


def test_validate_takes_set_names_too(bundled_dir: Path) -> None:
    from mars2.problems import validate_file

    assert validate_file("bundled:tiny-test") == []  # the whole file of the set
    (bundled_dir / "tiny.jsonl").write_text('{"id": 1}\n')
    issues = validate_file("bundled:tiny")
    assert {i.field for i in issues} == {"id", "statement", "test_style", "public_tests"}
    with pytest.raises(UserError, match="unknown bundled set"):
        validate_file("bundled:nope")
