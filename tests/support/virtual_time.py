"""An asyncio event loop whose clock moves only when the loop has nothing left to do.

End-to-end tests at a human pace (a move every few seconds, several minutes of play) would take
those minutes on the real clock. This loop jumps its clock straight to the next timer as soon as
every task waits for time alone, so a twenty-minute game runs in seconds while every
`asyncio.sleep`, `call_later` and `loop.time()` (ours, discord.py's rate limits, the Telegram
library's) keeps its meaning.

Time must not jump while work goes on outside the loop: a picture drawn in a worker thread, a
query in aiosqlite's thread or in the PostgreSQL server, an HTTP request to a fake server's
thread. Worker threads started with `run_in_executor` are counted here; `outside()` counts
anything else for as long as it runs, and `track_threads()` wraps aiosqlite, the PostgreSQL
backend's queries and python-telegram-bot's HTTP requests in it. While any
of these is under way the clock moves as the real one does, as on any loop, so a test can
still wait a little for a request that the fake server holds back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import selectors
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

START = 1_000.0
"""Where the virtual clock starts (any value: only differences matter)."""
EPOCH = 1_800_000_000.0
"""Seconds since the epoch at virtual time 0, for clocks that tell the date (game deadlines)."""
REAL_WAIT = 0.005
"""Seconds of real time the loop waits for outside work before looking again."""


class _Selector:
    """The loop's selector, with `select` deciding between waiting really and jumping."""

    def __init__(self, real: selectors.BaseSelector, loop: VirtualLoop) -> None:
        self._real = real
        self._loop = loop

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def select(self, timeout: float | None = None) -> list[tuple[Any, int]]:
        if timeout is not None and timeout <= 0:
            return self._real.select(0)
        while True:
            events = self._real.select(0)
            if events:
                return events
            if self._loop.busy:
                # A thread will wake the loop (call_soon_threadsafe writes to its self-pipe);
                # meanwhile the clock moves as the real one does, never past the next timer.
                wait = REAL_WAIT if timeout is None else min(REAL_WAIT, timeout)
                began = time.monotonic()
                events = self._real.select(wait)
                passed = time.monotonic() - began
                self._loop.pass_(passed if timeout is None else min(passed, timeout))
                return events
            if timeout is None:
                # Nothing is scheduled and nothing runs outside: only another thread (a test
                # driving the loop from outside) can wake it.
                return self._real.select(REAL_WAIT)
            self._loop.advance(timeout)
            return []


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self, start: float = START) -> None:
        super().__init__()
        self._now = start
        self._outside = 0
        self._selector = _Selector(self._selector, self)  # type: ignore[assignment]

    def time(self) -> float:
        return self._now

    def pass_(self, seconds: float) -> None:
        """Move the clock on by real time spent waiting for outside work."""
        self._now += seconds

    def advance(self, seconds: float) -> None:
        """Move the clock on by `seconds`, and always by at least one step of the float, so
        that a timer a rounding error ahead is reached."""
        self._now = max(self._now + seconds, math.nextafter(self._now, math.inf))

    @property
    def busy(self) -> bool:
        return self._outside > 0

    @contextlib.contextmanager
    def outside(self) -> Iterator[None]:
        """Keep the clock still while the body's work goes on outside the loop."""
        self._outside += 1
        try:
            yield
        finally:
            self._outside -= 1

    def run_in_executor(self, executor: Any, func: Callable[..., T], *args: Any
                        ) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        self._outside += 1

        def done(_: asyncio.Future[T]) -> None:
            self._outside -= 1
        future.add_done_callback(done)
        return future


def wall_clock() -> Callable[[], float]:
    """Seconds since the epoch on the running loop's clock: from EPOCH on a virtual loop (so
    a game's deadlines come when its timers fire), the real time on any other."""
    loop = asyncio.get_running_loop()
    if isinstance(loop, VirtualLoop):
        return lambda: EPOCH + loop.time()
    return time.time


def _counted(method: Callable[..., Awaitable[T]]) -> Callable[..., Coroutine[Any, Any, T]]:
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        if not isinstance(loop, VirtualLoop):
            return await method(*args, **kwargs)
        with loop.outside():
            return await method(*args, **kwargs)
    return wrapper


@contextlib.contextmanager
def track_threads() -> Iterator[None]:
    """Count aiosqlite's and PostgreSQL's queries and the Telegram library's HTTP requests as
    outside work."""
    import aiosqlite.core
    from telegram.request import HTTPXRequest

    from storage import postgres_db

    patched: list[tuple[type, str]] = [
        (aiosqlite.core.Connection, name) for name in ("_execute", "_connect", "close")]
    patched += [(postgres_db.PgConnection, name) for name in ("execute", "executemany", "lock")]
    patched += [(postgres_db.PostgresDatabase, name) for name in (
        "_open", "_writer", "_replace", "_commit", "_rollback", "read", "close")]
    patched.append((HTTPXRequest, "do_request"))
    saved = [(owner, name, owner.__dict__[name]) for owner, name in patched]
    try:
        for owner, name, method in saved:
            setattr(owner, name, _counted(method))
        yield
    finally:
        for owner, name, method in saved:
            setattr(owner, name, method)


def run(main: Coroutine[Any, Any, T], start: float = START) -> T:
    """Run `main` to completion on a fresh virtual-time loop (and close the loop)."""
    loop = VirtualLoop(start)
    try:
        with track_threads():
            return loop.run_until_complete(main)
    finally:
        try:
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()
