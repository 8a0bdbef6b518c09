"""Messages to one chat, in order, coalesced, within the platform's budget, retried until sent.

docs/architecture.md §5 and §11: each adapter owns its platform's limits (Telegram: 20 messages a
minute per group; Discord: its own per-channel limits, which discord.py keeps). Every call that
sends, edits or deletes a message in the chat goes through the chat's outbox, which never makes more
than `cap` calls in any `window` seconds.

New messages (`post`) are kept in order and all delivered. Updates of something shown in place
(the table message, a hand) are slots: a newer update replaces one still waiting, so a table
that changes ten times while the budget refills is edited once, to its latest state. A slot is
never held behind queued posts: once `spacing` seconds have passed since the last in-place
update, the next one goes first, and posts use the time in between, so the table keeps up
with the game however many posts wait.

An update that puts a new message on screen (the table that replaces the lobby) is a message
like the posts: it keeps its place among them (`in_order`), or a deal's result posted after it
would appear above it, and a short match could end before its table was ever shown.

A platform may also limit the calls of the whole bot, all chats together (Telegram: about 30 a
second). Every outbox of the bot then counts its calls in one `Pace`, and an update that can
wait (`spare`: a hand after its player's move, which asks nothing of them) goes only while the
bot is below its limit by a margin; until then a newer update for it replaces it (the player's
next turn shows their hand anyway). So when the bot is at its limit, what waits is what
matters least, and the tables and turn notices keep their pace.

A job that fails with an error the platform calls passing (`retry_after` gives the seconds to
wait: flood control, a timeout, a server error) is not dropped: a post runs again at the head of
the queue, a slot unless a newer update replaced it, after the wait, doubled on every failure in
a row up to `MAX_BACKOFF`. Any other failure is logged and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from bot.service.logs import carrying, detached

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
RetryAfter = Callable[[BaseException], float | None]
"""Seconds to wait before trying a failed job again, or None when retrying cannot help."""
MAX_BACKOFF = 60.0
IDLE = 30.0
"""Seconds an outbox with nothing to send keeps its runner before letting it end."""
TICK = 0.001
"""The shortest wait: a timer may fire a rounding error early, and must not spin."""
SPARE_WAIT = 0.1
"""Seconds between two looks for room for an update that can wait."""
QUEUED = 0.5
"""Seconds of calls at the bot's limit that may wait for their answer before updates that can
wait are held back (a call in flight takes a fraction of a second; a longer queue is the
library holding calls back at the limit)."""


@dataclass(frozen=True, slots=True)
class Budget:
    cap: int | None = 20
    """Calls allowed in any `window` seconds (None: no limit, as for private chats)."""
    window: float = 60.0
    spacing: float = 4.0
    """Seconds between two in-place updates of the same chat."""


def never(exc: BaseException) -> float | None:
    return None


def loop_time() -> float:
    """The running event loop's clock: the one its sleeps and timers keep."""
    return asyncio.get_running_loop().time()


class Pace:
    """The calls a bot made in all its chats over the last `window` seconds, against the
    platform's limit for the whole bot (`rate` a second). It does not hold calls back (the
    platform's library does that); it tells updates that can wait whether there is room."""

    def __init__(self, rate: float, window: float = 1.0, spare: float = 0.85,
                 clock: Callable[[], float] = loop_time) -> None:
        self.rate = rate
        self.window = window
        self.spare = spare
        """The share of the limit above which updates that can wait are held back."""
        self.clock = clock
        self.calls: deque[float] = deque()
        self.waiting = 0
        """Calls started and not yet answered. At the limit the library queues calls rather
        than refusing them, so the calls started in a second never exceed the limit by much:
        it is the queue that shows the bot is at its limit."""

    def made(self) -> None:
        self.calls.append(self.clock())

    def recent(self) -> int:
        edge = self.clock() - self.window
        while self.calls and self.calls[0] <= edge:
            self.calls.popleft()
        return len(self.calls)

    def room(self) -> bool:
        return (self.recent() < self.rate * self.window * self.spare
                and self.waiting < self.rate * QUEUED)

    def claim(self) -> bool:
        """Room for an update that can wait, counted at once: the many chats whose updates
        wait for room must not all take the same room."""
        if not self.room():
            return False
        self.made()
        return True


class Outbox:
    def __init__(self, name: str, budget: Budget, clock: Callable[[], float] = loop_time,
                 retry_after: RetryAfter = never, pace: Pace | None = None) -> None:
        self.name = name
        self.budget = budget
        self.clock = clock
        self.retry_after = retry_after
        self.pace = pace
        self.calls: deque[float] = deque()
        """When each call of the last window started."""
        self._posts: deque[Job | str] = deque()
        """New messages in order; a slot's key holds the place of an update sent `in_order`."""
        self._slots: dict[str, Job] = {}
        self._placed: set[str] = set()
        """Slots whose key is waiting among the posts."""
        self._spare: set[str] = set()
        """Slots whose update can wait for room in the bot's `pace`."""
        self._claimed = False
        """The running job's first call was counted in the pace when it claimed its room."""
        self._last_update = float("-inf")
        self._resume = float("-inf")
        """After a passing failure: nothing is sent before this time."""
        self._failures = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._busy = False
        self._hurry = False
        """Stopping: in-place updates go without their spacing (`drain`)."""

    def post(self, job: Job) -> None:
        self._posts.append(carrying(job))
        self._kick()

    def update(self, key: str, job: Job, *, in_order: bool = False, spare: bool = False
               ) -> None:
        """Run `job` for `key` unless a newer update for `key` arrives before its turn.

        `in_order`: the update sends a new message, so its turn comes after the posts already
        queued and before any posted later, with no wait for `spacing` (a new message is not an
        in-place update). It still coalesces: the turn runs the newest job for `key`.
        `spare`: the update can wait while the bot is near its limit (see `Pace`).
        """
        self._slots[key] = carrying(job)
        if spare:
            self._spare.add(key)
        else:
            self._spare.discard(key)
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

    async def drain(self, timeout: float = 30.0, *, hurry: bool = False) -> None:
        """Wait until everything queued has been sent (tests, shutdown). `hurry` (a stop): the
        in-place updates no longer wait out their `spacing`, so the last state of a table or
        a hand is shown before the stop instead of after the restart, and the stop does not
        wait for it; the budget still holds."""
        if hurry:
            self._hurry = True
            self._wake.set()
        end = self.clock() + timeout
        while (self.pending or self._busy) and self.clock() < end:
            await asyncio.sleep(0.02)

    def _kick(self) -> None:
        if self._closed:
            return
        self._wake.set()
        if self._task is None or self._task.done():
            with detached():  # (each job logs as the request that queued it: `carrying`)
                self._task = asyncio.ensure_future(self._run())

    async def _pause(self, seconds: float) -> bool:
        """Wait until something is queued or `seconds` pass; True when woken."""
        self._wake.clear()
        try:
            await asyncio.wait_for(self._wake.wait(), timeout=seconds)
        except TimeoutError:
            return False
        return True

    def _due(self) -> str | None:
        """The in-place update whose turn it is, if its spacing has passed (one that can
        wait, only once it has claimed room in the bot's pace)."""
        if not self._hurry and self.clock() < self._last_update + self.budget.spacing:
            return None
        tried = False
        for key in self._slots:
            if key in self._placed:
                continue
            if key not in self._spare or self.pace is None:
                return key
            if not tried:  # (one claim a look)
                tried = True
                if self.pace.claim():
                    self._claimed = True
                    return key
        return None

    async def _run(self) -> None:
        while not self._closed:
            if not self._posts and not self._slots:
                if not await self._pause(IDLE):
                    return  # idle: the next post or update starts a new runner
                continue
            wait = max(self._resume - self.clock(), self._budget_wait())
            if wait > 0:
                await asyncio.sleep(max(wait, TICK))
                continue
            key = self._due()
            job: Job | None
            if key is not None:
                job = self._slots.pop(key)
                self._spare.discard(key)
                self._last_update = self.clock()
            elif self._posts:
                item = self._posts.popleft()
                if isinstance(item, str):
                    self._placed.discard(item)
                    self._spare.discard(item)
                    key, job = item, self._slots.pop(item, None)
                    if job is None:
                        continue
                    self._last_update = self.clock()
                else:
                    job = item
            else:
                wait = self._last_update + self.budget.spacing - self.clock()
                # (nothing due once the spacing has passed: updates that wait for room)
                await self._pause(max(wait, TICK) if wait > 0 else SPARE_WAIT)
                continue
            await self._attempt(job, key)

    async def _attempt(self, job: Job, key: str | None) -> None:
        self._busy = True
        try:
            await job()
            self._failures = 0
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            delay = self.retry_after(exc)
            if delay is None:
                log.exception("%s: a message could not be delivered", self.name)
                return
            self._failures += 1
            delay = max(delay, min(MAX_BACKOFF, 2.0 ** (self._failures - 1)))
            log.warning("%s: %s; trying again in %.0f s", self.name, exc, delay)
            self._resume = self.clock() + delay
            if key is None:
                self._posts.appendleft(job)
            elif key not in self._slots:
                self._slots[key] = job
        finally:
            self._busy = False
            self._claimed = False

    def _budget_wait(self) -> float:
        """Seconds until the budget allows another call."""
        cap = self.budget.cap
        if cap is None:
            return 0.0
        now = self.clock()
        while self.calls and self.calls[0] <= now - self.budget.window:
            self.calls.popleft()
        if len(self.calls) < cap:
            return 0.0
        return self.calls[0] + self.budget.window - now + 0.01

    @contextlib.asynccontextmanager
    async def sending(self) -> AsyncIterator[None]:
        """One platform call (a job may make two: send the new table, delete the old).

        It waits until the budget allows it and counts it by the time it *finished*: the
        platform saw the call at some moment before that, so a window measured from finish
        times can never be shorter on the platform's side than it is here.
        """
        pace = self.pace
        if pace is not None and not self._claimed:
            pace.made()
        self._claimed = False
        if pace is not None:
            pace.waiting += 1
        try:
            if self.budget.cap is None:
                yield
                return
            while (wait := self._budget_wait()) > 0:
                await asyncio.sleep(max(wait, TICK))
            self.calls.append(self.clock())
            try:
                yield
            finally:
                self.calls[-1] = self.clock()
        finally:
            if pace is not None:
                pace.waiting -= 1
