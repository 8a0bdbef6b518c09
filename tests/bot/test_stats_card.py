"""`/stats` end to end on both platforms: a card with the player's chips after each deal and
each game's figures, its text kept as the caption; a player without games gets words only.

The deals are settled straight into the bot's database (as a finished game would have), so the
figures the card must carry are known exactly; they are read back from the PNG the platform
received (`rendering.chart.charts_in`), never from its pixels.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.telegram.telegram_messages import CAPTION_LIMIT
from faces.presets import game_title
from rendering.chart import charts_in
from storage import SeatResult, Settlement, Storage, TableChips
from tests.support import discord_server as dc
from tests.support.fake_discord import slash
from tests.support.fake_telegram import FakeTelegram
from tests.support.telegram_group import BOB, GROUP, OLENA, Group
from words.i18n import tr

DEALS = (("dragon", 40), ("kapten", -90), ("dragon", 15), ("tiengow", -5))
"""(game, Bob's chips) per deal; Олена holds the other seat."""


async def settle(storage: Storage, platform: str, chat: int | str, bob: tuple[str, str],
                 other: tuple[str, str]) -> None:
    chat_id = await storage.accounts.chat(platform, chat, "")
    me = await storage.accounts.user(platform, *bob)
    them = await storage.accounts.user(platform, *other)
    session = await storage.sessions.create(chat_id, "dragon", {}, [], status="active",
                                            topic="elsewhere")
    await storage.sessions.save(session.but(version=1), 0, chips=TableChips(
        frozenset({me, them}), ((me, 200), (them, 200))))
    for no, (game, mine) in enumerate(DEALS, start=1):
        await storage.accounts.settle(Settlement(session.id, no, chat_id, game, "out", (
            SeatResult(me, 0, mine, mine > 0), SeatResult(them, 0, -mine, mine < 0))))
    await storage.sessions.save(session.but(status="finished", version=2), 1)


def check_card(png: bytes, lang: str) -> None:
    history, per_game = charts_in(png)
    balances = [1000]
    for _, mine in DEALS:
        balances.append(balances[-1] + mine)
    assert history["series"][0]["points"] == [[float(i), float(b)]
                                              for i, b in enumerate(balances)]
    # Most played first: Dragon (2 deals, both won, +55), then Kap Ten and Tien Gow.
    assert per_game["series"][0]["values"] == [55.0, -90.0, -5.0]
    titles = [game_title(g, None, lang) for g in ("dragon", "kapten", "tiengow")]
    assert per_game["categories"] == [tr(lang, "img.game_line", played, game=title, won=won)
                                      for title, played, won in zip(titles, (2, 1, 1), (2, 0, 0),
                                                                    strict=True)]


# ----- Telegram --------------------------------------------------------------------------------



async def test_telegram_stats_is_a_card_with_its_text_as_caption(group: Group,
                                                                 server: FakeTelegram) -> None:
    group.say(BOB, "/stats")
    await server.wait_for(lambda: any(tr("en", "stats.none") in (m.text or "")
                                      for m in server.messages(GROUP)))
    assert not any(m.has_photo for m in server.messages(GROUP)), "no games, no chart"
    assert group.storage is not None
    await settle(group.storage, "telegram", GROUP, (str(BOB.id), BOB.first_name),
                 (str(OLENA.id), OLENA.first_name))
    group.say(BOB, "/stats")
    await server.wait_for(lambda: any(m.has_photo for m in server.messages(GROUP)))
    card = next(m for m in server.messages(GROUP) if m.has_photo)
    caption = card.caption or ""
    assert caption.startswith(tr("en", "stats.title", name="Bob"))
    assert tr("en", "stats.line", 2, game="Dragon", won=2, net="+55") in caption
    assert len(caption) <= CAPTION_LIMIT
    assert card.photo is not None
    check_card(card.photo, "en")


# ----- Discord ---------------------------------------------------------------------------------


@pytest.fixture
async def discord(tmp_path: Path) -> Any:
    running = dc.Server(tmp_path / "discord.sqlite3")
    await running.start()
    yield running
    await running.stop()
    assert running.fake is not None and running.fake.problems == []


def answer_pngs(server: dc.Server) -> list[bytes]:
    assert server.fake is not None
    return [data for call in server.fake.calls for name, data in call.files
            if name == "answer.png"]


async def test_discord_stats_is_a_card_in_its_embed(discord: dc.Server) -> None:
    nothing = await discord.command(dc.OLENA, "stats")
    assert tr("uk", "stats.none") in nothing and answer_pngs(discord) == []
    assert discord.storage is not None
    await settle(discord.storage, "discord", dc.GUILD, (str(dc.OLENA.id), dc.OLENA.name),
                 (str(dc.BOB.id), dc.BOB.name))
    payload = await discord.act(slash("stats", user=dc.OLENA))
    (answer,) = discord.answers(payload)
    assert dc.attachment_names(answer) == ["answer.png"]
    text = dc.text_of(answer)
    assert tr("uk", "stats.title", name=dc.OLENA.name) in text
    assert tr("uk", "stats.line", 2, game="З'єднай дракона", won=2, net="+55") in text
    (png,) = answer_pngs(discord)
    check_card(png, "uk")
