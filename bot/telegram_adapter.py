"""The Telegram adapter: updates in, neutral requests to the session layer, screens out.

DESIGN.md §5 (Telegram) and §1 invariant 8: no game logic here. A press becomes
`SessionManager.press`, a command a call of the manager or of `Commands`; the screens that come
back become Bot API calls. The group sees one table message per game, edited in place (picture,
caption and keyboard in one `editMessageMedia`), through the chat's `Outbox`, which keeps every
chat under 20 messages a minute. Hands go to each player's private chat; a player the bot may not
write to yet gets a "Start me" deep link in the group instead of an error, and "Peek" shows their
tiles in an alert meanwhile. Every callback is answered, and "message is not modified" is not an
error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from telegram import (
    BotCommand,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram import User as TgUser
from telegram.constants import ChatType
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.commands import Commands
from bot.i18n import LANGS, lang_of, tr
from bot.manager import SessionManager, Timing
from bot.outbox import Budget, Outbox
from bot.payload import TOP, BadPayload, decode
from bot.screens import Actor, Keyboard, Picture, Place, Post, Reply, Screen
from games import GAMES
from storage import Storage

log = logging.getLogger(__name__)

PLATFORM = "telegram"
CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
ALERT_LIMIT = 200
GAME_COMMANDS = ("newgame", "join", "leave", "stop")
CHAT_COMMANDS = ("games", "rules", "chips", "top", "stats", "lang", "settings", "help")
GROUP_ONLY = ("newgame", "join", "leave", "stop", "chips", "top", "stats")


@dataclass(slots=True)
class Shown:
    """A message shown in place (the table, a hand) and what is waiting to replace it."""

    chat: int
    thread: int | None = None
    message_id: int | None = None
    kind: str = ""
    """"photo" or "text": a text message cannot be edited into a photo."""
    picture: Picture | None = None
    """The picture now shown, so a caption-only change does not upload it again."""
    screen: Screen | None = None
    fresh: bool = False
    retired: list[int] = field(default_factory=list)
    closing: bool = False
    """The game has ended: forget this once its last update is shown."""
    replacing: bool = False
    """A new message is being sent for it; until it is, `message_id` and `kind` are the old."""


_SECRETS: set[str] = set()


def guard_logs(token: str) -> None:
    """The token is part of every Bot API URL: keep httpx from logging each request, and
    redact the token from every log record as it is made, whichever logger or handler."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if not token or token in _SECRETS:
        return
    if not _SECRETS:
        make = logging.getLogRecordFactory()

        def redacting(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = make(*args, **kwargs)
            text = record.getMessage()
            if any(secret in text for secret in _SECRETS):
                for secret in _SECRETS:
                    text = text.replace(secret, "<token>")
                record.msg, record.args = text, ()
            return record
        logging.setLogRecordFactory(redacting)
    _SECRETS.add(token)


class TelegramBot:
    def __init__(self, token: str, storage: Storage, *, api_url: str | None = None,
                 timing: Timing | None = None, group_budget: Budget | None = None,
                 poll_timeout: float = 10.0, theme: str = "dark", max_retries: int = 3,
                 clock: Callable[[], float] = time.time) -> None:
        """`clock` is the session layer's (deadlines are seconds since the epoch)."""
        guard_logs(token)
        self.manager = SessionManager(storage, PLATFORM, timing, clock=clock, theme=theme)
        self.manager.deliver = self.deliver
        self.commands = Commands(self.manager)
        self.group_budget = group_budget or Budget()
        self.poll_timeout = poll_timeout
        builder = (Application.builder().token(token)
                   .rate_limiter(AIORateLimiter(max_retries=max_retries))
                   .concurrent_updates(True))
        if api_url:
            base = api_url.rstrip("/")
            builder = builder.base_url(f"{base}/bot").base_file_url(f"{base}/file/bot")
        self.app: Application[Any, Any, Any, Any, Any, Any] = builder.build()
        self.outboxes: dict[int, Outbox] = {}
        self.tables: dict[int, Shown] = {}
        self.hands: dict[tuple[int, str], Shown] = {}
        self._asked_to_start: set[tuple[int, str]] = set()
        self._register()

    # ----- life cycle ---------------------------------------------------------------------------

    async def start(self, polling: bool = True) -> None:
        """Start the bot; without `polling`, updates are put on `app.update_queue` by the
        caller (tests that run on a virtual clock)."""
        await self.app.initialize()
        await self.set_commands()
        restored = await self.manager.restore()
        if restored:
            log.info("restored %d open games", restored)
        await self.app.start()
        if not polling:
            return
        assert self.app.updater is not None
        await self.app.updater.start_polling(poll_interval=0.0, timeout=int(self.poll_timeout),
                                             allowed_updates=["message", "callback_query"])

    async def stop(self, grace: float = 3.0) -> None:
        """Stop taking presses and timers, give queued messages `grace` seconds to go out
        (everything is saved already: what is not shown now is shown after the restart)."""
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        await self.manager.close()
        for box in self.outboxes.values():
            await box.drain(timeout=grace)
        if self.app.running:
            await self.app.stop()
        for box in self.outboxes.values():
            await box.close()
        await self.app.shutdown()

    async def drain(self) -> None:
        """Wait until every queued message has gone out (tests and shutdown)."""
        await self.manager.idle()
        for box in list(self.outboxes.values()):
            await box.drain()

    async def set_commands(self) -> None:
        names = (*GAME_COMMANDS, *CHAT_COMMANDS)
        for lang in LANGS:
            commands = [BotCommand(n, tr(lang, f"command.{n}")[:256]) for n in names]
            await self.app.bot.set_my_commands(commands, language_code=lang)
        await self.app.bot.set_my_commands(
            [BotCommand(n, tr("en", f"command.{n}")[:256]) for n in names])

    def _register(self) -> None:
        app = self.app
        app.add_handler(CommandHandler("start", self.on_start))
        app.add_handler(CommandHandler(list(GAME_COMMANDS), self.on_game_command))
        app.add_handler(CommandHandler(list(CHAT_COMMANDS), self.on_chat_command))
        app.add_handler(CallbackQueryHandler(self.on_press))
        app.add_handler(MessageHandler(filters.COMMAND, self.on_unknown))
        app.add_error_handler(self.on_error)

    # ----- updates in ---------------------------------------------------------------------------

    async def on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        text, alert = "", False
        actor = actor_of(query.from_user)
        try:
            page = _page_of(query.data or "")
            if page is not None and isinstance(query.message, Message):
                await self._turn_page(query.message, actor, page)
            else:
                reply = await self.manager.press(actor, query.data or "")
                text, alert = reply.toast, reply.alert
        except Exception:
            log.exception("a press failed")
            text = tr(lang_of(query.from_user.language_code), "err.storage")
        finally:
            await _answer(query, text, alert)

    async def _turn_page(self, message: Message, actor: Actor, page: int) -> None:
        """A leaderboard page button: the same message shows that page (the newest press wins
        when several wait for the chat's budget)."""
        reply = await self.commands.run("top", place_of(message), actor, [str(page)],
                                        self._admin_check(message, None))
        if reply.answer is None:
            return
        shown = Shown(message.chat.id, message_id=message.message_id,
                      kind="photo" if message.photo else "text", screen=reply.answer)
        box = self._box(message.chat.id)

        async def job() -> None:
            await self._show(shown, box)
        box.update(f"top:{message.message_id}", job)

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        actor = actor_of(user)
        args = context.args or []
        if message.chat.type != ChatType.PRIVATE:
            await self._answer_command(message, Reply(answer=Screen(
                tr(lang_of(actor.language), "help.text", games=", ".join(GAMES)))))
            return
        code = args[0] if args else ""
        number = code[2:]
        session_id = (int(number) if number.isascii() and number.isdigit() and len(number) <= 12
                      and code[:2] in ("j_", "h_") else None)
        if session_id is None:
            await message.reply_text(tr(lang_of(actor.language), "private.welcome"))
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

    async def on_game_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        name = _command_name(message.text)
        actor = actor_of(user)
        if message.chat.type == ChatType.PRIVATE:
            await self._answer_command(message, Reply(answer=Screen(
                tr(lang_of(actor.language), "err.group_only"))))
            return
        place = place_of(message)
        words = list(context.args or [])
        if name == "newgame":
            reply = await self.manager.new_game(place, actor, words)
        elif name == "join":
            reply = await self.manager.join(place, actor)
        elif name == "leave":
            reply = await self.manager.leave(place, actor)
        else:
            reply = await self.manager.stop(place, actor, self._admin_check(message, user))
        if reply.toast and reply.answer is None and name in ("join", "leave", "stop"):
            reply.answer = Screen(reply.toast)
        await self._answer_command(message, reply)

    async def on_chat_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        name = _command_name(message.text)
        actor = actor_of(user)
        if message.chat.type == ChatType.PRIVATE and name in GROUP_ONLY:
            await self._answer_command(message, Reply(answer=Screen(
                tr(lang_of(actor.language), "err.group_only"))))
            return
        reply = await self.commands.run(name, place_of(message), actor, list(context.args or []),
                                        self._admin_check(message, user))
        await self._answer_command(message, reply)

    async def on_unknown(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or not message.text:
            return
        addressed = self.app.bot.username and f"@{self.app.bot.username}" in message.text
        if message.chat.type == ChatType.PRIVATE or addressed:
            await self._answer_command(message, Reply(answer=Screen(
                tr(lang_of(user.language_code), "err.unknown_command"))))

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
            async with self._box(chat).sending():
                await self._send(chat, thread, screen)
        if message.chat.type == ChatType.PRIVATE:
            await _quietly(send())
        else:
            self._box(chat).post(send)

    # ----- screens out --------------------------------------------------------------------------

    async def deliver(self, reply: Reply) -> None:
        """Queue a reply's effects; called by the session layer under the session's lock, so it
        only queues (the outboxes send in order, coalescing table edits)."""
        sid, place = reply.session_id, reply.place
        if sid is None or place is None or not place.chat:
            return
        chat = int(place.chat)
        thread = int(place.topic) if place.topic else None
        box = self._box(chat)
        if reply.table is not None:
            shown = await self._table(sid, chat, thread)
            shown.screen = reply.table
            shown.fresh = shown.fresh or reply.table_fresh
            shown.closing = reply.closed
            # A new table message (the lobby became a game) keeps its place before the results
            # posted after it; an edit in place, also of the message being sent right now,
            # waits its turn and coalesces.
            anew = _sends_anew(shown, reply.table) and (shown.fresh or not shown.replacing)
            box.update(f"table:{sid}", lambda: self._flush_table(sid), in_order=anew)
        for post in reply.posts:
            box.post(self._group_post(chat, thread, post))
        for hand in reply.hands:
            shown = await self._hand(sid, hand.user)
            shown.screen = hand.screen
            shown.fresh = shown.fresh or hand.fresh
            self._box(int(hand.user)).update(f"hand:{sid}",
                                             self._hand_job(sid, hand.user, chat, thread))
        for user, screen in reply.private:
            self._box(int(user)).post(self._private_post(sid, user, screen, chat, thread))
        if reply.closed:
            for key, shown in self.hands.items():
                if key[0] == sid:
                    shown.closing = True

    def _box(self, chat: int) -> Outbox:
        if chat not in self.outboxes:
            budget = self.group_budget if chat < 0 else Budget(cap=None, spacing=0.5)
            self.outboxes[chat] = Outbox(f"chat {chat}", budget, retry_after=retry_after)
        return self.outboxes[chat]

    async def _table(self, sid: int, chat: int, thread: int | None) -> Shown:
        if sid not in self.tables:
            shown = Shown(chat, thread)
            session = await self.manager.stored(sid)
            stored = (session.messages.get("table") if session else None) or {}
            shown.message_id, shown.kind = stored.get("id"), stored.get("kind", "")
            self.tables[sid] = shown
        return self.tables[sid]

    async def _hand(self, sid: int, user: str) -> Shown:
        key = (sid, user)
        if key not in self.hands:
            shown = Shown(int(user))
            session = await self.manager.stored(sid)
            stored = (session.messages.get("hands", {}).get(user) if session else None) or {}
            shown.message_id, shown.kind = stored.get("id"), stored.get("kind", "")
            self.hands[key] = shown
        return self.hands[key]

    async def _flush_table(self, sid: int) -> None:
        shown = self.tables.get(sid)
        if shown is None or shown.screen is None:
            return
        box = self._box(shown.chat)
        screen = shown.screen
        await self._show(shown, box)
        await self.manager.remember(sid, "table", {"id": shown.message_id, "kind": shown.kind})
        for old in shown.retired:
            async with box.sending():
                await _quietly(self.app.bot.delete_message(shown.chat, old))
        shown.retired.clear()
        if shown.closing and shown.screen is screen:
            # Only once the last screen is shown: the game may have ended while an earlier one
            # was being sent, and its final table is then still waiting in the outbox.
            self.tables.pop(sid, None)

    def _hand_job(self, sid: int, user: str, chat: int, thread: int | None) -> Any:
        async def job() -> None:
            shown = self.hands.get((sid, user))
            if shown is None or shown.screen is None:
                return
            screen = shown.screen
            try:
                await self._show(shown, self._box(shown.chat))
            except Forbidden:
                shown.fresh = True
                await self._ask_to_start(sid, user, chat, thread)
                return
            await self.manager.remember(sid, f"hands/{user}",
                                        {"id": shown.message_id, "kind": shown.kind})
            for old in shown.retired:
                await _quietly(self.app.bot.delete_message(shown.chat, old))
            shown.retired.clear()
            if shown.closing and shown.screen is screen:  # as for the table
                self.hands.pop((sid, user), None)
        return job

    async def _show(self, shown: Shown, box: Outbox) -> None:
        """Put `shown.screen` on screen: edit in place, or send anew when it must notify, when
        nothing is shown yet, or when a text message would have to become a picture."""
        screen = shown.screen
        assert screen is not None
        needs_new = _sends_anew(shown, screen)
        shown.fresh = False
        markup = self.markup(screen.keyboard)
        bot = self.app.bot
        if needs_new:
            shown.replacing = True
            try:
                png = await self._render(screen)
                async with box.sending():
                    message = await self._send(shown.chat, shown.thread, screen, png)
            finally:
                shown.replacing = False
            if shown.message_id is not None:
                shown.retired.append(shown.message_id)
            shown.message_id = message.message_id
            shown.kind = "photo" if screen.picture is not None else "text"
            shown.picture = screen.picture
            return
        new_picture = screen.picture is not None and screen.picture != shown.picture
        png = await self._render(screen) if new_picture else None
        try:
            async with box.sending():
                if png is not None:
                    await bot.edit_message_media(
                        InputMediaPhoto(png, caption=screen.text[:CAPTION_LIMIT]),
                        chat_id=shown.chat, message_id=shown.message_id, reply_markup=markup)
                    shown.picture = screen.picture
                elif shown.kind == "photo":
                    await bot.edit_message_caption(
                        chat_id=shown.chat, message_id=shown.message_id,
                        caption=screen.text[:CAPTION_LIMIT], reply_markup=markup)
                else:
                    await bot.edit_message_text(
                        screen.text[:TEXT_LIMIT], chat_id=shown.chat,
                        message_id=shown.message_id, reply_markup=markup)
        except BadRequest as exc:
            text = str(exc).lower()
            if "not modified" in text:
                return
            if "not found" in text or "can't be edited" in text:
                shown.message_id = None
                shown.fresh = True
                shown.screen = screen
                await self._show(shown, box)
                return
            raise

    async def _render(self, screen: Screen) -> bytes | None:
        """Pictures are drawn in a worker thread, only when a message really shows them."""
        if screen.picture is None:
            return None
        return await asyncio.to_thread(screen.picture.render)

    async def _send(self, chat: int, thread: int | None, screen: Screen,
                    png: bytes | None = None) -> Message:
        markup = self.markup(screen.keyboard)
        if screen.picture is not None:
            if png is None:
                png = await self._render(screen)
            sent: Message = await self.app.bot.send_photo(
                chat, png, caption=screen.text[:CAPTION_LIMIT], reply_markup=markup,
                message_thread_id=thread)
            return sent
        sent = await self.app.bot.send_message(chat, screen.text[:TEXT_LIMIT],
                                               reply_markup=markup, message_thread_id=thread)
        return sent

    def _group_post(self, chat: int, thread: int | None, post: Post) -> Any:
        """A new message in the group; a kept one is reported delivered once the chat has it,
        or once the chat refuses it for good (the bot was removed)."""
        async def job() -> None:
            png = await self._render(post.screen)
            try:
                async with self._box(chat).sending():
                    await self._send(chat, thread, post.screen, png)
            except TelegramError as exc:
                if retry_after(exc) is not None or post.key is None:
                    raise
                log.warning("telegram: chat %s refused a post for good: %s", chat, exc)
            if post.key is not None:
                await self.manager.delivered(post.key)
        return job

    def _private_post(self, sid: int, user: str, screen: Screen, chat: int,
                      thread: int | None) -> Any:
        async def job() -> None:
            try:
                await self._send(int(user), None, screen)
            except Forbidden:
                await self._ask_to_start(sid, user, chat, thread)
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
        url = self._link("h", sid)
        screen = Screen(tr(lang, "start_me", name=name))
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(tr(lang, "btn.start_me"), url=url)]])

        async def job() -> None:
            async with self._box(chat).sending():
                await self.app.bot.send_message(chat, screen.text, reply_markup=markup,
                                                message_thread_id=thread)
        self._box(chat).post(job)

    def markup(self, keyboard: Keyboard) -> InlineKeyboardMarkup | None:
        if not keyboard:
            return None
        rows = []
        for row in keyboard:
            buttons = []
            for button in row:
                if button.link is not None:
                    kind, sid = button.link
                    buttons.append(InlineKeyboardButton(
                        button.label, url=self._link("j" if kind == "join" else "h", sid)))
                else:
                    buttons.append(InlineKeyboardButton(button.label, callback_data=button.data))
            rows.append(buttons)
        return InlineKeyboardMarkup(rows)

    def _link(self, kind: str, sid: int) -> str:
        return f"https://t.me/{self.app.bot.username}?start={kind}_{sid}"


def retry_after(exc: BaseException) -> float | None:
    """Seconds to wait before sending again what Telegram refused for now (flood control, a
    timeout, a network or server error); None for a refusal that retrying cannot change."""
    if isinstance(exc, RetryAfter):
        wait = exc.retry_after
        return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
    if isinstance(exc, TimedOut) or (isinstance(exc, NetworkError)
                                     and not isinstance(exc, BadRequest)):
        return 1.0
    return None


def _page_of(data: str) -> int | None:
    """The leaderboard page a button names, or None for any other button."""
    try:
        press = decode(data)
    except BadPayload:
        return None
    return press.version if press.code == TOP else None


def _sends_anew(shown: Shown, screen: Screen) -> bool:
    """Whether showing `screen` takes a new message: it must notify, nothing is shown yet, or a
    text message would have to become a picture."""
    return (shown.fresh or shown.message_id is None
            or (screen.picture is not None and shown.kind != "photo"))


def actor_of(user: TgUser) -> Actor:
    return Actor(str(user.id), user.full_name or user.username or str(user.id),
                 user.language_code)


def place_of(message: Message) -> Place:
    chat = message.chat
    topic = str(message.message_thread_id) if message.is_topic_message else ""
    title = chat.title or chat.full_name or ""
    return Place(str(chat.id), topic, title)


def _command_name(text: str) -> str:
    return text.split()[0].lstrip("/").split("@")[0].lower()


async def _answer(query: CallbackQuery, text: str, alert: bool) -> None:
    with contextlib.suppress(TelegramError):
        await query.answer(text[:ALERT_LIMIT] or None, show_alert=alert)


async def _quietly(work: Any) -> None:
    """A message that could not be sent (deleted, chat gone) is logged, never raised."""
    try:
        await work
    except TelegramError as exc:
        log.warning("telegram: %s", exc)
