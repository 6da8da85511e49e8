"""Code extraction from raw model text."""

from __future__ import annotations

from mars2.extract import extract_code


def test_last_python_block_that_parses_wins() -> None:
    text = "```python\ndef f(): return 1\n```\ntext\n```python\ndef f(): return 2\n```\n"
    assert extract_code(text) == "def f(): return 2\n"


def test_a_block_that_does_not_parse_is_skipped() -> None:
    text = "```python\ndef f(): return 1\n```\n```python\ndef f( broken\n```\n"
    assert extract_code(text) == "def f(): return 1\n"


def test_unlabelled_block_and_unclosed_fence() -> None:
    assert extract_code("```\nx = 1\n```") == "x = 1\n"
    assert extract_code("Here:\n```python\nx = 2\n") == "x = 2\n"


def test_plain_code_and_hopeless_text() -> None:
    assert extract_code("x = 3\n") == "x = 3\n"
    assert extract_code("no code here at all!") == "no code here at all!"
    assert extract_code("```python\ndef f(:\n```") == "def f(:\n"
