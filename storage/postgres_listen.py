"""PostgreSQL's side of `storage.changes`: one connection per process listening for saved
games (docs/architecture.md §6, `LISTEN`/`NOTIFY` instead of polling).

A trigger (schema migration 6) notifies `SAVED` at the commit of every save, by whichever
process made it; this connection hears them within milliseconds, and nothing is read while
nothing is saved. It is opened only once the process has a follower (an open page), and
connected again, with a growing pause, whenever the server drops it. Notices sent while it
was not listening are lost, so each time it starts listening (the first time too: a page
opened a moment before) the followers are told to look once for themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import AsyncConnection

from storage.changes import SAVED, Changes, Saved

log = logging.getLogger(__name__)

PAUSES = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds before each new attempt to connect the listener; the last one repeats."""


class SaveListener:
    """The listening connection and the task reading it."""

    def __init__(self, url: str, kwargs: dict[str, Any], changes: Changes,
                 scrub: Callable[[str], str]) -> None:
        self._url = url
        self._kwargs = {**kwargs, "autocommit": True}
        self._changes = changes
        self._scrub = scrub
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        """Set while the connection listens (for whoever must wait for it)."""

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="gupai-listener")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        failures = 0
        while True:
            try:
                conn = await AsyncConnection.connect(self._url, **self._kwargs)
            except psycopg.Error as exc:
                log.warning("listening for saved games: cannot connect: %s",
                            self._scrub(str(exc).strip().splitlines()[0] if str(exc) else ""))
            else:
                try:
                    await conn.execute(f"LISTEN {SAVED}")
                    failures = 0
                    self.listening.set()
                    self._changes.missed()
                    async for notice in conn.notifies():
                        saved = Saved.parse(notice.payload)
                        if saved is not None:
                            self._changes.saved(*saved)
                except psycopg.Error as exc:
                    log.warning("listening for saved games: the connection dropped: %s",
                                self._scrub(str(exc).strip().splitlines()[0]
                                            if str(exc) else ""))
                finally:
                    self.listening.clear()
                    with contextlib.suppress(psycopg.Error):
                        await conn.close()
            await asyncio.sleep(PAUSES[min(failures, len(PAUSES) - 1)])
            failures += 1
