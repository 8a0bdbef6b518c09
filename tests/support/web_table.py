"""The real `gupai telegram` process with its web table, against the fake Bot API, and the
page's requests as a test makes them (signed with the test token's init data)."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bot.session.seating import Game
from storage import Session
from tests.support.bot_process import ProcessGroup
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.miniapp import init_data
from tests.support.telegram_group import TOKEN

APP_NAME = "table"
COMPUTER_DELAY = 0.1
"""Seconds a computer waits before its move: a pause the page can follow, without making a
deal with computers take most of its time waiting for them."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def web_bot(server: FakeTelegram, tmp_path: Path, *, miniapp: bool = True
                  ) -> AsyncIterator[tuple[ProcessGroup, str]]:
    """The bot process serving the web table (`miniapp` False: an HTTP server without it),
    and the page's address."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/app/"
    env = {"GUPAI_HTTP_PORT": str(port), "GUPAI_COMPUTER_DELAY": str(COMPUTER_DELAY)}
    if miniapp:
        env |= {"TELEGRAM_MINIAPP_URL": base, "TELEGRAM_MINIAPP_NAME": APP_NAME}
    group = ProcessGroup(server, tmp_path / "bot.sqlite3", env)
    try:
        await group.launch()
        yield group, base
    finally:
        await group.close()


async def call(base: str, user: User | None, path: str, body: dict[str, Any] | None = None,
               *, data: str | None = None) -> tuple[int, Any]:
    """One request of the page's (`data`: init data to send instead of `user`'s own)."""
    signed = data if data is not None else init_data(user, TOKEN) if user else ""
    headers = {"Authorization": f"tma {signed}"} if signed or data is not None else {}
    async with aiohttp.ClientSession() as client:
        if body is None:
            request = client.get(base + path, headers=headers)
        else:
            request = client.post(base + path, headers=headers, json=body)
        async with request as answer:
            text = await answer.text()
            try:
                return answer.status, json.loads(text)
            except ValueError:
                return answer.status, text


GAME_AND_BOOKS = (
    "SELECT id, status, state, version, seats, deadline FROM sessions ORDER BY id",
    "SELECT * FROM ledger ORDER BY id", "SELECT * FROM balances ORDER BY chat_id, user_id",
    "SELECT * FROM holds ORDER BY 1, 2", "SELECT * FROM deals ORDER BY id",
    "SELECT * FROM deal_seats ORDER BY deal_id, seat")
"""What a request must not change: the games and the chips. (A session's `messages`, the
message ids the bot notes once the platform has shown its screens, change on their own pace,
as the chat's budget lets the edits through.)"""


def dump(db: Path) -> list[Any]:
    """The games and the books, as rows."""
    with sqlite3.connect(db) as conn:
        return [conn.execute(query).fetchall() for query in GAME_AND_BOOKS]


async def quiet_dump(db: Path) -> list[Any]:
    """The games and the books once the bot has stopped changing them (a computer's move
    comes after its pause)."""
    last = dump(db)
    while True:
        await asyncio.sleep(1.0)
        now = dump(db)
        if now == last:
            return now
        last = now


def deals(db: Path, session: int) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM deals WHERE session_id = ?",
                                (session,)).fetchone()[0])


def own_faces(session: Session, seat: int) -> list[str]:
    """The faces of the tiles a seat holds, from its own view (as the page names them)."""
    game = Game.of(session)
    view = game.rules.view(game.state(session), seat)
    return [f"{view.tiles.a[t]}:{view.tiles.b[t]}" for t in view.hand]
