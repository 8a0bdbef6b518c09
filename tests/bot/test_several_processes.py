"""Two bot processes on one PostgreSQL database, as webhook workers behind a load balancer: the
same groups pressed through both at once, and one of them killed with -9 partway. Chips stay
exact, no press is applied twice, the dead process's timers are taken over within their lease,
and every game finishes (docs/architecture.md §6, `bot.service.workers`).
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Storage
from tests.support.balancer import Balancer
from tests.support.books import check_books
from tests.support.bot_process import BotProcess
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.postgres import free_port
from tests.support.telegram_group import Group

pytestmark = pytest.mark.real_time

LEASE = 3.0
GROUPS = 3
COMPUTER_DELAY = 0.5
"""Seconds a computer waits before its move: a deadline the dead process may be holding."""


class Worker(BotProcess):
    """A webhook worker: ready once it has registered the webhook and its health says ok."""

    def __init__(self, server: FakeTelegram, db: Path, url: str, hook: str) -> None:
        self.port = free_port()
        super().__init__(server, db, {
            "GUPAI_DB": url, "GUPAI_HTTP_PORT": str(self.port), "GUPAI_LEASE": str(LEASE),
            "GUPAI_COMPUTER_DELAY": str(COMPUTER_DELAY), "TELEGRAM_WEBHOOK_URL": hook})

    async def running(self, timeout: float = 30.0) -> None:
        import urllib.request
        deadline = time.monotonic() + timeout
        while True:
            assert self.child is not None
            if self.child.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the worker did not start: {self.finish()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                            timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            await asyncio.sleep(0.1)


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


async def holds_a_move_due(storage: Storage, worker: Worker) -> bool:
    """The worker runs the timers of a game whose next move is a computer's, due within its
    pause: a deadline that is lost if the worker dies now, unless another takes it over."""
    assert worker.child is not None
    rows = await storage.db.read(
        "SELECT s.deadline FROM sessions s JOIN leases l ON l.session_id = s.id "
        "WHERE s.status = 'active' AND s.deadline IS NOT NULL AND l.owner LIKE ?",
        (f"%:{worker.child.pid}:%",))
    return any(row["deadline"] - time.time() <= COMPUTER_DELAY for row in rows)


def both_answered(server: FakeTelegram) -> bool:
    """A press reached both workers (each answered it)."""
    seen: set[str] = set()
    for answer in server.answers():
        if answer.callback_query_id in seen:
            return True
        seen.add(answer.callback_query_id)
    return False


class Presses:
    """Which updates the balancer sends to every worker at once: the presses, once the games
    are under way (opening them wants one answer a press)."""

    def __init__(self) -> None:
        self.both = False

    def __call__(self, body: bytes) -> bool:
        return self.both and b'"callback_query"' in body


async def test_two_workers_share_the_games_and_one_dies(server: FakeTelegram, tmp_path: Path,
                                                         postgres_url: str) -> None:
    presses = Presses()
    balancer = Balancer([], everyone=presses)
    await balancer.start()
    hook = f"{balancer.url}/telegram"
    workers = [Worker(server, tmp_path / f"w{i}.log", postgres_url, hook) for i in range(2)]
    balancer.ports[:] = [w.port for w in workers]
    balancer.sent = {w.port: 0 for w in workers}
    storage = await Storage.from_settings({"GUPAI_DB": postgres_url})
    groups: list[Group] = []
    try:
        for worker in workers:  # (started together, as a host starts them)
            worker.start()
        for worker in workers:
            await worker.running()
        for g in range(GROUPS):
            group = Group(server, tmp_path / "unused")
            group.chat = -1002000 - g
            group.storage = storage
            people = (User(300 + 10 * g, f"Олена {g}", "uk"), User(301 + 10 * g, f"Bob {g}", "en"))
            for person in people:
                server.start_bot(person)
            server.set_chat(group.chat, title=f"Група {g}")
            groups.append(group)
        sids = []
        for g, group in enumerate(groups):
            people = (User(300 + 10 * g, f"Олена {g}", "uk"), User(301 + 10 * g, f"Bob {g}", "en"))
            sids.append((group, people, await group.open_game("dragon deals=1", people,
                                                               computers=1)))

        async def play(group: Group, people: tuple[User, ...], sid: int) -> None:
            await group.play(sid, people, limit=240)

        presses.both = True
        playing = [asyncio.ensure_future(play(*entry)) for entry in sids]
        victim = workers[0]
        # Killed partway: once presses have reached both workers, at a moment when it holds
        # a game whose computer is about to move.
        deadline = time.monotonic() + 60
        while not (both_answered(server) and await holds_a_move_due(storage, victim)):
            assert not all(task.done() for task in playing), "the games ended first"
            assert time.monotonic() < deadline, "the worker never held a move that was due"
            await asyncio.sleep(0.02)
        assert victim.child is not None
        victim.child.send_signal(signal.SIGKILL)
        victim.child.wait(10)
        killed_at = time.monotonic()
        overdue: list[float] = []
        while not all(task.done() for task in playing):
            for row in await storage.db.read(
                    "SELECT deadline FROM sessions WHERE status IN ('lobby', 'active')"):
                if row["deadline"] is not None:
                    overdue.append(time.time() - row["deadline"])
            await asyncio.sleep(0.25)
        for task in playing:
            task.result()
        for group, _, sid in sids:
            assert await group.status(sid) == "finished"
        # A deadline of the dead process waits at most its lease and a sweep to be acted on.
        assert max(overdue, default=0.0) < LEASE + LEASE / 3 + 3.0, max(overdue)
        assert time.monotonic() - killed_at > 0
        # No press applied twice: each press reached both workers, and at most one of them
        # applied it (a press applied answers with no toast; the other said it was stale).
        by_query: dict[str, list[str]] = {}
        for answer in server.answers():
            by_query.setdefault(answer.callback_query_id, []).append(answer.text or "")
        assert any(len(texts) == 2 for texts in by_query.values())
        for texts in by_query.values():
            assert texts.count("") <= 1, texts
        deals = await storage.db.read("SELECT session_id, COUNT(*) AS n FROM deals "
                                      "GROUP BY session_id")
        assert sorted(row["n"] for row in deals) == [1] * GROUPS
        check_books(postgres_url)
        assert await storage.db.read("SELECT * FROM holds WHERE amount > 0") == []
        assert balancer.sent[workers[1].port] > 0
        assert json.dumps(balancer.sent)
    finally:
        for worker in workers:
            if worker.child is not None:
                worker.stop()
        await storage.close()
        await balancer.stop()
