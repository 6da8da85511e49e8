"""Exception types shared by every layer, and the exit code each one maps to."""

from __future__ import annotations


class Mars2Error(Exception):
    """Base class: a failure mars2 understands and can explain in one message."""

    exit_code = 1


class UserError(Mars2Error):
    """Something the user can fix: a bad file, a bad config value, a missing model.

    The CLI prints the message (no traceback) and exits 2.
    """

    exit_code = 2


class ConfigError(UserError):
    """An invalid configuration value, naming the dotted field, the value and what is allowed."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"config field '{field}': got {value!r}; {allowed}")

    def under(self, prefix: str) -> ConfigError:
        """The same error with its field path prefixed by `prefix` (e.g. 'search')."""
        return ConfigError(
            f"{prefix}.{self.field}" if prefix else self.field, self.value, self.allowed
        )


class FileError(UserError):
    """A bad file mars2 reads, naming the file and (1-based, 0 for the whole file) the line."""

    def __init__(self, file: object, line: int, problem: str) -> None:
        self.file = str(file)
        self.line = line
        self.problem = problem
        super().__init__(f"{file}:{line}: {problem}" if line else f"{file}: {problem}")


class InfraError(Mars2Error):
    """The machinery failed (sandbox, backend, worker), not the model: the run stops with exit 1."""
