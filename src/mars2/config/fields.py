"""How a configuration field is declared and checked: its default and docstring (`setting`), and
the checks that raise `ConfigError` naming the field."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from mars2.errors import ConfigError
from mars2.registry import Registry


def setting(default: Any, doc: str) -> Any:
    """A dataclass field with a default and a docstring."""
    if isinstance(default, list | dict | tuple) and not isinstance(default, str):
        frozen = default
        return field(default_factory=lambda: frozen, metadata={"doc": doc})
    return field(default=default, metadata={"doc": doc})


def check(ok: bool, name: str, value: object, allowed: str) -> None:
    if not ok:
        raise ConfigError(name, value, allowed)


def check_name(registry: Registry[Any], name: str, value: str) -> None:
    """A field naming a registry entry (mars2.registry): a known name or a dotted path."""
    problem = registry.check(value)
    if problem is not None:
        raise ConfigError(name, value, problem)
