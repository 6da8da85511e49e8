"""Give the heap's free memory back to the operating system.

glibc keeps freed blocks below its mmap threshold (most of a forward pass's activations, a
prompt cache's entries) in the heap of the thread that freed them, for that heap's next
allocations: the process's resident memory does not shrink, and memory the engine thread freed is
not reused by the learner's thread. A training step alternates the two, so without a trim its peak
is the engine's high-water mark plus the learner's (measured: docs/performance.md).
`release()` calls `malloc_trim(0)`, which returns the free pages of every heap; elsewhere (musl,
macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    return trim


def release() -> bool:
    """Return free heap memory to the operating system; False where the C library cannot."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
