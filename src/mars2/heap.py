"""Give the heap's free memory back to the operating system.

glibc keeps freed blocks below its mmap threshold (most of a forward pass's activations, a
prompt cache's entries) in the heap of the thread that freed them, for that heap's next
allocations: the process's resident memory does not shrink, and memory the engine thread freed is
not reused by the learner's thread. A training step alternates the two, so without a trim its peak
is the engine's high-water mark plus the learner's (measured: docs/performance.md).
`release()` calls `malloc_trim(0)`, which returns the free pages of every heap, and
`large_blocks_to_os()` lowers glibc's mmap threshold to 1 MiB, so the blocks a learner's forward
pass allocates (activations of MiBs each) are mapped on their own and unmapped when freed instead
of fragmenting the heap during an update (measured: a learner update of 1,024-token micro-batches
peaked at ~3.2 GB resident with glibc's adaptive threshold, ~2.2 GB with 1 MiB, at the same CPU
time within noise). Elsewhere (musl, macOS) both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable

M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)
LARGE_BLOCK = 1 << 20  # bytes: blocks at least this large are mapped on their own


@functools.cache
def _libc_function(name: str) -> Callable[..., int] | None:
    try:
        function: Callable[..., int] = getattr(ctypes.CDLL(ctypes.util.find_library("c")), name)
    except (OSError, AttributeError, TypeError):
        return None
    return function


def release() -> bool:
    """Return free heap memory to the operating system; False where the C library cannot."""
    trim = _libc_function("malloc_trim")
    if trim is None:
        return False
    trim(0)
    return True


@functools.cache
def large_blocks_to_os() -> bool:
    """Map blocks of LARGE_BLOCK bytes or more on their own, for the whole process (once); False
    where the C library cannot. It also ends glibc's adaptive threshold, which would otherwise
    rise to the size of the largest block freed (up to 32 MiB) and keep such blocks in the heap."""
    mallopt = _libc_function("mallopt")
    return mallopt is not None and bool(mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK))
