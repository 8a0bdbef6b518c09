"""Reading and shaping a test's database directly, whichever backend holds it: the path of a
SQLite file (plain `sqlite3`) or a PostgreSQL URL (plain psycopg), with the storage's own SQL
(`?` placeholders)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import psycopg

from storage import schema, schema_pg
from storage.db import is_postgres, statements
from storage.postgres_db import VERSION_TABLE
from storage.postgres_sql import to_postgres


class Reader(Protocol):
    def __call__(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...


@contextmanager
def reading(target: Path | str) -> Iterator[Reader]:
    """A function running one query on the database and giving all its rows as tuples."""
    if is_postgres(target):
        with psycopg.connect(str(target), autocommit=True) as pg:
            def run_pg(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
                return pg.execute(to_postgres(sql), tuple(params)).fetchall()
            yield run_pg
        return
    conn = sqlite3.connect(target)
    try:
        def run_sqlite(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
            return conn.execute(sql, tuple(params)).fetchall()
        yield run_sqlite
    finally:
        conn.close()


def query(target: Path | str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    with reading(target) as run:
        return run(sql, params)


def old_database(target: Path | str, version: int, script: str) -> None:
    """A database as a release of schema `version` left it: its first `version` migrations,
    then `script` (rows with explicit ids; on PostgreSQL the id sequences then go past them)."""
    if not is_postgres(target):
        conn = sqlite3.connect(target)
        for number, migration in enumerate(schema.MIGRATIONS[:version], start=1):
            conn.executescript(migration)
            conn.execute(f"PRAGMA user_version = {number}")
        conn.executescript(script)
        conn.commit()
        conn.close()
        return
    with psycopg.connect(str(target), autocommit=True) as pg, pg.transaction():
        for migration in schema_pg.MIGRATIONS[:version]:
            for statement in statements(migration):
                pg.execute(statement)
        pg.execute(VERSION_TABLE)
        pg.execute("INSERT INTO schema_version (id, version) VALUES (1, %s)", (version,))
        for statement in statements(script):
            pg.execute(statement)
        tables = pg.execute("SELECT table_name FROM information_schema.columns WHERE "
                            "column_name = 'id' AND is_identity = 'YES'").fetchall()
        for (table,) in tables:
            pg.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                       f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)")
