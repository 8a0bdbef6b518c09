"""The Telegram adapter: updates in, neutral requests to the session layer, screens out.

docs/architecture.md §5 (Telegram) and §1 invariant 8: no game logic here. A press becomes
`SessionManager.press`, a command a call of the manager or of `Commands`; the screens that come
back become Bot API calls. The group sees one table message per game, edited in place (picture,
caption and keyboard in one `editMessageMedia`), through the chat's `Outbox`, which keeps every
chat under 20 messages a minute. Hands go to each player's private chat; a player the bot may not
write to yet gets a "Start me" deep link in the group instead of an error, and "Peek" shows their
tiles in an alert meanwhile. Every callback is answered, and "message is not modified" is not an
error. How a screen becomes a Bot API message's parts is `telegram_messages`'s.

Updates come by long polling, or POSTed by Telegram to the bot's HTTP server, which hands them
to `take_update`; how Telegram is reached and heard is `telegram_http`'s.

Calls are what limits how many tables one bot serves: Telegram takes about 30 a second from a
bot, all chats together. How few a screen costs is `telegram_messages.Messages`'s; here every
chat's outbox counts them in one `Pace`, and a hand after its player's move (it asks nothing of
them) waits while the bot is near that limit, so that tables and turn notices keep their pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from telegram import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram import User as TgUser
from telegram.constants import ChatType
from telegram.error import Forbidden, TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.present.miniapp import MiniApp
from bot.present.payload import top_words
from bot.present.screens import Actor, Place, Reply, Screen
from bot.service.logs import hide
from bot.service.metrics import Metrics
from bot.session.adapter import CHAT_COMMANDS, GAME_COMMANDS, Adapter, Job
from bot.session.manager import SessionManager, Timing
from bot.session.outbox import Budget, Outbox, Pace
from bot.telegram.telegram_http import Contact, Webhook, application, watch_webhook
from bot.telegram.telegram_messages import (
    Messages,
    Shown,
    actor_of,
    answer_query,
    command_name,
    guard_logs,
    place_of,
    quietly,
    replied_to,
    retry_after,
    start_link,
)
from games import GAMES
from storage import Storage, StorageError
from words.i18n import LANGS, lang_of, tr

log = logging.getLogger(__name__)

PLATFORM = "telegram"
DELETE_AT_ONCE = 100
"""Messages one `deleteMessages` call takes."""
UPDATES = ["message", "callback_query"]
"""The updates the bot asks Telegram for."""
HAND_SPACING = 0.5
"""Seconds between two edits in a private chat (Telegram: about one message a second)."""


class TelegramBot(Adapter[Shown, Shown]):
    def __init__(self, token: str, storage: Storage, *, api_url: str | None = None,
                 timing: Timing | None = None, group_budget: Budget | None = None,
                 poll_timeout: float = 10.0, theme: str = "dark", max_retries: int = 3,
                 clock: Callable[[], float] = time.time, global_rate: float = 30.0,
                 metrics: Metrics | None = None, webhook: Webhook | None = None,
                 miniapp: MiniApp | None = None) -> None:
        """`clock` is the session layer's (deadlines are seconds since the epoch);
        `global_rate` is Telegram's limit of calls a second for the whole bot. `metrics`: the
        process's (by default, a registry of the bot's own). `webhook`: Telegram POSTs the
        updates there (to the HTTP server, which hands them to `take_update`) instead of
        the bot polling for them. `miniapp`: where the web table is, for its buttons."""
        guard_logs(token)
        self.metrics = (metrics or Metrics()).platform(PLATFORM)
        super().__init__(SessionManager(storage, PLATFORM, timing, clock=clock, theme=theme,
                                        metrics=self.metrics))
        self.pace = Pace(global_rate)
        self.group_budget = group_budget or Budget()
        self.poll_timeout = poll_timeout
        self.webhook = webhook
        if webhook is not None:
            hide(webhook.secret)
        self.contact = Contact(clock)
        self._heartbeat: asyncio.Task[None] | None = None
        self.app: Application[Any, Any, Any, Any, Any, Any] = application(
            token, api_url, webhook is not None, max_retries, self._answered)
        self._asked_to_start: set[tuple[int, str]] = set()
        self.messages = Messages(self.app.bot, self.pace, miniapp)
        self.file_ids = self.messages.file_ids
        self._register()

    # ----- life cycle ---------------------------------------------------------------------------

    async def start(self, polling: bool = True) -> None:
        """Start the bot. On a webhook, register it with Telegram (the HTTP server takes the
        updates); else poll, which first removes any webhook an earlier start set (the
        library's polling does). Without `polling`, updates are put on `app.update_queue` by
        the caller (tests that run on a virtual clock)."""
        await self.app.initialize()
        await self.set_commands()
        restored = await self.manager.restore()
        if restored:
            log.info("restored %d open games", restored)
        await self.app.start()
        if self.webhook is not None:
            await self.app.bot.set_webhook(self.webhook.url, secret_token=self.webhook.secret,
                                           allowed_updates=UPDATES)
            self._heartbeat = asyncio.ensure_future(
                watch_webhook(self.app.bot, self.contact, self.webhook))
            return
        if not polling:
            return
        assert self.app.updater is not None
        await self.app.updater.start_polling(poll_interval=0.0, timeout=int(self.poll_timeout),
                                             allowed_updates=UPDATES)

    async def stop(self, grace: float = 3.0) -> None:
        """Stop taking updates, let queued messages go out for `grace` seconds, shut down. A
        webhook stays set: Telegram keeps the updates meanwhile and delivers them to whichever
        process takes them next."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        await self.settle(grace)
        if self.app.running:
            await self.app.stop()
        await self.close_outboxes()
        await self.app.shutdown()

    async def set_commands(self) -> None:
        names = (*GAME_COMMANDS, *CHAT_COMMANDS)
        for lang in LANGS:
            commands = [BotCommand(n, tr(lang, f"command.{n}")[:256]) for n in names]
            await self.app.bot.set_my_commands(commands, language_code=lang)
        await self.app.bot.set_my_commands(
            [BotCommand(n, tr("en", f"command.{n}")[:256]) for n in names])

    # ----- how Telegram is heard ----------------------------------------------------------------

    def _answered(self, status: int | None) -> None:
        """A request to the Bot API came back with `status` (None: with none)."""
        self.metrics.called(status)
        if status is not None and status < 500:
            self.contact.heard()

    async def take_update(self, data: object) -> bool:
        """An update Telegram POSTed to the webhook (its secret already checked): queued for
        the handlers, as polling would queue it; False when it is not an update."""
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            return False
        try:
            update = Update.de_json(data, self.app.bot)
        except Exception as exc:
            log.warning("telegram: a webhook request that is no update: %s", exc)
            return False
        self.contact.heard()
        await self.app.update_queue.put(update)
        return True

    def health(self, silence: float) -> str | None:
        """None while Telegram was heard from within `silence` seconds; else why not."""
        return self.contact.health(silence)

    def _register(self) -> None:
        app = self.app
        app.add_handler(CommandHandler("start", self.on_start))
        app.add_handler(CommandHandler([*GAME_COMMANDS, *CHAT_COMMANDS], self.on_command))
        app.add_handler(CallbackQueryHandler(self.on_press))
        app.add_handler(MessageHandler(filters.COMMAND, self.on_unknown))
        app.add_error_handler(self.on_error)

    # ----- updates in ---------------------------------------------------------------------------

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        self.metrics.pressed()
        arrived = asyncio.get_running_loop().time()
        text, alert = "", False
        actor = actor_of(query.from_user)
        try:
            words = top_words(query.data or "")
            if words is not None and isinstance(query.message, Message):
                await self._turn_page(query.message, actor, words)
            else:
                reply = await self.manager.press(actor, query.data or "")
                text, alert = reply.toast, reply.alert
        except Exception:
            log.exception("a press failed")
            text = tr(lang_of(query.from_user.language_code), "err.storage")
        finally:
            await answer_query(query, text, alert)
            self.metrics.answered(asyncio.get_running_loop().time() - arrived)

    async def _turn_page(self, message: Message, actor: Actor, words: list[str]) -> None:
        """A leaderboard button: the same message shows that page or ranking (the newest press
        wins when several wait for the chat's budget)."""
        reply = await self.commands.run("top", place_of(message), actor, words,
                                        self._admin_check(message, None))
        if reply.answer is None:
            return
        shown = Shown(where=message.chat.id, message_id=message.message_id,
                      kind="photo" if message.photo else "text", screen=reply.answer)
        box = self.box(message.chat.id)

        async def job() -> None:
            await self.messages.show(shown, box)
        box.update(f"top:{message.message_id}", job)

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        actor = actor_of(user)
        args = context.args or []
        if message.chat.type != ChatType.PRIVATE:
            await self._answer_command(message, Reply(answer=Screen(
                tr(await self._chat_language(message, actor), "help.text",
                   games=", ".join(GAMES)))))
            return
        code = args[0] if args else ""
        number = code[2:]
        session_id = (int(number) if number.isascii() and number.isdigit() and len(number) <= 12
                      and code[:2] in ("j_", "h_") else None)
        if session_id is None:
            await message.reply_text(tr(await self.manager.person_language(actor),
                                        "private.welcome"))
            return
        if code.startswith("j_"):
            reply = await self.manager.join_session(session_id, actor)
        else:
            self._asked_to_start.discard((session_id, actor.platform_id))
            reply = await self.manager.show_hand(session_id, actor)
            if reply.answer is None:
                return  # the hand itself, on its way to this chat, is the answer
        if reply.toast and not reply.answer:
            reply.answer = Screen(reply.toast)
        await self._answer_command(message, reply)

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        reply = await self.run_command(
            command_name(message.text), place_of(message), actor_of(user),
            list(context.args or []), self._admin_check(message, user),
            private=message.chat.type == ChatType.PRIVATE, target=replied_to(message))
        await self._answer_command(message, reply)

    async def on_unknown(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        addressed = self.app.bot.username and f"@{self.app.bot.username}" in message.text
        if message.chat.type == ChatType.PRIVATE:
            lang = await self.manager.person_language(actor_of(user))
        elif addressed:
            lang = await self._chat_language(message, actor_of(user))
        else:
            return
        await self._answer_command(message, Reply(answer=Screen(
            tr(lang, "err.unknown_command"))))

    async def _chat_language(self, message: Message, actor: Actor) -> str:
        """The language of an answer the whole group reads (the client's if the database
        cannot say)."""
        try:
            return (await self.manager.chat_of(place_of(message), actor))[1]
        except StorageError:
            return lang_of(actor.language)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("an update failed: %s", type(context.error).__name__, exc_info=context.error)

    def _admin_check(self, message: Message, user: TgUser | None) -> Any:
        async def is_admin() -> bool:
            if message.chat.type == ChatType.PRIVATE:
                return True
            if user is None:
                return False
            try:
                member = await self.app.bot.get_chat_member(message.chat.id, user.id)
            except TelegramError:
                return False
            return member.status in ("administrator", "creator")
        return is_admin

    async def _answer_command(self, message: Message, reply: Reply) -> None:
        if reply.answer is None:
            return
        screen = reply.answer
        chat = message.chat.id
        thread = message.message_thread_id if message.is_topic_message else None

        async def send() -> None:
            async with self.box(chat).sending():
                await self.messages.send(chat, thread, screen)
        if message.chat.type == ChatType.PRIVATE:
            await quietly(send())
        else:
            self.box(chat).post(send)

    # ----- screens out --------------------------------------------------------------------------

    def where_of(self, place: Place) -> tuple[int, int | None] | None:
        if not place.chat:
            return None
        return int(place.chat), int(place.topic) if place.topic else None

    def retry_after(self, exc: BaseException) -> float | None:
        return retry_after(exc)

    def is_refusal(self, exc: BaseException) -> bool:
        return isinstance(exc, TelegramError)

    def box(self, where: int) -> Outbox:
        """A group's outbox keeps its budget; a private chat's only spaces its edits."""
        budget = self.group_budget if where < 0 else Budget(cap=None, spacing=HAND_SPACING)
        return self.outbox(where, f"chat {where}", budget)

    def new_table(self, where: int, thread: int | None) -> Shown:
        return Shown(where=where, thread=thread)

    async def show_table(self, sid: int, table: Shown) -> bool:
        await self.messages.show(table, self.box(table.where))
        return True

    async def send_post(self, chat: int, thread: int | None, screen: Screen) -> None:
        photo = await self.messages.render(screen)
        async with self.box(chat).sending():
            await self.messages.send(chat, thread, screen, photo)

    async def delete(self, where: int, message_id: int) -> None:
        await quietly(self.app.bot.delete_message(where, message_id))

    async def delete_all(self, where: int, message_ids: list[int], *, paced: bool) -> None:
        """One `deleteMessages` call for up to a hundred messages."""
        for start in range(0, len(message_ids), DELETE_AT_ONCE):
            some = message_ids[start:start + DELETE_AT_ONCE]
            async with self.box(where).sending():  # (a private chat's only counts it)
                await quietly(self.app.bot.delete_messages(where, some))

    async def deliver_hands(self, sid: int, chat: int, thread: int | None,
                            reply: Reply) -> None:
        for hand in reply.hands:
            shown = await self.hand_of(sid, hand.user)
            shown.screen = hand.screen
            shown.fresh = shown.fresh or hand.fresh
            # A hand that asks nothing (after the player's move) can wait while the bot is
            # at Telegram's limit: their next turn shows it anyway.
            self.box(int(hand.user)).update(f"hand:{sid}",
                                            self._hand_job(sid, hand.user, chat, thread),
                                            spare=not shown.fresh and not hand.screen.asks)

    def note(self, sid: int, user: str, chat: int, thread: int | None, screen: Screen) -> None:
        async def job() -> None:
            try:
                async with self.box(int(user)).sending():
                    await self.messages.send(int(user), None, screen)
            except Forbidden:
                await self._ask_to_start(sid, user, chat, thread)
        self.box(int(user)).post(job)

    def invite(self, user: str, screen: Screen) -> None:
        async def job() -> None:
            async with self.box(int(user)).sending():
                await quietly(self.messages.send(int(user), None, screen))
        self.box(int(user)).post(job)

    async def hand_of(self, sid: int, user: str) -> Shown:
        key = (sid, user)
        if key not in self.hands:
            shown = Shown(where=int(user), keeps=True)
            shown.load(await self.stored_message(sid, f"hands/{user}"))
            self.hands[key] = shown
        return self.hands[key]

    def _hand_job(self, sid: int, user: str, chat: int, thread: int | None) -> Job:
        async def job() -> None:
            shown = self.hands.get((sid, user))
            if shown is None:
                return
            await shown.table_first()
            if shown.screen is None:
                return
            screen = shown.screen
            try:
                await self.messages.show(shown, self.box(shown.where))
            except Forbidden:
                shown.fresh = True
                await self._ask_to_start(sid, user, chat, thread)
                return
            if await self.shown(sid, f"hands/{user}", shown, screen, paced=False):
                self.hands.pop((sid, user), None)
        return job

    async def _ask_to_start(self, sid: int, user: str, chat: int, thread: int | None) -> None:
        """The player never opened a private chat with the bot: one "Start me" link in the
        group, not an error (once per game and player)."""
        if (sid, user) in self._asked_to_start:
            return
        self._asked_to_start.add((sid, user))
        session = await self.manager.session(sid)
        lang = await self.manager.language(session.chat_id) if session else "uk"
        name = user
        if session is not None:
            for seat in session.seats:
                if seat.get("platform_id") == user:
                    name = seat.get("name", user)
        url = start_link(self.app.bot.username, "h", sid)
        screen = Screen(tr(lang, "start_me", name=name))
        buttons = InlineKeyboardMarkup([[InlineKeyboardButton(tr(lang, "btn.start_me"),
                                                              url=url)]])

        async def job() -> None:
            async with self.box(chat).sending():
                await self.app.bot.send_message(chat, screen.text, reply_markup=buttons,
                                                message_thread_id=thread)
        self.box(chat).post(job)


