"""Watch on Discord: someone not at the table presses Watch and gets the table in an ephemeral
message, edited in place as the game goes on, never faster than `SPACING`, until the game ends
or the interaction's token has run out (docs/playing.md, Discord; docs/architecture.md §5).

The real adapter on a real discord.py client against the fake Discord, as in
`test_discord_e2e`; time passes on the virtual clock.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

import games
from bot.discord import discord_watch
from bot.discord.discord_hands import TOKEN_LIFE
from bot.discord.discord_watch import SPACING
from bot.present.screens import Place
from tests.bot.test_discord_e2e import move_choices, open_game, play_deal
from tests.support.discord_server import (
    BOB,
    CHANNEL,
    GUILD,
    KIM,
    OLENA,
    STRANGER,
    Server,
    attachment_names,
    custom_ids,
)
from tests.support.fake_discord import User, button
from tests.support.helpers import short_match
from tests.support.logs import no_errors_logged  # noqa: F401 - autouse
from words.i18n import tr

pytestmark = pytest.mark.timeout(120)

PLACE = Place(str(GUILD), str(CHANNEL))


@pytest.fixture
async def server(tmp_path: Any) -> Any:
    running = Server(tmp_path / "discord.sqlite3")
    await running.start()
    yield running
    await running.stop()
    assert running.fake is not None
    assert running.fake.problems == []
    assert running.fake.limited == []


def watched(server: Server, user: User) -> list[dict[str, Any]]:
    assert server.fake is not None
    return [m for m in server.fake.ephemerals_for(user.id) if "watch.png" in attachment_names(m)]


def edits(server: Server, message: dict[str, Any]) -> list[float]:
    """When each edit of an ephemeral message was made (its interaction's `@original`)."""
    assert server.fake is not None
    token = message["interaction_token"]
    return [c.at for c in server.fake.calls
            if c.method == "PATCH" and f"/{token}/messages/@original" in c.path]


def opening(lang: str, key: str) -> str:
    """A note's words before its timestamp."""
    return tr(lang, key, until="\x00").partition("\x00")[0]


async def watch(server: Server, user: User) -> dict[str, Any]:
    table = server.table()
    assert sum(c.endswith("!watch") for c in custom_ids(table)) == 1
    await server.press(user, table, server.data(table, "!watch"))
    shown = watched(server, user)
    assert shown, "no table shown"
    return shown[-1]


async def test_watch_follows_the_game_until_it_ends(server: Server) -> None:
    rules = games.GAMES["dragon"]
    await open_game(server, {"game": "dragon", "options": " ".join(short_match(rules))},
                    (OLENA, BOB), 1)
    assert server.bot is not None
    sid = (await server.bot.manager.open_in(PLACE)).id  # type: ignore[union-attr]
    english, ukrainian = await watch(server, STRANGER), await watch(server, KIM)
    for message, lang in ((english, "en"), (ukrainian, "uk")):
        assert message["content"].startswith(opening(lang, "watch.live")), message["content"]
        assert tr(lang, "web.watching", 2) in message["content"] or message is english
        assert not message["components"], "a spectator presses nothing"
        assert message["embeds"][0]["description"], "the group's table, in words too"
        assert "hand.png" not in attachment_names(message)
    assert server.bot.watch.watching(sid) == 2
    first = edits(server, english)
    await play_deal(server, (OLENA, BOB))
    await server.wait_for(lambda: server.bot is not None and not server.bot.watch.watching(sid),
                          timeout=60)
    for message, lang in ((english, "en"), (ukrainian, "uk")):
        assert server.fake is not None
        shown = server.fake.messages[int(message["id"])]
        assert shown["content"] == tr(lang, "watch.over"), "the game's last table"
        at = edits(server, message)
        assert len(at) > len(first) + 1, "the table followed the game"
        gaps = [b - a for a, b in itertools.pairwise(at[1:])]  # (the first: the answer)
        assert all(gap >= SPACING * 0.9 for gap in gaps), gaps  # (less what a job prepares)


async def test_a_move_made_while_watch_answers_reaches_the_watcher(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Olena moves while Watch is still answering (after the table was read for it, before its
    watcher follows the game): the watcher's message comes to show her move, not a table one
    move old until the next."""
    await open_game(server, {"game": "dragon"}, (OLENA, BOB), 0)
    assert server.bot is not None
    sid = (await server.bot.manager.open_in(PLACE)).id  # type: ignore[union-attr]
    for user in (OLENA, BOB):
        await server.my_tiles(user)
    read = discord_watch.watched
    moved: list[int] = []

    async def read_while_a_move_lands(manager: Any, session_id: int, lang: str) -> Any:
        now = await read(manager, session_id, lang)
        if not moved:
            moved.append(now.version)
            user = next(u for u in (OLENA, BOB) if move_choices(server.hand(u) or {}))
            hand = server.hand(user)
            assert hand is not None
            custom, values = move_choices(hand)[0]
            await (server.press(user, hand, custom) if values is None
                   else server.choose(user, hand, custom, values))
        return now
    monkeypatch.setattr(discord_watch, "watched", read_while_a_move_lands)
    message = await watch(server, STRANGER)
    assert moved, "Watch was answered while Olena moved"
    await asyncio.sleep(SPACING * 2)
    await server.drain()
    now = await server.bot.manager.open_in(PLACE)
    assert now is not None and now.version > moved[0]
    assert server.bot.watch.watchers[sid][str(STRANGER.id)].version == now.version
    assert len(edits(server, message)) >= 2, "the answer, then the table after her move"


async def test_a_watch_whose_token_ran_out_is_left_as_it_is(server: Server) -> None:
    await open_game(server, {"game": "dragon"}, (OLENA, BOB), 1)
    assert server.bot is not None
    sid = (await server.bot.manager.open_in(PLACE)).id  # type: ignore[union-attr]
    message = await watch(server, STRANGER)
    watcher = server.bot.watch.watchers[sid][str(STRANGER.id)]
    watcher.since -= TOKEN_LIFE  # as if it had been pressed a quarter of an hour ago
    before = edits(server, message)
    await play_deal(server, (OLENA, BOB))
    await server.drain()
    assert edits(server, message) == before, "an interaction past its token is not edited"
    assert not server.bot.watch.watching(sid)


async def test_a_lobby_has_no_watch_and_a_forged_one_is_told_why(server: Server) -> None:
    await server.command(OLENA, "newgame", {"game": "dragon"})
    lobby = server.table()
    assert not any(c.endswith("!watch") for c in custom_ids(lobby)), "no Watch on a lobby"
    sid = int(server.data(lobby, "!start").split(":")[1])
    for user, lang in ((STRANGER, "en"), (KIM, "uk")):
        pressed = await server.act(button(f"g:{sid}:0:!watch", user=user))
        assert server.answer_text(pressed) == tr(lang, "watch.not_yet")
    assert server.bot is not None and not server.bot.watch.watching(sid)
