"""The database: what every backend offers the storage code, and opening the one named.

docs/architecture.md §6. The storage code writes its SQL once, with `?` placeholders, in the dialect
that SQLite and PostgreSQL share, and reaches the database only through `Database`:

- `write(*locks)`: one write transaction, committed on success and rolled back on any error; it
  yields a `Connection`. A transaction that reads then writes names what it must have to
  itself (`storage.locks`: a game, a person's chips in a chat, ...), up front or, for what only
  a read can tell, by `Connection.lock` as it goes; SQLite serialises every writer anyway,
  PostgreSQL lets writes that lock different things run at once;
- `read(sql, params)` / `read_one`: committed data, never waiting for a writer;
- `schema_version()`, `clock`, `path` (where the database is, never with a password), `close()`;
- `listen(changes)`: the saves of other processes, told to `changes` (`storage.changes`) while
  anyone follows them; `shared(others)`: whether other processes write to the database now.

`open_database(target)` (`storage.backends`, above both backends, which build on this module)
picks the backend: a `postgresql://` or `postgres://` URL opens PostgreSQL
(`storage.postgres_db`), anything else is the path of a SQLite file (`storage.sqlite_db`, the
embedded default).

Failures reach the bot as errors it can put into words: `StorageBusy` (another writer held the
database longer than the busy timeout) and `StorageUnavailable` (the database cannot be reached,
opened or understood). `IntegrityError` is a constraint the database refused (a unique key, a
check); its message names the constraint where the database tells it.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from storage.changes import Changes

from storage.locks import Lock

DEFAULT_PATH = "gupai.sqlite3"
BUSY_TIMEOUT_MS = 5000
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StorageError(Exception):
    """Something the storage could not do; nothing was changed."""


class StorageBusy(StorageError):
    """The database stayed locked by another writer for longer than the busy timeout."""


class StorageUnavailable(StorageError):
    """The database cannot be reached, opened, created or understood."""


class IntegrityError(StorageError):
    """The database refused a row: a unique key or a check (named in the message where the
    database names it). The transaction it happened in is rolled back."""


class Row(Protocol):
    """A result row: by column name (`row["id"]`) or position (`row[0]`), and iterable."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> list[str]: ...


class Cursor(Protocol):
    """What a statement run in a write transaction gives back."""

    @property
    def rowcount(self) -> int:
        """Rows the statement changed (for `executemany`, all of its runs together)."""
        ...

    async def fetchone(self) -> Row | None: ...

    async def close(self) -> None: ...


class Connection(Protocol):
    """The connection of one write transaction (`Database.write`)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> Cursor: ...

    async def lock(self, *locks: Lock) -> None:
        """Take these locks too (those not held yet), for the rest of the transaction: never
        one below a lock already held (`storage.locks`)."""
        ...


class Database(ABC):
    """An open database. Use `await open_database(target)` (`storage.backends`) and
    `await db.close()`."""

    path: str
    """The SQLite file, or the PostgreSQL URL without its password."""
    clock: Callable[[], float]
    """Seconds since the epoch, as stored in the rows' times."""

    @abstractmethod
    def write(self, *locks: Lock) -> AbstractAsyncContextManager[Connection]:
        """One write transaction, holding `locks` from its start to its end: whatever else
        writes what they guard waits for it, and it for them."""

    @abstractmethod
    async def read(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """The rows of one query, on committed data."""

    async def read_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.read(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of migrations the database has had."""

    @abstractmethod
    def listen(self, changes: Changes) -> None:
        """Tell `changes` of the games other processes save, from its first follower on."""

    @abstractmethod
    def shared(self, others: bool) -> None:
        """Whether other processes use the database now (`bot.service.workers` knows): a backend
        with no channel for their saves looks for them only then."""

    @abstractmethod
    async def close(self) -> None: ...


def is_postgres(target: str | Path) -> bool:
    """Whether `target` is a PostgreSQL URL rather than the path of a SQLite file."""
    return isinstance(target, str) and target.strip().lower().startswith(POSTGRES_SCHEMES)


DOLLAR_QUOTED = re.compile(r"(\$\$.*?\$\$)", re.DOTALL)


def statements(script: str) -> list[str]:
    """A migration's statements: split at each `;` outside a `$$`-quoted function body (no
    migration has a `;` inside a literal)."""
    found, current = [], ""
    for i, part in enumerate(DOLLAR_QUOTED.split(script)):
        if i % 2:
            current += part
            continue
        first, *rest = part.split(";")
        current += first
        for piece in rest:
            found.append(current)
            current = piece
    found.append(current)
    return [s.strip() for s in found if s.strip()]
