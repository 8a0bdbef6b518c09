"""Storage on real SQLite files: schema, chips, idempotent settlements, sessions, stats."""

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
from pathlib import Path

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
)
from storage.schema import MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
ODD_NAMES = [
    "O'Brien \"the\" Quote", "Robert'); DROP TABLE users;--", "🎲 Кім 김민수 天九", "%_\\ \x00x",
    "   ", "a" * 300,
]


@pytest.fixture
async def store(tmp_path):
    s = await Storage.open(tmp_path / "chips.sqlite3", grant=100)
    yield s
    await s.close()


def check_books(path: Path) -> None:
    """The invariants every database must keep, read with plain sqlite3."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        per_chat = conn.execute(
            "SELECT b.chat_id, SUM(b.balance), (SELECT COALESCE(SUM(amount), 0) FROM ledger l "
            "WHERE l.chat_id = b.chat_id AND kind IN ('grant', 'adjustment')) "
            "FROM balances b GROUP BY b.chat_id").fetchall()
        for chat, balances, issued in per_chat:
            assert balances == issued, chat
        mismatched = conn.execute(
            "SELECT b.chat_id, b.user_id FROM balances b WHERE b.balance != (SELECT "
            "COALESCE(SUM(amount), 0) FROM ledger l WHERE l.chat_id = b.chat_id "
            "AND l.user_id = b.user_id)").fetchall()
        assert mismatched == []
        for (deal,) in conn.execute("SELECT id FROM deals").fetchall():
            seats = conn.execute("SELECT COUNT(*), SUM(delta) FROM deal_seats WHERE deal_id = ?",
                                 (deal,)).fetchone()
            moves = conn.execute("SELECT COUNT(*) FROM ledger WHERE kind = 'settlement' "
                                 "AND ref = ?", (f"deal:{deal}",)).fetchone()
            assert seats[0] >= 2 and seats[1] == 0 and moves[0] == seats[0], deal
    finally:
        conn.close()


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


async def test_settings_choose_the_file_and_the_grant(tmp_path):
    store = await Storage.from_settings({"GUPAI_DB": str(tmp_path / "s.sqlite3"),
                                         "GUPAI_GRANT": "250"})
    chat, (user,) = await people(store, 1)
    assert await store.accounts.balance(chat, user) == 250
    await store.close()
    assert (tmp_path / "s.sqlite3").exists()
    with pytest.raises(StorageError, match="GUPAI_GRANT"):
        await Storage.from_settings({"GUPAI_DB": str(tmp_path / "t.sqlite3"),
                                     "GUPAI_GRANT": "-5"})


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


async def test_first_appearance_grants_once_per_chat(store):
    chat, (alice, _) = await people(store, 2)
    other, _ = await people(store, 0, "other")
    assert await store.accounts.balance(chat, alice) == 100
    assert await store.accounts.balance(chat, alice) == 100
    assert await store.accounts.balance(other, alice) == 100
    cpu = await store.accounts.computer("heuristic-1")
    assert await store.accounts.balance(chat, cpu) == 0
    check_books(Path(store.db.path))


async def test_a_settlement_applied_twice_changes_nothing(store):
    chat, users = await people(store, 3)
    session = await new_session(store, chat)
    deal = settlement(session, 1, chat, users, [-30, -150, 180])
    assert await store.accounts.settle(deal)
    balances = [await store.accounts.balance(chat, u) for u in users]
    assert balances == [70, -50, 280]  # below zero is allowed
    assert not await store.accounts.settle(deal)
    assert [await store.accounts.balance(chat, u) for u in users] == balances
    with pytest.raises(ValueError, match="zero-sum"):
        settlement(session, 2, chat, users, [1, 1, 1])
    check_books(Path(store.db.path))


async def test_refunds_and_adjustments_apply_once(store):
    chat, users = await people(store, 2)
    session = await new_session(store, chat)
    await store.accounts.settle(settlement(session, 1, chat, users, [-10, 10]))
    (deal,) = await store.stats.recent_deals(chat)
    assert await store.accounts.refund_deal(deal.deal_id)
    assert not await store.accounts.refund_deal(deal.deal_id)
    assert [await store.accounts.balance(chat, u) for u in users] == [100, 100]
    assert await store.stats.recent_deals(chat) == []
    assert await store.accounts.adjust(chat, users[0], 25, "admin:1", "prize")
    assert not await store.accounts.adjust(chat, users[0], 25, "admin:1", "prize")
    assert await store.accounts.balance(chat, users[0]) == 125
    check_books(Path(store.db.path))


async def test_200_concurrent_settlements_leave_exact_balances(tmp_path):
    path = tmp_path / "busy.sqlite3"
    stores = [await Storage.open(path, grant=100) for _ in range(4)]
    chat, users = await people(stores[0], 3)
    session = await new_session(stores[0], chat)
    rng = random.Random(200)
    deals = [settlement(session, i, chat, users, zero_sum(rng, 3)) for i in range(200)]
    expected = [100 + sum(d.seats[k].delta for d in deals) for k in range(3)]
    # Every deal is sent twice, from different connections, in a shuffled order.
    jobs = [(stores[i % 4], d) for i, d in enumerate(deals)] + \
        [(stores[(i + 1) % 4], d) for i, d in enumerate(deals)]
    rng.shuffle(jobs)
    applied = await asyncio.gather(*(s.accounts.settle(d) for s, d in jobs))
    assert sum(applied) == 200
    assert [await stores[0].accounts.balance(chat, u) for u in users] == expected
    for s in stores:
        await s.close()
    check_books(path)


async def test_a_locked_database_is_reported_and_changes_nothing(tmp_path):
    path = tmp_path / "locked.sqlite3"
    store = await Storage.open(path, grant=100, busy_timeout_ms=100)
    chat, users = await people(store, 2)
    session = await new_session(store, chat)
    await store.accounts.balance(chat, users[0])
    await store.accounts.balance(chat, users[1])
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(StorageBusy, match="busy"):
        await store.accounts.settle(settlement(session, 1, chat, users, [-5, 5]))
    holder.execute("ROLLBACK")
    holder.close()
    assert [await store.accounts.balance(chat, u) for u in users] == [100, 100]
    assert await store.accounts.settle(settlement(session, 1, chat, users, [-5, 5]))
    await store.close()


# ----- sessions ---------------------------------------------------------------------------------


async def test_sessions_save_with_optimistic_versions(store):
    chat, users = await people(store, 2)
    lobby = await store.sessions.create(chat, "domino", {"target": 50}, [users[0]], stake=2,
                                        creator_id=users[0])
    with pytest.raises(SessionExists):
        await store.sessions.create(chat, "dragon", {}, [])
    elsewhere = await store.sessions.create(chat, "dragon", {}, [], topic="42")
    assert [s.id for s in await store.sessions.open_sessions()] == [lobby.id, elsewhere.id]

    active = lobby.but(status="active", seats=users, state='{"x": 1}', version=1,
                       deadline=1234.5, messages={"telegram": {"table": 77}})
    await store.sessions.save(active, expected_version=0)
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
    assert [await store.accounts.balance(chat, u) for u in users] == [100, 100]

    # The save that ends a deal carries its settlement in the same transaction.
    await store.sessions.save(active.but(version=2, state="end"), expected_version=1,
                              settlement=deal)
    assert [await store.accounts.balance(chat, u) for u in users] == [97, 103]
    await store.sessions.save(active.but(version=3, status="finished"), expected_version=2)
    assert await store.sessions.open_in(chat) is None
    assert [s.id for s in await store.sessions.history(chat)] == [lobby.id]
    again = await store.sessions.create(chat, "dragon", {}, [])
    assert again.id != lobby.id
    check_books(Path(store.db.path))


# ----- leaderboards and stats -------------------------------------------------------------------


async def test_leaderboard_order_ranks_and_pages(store):
    chat, users = await people(store, 5)
    cpu = await store.accounts.computer("heuristic-1")
    session = await new_session(store, chat)
    await store.accounts.settle(settlement(session, 1, chat, [users[0], cpu], [-40, 40]))
    await store.accounts.settle(settlement(session, 2, chat, users[1:3], [25, -25]))
    for u in users:
        await store.accounts.balance(chat, u)
    top = await store.stats.top(chat, limit=10)
    # 125; then three at 100 in order of joining; 75; 60. The computer is not listed.
    assert [(s.rank, s.user_id, s.balance) for s in top] == [
        (1, users[1], 125), (2, users[3], 100), (3, users[4], 100), (4, users[2], 75),
        (5, users[0], 60)]
    assert await store.stats.players(chat) == 5
    page = await store.stats.top(chat, limit=2, offset=2)
    assert [s.user_id for s in page] == [users[4], users[2]]
    for standing in top:
        mine = await store.stats.rank(chat, standing.user_id)
        assert mine is not None and mine.rank == standing.rank
    assert await store.stats.rank(chat, cpu) is None
    assert top[0].games == 1 and top[1].games == 0


async def test_game_stats_and_recent_deals(store):
    chat, users = await people(store, 2)
    session = await new_session(store, chat)
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
from storage import Storage, SeatResult, Settlement

async def main():
    store = await Storage.open({path!r}, grant=100)
    chat = await store.accounts.chat("telegram", "-1", "g")
    users = [await store.accounts.user("telegram", i, f"p{{i}}") for i in range(4)]
    session = await store.sessions.create(chat, "dragon", {{}}, users, status="active")
    rng = random.Random(1)
    version = 0
    for deal in range(10**9):
        d = [rng.randint(-9, 9) for _ in range(3)]
        seats = tuple(SeatResult(u, 0, x, False) for u, x in zip(users, [*d, -sum(d)]))
        await store.sessions.save(session.but(version=version + 1, state="x" * 5000),
                                  version, Settlement(session.id, deal, chat, "dragon", "out",
                                                      seats))
        version += 1
        if deal == 20:
            print("ready", flush=True)

asyncio.run(main())
"""


@pytest.mark.real_time
@pytest.mark.parametrize("delay", [0.05, 0.3])
def test_a_process_killed_mid_write_leaves_a_consistent_database(tmp_path, delay):
    path = tmp_path / "killed.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", WRITER.format(root=str(ROOT), path=str(path))],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready and child.stdout.readline().strip() == "ready"
        time.sleep(delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    check_books(path)
    conn = sqlite3.connect(path)
    deals = conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
    version = conn.execute("SELECT version FROM sessions").fetchone()[0]
    conn.close()
    assert deals > 20 and version == deals  # each save and its settlement landed together

    async def reopen() -> None:
        store = await Storage.open(path)
        assert len(await store.sessions.open_sessions()) == 1
        await store.close()

    asyncio.run(reopen())
