"""A hypothesis state machine: random sequences of chip operations against a plain model.

Whatever the order of grants, settlements (some applied twice), refunds and adjustments, every
chat's balances add up to its grants plus adjustments, and each balance equals the model's.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule

from storage import SeatResult, Settlement, Storage

GRANT = 50


class ChipBooks(RuleBasedStateMachine):
    users = Bundle("users")

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.mkdtemp()
        self.loop = asyncio.new_event_loop()
        self.store: Storage = self.run(Storage.open(Path(self.folder) / "m.sqlite3", grant=GRANT))
        self.chats: list[int] = []
        self.session = 0
        self.balances: dict[tuple[int, int], int] = {}
        self.issued: dict[int, int] = {}
        self.deals: list[Settlement] = []
        self.refunded: set[int] = set()
        self.adjusted: set[tuple[int, int, str]] = set()
        self.names = 0

    def run(self, coro):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.store.close())
        self.loop.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _join(self, chat: int, user: int) -> None:
        if (chat, user) not in self.balances:
            self.balances[chat, user] = GRANT
            self.issued[chat] = self.issued.get(chat, 0) + GRANT

    @initialize()
    def make_chats(self) -> None:
        for title in ("a", "b"):
            chat = self.run(self.store.accounts.chat("telegram", title, title))
            self.chats.append(chat)
            self.issued[chat] = 0
        self.session = self.run(self.store.sessions.create(self.chats[0], "dragon", {}, [])).id

    @rule(target=users, name=st.text(min_size=1, max_size=12))
    def add_user(self, name: str) -> int:
        self.names += 1
        return int(self.run(self.store.accounts.user("discord", self.names, name)))

    @rule(chat=st.integers(0, 1), user=users)
    def look_at_balance(self, chat: int, user: int) -> None:
        chat_id = self.chats[chat]
        self._join(chat_id, user)
        assert self.run(self.store.accounts.balance(chat_id, user)) == \
            self.balances[chat_id, user]

    @rule(chat=st.integers(0, 1), players=st.lists(users, min_size=2, max_size=4, unique=True),
          data=st.data())
    def settle(self, chat: int, players: list[int], data: st.DataObject) -> None:
        chat_id = self.chats[chat]
        deltas = data.draw(st.lists(st.integers(-500, 500), min_size=len(players) - 1,
                                    max_size=len(players) - 1))
        deltas.append(-sum(deltas))
        deal = Settlement(self.session, len(self.deals), chat_id, "dragon", "out", tuple(
            SeatResult(u, 0, d, d > 0) for u, d in zip(players, deltas, strict=True)))
        assert self.run(self.store.accounts.settle(deal))
        self.deals.append(deal)
        for seat in deal.seats:
            self._join(chat_id, seat.user_id)
            self.balances[chat_id, seat.user_id] += seat.delta

    @rule(data=st.data())
    def settle_again(self, data: st.DataObject) -> None:
        if self.deals:
            deal = data.draw(st.sampled_from(self.deals))
            assert not self.run(self.store.accounts.settle(deal))

    @rule(data=st.data())
    def refund(self, data: st.DataObject) -> None:
        if not self.deals:
            return
        index = data.draw(st.integers(0, len(self.deals) - 1))
        deal_id = index + 1  # deals get ids 1, 2, … in the order they were settled
        applied = self.run(self.store.accounts.refund_deal(deal_id))
        assert applied == (deal_id not in self.refunded)
        if applied:
            self.refunded.add(deal_id)
            deal = self.deals[index]
            for seat in deal.seats:
                self.balances[deal.chat_id, seat.user_id] -= seat.delta

    @rule(chat=st.integers(0, 1), user=users, amount=st.integers(-100, 100),
          ref=st.sampled_from(["x", "y"]))
    def adjust(self, chat: int, user: int, amount: int, ref: str) -> None:
        chat_id = self.chats[chat]
        applied = self.run(self.store.accounts.adjust(chat_id, user, amount, ref))
        assert applied == ((chat_id, user, ref) not in self.adjusted)
        if applied:
            self.adjusted.add((chat_id, user, ref))
            self._join(chat_id, user)
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
            assert sum(stored.values()) == self.issued[chat_id]


ChipBooks.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
TestChipBooks = ChipBooks.TestCase
