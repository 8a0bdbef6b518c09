"""A finished deal's replay on the web table, in a real headless Chromium, on the real bot.

The deal is played from the chat; its result post in the group carries the Replay link, and the
page it opens steps through the deal (first, back, next, last, and playing on at a speed), every
hand face up, each step's board a picture the server draws.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.commandline.deal_replay import load
from tests.support.browser import PHONE, chromium, screenshot
from tests.support.fake_telegram import FakeTelegram
from tests.support.telegram_group import GROUP, OLENA
from tests.support.web_table import deals, web_bot
from words.i18n import tr

pytestmark = pytest.mark.real_time


def replay_links(server: FakeTelegram) -> list[str]:
    return [b["url"] for m in server.messages(GROUP)
            for row in (m.reply_markup or {}).get("inline_keyboard", []) for b in row
            if "replay.html" in (b.get("url") or "")]


async def step_shown(page: object, step: int) -> None:
    await page.wait_for_function(  # type: ignore[attr-defined]
        "n => document.body.dataset.step === String(n) && document.getElementById('board')"
        ".complete && document.getElementById('board').naturalWidth > 0", arg=step,
        timeout=15_000)


async def test_the_result_post_opens_a_replay_that_steps_both_ways(server: FakeTelegram,
                                                                   tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with web_bot(server, tmp_path) as (group, base), chromium() as browser:
        sid = await group.open_game("dragon deals=1", (OLENA,), 2)

        async def dealt() -> bool:
            return deals(db, sid) > 0
        await group.play(sid, (OLENA,), done=dealt)
        await server.wait_for(lambda: replay_links(server))
        (url,) = replay_links(server)
        assert url.startswith(f"{base}replay.html?d={sid}_0_")
        with sqlite3.connect(db) as conn:
            (deal_id,) = conn.execute("SELECT id FROM deals WHERE session_id = ?",
                                      (sid,)).fetchone()
        done = await load(str(db), deal_id)
        last = len(done.steps) - 1
        hands, _ = done.rules.dealt(done.steps[0].state)
        tiles = done.rules.tileset(done.options)

        context = await browser.new_context(viewport=PHONE, device_scale_factor=2)
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.clock.install()  # (playing on goes by the clock the test moves on)
        await page.goto(url)
        await step_shown(page, 0)
        # In the chat's language, which the link names.
        lang = parse_qs(urlsplit(url).query)["lang"][0]
        assert await page.inner_text("#heading") == tr(lang, "replay.step_deal", last=last)
        # Every hand face up: each seat's tiles as they were dealt.
        shown = await page.eval_on_selector_all(
            "#hands li", "rows => rows.map(r => [...r.querySelectorAll('img')].map(i => i.alt))")
        assert shown == [[f"{tiles.a[t]}:{tiles.b[t]}" for t in hand] for hand in hands]
        assert await page.is_disabled("#previous") and not await page.is_disabled("#next")

        await page.click("#next")
        await step_shown(page, 1)
        assert (await page.inner_text("#heading")).startswith(
            tr(lang, "replay.step", step=1, last=last, name="@").split("@")[0])
        assert await page.inner_text("#said")
        first_board = await page.evaluate("document.getElementById('board').src")
        await page.click("#next")
        await step_shown(page, 2)
        await page.click("#previous")
        await step_shown(page, 1)
        assert await page.evaluate("document.getElementById('board').src") == first_board
        await page.click("#last")
        await step_shown(page, last)
        assert await page.is_visible("#result")
        assert tr(lang, "replay.result") in await page.inner_text("#result")
        assert await page.is_disabled("#next")
        await screenshot(page, "replay-dragon-last")

        # Played on from the first step at a quarter of a second a move, to the end.
        await page.click("#first")
        await step_shown(page, 0)
        await page.select_option("#speed", "0.25")
        await page.click("#play")
        assert await page.evaluate("document.body.dataset.playing") == "yes"
        await page.clock.run_for(last * 250)
        await page.wait_for_function("n => document.body.dataset.step === String(n)", arg=last,
                                     timeout=10_000)
        await page.wait_for_function("() => document.body.dataset.playing === ''")
        assert errors == []

        # A link whose fingerprint is not the deal's shows nothing of it.
        forged = await context.new_page()
        await forged.goto(f"{base}replay.html?d={sid}_0_{'0' * 16}&lang=en")
        await forged.wait_for_selector("#note:not([hidden])")
        assert "This deal cannot be replayed." in await forged.inner_text("#note")
        assert await forged.is_hidden("#replay")
