"""Storage on real databases, SQLite files and PostgreSQL alike (`database`): schema, chips,
idempotent settlements, sessions, stats."""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from storage import (
    SeatResult,
    SessionExists,
    Settlement,
    StaleSave,
    Storage,
    StorageBusy,
    StorageError,
    StorageUnavailable,
    TableChips,
)
from storage.db import is_postgres
from storage.locks import Lock
from storage.schema import MIGRATIONS
from tests.support.books import check_books
from tests.support.databases import old_database, query

ROOT = Path(__file__).resolve().parents[2]
ODD_NAMES = [
    "O'Brien \"the\" Quote", "Robert'); DROP TABLE users;--", "🎲 Кім 김민수 天九", "%_\\ \x00x",
    "   ", "a" * 300,
]


@pytest.fixture
async def store(database):
    s = await Storage.open(database, grant=100)
    yield s
    await s.close()


def settlement(session: int, deal: int, chat: int, users: list[int], deltas: list[int]
               ) -> Settlement:
    seats = tuple(SeatResult(u, abs(d), d, d == max(deltas)) for u, d in zip(users, deltas,
                                                                            strict=True))
    return Settlement(session, deal, chat, "dragon", "out", seats)


def zero_sum(rng: random.Random, n: int) -> list[int]:
    deltas = [rng.randint(-20, 20) for _ in range(n - 1)]
    return [*deltas, -sum(deltas)]


async def people(store: Storage, n: int, chat_title: str = "group") -> tuple[int, list[int]]:
    chat = await store.accounts.chat("telegram", f"-100{chat_title}", chat_title)
    users = [await store.accounts.user("telegram", 1000 + i, f"player {i}") for i in range(n)]
    return chat, users


async def new_session(store: Storage, chat: int) -> int:
    session = await store.sessions.create(chat, "dragon", {}, [], status="active",
                                          topic=f"t{random.random()}")
    return session.id


async def bring(store: Storage, session_id: int, users: list[int], amount: int) -> None:
    """The people sit at the session's table with `amount` chips each."""
    session = await store.sessions.get(session_id)
    assert session is not None
    await store.sessions.save(session.but(version=session.version + 1), session.version,
                              chips=TableChips(frozenset(users), tuple((u, amount) for u in users)))


async def held(store: Storage, session_id: int, users: list[int]) -> list[int]:
    on_table = await store.tables.held(session_id)
    return [on_table.get(u, 0) for u in users]


# ----- schema ----------------------------------------------------------------------------------


async def test_migrations_run_on_an_empty_file_and_only_once(tmp_path):
    path = tmp_path / "new.sqlite3"
    store = await Storage.open(path)
    assert await store.db.schema_version() == len(MIGRATIONS)
    await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"users", "chats", "balances", "ledger", "sessions", "deals", "deal_seats"} <= tables
    conn.close()
    again = await Storage.open(path)
    assert await again.db.schema_version() == len(MIGRATIONS)
    pragmas = {name: (await again.db.read(f"PRAGMA {name}"))[0][0]
               for name in ("foreign_keys", "synchronous", "busy_timeout")}
    assert pragmas == {"foreign_keys": 1, "synchronous": 1, "busy_timeout": 5000}
    await again.close()


async def test_unusable_files_are_refused_with_a_clear_error(tmp_path):
    with pytest.raises(StorageUnavailable, match="folder"):
        await Storage.open(tmp_path / "missing" / "x.sqlite3")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StorageUnavailable):
        await Storage.open(junk)
    newer = tmp_path / "newer.sqlite3"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(StorageUnavailable, match="newer"):
        await Storage.open(newer)


async def test_settings_choose_the_database_and_the_grant(database):
    store = await Storage.from_settings({"GUPAI_DB": str(database), "GUPAI_GRANT": "250"})
    chat, (user,) = await people(store, 1)
    assert await store.accounts.balance(chat, user) == 250
    assert store.db.path == str(database)
    await store.close()
    assert is_postgres(database) or Path(database).exists()
    with pytest.raises(StorageError, match="GUPAI_GRANT"):
        await Storage.from_settings({"GUPAI_DB": str(database), "GUPAI_GRANT": "-5"})


# ----- people, chats and chips ------------------------------------------------------------------


async def test_odd_names_round_trip(store):
    for i, name in enumerate(ODD_NAMES):
        user = await store.accounts.user("discord", f"id'{i}", name, "uk")
        assert await name_of(store, user) == name
    chat = await store.accounts.chat("discord", "guild'); --", ODD_NAMES[1])
    assert chat == await store.accounts.chat("discord", "guild'); --")
    renamed = await store.accounts.user("discord", "id'0", "New name")
    assert await name_of(store, renamed) == "New name"


async def name_of(store, user_id):
    row = await store.db.read_one("SELECT name FROM users WHERE id = ?", (user_id,))
    return None if row is None else str(row["name"])


async def test_chat_settings(store):
    chat, _ = await people(store, 1)
    settings = await store.accounts.settings(chat)
    assert settings.language is None and settings.turn_timeout == 90
    updated = await store.accounts.update_settings(
        chat, language="uk", turn_timeout=30, defaults={"dragon": {"preset": "two-arm"}})
    assert (updated.language, updated.turn_timeout) == ("uk", 30)
    assert updated.defaults == {"dragon": {"preset": "two-arm"}}
    with pytest.raises(ValueError):
        await store.accounts.update_settings(chat, colour="red")
    assert await store.accounts.settings(chat) == updated


async def test_first_appearance_grants_once_per_chat(store, database):
    chat, (alice, _) = await people(store, 2)
    other, _ = await people(store, 0, "other")
    assert await store.accounts.balance(chat, alice) == 100
    assert await store.accounts.balance(chat, alice) == 100
    assert await store.accounts.balance(other, alice) == 100
    cpu = await store.accounts.computer("heuristic-1")
    assert await store.accounts.balance(chat, cpu) == 0
    check_books(database)


async def test_a_chat_sets_its_starting_chips(store, database):
    chat, (alice, bob) = await people(store, 2)
    assert await store.accounts.balance(chat, alice) == 100
    await store.accounts.update_settings(chat, grant=250)
    assert await store.accounts.balance(chat, bob) == 250  # a newcomer gets the chat's grant
    assert await store.accounts.balance(chat, alice) == 100
    check_books(database)


async def test_the_daily_refill_comes_once_a_day_below_the_floor(store, database):
    chat, (alice, bob) = await people(store, 2)
    session = await new_session(store, chat)
    await bring(store, session, [alice, bob], 90)
    await store.accounts.settle(settlement(session, 1, chat, [alice, bob], [-85, 85]))
    # Alice has 10 in hand and 5 on the table: 15, below a floor of 40.
    wallet = await store.accounts.wallet(chat, alice, 40, "2026-11-26")
    assert (wallet.balance, wallet.held, wallet.refilled) == (35, 5, 25)
    again = await store.accounts.wallet(chat, alice, 40, "2026-11-26")
    assert (again.balance, again.refilled) == (35, 0)
    assert await store.accounts.refilled(chat, alice, "2026-11-26")
    # Bob, far above the floor, gets nothing; a new day refills nobody above it either.
    assert (await store.accounts.wallet(chat, bob, 40, "2026-11-26")).refilled == 0
    assert (await store.accounts.wallet(chat, alice, 40, "2026-11-27")).refilled == 0
    check_books(database)


async def test_a_settlement_moves_chips_on_the_table_once(store, database):
    chat, users = await people(store, 3)
    session = await new_session(store, chat)
    await bring(store, session, users, 100)
    assert [await store.accounts.balance(chat, u) for u in users] == [0, 0, 0]
    deal = settlement(session, 1, chat, users, [-30, -100, 130])
    assert await store.accounts.settle(deal)
    assert await held(store, session, users) == [70, 0, 230]
    assert not await store.accounts.settle(deal)
    assert await held(store, session, users) == [70, 0, 230]
    with pytest.raises(ValueError, match="zero-sum"):
        settlement(session, 2, chat, users, [1, 1, 1])
    check_books(database)


async def test_a_table_never_pays_out_more_than_it_holds(store, database):
    chat, users = await people(store, 2)
    session = await new_session(store, chat)
    await bring(store, session, users, 40)
    with pytest.raises(StorageError, match="more chips than its table holds"):
        await store.accounts.settle(settlement(session, 1, chat, users, [-41, 41]))
    stranger = await store.accounts.user("telegram", 99, "stranger")
    with pytest.raises(StorageError, match="no chips on its table"):
        await store.accounts.settle(settlement(session, 1, chat, [users[0], stranger], [-1, 1]))
    assert await held(store, session, users) == [40, 40]
    assert await store.db.read("SELECT * FROM deals") == []
    check_books(database)


async def test_chips_come_back_when_a_person_leaves_or_the_table_closes(store, database):
    chat, users = await people(store, 3)
    session = await new_session(store, chat)
    await bring(store, session, users, 60)
    await store.accounts.settle(settlement(session, 1, chat, users, [-20, 5, 15]))
    stored = await store.sessions.get(session)
    assert stored is not None
    left = stored.but(version=stored.version + 1)
    await store.sessions.save(left, stored.version, chips=TableChips(frozenset(users[1:])))
    assert await store.accounts.balance(chat, users[0]) == 80  # 40 in hand, 40 back
    assert await held(store, session, users) == [0, 65, 75]
    await store.sessions.save(left.but(version=left.version + 1, status="finished"),
                              left.version)
    assert [await store.accounts.balance(chat, u) for u in users] == [80, 105, 115]
    assert await store.tables.held(session) == {}
    check_books(database)


async def test_a_balance_that_no_longer_covers_what_it_brings_makes_the_save_stale(store,
                                                                                 database):
    chat, (alice,) = await people(store, 1)
    session = await new_session(store, chat)
    with pytest.raises(StaleSave, match="no longer has"):
        await bring(store, session, [alice], 101)
    assert await store.accounts.balance(chat, alice) == 100
    assert (await store.sessions.get(session)).version == 0
    check_books(database)


async def test_adjustments_apply_once_and_never_below_zero(store, database):
    chat, users = await people(store, 2)
    assert await store.accounts.adjust(chat, users[0], 25, "admin:1", "prize")
    assert not await store.accounts.adjust(chat, users[0], 25, "admin:1", "prize")
    assert await store.accounts.balance(chat, users[0]) == 125
    with pytest.raises(ValueError, match="would leave"):
        await store.accounts.adjust(chat, users[1], -101, "admin:2")
    assert await store.accounts.balance(chat, users[1]) == 100
    check_books(database)


async def test_older_files_are_brought_to_table_stakes(database):
    """A database from before table stakes: negative balances rise to zero by an adjustment
    row, the books still add up, and a computer's old deals no longer count as deals at
    stake."""
    old_database(database, 3, """
        INSERT INTO chats (id, platform, platform_id, created_at) VALUES (1, 'telegram', '-1', 0);
        INSERT INTO users (id, platform, platform_id, name, created_at) VALUES
            (1, 'telegram', '1', 'a', 0), (2, 'telegram', '2', 'b', 0),
            (3, 'computer', 'computer-1', 'c', 0);
        INSERT INTO balances VALUES (1, 1, -50, 1), (1, 2, 1200, 2), (1, 3, 850, 3);
        INSERT INTO ledger (chat_id, user_id, kind, ref, amount, at) VALUES
            (1, 1, 'grant', 'start', 1000, 0), (1, 2, 'grant', 'start', 1000, 0),
            (1, 1, 'settlement', 'deal:1', -1050, 0), (1, 2, 'settlement', 'deal:1', 200, 0),
            (1, 3, 'settlement', 'deal:1', 850, 0);
        INSERT INTO sessions (id, chat_id, game, options, seats, status, created_at,
                              updated_at) VALUES (1, 1, 'dragon', '{}', '[]', 'finished', 0, 0);
        INSERT INTO deals (id, session_id, deal_no, chat_id, game, reason, at) VALUES
            (1, 1, 0, 1, 'dragon', 'out', 0), (2, 1, 1, 1, 'dragon', 'out', 0);
        INSERT INTO deal_seats VALUES (1, 0, 1, 0, -1050, 0), (1, 1, 2, 0, 200, 0),
            (1, 2, 3, 0, 850, 1), (2, 0, 1, 0, 0, 1), (2, 1, 3, 0, 0, 0);
    """)
    store = await Storage.open(database)
    assert await store.accounts.balance(1, 1) == 0
    assert (await store.stats.rank(1, 1)).games == 1  # deal 2 was one person and a computer
    await store.close()
    check_books(database)


async def test_200_concurrent_settlements_leave_exact_tables(database):
    stores = [await Storage.open(database, grant=5000) for _ in range(4)]
    chat, users = await people(stores[0], 3)
    session = await new_session(stores[0], chat)
    await bring(stores[0], session, users, 5000)
    rng = random.Random(200)
    deals = [settlement(session, i, chat, users, zero_sum(rng, 3)) for i in range(200)]
    expected = [5000 + sum(d.seats[k].delta for d in deals) for k in range(3)]
    # Every deal is sent twice, from different connections, in a shuffled order.
    jobs = [(stores[i % 4], d) for i, d in enumerate(deals)] + \
        [(stores[(i + 1) % 4], d) for i, d in enumerate(deals)]
    rng.shuffle(jobs)
    applied = await asyncio.gather(*(s.accounts.settle(d) for s, d in jobs))
    assert sum(applied) == 200
    assert await held(stores[0], session, users) == expected
    for s in stores:
        await s.close()
    check_books(database)


@contextmanager
def another_writer(database: Path | str, lock: Lock) -> Iterator[None]:
    """Another process's write transaction, holding `lock` (SQLite: the file) until the body
    ends."""
    if is_postgres(database):
        with psycopg.connect(str(database), autocommit=True) as holder:
            holder.execute("BEGIN")
            holder.execute(f"SELECT pg_advisory_xact_lock({lock.key})")
            yield
            holder.execute("ROLLBACK")
        return
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield
    holder.execute("ROLLBACK")
    holder.close()


async def test_a_locked_database_is_reported_and_changes_nothing(database):
    store = await Storage.open(database, grant=100, busy_timeout_ms=100)
    chat, users = await people(store, 2)
    session = await new_session(store, chat)
    await bring(store, session, users, 100)
    with another_writer(database, Lock.session(session)), \
            pytest.raises(StorageBusy, match="busy"):
        await store.accounts.settle(settlement(session, 1, chat, users, [-5, 5]))
    assert await held(store, session, users) == [100, 100]
    assert await store.accounts.settle(settlement(session, 1, chat, users, [-5, 5]))
    await store.close()


# ----- sessions ---------------------------------------------------------------------------------


async def test_sessions_save_with_optimistic_versions(store, database):
    chat, users = await people(store, 2)
    lobby = await store.sessions.create(chat, "domino", {"target": 50}, [users[0]], stake=2,
                                        creator_id=users[0])
    with pytest.raises(SessionExists):
        await store.sessions.create(chat, "dragon", {}, [])
    elsewhere = await store.sessions.create(chat, "dragon", {}, [], topic="42")
    assert [s.id for s in await store.sessions.open_sessions()] == [lobby.id, elsewhere.id]

    active = lobby.but(status="active", seats=users, state='{"x": 1}', version=1,
                       deadline=1234.5, messages={"telegram": {"table": 77}})
    await store.sessions.save(active, expected_version=0,
                              chips=TableChips(frozenset(users), tuple((u, 10) for u in users)))
    loaded = await store.sessions.get(lobby.id)
    assert loaded is not None
    assert (loaded.status, loaded.seats, loaded.state, loaded.version, loaded.deadline,
            loaded.messages, loaded.options, loaded.stake) == (
        "active", users, '{"x": 1}', 1, 1234.5, {"telegram": {"table": 77}}, {"target": 50}, 2)

    # A save made from version 0 again (an old button, a second process) is refused whole.
    deal = settlement(lobby.id, 1, chat, users, [-3, 3])
    with pytest.raises(StaleSave):
        await store.sessions.save(active.but(version=2, state="stale"), expected_version=0,
                                  settlement=deal)
    assert (await store.sessions.get(lobby.id)).state == '{"x": 1}'
    assert await held(store, lobby.id, users) == [10, 10]

    # The save that ends a deal carries its settlement in the same transaction.
    await store.sessions.save(active.but(version=2, state="end"), expected_version=1,
                              settlement=deal)
    assert await held(store, lobby.id, users) == [7, 13]
    # The save that closes the session returns what is on its table.
    await store.sessions.save(active.but(version=3, status="finished"), expected_version=2)
    assert [await store.accounts.balance(chat, u) for u in users] == [97, 103]
    assert await store.sessions.open_in(chat) is None
    assert [s.id for s in await store.sessions.history(chat)] == [lobby.id]
    again = await store.sessions.create(chat, "dragon", {}, [])
    assert again.id != lobby.id
    check_books(database)


# ----- leaderboards and stats -------------------------------------------------------------------


async def test_leaderboard_order_ranks_and_pages(store):
    chat, users = await people(store, 5)
    cpu = await store.accounts.computer("heuristic-1")
    session = await new_session(store, chat)
    await bring(store, session, users, 50)
    await store.accounts.settle(Settlement(session, 1, chat, "dragon", "out", (
        SeatResult(users[0], 0, -40, False), SeatResult(cpu, 0, 0, True, staked=False),
        SeatResult(users[4], 0, 40, False))))
    await store.accounts.settle(settlement(session, 2, chat, users[1:3], [25, -25]))
    top = await store.stats.top(chat, limit=10)
    # Chips on the table count: 140, 125, 100 (never played), 75, 60. No computer.
    assert [(s.rank, s.user_id, s.balance, s.games) for s in top] == [
        (1, users[4], 140, 1), (2, users[1], 125, 1), (3, users[3], 100, 0),
        (4, users[2], 75, 1), (5, users[0], 60, 1)]
    assert await store.stats.players(chat) == 5
    page = await store.stats.top(chat, limit=2, offset=2)
    assert [s.user_id for s in page] == [users[3], users[2]]
    for standing in top:
        mine = await store.stats.rank(chat, standing.user_id)
        assert mine is not None and (mine.rank, mine.games) == (standing.rank, standing.games)
    assert await store.stats.rank(chat, cpu) is None


async def test_the_ranking_per_deal_takes_people_with_enough_deals(store):
    chat, users = await people(store, 3)
    session = await new_session(store, chat)
    await bring(store, session, users, 100)
    for deal, deltas in enumerate(([-10, 10, 0], [-10, 10, 0], [30, 0, -30])):
        await store.accounts.settle(settlement(session, deal, chat, users, deltas))
    # Per deal: users[0] +10/3, users[1] +20/3, users[2] −30/3; all three have 3 deals.
    ranked = await store.stats.per_deal(chat, 3)
    assert [(r.rank, r.user_id, r.won, r.games) for r in ranked] == [
        (1, users[1], 20, 3), (2, users[0], 10, 3), (3, users[2], -30, 3)]
    assert await store.stats.ranked(chat, 3) == 3
    assert await store.stats.per_deal(chat, 4) == [] and await store.stats.ranked(chat, 4) == 0
    assert [r.user_id for r in await store.stats.per_deal(chat, 1, limit=1, offset=1)] == \
        [users[0]]


async def test_a_persons_chips_are_told_apart_by_where_they_came_from(store):
    chat, (alice, bob) = await people(store, 2)
    session = await new_session(store, chat)
    await bring(store, session, [alice, bob], 100)
    await store.accounts.settle(settlement(session, 1, chat, [alice, bob], [-90, 90]))
    await store.accounts.wallet(chat, alice, 50, "2026-11-26")  # 10 on the table: +40
    came = await store.stats.sources(chat, alice)
    assert (came.granted, came.refilled, came.won, came.adjusted) == (100, 40, -90, 0)
    history = [(p.deals, p.balance) for p in await store.stats.history(chat, alice)]
    assert history == [(0, 100), (1, 10), (1, 50)]  # chips brought to a table are not a step


async def test_game_stats_and_recent_deals(store):
    chat, users = await people(store, 2)
    session = await new_session(store, chat)
    await bring(store, session, users, 50)
    await store.accounts.settle(settlement(session, 1, chat, users, [-4, 4]))
    await store.accounts.settle(Settlement(session, 2, chat, "domino", "blocked", (
        SeatResult(users[0], 3, 9, True), SeatResult(users[1], 12, -9, False))))
    stats = {g.game: g for g in await store.stats.games(chat, users[0])}
    assert (stats["dragon"].played, stats["dragon"].won, stats["dragon"].net) == (1, 0, -4)
    assert (stats["domino"].played, stats["domino"].won, stats["domino"].net) == (1, 1, 9)
    recent = await store.stats.recent_deals(chat, limit=1)
    assert [(d.game, d.reason, d.seats) for d in recent] == [
        ("domino", "blocked", (("player 0", 3, 9, True), ("player 1", 12, -9, False)))]
    assert [d.deal_no for d in await store.stats.recent_deals(chat, limit=5, offset=1)] == [1]


# ----- a process killed while writing -----------------------------------------------------------

WRITER = """
import asyncio, random, sys
sys.path.insert(0, {root!r})
from storage import Storage, SeatResult, Settlement, TableChips

async def main():
    store = await Storage.open({path!r}, grant=10**6)
    chat = await store.accounts.chat("telegram", "-1", "g")
    users = [await store.accounts.user("telegram", i, f"p{{i}}") for i in range(4)]
    session = await store.sessions.create(chat, "dragon", {{}}, users, status="active")
    rng = random.Random(1)
    version = 0
    everyone = frozenset(users)
    for deal in range(10**9):
        d = [rng.randint(-9, 9) for _ in range(3)]
        seats = tuple(SeatResult(u, 0, x, False) for u, x in zip(users, [*d, -sum(d)]))
        # Every save brings chips to the table, settles a deal on it and lets one person go.
        bring = tuple((u, 50) for u in users)
        keep = everyone - {{users[deal % 4]}}
        await store.sessions.save(session.but(version=version + 1, state="x" * 5000),
                                  version, Settlement(session.id, deal, chat, "dragon", "out",
                                                      seats), TableChips(keep, bring))
        version += 1
        if deal == 20:
            print("ready", flush=True)

asyncio.run(main())
"""


@pytest.mark.real_time
@pytest.mark.parametrize("delay", [0.05, 0.3])
def test_a_process_killed_mid_write_leaves_a_consistent_database(database, delay):
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER.format(root=str(ROOT), path=str(database))],
        stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready and child.stdout.readline().strip() == "ready"
        time.sleep(delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    check_books(database)
    deals = query(database, "SELECT COUNT(*) FROM deals")[0][0]
    version = query(database, "SELECT version FROM sessions")[0][0]
    assert deals > 20 and version == deals  # each save and its settlement landed together

    async def reopen() -> None:
        store = await Storage.open(database)
        assert len(await store.sessions.open_sessions()) == 1
        await store.close()

    asyncio.run(reopen())
