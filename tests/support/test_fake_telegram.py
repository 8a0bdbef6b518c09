"""The fake Bot API server answers the real python-telegram-bot the way Telegram does."""

from __future__ import annotations

import asyncio
import struct
import time
import zlib
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Update,
)
from telegram.error import BadRequest, EndPointNotFound, Forbidden, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    ExtBot,
)

from tests.support.fake_telegram import BOT_ID, NOT_MODIFIED, FakeTelegram, User

GROUP = -1001234567890
ALICE = User(111, "Alice")
BOB = User(222, "Bob", language_code="en", username="bob")


def png(width: int, height: int, shade: int = 0) -> bytes:
    """A valid grey PNG; its signature alone holds \\r\\n and \\x1a, so uploads must stay
    byte-exact through multipart parsing."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + bytes([shade]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(d.title(), callback_data=d) for d in data]])


def seconds(value: int | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake
    assert fake.closed


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    bot = Bot("123:TEST", base_url=f"{server.url}/bot", base_file_url=f"{server.url}/file/bot")
    async with bot:
        yield bot


async def test_get_me(bot: Bot, server: FakeTelegram) -> None:
    me = await bot.get_me()
    assert (me.id, me.is_bot, me.first_name, me.username) == (
        BOT_ID, True, "Gupai", "gupai_test_bot"
    )
    assert me.can_join_groups is True
    assert [c.method for c in server.calls()] == ["getMe", "getMe"]  # initialize() asks too
    assert all(c.ok for c in server.calls())


async def test_photo_upload_then_media_edit(bot: Bot, server: FakeTelegram) -> None:
    first, second = png(3, 2, shade=10), png(5, 4, shade=200)
    sent = await bot.send_photo(GROUP, first, caption="Deal 1", reply_markup=keyboard("take"))
    assert sent.chat.type == "supergroup"
    assert (sent.photo[-1].width, sent.photo[-1].height) == (3, 2)
    assert sent.reply_markup == keyboard("take")

    stored = server.last_message(GROUP)
    assert stored is not None
    assert stored.message_id == sent.message_id
    assert stored.photo == first
    assert stored.caption == "Deal 1"
    assert stored.reply_markup == {
        "inline_keyboard": [[{"text": "Take", "callback_data": "take"}]]
    }

    edited = await bot.edit_message_media(
        InputMediaPhoto(second, caption="Deal 2"),
        chat_id=GROUP,
        message_id=sent.message_id,
        reply_markup=keyboard("pass", "play"),
    )
    assert isinstance(edited, type(sent))
    assert edited.caption == "Deal 2"
    assert (edited.photo[-1].width, edited.photo[-1].height) == (5, 4)

    stored = server.last_message(GROUP)
    assert stored is not None
    assert stored.photo == second
    assert stored.photo_file_id != sent.photo[-1].file_id
    assert stored.caption == "Deal 2"
    assert stored.button_data() == ["pass", "play"]
    assert [e.method for e in stored.edits] == ["editMessageMedia"]
    assert len(server.messages(GROUP)) == 1
    photo_file = await bot.get_file(edited.photo[-1].file_id)
    assert bytes(await photo_file.download_as_bytearray()) == second

    # The upload went as multipart: media is JSON pointing at a separate file part.
    call = server.calls("editMessageMedia")[-1]
    media = call.params["media"]
    assert media["type"] == "photo"
    assert media["media"].startswith("attach://")
    assert call.params[media["media"].removeprefix("attach://")] == second
    assert call.params["reply_markup"]["inline_keyboard"][0][1]["callback_data"] == "play"


async def test_photo_by_file_id_and_string_fields_stay_strings(
    bot: Bot, server: FakeTelegram
) -> None:
    sent = await bot.send_photo(GROUP, png(2, 2), caption="123")
    again = await bot.send_photo(GROUP, sent.photo[-1].file_id, caption="true")
    stored = server.messages(GROUP)
    assert [m.caption for m in stored] == ["123", "true"]
    assert stored[1].photo == stored[0].photo == png(2, 2)
    assert again.photo[-1].file_id == sent.photo[-1].file_id
    text = await bot.send_message(GROUP, "42", message_thread_id=7)
    assert (text.text, text.message_thread_id) == ("42", 7)
    assert server.messages(GROUP)[-1].message_thread_id == 7
    assert server.calls("sendMessage")[-1].params["chat_id"] == GROUP


async def test_edit_that_changes_nothing_is_refused(bot: Bot, server: FakeTelegram) -> None:
    sent = await bot.send_photo(GROUP, png(2, 2), caption="Hand", reply_markup=keyboard("go"))
    # The library drops the "Bad Request: " prefix and capitalizes what is left.
    with pytest.raises(BadRequest, match="Message is not modified") as caught:
        await bot.edit_message_caption(
            chat_id=GROUP, message_id=sent.message_id, caption="Hand", reply_markup=keyboard("go")
        )
    assert caught.value.message == NOT_MODIFIED.removeprefix("Bad Request: ").capitalize()
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=GROUP, message_id=sent.message_id, reply_markup=keyboard("go")
        )
    # A real change goes through; leaving reply_markup out drops the keyboard, as in the Bot API.
    await bot.edit_message_caption(chat_id=GROUP, message_id=sent.message_id, caption="Hand 2")
    stored = server.message(GROUP, sent.message_id)
    assert stored is not None
    assert (stored.caption, stored.reply_markup, len(stored.edits)) == ("Hand 2", None, 1)

    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_caption(chat_id=GROUP, message_id=999, caption="x")
    assert await bot.delete_message(GROUP, sent.message_id)
    assert server.messages(GROUP) == []
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_caption(chat_id=GROUP, message_id=sent.message_id, caption="y")
    failed = [c for c in server.group_calls(GROUP) if not c.ok]
    assert [c.method for c in failed] == [
        "editMessageCaption", "editMessageReplyMarkup", "editMessageCaption",
        "editMessageCaption",
    ]


async def test_private_chat_needs_start_and_not_blocked(bot: Bot, server: FakeTelegram) -> None:
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(ALICE.id, "hello")
    with pytest.raises(Forbidden, match="bot can't initiate conversation"):
        await bot.send_photo(ALICE.id, png(1, 1))
    assert server.messages(ALICE.id) == []

    server.start_bot(ALICE)
    sent = await bot.send_message(ALICE.id, "hello")
    assert sent.chat.type == "private"
    assert sent.chat.first_name == "Alice"

    server.block(ALICE.id)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(ALICE.id, "still there?")
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.edit_message_text("edited", chat_id=ALICE.id, message_id=sent.message_id)
    assert [m.text for m in server.messages(ALICE.id)] == ["hello"]


# Reading RetryAfter.retry_after as a number is deprecated in PTB 22; the rate limiter does it.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_flood_control(server: FakeTelegram, bot: Bot) -> None:
    server.fail_next("sendMessage", 429, retry_after=1)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(GROUP, "too fast")
    assert seconds(caught.value.retry_after) == 1
    assert server.messages(GROUP) == []
    # Only the next call failed.
    await bot.send_message(GROUP, "later")
    assert [c.ok for c in server.calls("sendMessage")] == [False, True]

    server.fail_next("sendMessage", 429, retry_after=1)
    limited = ExtBot(
        "123:TEST",
        base_url=f"{server.url}/bot",
        base_file_url=f"{server.url}/file/bot",
        rate_limiter=AIORateLimiter(max_retries=1),
    )
    async with limited:
        message = await limited.send_message(GROUP, "patient")
    assert message.text == "patient"
    tries = server.calls("sendMessage")[2:]
    assert [c.ok for c in tries] == [False, True]
    assert tries[1].at - tries[0].at >= 1.0
    assert tries[0].error == "Too Many Requests: retry after 1"
    assert [m.text for m in server.messages(GROUP)] == ["later", "patient"]
    assert server.max_per_window(GROUP) == 2
    assert server.max_per_window(GROUP, window=0.5) == 1


async def test_other_errors_and_unknown_methods(server: FakeTelegram, bot: Bot) -> None:
    server.fail_next("sendMessage", 403, description="Forbidden: bot was kicked from the group")
    with pytest.raises(Forbidden, match="kicked"):
        await bot.send_message(GROUP, "x")
    server.fail_next("editMessageText", 400, description="Bad Request: chat not found", count=2)
    for _ in range(2):
        with pytest.raises(BadRequest, match="Chat not found"):
            await bot.edit_message_text("x", chat_id=GROUP, message_id=1)
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("noSuchMethod")
    unknown = server.calls("noSuchMethod")
    assert len(unknown) == 1
    assert unknown[0].error == "Not Found: method not found"


async def test_members_and_commands(server: FakeTelegram, bot: Bot) -> None:
    server.make_admin(GROUP, ALICE)
    server.make_admin(GROUP, BOB, creator=True)
    assert isinstance(await bot.get_chat_member(GROUP, ALICE.id), ChatMemberAdministrator)
    assert isinstance(await bot.get_chat_member(GROUP, BOB.id), ChatMemberOwner)
    member = await bot.get_chat_member(GROUP, 333)
    assert isinstance(member, ChatMemberMember)
    assert member.user.id == 333
    assert await bot.send_chat_action(GROUP, "upload_photo")

    await bot.set_my_commands([BotCommand("play", "Грати")], language_code="uk")
    await bot.set_my_commands(
        [BotCommand("play", "Play"), BotCommand("top", "Leaders")],
        scope=BotCommandScopeAllGroupChats(),
    )
    assert server.commands("uk") == [{"command": "play", "description": "Грати"}]
    group = server.commands(scope={"type": "all_group_chats"})
    assert group is not None
    assert [c["command"] for c in group] == ["play", "top"]
    assert server.commands("en") is None
    fetched = await bot.get_my_commands(language_code="uk")
    assert [(c.command, c.description) for c in fetched] == [("play", "Грати")]


@pytest.mark.real_time
async def test_long_poll_does_not_block_and_ends_on_inject_and_close() -> None:
    server = FakeTelegram()
    try:
        poller = Bot("123:TEST", base_url=f"{server.url}/bot")
        async with poller:
            poll = asyncio.create_task(poller.get_updates(timeout=5, read_timeout=10))
            await server.wait_for(lambda: server.calls("getMe") != [], timeout=2)
            await asyncio.sleep(0.1)
            started = time.monotonic()
            await poller.send_message(GROUP, "while polling")
            assert time.monotonic() - started < 1
            assert not poll.done()

            update_id = server.send_text(ALICE, GROUP, "/play@gupai_test_bot now")
            updates = await asyncio.wait_for(poll, 2)
            assert [u.update_id for u in updates] == [update_id]
            message = updates[0].message
            assert message is not None
            assert message.text == "/play@gupai_test_bot now"
            assert message.parse_entities() == {
                message.entities[0]: "/play@gupai_test_bot"
            }

            # An offset confirms earlier updates; a pending poll returns when the server closes.
            poll = asyncio.create_task(
                poller.get_updates(offset=update_id + 1, timeout=5, read_timeout=10)
            )
            await asyncio.sleep(0.2)
            started = time.monotonic()
            server.close()
            assert await asyncio.wait_for(poll, 2) == ()
            assert time.monotonic() - started < 1
            assert server.pending_updates() == 0
    finally:
        server.close()


async def test_wait_for_reports_the_last_calls(server: FakeTelegram, bot: Bot) -> None:
    await bot.send_message(GROUP, "first words")
    with pytest.raises(AssertionError) as caught:
        await server.wait_for(lambda: False, timeout=0.1)
    assert "sendMessage(chat=-1001234567890) ok" in str(caught.value)
    assert "first words" in str(caught.value)
    started = time.monotonic()
    await server.wait_idle(quiet=0.2)
    assert time.monotonic() - started < 1


async def test_application_handles_commands_and_presses(server: FakeTelegram) -> None:
    async def play(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("Table open", reply_markup=keyboard("join"))

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("Welcome")

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        await query.answer(f"Joined, {query.from_user.first_name}")
        await query.edit_message_text("Bob joined")

    app = (
        Application.builder()
        .token("123:TEST")
        .base_url(f"{server.url}/bot")
        .base_file_url(f"{server.url}/file/bot")
        .build()
    )
    app.add_handler(CommandHandler("play", play))
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(pressed))
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0, timeout=1)
    try:
        server.send_text(BOB, GROUP, "/play@gupai_test_bot")
        await server.wait_for(lambda: server.last_message(GROUP) is not None, timeout=5)
        table = server.last_message(GROUP)
        assert table is not None
        assert (table.text, table.button_data()) == ("Table open", ["join"])

        server.press(BOB, GROUP, table.message_id, "join")
        await server.wait_for(lambda: server.answers() != [], timeout=5)
        await server.wait_for_call("editMessageText", timeout=5)
        answer = server.answers()[0]
        assert (answer.text, answer.show_alert) == ("Joined, Bob", False)
        assert answer.callback_query_id.startswith("cq")
        table = server.last_message(GROUP)
        assert table is not None
        assert (table.text, table.reply_markup) == ("Bob joined", None)

        # /start in private makes the user reachable.
        server.send_text(ALICE, ALICE.id, "/start")
        await server.wait_for(lambda: server.messages(ALICE.id) != [], timeout=5)
        assert server.has_started(ALICE.id)
        await server.wait_idle(quiet=0.2)
        assert all(c.ok for c in server.calls() if c.method != "getUpdates")
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
    assert not app.running


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_group_gets_429_past_twenty_messages_a_minute() -> None:
    now = [100.0]
    with FakeTelegram(clock=lambda: now[0]) as server:
        async with Bot("123:TEST", base_url=f"{server.url}/bot",
                       base_file_url=f"{server.url}/file/bot") as limited:
            for n in range(20):
                now[0] += 1.0
                await limited.send_message(GROUP, f"message {n}")
            now[0] += 1.0
            with pytest.raises(RetryAfter) as caught:
                await limited.edit_message_text("edited", chat_id=GROUP, message_id=1)
            assert seconds(caught.value.retry_after) == 40  # the first call leaves the window
            now[0] += 40.0
            await limited.edit_message_text("edited", chat_id=GROUP, message_id=1)
            # Private chats are not limited this way.
            server.start_bot(ALICE)
            for _ in range(25):
                await limited.send_message(ALICE.id, "hi")
    assert server.max_per_window(GROUP) == 20


async def test_a_reply_quotes_the_message_it_answers(server: FakeTelegram, bot: Bot) -> None:
    """A command sent as a reply carries the replied-to message, from its own author, as the
    library reads it (`Message.reply_to_message`), quoted one level deep like Telegram does."""
    said = server.send_text(BOB, GROUP, "my move, wait")
    reply = server.send_text(ALICE, GROUP, "/kick", reply_to=said)
    again = server.send_text(BOB, GROUP, "no!", reply_to=reply)
    updates = await bot.get_updates()
    assert [u.update_id for u in updates] == [said, reply, again]
    first, kick, answer = (u.message for u in updates)
    assert first is not None and kick is not None and answer is not None
    assert first.reply_to_message is None
    quoted = kick.reply_to_message
    assert quoted is not None and quoted.from_user is not None
    assert (quoted.message_id, quoted.from_user.id, quoted.text) == (first.message_id, BOB.id,
                                                                     "my move, wait")
    assert kick.text == "/kick" and kick.from_user is not None and kick.from_user.id == ALICE.id
    assert answer.reply_to_message is not None
    assert answer.reply_to_message.reply_to_message is None
    # Only a message of the same chat can be answered.
    with pytest.raises(LookupError):
        server.send_text(BOB, BOB.id, "/start", reply_to=said)
    with pytest.raises(LookupError):
        server.send_text(BOB, GROUP, "/kick", reply_to=999)


async def test_a_call_records_when_it_arrived_and_when_it_was_answered(
        server: FakeTelegram, bot: Bot) -> None:
    """A call held on its way is answered later than it arrived, and calls are kept in the
    order they were answered: a test can tell whether one message was up before another was
    even asked for."""
    server.hold("sendPhoto")
    photo = asyncio.ensure_future(bot.send_photo(GROUP, png(2, 2), caption="table"))
    await server.wait_for(lambda: server.held("sendPhoto") == 1)
    await bot.send_message(GROUP, "hand")
    await asyncio.sleep(0.2)
    server.release("sendPhoto")
    await photo
    text, held = server.calls("sendMessage")[0], server.calls("sendPhoto")[0]
    assert [c.method for c in server.calls() if c.method != "getMe"] == ["sendMessage",
                                                                         "sendPhoto"]
    assert held.at < text.at <= text.answered < held.answered
    assert held.answered - held.at >= 0.2


@pytest.mark.real_time
async def test_a_webhook_takes_the_updates_instead_of_get_updates(server: FakeTelegram,
                                                                  bot: Bot) -> None:
    """While a webhook is set, getUpdates is refused with 409 (a long poll under way ends so),
    and each update is POSTed to the webhook in order with the secret, again after a refusal;
    deleting the webhook lets getUpdates take what is left."""
    from aiohttp import web
    from telegram.error import Conflict

    got: list[tuple[int, str | None]] = []
    refuse = [True]

    async def hook(request: web.Request) -> web.Response:
        update = await request.json()
        if refuse[0]:
            refuse[0] = False
            return web.Response(status=500)
        got.append((update["update_id"], request.headers.get("X-Telegram-Bot-Api-Secret-Token")))
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        polling = asyncio.ensure_future(bot.get_updates(timeout=5))
        await asyncio.sleep(0.3)  # (the long poll is under way)
        url = f"http://127.0.0.1:{port}/hook"
        assert await bot.set_webhook(url, secret_token="s3cret-_X",
                                     allowed_updates=["message"])
        with pytest.raises(Conflict, match="terminated by setWebhook"):
            await asyncio.wait_for(polling, 2)
        with pytest.raises(Conflict, match="webhook is active"):
            await bot.get_updates(timeout=0)
        with pytest.raises(BadRequest, match="unallowed characters"):
            await bot.set_webhook(url, secret_token="not allowed!")
        first = server.send_text(ALICE, GROUP, "/one")
        second = server.send_text(ALICE, GROUP, "/two")
        # (the hook has an update before the fake has its answer: wait for the fake's record)
        await server.wait_for(lambda: len(got) == 2 and any(
            d.update_id == second for d in server.deliveries()), timeout=5)
        assert got == [(first, "s3cret-_X"), (second, "s3cret-_X")]
        statuses = [(d.update_id, d.status) for d in server.deliveries()]
        assert statuses == [(first, 500), (first, 200), (second, 200)]
        info = await bot.get_webhook_info()
        assert (info.url, info.pending_update_count) == (url, 0)
        assert info.allowed_updates == ("message",)
        assert "500" in (info.last_error_message or "")
        assert server.webhook() == {"url": url, "secret_token": "s3cret-_X",
                                    "allowed_updates": ["message"]}

        assert await bot.delete_webhook()
        third = server.send_text(ALICE, GROUP, "/three")
        assert [u.update_id for u in await bot.get_updates(timeout=0)] == [third]
        assert (await bot.get_webhook_info()).url == ""
        assert server.webhook() is None and len(got) == 2
    finally:
        await runner.cleanup()
