"""A hypothesis state machine: random sequences of chip operations against a plain model.

Whatever the order of grants, refills, chips brought to tables, settlements (some applied twice,
some asking more than a table holds), people leaving tables, tables closing and adjustments:
no balance and no hold goes below zero, every chat's balances plus its held chips add up to its
grants, refills and adjustments, each balance and hold equals the model's, and a chip on a table
comes back exactly once. On both backends: each example has a database of its own.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from storage import SeatResult, Session, Settlement, Storage, StorageError, TableChips
from tests.support import postgres

GRANT = 50
FLOOR = 30


NewDatabase = Callable[[], tuple[Path | str, Callable[[], None]]]
"""Where a fresh database is, and what throws it away."""


class ChipBooks(RuleBasedStateMachine):
    users = Bundle("users")

    def __init__(self, new_database: NewDatabase) -> None:
        super().__init__()
        target, self.discard = new_database()
        self.loop = asyncio.new_event_loop()
        self.store: Storage = self.run(Storage.open(target, grant=GRANT))
        self.chats: list[int] = []
        self.tables: dict[int, Session] = {}
        """The open session of each chat."""
        self.balances: dict[tuple[int, int], int] = {}
        self.held: dict[tuple[int, int], int] = {}
        """(session, user): chips on the table."""
        self.issued: dict[int, int] = {}
        self.deals: list[Settlement] = []
        self.refilled: set[tuple[int, int, str]] = set()
        self.adjusted: set[tuple[int, int, str]] = set()
        self.names = 0

    def run(self, coro):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        self.discard()

    def _join(self, chat: int, user: int) -> None:
        if (chat, user) not in self.balances:
            self.balances[chat, user] = GRANT
            self.issued[chat] = self.issued.get(chat, 0) + GRANT

    def _save(self, chat_index: int, chips: TableChips | None = None,
              settlement: Settlement | None = None, status: str = "active") -> None:
        session = self.tables[chat_index]
        saved = self.run(self.store.sessions.save(
            session.but(version=session.version + 1, status=status), session.version,
            settlement, chips))
        self.tables[chat_index] = saved

    def _new_table(self, chat_index: int) -> None:
        self.tables[chat_index] = self.run(self.store.sessions.create(
            self.chats[chat_index], "dragon", {}, [], status="active"))

    @initialize()
    def make_chats(self) -> None:
        for index, title in enumerate(("a", "b")):
            chat = self.run(self.store.accounts.chat("telegram", title, title))
            self.chats.append(chat)
            self.issued[chat] = 0
            self._new_table(index)

    @rule(target=users, name=st.text(min_size=1, max_size=12))
    def add_user(self, name: str) -> int:
        self.names += 1
        return int(self.run(self.store.accounts.user("discord", self.names, name)))

    @rule(chat=st.integers(0, 1), user=users, day=st.sampled_from(["d1", "d2"]))
    def look_and_refill(self, chat: int, user: int, day: str) -> None:
        chat_id = self.chats[chat]
        self._join(chat_id, user)
        held = sum(v for (s, u), v in self.held.items() if u == user
                   and s in {t.id for c, t in self.tables.items() if self.chats[c] == chat_id})
        wallet = self.run(self.store.accounts.wallet(chat_id, user, FLOOR, day))
        total = self.balances[chat_id, user] + held
        if total < FLOOR and (chat_id, user, day) not in self.refilled:
            self.refilled.add((chat_id, user, day))
            self.balances[chat_id, user] += FLOOR - total
            self.issued[chat_id] += FLOOR - total
            assert wallet.refilled == FLOOR - total
        else:
            assert wallet.refilled == 0
        assert (wallet.balance, wallet.held) == (self.balances[chat_id, user], held)

    @rule(chat=st.integers(0, 1), players=st.lists(users, min_size=1, max_size=4, unique=True),
          data=st.data())
    def bring(self, chat: int, players: list[int], data: st.DataObject) -> None:
        chat_id, session = self.chats[chat], self.tables[chat]
        amounts = [data.draw(st.integers(0, self.balances.get((chat_id, u), GRANT)))
                   for u in players]
        for u, a in zip(players, amounts, strict=True):
            if a:  # bringing nothing is no first appearance
                self._join(chat_id, u)
        keep = frozenset(u for (s, u) in self.held if s == session.id) | set(players)
        self._save(chat, TableChips(keep, tuple(zip(players, amounts, strict=True))))
        for u, a in zip(players, amounts, strict=True):
            if a:
                self.balances[chat_id, u] -= a
                self.held[session.id, u] = self.held.get((session.id, u), 0) + a

    @rule(chat=st.integers(0, 1), data=st.data())
    def settle(self, chat: int, data: st.DataObject) -> None:
        chat_id, session = self.chats[chat], self.tables[chat]
        seated = sorted(u for (s, u), v in self.held.items() if s == session.id and v > 0)
        if len(seated) < 2:
            return
        greedy = data.draw(st.booleans())
        losses = [data.draw(st.integers(0, self.held[session.id, u] + (5 if greedy else 0)))
                  for u in seated[:-1]]
        deltas = [-x for x in losses] + [sum(losses)]
        deal = Settlement(session.id, len(self.deals), chat_id, "dragon", "out", tuple(
            SeatResult(u, 0, d, d > 0) for u, d in zip(seated, deltas, strict=True)))
        if any(-d > self.held[session.id, u] for u, d in zip(seated, deltas, strict=True)):
            try:  # more than a table holds: refused whole
                self._save(chat, settlement=deal)
            except StorageError:
                return
            raise AssertionError("a settlement took more than the table held")
        self._save(chat, settlement=deal)
        self.deals.append(deal)
        for u, d in zip(seated, deltas, strict=True):
            self.held[session.id, u] += d

    @rule(data=st.data())
    def settle_again(self, data: st.DataObject) -> None:
        if self.deals:
            deal = data.draw(st.sampled_from(self.deals))
            assert not self.run(self.store.accounts.settle(deal))

    @rule(chat=st.integers(0, 1), data=st.data())
    def someone_leaves(self, chat: int, data: st.DataObject) -> None:
        chat_id, session = self.chats[chat], self.tables[chat]
        seated = sorted(u for (s, u) in self.held if s == session.id)
        if not seated:
            return
        leaving = data.draw(st.sampled_from(seated))
        self._save(chat, TableChips(frozenset(seated) - {leaving}))
        self.balances[chat_id, leaving] += self.held.pop((session.id, leaving))
        # Leaving twice returns nothing more.
        self._save(chat, TableChips(frozenset(seated) - {leaving}))

    @rule(chat=st.integers(0, 1), status=st.sampled_from(["finished", "abandoned"]))
    def table_closes(self, chat: int, status: str) -> None:
        chat_id, session = self.chats[chat], self.tables[chat]
        self._save(chat, status=status)
        for (s, u) in [k for k in self.held if k[0] == session.id]:
            self.balances[chat_id, u] += self.held.pop((s, u))
        self._new_table(chat)

    @rule(chat=st.integers(0, 1), user=users, amount=st.integers(-100, 100),
          ref=st.sampled_from(["x", "y"]))
    def adjust(self, chat: int, user: int, amount: int, ref: str) -> None:
        chat_id = self.chats[chat]
        if self.balances.get((chat_id, user), GRANT) + amount < 0:
            try:
                self.run(self.store.accounts.adjust(chat_id, user, amount, ref))
            except ValueError:
                return  # refused whole: not even a first appearance's grant is kept
            raise AssertionError("an adjustment took a balance below zero")
        self._join(chat_id, user)
        applied = self.run(self.store.accounts.adjust(chat_id, user, amount, ref))
        assert applied == ((chat_id, user, ref) not in self.adjusted)
        if applied:
            self.adjusted.add((chat_id, user, ref))
            self.balances[chat_id, user] += amount
            self.issued[chat_id] += amount

    @invariant()
    def books_balance(self) -> None:
        if not self.chats:
            return
        for chat_id in self.chats:
            rows = self.run(self.store.db.read(
                "SELECT user_id, balance FROM balances WHERE chat_id = ?", (chat_id,)))
            stored = {r["user_id"]: r["balance"] for r in rows}
            expected = {u: b for (c, u), b in self.balances.items() if c == chat_id}
            assert stored == expected
            assert min(stored.values(), default=0) >= 0
            holds = self.run(self.store.db.read(
                "SELECT session_id, user_id, amount FROM holds WHERE chat_id = ?", (chat_id,)))
            on_tables = {(r["session_id"], r["user_id"]): r["amount"] for r in holds}
            mine = {t.id for c, t in self.tables.items() if self.chats[c] == chat_id}
            assert {k: v for k, v in on_tables.items() if v} == \
                {k: v for k, v in self.held.items() if k[0] in mine and v}
            assert sum(stored.values()) + sum(on_tables.values()) == self.issued[chat_id]


def sqlite_files(template: Path) -> NewDatabase:
    """Fresh SQLite files: copies of `template`, a database made and closed once (as good as a
    new one, without its schema made anew for each example: a quarter of the test's time)."""
    async def made() -> None:
        await (await Storage.open(template, grant=GRANT)).close()
    asyncio.run(made())

    def new_database() -> tuple[Path, Callable[[], None]]:
        folder = Path(tempfile.mkdtemp())
        shutil.copyfile(template, folder / "m.sqlite3")
        return folder / "m.sqlite3", lambda: shutil.rmtree(folder, ignore_errors=True)
    return new_database


def test_the_books_follow_the_model(backend: str, request: pytest.FixtureRequest,
                                    tmp_path: Path) -> None:
    new_database: NewDatabase
    if backend == "postgres":
        url = request.getfixturevalue("postgres_url")  # emptied for each example

        def emptied() -> tuple[str, Callable[[], None]]:
            return url, lambda: postgres.empty(url)
        new_database = emptied
    else:
        new_database = sqlite_files(tmp_path / "template.sqlite3")

    # Each step waits for the database (its own thread, or the server), so its time says how
    # busy the machine is, not how fast the code is: no deadline. Hypothesis times its draws on
    # the wall clock, between those waits, and on a loaded machine a draw is descheduled as
    # long as anything else runs: the too-slow check then measures the machine's load, which
    # is what Hypothesis lets an I/O-bound test switch off.
    run_state_machine_as_test(lambda: ChipBooks(new_database), settings=settings(
        max_examples=40, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))
