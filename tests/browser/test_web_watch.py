"""Watching a game from the group's Watch link, in a real headless Chromium on the real bot process
(docs/hosting.md, watching): the spectator's page shows the group's board, the seats and their tile
counts, says that its opener watches and how many do, offers Join for the computer's seat and no
move, follows the game live as the players move, and a press sent from it is refused. The page is
photographed before and after a move (kept in `test-artifacts/`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_web_table import chat_move, mover, shown_version, stored
from tests.support.browser import chromium, open_table, screenshot
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.telegram_group import BOB, OLENA
from tests.support.web_table import web_bot
from words.i18n import tr

pytestmark = pytest.mark.real_time
PEOPLE = (OLENA, BOB)
GUEST = User(4321, "Guest", "en")


async def test_a_spectators_page_follows_the_game_live(server: FakeTelegram,
                                                       tmp_path: Path) -> None:
    async with web_bot(server, tmp_path) as (group, base), chromium() as browser:
        sid = await group.open_game("dragon", PEOPLE, 1)
        page = await open_table(browser, base, GUEST, sid, watch=True)
        await page.wait_for_selector("#board:not([hidden])")
        await page.wait_for_function(
            "t => document.getElementById('watching').textContent.includes(t)",
            arg=tr("en", "web.watching", 1), timeout=10_000)
        assert tr("en", "web.spectator") in await page.inner_text("#watching")
        assert await page.locator("#hand").is_hidden(), "a spectator holds no tiles"
        assert await page.locator("#lobby button").all_inner_texts() == [tr("en", "btn.join")]
        seats = await page.locator("#seats li").all_inner_texts()
        assert len(seats) == 3 and all("·" in s for s in seats), seats
        await screenshot(page, "watch-before-a-move")
        session = await stored(group, sid)
        seat = mover(session)
        while seat is not None and seat >= len(PEOPLE):  # the computer's turn: it moves
            await shown_version(page, session.version + 1)
            session = await stored(group, sid)
            seat = mover(session)
        assert seat is not None
        board = await page.get_attribute("#board", "data-version")
        await chat_move(group, PEOPLE[seat], session)
        took = await shown_version(page, session.version + 1)
        await page.wait_for_function(
            "v => Number(document.getElementById('board').dataset.version) > v",
            arg=int(board or 0), timeout=10_000)
        await screenshot(page, "watch-after-a-move")
        assert took < 10
        status = await page.evaluate(
            """async (data) => (await fetch("api/press", {method: "POST",
                 headers: {Authorization: `tma ${Telegram.WebApp.initData}`,
                           "Content-Type": "application/json"},
                 body: JSON.stringify({data})})).status""",
            f"g:{sid}:{session.version + 1}:draw")
        assert status == 403
        assert not page.errors  # type: ignore[attr-defined]
