"""Telegram calls per move, within Telegram's limits: a picture is uploaded once and sent again by
its file_id, a player's turn costs at most two calls in their private chat (the notification among
them, still a new message), and nothing a person would not see change costs a call.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from telegram.error import BadRequest

import bot.session.lobby
from bot.present.miniapp import MiniApp
from bot.present.screens import Button, HandUpdate, Picture, Place, Reply, Screen
from bot.session.outbox import Budget, Outbox, Pace
from bot.telegram.telegram_messages import FileIds, Photo
from rendering import Frame
from storage.stats import Standing
from tests.support import virtual_time
from tests.support.fake_telegram import WRONG_FILE, Call, FakeTelegram, SentMessage, User
from tests.support.telegram_group import BOB, GROUP, OLENA, PEOPLE, STRANGER, Group

CHAT_METHODS = ("sendMessage", "sendPhoto", "editMessageText", "editMessageCaption",
                "editMessageMedia", "editMessageReplyMarkup", "deleteMessage", "deleteMessages")


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for user in (*PEOPLE, STRANGER):
            fake.start_bot(user)
        fake.set_chat(GROUP, title="Calls")
        yield fake


def chat_calls(server: FakeTelegram, chat: int, after: int = 0) -> list[Call]:
    return [c for c in server.calls()[after:] if c.chat_id == chat and c.method in CHAT_METHODS]


def uploads(server: FakeTelegram) -> list[bytes]:
    """Every picture the bot uploaded, in order."""
    return [value for c in server.calls() for value in c.params.values()
            if isinstance(value, bytes)]


def board(rows: int = 3) -> Picture:
    standings = tuple(Standing(n + 1, n, f"P{n}", 1000 - n, 1) for n in range(rows))
    return Picture("leaderboard", Frame(title="Top", names=()), rows=standings)


def table(screen: Screen) -> Reply:
    return Reply(session_id=1, place=Place(str(GROUP)), table=screen)


def hand(user: User, screen: Screen, fresh: bool = False) -> Reply:
    return Reply(session_id=1, place=Place(str(GROUP)),
                 hands=[HandUpdate(str(user.id), screen, fresh=fresh)])


# ----- the fake keeps photos as Telegram does ----------------------------------------------------

async def test_the_fake_gives_file_ids_for_several_sizes_and_refuses_unknown_ones(
        group: Group, server: FakeTelegram) -> None:
    assert group.bot is not None
    bot = group.bot.app.bot
    png = board().render("telegram")
    sent = await bot.send_photo(GROUP, png)
    sides = [max(p.width, p.height) for p in sent.photo]
    assert len(sides) > 2 and sides == sorted(sides) and sides[-1] == 800
    assert server.uploaded_bytes() == len(png)
    for size in sent.photo:  # any size's file_id shows the photo again, with no upload
        again = await bot.send_photo(BOB.id, size.file_id)
        assert again.photo[-1].file_id == sent.photo[-1].file_id
    assert server.uploaded_bytes() == len(png)
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_photo(GROUP, "AgACnever-given")
    assert await bot.delete_messages(BOB.id, [m.message_id for m in server.messages(BOB.id)])
    assert server.messages(BOB.id) == []


# ----- 1. never the same upload twice -----------------------------------------------------------

async def test_a_picture_telegram_has_goes_by_its_file_id(group: Group, server: FakeTelegram
                                                          ) -> None:
    """The same picture in another chat, and again as a new message, is not uploaded again."""
    assert group.bot is not None
    picture = board()
    await group.bot.deliver(table(Screen("top", picture)))
    await group.bot.deliver(hand(OLENA, Screen("yours", picture)))
    await group.bot.drain()
    await group.bot.deliver(hand(OLENA, Screen("yours again", picture), fresh=True))
    await group.bot.drain()
    assert len(uploads(server)) == 1
    assert server.uploaded_bytes() == len(uploads(server)[0])
    sent = [c for c in server.calls("sendPhoto") if c.ok]
    assert len(sent) == 3
    assert [isinstance(c.params["photo"], str) for c in sent] == [False, True, True]
    olena = [m for m in server.messages(OLENA.id) if m.has_photo]
    assert [m.caption for m in olena] == ["yours again"]
    assert olena[0].photo == picture.render("telegram")


async def test_a_whole_game_uploads_no_picture_twice(group: Group, server: FakeTelegram,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables and hands alike: over a game, no two uploads carry the same bytes, and a hand
    asked for again goes by file_id. (On a deal that lasts past the sixth press: the hand is
    asked for while the game is still on.)"""
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=16: "5eed" * (n // 2))
    sid = await group.open_game("dragon deals=1", (OLENA, BOB), computers=1)
    await group.play(sid, (OLENA, BOB), until=6)
    assert await group.status(sid) == "active"
    assert group.bot is not None
    await group.bot.drain()
    before = len(uploads(server))
    group.say(BOB, f"/start h_{sid}", chat=BOB.id)
    await server.wait_for(lambda: any(c.chat_id == BOB.id and c.method == "sendPhoto"
                                      and isinstance(c.params.get("photo"), str)
                                      for c in server.calls()))
    await group.play(sid, (OLENA, BOB))
    await group.bot.drain()
    sent = uploads(server)
    assert len(sent) > before > 4
    assert len(set(sent)) == len(sent), "a picture was uploaded twice"
    reused = [c for c in server.calls() if c.ok and c.method in ("sendPhoto", "editMessageMedia")
              and not any(isinstance(v, bytes) for v in c.params.values())]
    assert reused, "no picture was ever sent by its file_id"


async def test_a_file_id_telegram_refuses_is_uploaded_again(group: Group, server: FakeTelegram
                                                            ) -> None:
    """The cache is only a saving: a file_id Telegram does not know (a restart of Telegram's
    side, a file_id from another bot) costs an upload, not the message."""
    assert group.bot is not None
    picture = board()
    group.bot.file_ids.put(Photo.of(picture.render("telegram")).digest, "AgACnever-given")
    await group.bot.deliver(table(Screen("top", picture)))
    await group.bot.drain()
    refused = [c for c in server.calls("sendPhoto") if not c.ok]
    assert [c.error for c in refused] == [WRONG_FILE]
    shown = server.messages(GROUP)
    assert len(shown) == 1 and shown[0].photo == picture.render("telegram")
    assert len(uploads(server)) == 1
    assert group.bot.file_ids.get(Photo.of(shown[0].photo).digest) == shown[0].photo_file_id


def test_the_file_ids_kept_are_bounded_and_the_oldest_unused_goes_first() -> None:
    ids = FileIds(most=2)
    ids.put(b"a", "A")
    ids.put(b"b", "B")
    assert ids.get(b"a") == "A"  # now the most recently used
    ids.put(b"c", "C")
    assert (ids.get(b"a"), ids.get(b"b"), ids.get(b"c"), len(ids)) == ("A", None, "C", 2)


# ----- 2. two private calls a turn --------------------------------------------------------------

def moves_on(call: Call) -> bool:
    markup = call.params.get("reply_markup") or {}
    return any("!" not in (b.get("callback_data") or "!")
               for row in markup.get("inline_keyboard", []) for b in row)


@pytest.mark.parametrize("web_table", [False, True], ids=["chat", "with the web table"])
async def test_a_turn_costs_two_private_calls_and_still_notifies(
        group: Group, server: FakeTelegram, web_table: bool) -> None:
    """Each turn of a person: a new hand message with the moves (Telegram notifies only for
    a new message), then, once they moved, the hand edited to show what they hold now, and
    nothing else in their chat. The message a turn replaces asks for nothing any more. A hand
    that also opens the web table costs no more: its link is no button to press."""
    if web_table:
        assert group.bot is not None
        group.bot.messages.miniapp = MiniApp("https://bot.example.com/app/", "table")
        group.bot.manager.requests.web_table = True
    sid = await group.open_game("dragon deals=1", (OLENA, BOB), computers=0)
    turns = 0
    while turns < 8:
        assert group.bot is not None
        await group.bot.drain()
        mover = next(u for u in (OLENA, BOB) if group.moves(u))
        calls = server.calls()
        notice = max(n for n, c in enumerate(calls)
                     if c.chat_id == mover.id and c.method == "sendPhoto")
        assert moves_on(calls[notice]) and not calls[notice].params.get("disable_notification")
        hand_before = group.hand(mover)
        assert hand_before is not None
        await group.answer_to(group.press(mover, hand_before, group.moves(mover)[0]))
        await group.bot.drain()
        await server.wait_idle(quiet=0.1)
        if len([c for c in server.calls("sendPhoto") if c.chat_id == GROUP]) > 1:
            break  # the deal ended (its result is posted): the result is no turn
        turn = [c.method for c in chat_calls(server, mover.id, notice)]
        assert turn[0] == "sendPhoto" and len(turn) <= 2, turn
        assert all(method.startswith("edit") for method in turn[1:]), turn
        shown = group.hand(mover)
        assert shown is not None and not any("!" not in d for d in shown.button_data()), \
            "the hand after the move still offers moves"
        turns += 1
    assert turns >= 4
    for user in (OLENA, BOB):
        photos = [m for m in server.messages(user.id) if m.has_photo]
        assert web_table == all("web_app" in str(m.reply_markup) for m in photos)
        live_moves = [m for m in photos if any("!" not in d for d in m.button_data())]
        assert len(live_moves) <= 1, "only the newest hand may offer moves"
    await group.play(sid, (OLENA, BOB))
    assert group.bot is not None
    await group.bot.drain()
    for user in (OLENA, BOB):
        assert len([m for m in server.messages(user.id) if m.has_photo]) == 1, \
            "the game's end clears the earlier hands"
        assert any(c.method == "deleteMessages" and c.chat_id == user.id
                   for c in server.calls())


async def test_a_turn_notice_that_failed_for_now_is_still_a_new_message(
        group: Group, server: FakeTelegram) -> None:
    """The new hand message that tells a player their turn began fails for now (a network
    error, a timeout): the outbox tries again, and the second try is a new message as well
    (an edit of the old hand would not notify them)."""
    sid = await group.open_game("dragon deals=1", (OLENA, BOB), computers=0)
    assert group.bot is not None
    await group.bot.drain()
    mover = next(u for u in (OLENA, BOB) if group.moves(u))
    other = BOB if mover is OLENA else OLENA
    server.fail_next("sendPhoto", 502, chat_id=other.id)
    after = len(server.calls())
    await group.answer_to(group.press(mover, group.hand(mover), group.moves(mover)[0]))
    await server.wait_for(lambda: group.moves(other) != [], timeout=30)
    await group.bot.drain()
    turn = chat_calls(server, other.id, after)
    assert [(c.method, c.ok) for c in turn][:1] == [("sendPhoto", False)], turn
    notices = [c for c in turn if c.ok and moves_on(c)]
    assert notices and notices[0].method == "sendPhoto", [(c.method, c.ok) for c in turn]
    assert await group.status(sid) == "active"


async def test_kept_hand_messages_are_deleted_after_a_restart(
        group: Group, server: FakeTelegram, tmp_path: Path) -> None:
    """The hands a chat keeps are remembered with the session: a restarted bot still deletes
    them when the game ends."""
    sid = await group.open_game("dragon deals=1", (OLENA, BOB), computers=0)
    await group.play(sid, (OLENA, BOB), until=6)
    assert group.bot is not None
    await group.bot.drain()
    kept = {u.id: len([m for m in server.messages(u.id) if m.has_photo]) for u in (OLENA, BOB)}
    assert max(kept.values()) > 1, "earlier hands stay during the deal"
    await group.stop()
    again = Group(server, tmp_path / "gupai.sqlite3")
    await again.start()
    try:
        await again.play(sid, (OLENA, BOB))
        assert again.bot is not None
        await again.bot.drain()
        for user in (OLENA, BOB):
            assert len([m for m in server.messages(user.id) if m.has_photo]) == 1
    finally:
        await again.stop()


# ----- 3. nothing changed, no call --------------------------------------------------------------

async def test_a_screen_nobody_would_see_differ_costs_no_call(group: Group, server: FakeTelegram
                                                              ) -> None:
    assert group.bot is not None
    bot = group.bot
    go = ((Button("Go", "g:1:1:x"),),)

    async def calls_for(reply: Reply) -> list[str]:
        before = len(server.calls())
        await bot.deliver(reply)
        await bot.drain()
        return [c.method for c in server.calls()[before:] if c.method in CHAT_METHODS]

    assert await calls_for(table(Screen("top", board(), go))) == ["sendPhoto"]
    assert await calls_for(table(Screen("top", board(), go))) == []
    assert await calls_for(table(Screen("top!", board(), go))) == ["editMessageCaption"]
    assert await calls_for(table(Screen("top!", board(), ()))) == ["editMessageCaption"]
    assert await calls_for(table(Screen("top!", board(4), ()))) == ["editMessageMedia"]
    assert await calls_for(table(Screen("top!", board(4), ()))) == []
    assert await calls_for(hand(BOB, Screen("tiles", None, go))) == ["sendMessage"]
    assert await calls_for(hand(BOB, Screen("tiles", None, go))) == []
    assert await calls_for(hand(BOB, Screen("tiles", None, go), fresh=True)) \
        == ["sendMessage", "deleteMessages"], "a notice is always a new message"
    assert [c for c in server.calls() if not c.ok] == []
    shown: list[SentMessage] = server.messages(GROUP)
    assert [(m.caption, m.button_data()) for m in shown] == [("top!", [])]
    await asyncio.sleep(0)


# ----- at the bot's limit, what waits is what matters least -------------------------------------

def test_an_update_that_can_wait_waits_for_room_and_gives_way_to_a_newer_one() -> None:
    """Near the bot's global limit a hand after a move waits, and the player's next turn
    replaces it; a table update, or a spare one once there is room, goes at once."""
    async def main() -> list[tuple[float, str]]:
        loop = asyncio.get_running_loop()
        pace = Pace(rate=10, window=1.0, spare=0.5, clock=loop.time)
        private = Outbox("private", Budget(cap=None, spacing=0.0), clock=loop.time, pace=pace)
        group = Outbox("group", Budget(cap=None, spacing=0.0), clock=loop.time, pace=pace)
        start = loop.time()
        log: list[tuple[float, str]] = []

        def job(box: Outbox, name: str) -> Callable[[], Awaitable[None]]:
            async def run() -> None:
                async with box.sending():
                    log.append((round(loop.time() - start, 2), name))
            return run
        for _ in range(5):
            pace.made()  # the bot's last second: half its limit used
        private.update("hand", job(private, "hand after the move"), spare=True)
        group.update("table", job(group, "table"))
        await asyncio.sleep(0.5)
        private.update("hand", job(private, "next turn"))
        await asyncio.sleep(0.1)
        private.update("hand", job(private, "hand after the next move"), spare=True)
        for box in (private, group):
            await box.drain()
            await box.close()
        return log
    log = virtual_time.run(main())
    assert [name for _, name in log] == ["table", "next turn", "hand after the next move"]
    assert log[0][0] == 0.0 and log[1][0] == 0.5
    assert log[2][0] >= 1.0, "the spare update went while the bot was near its limit"


async def test_at_the_limit_a_turn_is_one_new_message(group: Group, server: FakeTelegram
                                                      ) -> None:
    """While the bot's other chats keep it at its limit, the hand after a move waits for the
    next turn to show it: the moves go on, each turn notified by a new message; once there is
    room again, what waited is shown."""
    assert group.bot is not None and group.bot.pace is not None
    pace = group.bot.pace
    pace.rate = 10.0
    busy = True

    async def other_chats() -> None:
        while busy:
            pace.made()  # twenty calls a second elsewhere
            await asyncio.sleep(0.05)
    sid = await group.open_game("dragon deals=1", (OLENA, BOB), computers=0)
    elsewhere = asyncio.ensure_future(other_chats())
    start = len(server.calls())
    presses = await group.play(sid, (OLENA, BOB), until=10)
    await asyncio.sleep(1.0)
    during = [c for c in server.calls()[start:] if c.chat_id in (OLENA.id, BOB.id)
              and c.method in CHAT_METHODS]
    notices = [c for c in during if c.method == "sendPhoto" and moves_on(c)]
    last_mover = BOB if notices[-1].chat_id == OLENA.id else OLENA
    stale = group.moves(last_mover)
    busy = False
    await elsewhere
    await group.bot.drain()
    assert presses >= 10 and len(notices) >= 9
    after_moves = [c for c in during if c.method.startswith("edit") and not moves_on(c)]
    assert after_moves == [], "a hand after a move did not wait"
    assert stale, "the hand a move was made on still showed its buttons"
    assert group.moves(last_mover) == [], "the hand that waited was shown once there was room"


def test_calls_queued_at_the_limit_hold_back_an_update_that_can_wait() -> None:
    """At the limit the library queues calls instead of refusing them, so the calls started in
    the last second stay under the limit: the queue of unanswered calls is what shows it, and
    a hand after a move waits until the queue is gone."""
    async def main() -> list[tuple[float, str]]:
        loop = asyncio.get_running_loop()
        pace = Pace(rate=10, window=1.0, spare=0.8, clock=loop.time)
        private = Outbox("private", Budget(cap=None, spacing=0.0), clock=loop.time, pace=pace)
        group = Outbox("group", Budget(cap=None, spacing=0.0), clock=loop.time, pace=pace)
        start = loop.time()
        log: list[tuple[float, str]] = []
        held = asyncio.Event()

        async def slow_call() -> None:  # held in the library's queue until released
            async with group.sending():
                await held.wait()
                log.append((round(loop.time() - start, 2), "queued call"))

        async def hand() -> None:
            async with private.sending():
                log.append((round(loop.time() - start, 2), "hand after the move"))
        calls = [asyncio.ensure_future(slow_call()) for _ in range(6)]
        await asyncio.sleep(2.0)  # the second in which they started has passed
        assert pace.recent() == 0
        private.update("hand", hand, spare=True)
        await asyncio.sleep(1.0)
        held.set()
        await asyncio.gather(*calls)
        await private.drain()
        for box in (private, group):
            await box.close()
        return log
    log = virtual_time.run(main())
    assert [name for _, name in log] == ["queued call"] * 6 + ["hand after the move"]
    assert log[-1][0] >= 3.0, "the spare update went while calls were queued at the limit"
