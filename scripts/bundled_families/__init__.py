"""Problem families of the bundled `basic` set; `build_bundled.py` turns them into JSONL.

Each family module defines `FAMILY = Family(name, split)` and registers its problems with the
`@FAMILY.add(...)` decorator on the reference solution. A family is wholly `train` or wholly
`test`, so test problems are never near-copies of train problems.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Spec:
    """One problem before its expected outputs are computed."""

    id: str
    statement: str
    difficulty: str
    solution: str
    fn_name: str
    cases: tuple[tuple[Any, ...], ...]
    n_public: int


@dataclass
class Family:
    """A group of closely related problems that all land in the same split."""

    name: str
    split: str
    specs: list[Spec] = field(default_factory=list)

    def add(
        self,
        difficulty: str,
        statement: str,
        cases: list[Any],
        *,
        id: str | None = None,
        n_public: int = 3,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function as the reference solution of a problem.

        `cases` lists the test inputs: a tuple is the positional arguments of one call, any other
        value is the single argument of one call. The first `n_public` cases are public."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.specs.append(
                Spec(
                    id=id or fn.__name__.replace("_", "-"),
                    statement=" ".join(statement.split()),
                    difficulty=difficulty,
                    solution=source_of(fn),
                    fn_name=fn.__name__,
                    cases=tuple(c if isinstance(c, tuple) else (c,) for c in cases),
                    n_public=n_public,
                )
            )
            return fn

        return register


def source_of(fn: Callable[..., Any]) -> str:
    """The function's source without its decorator lines, dedented."""
    lines = textwrap.dedent(inspect.getsource(fn)).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("def "))
    return "\n".join(lines[start:]).rstrip() + "\n"
