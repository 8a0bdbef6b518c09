"""How the web table turns taps into a move, in a real headless Chromium, on tables written out
here (the page's requests are answered by the test, so every shape of hand can be tried):
a tile and its move; a play of several tiles, picked one by one, then confirmed; a word move
(draw, pass) in one tap; a tap that leads nowhere starting over."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

import pytest
from PIL import Image
from playwright.async_api import Page, Request, Route

from bot.present.presenter import countdown
from bot.web.webapp import back_png, tile_png
from tests.support.browser import chromium, open_table, screenshot
from tests.support.telegram_group import BOB
from words.i18n import tr

pytestmark = pytest.mark.real_time
BASE = "http://gupai.test/app/"
LETTERS = "ABCDEFGH"


def table(moves: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    """A table on the opener's turn with eight tiles and these moves."""
    words = {w: tr(lang, f"web.{w}") for w in (
        "your_tiles", "tap_tile", "no_moves", "connecting", "offline", "join", "board",
        "moves", "closed", "not_your_turn", "retry", "open_in_telegram")}
    words["pick_more"] = [tr(lang, "web.pick_more", n) for n in range(9)]
    words["clock"] = [countdown(lang, n) for n in range(301)]
    words["minutes"] = [tr(lang, "time.minutes", n) for n in range(3)]
    faces = ["6:6", "1:1", "4:4", "1:3", "5:5", "3:3", "2:2", "5:6"]
    return {
        "session": 7, "version": 3, "status": "active", "lang": lang, "theme": "dark",
        "words": words, "board": False, "buttons": [],
        "table": {"before": "Tien Gow · deal 1\nTo move: Bob · ", "after": "", "left": 60},
        "seats": [{"name": n, "tiles": 8, "moving": n == "Bob", "you": n == "Bob",
                   "automatic": False} for n in ("Olena", "Bob")],
        "hand": {
            "tiles": [{"letter": letter, "face": face,
                       "image": f"tile/chinese/{face.replace(':', '-')}.png"}
                      for letter, face in zip(LETTERS, faces, strict=True)],
            "down": [], "moves": moves, "controls": [], "your_turn": True,
            "text": {"before": "Your tiles\nYour turn: ", "after": ".", "left": 60},
        },
    }


def move(letters: str, verb: str = "play") -> dict[str, Any]:
    return {"label": f"{' '.join(letters)} {verb}".strip(), "letters": list(letters),
            "verb": verb, "data": f"g:7:3:{verb}.{letters or '-'}"}


@pytest.fixture
async def served() -> AsyncIterator[tuple[list[dict[str, Any]], list[str]]]:
    """The tables the page is given (the last one each time) and the payloads it presses."""
    tables: list[dict[str, Any]] = []
    pressed: list[str] = []
    yield tables, pressed


async def page_for(browser: Any, tables: list[dict[str, Any]], pressed: list[str],
                   boards: dict[int, bytes] | None = None) -> Page:
    """The page on the last of `tables`; `boards`: the board picture per version."""
    async def answer(route: Route, request: Request) -> None:
        path, _, query = request.url.removeprefix(BASE).partition("?")
        if path in ("", "app.js", "app.css", "index.html"):
            name = path or "index.html"
            body = resources.files("bot.web").joinpath("static", name).read_bytes()
            kind = {"js": "text/javascript", "css": "text/css"}.get(name.rsplit(".")[-1],
                                                                    "text/html")
            await route.fulfill(body=body, content_type=kind)
        elif path == "api/table":
            await route.fulfill(body=json.dumps(tables[-1]), content_type="application/json")
        elif path == "api/press":
            pressed.append(json.loads(request.post_data or "{}")["data"])
            await route.fulfill(body='{"toast": ""}', content_type="application/json")
        elif path == "api/events":
            await route.fulfill(body="", status=503)
        elif path == "api/board" and boards is not None:
            version = int(dict(p.split("=") for p in query.split("&"))["version"])
            await route.fulfill(body=boards[version], content_type="image/png")
        else:  # a tile's face or back, as the server draws it
            family, _, faces = path.removeprefix("tile/").partition("/")
            if faces == "back.png":
                await route.fulfill(body=back_png(family, 120, "dark"),
                                    content_type="image/png")
                return
            a, b = faces.removesuffix(".png").split("-")
            await route.fulfill(body=tile_png(family, int(a), int(b), 120, "dark"),
                                content_type="image/png")
    page = await open_table(browser, BASE, BOB, 7, theme="dark", serve=answer)
    await page.wait_for_selector(".tile")
    return page


async def pressed_once(page: Page, pressed: list[str]) -> None:
    for _ in range(50):
        if pressed:
            return
        await page.wait_for_timeout(50)


async def tap_tile(page: Page, letter: str) -> None:
    await page.click(f".tile[data-letter='{letter}']")


async def shown_moves(page: Page) -> list[str]:
    return [t.strip() for t in await page.locator("#moves button").all_inner_texts()]


async def test_a_tile_then_its_move(served: Any) -> None:
    tables, pressed = served
    tables.append(table([move("A", "left"), move("A", "right"), move("C", "left"),
                         move("", "draw")]))
    async with chromium() as browser:
        page = await page_for(browser, tables, pressed)
        assert await shown_moves(page) == ["draw"], "a word move is one tap"
        assert await page.inner_text("#hint") == tr("en", "web.tap_tile")
        playable = await page.eval_on_selector_all(
            ".tile.playable", "t => t.map(e => e.dataset.letter)")
        assert playable == ["A", "C"]
        assert await page.locator(".tile[data-letter='B']").is_disabled()
        await tap_tile(page, "A")
        assert await shown_moves(page) == ["A left", "A right"]
        await page.click("#moves button >> text=A right")
        await pressed_once(page, pressed)
        assert pressed == ["g:7:3:right.A"]


async def test_a_face_down_follow_of_four_is_its_tiles_then_the_move(served: Any) -> None:
    tables, pressed = served
    follows = [move("".join(c), "down") for c in itertools.combinations(LETTERS, 4)]
    assert len(follows) == 70
    tables.append(table(follows))
    async with chromium() as browser:
        page = await page_for(browser, tables, pressed)
        taps = 0
        for count, letter in enumerate("BDEG", start=1):
            await tap_tile(page, letter)
            taps += 1
            left = [m for m in follows if set("BDEG"[:count]) <= set(m["letters"])]
            if len(left) > 8:
                assert await shown_moves(page) == []
                assert await page.inner_text("#hint") == tr("en", "web.pick_more", 4 - count)
        assert (await shown_moves(page))[:1] == ["B D E G down"]
        await screenshot(page, "taps-face-down-follow")
        await page.click("#moves button >> nth=0")
        taps += 1
        await pressed_once(page, pressed)
        assert pressed == ["g:7:3:down.BDEG"] and taps == 5
        await page.wait_for_function("() => !document.querySelector('.tile.selected')")


async def test_a_tap_that_leads_nowhere_starts_over(served: Any) -> None:
    tables, pressed = served
    tables.append(table([move("AB", "pair"), move("CD", "pair"), move("A", "lead")]))
    async with chromium() as browser:
        page = await page_for(browser, tables, pressed)
        await tap_tile(page, "A")
        assert await shown_moves(page) == ["A lead", "A B pair"]
        await tap_tile(page, "C")  # no move plays A and C: C alone is picked
        assert await page.eval_on_selector_all(
            ".tile.selected", "t => t.map(e => e.dataset.letter)") == ["C"]
        assert await shown_moves(page) == ["C D pair"]
        await tap_tile(page, "C")  # a second tap puts it back
        assert await page.locator(".tile.selected").count() == 0
        assert pressed == []


async def test_tiles_laid_face_down_are_shown_face_down_and_never_played(served: Any) -> None:
    """The board counts the tiles a seat laid face down (Tails, Dragon, Ce Deng); its own
    tiles show them too, as backs that no tap plays."""
    tables, pressed = served
    shown = table([move("A", "left")])
    shown["hand"]["down"] = [{"face": "6:4", "label": tr("en", "web.face_down", face="6:4"),
                              "image": "tile/chinese/back.png"}]
    tables.append(shown)
    async with chromium() as browser:
        page = await page_for(browser, tables, pressed)
        down = page.locator(".tile.down")
        assert await down.count() == 1
        assert await down.get_attribute("data-down") == "6:4"
        assert await down.locator("img").get_attribute("alt") == "6:4, laid face down"
        assert await page.locator(".tile").count() == len(LETTERS) + 1
        await down.click()
        assert await shown_moves(page) == [], "a face-down tile plays nothing"
        assert pressed == []


def board_png(height: int) -> bytes:
    """A plain board picture 600 pixels wide."""
    out = io.BytesIO()
    Image.new("RGB", (600, height), (40, 90, 60)).save(out, "PNG")
    return out.getvalue()


async def test_a_board_that_changes_size_leaves_the_tiles_under_the_finger(served: Any) -> None:
    """The board is drawn above the hand, and a move elsewhere can make it taller or shorter
    (a line that wraps, a pile that grows): the page keeps the tiles where they are on the
    screen, so a tap meant for one tile does not land on another or on nothing."""
    tables, pressed = served
    shown = table([move("A", "left")])
    shown["board"] = True
    tables.append(shown)
    heights = {3: 120, 4: 200, 5: 900, 6: 160}
    """A page shorter than the phone's screen, still shorter, far taller, then shorter than
    the page can scroll back."""
    boards = {version: board_png(height) for version, height in heights.items()}
    async with chromium() as browser:
        page = await page_for(browser, tables, pressed, boards)
        await page.wait_for_selector("#board[data-version='3']")
        tile = page.locator(".tile[data-letter='A']")
        first = await tile.bounding_box()
        for version in (4, 5, 6):
            tables.append({**shown, "version": version})
            await page.wait_for_selector(f"#board[data-version='{version}']")
            assert await page.eval_on_selector("#board", "b => b.naturalHeight") == (
                heights[version])
            now = await tile.bounding_box()
            assert first is not None and now is not None
            assert abs(now["y"] - first["y"]) < 1, f"version {version}: the tiles moved"
        await tap_tile(page, "A")
        await page.click("#moves button >> text=A left")
        await pressed_once(page, pressed)
        assert pressed == ["g:7:3:left.A"]
        assert page.errors == []  # type: ignore[attr-defined]
