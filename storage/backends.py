"""Opening the database a target names: PostgreSQL for a URL, else a SQLite file.

docs/architecture.md §6. Both backends build on `storage.db` (the `Database` they implement, its
errors and its settings); picking one of them sits here, above the two, so that `storage.db` imports
neither of them. Each backend is imported only when it is opened.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from storage.db import BUSY_TIMEOUT_MS, DEFAULT_PATH, Database, is_postgres


async def open_database(target: str | Path = DEFAULT_PATH,
                        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
                        clock: Callable[[], float] = time.time) -> Database:
    """A `postgresql://user:password@host:5432/name` URL opens PostgreSQL; anything else is
    the path of a SQLite file (created if missing, in a folder that must exist)."""
    if is_postgres(target):
        from storage.postgres_db import PostgresDatabase

        return await PostgresDatabase.connect(str(target).strip(), busy_timeout_ms, clock)
    from storage.sqlite_db import SqliteDatabase

    return await SqliteDatabase.connect(str(target), busy_timeout_ms, clock)
