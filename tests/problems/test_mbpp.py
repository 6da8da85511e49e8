"""MBPP records become assert-style problems: statement with the asserts, setup code, splits."""

from __future__ import annotations

from pathlib import Path

from mars2.problems import load_problems
from mars2.problems.mbpp import split_of

DATA = Path(__file__).parent / "data"
SPEC = f"mbpp:{DATA / 'mbpp.jsonl'}"


def test_records_convert() -> None:
    by_id = {p.id: p for p in load_problems(SPEC)}
    assert list(by_id) == ["mbpp/2", "mbpp/15", "mbpp/700"]
    vowels = by_id["mbpp/2"]
    assert vowels.test_style == "assert" and vowels.fn_name == "count_vowels"
    assert vowels.statement.startswith("Write a function to count the vowels in a string.\n")
    assert "assert count_vowels('hello') == 2" in vowels.statement
    assert [t.test for t in vowels.public_tests] == [
        "assert count_vowels('hello') == 2\n",
        "assert count_vowels('') == 0\n",
        "assert count_vowels('AEI') == 3\n",
    ]
    assert vowels.private_tests == vowels.public_tests  # no challenge tests
    assert "\r" not in (vowels.solution or "")


def test_setup_code_and_challenge_tests() -> None:
    (largest,) = load_problems(SPEC + "?split=test")
    assert largest.id == "mbpp/15"
    assert largest.public_tests[0].test == (
        "D = {1: 'x', 3: 'y', 2: 'z'}\nassert largest_key(D) == 3\n"
    )
    assert len(largest.private_tests) == 4
    assert largest.private_tests[-1].test and "largest_key({-1: 0, -5: 1})" in (
        largest.private_tests[-1].test
    )


def test_sanitized_records_with_prompt_and_test_imports() -> None:
    (root,) = load_problems(SPEC, split="train")
    assert root.statement.startswith("Write a python function to compute the square root")
    assert root.public_tests[0].test == "import math\nassert isqrt_floor(10) == 3\n"


def test_reference_solutions_pass_their_tests_in_process() -> None:
    """Our own fixture code, trusted, so it runs in-process."""
    for problem in load_problems(SPEC):
        for test in problem.tests("all"):
            namespace: dict[str, object] = {}
            exec((problem.solution or "") + "\n" + (test.test or ""), namespace)


def test_splits_follow_the_original_task_ids() -> None:
    assert [split_of(i) for i in (1, 10, 11, 510, 511, 600, 601, 974, 975)] == [
        "prompt", "prompt", "test", "test", "validation", "validation", "train", "train", None,
    ]  # fmt: skip
