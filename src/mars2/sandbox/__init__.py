"""Execute untrusted candidate code against tests (design.md §5): `Sandbox`, `SandboxStats`.

TODO: full isolation statement (see below, being written).
"""

from __future__ import annotations

from mars2.sandbox.pool import Sandbox, SandboxStats

__all__ = ["Sandbox", "SandboxStats"]
