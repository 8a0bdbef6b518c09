"""The SQLite file: opening it, migrating it, and the one way to write to it.

DESIGN.md §6: WAL, `synchronous=NORMAL`, foreign keys, a busy timeout, and every write
transaction begun with `BEGIN IMMEDIATE`, so two writers never both read then both write. One
connection writes (behind an asyncio lock, since a connection has one transaction at a time) and
another reads, which under WAL sees only committed data and never waits for the writer.

Failures reach the bot as two errors it can put into words: `StorageBusy` (another process
holds the file longer than the busy timeout) and `StorageUnavailable` (the file cannot be
opened or is not ours).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from storage.schema import MIGRATIONS

DEFAULT_PATH = "gupai.sqlite3"
BUSY_TIMEOUT_MS = 5000


class StorageError(Exception):
    """Something the storage could not do; nothing was changed."""


class StorageBusy(StorageError):
    """The database stayed locked by another writer for longer than the busy timeout."""


class StorageUnavailable(StorageError):
    """The database file cannot be opened, created or understood."""


Row = sqlite3.Row


class Database:
    """An open database file. Use `await Database.open(path)` and `await db.close()`."""

    def __init__(self, path: str, writer: aiosqlite.Connection, reader: aiosqlite.Connection,
                 clock: Callable[[], float]) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self.clock = clock

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_PATH, busy_timeout_ms: int = BUSY_TIMEOUT_MS,
                   clock: Callable[[], float] = time.time) -> Database:
        path = str(path)
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

    async def close(self) -> None:
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
                for statement in _statements(MIGRATIONS[number]):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number + 1}")

    async def schema_version(self) -> int:
        """The number of migrations the file has had (read by the writer while migrating)."""
        (version,) = await self._one_value(self._reader, "PRAGMA user_version")
        return int(version)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One `BEGIN IMMEDIATE` transaction: committed on success, rolled back on any error."""
        async with self._lock:
            conn = self._writer
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise _translate(exc, self.path) from exc
            try:
                yield conn
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

    async def read_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.read(sql, params)
        return rows[0] if rows else None

    @staticmethod
    async def _one_value(conn: aiosqlite.Connection, sql: str) -> Row:
        rows = list(await conn.execute_fetchall(sql))
        return rows[0]


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


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _translate(exc: sqlite3.Error, path: str) -> StorageError:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StorageBusy(f"the database {path} is busy; try again in a moment")
    return StorageUnavailable(f"the database {path} cannot be used: {text}")
