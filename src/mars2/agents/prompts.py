"""Prompt templates (generate / refine, one table of roles) and the one code-extraction function.

Pure: imports no torch or tokenizer; the messages are rendered with the tokenizer's chat template
by the backend, or, for a base model without one (Gemma-3-270M), as plain text by `render_plain`
with the `PLAIN` table. Prompts are short on purpose: the bundled model (SmolLM2-135M-Instruct) has a 2k
context and every prompt token costs generation time on a CPU.
"""

from __future__ import annotations

import ast
import re
import warnings

from mars2.errors import UserError
from mars2.types import Problem

ROLES: dict[str, str] = {
    "coder": "You are an expert Python programmer. Write correct, simple code.",
    "debugger": (
        "You are an expert Python debugger. Read the test feedback, find the bug, fix it."
    ),
    "planner": (
        "You are a careful Python programmer. Think of the algorithm first, then write the code."
    ),
    "tester": (
        "You are a Python programmer who checks edge cases (empty input, duplicates, large "
        "values) and writes code that handles them."
    ),
}

TEMPLATES: dict[str, str] = {
    "generate": "{statement}\n\n{task}{starter}{answer}",
    "refine": (
        "{statement}\n\n{task}{starter}Previous code:\n```python\n{code}\n```\n"
        "Public test feedback:\n{feedback}\n\nFix the code. {answer}"
    ),
    # a parent that passes every public test: nothing to fix, but hidden tests may still fail
    "refine/passing": (
        "{statement}\n\n{task}{starter}Previous code:\n```python\n{code}\n```\n"
        "It passes the public tests; more tests are hidden. Make it correct for every input "
        "the statement allows (edge cases, general logic, no hard-coded answers). {answer}"
    ),
    "answer": "Answer with the complete code in one ```python block.",
    "starter": "```python\n{starter_code}\n```\n",
    # the task line per test style, with and without starter code
    "functional": "Complete the function `{fn_name}`:\n",
    "functional/bare": "Write a function `{fn_name}`.\n",
    "stdin": "Read from stdin and print the answer to stdout.\n",
    "stdin/bare": "Read from stdin and print the answer to stdout.\n",
    "assert": "Complete the code:\n",
    "assert/bare": "",
}

# Plain-text completion prompts for models without a chat template (base models): each message
# is one paragraph, and the prompt ends where the answer starts, so the model continues with code.
# One worked example after the system text shows the answer format: without it Gemma-3-270M
# (base) mostly answered the bare signature with calls of the function instead of its body.
PLAIN: dict[str, str] = {
    "system": "{content}\n\n",
    "example": (
        "Write a function `count_evens(xs)` that returns how many numbers in the list `xs` are "
        "even.\n\nComplete the function `count_evens`:\n```python\ndef count_evens(xs):\n```\n"
        "Answer with the complete code in one ```python block.\n\n"
        "Answer:\n```python\ndef count_evens(xs):\n    return sum(1 for x in xs if x % 2 == 0)\n"
        "```\n\n"
    ),
    "user": "{content}\n\n",
    "assistant": "{content}\n\n",
    "answer": "Answer:\n```python\n",
}


def render_plain(messages: list[dict[str, str]]) -> str:
    """`messages` as one plain-text completion prompt (the `PLAIN` table), for base models:
    the system messages, the worked example, the other messages, then the opened answer."""
    for message in messages:
        if message.get("role") not in ("system", "user", "assistant"):
            raise UserError(
                f"unknown message role {message.get('role')!r}: use system, user or assistant"
            )
    system = [m for m in messages if m["role"] == "system"]
    rest = [m for m in messages if m["role"] != "system"]
    parts = [PLAIN["system"].format(content=m["content"].strip()) for m in system]
    parts.append(PLAIN["example"])
    parts += [PLAIN[m["role"]].format(content=m["content"].strip()) for m in rest]
    return "".join(parts) + PLAIN["answer"]


_FENCE = re.compile(r"```[ \t]*([\w+.-]*)[^\n]*\n(.*?)```", re.DOTALL)
_PYTHON_TAGS = {"", "python", "python3", "py"}
_CODE_START = re.compile(r"^(def |class |import |from |@|async def )", re.MULTILINE)


def system_text(role: str, system_prompt: str | None = None) -> str:
    """The system prompt: `system_prompt` when given, else the role's text from `ROLES`."""
    if system_prompt is not None:
        return system_prompt
    if role not in ROLES:
        raise UserError(f"unknown agent role {role!r}; known roles: {', '.join(sorted(ROLES))}")
    return ROLES[role]


def _fields(problem: Problem) -> dict[str, str]:
    starter = problem.starter_code.strip("\n")
    task = TEMPLATES[problem.test_style if starter else f"{problem.test_style}/bare"]
    if problem.test_style == "functional" and not problem.fn_name:
        task = TEMPLATES["assert" if starter else "assert/bare"]
    return {
        "statement": problem.statement.strip(),
        "task": task.format(fn_name=problem.fn_name or ""),
        "starter": TEMPLATES["starter"].format(starter_code=starter) if starter else "",
        "answer": TEMPLATES["answer"],
    }


def generate_messages(
    problem: Problem, role: str = "coder", system_prompt: str | None = None
) -> list[dict[str, str]]:
    """Chat messages asking for a fresh solution: statement, signature, answer format."""
    user = TEMPLATES["generate"].format(**_fields(problem))
    return [
        {"role": "system", "content": system_text(role, system_prompt)},
        {"role": "user", "content": user},
    ]


def refine_messages(
    problem: Problem,
    code: str,
    feedback: str,
    role: str = "coder",
    system_prompt: str | None = None,
    *,
    passes_public: bool = False,
) -> list[dict[str, str]]:
    """Chat messages asking to fix `code` given its public-test `feedback` (from the sandbox's
    `ExecResult.feedback`; never hidden tests). When `code` already passes every public test
    (`passes_public`), the request is for a more robust, general solution instead of a fix."""
    user = TEMPLATES["refine/passing" if passes_public else "refine"].format(
        **_fields(problem),
        code=code.strip("\n") or "# (no code was extracted)",
        feedback=feedback.strip() or "(no feedback)",
    )
    return [
        {"role": "system", "content": system_text(role, system_prompt)},
        {"role": "user", "content": user},
    ]


def _parses(code: str) -> bool:
    try:
        with warnings.catch_warnings():  # a model's `1if x else y`: not the user's to read
            warnings.simplefilter("ignore", SyntaxWarning)
            ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _longest_parsing_prefix(code: str) -> str | None:
    """The longest prefix of whole lines that parses (cuts a truncated tail), if not empty."""
    lines = code.rstrip().splitlines()
    for end in range(len(lines), 0, -1):
        candidate = "\n".join(lines[:end]).rstrip()
        if candidate.strip() and _parses(candidate):
            return candidate + "\n"
    return None


def extract_code(text: str) -> str:
    """The program in a model response, for grading and for refinement alike.

    In order: the first closed ```python (or untagged, ```py, ```python3) block, cut to the
    longest prefix of its lines that parses (a broken last line goes), or as written when no
    prefix parses (the sandbox then reports the syntax error); the code after an unclosed final fence (a response cut at max tokens), cut to the longest
    prefix of lines that parses; the whole text if it parses; the code from the first line that
    starts like Python (`def`, `class`, `import`, ...), cut the same way; finally the text as is.

    The first block, not the last: a response that stops when its first code block closes
    (`AgentConfig.stop_at_fence`, the hf default) and the same response continued with usage or
    example blocks (vLLM, an API, `stop_at_fence: false`) give the same program, so where
    generation stopped never changes what is graded.
    """
    python_blocks = [
        m.group(2) for m in _FENCE.finditer(text) if m.group(1).lower() in _PYTHON_TAGS
    ]
    if python_blocks:
        return _longest_parsing_prefix(python_blocks[0]) or python_blocks[0]
    last_fence = text.rfind("```")
    if last_fence >= 0 and text.count("```") % 2 == 1:
        tail = text[last_fence + 3 :]
        tail = tail.split("\n", 1)[1] if "\n" in tail else ""
        cut = _longest_parsing_prefix(tail)
        if cut is not None:
            return cut
    if "```" not in text and text.strip() and _parses(text):
        return text.strip("\n") + "\n"
    start = _CODE_START.search(text)
    if start is not None:
        cut = _longest_parsing_prefix(text[start.start() :].split("```")[0])
        if cut is not None:
            return cut
    return text.strip() + "\n" if text.strip() else ""
