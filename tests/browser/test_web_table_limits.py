"""The web table in a real headless Chromium when the server holds it back
(`bot.service.http_guard`, `bot.web.web_streams`): a 429 is a note, after which the page asks again
once the server's wait is over; a stream closed for a newer window of the same person stops
following and says so. The page's requests are answered by the test."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from playwright.async_api import Page, Request, Route

from bot.web.web_table import PICKS, WORDS
from tests.support.browser import chromium, open_table, screenshot
from tests.support.telegram_group import BOB
from words.i18n import tr

pytestmark = pytest.mark.real_time
BASE = "http://gupai.test/app/"


def table(lang: str = "en") -> dict[str, Any]:
    """A lobby as the page is given it."""
    words: dict[str, Any] = {w: tr(lang, f"web.{w}") for w in WORDS}
    words["pick_more"] = [tr(lang, "web.pick_more", n) for n in range(PICKS)]
    return {"session": 7, "version": 3, "status": "lobby", "lang": lang, "theme": "light",
            "words": words, "board": False, "buttons": [], "seats": [], "hand": None,
            "table": {"before": "Dragon · lobby\nOlena, Bob", "after": "", "left": None}}


async def served_page(browser: Any, answers: dict[str, list[tuple[int, str]]],
                      asked: list[str]) -> Page:
    """The page, its API answered from `answers` (per path, one answer per request, the last
    one repeated); every API request it makes is noted in `asked`."""
    async def answer(route: Route, request: Request) -> None:
        path = request.url.removeprefix(BASE).split("?")[0]
        if path in ("", "app.js", "app.css", "index.html"):
            name = path or "index.html"
            body = resources.files("bot.web").joinpath("static", name).read_bytes()
            kind = {"js": "text/javascript", "css": "text/css"}.get(name.rsplit(".")[-1],
                                                                    "text/html")
            await route.fulfill(body=body, content_type=kind)
            return
        asked.append(path)
        queue = answers.get(path, [(503, "")])
        status, body = queue.pop(0) if len(queue) > 1 else queue[0]
        if status == 429:
            await route.fulfill(status=429, headers={"Retry-After": "1"},
                                content_type="application/json",
                                body=json.dumps({"error": tr("en", "web.slow_down")}))
        elif path == "api/events":
            await route.fulfill(status=status, body=body, content_type="text/event-stream")
        else:
            await route.fulfill(status=status, body=body, content_type="application/json")
    return await open_table(browser, BASE, BOB, 7, serve=answer)


async def test_too_many_requests_is_a_note_then_the_table(tmp_path: Any) -> None:
    asked: list[str] = []
    answers = {"api/table": [(429, ""), (200, json.dumps(table()))],
               "api/events": [(429, ""), (503, "")]}
    async with chromium() as browser:
        page = await served_page(browser, answers, asked)
        await page.wait_for_function(
            "document.getElementById('toast').textContent.includes('Too many requests')")
        await page.wait_for_function("document.body.dataset.version === '3'", timeout=10_000)
        await screenshot(page, "web-table-slow-down")
        assert asked.count("api/table") >= 2
        assert not page.errors  # type: ignore[attr-defined]


async def test_a_stream_closed_for_a_newer_window_stops_following(tmp_path: Any) -> None:
    asked: list[str] = []
    answers = {"api/table": [(200, json.dumps(table()))],
               "api/events": [(200, 'data: {"closed": "elsewhere"}\n\n')]}
    async with chromium() as browser:
        page = await served_page(browser, answers, asked)
        await page.wait_for_selector(f"#note:has-text('{tr('en', 'web.elsewhere')[:20]}')",
                                     timeout=10_000)
        await page.wait_for_timeout(2500)
        assert asked.count("api/events") == 1, "it does not come back for more"
