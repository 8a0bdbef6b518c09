"""The replay's data and pictures (`bot.web.web_replay`): what a token opens, and what it does
not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.deals.deal_check import check
from bot.deals.move_record import page, token
from bot.deals.replay_steps import as_json
from bot.web.web_replay import Replays
from storage import Storage
from tests.support.helpers import short_match
from tests.support.session_helpers import BOB, OLENA, close, lobby, manager, play_out
from words.i18n import tr

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
async def served(tmp_path) -> AsyncIterator[tuple[TestClient[Any, Any], Storage, int]]:
    m, rec = await manager(tmp_path / "db")
    rules = games.get("tails")
    sid = await lobby(m, rec, ["tails", *short_match(rules, 1)], [OLENA, BOB], computers=1)
    await play_out(m, rec, [OLENA, BOB])
    app = web.Application()
    Replays(m.storage, "dark").add_to(app.router, "/app")
    async with TestClient(TestServer(app)) as client:
        yield client, m.storage, sid
    await close(m)


async def kept(storage: Storage, sid: int) -> Any:
    deal = await storage.moves.deal(await storage.moves.deal_of(sid, 0))
    assert deal is not None and deal.moves is not None
    return deal


async def test_a_token_opens_every_step_and_its_boards(served):
    client, storage, sid = served
    deal = await kept(storage, sid)
    text = token(sid, 0, deal.moves.seed)
    answer = await client.get(f"/app/api/replay?d={text}&lang=en")
    assert answer.status == 200
    body = await answer.json()
    assert body == as_json(check(deal), "en")
    assert len(body["steps"]) == len(deal.moves.moves.split()) + 1
    assert all(len(step["hands"]) == 3 for step in body["steps"])
    board = await client.get(f"/app/api/replay/board?d={text}&step=1&lang=uk")
    assert board.status == 200 and board.content_type == "image/png"
    assert (await board.read()).startswith(b"\x89PNG")
    past = len(body["steps"])
    for step in (str(past), "-1", "x", "99999"):
        answer = await client.get(f"/app/api/replay/board?d={text}&step={step}")
        assert answer.status == 400


async def test_a_wrong_or_garbled_token_opens_nothing(served):
    client, storage, sid = served
    deal = await kept(storage, sid)
    good = token(sid, 0, deal.moves.seed)
    for text, status in ((f"{sid}_0_{'0' * 16}", 404), (f"{sid}_5_{good[-16:]}", 404),
                         (f"{sid + 1}_0_{good[-16:]}", 404), ("1_2", 400),
                         (good.upper(), 400), ("", 400)):
        answer = await client.get(f"/app/api/replay?d={text}&lang=en")
        assert answer.status == status, text
        assert (await answer.json())["error"].startswith(tr("en", "web.no_replay"))


async def test_a_deal_kept_without_moves_says_so(served):
    client, storage, sid = served
    deal = await kept(storage, sid)
    async with storage.db.write() as conn:
        await conn.execute("UPDATE deals SET seed = NULL, setup = NULL, moves = NULL")
    answer = await client.get(f"/app/api/replay?d={token(sid, 0, deal.moves.seed)}&lang=en")
    assert answer.status == 404
    assert "played before deals kept their moves" in (await answer.json())["error"]


def test_the_page_address_is_under_the_web_table():
    seed = "0" * 32
    assert page("https://example.org/app/", 7, 2, seed, "uk") == (
        f"https://example.org/app/replay.html?d={token(7, 2, seed)}&lang=uk")
    assert page("https://example.org/app", 7, 2, seed, "en").startswith(
        "https://example.org/app/replay.html?d=7_2_")


async def test_the_replay_button_is_a_link_on_both_platforms():
    import discord

    from bot.discord.discord_components import view_of
    from bot.present.screens import Button
    from bot.telegram.telegram_messages import inline_markup

    url = page("https://example.org/app/", 7, 2, "0" * 32, "en")
    keyboard = ((Button(tr("en", "btn.replay"), url=url),),)
    view = view_of(keyboard)
    assert view is not None
    (item,) = view.children
    assert isinstance(item, discord.ui.Button)
    assert item.url == url and item.style is discord.ButtonStyle.link
    markup = inline_markup(keyboard, "gupai_bot")
    assert markup is not None and markup.inline_keyboard[0][0].url == url
