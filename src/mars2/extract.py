"""Pull the program out of raw model text: the last fenced Python block that parses."""

from __future__ import annotations

import ast
import re

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def extract_code(text: str) -> str:
    """The last ```python block that parses; else the last fenced block of any language that
    parses; else the whole text if it parses; else the last ```python block (or the text)."""
    blocks: list[tuple[str, str]] = [(lang.lower(), body) for lang, body in _FENCE.findall(text)]
    python = [body for lang, body in blocks if lang in ("python", "py", "python3")]
    for body in reversed(python):
        if _parses(body):
            return body
    for _lang, body in reversed(blocks):
        if _parses(body):
            return body
    if _parses(text):
        return text
    return python[-1] if python else text
