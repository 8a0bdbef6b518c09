"""What the web table's page is given to show (`bot.web.web_table`): each thing once, as the
chats say it. The taps themselves are the browser tests' (`tests/browser`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.web.web_table import opened, table_json
from tests.bot.test_web_table_games import PEOPLE, actor
from tests.support.fake_telegram import FakeTelegram
from tests.support.telegram_group import Group
from words.i18n import tr

pytestmark = pytest.mark.timeout(60)


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
