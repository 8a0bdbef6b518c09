"""A real headless Chromium for the web table's tests, driven by Playwright.

The browser is Debian's `chromium-headless-shell` package (`.ci/run` installs it): Chromium's
old headless shell, the build Playwright itself runs headless, whose pages cost a fifth less
processor time than the whole browser's; Debian's `chromium` serves where only it is installed.
Playwright's own download of a browser is not used. When neither is there the tests fail and
say what to install, rather than pass. The page is opened as a Telegram client opens a Mini
App: at a phone's size, with the launch parameters after `#`, and with `telegram.org`'s script
answered by a stand-in (or refused, to show the page also works without it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, Request, Route, async_playwright

from tests.support.fake_telegram import User
from tests.support.miniapp import WEB_APP_STUB, init_data, launch_url
from tests.support.telegram_group import TOKEN

PHONE = {"width": 390, "height": 844}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(os.environ.get("GUPAI_TEST_ARTIFACTS",
                                Path(__file__).resolve().parents[2] / "test-artifacts"))
"""Where screenshots of the web table are kept (CI keeps the folder)."""
NODE_CACHE = Path(__file__).resolve().parents[2] / ".pytest_cache" / "playwright-node"
"""Where Node keeps the code it has compiled of Playwright's driver (`NODE_COMPILE_CACHE`),
which every test's `chromium()` starts anew: with it kept, a start costs a quarter less."""


def chromium_path() -> str:
    found = os.environ.get("GUPAI_CHROMIUM") or next(
        filter(None, map(shutil.which, ("chromium-headless-shell", "chromium",
                                        "chromium-browser"))), None)
    if not found:
        pytest.fail("Chromium is missing: the web table's tests need Debian's "
                    "`chromium-headless-shell` package (`apt-get install chromium-headless-shell`;"
                    " .ci/run installs it), or GUPAI_CHROMIUM naming a Chromium binary.",
                    pytrace=False)
    return found


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    path = chromium_path()
    os.environ.setdefault("NODE_COMPILE_CACHE", str(NODE_CACHE))
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


async def open_table(browser: Browser, base: str, user: User, session: int, *,
                     theme: str = "light", telegram_script: bool = True,
                     data: str | None = None, direct: bool = True, watch: bool = False,
                     serve: Callable[[Route, Request], Awaitable[None]] | None = None) -> Page:
    """The web table as `user` opens it from Telegram: by the group's direct link (`direct`,
    the session in the signed start parameter; `watch`: its Watch link) or a private chat's
    button (`?s=`). `serve` answers the page's own requests instead of a server."""
    page = await new_page(browser, base, theme=theme, telegram_script=telegram_script,
                          serve=serve)
    await visit(page, base, user, session, theme=theme, data=data, direct=direct, watch=watch)
    return page


async def new_page(browser: Browser, base: str, *, theme: str = "light",
                   telegram_script: bool = True,
                   serve: Callable[[Route, Request], Awaitable[None]] | None = None) -> Page:
    """An empty page in a context of its own, at a phone's size, in `theme`'s colour scheme."""
    context = await browser.new_context(viewport=PHONE, device_scale_factor=2,
                                        color_scheme="dark" if theme == "dark" else "light")
    if serve is not None:
        await context.route(f"{base}**", serve)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]

    async def telegram(route: Route) -> None:
        if telegram_script:
            await route.fulfill(body=WEB_APP_STUB, content_type="text/javascript")
        else:
            await route.abort()
    await page.route("https://telegram.org/**", telegram)
    return page


async def visit(page: Page, base: str, user: User, session: int, *, theme: str = "light",
                data: str | None = None, direct: bool = True, watch: bool = False) -> None:
    """Open the web table in `page` as `open_table` does. A page already open on the table
    is left first, since two launches differ only after `#`, which would not load it anew."""
    if page.url != "about:blank":
        await page.goto("about:blank")
    start = f"{'w' if watch else 's'}{session}" if direct else ""
    signed = data if data is not None else init_data(user, TOKEN, start=start)
    await page.goto(launch_url(base, signed, theme=theme, start=start,
                               query="" if direct else f"s={session}"))


async def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
