"""How a screen becomes a Telegram message, and what Telegram's errors and objects mean here.

DESIGN.md §5 (Telegram). A screen with a picture is a photo with a caption, one without is a
text message; a text message cannot be edited into a photo, so a `Shown` remembers which it is.
Buttons that open the private chat carry a start code (`j_<game>` joins, `h_<game>` shows the
hand). Which refusals are passing (`retry_after`) is decided here, and the token never reaches a
log (`guard_logs`).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram import User as TgUser
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError, TimedOut

from bot.adapter import Slot
from bot.payload import TOP, BadPayload, decode
from bot.screens import Actor, Keyboard, Place, Screen

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
ALERT_LIMIT = 200

_SECRETS: set[str] = set()


@dataclass(slots=True)
class Shown(Slot):
    """A message shown in place (the table, a hand): a photo or a text message."""

    kind: str = ""
    """"photo" or "text": a text message cannot be edited into a photo."""

    def anew(self, screen: Screen) -> bool:
        return Slot.anew(self, screen) or (screen.picture is not None and self.kind != "photo")

    def stored(self) -> dict[str, Any]:
        return {"id": self.message_id, "kind": self.kind}

    def load(self, stored: dict[str, Any]) -> None:
        self.message_id, self.kind = stored.get("id"), stored.get("kind", "")


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


def inline_markup(keyboard: Keyboard, username: str | None) -> InlineKeyboardMarkup | None:
    """Inline buttons; a link button opens the private chat with a start code."""
    if not keyboard:
        return None
    rows = []
    for row in keyboard:
        buttons = []
        for button in row:
            if button.link is not None:
                kind, sid = button.link
                buttons.append(InlineKeyboardButton(
                    button.label, url=start_link(username, "j" if kind == "join" else "h", sid)))
            else:
                buttons.append(InlineKeyboardButton(button.label, callback_data=button.data))
        rows.append(buttons)
    return InlineKeyboardMarkup(rows)


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


def page_of(data: str) -> int | None:
    """The leaderboard page a button names, or None for any other button."""
    try:
        press = decode(data)
    except BadPayload:
        return None
    return press.version if press.code == TOP else None


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
