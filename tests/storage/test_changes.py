"""Saved games told to whoever follows them (`storage.changes`): this process's saves at once,
another process's through PostgreSQL's `LISTEN`/`NOTIFY` (again after the listening connection
is dropped), and on a shared SQLite file by a look at its `data_version` only while another
process shares it. Nothing is read while nothing is saved.

On the real clock: the notices come from the database server, outside the test's loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from storage import Saved, Storage
from storage.postgres_db import PostgresDatabase

pytestmark = pytest.mark.real_time

WAIT = 10.0


class Heard:
    """What a follower was told, and a way to wait for it."""

    def __init__(self) -> None:
        self.told: list[Saved | None] = []
        self.event = asyncio.Event()

    def __call__(self, change: Saved | None) -> None:
        self.told.append(change)
        self.event.set()

    async def until(self, wanted: Saved | None) -> None:
        async with asyncio.timeout(WAIT):
            while wanted not in self.told:
                self.event.clear()
                await self.event.wait()


def counting_reads(store: Storage) -> list[str]:
    """Every read the storage makes from now on, by its SQL."""
    seen: list[str] = []
    read = store.db.read

    async def counted(sql: str, params: Iterable[Any] = ()) -> Any:
        seen.append(sql)
        return await read(sql, params)
    store.db.read = counted  # type: ignore[method-assign]
    return seen


async def a_game(store: Storage) -> Any:
    chat = await store.accounts.chat("telegram", "-1", "group")
    users = [await store.accounts.user("telegram", str(i), f"p{i}") for i in range(2)]
    return await store.sessions.create(chat, "dragon", {}, users, status="active")


async def test_this_process_hears_its_own_saves_at_once(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "one.sqlite3")
    try:
        heard = Heard()
        stop = store.changes.follow(heard)
        session = await a_game(store)
        await store.sessions.save(session.but(version=1), 0)
        assert heard.told == [Saved(session.id, 1)]
        stop()
        await store.sessions.save(session.but(version=2), 1)
        assert heard.told == [Saved(session.id, 1)]
    finally:
        await store.close()


async def test_postgres_tells_every_process_of_a_save(postgres_url: str) -> None:
    first, second = await Storage.open(postgres_url), await Storage.open(postgres_url)
    try:
        heard = Heard()
        first.changes.follow(heard)
        db = first.db
        assert isinstance(db, PostgresDatabase) and db._listener is not None
        async with asyncio.timeout(WAIT):
            await db._listener.listening.wait()
        reads = counting_reads(first)
        session = await a_game(second)
        await asyncio.sleep(1.0)  # nothing saved but the new game: nothing heard, nothing read
        assert Saved(session.id, 1) not in heard.told and reads == []
        await second.sessions.save(session.but(version=1), 0)
        await heard.until(Saved(session.id, 1))
        assert reads == [], "heard, not read"
        # The listening connection dropped: it connects again, tells the followers to look
        # once, and goes on hearing.
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
        heard.told.clear()
        await heard.until(None)
        async with asyncio.timeout(WAIT):
            await db._listener.listening.wait()
        await second.sessions.save(session.but(version=2), 1)
        await heard.until(Saved(session.id, 2))
    finally:
        await first.close()
        await second.close()


async def test_a_shared_sqlite_file_is_looked_at_only_while_shared(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    first, second = await Storage.open(path), await Storage.open(path)
    try:
        heard = Heard()
        first.changes.follow(heard)
        session = await a_game(second)
        await second.sessions.save(session.but(version=1), 0)
        await asyncio.sleep(1.5)
        assert heard.told == [], "alone on its file, a process never looks"
        first.db.shared(True)
        await heard.until(None)  # the first look: whatever was saved a moment before
        heard.told.clear()
        await asyncio.sleep(1.5)
        assert heard.told == [], "nothing written, nothing told"
        await second.sessions.save(session.but(version=2), 1)
        await heard.until(None)
        first.db.shared(False)
        await asyncio.sleep(1.0)
        heard.told.clear()
        await second.sessions.save(session.but(version=3), 2)
        await asyncio.sleep(1.5)
        assert heard.told == []
    finally:
        await first.close()
        await second.close()
