"""A recording adapter for the session layer: what each user and the chat would see."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.present.screens import Actor, Button, Place, Reply, Screen
from bot.session.manager import SessionManager, Timing
from storage import Storage
from tests.support.virtual_time import VirtualLoop

PLACE = Place("-100", "", "Test group")
OLENA = Actor("1", "Олена", "uk")
BOB = Actor("2", "Bob", "en")
KIM = Actor("3", "Кім", "uk")
FAST = Timing(computer_delay=0.0, deal_pause=0.01, restore_grace=0.0)
SLOW = Timing(computer_delay=30, deal_pause=30)
"""Computers and deals that wait long enough for a test to look at every screen between."""


async def anyone() -> bool:
    """Every caller is an admin."""
    return True


async def nobody() -> bool:
    return False


@dataclass
class Recorder:
    replies: list[Reply] = field(default_factory=list)
    table: Screen | None = None
    hands: dict[str, Screen] = field(default_factory=dict)
    posts: list[Screen] = field(default_factory=list)
    private: list[tuple[str, Screen]] = field(default_factory=list)
    _new: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    async def __call__(self, reply: Reply) -> None:
        self._new.set()
        self.replies.append(reply)
        if reply.table is not None:
            self.table = reply.table
        for hand in reply.hands:
            self.hands[hand.user] = hand.screen
        self.posts.extend(post.screen for post in reply.posts)
        self.private.extend(reply.private)

    async def reply_after(self, seen: int, timeout: float) -> None:
        """Return once more than `seen` replies have come, or after `timeout` seconds."""
        self._new.clear()
        if len(self.replies) == seen:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), timeout)

    def button(self, screen: Screen | None, ending: str) -> Button:
        assert screen is not None
        for row in screen.keyboard:
            for button in row:
                if button.data.endswith(ending):
                    return button
        raise AssertionError(f"no button {ending!r} on {screen.text!r}")

    def moves(self, user: str) -> list[Button]:
        screen = self.hands.get(user)
        return [] if screen is None else [b for row in screen.keyboard for b in row
                                          if b.data and "!" not in b.data]

    def groups(self, user: str) -> list[Button]:
        """The first-tap buttons of a hand with too many moves for one screen."""
        screen = self.hands.get(user)
        return [] if screen is None else [b for row in screen.keyboard for b in row
                                          if b.data and "!pick-" in b.data]


async def manager(path: Path, timing: Timing = FAST) -> tuple[SessionManager, Recorder]:
    storage = await Storage.open(path)
    m = SessionManager(storage, "test", timing)
    recorder = Recorder()
    m.deliver = recorder
    return m, recorder


async def close(m: SessionManager) -> None:
    await m.close()
    await m.storage.close()


async def lobby(m: SessionManager, rec: Recorder, words: list[str], people: list[Actor],
                computers: int = 0) -> int:
    await m.new_game(PLACE, people[0], words)
    # The lobby's id, read before the start: computers alone may finish a short match at
    # once (a hand dealt complete), and the game is then no longer open.
    session = await m.open_in(PLACE)
    assert session is not None
    for actor in people[1:]:
        await m.join(PLACE, actor)
    for _ in range(computers):
        await m.press(people[0], rec.button(rec.table, "!add").data)
    reply = await m.press(people[0], rec.button(rec.table, "!start").data)
    assert reply.toast in ("Гру почато!", "The game begins!"), reply.toast
    return session.id


async def play_out(m: SessionManager, rec: Recorder, people: list[Actor], limit: float = 60
                   ) -> None:
    """Every person presses their first move whenever they have one (the first group's first
    move when the moves come in two taps), until the game closes.

    Nobody able to move, it looks again 5 ms later, and if nothing new has come by then, once
    the next reply comes (or a second has passed): on the virtual clock a computer's thirty
    seconds are otherwise six thousand looks at the database, which cost seconds of real
    time. On the real clock it keeps looking every 5 ms, as a reply may come from elsewhere."""
    patience = 1.0 if isinstance(asyncio.get_running_loop(), VirtualLoop) else 0.0

    async def loop() -> None:
        while await m.open_in(PLACE) is not None:
            pressed = False
            for actor in people:
                moves = rec.moves(actor.platform_id)
                groups = rec.groups(actor.platform_id)
                if not moves and groups:
                    await m.press(actor, groups[0].data)
                    moves = rec.moves(actor.platform_id)
                if moves:
                    reply = await m.press(actor, moves[0].data)
                    pressed = pressed or not reply.toast
            if not pressed:
                seen = len(rec.replies)
                await asyncio.sleep(0.005)
                if patience:
                    await rec.reply_after(seen, patience)
    await asyncio.wait_for(loop(), limit)


def balances(db: Path, platform: str) -> tuple[dict[str, int], int]:
    """Balances by user name in the platform's chats, and the chips granted in all."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT u.name, b.balance FROM balances b JOIN users u ON u.id = b.user_id "
            "JOIN chats c ON c.id = b.chat_id WHERE c.platform = ?", (platform,)).fetchall()
        granted = conn.execute(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE kind = 'grant'").fetchone()[0]
    return {name: balance for name, balance in rows}, granted


def fix_seed(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """Every session opened from now on in this test has `seed` for its secret (drawn with
    `secrets` otherwise), so its deals are the same on every run."""
    monkeypatch.setattr("bot.session.lobby.secrets.token_hex", lambda _n=None: seed)
