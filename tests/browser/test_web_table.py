"""The web table in a real headless Chromium at a phone's size, on the real bot process.

docs/architecture.md §4: a tap on the page is a press. Whole deals are played by taps on the page
while the other person plays from the chat, and the chat and the page must agree all along: the same
moves, the same table, the same chips. Each person's page shows their own tiles only. Every game's
table is photographed in both themes (kept in `test-artifacts/`).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import statistics
import time
from pathlib import Path

import pytest
from playwright.async_api import Page

import games
from bot.present import payload
from bot.present.presenter import countdown
from bot.session.seating import Game, seat_index
from storage import Session
from tests.support.books import check_books
from tests.support.browser import PHONE, chromium, new_page, open_table, screenshot, visit
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.miniapp import init_data
from tests.support.telegram_group import BOB, GROUP, OLENA, TOKEN
from tests.support.web_table import call, deals, dump, own_faces, quiet_dump, web_bot
from words.i18n import tr

pytestmark = pytest.mark.real_time
PEOPLE = (OLENA, BOB)
MOST_TAPS = {"dragon": 2, "tiengow": 5}
"""Taps a move may take on the page: a tile and its move; in Tien Gow a face-down follow of
up to four tiles is its tiles, then the move."""



async def stored(group: object, sid: int) -> Session:
    session = await group.storage.sessions.get(sid)  # type: ignore[attr-defined]
    assert session is not None
    return session


def mover(session: Session) -> int | None:
    game = Game.of(session)
    state = game.state(session)
    return None if state is None else game.rules.to_move(state)


async def shown_version(page: Page, version: int, timeout: float = 10.0) -> float:
    """Seconds until the page shows the game at `version` (or later)."""
    start = time.monotonic()
    await page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version,
                                 timeout=timeout * 1000)
    return time.monotonic() - start


BOARD_SETTLED = """() => {
    const board = document.getElementById("board");
    return board.hidden || (board.dataset.version === document.body.dataset.version
                            && board.complete);
}"""
"""The board shows the page's version: until its picture has loaded, the hand below it moves
when it does, and a tap aimed at a tile may land beside it."""


async def web_move(page: Page) -> int:
    """One move on the page, by taps: a move button once one is offered, else the next tile
    that leads to one. Returns the taps it took."""
    before = await page.evaluate("document.body.dataset.version")
    await page.wait_for_function(BOARD_SETTLED, timeout=10_000)
    taps = 0
    while True:
        buttons = page.locator("#moves button:not([disabled])")
        if await buttons.count():
            await buttons.first.click()
            taps += 1
            await page.wait_for_function("v => document.body.dataset.version !== v",
                                         arg=before, timeout=10_000)
            return taps
        tile = page.locator(".tile:not(.selected):not(.dim):not([disabled])")
        assert await tile.count(), await page.inner_text("body")
        await tile.first.click()
        taps += 1
        assert taps <= 8, await page.inner_text("body")


async def chat_move(group: object, user: User, session: Session) -> None:
    """`user` plays their first move from their private chat's buttons (in two taps when the
    moves are grouped), once the hand shows this version's buttons."""
    prefix = f"{payload.PREFIX}:{session.id}:{session.version}:"

    def current(data: list[str]) -> list[str]:
        return [d for d in data if d.startswith(prefix)]
    server = group.server  # type: ignore[attr-defined]
    await server.wait_for(lambda: current(group.moves(user) + group.groups(user)))
    if not current(group.moves(user)):
        await group.answer_to(group.press(user, group.hand(user), current(group.groups(user))[0]))
        await server.wait_for(lambda: current(group.moves(user)))
    await group.answer_to(group.press(user, group.hand(user), current(group.moves(user))[0]))


async def web_table_agrees(group: object, user: User, base: str, sid: int) -> None:
    """The group's table message comes to say what the page's table says (the group's edits
    keep the chat's pace, so it may be a moment behind), but for the countdown, which the
    page counts itself."""
    server = group.server  # type: ignore[attr-defined]
    mine: list[str] = []
    theirs: list[str] = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        status, body = await call(base, user, f"api/table?session={sid}")
        assert status == 200, body
        table = body["table"]
        mine = (table["before"] + table["after"]).split("\n")
        table_message = next(m for m in reversed(server.messages(GROUP))
                             if any("startapp=" in (b.get("url") or "")
                                    for row in (m.reply_markup or {}).get("inline_keyboard", [])
                                    for b in row))
        theirs = (table_message.content or "").split("\n")
        if table["left"] is not None and len(theirs) == len(mine):
            at = table["before"].count("\n")
            del mine[at], theirs[at]
        if mine == theirs:
            return
        await asyncio.sleep(0.5)
    raise AssertionError((mine, theirs))


async def play_deal(group: object, base: str, tmp_path: Path, game: str, computers: int
                    ) -> tuple[int, list[int], list[float]]:
    """One whole deal: Olena on the page (her first move from the chat's buttons), Bob from
    the chat. Returns the session, the taps of each page move, and how long each of Bob's
    moves took to reach Olena's open page."""
    async with chromium() as browser:
        sid = await group.open_game(game, PEOPLE, computers)  # type: ignore[attr-defined]
        olena = await open_table(browser, base, OLENA, sid, theme="dark")
        bob = await open_table(browser, base, BOB, sid, theme="light", telegram_script=False,
                               direct=False)
        taps: list[int] = []
        reached: list[float] = []
        first = True
        db = tmp_path / "bot.sqlite3"
        while deals(db, sid) == 0:
            session = await stored(group, sid)
            seat = mover(session)
            if seat is None or session.status != "active":
                await asyncio.sleep(0.05)
                continue
            if seat == seat_index(session, str(OLENA.id)):
                if first:
                    await chat_move(group, OLENA, session)
                    first = False
                    continue
                await shown_version(olena, session.version)
                await olena.wait_for_selector("#hand-status.mine")
                taps.append(await web_move(olena))
            elif seat == seat_index(session, str(BOB.id)):
                await chat_move(group, BOB, session)
                moved = time.monotonic()
                version = (await stored(group, sid)).version
                await shown_version(olena, version)
                reached.append(time.monotonic() - moved)
            else:
                await asyncio.sleep(0.05)
        session = await stored(group, sid)
        await shown_version(olena, session.version)
        await shown_version(bob, session.version)
        for page, user in ((olena, OLENA), (bob, BOB)):
            faces = await page.eval_on_selector_all(".tile", "t => t.map(e => e.dataset.face)")
            assert faces == own_faces(session, seat_index(session, str(user.id)))
            assert page.errors == []  # type: ignore[attr-defined]
        await screenshot(olena, f"{game}-deal-end-dark")
        await screenshot(bob, f"{game}-deal-end-light")
        await web_table_agrees(group, OLENA, base, sid)
        return sid, taps, reached


async def settled(group: object, tmp_path: Path, sid: int) -> None:
    """The deal's result reached the group, its chips moved between the two people only (the
    computer plays for nothing), exactly as the result says, and the books are exact."""
    db = tmp_path / "bot.sqlite3"
    server = group.server  # type: ignore[attr-defined]
    await server.wait_for(lambda: any("gupai verify" in (m.content or "")
                                      for m in server.messages(GROUP)))
    with sqlite3.connect(db) as conn:
        paid = dict(conn.execute(
            "SELECT u.platform_id, l.amount FROM ledger l JOIN users u ON u.id = l.user_id "
            "JOIN deals d ON l.ref = 'deal:' || d.id WHERE l.kind = 'settlement' "
            "AND d.session_id = ?", (sid,)).fetchall())
    assert set(paid) == {str(u.id) for u in PEOPLE} and sum(paid.values()) == 0, paid
    check_books(db)


@pytest.mark.parametrize("game,computers", [("dragon", 1), ("tiengow", 2)])
async def test_a_whole_deal_by_taps(server: FakeTelegram, tmp_path: Path, game: str,
                                    computers: int) -> None:
    async with web_bot(server, tmp_path) as (group, base):
        sid, taps, reached = await play_deal(group, base, tmp_path, game, computers)
        assert taps, "Olena played from the page"
        assert max(taps) <= MOST_TAPS[game], taps
        assert reached and max(reached) <= 1.0, (
            f"Bob's moves reached the open page in {statistics.median(reached):.2f} s "
            f"(median), {max(reached):.2f} s at most")
        await settled(group, tmp_path, sid)


async def test_every_game_shows_its_table_and_only_its_players_tiles(server: FakeTelegram,
                                                                     tmp_path: Path) -> None:
    async with web_bot(server, tmp_path) as (group, base), chromium() as browser:
        sessions = []
        for number, rules in enumerate(games.GAMES.values()):
            group.chat = GROUP - 1 - number
            server.set_chat(group.chat, title=f"Table {number}", chat_type="supergroup")
            sessions.append((rules, await group.open_game(rules.id, (OLENA,),
                                                          rules.min_players - 1)))
        for theme, script in (("dark", True), ("light", False)):
            # One page a theme, taken from table to table as a phone's web view is.
            page = await new_page(browser, base, theme=theme, telegram_script=script)
            for rules, sid in sessions:
                await page.set_viewport_size(PHONE)
                await visit(page, base, OLENA, sid, theme=theme)
                await page.wait_for_selector("#board:not([hidden])")
                session = await stored(group, sid)
                faces = await page.eval_on_selector_all(
                    ".tile", "t => t.map(e => e.dataset.face)")
                shown = int(await page.evaluate("document.body.dataset.version"))
                if shown == session.version:
                    assert faces == own_faces(session, 0), rules.id
                background = await page.evaluate(
                    "getComputedStyle(document.body).backgroundColor")
                assert background == ("rgb(33, 33, 33)" if theme == "dark"
                                      else "rgb(255, 255, 255)"), (rules.id, theme)
                await screenshot(page, f"{rules.id}-{theme}")
                await page.set_viewport_size({"width": 360, "height": 740})
                wide = await page.evaluate("document.documentElement.scrollWidth")
                assert wide <= 360, f"{rules.id}: the page is {wide} px wide on a 360 px phone"
                assert page.errors == [], page.errors  # type: ignore[attr-defined]
            await page.context.close()


async def test_a_page_that_cannot_prove_who_opened_it_shows_nothing(
        server: FakeTelegram, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with web_bot(server, tmp_path) as (group, base), chromium() as browser:
        sid = await group.open_game("dragon", PEOPLE, 1)
        before = await quiet_dump(db)
        for why, data in (("forged", init_data(OLENA, TOKEN, start=f"s{sid}", forge=True)),
                          ("expired", init_data(OLENA, TOKEN, start=f"s{sid}",
                                                made=time.time() - 2 * 86400))):
            page = await open_table(browser, base, OLENA, sid, data=data)
            await page.wait_for_selector("#note:not([hidden])")
            assert await page.inner_text("#note") == tr("uk", "web.unsigned"), why
            assert await page.locator(".tile").count() == 0, why
            await screenshot(page, f"refused-{why}")
            await page.context.close()
        assert dump(db) == before


async def test_the_countdown_says_the_time_as_the_chat_does(server: FakeTelegram,
                                                             tmp_path: Path) -> None:
    """The page counts down by itself, in the chat's words and steps ("in 90 s"), never in
    a form of its own ("1:30")."""
    async with web_bot(server, tmp_path) as (group, base), chromium() as browser:
        sid = await group.open_game("tails", PEOPLE, 0)
        page = await open_table(browser, base, OLENA, sid, theme="dark")
        await page.wait_for_selector("#board:not([hidden])")
        status, body = await call(base, OLENA, f"api/table?session={sid}")
        assert status == 200 and body["table"]["left"] is not None, body
        lang = body["lang"]
        table = body["table"]
        start, end = table["before"].split("\n")[-1], table["after"].split("\n")[0]
        said = {start + countdown(lang, n) + end for n in range(1, 91)}
        await page.wait_for_function("() => document.getElementById('status').textContent")
        shown = await page.text_content("#status")
        assert shown in said, (shown, sorted(said)[:3])
        assert not re.search(r"\d:\d\d", shown or "")
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
