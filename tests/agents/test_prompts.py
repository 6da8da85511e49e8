"""Prompts: the generate and refine messages carry what docs/search.md ("Prompts and code extraction") says (and no hidden test);
unknown roles are user errors; code extraction picks the first Python block with fallbacks, so a
response cut at its first closing fence and the same response continued grade alike."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mars2.agents.prompts import ROLES, extract_code, generate_messages, refine_messages
from mars2.errors import UserError
from mars2.types import Problem, TestCase

PROBLEM = Problem(
    id="sum-evens",
    statement="Return the sum of the even numbers in xs.",
    test_style="functional",
    public_tests=(TestCase([[1, 2, 3, 4]], 6),),
    private_tests=(TestCase([[7, 70]], 70),),
    starter_code="def sum_evens(xs):\n",
    fn_name="sum_evens",
)
FEEDBACK = "test 1: input [[1, 2, 3, 4]] expected 6, got 10"


def test_generate_messages_carry_statement_signature_and_answer_format() -> None:
    system, user = generate_messages(PROBLEM)
    assert system == {"role": "system", "content": ROLES["coder"]}
    assert user["role"] == "user"
    text = user["content"]
    assert PROBLEM.statement in text
    assert "```python\ndef sum_evens(xs):\n```" in text
    assert "one ```python block" in text
    assert "70" not in text  # never a hidden test
    assert len(text) < 300  # short: a 135M model with a 2k context reads it


def test_refine_messages_carry_previous_code_and_feedback() -> None:
    code = "def sum_evens(xs):\n    return sum(xs)\n"
    system, user = refine_messages(PROBLEM, code, FEEDBACK, role="debugger")
    assert system["content"] == ROLES["debugger"]
    text = user["content"]
    for part in (PROBLEM.statement, "def sum_evens(xs):\n```", code.strip(), FEEDBACK):
        assert part in text
    assert text.index(code.strip()) < text.index(FEEDBACK)
    assert text.endswith("one ```python block.")


@pytest.mark.parametrize(
    ("style", "starter", "fn_name", "expected"),
    [
        ("stdin", "", None, "Read from stdin"),
        ("functional", "", "solve", "Write a function `solve`"),
        ("assert", "def f(x):\n", None, "Complete the code:"),
    ],
)
def test_task_line_per_test_style(
    style: str, starter: str, fn_name: str | None, expected: str
) -> None:
    problem = Problem("p", "Do it.", style, (), starter_code=starter, fn_name=fn_name)  # type: ignore[arg-type]
    assert expected in generate_messages(problem)[1]["content"]


def test_system_prompt_override_and_unknown_role() -> None:
    assert generate_messages(PROBLEM, system_prompt="Be brief.")[0]["content"] == "Be brief."
    with pytest.raises(UserError, match="coder"):
        generate_messages(PROBLEM, role="wizard")
    assert {"coder", "debugger", "planner"} <= set(ROLES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Here:\n```python\ndef f():\n    return 1\n```\nDone.", "def f():\n    return 1\n"),
        # the first Python block wins, whatever follows it
        ("```python\nx = 1\n```\n```python\nx = 2\n```", "x = 1\n"),
        ("```python\nx = 1\n```\n```python\nx = (\n```", "x = 1\n"),
        # a broken first block: its longest parsing prefix, not a later block
        ("```python\nx = 1\ny = (\n```\n```python\nx = 2\n```", "x = 1\n"),
        # untagged and `py` blocks count; other languages do not
        ("```\ny = 3\n```", "y = 3\n"),
        ("```py\ny = 4\n```\n```text\nnot code at all\n```", "y = 4\n"),
        # a response cut at max tokens: keep the part that parses
        ("```python\ndef f():\n    return 1\n\ndef g(", "def f():\n    return 1\n"),
        # no fence: the whole text, or the code from the first line that looks like Python
        ("def f():\n    return 2", "def f():\n    return 2\n"),
        ("Sure! Here it is.\ndef f():\n    return 3\nHope it helps", "def f():\n    return 3\n"),
        # nothing parses: the block as is, so the sandbox reports the syntax error
        ("```python\nx = (\n```", "x = (\n"),
        ("```python\nx = (\n```\n```python\nx = 2\n```", "x = (\n"),
        ("", ""),
    ],
)
def test_extract_code(text: str, expected: str) -> None:
    assert extract_code(text) == expected


SOLUTION = "```python\ndef sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 0)\n```"
TRAILERS = [
    "",
    "\n\nUsage:\n```python\nprint(sum_evens([1, 2, 3, 4]))\n```\n",
    "\nExample:\n```python\nassert sum_evens([2]) == 2\n```\nOr as a test:\n```\nsum_evens([])\n```",
    "\n```text\n6\n```\n```python\nprint(sum_evens(",  # cut at max tokens in a later block
]


@pytest.mark.parametrize("trailer", TRAILERS)
def test_grading_does_not_depend_on_where_generation_stopped(trailer: str) -> None:
    """A response cut at its first closing fence (`stop_at_fence`) and the same response with
    usage or example blocks after it give the same program."""
    assert extract_code("Sure:\n" + SOLUTION + trailer) == extract_code("Sure:\n" + SOLUTION)
    assert extract_code(SOLUTION + trailer).startswith("def sum_evens(xs):")


def test_extracting_a_models_code_prints_no_syntax_warnings(
    recwarn: pytest.WarningsRecorder,
) -> None:
    """Python warns about `1if x else y` while parsing it; a model writes such code, and the
    warnings would fill a run's log (the pilot's did), so extraction parses it silently."""
    text = "```python\ndef f(x):\n    return 1if x else 2\n```"
    assert extract_code(text).rstrip() == "def f(x):\n    return 1if x else 2"
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]


def test_prompts_module_does_not_import_torch() -> None:
    code = "import sys, mars2.agents.prompts; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_plain_prompt_puts_the_example_after_the_system_text_and_opens_the_answer() -> None:
    from mars2.agents.prompts import PLAIN, render_plain

    text = render_plain(
        [{"role": "user", "content": " task \n"}, {"role": "system", "content": "be good"}]
    )
    assert text == "be good\n\n" + PLAIN["example"] + "task\n\n" + PLAIN["answer"]
    assert extract_code(PLAIN["example"].split("Answer:\n")[-1]).startswith("def count_evens")
    with pytest.raises(UserError, match="unknown message role 'tool'"):
        render_plain([{"role": "tool", "content": "x"}])
