"""The SQLite file: opening it, migrating it, and the one way to write to it.

docs/architecture.md §6: WAL, `synchronous=NORMAL`, foreign keys, a busy timeout, and every write
transaction begun with `BEGIN IMMEDIATE`, so two writers never both read then both write: the
file's write lock covers every lock a transaction names (`storage.locks`), which SQLite takes
none of, only checks the order of (so a lock out of order fails the SQLite tests too). One
connection writes (behind an asyncio lock, since a connection has one transaction at a time) and
another reads, which under WAL sees only committed data and never waits for the writer.
`PRAGMA user_version` holds how many migrations (`storage.schema`) the file has had.

A SQLite file has no channel telling one process of another's saves (`storage.changes`). While
another process shares the file and a page here follows a game, the writer's connection asks
`PRAGMA data_version` every `LOOK` seconds: a counter in the file's shared memory that moves
when another connection commits (never for the writer's own commits), so no table is read, and
a move tells the followers to look once. A process alone on its file never asks.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from storage.changes import Changes
from storage.db import (
    Connection,
    Cursor,
    Database,
    IntegrityError,
    Row,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    statements,
)
from storage.locks import Held, Lock
from storage.schema import MIGRATIONS

LOOK = 0.5
"""Seconds between looks at whether another process has written to a shared file."""


class SqliteConnection:
    """The writer's connection as `Database.write` yields it."""

    def __init__(self, conn: aiosqlite.Connection, held: Held) -> None:
        self._conn = conn
        self._held = held

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        try:
            return await self._conn.execute(sql, tuple(params))
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._conn.execute_fetchall(sql, tuple(params)))
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> Cursor:
        try:
            return await self._conn.executemany(sql, [tuple(p) for p in params])
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(str(exc)) from exc

    async def lock(self, *locks: Lock) -> None:
        """Nothing to take (`BEGIN IMMEDIATE` holds the whole file); the order is checked."""
        self._held.add(locks)


class SqliteDatabase(Database):
    """An open SQLite file (`open_database(path)`)."""

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 clock: Callable[[], float]) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self.clock = clock
        self._changes: Changes | None = None
        self._others = False
        self._looking: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, path: str, busy_timeout_ms: int, clock: Callable[[], float]
                      ) -> SqliteDatabase:
        if path != ":memory:" and not Path(path).parent.is_dir():
            raise StorageUnavailable(f"the folder for the database does not exist: {path}")
        writer = None
        try:
            writer = await _connect(path, busy_timeout_ms)
            db = cls(path, writer, writer, clock)
            await db._migrate()
            db._reader = await _connect(path, busy_timeout_ms) if path != ":memory:" else writer
        except (sqlite3.DatabaseError, StorageError) as exc:
            if writer is not None:
                await writer.close()
            if isinstance(exc, StorageError):
                raise
            raise _translate(exc, path) from exc
        return db

    def listen(self, changes: Changes) -> None:
        self._changes = changes
        changes.started = self._look_if_shared

    def shared(self, others: bool) -> None:
        self._others = others
        self._look_if_shared()

    def _look_if_shared(self) -> None:
        if (self._others and self._changes is not None and self._changes.followed
                and (self._looking is None or self._looking.done())):
            self._looking = asyncio.get_running_loop().create_task(self._look())

    async def _look(self) -> None:
        """Tell the followers when another process has committed, while one shares the file
        and anyone follows."""
        changes = self._changes
        last: int | None = None
        while self._others and changes is not None and changes.followed:
            try:
                async with self._lock:
                    rows = list(await self._writer.execute_fetchall("PRAGMA data_version"))
            except (sqlite3.Error, ValueError):
                return  # closed
            seen = int(rows[0][0])
            if seen != last:  # (the first look too: a save a moment before it)
                changes.missed()
            last = seen
            await asyncio.sleep(LOOK)

    async def close(self) -> None:
        if self._looking is not None:
            self._looking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._looking
        if self._reader is not self._writer:
            await self._reader.close()
        await self._writer.close()

    async def _migrate(self) -> None:
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StorageUnavailable(
                f"{self.path} was written by a newer gupai (schema {version}, this one knows "
                f"{len(MIGRATIONS)}); upgrade gupai to use it")
        for number in range(version, len(MIGRATIONS)):
            async with self.write() as conn:
                for statement in statements(MIGRATIONS[number]):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number + 1}")

    async def schema_version(self) -> int:
        """The number of migrations the file has had (read by the writer while migrating)."""
        rows = list(await self._reader.execute_fetchall("PRAGMA user_version"))
        return int(rows[0][0])

    @asynccontextmanager
    async def write(self, *locks: Lock) -> AsyncIterator[Connection]:
        """One `BEGIN IMMEDIATE` transaction: committed on success, rolled back on any error."""
        held = Held()
        held.add(locks)
        async with self._lock:
            conn = self._writer
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise _translate(exc, self.path) from exc
            except BaseException:
                # Cancelled (a timer closed by a stop, say): the BEGIN still runs in the
                # connection's thread, and this rollback, queued behind it, undoes it.
                await conn.rollback()
                raise
            try:
                yield SqliteConnection(conn, held)
            except BaseException:
                await conn.rollback()
                raise
            try:
                await conn.commit()
            except sqlite3.OperationalError as exc:
                await conn.rollback()
                raise _translate(exc, self.path) from exc

    async def read(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        try:
            return list(await self._reader.execute_fetchall(sql, tuple(params)))
        except sqlite3.OperationalError as exc:
            raise _translate(exc, self.path) from exc


async def _connect(path: str, busy_timeout_ms: int) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None,
                                   timeout=busy_timeout_ms / 1000)
    conn.row_factory = sqlite3.Row
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        await conn.close()  # its worker thread would otherwise keep the process alive
        raise
    return conn


def _translate(exc: sqlite3.Error, path: str) -> StorageError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StorageBusy(f"the database {path} is busy; try again in a moment")
    return StorageUnavailable(f"the database {path} cannot be used: {text}")
