"""A season's end among processes on one PostgreSQL database: two processes that find it ended at
the same moment post its podium once between them, a process killed with -9 after writing the
podium and before the chat had it leaves it to the next process, and processes started later
post it no more (`bot.deals.seasons`; docs/architecture.md §6).

Each process is a real one on the session layer (`tests.support.session_helpers`), whose clock
stands a minute after the month's end, and which prints each post it delivers.
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import SeatResult, Settlement, Storage, TableChips
from storage.seasons import MONTH, period_start
from tests.support.session_helpers import BOB, OLENA, PLACE

pytestmark = pytest.mark.real_time

ROOT = Path(__file__).resolve().parents[2]
PROCESS = """
import asyncio, sys, time
sys.path.insert(0, {root!r})
from bot.session.manager import Timing
from tests.support.session_helpers import manager

async def main():
    offset, mode = float(sys.argv[1]), sys.argv[2]
    m, rec = await manager({url!r}, Timing(computer_delay=0, deal_pause=0.01,
                                           restore_grace=0, lease=1.0))
    clock = lambda: time.time() + offset
    m.storage.db.clock = clock
    m.clock = clock

    async def deliver(reply):
        for post in reply.posts:
            if mode == "stall":  # written, and never in the chat
                print("holding", flush=True)
                await asyncio.Event().wait()
            print("posted", post.screen.text.splitlines()[0], flush=True)
            if post.key is not None:
                await m.delivered(post.key)
    m.deliver = deliver
    await m.restore()
    print("ready", flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


class Process:
    def __init__(self, url: str, offset: float, mode: str = "deliver") -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-c", PROCESS.format(root=str(ROOT), url=url), str(offset), mode],
            stdout=subprocess.PIPE, cwd=ROOT)
        self.lines: list[str] = []
        self._partial = b""

    def read(self, seconds: float) -> None:
        """Read what it printed within `seconds` (from the pipe itself: a buffered reader
        could hold a line that `select` then never reports)."""
        out = self.child.stdout
        assert out is not None
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([out], [], [], left)
            if not ready:
                return
            chunk = os.read(out.fileno(), 65536)
            if not chunk:
                return
            *lines, self._partial = (self._partial + chunk).split(b"\n")
            self.lines += [line.decode().strip() for line in lines]

    def wait_for(self, word: str, seconds: float = 60) -> None:
        end = time.monotonic() + seconds
        while not any(line.startswith(word) for line in self.lines):
            assert time.monotonic() < end, f"never printed {word!r}: {self.lines}"
            self.read(0.2)

    @property
    def posted(self) -> list[str]:
        return [line for line in self.lines if line.startswith("posted")]

    def kill(self) -> None:
        if self.child.poll() is None:
            os.kill(self.child.pid, signal.SIGKILL)
        self.child.wait()
        if self.child.stdout is not None:
            self.child.stdout.close()


async def a_finished_month(url: str) -> float:
    """A chat where two people played last month; the clock offset that puts a process a
    minute after that month's end."""
    this_month = period_start(MONTH, time.time())
    store = await Storage.open(url)
    try:
        store.db.clock = lambda: this_month - 10 * 86_400
        chat = await store.accounts.chat("test", PLACE.chat, PLACE.title)
        people = [await store.accounts.user("test", a.platform_id, a.name) for a in (OLENA, BOB)]
        session = await store.sessions.create(chat, "dragon", {}, [], status="active")
        await store.sessions.save(session.but(version=1), 0, chips=TableChips(
            frozenset(people), tuple((p, 100) for p in people)))
        for no, won in enumerate((12, -5, 7), start=1):
            await store.accounts.settle(Settlement(session.id, no, chat, "dragon", "out", (
                SeatResult(people[0], 0, won, won > 0), SeatResult(people[1], 0, -won, won < 0))))
        await store.sessions.save(session.but(version=2, status="finished"), 1)
    finally:
        await store.close()
    return this_month + 60 - time.time()


async def seasons_and_posts(url: str) -> tuple[int, int]:
    store = await Storage.open(url)
    try:
        seasons = await store.db.read_one("SELECT COUNT(*) FROM seasons")
        posts = await store.db.read_one("SELECT COUNT(*) FROM posts")
        assert seasons is not None and posts is not None
        return int(seasons[0]), int(posts[0])
    finally:
        await store.close()


def test_two_processes_at_once_post_the_podium_once(postgres_url):
    offset = asyncio.run(a_finished_month(postgres_url))
    both = [Process(postgres_url, offset) for _ in range(2)]
    later = None
    try:
        for process in both:
            process.wait_for("ready")
        for process in both:
            process.read(3)  # several sweeps each
        later = Process(postgres_url, offset)
        later.wait_for("ready")
        later.read(3)
        posted = [line for p in (*both, later) for line in p.posted]
        assert len(posted) == 1, posted
        assert posted[0].startswith("posted 🏁")
        assert asyncio.run(seasons_and_posts(postgres_url)) == (1, 0)
    finally:
        for process in (*both, *([later] if later else [])):
            process.kill()


def test_a_podium_written_by_a_process_killed_before_posting_it_comes_once(postgres_url):
    offset = asyncio.run(a_finished_month(postgres_url))
    stalled = Process(postgres_url, offset, "stall")
    processes = [stalled]
    try:
        stalled.wait_for("holding")
        stalled.kill()
        assert asyncio.run(seasons_and_posts(postgres_url)) == (1, 1)
        taker = Process(postgres_url, offset)
        processes.append(taker)
        taker.wait_for("posted")
        taker.read(3)
        another = Process(postgres_url, offset)
        processes.append(another)
        another.wait_for("ready")
        another.read(3)
        assert stalled.posted == [] and len(taker.posted) == 1 and another.posted == []
        assert asyncio.run(seasons_and_posts(postgres_url)) == (1, 0)
    finally:
        for process in processes:
            process.kill()
