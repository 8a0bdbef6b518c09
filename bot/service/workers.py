"""This process among the processes that share one database: who runs which game's timers.

docs/architecture.md §6. Several bot processes may serve one platform from one database (Telegram
webhook workers behind a load balancer, Discord shard processes). Any of them may take any press:
the saves' optimistic versions decide races. A game's timers (turn deadlines, lobby expiry, the
computer's moves) must run in exactly one of them, so each game has a lease, held by the process
that saved it last (written in the same transaction as the save, so the lease and the deadline it
arms never disagree); a timer whose process no longer holds the lease does nothing.

A process is alive while its `workers` row is: it beats every third of `lease` seconds. Another
process buries it when its beat is older than `lease`, or at once when it ran on the same host
and its pid is gone (a `kill -9` and a restart lose no time). Burying frees its leases and its
undelivered posts; the next sweep of a live process takes the games over, shows their tables
again, arms their timers and delivers the posts, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Iterable

from storage import Session, Storage, StorageError
from storage.workers import WorkerRow

log = logging.getLogger(__name__)

LEASE = 15.0
"""Seconds without a beat after which a process is taken for dead (`GUPAI_LEASE`)."""
MIN_LEASE = 1.0
MAX_LEASE = 600.0


def pid_gone(pid: int) -> bool:
    """No process has this pid on this host (any more)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class Worker:
    """One process's membership: its id, its beat, and the sweep that takes games over."""

    def __init__(self, storage: Storage, platform: str, lease: float = LEASE,
                 mine: Callable[[Session], Awaitable[bool]] | None = None) -> None:
        """`mine`: whether a game is this process's to take over (a Discord shard process
        takes only its shards' servers); by default every game of the platform."""
        self.storage = storage
        self.platform = platform
        self.lease = lease
        self.id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.host = socket.gethostname()
        self.mine = mine
        self.take_over: Callable[[list[Session], set[int]], Awaitable[None]] | None = None
        """Set by the session layer: show these games again and arm their timers, and deliver
        the posts with these ids, which this process now owes."""
        self.also: list[Callable[[], Awaitable[None]]] = []
        """More that each sweep does once the games are taken over (the seasons whose end
        has come: `bot.deals.seasons`)."""
        self._sweeping: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    async def start(self) -> None:
        """Join, and take over what the dead left (the first sweep); then sweep regularly."""
        await self.storage.workers.register(self.id, self.host, os.getpid(), self.platform)
        await self.sweep(starting=True)
        self._schedule()

    async def close(self) -> None:
        """Leave: the others take this process's games over at their next sweep."""
        self.closed = True
        if self._sweeping is not None:
            self._sweeping.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(StorageError):
            await self.storage.workers.leave(self.id)

    def _schedule(self) -> None:
        if not self.closed:
            self._sweeping = asyncio.get_running_loop().call_later(
                self.lease / 3, self._spawn)

    def _spawn(self) -> None:
        if self.closed:
            return
        self._task = asyncio.ensure_future(self._sweep_then_schedule())

    async def _sweep_then_schedule(self) -> None:
        try:
            await self.sweep()
        except StorageError as exc:
            log.warning("sweeping the other processes' games failed: %s", exc)
        except Exception:
            log.exception("sweeping the other processes' games failed")
        finally:
            self._schedule()

    async def holds(self, session_id: int) -> bool:
        """Whether this process runs the game's timers now (a game nobody holds is taken)."""
        owner = await self.storage.workers.owner(session_id)
        if owner == self.id:
            return True
        if owner is None:
            return await self.storage.workers.take(session_id, self.id)
        return False

    async def sweep(self, starting: bool = False) -> None:
        """Beat; bury the dead; take over the games and posts nobody living holds (`starting`:
        and the games already this process's, whose timers are not armed yet)."""
        workers = self.storage.workers
        if not await workers.beat(self.id):
            log.warning("this process was taken for dead; it joins again")
            await workers.register(self.id, self.host, os.getpid(), self.platform)
        rows = await workers.rows()
        dead = self.dead(rows)
        await workers.bury(dead)
        living = {row.id for row in rows} - set(dead)
        self.storage.db.shared(bool(living - {self.id}))
        taken: list[Session] = []
        # Games first, then leases: a game opened meanwhile has its lease (written with it)
        # in what is read second, so it is not taken for an orphan.
        sessions = await self.storage.sessions.open_sessions(self.platform)
        owners = await workers.leases()
        for session in sessions:
            owner = owners.get(session.id)
            if owner in living and not (starting and owner == self.id):
                continue
            if self.mine is not None and not await self.mine(session):
                continue
            if await workers.take(session.id, self.id):
                taken.append(session)
        posts = set(await workers.claim_posts(self.id, self.platform))
        if (taken or posts) and self.take_over is not None:
            await self.take_over(taken, posts)
        for work in self.also:
            await work()

    def dead(self, rows: Iterable[WorkerRow]) -> list[str]:
        now = self.storage.db.clock()
        return [row.id for row in rows if row.id != self.id and (
            row.seen < now - self.lease or (row.host == self.host and pid_gone(row.pid)))]

