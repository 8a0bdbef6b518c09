"""The two backends behind `storage.db`: one schema, one SQL, the same answers; and what only
PostgreSQL has to get right (its URL's password, its server going away, several processes'
writers on one database)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import psycopg
import pytest

from storage import (
    SeatResult,
    Settlement,
    Storage,
    StorageError,
    StorageUnavailable,
    TableChips,
)
from storage.backends import open_database
from storage.db import IntegrityError, is_postgres
from storage.postgres_sql import NUL_MARK, to_postgres, without_password
from storage.schema import MIGRATIONS
from storage.schema_pg import MIGRATIONS as PG_MIGRATIONS
from tests.support.books import check_books
from tests.support.databases import query
from tests.support.postgres import free_port

SECRET = "s3cr:et@pw"
"""A password (trust authentication lets any through) that must never be shown."""
PG_TYPES = {"bigint": "INTEGER", "double precision": "REAL", "text": "TEXT",
            "integer": "INTEGER"}


def with_password(url: str, user: str = "postgres") -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{user}:{SECRET.replace(':', '%3A').replace('@', '%40')}@" \
        f"{rest.split('@', 1)[1]}"


# ----- one schema, one SQL ------------------------------------------------------------------


def test_placeholders_become_psycopgs_and_quoted_ones_are_refused():
    assert to_postgres("SELECT a FROM t WHERE b = ? AND c LIKE 'x%' AND d IN (?, ?)") == \
        "SELECT a FROM t WHERE b = %s AND c LIKE 'x%%' AND d IN (%s, %s)"
    assert to_postgres("SELECT 'it''s', \"odd name\" FROM t WHERE e = ?") == \
        "SELECT 'it''s', \"odd name\" FROM t WHERE e = %s"
    for quoted in ("SELECT 'why?' FROM t", 'SELECT "a?" FROM t', "SELECT 1 -- a?\n"):
        with pytest.raises(ValueError, match="quoted"):
            to_postgres(quoted)


def test_the_url_is_shown_without_its_password():
    assert without_password("postgresql://gupai:pw@db:5432/gupai?sslmode=require&password=x") \
        == "postgresql://gupai@db:5432/gupai?sslmode=require"
    assert without_password("postgres://db/gupai") == "postgres://db/gupai"
    assert is_postgres(" postgresql://db/x") and is_postgres("postgres://db/x")
    assert not is_postgres("postgresql.sqlite3") and not is_postgres(Path("postgres://x"))


async def test_both_backends_have_the_same_schema(tmp_path, postgres_url):
    """Same version, tables, columns (in order, with their types and NOT NULLs) and indexes."""
    assert len(MIGRATIONS) == len(PG_MIGRATIONS)
    for target in (tmp_path / "s.sqlite3", postgres_url):
        store = await Storage.open(target)
        assert await store.db.schema_version() == len(MIGRATIONS)
        await store.close()
    lite = sqlite3.connect(tmp_path / "s.sqlite3")
    tables = [r[0] for r in lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    sqlite_columns = {t: [(c[1], c[2], bool(c[3] or c[5])) for c in lite.execute(
        f"PRAGMA table_info({t})")] for t in tables}
    sqlite_indexes = {r[0] for r in lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    lite.close()
    rows = query(postgres_url, "SELECT table_name, column_name, data_type, is_nullable FROM "
                 "information_schema.columns WHERE table_schema = current_schema() AND "
                 "table_name <> 'schema_version' ORDER BY table_name, ordinal_position")
    pg_columns: dict[str, list[tuple[str, str, bool]]] = {}
    for table, column, kind, nullable in rows:
        pg_columns.setdefault(table, []).append((column, PG_TYPES[kind], nullable == "NO"))
    assert pg_columns == sqlite_columns
    pg_indexes = {r[0] for r in query(
        postgres_url, "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
        "AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'")}
    assert pg_indexes == sqlite_indexes


async def test_a_write_connection_offers_what_the_storage_uses(database):
    db = await open_database(database)
    try:
        async with db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO users (platform, platform_id, name, created_at) VALUES "
                "('t', '1', 'a', 0), ('t', '2', 'b', 0) RETURNING id, name")
            first = await cursor.fetchone()
            assert first is not None and (first[1], first["name"]) == ("a", "a")
            await cursor.close()
            many = await conn.executemany(
                "UPDATE users SET language = ? WHERE platform_id = ?", [("uk", "1"), ("en", "2")])
            assert many.rowcount == 2  # all the runs together
            cursor = await conn.execute("UPDATE users SET name = ? WHERE platform = 't'", ("c",))
            assert cursor.rowcount == 2
            await cursor.close()
            rows = await conn.execute_fetchall(
                "SELECT platform_id, language FROM users ORDER BY id")
            assert [(r[0], r["language"]) for r in rows] == [("1", "uk"), ("2", "en")]
            assert [tuple(r) for r in rows] == [("1", "uk"), ("2", "en")] and len(rows[0]) == 2
            assert list(rows[0].keys()) == ["platform_id", "language"]
        row = await db.read_one("SELECT COUNT(*) AS n, SUM(id) AS total FROM users")
        assert row is not None and (row["n"], row[1]) == (2, 3)
        assert type(row[1]) is int  # a SUM is a whole number on both
        assert await db.read_one("SELECT id FROM users WHERE name = ?", ("a",)) is None
    finally:
        await db.close()


async def test_integrity_errors_name_what_they_break(database):
    store = await Storage.open(database)
    try:
        chat = await store.accounts.chat("telegram", "-1", "g")
        await store.sessions.create(chat, "dragon", {}, [])
        with pytest.raises(IntegrityError) as refused:
            async with store.db.write() as conn:
                await conn.execute(
                    "INSERT INTO sessions (chat_id, topic, game, options, seats, status, "
                    "created_at, updated_at) VALUES (?, '', 'dragon', '{}', '[]', 'lobby', 0, 0)",
                    (chat,))
        assert "one_open_session_per_place" in str(refused.value) or \
            "UNIQUE" in str(refused.value)
        assert len(await store.sessions.open_sessions()) == 1  # rolled back, and usable
    finally:
        await store.close()


async def test_text_comes_back_as_it_was_given(database):
    """NUL, which PostgreSQL's text cannot hold, and the mark that stands for it there."""
    store = await Storage.open(database)
    try:
        odd = ["a\x00b", f"{NUL_MARK}0", f"x{NUL_MARK}{NUL_MARK}\x00{NUL_MARK}", "\x00"]
        ids = [await store.accounts.user("discord", name, name) for name in odd]
        rows = await store.db.read("SELECT platform_id, name FROM users ORDER BY id")
        assert [(r["platform_id"], r[1]) for r in rows] == [(n, n) for n in odd]
        assert await store.accounts.user("discord", odd[2], "again") == ids[2]
        assert set(await store.accounts.languages("discord", odd)) == set(odd)
    finally:
        await store.close()


# ----- PostgreSQL's own ---------------------------------------------------------------------


async def test_a_fresh_postgres_database_is_migrated_once_by_processes_starting_together(
        postgres_url):
    stores = await asyncio.gather(*(Storage.open(postgres_url) for _ in range(3)))
    try:
        assert [await s.db.schema_version() for s in stores] == [len(MIGRATIONS)] * 3
        assert query(postgres_url, "SELECT id, version FROM schema_version") == [
            (1, len(MIGRATIONS))]
        tables = {r[0] for r in query(postgres_url, "SELECT tablename FROM pg_tables WHERE "
                                      "schemaname = current_schema()")}
        assert {"users", "chats", "balances", "ledger", "sessions", "deals", "deal_seats",
                "posts", "holds", "notify", "workers", "leases"} <= tables
    finally:
        for store in stores:
            await store.close()
    again = await Storage.open(postgres_url)
    assert await again.db.schema_version() == len(MIGRATIONS)
    await again.close()


async def test_a_newer_postgres_database_is_refused(postgres_url):
    store = await Storage.open(postgres_url)
    await store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (len(MIGRATIONS) + 1,))
    with pytest.raises(StorageUnavailable, match="newer"):
        await Storage.open(postgres_url)


async def test_postgres_that_cannot_be_used_is_reported_without_the_password(postgres_url):
    closed = f"postgresql://gupai:{SECRET.replace('@', '%40')}@127.0.0.1:{free_port()}/gupai"
    missing = with_password(postgres_url).rsplit("/", 1)[0] + "/no_such_database"
    nobody = with_password(postgres_url, user="nobody")
    for url, why in ((closed, "does not answer"), (missing, "does not exist"),
                     (nobody, "refused the user")):
        with pytest.raises(StorageUnavailable, match=why) as refused:
            await Storage.open(url)
        assert "s3cr" not in str(refused.value) and "et@pw" not in str(refused.value)
    store = await Storage.open(with_password(postgres_url))
    assert store.db.path == postgres_url
    await store.close()


async def test_a_connection_the_server_dropped_is_replaced(postgres_url):
    store = await Storage.open(postgres_url)
    try:
        chat = await store.accounts.chat("telegram", "-1", "g")
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                          "datname = current_database() AND pid <> pg_backend_pid()")
        assert await store.accounts.chat("telegram", "-2", "h") == chat + 1  # the writer
        assert await store.accounts.chat_platform(chat) == "telegram"  # a reader
    finally:
        await store.close()


# ----- writers of several processes ---------------------------------------------------------


async def test_two_databases_writing_at_once_lose_no_update(database):
    """Two `Storage` objects on one database (as two processes are), each transaction reading
    before it writes: people joining get distinct places, corrections never take a balance
    below zero, and every settlement lands once."""
    one, two = [await Storage.open(database, grant=300) for _ in range(2)]
    stores = [one, two]
    try:
        chat = await one.accounts.chat("telegram", "-1", "g")
        users = [await one.accounts.user("telegram", i, f"p{i}") for i in range(40)]
        await asyncio.gather(*(stores[i % 2].accounts.balance(chat, u)
                               for i, u in enumerate(users)))
        joined = [r[0] for r in await one.db.read(
            "SELECT joined FROM balances WHERE chat_id = ? ORDER BY joined", (chat,))]
        assert joined == list(range(1, 41))

        async def take_one(store: Storage, ref: str) -> bool:
            try:
                return await store.accounts.adjust(chat, users[0], -1, ref)
            except ValueError:
                return False
        taken = await asyncio.gather(*(take_one(stores[i % 2], f"r{i}") for i in range(400)))
        assert sum(taken) == 300 and await one.accounts.balance(chat, users[0]) == 0

        seated = users[1:4]
        session = await one.sessions.create(chat, "dragon", {}, seated, status="active")
        await one.sessions.save(session.but(version=1), 0, chips=TableChips(
            frozenset(seated), tuple((u, 300) for u in seated)))
        rng = random.Random(2)
        deals = []
        for no in range(400):
            loss = [rng.randint(0, 1) for _ in range(2)]
            deltas = [-loss[0], -loss[1], sum(loss)]
            deals.append(Settlement(session.id, no, chat, "dragon", "out", tuple(
                SeatResult(u, 0, d, d > 0) for u, d in zip(seated, deltas, strict=True))))
        jobs = [stores[no % 2].accounts.settle(d) for no, d in enumerate(deals)]
        jobs += [stores[(no + 1) % 2].accounts.settle(d) for no, d in enumerate(deals[::7])]
        applied = await asyncio.gather(*jobs)
        assert sum(applied) == 400
        expected = [300 + sum(d.seats[k].delta for d in deals) for k in range(3)]
        held = await two.tables.held(session.id)
        assert [held[u] for u in seated] == expected
    finally:
        for store in stores:
            await store.close()
    check_books(database)


async def test_storage_error_is_what_the_bot_catches(database):
    """Every failure the storage raises is a StorageError (the bot's one catch)."""
    assert issubclass(IntegrityError, StorageError)
    db = await open_database(database)
    try:
        with pytest.raises(StorageError):
            await db.read("SELECT nothing FROM nowhere")
    finally:
        await db.close()


@pytest.mark.parametrize("pauses", [0, 1, 2, 3])
async def test_a_write_cancelled_as_it_begins_leaves_the_next_one_working(database, pauses):
    """A task cancelled while its transaction begins (a timer closed by a stop, say) leaves
    no transaction open behind it on the writer's connection."""
    db = await open_database(database)
    try:
        async def write() -> None:
            async with db.write() as conn:
                await conn.execute("UPDATE chats SET title = title")

        task = asyncio.ensure_future(write())
        for _ in range(pauses):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await write()
        async with db.write() as conn:
            await conn.execute("SELECT 1")
    finally:
        await db.close()
