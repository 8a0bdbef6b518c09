"""The web table on the real `gupai telegram` process, against the fake Bot API: the buttons that
open it (only when it is configured), who may open it, and its moves, which go through the same door
as the chats' buttons (docs/architecture.md §4): forged, expired, stale and foreign requests change
nothing and get a clear answer."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from bot.present import payload
from bot.session.seating import seat_index
from tests.support.fake_telegram import BOT_USERNAME, FakeTelegram, SentMessage
from tests.support.miniapp import init_data
from tests.support.telegram_group import BOB, GROUP, OLENA, STRANGER, TOKEN
from tests.support.web_table import APP_NAME, call, dump, own_faces, quiet_dump, web_bot
from words.i18n import lang_of, tr

pytestmark = pytest.mark.real_time



def links(message: SentMessage | None) -> list[dict[str, object]]:
    """A message's buttons that open something (a URL or a web app)."""
    assert message is not None
    return [b for row in (message.reply_markup or {}).get("inline_keyboard", []) for b in row
            if "url" in b or "web_app" in b]


async def test_the_table_offers_the_web_table_only_when_it_is_configured(
        server: FakeTelegram, tmp_path: Path) -> None:
    async with web_bot(server, tmp_path) as (group, base):
        sid = await group.open_game("dragon", (OLENA, BOB), 1)
        await server.wait_for(lambda: group.hand(BOB) is not None)
        table = next(m for m in reversed(server.messages(GROUP)) if m.has_photo)
        direct = f"https://t.me/{BOT_USERNAME}/{APP_NAME}?startapp=s{sid}"
        assert {"text": "🀄 Відкрити стіл", "url": direct} in links(table)
        watch = f"https://t.me/{BOT_USERNAME}/{APP_NAME}?startapp=w{sid}"
        assert {"text": tr("uk", "btn.watch"), "url": watch} in links(table), "Watch beside it"
        assert {"text": "🀄 Open the table", "web_app": {"url": f"{base}?s={sid}"}} in links(
            group.hand(BOB)), "a private chat opens the page itself"
        status, page = await call(base, None, "")
        assert status == 200 and '<script type="module" src="app.js">' in page
    known = len(server.messages(BOB.id))
    (tmp_path / "plain").mkdir()
    async with web_bot(server, tmp_path / "plain", miniapp=False) as (group, base):
        group.chat = GROUP - 1
        sid = await group.open_game("dragon", (OLENA, BOB), 1)
        await server.wait_for(lambda: any(m.has_photo for m in server.messages(BOB.id)[known:]))
        for message in server.messages(group.chat) + server.messages(BOB.id)[known:]:
            assert not any("startapp" in str(b.get("url")) or "web_app" in b
                           for b in links(message)), message
        assert (await call(base, OLENA, f"api/table?session={sid}"))[0] == 404


async def test_unsigned_requests_get_401_and_change_nothing(server: FakeTelegram,
                                                            tmp_path: Path) -> None:
    async with web_bot(server, tmp_path) as (group, base):
        sid = await group.open_game("dragon", (OLENA, BOB), 1)
        await server.wait_for(lambda: bool(group.moves(OLENA) + group.moves(BOB)))
        mover = OLENA if group.moves(OLENA) else BOB
        move = group.moves(mover)[0]
        before = await quiet_dump(tmp_path / "bot.sqlite3")
        unsigned = {
            "forged": init_data(mover, TOKEN, forge=True),
            "expired": init_data(mover, TOKEN, made=time.time() - 2 * 86400),
            "empty": "",
        }
        asked = [(why, data, path, body) for why, data in unsigned.items()
                 for path, body in ((f"api/table?session={sid}", None),
                                    (f"api/board?session={sid}", None),
                                    (f"api/events?session={sid}", None),
                                    ("api/press", {"data": move}),
                                    ("api/join", {"session": sid}))]
        # (at once: each refusal is answered a second late)
        answers = await asyncio.gather(*(call(base, mover, path, body, data=data)
                                         for _, data, path, body in asked))
        for (why, data, path, _), (status, answer) in zip(asked, answers, strict=True):
            assert status == 401, (why, path, answer)
            said = mover.language_code if data else lang_of(None)
            assert answer == {"error": tr(said, "web.unsigned")}, (why, path)
        assert dump(tmp_path / "bot.sqlite3") == before
        status, answer = await call(base, mover, "api/press", {"data": move})
        assert (status, answer) == (200, {"toast": ""}), "the same move, signed, is played"
        assert dump(tmp_path / "bot.sqlite3") != before


async def test_a_move_from_the_page_is_judged_as_a_press(server: FakeTelegram,
                                                         tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with web_bot(server, tmp_path) as (group, base):
        sid = await group.open_game("dragon", (OLENA, BOB), 1)
        await server.wait_for(lambda: bool(group.moves(OLENA) + group.moves(BOB)))
        mover, other = (OLENA, BOB) if group.moves(OLENA) else (BOB, OLENA)
        status, table = await call(base, mover, f"api/table?session={sid}")
        assert status == 200 and table["hand"]["your_turn"]
        moves = [m["data"] for m in table["hand"]["moves"]]
        assert set(moves) == set(group.moves(mover)), "the page offers the chat's moves"
        stale = payload.encode(sid, table["version"] - 1, moves[0].split(":", 3)[3])
        before = await quiet_dump(db)
        for who, data, key in ((other, moves[0], "err.not_your_turn"),
                               (mover, stale, "err.stale"),
                               (mover, "g:1:x:play", "err.forged"),
                               (mover, f"g:{sid}:{table['version']}:play.99z@9", "err.illegal")):
            status, answer = await call(base, who, "api/press", {"data": data})
            assert status == 200
            assert answer["toast"] == tr(who.language_code, key), (who, data, answer)
        # Someone without a seat watches: the group's table, no hand, and no press.
        status, answer = await call(base, STRANGER, "api/press", {"data": moves[0]})
        assert (status, answer) == (403, {"error": tr("en", "web.watch_only")})
        assert dump(db) == before
        status, watched = await call(base, STRANGER, f"api/table?session={sid}")
        assert status == 200 and watched["spectator"] and watched["hand"] is None
        assert watched["board"], "the group's board"
        assert watched["buttons"] == [{"label": tr("en", "btn.join"), "join": True,
                                       "tone": "go"}], "Join, for the computer's seat"
        assert [(s["tiles"], s["moving"], s["you"]) for s in watched["seats"]] == [
            (s["tiles"], s["moving"], False) for s in table["seats"]]
        assert (await call(base, STRANGER, "api/table?session=999"))[0] == 404
        assert dump(db) == before
        # Each person's page holds their own tiles, and nobody else's.
        session = await group.storage.sessions.get(sid)
        assert session is not None
        for user in (OLENA, BOB):
            status, table = await call(base, user, f"api/table?session={sid}")
            faces = [t["face"] for t in table["hand"]["tiles"]]
            assert faces == own_faces(session, seat_index(session, str(user.id)))
            assert [s["you"] for s in table["seats"]].count(True) == 1


async def test_a_stranger_joins_a_lobby_from_the_page(server: FakeTelegram,
                                                      tmp_path: Path) -> None:
    async with web_bot(server, tmp_path) as (group, base):
        group.say(OLENA, "/newgame dragon")
        await server.wait_for(group._has_lobby)
        sid = int(group.join_link().removeprefix("j_"))
        status, lobby = await call(base, STRANGER, f"api/table?session={sid}")
        assert status == 200 and lobby["status"] == "lobby" and lobby["hand"] is None
        assert {"label": tr("en", "btn.join"), "join": True, "tone": "go"} in lobby["buttons"]
        assert any(b.get("data", "").endswith(payload.START) for b in lobby["buttons"])
        status, answer = await call(base, STRANGER, "api/join", {"session": sid})
        assert status == 200, answer
        await server.wait_for(lambda: STRANGER.first_name in (group.lobby().content or ""))
        status, lobby = await call(base, STRANGER, f"api/table?session={sid}")
        assert STRANGER.first_name in lobby["table"]["before"] + lobby["table"]["after"]


async def test_a_page_following_the_game_does_not_hold_up_a_stop(server: FakeTelegram,
                                                                  tmp_path: Path) -> None:
    async with web_bot(server, tmp_path) as (group, base):
        sid = await group.open_game("dragon", (OLENA, BOB), 1)
        headers = {"Authorization": f"tma {init_data(OLENA, TOKEN)}"}
        async with aiohttp.ClientSession() as client, \
                client.get(f"{base}api/events?session={sid}", headers=headers) as events:
            assert events.headers["Content-Type"].startswith("text/event-stream")
            first = await events.content.readuntil(b"\n\n")
            assert first.startswith(b"data: {\"version\": ")
            code, took = group.terminate()
        assert code == 0 and took < 10, (code, took, group.process.output[-2000:])
