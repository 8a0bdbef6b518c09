"""How a screen becomes a Telegram message, and what Telegram's errors and objects mean here.

docs/architecture.md §5 (Telegram). A screen with a picture is a photo with a caption, one without
is a text message; a text message cannot be edited into a photo, so a `Shown` remembers which it is,
and what it shows (the picture's digest, the words, the buttons), so that a screen nobody would see
differ from it costs no call. A picture Telegram already has is sent again by the file_id Telegram
gave it (`FileIds`, by a hash of its bytes), never uploaded twice. Buttons that open the private
chat carry a start code (`j_<game>` joins, `h_<game>` shows the hand). Which refusals are passing
(`retry_after`) is decided here, and the token never reaches a log (`guard_logs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    WebAppInfo,
)
from telegram import User as TgUser
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import ExtBot

from bot.present.miniapp import START, WATCH, MiniApp
from bot.present.screens import Actor, Keyboard, Place, Screen, Target
from bot.service.logs import hide
from bot.session.adapter import Slot
from bot.session.outbox import Outbox, Pace

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
ALERT_LIMIT = 200

KEEP_MOST = 24
"""Earlier hand messages a private chat keeps before they are deleted anyway."""
FILE_IDS = 4096
"""Pictures whose file_id is remembered (the least recently shown is forgotten first): a few
minutes of every open table's boards and hands."""


@dataclass(frozen=True, slots=True)
class Photo:
    """A picture drawn for Telegram, and the hash of its bytes that names it."""

    png: bytes
    digest: bytes

    @classmethod
    def of(cls, png: bytes) -> Photo:
        return cls(png, hashlib.blake2b(png, digest_size=16).digest())


class FileIds:
    """The file_id Telegram gave each picture it was sent, by the picture's digest, so that the
    same bytes go as a file_id instead of a second upload. Bounded, and kept in memory only:
    after a restart a picture is simply uploaded once more. A picture on its way up is not
    uploaded a second time meanwhile (the same board for the group and a hand for its
    player go out at once): the second call waits for the first's file_id."""

    def __init__(self, most: int = FILE_IDS) -> None:
        self.most = most
        self._ids: OrderedDict[bytes, str] = OrderedDict()
        self._uploading: dict[bytes, asyncio.Event] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def get(self, digest: bytes) -> str | None:
        found = self._ids.get(digest)
        if found is not None:
            self._ids.move_to_end(digest)
        return found

    def put(self, digest: bytes, file_id: str) -> None:
        self._ids[digest] = file_id
        self._ids.move_to_end(digest)
        while len(self._ids) > self.most:
            self._ids.popitem(last=False)

    def forget(self, digest: bytes) -> None:
        self._ids.pop(digest, None)

    async def known(self, digest: bytes) -> str | None:
        """The picture's file_id, once an upload of it under way has finished; None when
        Telegram has not got it (then the caller uploads it, within `uploading`)."""
        while (pending := self._uploading.get(digest)) is not None:
            await pending.wait()
        return self.get(digest)

    @contextlib.contextmanager
    def uploading(self, digest: bytes) -> Iterator[None]:
        done = self._uploading[digest] = asyncio.Event()
        try:
            yield
        finally:
            del self._uploading[digest]
            done.set()


def wrong_file(exc: BaseException) -> bool:
    """Telegram no longer knows a file_id it gave (it is kept in memory only, but a file_id
    may still be refused): the picture must be uploaded again."""
    text = str(exc).lower()
    return isinstance(exc, BadRequest) and ("file identifier" in text or "file_id" in text
                                            or "file reference" in text)


@dataclass(slots=True)
class Shown(Slot):
    """A message shown in place (the table, a hand): a photo or a text message."""

    kind: str = ""
    """"photo" or "text": a text message cannot be edited into a photo."""
    digest: bytes | None = None
    """The digest of the picture the message shows."""
    words: str | None = None
    """The caption or text the message shows."""
    layout: Any = None
    """The buttons the message shows (the keyboard as Telegram gets it)."""
    keeps: bool = False
    """A hand: the message it replaces may stay a while (see `kept`)."""

    def anew(self, screen: Screen) -> bool:
        return Slot.anew(self, screen) or (screen.picture is not None and self.kind != "photo")

    def stored(self) -> dict[str, Any]:
        return {**Slot.stored(self), "kind": self.kind}

    def load(self, stored: dict[str, Any]) -> None:
        Slot.load(self, stored)
        self.kind = stored.get("kind", "")

    def same(self, digest: bytes | None, words: str, layout: Any) -> bool:
        """Whether the message already shows this: nobody would see an edit."""
        return (self.message_id is not None and digest == self.digest and words == self.words
                and layout == self.layout)

    def showing(self, digest: bytes | None, words: str, layout: Any) -> None:
        self.digest, self.words, self.layout = digest, words, layout

    @property
    def asked(self) -> bool:
        """Whether the message shows a button to press (a link to the web table is none)."""
        rows = self.layout.get("inline_keyboard", []) if isinstance(self.layout, dict) else []
        return any("callback_data" in button for row in rows for button in row)


def guard_logs(token: str) -> None:
    """The token is part of every Bot API URL: keep httpx from logging each request, and
    redact the token from every log record and line (`bot.service.logs.hide`)."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    hide(token)


def inline_markup(keyboard: Keyboard, username: str | None, miniapp: MiniApp | None = None,
                  private: bool = False) -> InlineKeyboardMarkup | None:
    """Inline buttons; a link button opens the private chat with a start code, or the game's
    web table, for a player or to watch (a `web_app` button in a private chat, a direct link
    in a group, which takes no `web_app` buttons; none at all without a Mini App)."""
    if not keyboard:
        return None
    rows = []
    for row in keyboard:
        buttons = []
        for button in row:
            if button.url:
                buttons.append(InlineKeyboardButton(button.label, url=button.url))
            elif button.link is not None:
                kind, sid = button.link
                start = WATCH if kind == "watch" else START
                if kind not in ("app", "watch"):
                    buttons.append(InlineKeyboardButton(button.label, url=start_link(
                        username, "j" if kind == "join" else "h", sid)))
                elif miniapp is not None and private:
                    buttons.append(InlineKeyboardButton(
                        button.label, web_app=WebAppInfo(miniapp.page(sid, start))))
                elif miniapp is not None:
                    buttons.append(InlineKeyboardButton(
                        button.label, url=miniapp.direct_link(username, sid, start)))
            else:
                buttons.append(InlineKeyboardButton(button.label, callback_data=button.data))
        if buttons:
            rows.append(buttons)
    return InlineKeyboardMarkup(rows) if rows else None


def start_link(username: str | None, kind: str, sid: int) -> str:
    return f"https://t.me/{username}?start={kind}_{sid}"


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


def replied_to(message: Message) -> Target | None:
    """Whom a command names by replying to their message (a person's, not the bot's own or a
    forum topic's opening message)."""
    replied = message.reply_to_message
    if replied is None or replied.from_user is None or replied.from_user.is_bot:
        return None
    if message.is_topic_message and replied.message_id == message.message_thread_id:
        return None
    return Target(str(replied.from_user.id), actor_of(replied.from_user).name)


def actor_of(user: TgUser) -> Actor:
    return Actor(str(user.id), user.full_name or user.username or str(user.id),
                 user.language_code)


def place_of(message: Message) -> Place:
    chat = message.chat
    topic = str(message.message_thread_id) if message.is_topic_message else ""
    title = chat.title or chat.full_name or ""
    return Place(str(chat.id), topic, title)


def command_name(text: str) -> str:
    return text.split()[0].lstrip("/").split("@")[0].lower()


async def answer_query(query: CallbackQuery, text: str, alert: bool) -> None:
    with contextlib.suppress(TelegramError):
        await query.answer(text[:ALERT_LIMIT] or None, show_alert=alert)


async def quietly(work: Any) -> None:
    """A message that could not be sent (deleted, chat gone) is logged, never raised."""
    try:
        await work
    except TelegramError as exc:
        log.warning("telegram: %s", exc)


class Messages:
    """Screens put on Telegram: sent, or edited in place, with the fewest calls and uploads.

    Calls are what limits how many tables one bot serves (Telegram takes about 30 a second
    from a bot, all chats together), so none is spent on what nobody would see: an edit that
    changes nothing is not made, and a picture Telegram has is sent by its file_id. A player's
    turn costs two calls in their private chat: the new hand message that notifies them (only
    a new message does), and the edit that shows the hand after their move. The hand message a
    turn replaces then shows no buttons any more, so it stays in the chat until a hand that
    asks nothing (a new deal they do not lead, the game's end) deletes all such messages in
    one call. (Near the bot's limit the edit after a move may never come: the next turn's
    message shows the hand, and the old buttons are refused as out of date.)
    """

    def __init__(self, bot: ExtBot[Any], pace: Pace | None,
                 miniapp: MiniApp | None = None) -> None:
        self.bot = bot
        self.pace = pace
        self.miniapp = miniapp
        self.file_ids = FileIds()

    def markup(self, keyboard: Keyboard, chat: int) -> InlineKeyboardMarkup | None:
        """A private chat's have its user's id, a positive number; a group's is negative."""
        return inline_markup(keyboard, self.bot.username, self.miniapp, private=chat > 0)

    async def show(self, shown: Shown, box: Outbox) -> None:
        """Put `shown.screen` on screen: edit in place, or send anew when it must notify, when
        nothing is shown yet, or when a text message would have to become a picture; no call
        at all when the message already shows exactly this."""
        screen = shown.screen
        assert screen is not None
        needs_new = shown.anew(screen)
        shown.fresh = False
        buttons = self.markup(screen.keyboard, shown.where)
        layout = buttons.to_dict() if buttons is not None else None
        if needs_new:
            try:
                await self._show_anew(shown, box, screen, layout)
            except BaseException:
                shown.fresh = True  # (nothing new was sent: a try again must send it anew)
                raise
            return
        photo = None
        if screen.picture is not None and screen.picture != shown.picture:
            photo = await self.render(screen)
        digest = photo.digest if photo is not None else shown.digest
        words = screen.text[:CAPTION_LIMIT if shown.kind == "photo" else TEXT_LIMIT]
        if shown.same(digest, words, layout):
            shown.picture = screen.picture
            return
        bot = self.bot
        try:
            async with box.sending():
                if photo is not None and photo.digest != shown.digest:
                    await self.uploading(photo, lambda media: bot.edit_message_media(
                        InputMediaPhoto(media, caption=words), chat_id=shown.where,
                        message_id=shown.message_id, reply_markup=buttons))
                elif shown.kind == "photo":
                    await bot.edit_message_caption(
                        chat_id=shown.where, message_id=shown.message_id, caption=words,
                        reply_markup=buttons)
                else:
                    await bot.edit_message_text(
                        words, chat_id=shown.where, message_id=shown.message_id,
                        reply_markup=buttons)
        except BadRequest as exc:
            text = str(exc).lower()
            if "not modified" in text:
                shown.picture = screen.picture
                shown.showing(digest, words, layout)
                return
            if "not found" in text or "can't be edited" in text:
                shown.message_id = None
                shown.fresh = True
                shown.screen = screen
                await self.show(shown, box)
                return
            raise
        shown.picture = screen.picture
        shown.showing(digest, words, layout)

    async def _show_anew(self, shown: Shown, box: Outbox, screen: Screen, layout: Any) -> None:
        """A new message for the slot. The one it replaces is deleted, or, for a hand whose
        new message asks for a move, kept to be deleted with others later: when it asks for
        nothing any more, or when the bot is at Telegram's limit (its update after the move
        waited, and its buttons are refused as out of date)."""
        shown.replacing = True
        try:
            photo = await self.render(screen)
            async with box.sending():
                message = await self.send(shown.where, shown.thread, screen, photo)
        finally:
            shown.replacing = False
        if shown.message_id is not None:
            shown.kept.append(shown.message_id)
        at_limit = self.pace is not None and not self.pace.room()
        if not (shown.keeps and screen.asks and (not shown.asked or at_limit)
                and len(shown.kept) <= KEEP_MOST):
            shown.retire_kept()
        shown.message_id = message.message_id
        shown.kind = "photo" if screen.picture is not None else "text"
        shown.picture = screen.picture
        shown.showing(photo.digest if photo is not None else None,
                      screen.text[:CAPTION_LIMIT if photo is not None else TEXT_LIMIT], layout)

    async def render(self, screen: Screen) -> Photo | None:
        """Pictures are drawn in a worker thread, only when a message really shows them."""
        if screen.picture is None:
            return None
        return Photo.of(await asyncio.to_thread(screen.picture.render, "telegram"))

    async def uploading(self, photo: Photo, call: Callable[[str | bytes], Awaitable[Any]]
                         ) -> Any:
        """Make `call` with the picture Telegram already has (its file_id), else upload it and
        remember the file_id Telegram gives it."""
        file_id = await self.file_ids.known(photo.digest)
        if file_id is not None:
            try:
                return await call(file_id)
            except BadRequest as exc:
                if not wrong_file(exc):
                    raise
                self.file_ids.forget(photo.digest)
        with self.file_ids.uploading(photo.digest):
            sent = await call(photo.png)
            if isinstance(sent, Message) and sent.photo:
                self.file_ids.put(photo.digest, sent.photo[-1].file_id)
        return sent

    async def send(self, chat: int, thread: int | None, screen: Screen,
                    photo: Photo | None = None) -> Message:
        buttons = self.markup(screen.keyboard, chat)
        bot = self.bot
        if screen.picture is not None:
            if photo is None:
                photo = await self.render(screen)
                assert photo is not None
            sent: Message = await self.uploading(photo, lambda media: bot.send_photo(
                chat, media, caption=screen.text[:CAPTION_LIMIT], reply_markup=buttons,
                message_thread_id=thread))
            return sent
        sent = await bot.send_message(chat, screen.text[:TEXT_LIMIT], reply_markup=buttons,
                                      message_thread_id=thread)
        return sent
