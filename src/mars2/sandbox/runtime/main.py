"""The worker's first process: it preloads the interpreter, forks the zygote while it still holds
nothing of any run, then serves runs as their judge for the life of the worker."""

from __future__ import annotations

import builtins
import contextlib
import gc
import os
import signal
import socket
import sys
import traceback

from .candidate import warm_up
from .common import ERROR_TAIL, fork, no_dump
from .judge import judge_run
from .protocol import RUN_DIED, RUN_OK, Done, Infra, Ready, emit
from .zygote import zygote_main

# Not tempfile: with shutil it maps bz2, lzma and zlib, which makes every fork dearer.
PRELOAD = "typing collections itertools functools math heapq bisect re string random copy operator"


def worker_main(cpu: int | None = None) -> None:
    if cpu is not None:  # before the zygote is forked: it and every candidate inherit it
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {cpu})
    no_dump()
    # `python -S` skips `site`, which defines exit() and quit(); programs do call them.
    builtins.exit = builtins.quit = sys.exit  # type: ignore[assignment]
    for name in PRELOAD.split():
        with contextlib.suppress(ImportError):
            __import__(name)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as pid 1, unhandled signals never arrive
    warm_up()
    ctl, ctl_zygote = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    # Objects that exist now are never collected: forks then leave their pages shared instead
    # of touching them in a collection (cheaper forks).
    gc.freeze()
    zygote = fork()
    if zygote == 0:
        try:
            ctl.close()
            zygote_main(ctl_zygote)
        finally:
            os._exit(0)
    ctl_zygote.close()
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (prints of test programs go nowhere)
    emit(Ready(os.getpid(), os.getuid(), zygote))
    while True:
        try:
            status = judge_run(ctl, zygote)
        except EOFError:  # the host closed our stdin: the sandbox is closing
            ctl.close()  # the zygote exits; reaping it passes its CPU time on to the host
            with contextlib.suppress(ChildProcessError):
                os.waitpid(zygote, 0)
            os._exit(0)
        except BaseException:  # noqa: BLE001
            emit(Infra(traceback.format_exc()[-ERROR_TAIL:]))
            status = RUN_DIED
        emit(Done(status))
        if status != RUN_OK:
            os._exit(1)
