"""PostgreSQL: the same storage when one process is not enough (docs/architecture.md §6).

Several bot processes share one PostgreSQL database and write at once, so that a second process
adds capacity, not only availability. The storage code reads then writes inside one `write()`
transaction (a balance checked before chips move, the next `joined` number, an optimistic
version); under PostgreSQL's READ COMMITTED two such transactions could both read a row, then
both write it: a lost update. So each transaction locks what it touches (`storage.locks`: a
game, a person's chips in a chat, a chat's settings, ...), not the whole database: writes to
different games never wait for each other, writes to the same one take turns.

The locks are transaction-scoped advisory locks (`pg_advisory_xact_lock`) on a 64-bit key per
thing locked, rather than `SELECT … FOR UPDATE` of rows: they can be taken before the row
exists (a person's first appearance in a chat), SQLite (which has no FOR UPDATE) shares the
code that names them, and they do not conflict with the share locks that foreign keys take on
the rows they point at. Those named up front, `write(*locks)`, go with BEGIN and the
transaction's first statement in one round trip (psycopg's pipeline mode: a save is that and
its COMMIT); `Connection.lock` takes those only a read can tell (whose chips a save returns).
Writes that are a single statement lock nothing: `INSERT … ON CONFLICT` and `UPDATE … SET x =
x + ?` act on the newest row. The commit or rollback releases them (and the
server, when a killed process's connection drops). Deadlocks are prevented by the locks' order,
not retried; a lock awaited longer than the busy timeout (`lock_timeout`) gives `StorageBusy`,
as a deadlock the server broke would.

Writes go to a small pool of connections, one transaction on each at a time, so that a
process's writes to different games run at once as two processes' do (a connection the server
dropped is replaced; a write that found one dead goes on with another). Reads go to another
pool, in autocommit, each read one statement on committed data (READ COMMITTED), never waiting
for the writers.

The schema's version is the one row of `schema_version`; the migrations (`storage.schema_pg`)
are numbered as SQLite's, so a version means the same schema on both, and all of those a
database lacks run in one transaction under the schema's lock, so processes starting together
migrate once. The URL's password is used to connect and nowhere else: `path` and every error
show the URL without it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg import AsyncConnection, AsyncCursor
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from storage.changes import Changes
from storage.db import (
    Connection,
    Database,
    IntegrityError,
    Row,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    statements,
)
from storage.locks import Held, Lock
from storage.postgres_listen import SaveListener
from storage.postgres_sql import (
    NulTextLoader,
    PgRow,
    WholeNumericLoader,
    params,
    password_of,
    pg_row,
    to_postgres,
    without_password,
)
from storage.schema_pg import MIGRATIONS

READERS = 4
"""Connections at most in the readers' pool."""
WRITERS = 4
"""Connections at most in the writers' pool: a process's writes to different games run at
once, each in its own transaction on its own connection."""
CONNECT_TIMEOUT_S = 10
VERSION_TABLE = ("CREATE TABLE schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), "
                 "version INTEGER NOT NULL)")
"""The one row that says how many migrations the database has had."""
BUSY_STATES = {"55P03", "40P01", "40001", "57014"}
"""Lock not available, deadlock, serialization failure, statement cancelled."""


class PgConnection:
    """The connection of one write transaction, as `Database.write` yields it. Its BEGIN and
    the locks named up front wait for its first statement and go with it, in one round trip
    (psycopg's pipeline mode): a save is then two round trips, it and the COMMIT."""

    def __init__(self, conn: AsyncConnection[PgRow], db: PostgresDatabase, held: Held,
                 opening: list[Lock], again: bool = True) -> None:
        self.connection = conn
        self._db = db
        self._held = held
        self._opening: list[Lock] | None = opening
        """The locks to take with BEGIN; None once it was sent."""
        self._again = again
        """Whether a connection the server dropped may be replaced by one of the pool's."""

    @property
    def begun(self) -> bool:
        return self._opening is None

    async def execute(self, sql: str, values: Sequence[Any] = ()) -> AsyncCursor[PgRow]:
        query, args = to_postgres(sql), params(values)
        try:
            if self._opening is None:
                return await self.connection.execute(query, args)
            return await self._first(lambda cursor: cursor.execute(query, args))
        except psycopg.Error as exc:
            raise self._db.translate(exc) from exc

    async def execute_fetchall(self, sql: str, values: Sequence[Any] = ()) -> list[Row]:
        cursor = await self.execute(sql, values)
        return list(await cursor.fetchall())

    async def executemany(self, sql: str, values: Iterable[Sequence[Any]]
                          ) -> AsyncCursor[PgRow]:
        query, args = to_postgres(sql), [params(v) for v in values]
        try:
            if self._opening is None:
                cursor = self.connection.cursor()
                await cursor.executemany(query, args)
                return cursor
            return await self._first(lambda cursor: cursor.executemany(query, args))
        except psycopg.Error as exc:
            raise self._db.translate(exc) from exc

    async def lock(self, *locks: Lock) -> None:
        new = self._held.add(locks)
        if self._opening is not None:
            self._opening += new
        elif new:
            try:
                await self.connection.execute(_taking(new))
            except psycopg.Error as exc:
                raise self._db.translate(exc) from exc

    async def _first(self, run: Callable[[AsyncCursor[PgRow]], Awaitable[Any]]
                     ) -> AsyncCursor[PgRow]:
        """BEGIN, the locks and the first statement (`run` on a cursor); again on another of
        the pool's connections if the server had dropped this one (nothing was done yet)."""
        assert self._opening is not None
        for attempt in range(WRITERS + 1):
            conn = self.connection
            cursor = conn.cursor()
            try:
                async with conn.pipeline():
                    await conn.execute("BEGIN")
                    for lock in self._opening:
                        await conn.execute(f"SELECT pg_advisory_xact_lock({lock.key})")
                    await run(cursor)
            except psycopg.Error:
                if self._again and conn.broken and attempt < WRITERS:
                    self.connection = await self._db._replace(conn)
                    continue
                raise
            self._opening = None
            return cursor
        raise AssertionError("unreachable")


class PostgresDatabase(Database):
    """An open PostgreSQL database (`open_database("postgresql://…")`)."""

    def __init__(self, url: str, readers: AsyncConnectionPool[AsyncConnection[PgRow]],
                 writers: AsyncConnectionPool[AsyncConnection[PgRow]], busy_timeout_ms: int,
                 clock: Callable[[], float]) -> None:
        self.path = without_password(url)
        self._url = url
        self._secret = password_of(url)
        self._busy_timeout_ms = busy_timeout_ms
        self._readers = readers
        self._writers = writers
        self._listener: SaveListener | None = None
        self.clock = clock

    @classmethod
    async def connect(cls, url: str, busy_timeout_ms: int, clock: Callable[[], float]
                      ) -> PostgresDatabase:
        async def configure(conn: AsyncConnection[PgRow]) -> None:
            await _configure(conn, busy_timeout_ms)

        readers, writers = (AsyncConnectionPool(
            url, connection_class=AsyncConnection[PgRow], kwargs=_kwargs(url), min_size=1,
            max_size=size, open=False, configure=configure, name=f"gupai-{name}",
            timeout=max(CONNECT_TIMEOUT_S, busy_timeout_ms / 1000))
            for name, size in (("readers", READERS), ("writers", WRITERS)))
        db = cls(url, readers, writers, busy_timeout_ms, clock)
        try:
            await db._open()
        except BaseException:
            await db.close()
            raise
        return db

    async def _open(self) -> None:
        """Connect (a clear error if the server refuses), migrate on that connection, then
        open the pools."""
        try:
            conn = await AsyncConnection.connect(self._url, **_kwargs(self._url))
        except psycopg.Error as exc:
            raise self._refused(exc) from None
        try:
            await _configure(conn, self._busy_timeout_ms)
            await self._migrate(conn)
        finally:
            await conn.close()
        try:
            for pool in (self._writers, self._readers):
                await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        except (psycopg.Error, PoolTimeout) as exc:
            raise self.translate(exc) from None

    def listen(self, changes: Changes) -> None:
        """Saves of every process, heard on a connection of their own (`storage.changes`)."""
        self._listener = SaveListener(self._url, _kwargs(self._url), changes, self._scrub)
        changes.started = self._listener.start

    def shared(self, others: bool) -> None:
        """Nothing to do: the channel tells of every process's saves, however many there are."""

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        await self._readers.close()
        await self._writers.close()

    async def _migrate(self, connection: AsyncConnection[PgRow]) -> None:
        held = Held()
        writer = PgConnection(connection, self, held, held.add([Lock.schema()]), again=False)
        async with self._transaction(writer) as conn:
            exists = await conn.execute_fetchall("SELECT to_regclass('schema_version')")
            if exists[0][0] is None:
                await conn.execute(VERSION_TABLE)
                await conn.execute("INSERT INTO schema_version (id, version) VALUES (1, 0)")
            rows = await conn.execute_fetchall("SELECT version FROM schema_version")
            version = int(rows[0][0])
            if version > len(MIGRATIONS):
                raise StorageUnavailable(
                    f"{self.path} was written by a newer gupai (schema {version}, this one "
                    f"knows {len(MIGRATIONS)}); upgrade gupai to use it")
            for number in range(version, len(MIGRATIONS)):
                for statement in statements(MIGRATIONS[number]):
                    await conn.execute(statement)
            if version < len(MIGRATIONS):
                await conn.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS),))

    async def schema_version(self) -> int:
        row = await self.read_one("SELECT version FROM schema_version")
        return 0 if row is None else int(row[0])

    @asynccontextmanager
    async def write(self, *locks: Lock) -> AsyncIterator[Connection]:
        """One transaction on a connection of the writers' pool, holding the advisory locks
        of `locks` (see the module's note): committed on success, rolled back on any error."""
        held = Held()
        writer = PgConnection(await self._writer(), self, held, held.add(locks))
        try:
            async with self._transaction(writer) as began:
                yield began
        finally:
            await self._writers.putconn(writer.connection)

    @asynccontextmanager
    async def _transaction(self, writer: PgConnection) -> AsyncIterator[PgConnection]:
        """The transaction of `writer`: committed on success, rolled back on any error."""
        try:
            yield writer
        except BaseException:
            await self._rollback(writer.connection)
            raise
        if writer.begun:
            await self._commit(writer.connection)

    async def _writer(self) -> AsyncConnection[PgRow]:
        """A connection of the writers' pool (waiting for one while all are writing)."""
        try:
            return await self._writers.getconn()
        except psycopg.Error as exc:  # (PoolTimeout and PoolClosed among them)
            raise self.translate(exc) from None

    async def _replace(self, conn: AsyncConnection[PgRow]) -> AsyncConnection[PgRow]:
        """Another connection of the writers' pool for `conn`, which the server dropped."""
        await self._writers.putconn(conn)
        return await self._writer()

    async def _commit(self, conn: AsyncConnection[PgRow]) -> None:
        if conn.info.transaction_status != TransactionStatus.INTRANS:
            await self._rollback(conn)  # a failed statement whose error was swallowed
            raise StorageError("a statement of the transaction failed; nothing was written")
        try:
            await conn.execute("COMMIT")
        except psycopg.Error as exc:
            await self._rollback(conn)
            raise self.translate(exc) from exc

    async def _rollback(self, conn: AsyncConnection[PgRow]) -> None:
        """Roll back; a connection that cannot is closed (the pool connects another).
        Never raises the driver's errors: the caller has its own to raise."""
        try:
            if conn.info.transaction_status != TransactionStatus.IDLE:
                await conn.execute("ROLLBACK")
        except psycopg.Error:
            pass
        if conn.info.transaction_status != TransactionStatus.IDLE:
            await conn.close()

    async def read(self, sql: str, values: Iterable[Any] = ()) -> list[Row]:
        """One query on a reader; again on another if the server had dropped the first."""
        query, args = to_postgres(sql), params(tuple(values))
        for attempt in range(2):
            used: AsyncConnection[PgRow] | None = None
            try:
                async with self._readers.connection() as conn:
                    used = conn
                    cursor = await conn.execute(query, args)
                    return list(await cursor.fetchall())
            except (psycopg.Error, PoolTimeout) as exc:
                if attempt == 0 and used is not None and used.broken:
                    continue
                raise self.translate(exc) from exc
        raise AssertionError("unreachable")

    def translate(self, exc: Exception) -> StorageError:
        """A driver's error as one the bot can put into words (never with the password)."""
        text = self._scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else "")
        if isinstance(exc, psycopg.errors.IntegrityError):
            name = exc.diag.constraint_name
            return IntegrityError(f"{text} (constraint {name})" if name else text)
        if isinstance(exc, PoolTimeout) or getattr(exc, "sqlstate", None) in BUSY_STATES:
            return StorageBusy(f"the database {self.path} is busy; try again in a moment")
        return StorageUnavailable(f"the database {self.path} cannot be used: {text}")

    def _refused(self, exc: psycopg.Error) -> StorageUnavailable:
        """Why the server could not be connected to, in a sentence."""
        text = self._scrub(str(exc))
        if "does not exist" in text and "database" in text:
            return StorageUnavailable(
                f"the database {self.path} does not exist: create it (createdb) or correct "
                "GUPAI_DB")
        if "authentication failed" in text or "no password supplied" in text \
                or ("role" in text and "does not exist" in text):
            return StorageUnavailable(
                f"PostgreSQL refused the user of {self.path}: check the user and password in "
                "GUPAI_DB")
        if "Connection refused" in text or "could not connect" in text \
                or "timeout expired" in text:
            return StorageUnavailable(
                f"PostgreSQL does not answer at {self.path}: is the server running, and is "
                "GUPAI_DB's host and port right?")
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return StorageUnavailable(f"cannot connect to {self.path}: {first}")

    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text


def _taking(locks: Sequence[Lock]) -> str:
    """The statements that take `locks` in their order (one statement each: the order of
    functions within one statement is the planner's)."""
    return "; ".join(f"SELECT pg_advisory_xact_lock({lock.key})" for lock in locks)


def _kwargs(url: str) -> dict[str, Any]:
    """How every connection is made: in autocommit (a write transaction says BEGIN itself),
    with `PgRow`s, and with a connect timeout and a name unless the URL gives its own."""
    try:
        given = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        given = {}  # connecting says what is wrong with it
    defaults = {"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "gupai"}
    return {"autocommit": True, "row_factory": pg_row,
            **{k: v for k, v in defaults.items() if k not in given}}


async def _configure(conn: AsyncConnection[PgRow], busy_timeout_ms: int) -> None:
    conn.adapters.register_loader("numeric", WholeNumericLoader)
    for name in ("text", "varchar"):
        conn.adapters.register_loader(name, NulTextLoader)
    await conn.execute(f"SET lock_timeout = {int(busy_timeout_ms)}")
