"""Each person in their own language: the group's table and posts in the chat's language, each
player's hand, notes and answers in theirs (their client's, or the one they chose with `/lang`
in the private chat), on Telegram and on Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.present.screens import HandUpdate, Reply
from tests.support.discord_server import Server, text_of
from tests.support.fake_discord import User as DiscordUser
from tests.support.fake_discord import slash
from tests.support.fake_telegram import FakeTelegram, User
from tests.support.telegram_group import BOB, GROUP, OLENA, Group
from words.i18n import LANGS, tr

pytestmark = pytest.mark.timeout(120)

LANG_LIST = ", ".join(LANGS)


def prefix(lang: str, key: str, **fields: object) -> str:
    """What a sentence says before its game's title."""
    return tr(lang, key, game="\x00", **fields).partition("\x00")[0]


def keep_hands(running: Any) -> dict[str, list[HandUpdate]]:
    """Every hand screen the session layer hands the adapter, by player."""
    hands: dict[str, list[HandUpdate]] = {}
    deliver = running.manager.deliver

    async def recording(reply: Reply) -> None:
        for hand in reply.hands:
            hands.setdefault(hand.user, []).append(hand)
        await deliver(reply)
    running.manager.deliver = recording
    return hands


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for user in (OLENA, BOB):
            fake.start_bot(user)
        fake.set_chat(GROUP, title="Friday dominoes")
        yield fake


async def open_game(t: Group, words: str, people: tuple[User, ...], computers: int) -> int:
    """The first person opens a lobby in the group, the others join through its link, and
    once everyone is seated the game starts."""
    t.say(people[0], f"/newgame {words}")
    await t.server.wait_for(t._has_lobby)
    link = t.join_link()
    for user in people[1:]:
        t.say(user, f"/start {link}", chat=user.id)
    await t.server.wait_for(lambda: all(u.first_name in t.lobby().content for u in people))
    for _ in range(computers):
        await t.answer_to(t.press(people[0], t.lobby(), t.data(t.lobby(), "!add")))
    await t.answer_to(t.press(people[0], t.lobby(), t.data(t.lobby(), "!start")))
    return int(link.removeprefix("j_"))


async def said_to(server: FakeTelegram, user: User, text: str) -> None:
    """Wait until the bot has written exactly `text` in the user's private chat."""
    await server.wait_for(lambda: any(m.text == text for m in server.messages(user.id)))


# ----- Telegram ---------------------------------------------------------------------------------

async def test_telegram_hands_come_in_each_players_language_and_the_table_in_the_chats(
        server: FakeTelegram, tmp_path: Path) -> None:
    """Bob (English client) opens the game, so the chat is English; Olena's client is
    Ukrainian: her hand, its picture, her notes and the answers to her presses are Ukrainian,
    while the group sees English."""
    t = Group(server, tmp_path / "db")
    running = await t.start()
    hands = keep_hands(running)
    try:
        sid = await open_game(t, "dragon deals=1", (BOB, OLENA), computers=1)
        await server.wait_for(lambda: t.hand(OLENA) is not None and t.hand(BOB) is not None)
        board = next(m for m in server.messages(GROUP) if m.has_photo)
        peek = t.press(OLENA, board, t.data(board, "!peek"))
        await t.answer_to(peek)
        alert = next(a for a in server.answers() if a.callback_query_id == f"cq{peek}")
        assert (alert.text or "").startswith(tr("uk", "peek.tiles", tiles=""))
        await t.play(sid, (BOB, OLENA))
        await running.drain()
    finally:
        await t.stop()

    # The group: the table and the deal's result in English.
    tables = t.tables[sid]
    assert all(prefix("en", "table.title", deal=1, stake=1) in s.text for s in tables[-3:])
    assert tr("en", "table.over") in tables[-1].text
    assert any(m.has_photo and tr("en", "result.title", deal=1) in (m.caption or "")
               for m in server.messages(GROUP))
    assert tables[-1].picture is not None and tables[-1].picture.frame.lang == "en"
    # Each hand in its player's language: words, picture, the computer's name, the end.
    for user, lang, computer in ((OLENA, "uk", "Комп'ютер 1"), (BOB, "en", "Computer 1")):
        mine = hands[str(user.id)]
        assert len(mine) > 2
        for hand in mine:
            assert hand.screen.text.startswith(prefix(lang, "hand.title", deal=1)), hand.screen.text
            picture = hand.screen.picture
            assert picture is not None and picture.frame.lang == lang
            assert computer in picture.frame.names
        assert tr(lang, "table.over") in mine[-1].screen.text
        shown = t.hand(user)
        assert shown is not None
        assert (shown.caption or "").startswith(prefix(lang, "hand.title", deal=1))
    # Olena's note on joining, in hers.
    assert any((m.text or "").startswith(prefix("uk", "lobby.joined_you"))
               for m in server.messages(OLENA.id))


async def test_telegram_lang_in_private_overrides_the_client_and_survives_a_restart(
        server: FakeTelegram, tmp_path: Path) -> None:
    t = Group(server, tmp_path / "db")
    await t.start()
    try:
        t.say(BOB, "/lang", chat=BOB.id)
        await said_to(server, BOB, tr("en", "lang.own_client", langs=LANG_LIST))
        t.say(BOB, "/lang klingon", chat=BOB.id)
        await said_to(server, BOB, tr("en", "lang.unknown", langs=LANG_LIST))
        t.say(BOB, "/lang uk", chat=BOB.id)
        await said_to(server, BOB, tr("uk", "lang.own_set"))
    finally:
        await t.stop()

    again = Group(server, tmp_path / "db")
    running = await again.start()
    hands = keep_hands(running)
    try:
        again.say(BOB, "/lang", chat=BOB.id)
        await said_to(server, BOB, tr("uk", "lang.own_chosen", langs=LANG_LIST))
        # Bob's client is English, so the chat he starts a game in is; his tiles are not.
        sid = await open_game(again, "dragon", (BOB, OLENA), computers=0)
        await server.wait_for(lambda: str(BOB.id) in hands)
        assert prefix("en", "table.title", deal=1, stake=1) in again.tables[sid][-1].text
        assert all(h.screen.text.startswith(prefix("uk", "hand.title", deal=1))
                   for h in hands[str(BOB.id)])
        # In the group, /lang is the chat's, and says where one's own is chosen.
        again.say(BOB, "/lang")
        await server.wait_for(lambda: any(
            m.text == tr("en", "lang.current", langs=LANG_LIST) + "\n" + tr("en", "lang.own_hint")
            for m in server.messages(GROUP)))
        # Chosen again mid-game: his next hand follows at once.
        again.say(BOB, "/lang en", chat=BOB.id)
        await said_to(server, BOB, tr("en", "lang.own_set"))
        shown = len(hands[str(BOB.id)])
        again.say(BOB, f"/start h_{sid}", chat=BOB.id)
        await server.wait_for(lambda: len(hands[str(BOB.id)]) > shown)
        assert hands[str(BOB.id)][-1].screen.text.startswith(prefix("en", "hand.title", deal=1))
    finally:
        await again.stop()


# ----- Discord ----------------------------------------------------------------------------------

OLGA = DiscordUser(201, "Ольга", "uk")
BEN = DiscordUser(202, "Ben", "en-GB")


async def test_discord_hands_follow_the_interaction_locale_and_lang_in_a_dm(
        tmp_path: Path) -> None:
    server = Server(tmp_path / "discord.sqlite3")
    running = await server.start()
    hands = keep_hands(running)
    try:
        answer = await server.command(BEN, "newgame", {"game": "threedozen"})
        assert "“Join”" in answer, answer  # the channel's language is Ben's client's
        toast = await server.press(OLGA, server.table(), server.data(server.table(), "!join"))
        assert toast == tr("uk", "lobby.joined"), toast  # told in her own, in an English chat
        toast = await server.press(BEN, server.table(), server.data(server.table(), "!start"))
        assert toast == tr("en", "lobby.started")
        olga, ben = await server.my_tiles(OLGA), await server.my_tiles(BEN)
        assert text_of(olga).startswith(prefix("uk", "hand.title", deal=1)), text_of(olga)
        assert text_of(ben).startswith(prefix("en", "hand.title", deal=1)), text_of(ben)
        assert prefix("en", "table.title", deal=1, stake=1) in text_of(server.table())
        # What only she sees on the English table is in her language too.
        toast = await server.press(OLGA, server.table(), server.data(server.table(), "!peek"))
        assert toast.startswith(tr("uk", "peek.tiles", tiles="")), toast
        # Her own choice, in a direct message with the bot, wins over her client's.
        dm = await server.act(slash("lang", {"language": "en"}, user=OLGA, guild_id=None))
        assert server.answer_text(dm) == tr("en", "lang.own_set")
        dm = await server.act(slash("lang", user=OLGA, guild_id=None))
        assert server.answer_text(dm) == tr("en", "lang.own_chosen", langs=LANG_LIST)
        olga = await server.my_tiles(OLGA)
        assert text_of(olga).startswith(prefix("en", "hand.title", deal=1)), text_of(olga)
        assert hands[str(OLGA.id)][-1].screen.picture is not None
        assert hands[str(OLGA.id)][-1].screen.picture.frame.lang == "en"
        assert prefix("en", "table.title", deal=1, stake=1) in text_of(server.table())
    finally:
        await server.stop()
