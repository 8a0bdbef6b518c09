"""What the web table's page is given to show (`bot.web.web_table`): each thing once, as the
chats say it. The taps themselves are the browser tests' (`tests/browser`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web.web_table import opened, table_json
from tests.bot.test_web_table_games import PEOPLE, actor
from tests.support.fake_telegram import FakeTelegram
from tests.support.session_helpers import fix_seed
from tests.support.telegram_group import Group
from words.i18n import tr

pytestmark = pytest.mark.timeout(60)

SEED = "0" * 32
"""A session seed whose first deal of Tails leaves a seat unable to play."""


async def test_the_deal_fingerprint_is_shown_once(server: FakeTelegram, tmp_path: Path) -> None:
    group = Group(server, tmp_path / "bot.sqlite3")
    bot = await group.start()
    try:
        sid = await group.open_game("tails", PEOPLE, 0)
        for user in PEOPLE:
            body = await table_json(bot.manager, await opened(bot.manager, sid, actor(user)),
                                    "dark")
            mark = tr(body["lang"], "table.fingerprint", fingerprint="").strip()
            table, hand = body["table"], body["hand"]["text"]
            page = "\n".join((table["before"], table["after"], hand["before"], hand["after"]))
            assert page.count(mark) == 1, page
            assert mark in table["before"] + table["after"]
            # The hand keeps its own title and status: only the repeated line goes.
            assert hand["before"].split("\n")[0].startswith(tr(body["lang"], "web.your_tiles"))
    finally:
        await group.stop()


async def test_tiles_laid_face_down_come_with_the_hand_as_backs(
        server: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board counts the tiles a Tails seat laid face down; the page gets them with the
    seat's tiles (their faces for the seat alone), drawn as backs, and none to the others.
    A seat lays a tile down only when it cannot play, which not every deal comes to: the
    session's seed (drawn with `secrets`) is fixed to one whose deal does."""
    fix_seed(monkeypatch, SEED)
    group = Group(server, tmp_path / "bot.sqlite3")
    bot = await group.start()
    manager = bot.manager
    try:
        sid = await group.open_game("tails", PEOPLE, 0)
        dropped: dict[int, list[str]] = {}
        for _ in range(40):
            for user in PEOPLE:
                body = await table_json(manager, await opened(manager, sid, actor(user)),
                                        "dark")
                hand = body["hand"]
                assert [d["face"] for d in hand["down"]] == dropped.get(user.id, [])
                moves = hand["moves"]
                if moves:
                    drops = [m for m in moves if m["verb"] == "drop"]
                    choice = (drops or moves)[0]
                    if drops:
                        (letter,) = choice["letters"]
                        face = next(t["face"] for t in hand["tiles"] if t["letter"] == letter)
                    await manager.press(actor(user), choice["data"])
                    if drops:
                        dropped.setdefault(user.id, []).append(face)
                        seen = await opened(manager, sid, actor(user))
                        after = (await table_json(manager, seen, "dark"))["hand"]["down"]
                        assert [d["face"] for d in after] == dropped[user.id]
                        assert all(d["image"] == "tile/chinese/back.png?theme=dark"
                                   and d["face"] in d["label"] for d in after)
                        (other,) = [u for u in PEOPLE if u is not user]
                        theirs = await opened(manager, sid, actor(other))
                        assert (await table_json(manager, theirs, "dark"))["hand"]["down"] == []
                        return
        raise AssertionError("nobody laid a tile face down")
    finally:
        await group.stop()
