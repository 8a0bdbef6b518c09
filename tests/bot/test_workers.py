"""Processes sharing one database (`bot.service.workers`): a game's timers run only in the process
that saved it last, and another process takes them over, with the posts it owed, once the first is
dead. Two session layers in one test stand for two processes."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import pytest

from bot.service.workers import Worker
from storage import Storage
from tests.support.session_helpers import BOB, FAST, OLENA, close, lobby, manager

LEASE = 0.3
TIMING = dataclasses.replace(FAST, lease=LEASE)


class Clock:
    """The database's clock, moved only by the test: how old a beat is then depends on what
    the test says, not on how long a loaded machine took between two steps of it."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def stop_dead(m) -> None:
    """The process dies: its timers and sweeps stop, and it never says goodbye."""
    m.requests.worker.closed = True
    await m.timers.close()


@pytest.fixture
async def two(tmp_path: Path, clock: Clock):
    """Two processes on one database, both started (their first sweeps done), whose beats
    tell the time by `clock`."""
    path = tmp_path / "shared.sqlite3"
    pair = [await manager(path, TIMING), await manager(path, TIMING)]
    for m, _ in pair:
        m.storage.db.clock = clock
        await m.restore()
    return pair


async def test_only_the_last_saver_runs_a_games_timers(two) -> None:
    (first, rec1), (second, _) = two
    try:
        sid = await lobby(first, rec1, ["dragon", "deals=1"], [OLENA, BOB])
        assert await first.storage.workers.owner(sid) == first.requests.worker.id
        assert await first.requests.worker.holds(sid)
        assert not await second.requests.worker.holds(sid)
        # A press that the second process takes makes it the game's timekeeper.
        session = await second.storage.sessions.get(sid)
        assert session is not None
        await second.requests.save(session.but(version=session.version + 1), session.version)
        assert await first.storage.workers.owner(sid) == second.requests.worker.id
        assert not await first.requests.worker.holds(sid)
    finally:
        await close(first)
        await close(second)


async def test_a_dead_process_games_and_posts_are_taken_over(two, clock: Clock) -> None:
    (first, rec1), (second, _) = two
    try:
        sid = await lobby(first, rec1, ["dragon", "deals=1"], [OLENA, BOB], computers=2)
        await stop_dead(first)
        # A post the dead process saved and never delivered.
        session = await first.storage.sessions.get(sid)
        assert session is not None
        await first.storage.sessions.save_posting(
            session.but(version=session.version + 1), session.version,
            posts=[{"kind": "note"}], owner=first.requests.worker.id)
        # The second process sweeps a few times meanwhile, but the dead one's beat is not old.
        await asyncio.sleep(LEASE / 2)
        assert await second.storage.workers.owner(sid) == first.requests.worker.id
        # Its beat grows old: within a sweep the second process has its game.
        clock.now += LEASE * 1.5
        await _until(lambda: second.storage.workers.owner(sid), second.requests.worker.id)
        ids = [r.id for r in await second.storage.workers.rows()]
        assert first.requests.worker.id not in ids
        assert await second.storage.sessions.pending_posts("test", second.requests.worker.id)
    finally:
        await close(second)
        await first.storage.close()


async def _until(read, wanted, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await read() != wanted:
        assert loop.time() < end, await read()
        await asyncio.sleep(0.05)


async def test_a_process_on_this_host_whose_pid_is_gone_is_dead_at_once(tmp_path: Path
                                                                       ) -> None:
    storage = await Storage.open(tmp_path / "x.sqlite3")
    try:
        worker = Worker(storage, "test", lease=60.0)
        await storage.workers.register("gone", worker.host, 2**22 + 12345, "test")
        await storage.workers.register("alive", worker.host, 1, "test")
        await storage.workers.register("elsewhere", "another-host", 2**22 + 12345, "test")
        assert worker.dead(await storage.workers.rows()) == ["gone"]
    finally:
        await storage.close()
