"""Storage throughput: settlements and session saves per second through aiosqlite (the bot's
path), and the same writes through the plain `sqlite3` module on the same schema as the floor.

Run by hand (not a test): `.venv/bin/python benchmarks/database.py [--count N]`.
Each write is its own `BEGIN IMMEDIATE` transaction with WAL and synchronous=NORMAL, as in the
bot. Machines are shared and noisy; compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
from pathlib import Path

from storage import SeatResult, Settlement, Storage, TableChips

STATE = "x" * 4000
"""About the size of a saved four-player deal."""


async def through_storage(path: Path, count: int) -> tuple[float, float]:
    store = await Storage.open(path, grant=count)
    chat = await store.accounts.chat("telegram", "-1", "bench")
    users = [await store.accounts.user("telegram", i, f"p{i}") for i in range(4)]
    session = await store.sessions.create(chat, "dragon", {}, users, status="active")
    # Everyone brings all their chips to the table: the deals below settle on it.
    session = await store.sessions.save(session.but(version=1), 0, chips=TableChips(
        frozenset(users), tuple((u, count) for u in users)))
    started = time.perf_counter()
    for deal in range(count):
        seats = tuple(SeatResult(u, 0, d, d > 0) for u, d in zip(users, (3, -1, -1, -1),
                                                                 strict=True))
        await store.accounts.settle(Settlement(session.id, deal, chat, "dragon", "out", seats))
    settle_rate = count / (time.perf_counter() - started)
    started = time.perf_counter()
    current = session
    for version in range(1, count + 1):
        current = await store.sessions.save(current.but(version=version + 1, state=STATE),
                                            version)
    save_rate = count / (time.perf_counter() - started)
    await store.close()
    return settle_rate, save_rate


async def _create(path: Path) -> None:
    store = await Storage.open(path)
    await store.close()


def through_sqlite3(path: Path, count: int) -> tuple[float, float]:
    """The same rows written with the standard library, no event loop, no thread hop."""
    asyncio.run(_create(path))
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("INSERT INTO chats (platform, platform_id, created_at) VALUES ('t', '-1', 0)")
    for i in range(4):
        conn.execute("INSERT INTO users (platform, platform_id, name, created_at) "
                     "VALUES ('t', ?, 'p', 0)", (str(i),))
        conn.execute("INSERT INTO balances VALUES (1, ?, 0, ?)", (i + 1, i))
    conn.execute("INSERT INTO sessions (chat_id, game, options, seats, status, created_at, "
                 "updated_at) VALUES (1, 'dragon', '{}', '[]', 'active', 0, 0)")
    for i in range(4):
        conn.execute("INSERT INTO holds VALUES (1, ?, 1, ?)", (i + 1, count))
    started = time.perf_counter()
    for deal in range(count):
        conn.execute("BEGIN IMMEDIATE")
        deal_id = conn.execute(
            "INSERT INTO deals (session_id, deal_no, chat_id, game, reason, at) "
            "VALUES (1, ?, 1, 'dragon', 'out', 0) ON CONFLICT DO NOTHING RETURNING id",
            (deal,)).fetchone()[0]
        for seat, delta in enumerate((3, -1, -1, -1)):
            conn.execute("INSERT INTO deal_seats VALUES (?, ?, ?, 0, ?, 0, 1)",
                         (deal_id, seat, seat + 1, delta))
            conn.execute("INSERT INTO ledger (chat_id, user_id, kind, ref, amount, at) "
                         "VALUES (1, ?, 'settlement', ?, ?, 0)", (seat + 1, f"d{deal_id}", delta))
            conn.execute("UPDATE holds SET amount = amount + ? WHERE session_id = 1 "
                         "AND user_id = ?", (delta, seat + 1))
        conn.execute("COMMIT")
    settle_rate = count / (time.perf_counter() - started)
    started = time.perf_counter()
    for version in range(count):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE sessions SET state = ?, version = ?, updated_at = 0 "
                     "WHERE id = 1 AND version = ?", (STATE, version + 1, version))
        conn.execute("COMMIT")
    save_rate = count / (time.perf_counter() - started)
    conn.close()
    return settle_rate, save_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ours = asyncio.run(through_storage(Path(folder) / "a.sqlite3", args.count))
        floor = through_sqlite3(Path(folder) / "b.sqlite3", args.count)
    print(f"{'':<18}{'storage (aiosqlite)':>22}{'plain sqlite3':>16}{'ratio':>8}")
    for name, a, b in (("settlements/s", ours[0], floor[0]), ("session saves/s", ours[1],
                                                               floor[1])):
        print(f"{name:<18}{a:>22,.0f}{b:>16,.0f}{a / b:>8.2f}")


if __name__ == "__main__":
    main()
