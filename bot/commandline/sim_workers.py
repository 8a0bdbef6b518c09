"""The simulator's worker processes (`gupai sim --jobs N`): blocks of games played in other
processes, which never outlive the one that started them.

The rules core plays a block (`games.sim.play_block`) and knows nothing of processes; this is
the runner the command line hands `simulate`. A worker is told by the kernel to die with its
parent (Linux's `PR_SET_PDEATHSIG`: a parent killed with SIGKILL leaves nobody playing on), and
looks at its parent twice a second where that is not available. Ctrl-C is the parent's alone:
the workers ignore SIGINT, so the parent stops them (`terminate`) and reports the blocks played
so far instead of every worker printing a traceback.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence

from games.sim import Block, Runner, SimStats, play_block

PR_SET_PDEATHSIG = 1
LOOK = 0.5
"""Seconds between a worker's looks at its parent where the kernel cannot tell it."""


def in_processes(jobs: int) -> Runner:
    """A runner playing blocks in `jobs` worker processes."""
    def run(blocks: Sequence[Block]) -> Iterator[SimStats]:
        context = multiprocessing.get_context("spawn" if sys.platform != "linux" else "fork")
        pool = context.Pool(min(jobs, len(blocks)), _worker_starts, (os.getpid(),))
        try:
            yield from pool.imap_unordered(play_block, blocks)
            pool.close()
        finally:
            pool.terminate()  # (Ctrl-C, or an error: nobody plays on)
            pool.join()
    return run


def _worker_starts(parent: int) -> None:
    """In each worker, first: die with the parent, and leave Ctrl-C to it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _kernel_kills_with(parent):
        threading.Thread(target=_watch, args=(parent,), daemon=True,
                         name="gupai-parent-watch").start()


def _kernel_kills_with(parent: int) -> bool:
    """Ask Linux for SIGKILL when the parent dies; False where it cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)
    return True


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(LOOK)
    with contextlib.suppress(Exception):
        os._exit(1)
