"""Messages to one chat, in order, coalesced and under a per-chat budget.

DESIGN.md §5: a fast table must not flood a group. Every call that sends, edits or deletes a
message in the chat goes through the chat's outbox, which never makes more than `cap` calls in any
`window` seconds. New messages (`post`) are kept in order and all delivered; updates of something
that is shown in place (the table message, a hand) are slots: a newer update replaces one still
waiting, so a table that changes ten times while the budget refills is edited once, to its latest
state. Jobs run one at a time and wrap each platform call in `sending()`. Slot updates are
also spaced at least `spacing` seconds apart, which leaves room in the budget for the posts that
must not wait long (a deal's result).

An update that puts a new message on screen (the table that replaces the lobby) is a message
like the posts: it keeps its place among them (`in_order`), or a deal's result posted after it
would appear above it, and a short match could end before its table was ever shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Budget:
    cap: int | None = 20
    """Calls allowed in any `window` seconds (None: no limit, as for private chats)."""
    window: float = 60.0
    spacing: float = 4.0
    """Seconds between two in-place updates of the same chat."""


class Outbox:
    def __init__(self, name: str, budget: Budget, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.name = name
        self.budget = budget
        self.clock = clock
        self.calls: deque[float] = deque()
        """When each call of the last window started."""
        self._posts: deque[Job | str] = deque()
        """New messages in order; a slot's key holds the place of an update sent `in_order`."""
        self._slots: dict[str, Job] = {}
        self._placed: set[str] = set()
        """Slots whose key is waiting among the posts."""
        self._last_update = float("-inf")
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._busy = False

    def post(self, job: Job) -> None:
        self._posts.append(job)
        self._kick()

    def update(self, key: str, job: Job, *, in_order: bool = False) -> None:
        """Run `job` for `key` unless a newer update for `key` arrives before its turn.

        `in_order`: the update sends a new message, so its turn comes after the posts already
        queued and before any posted later, with no wait for `spacing` (a new message is not an
        in-place update). It still coalesces: the turn runs the newest job for `key`.
        """
        self._slots[key] = job
        if in_order and key not in self._placed:
            self._placed.add(key)
            self._posts.append(key)
        self._kick()

    @property
    def pending(self) -> int:
        return len(self._posts) - len(self._placed) + len(self._slots)

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until everything queued has been sent (tests, shutdown)."""
        end = self.clock() + timeout
        while (self.pending or self._busy) and self.clock() < end:
            await asyncio.sleep(0.02)

    def _kick(self) -> None:
        if self._closed:
            return
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while not self._closed:
            if not self._posts and not self._slots:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=30.0)
                except TimeoutError:
                    return  # idle: the next post or update starts a new runner
                continue
            if self._posts:
                item = self._posts.popleft()
                if isinstance(item, str):
                    self._placed.discard(item)
                    placed = self._slots.pop(item, None)
                    if placed is None:
                        continue
                    job = placed
                    self._last_update = self.clock()
                else:
                    job = item
            else:
                wait = self._last_update + self.budget.spacing - self.clock()
                if wait > 0:
                    self._wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), timeout=wait)
                    if self._posts or self._last_update + self.budget.spacing > self.clock():
                        continue
                key = next(iter(self._slots))
                job = self._slots.pop(key)
                self._last_update = self.clock()
            self._busy = True
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: a message could not be delivered", self.name)
            finally:
                self._busy = False

    @contextlib.asynccontextmanager
    async def sending(self) -> AsyncIterator[None]:
        """One platform call (a job may make two: send the new table, delete the old).

        It waits until the budget allows it and counts it by the time it *finished*: the
        platform saw the call at some moment before that, so a window measured from finish
        times can never be shorter on the platform's side than it is here.
        """
        cap = self.budget.cap
        if cap is None:
            yield
            return
        while True:
            now = self.clock()
            while self.calls and self.calls[0] <= now - self.budget.window:
                self.calls.popleft()
            if len(self.calls) < cap:
                break
            await asyncio.sleep(self.calls[0] + self.budget.window - now + 0.01)
        self.calls.append(self.clock())
        try:
            yield
        finally:
            self.calls[-1] = self.clock()
