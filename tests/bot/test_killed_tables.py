"""Tables at stake through kill -9: a process playing games for chips is killed at a random
moment, and the books still hold; a new process takes the game over and finishes it, and every
chip on the table comes back exactly once (docs/architecture.md §6)."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.books import check_books
from tests.support.session_helpers import BOB, OLENA, PLACE, anyone, close, manager, play_out

ROOT = Path(__file__).resolve().parents[2]
PLAYER = """
import asyncio, random, sys
sys.path.insert(0, {root!r})
from tests.support.session_helpers import BOB, OLENA, PLACE, lobby, manager

async def main():
    m, rec = await manager({path!r})
    rng = random.Random({seed})
    games = ["dragon deals=2 7", "kapten deals=3 20", "tails deals=2 9", "domino 50 3"]
    for round in range(10**6):
        await lobby(m, rec, rng.choice(games).split(), [OLENA, BOB], computers=1)
        if round == 0:
            print("ready", flush=True)
        while await m.open_in(PLACE) is not None:
            pressed = False
            for actor in (OLENA, BOB):
                moves = rec.moves(actor.platform_id) or rec.groups(actor.platform_id)
                if moves:
                    reply = await m.press(actor, rng.choice(moves).data)
                    pressed = pressed or not reply.toast
            if not pressed:
                await asyncio.sleep(0.002)

asyncio.run(main())
"""


def holds(path: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT session_id, user_id, amount FROM holds").fetchall()


@pytest.mark.real_time
@pytest.mark.parametrize(("seed", "delay"), [(1, 0.4), (2, 1.3), (3, 2.2)])
def test_a_killed_process_leaves_exact_books_and_its_game_can_be_finished(tmp_path, seed,
                                                                          delay):
    path = tmp_path / "killed.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER.format(root=str(ROOT), path=str(path), seed=seed)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready and child.stdout.readline().strip() == "ready"
        # Long enough for games to finish and new ones to start, mid-deal or between deals.
        select.select([], [], [], delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    check_books(path)  # (at these delays the kill finds chips on a table: a deal in play)

    async def finish() -> None:
        m, rec = await manager(path)
        try:
            await m.restore()
            table = await m.open_in(PLACE)
            if table is not None and table.status == "lobby":  # killed between two games
                await m.stop(PLACE, OLENA, anyone)
            elif table is not None:
                await play_out(m, rec, [OLENA, BOB], limit=120)
            assert await m.open_in(PLACE) is None
        finally:
            await close(m)

    asyncio.run(finish())
    check_books(path)
    assert holds(path) == [], "every chip left on a table came back"
    with sqlite3.connect(path) as conn:
        balances = dict(conn.execute(
            "SELECT u.name, b.balance FROM balances b JOIN users u ON u.id = b.user_id"))
        deals = conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
        # (a person who lost everything is refilled at their next game of the day)
        refilled = conn.execute(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE kind = 'refill'").fetchone()[0]
    assert set(balances) == {OLENA.name, BOB.name}
    assert sum(balances.values()) == 2000 + refilled
    assert deals >= 1
