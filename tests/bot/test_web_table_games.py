"""Every game plays a whole deal from the web table alone: each person's moves are the ones the
page is given (`bot.web.web_table`), pressed as the page presses them, and nobody touches the
chat's buttons. Runs in one process on the virtual clock, so every game fits in the suite; the
HTTP side and the taps are the browser tests' (`tests/browser`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import games
from bot.present.screens import Actor
from bot.web.web_table import opened, table_json
from games.engine import Rules
from tests.support.books import check_books
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.telegram_group import BOB, OLENA, Group

PEOPLE = (OLENA, BOB)



def actor(user: User) -> Actor:
    return Actor(str(user.id), user.first_name, user.language_code)


@pytest.mark.parametrize("rules", list(games.GAMES.values()), ids=lambda r: r.id)
async def test_a_whole_deal_from_the_web_table(server: FakeTelegram, tmp_path: Path,
                                               rules: Rules) -> None:
    group = Group(server, tmp_path / "bot.sqlite3")
    bot = await group.start()
    try:
        sid = await group.open_game(rules.id, PEOPLE, rules.min_players - len(PEOPLE))
        manager = bot.manager
        storage = group.storage
        assert storage is not None
        pressed = 0
        ended = 0  # deals ended since the first press (a deal may end before anyone moves)

        async def deals() -> int:
            return len(await storage.db.read("SELECT id FROM deals WHERE session_id = ?",
                                             (sid,)))
        while not ended:
            before = await deals()
            moved = False
            for user in PEOPLE:
                seen = await opened(manager, sid, actor(user))
                body = await table_json(manager, seen, "dark")
                hand = body["hand"]
                assert hand is not None and [s["you"] for s in body["seats"]].count(True) == 1
                # Each seat carries its partnership where the game has them (`Rules.teams`).
                teams = rules.teams(len(body["seats"]))
                assert [s["team"] and s["team"]["index"] for s in body["seats"]] == (
                    list(teams) if teams is not None else [None] * len(body["seats"]))
                if hand["moves"]:
                    reply = await manager.press(actor(user), hand["moves"][0]["data"])
                    assert reply.toast == "", reply.toast
                    pressed += 1
                    moved = True
            if not moved:
                await asyncio.sleep(0.05)
            if pressed:
                ended += await deals() - before
            assert pressed < 500 and (await storage.sessions.get(sid)).status == "active"
        assert pressed > 0
        check_books(tmp_path / "bot.sqlite3")
    finally:
        await group.stop()
