"""Storage throughput: settlements and session saves per second through the storage (the bot's
path), on a SQLite file and on PostgreSQL, from one process and from two processes sharing the
database; and the same writes through the plain `sqlite3` module on the same schema as the floor.

Run by hand (not a test): `.venv/bin/python benchmarks/database.py [--count N]`.
Each write is its own transaction, as in the bot: SQLite's `BEGIN IMMEDIATE` with WAL and
synchronous=NORMAL, PostgreSQL's with the advisory locks of what it touches (`storage.locks`:
the game's). PostgreSQL runs on a throwaway cluster on this machine's disk
(`tests.support.postgres`, which needs Debian's postgresql package), twice: with
`synchronous_commit=off`, which like SQLite's synchronous=NORMAL may lose the last moments of
commits to a power cut but never corrupts, and with PostgreSQL's default (`on`: every commit
flushed to disk first). In two processes each has its own game and users and the two write at
once; the rate is both together. SQLite's one writer at a time makes two processes no faster
than one; on PostgreSQL they should add up, as far as the cores allow (the server shares them).

That nothing but the cores stops them is measured too: the server logs every lock wait longer than a
millisecond (`log_lock_waits`, `deadlock_timeout=1ms`), and the waits logged during each run are
counted, by what was waited for: none on the games' locks, where the two processes write different
games. What remains is PostgreSQL's own: a commit that notifies (every session save tells the pages
following it) takes the server's NOTIFY queue lock while it commits, so with `synchronous_commit=on`
two saves' flushes to disk wait on each other there. A last run has the two processes save one game,
each from the version it last read, which must wait: it shows that the count sees waits where there
are some. Machines are shared and noisy; compare the ratios within one run.

What keeping every deal's moves costs (`storage.moves`, migration 7) is measured in the same
run: one process again, with each settlement keeping a deal's moves and setup (a random dragon
deal's, as the bot keeps them) and each session save carrying the moves made so far in its
messages, as a game in play does, against the same writes without, in turns (`ROUNDS` of
each, on fresh databases, so that the machine's noise falls on both alike); the medians are
compared.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.synchronize import Barrier
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import GAMES, replay
from games.engine import Match
from storage import SeatResult, Settlement, StaleSave, Storage, TableChips
from storage.moves import DealMoves
from tests.support.postgres import Cluster

STATE = "x" * 4000
"""About the size of a saved four-player deal."""
LOCK_WAITS = ("log_lock_waits=on", "deadlock_timeout=1ms")
"""The server logs every lock wait longer than a millisecond."""
ROUNDS = 3
"""Runs with and without the moves kept, in turns, whose medians are compared."""
WAITED = re.compile(r"still waiting for (\w+) on (advisory lock|transaction|tuple|relation|"
                    r"object 0 of class 1262 of database 0)?")
NOTIFY_QUEUE = "object 0 of class 1262 of database 0"
"""What a commit that notifies (a session's save: `storage.schema_pg`'s trigger) locks while it
commits, one at a time in the whole server: PostgreSQL's queue of notifications."""


def sample_deal(users: list[int]) -> tuple[DealMoves, list[str]]:
    """A random dragon deal's kept moves, as the bot keeps them, and the moves' text after
    each move (what a game in play carries in its saves)."""
    rules = GAMES["dragon"]
    rnd = random.Random(7)
    match = Match.start(4, 0)
    seed = "0123456789abcdef0123456789abcdef"
    state = rules.new_deal(rules.options(), 4, seed, match)
    moves: list[replay.Move] = []
    texts: list[str] = []
    while (seat := rules.to_move(state)) is not None:
        action = rnd.choice(rules.legal_actions(state))
        moves.append(replay.Move(seat, rules.encode(state, action), str(users[seat])))
        texts.append(replay.encode(moves))
        state, _ = rules.apply(state, action)
    setup = {"preset": None, "values": {}, "players": 4, "match": {
        "players": 4, "deal": 0, "leader": 0, "scores": [0] * 4, "chips": [0] * 4,
        "redeals": 0, "streak": 0, "winner": None, "over": False}, "stake": 1,
        "held": [100] * 4}
    return DealMoves(seed, setup, texts[-1]), texts


async def through_storage(target: Path | str, count: int, index: int = 0,
                          barrier: Barrier | None = None, moves: bool = False
                          ) -> tuple[float, float]:
    """Settle `count` deals, then save a game `count` times; seconds each took. With a
    `barrier`, the processes sharing it start each part together; with `moves`, every
    settlement keeps a deal's moves and every save carries the moves made so far."""
    store = await Storage.open(target, grant=count)
    chat = await store.accounts.chat("telegram", f"-{index + 1}", "bench")
    users = [await store.accounts.user("telegram", f"{index}-{i}", f"p{i}") for i in range(4)]
    session = await store.sessions.create(chat, "dragon", {}, users, status="active")
    # Everyone brings all their chips to the table: the deals below settle on it.
    session = await store.sessions.save(session.but(version=1), 0, chips=TableChips(
        frozenset(users), tuple((u, count) for u in users)))
    kept, texts = sample_deal(users)
    if barrier is not None:
        barrier.wait()
    started = time.perf_counter()
    for deal in range(count):
        seats = tuple(SeatResult(u, 0, d, d > 0) for u, d in zip(users, (3, -1, -1, -1),
                                                                 strict=True))
        await store.accounts.settle(Settlement(session.id, deal, chat, "dragon", "out", seats,
                                               kept if moves else None))
    settling = time.perf_counter() - started
    if barrier is not None:
        barrier.wait()
    started = time.perf_counter()
    current = session
    for version in range(1, count + 1):
        messages = {"moves": texts[version % len(texts)]} if moves else {}
        current = await store.sessions.save(current.but(version=version + 1, state=STATE,
                                                        messages=messages), version)
    saving = time.perf_counter() - started
    await store.close()
    return settling, saving


async def one_game(target: Path | str, count: int, index: int = 0,
                   barrier: Barrier | None = None) -> tuple[float, float]:
    """Save the game the other process saves too, each time from the version last read (one
    save of each version wins), `count` times; 0 for settling, and the seconds it took."""
    store = await Storage.open(target)
    found = await store.sessions.open_sessions()
    if found:
        session = found[0]
    else:
        chat = await store.accounts.chat("telegram", "-1", "bench")
        session = await store.sessions.create(chat, "dragon", {}, [], status="active")
    if barrier is not None:
        barrier.wait()
    started = time.perf_counter()
    for _ in range(count):
        current = await store.sessions.get(session.id)
        assert current is not None
        with contextlib.suppress(StaleSave):
            await store.sessions.save(current.but(version=current.version + 1, state=STATE),
                                      current.version)
    saving = time.perf_counter() - started
    await store.close()
    return 0.0, saving


def _process(work: str, target: Path | str, count: int, index: int, barrier: Barrier,
             results: multiprocessing.Queue[tuple[float, float]]) -> None:
    run = one_game if work == "one game" else through_storage
    results.put(asyncio.run(run(target, count, index, barrier)))


def rates(target: Path | str, count: int, processes: int, work: str = ""
          ) -> tuple[float, float]:
    """Settlements and saves a second, all processes together (`work` "one game": saves of
    the one game they share; "moves kept": one process keeping every deal's moves)."""
    if processes == 1:
        settling, saving = asyncio.run(through_storage(target, count,
                                                       moves=work == "moves kept"))
        return count / settling, count / saving
    asyncio.run(_create(target, work))  # migrated once, before they race
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(processes)
    results: multiprocessing.Queue[tuple[float, float]] = spawn.Queue()
    children = [spawn.Process(target=_process, args=(work, target, count, i, barrier, results))
                for i in range(processes)]
    for child in children:
        child.start()
    times = [results.get(timeout=600) for _ in children]
    for child in children:
        child.join()
    if work == "one game":
        saved = asyncio.run(_version(target))
        return 0.0, saved / max(t[1] for t in times)
    return (processes * count / max(t[0] for t in times),
            processes * count / max(t[1] for t in times))


def moves_cost(target: Callable[[], Path | str], count: int
               ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The median rates (settlements, saves a second) without and with the moves kept, from
    `ROUNDS` runs of each in turns, each on a fresh database `target()` gives."""
    without: list[tuple[float, float]] = []
    with_moves: list[tuple[float, float]] = []
    for _ in range(ROUNDS):
        without.append(rates(target(), count, 1))
        with_moves.append(rates(target(), count, 1, "moves kept"))

    def median(found: list[tuple[float, float]]) -> tuple[float, float]:
        return (statistics.median(f[0] for f in found), statistics.median(f[1] for f in found))
    return median(without), median(with_moves)


def lock_waits(log: Path, since: int) -> dict[str, int]:
    """The lock waits the server logged after byte `since` of its log, by what was waited
    for: an advisory lock (a game's, a person's, ...), another transaction (a row it
    changed), a row, a table, or the NOTIFY queue (another commit that notifies, of any
    game)."""
    with log.open("rb") as file:
        file.seek(since)
        text = file.read().decode(errors="replace")
    waits: dict[str, int] = {}
    for match in WAITED.finditer(text):
        what = match.group(2) or match.group(1)
        if what == NOTIFY_QUEUE:
            what = "the NOTIFY queue"
        waits[what] = waits.get(what, 0) + 1
    return waits


async def _create(target: Path | str, work: str = "") -> None:
    store = await Storage.open(target)
    if work == "one game":
        await one_game(target, 0)
    await store.close()


async def _version(target: Path | str) -> int:
    store = await Storage.open(target)
    (session,) = await store.sessions.open_sessions()
    await store.close()
    return session.version


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
    lines: list[tuple[str, tuple[float, float], dict[str, int] | None]] = []
    with tempfile.TemporaryDirectory() as folder:
        for processes in (1, 2):
            target = Path(folder) / f"p{processes}.sqlite3"
            lines.append((f"SQLite, {processes} process{'es' * (processes > 1)}",
                          rates(target, args.count, processes), None))
        files = iter(range(10**6))
        costs = {"SQLite": moves_cost(lambda: Path(folder) / f"m{next(files)}.sqlite3",
                                      args.count)}
        floor = through_sqlite3(Path(folder) / "floor.sqlite3", args.count)
    runs = [(commit, processes, "") for commit in ("off", "on") for processes in (1, 2)]
    runs.append(("off", 2, "one game"))
    clusters: dict[str, Cluster] = {}
    try:
        for commit, processes, work in runs:
            if commit not in clusters:
                clusters[commit] = Cluster.start([f"synchronous_commit={commit}", *LOCK_WAITS],
                                                 in_memory=False)
            cluster = clusters[commit]
            since = cluster.log.stat().st_size
            rate = rates(cluster.create_database(),
                         args.count // 4 if work == "one game" else args.count, processes, work)
            name = f"PostgreSQL {commit:>3}, {processes} process{'es' * (processes > 1)}"
            lines.append((f"{name}, {work}" if work else name, rate,
                          lock_waits(cluster.log, since)))
        costs["PostgreSQL off"] = moves_cost(clusters["off"].create_database, args.count)
    finally:
        for cluster in clusters.values():
            cluster.stop()
    lines.append(("plain sqlite3 (floor)", floor, None))
    print(f"{args.count} of each per process; PostgreSQL off/on: synchronous_commit; lock "
          "waits: those over 1 ms")
    print(f"{'':<40}{'settlements/s':>14}{'session saves/s':>17}  lock waits")
    for name, (settle, save), waits in lines:
        waited = "" if waits is None else ", ".join(
            f"{n} on {what}" for what, n in sorted(waits.items())) or "0"
        print(f"{name:<40}{settle:>14,.0f}{save:>17,.0f}  {waited}")
    rate = {name: save for name, (_, save), _ in lines}
    for what in ("SQLite", "PostgreSQL off", "PostgreSQL  on"):
        times = rate[f"{what}, 2 processes"] / rate[f"{what}, 1 process"]
        print(f"{what}: two processes save {times:.2f}× as many sessions a second as one")
    kept, _ = sample_deal([1, 2, 3, 4])
    print(f"Keeping moves ({kept.size()} bytes kept for the sample deal of "
          f"{len(replay.decode(kept.moves))} moves), one process, median of {ROUNDS} turns:")
    print(f"{'':<40}{'settlements/s':>14}{'session saves/s':>17}")
    for what, (without, with_moves) in costs.items():
        for how, found in (("without moves", without), ("moves kept", with_moves)):
            print(f"{what + ', ' + how:<40}{found[0]:>14,.0f}{found[1]:>17,.0f}")
        print(f"{what}: keeping moves gives {with_moves[0] / without[0]:.2f}× the "
              f"settlements and {with_moves[1] / without[1]:.2f}× the session saves a second")


if __name__ == "__main__":
    main()
