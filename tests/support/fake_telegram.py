"""A fake Telegram Bot API server for end-to-end tests of the Telegram adapter.

The adapter is tested through the real python-telegram-bot library (docs/architecture.md §9), so
that request encoding, error mapping, retries and polling are the library's own and not a mock's.
The library is pointed at this server instead of api.telegram.org::

    Application.builder().token("123:TEST")
        .base_url(f"{server.url}/bot").base_file_url(f"{server.url}/file/bot")

The server keeps what a real chat would show (every message the bot sent, with its edits and
deletions), answers the way the Bot API does for the mistakes that matter in practice (editing a
message that is gone, an edit that changes nothing, writing first to a user who never started the
bot, a blocked bot, 429 flood control), records every call with a timestamp so tests can check the
per-group message rate, and lets a test play the users: typing commands and pressing buttons.

A webhook is kept as Telegram keeps it (`setWebhook`, `deleteWebhook`, `getWebhookInfo`): while
one is set, `getUpdates` is refused with 409 Conflict, and the updates users make are POSTed to
the webhook's URL instead, in order, one at a time, with the secret token in the
`X-Telegram-Bot-Api-Secret-Token` header; one the webhook does not answer with 2xx is tried again
a moment later, and the failure is what `getWebhookInfo` reports (the fake, unlike Telegram, also
delivers to plain http:// URLs, so that a bot on 127.0.0.1 can be the webhook).

Photos are kept as Telegram keeps them: an upload gets a file_id for each of several sizes
(the largest last), any of which sends or edits the same photo again without uploading it; a
file_id the server never gave is refused. Every uploaded byte is counted (`uploaded_bytes`).

It runs on 127.0.0.1 in daemon threads and uses the standard library only.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import html
import json
import math
import re
import struct
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from email.message import Message
from email.parser import HeaderParser
from email.utils import collapse_rfc2231_value
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

JSON = dict[str, Any]

BOT_ID = 999000
BOT_USERNAME = "gupai_test_bot"
BOT_FIRST_NAME = "Gupai"

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
KICKED = "Forbidden: bot was kicked from the supergroup chat"
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
METHOD_NOT_FOUND = "Not Found: method not found"
WEBHOOK_ACTIVE = ("Conflict: can't use getUpdates method while webhook is active; use "
                  "deleteWebhook to delete the webhook first")
WEBHOOK_SET = "Conflict: terminated by setWebhook request"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_RETRY = 0.2
"""Real seconds before a delivery the webhook refused is tried again."""
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")

# Methods that put something into a chat or change what it shows: what counts against the
# per-group message limit.
GROUP_METHODS = frozenset({
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
    "deleteMessages",
})

GROUP_LIMIT = 20
"""Calls of GROUP_METHODS Telegram takes in one group chat per GROUP_WINDOW seconds."""
GROUP_WINDOW = 60.0

# Parameters the library sends as raw strings. Every other form value is JSON (numbers, booleans,
# objects), and falls back to the raw string when it is not valid JSON (e.g. chat_id="@channel").
_STRING_FIELDS = frozenset({
    "text", "caption", "parse_mode", "callback_query_id", "language_code", "url", "photo",
    "document", "audio", "video", "animation", "voice", "video_note", "sticker", "thumbnail",
    "file_id", "title", "description", "short_description", "action", "emoji", "name",
    "business_connection_id", "inline_message_id", "message_effect_id", "custom_title",
    "question", "payload", "start_parameter", "secret_token", "ip_address",
})

_MAX_TEXT = 4096
_MAX_CAPTION = 1024
_MAX_CALLBACK_DATA = 64
_MAX_DELETE = 100
PHOTO_SIDES = (90, 320, 800, 1280)
"""The longest side of each size Telegram keeps of a photo (no size larger than the upload)."""
WRONG_FILE = "Bad Request: wrong file identifier/HTTP URL specified"
_TAG = re.compile(r"<[^>]*>")
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def bot_user() -> JSON:
    """The bot as a Bot API User object (what getMe returns)."""
    return {
        "id": BOT_ID,
        "is_bot": True,
        "first_name": BOT_FIRST_NAME,
        "username": BOT_USERNAME,
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


@dataclass(frozen=True)
class User:
    """A simulated Telegram user."""

    id: int
    first_name: str
    language_code: str = "uk"
    username: str | None = None

    def to_api(self) -> JSON:
        data: JSON = {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": self.language_code,
        }
        if self.username is not None:
            data["username"] = self.username
        return data


@dataclass(frozen=True)
class Call:
    """One request the bot made. ``at`` is the server's clock when the request arrived,
    ``answered`` when its answer was ready (calls are kept in that order); ``params`` are
    decoded (JSON fields as Python objects, uploaded files as bytes)."""

    method: str
    params: JSON
    at: float
    ok: bool
    chat_id: int | None
    error: str | None = None  # the error description when not ok
    answered: float = math.nan

    @property
    def caption(self) -> str:
        """The text the call shows: a media edit's caption, a photo's caption or a text."""
        media = self.params.get("media")
        if isinstance(media, dict):
            return str(media.get("caption") or "")
        return str(self.params.get("caption") or self.params.get("text") or "")


@dataclass(frozen=True)
class Answer:
    """One answerCallbackQuery call that succeeded."""

    callback_query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    at: float


@dataclass(frozen=True)
class Edit:
    """One successful edit of a message: the method, when, and its decoded parameters."""

    method: str
    at: float
    params: JSON


@dataclass
class SentMessage:
    """A message the bot sent, as it stands now. ``text`` and ``caption`` are exactly what the bot
    sent (with markup, if it used a parse mode)."""

    chat_id: int
    message_id: int
    date: int
    text: str | None = None
    caption: str | None = None
    photo: bytes | None = None  # the uploaded bytes, also when sent again by its file_id
    photo_file_id: str | None = None
    reply_markup: JSON | None = None
    message_thread_id: int | None = None
    parse_mode: str | None = None
    edits: list[Edit] = field(default_factory=list)
    deleted: bool = False
    edit_date: int | None = None

    @property
    def has_photo(self) -> bool:
        return self.photo_file_id is not None

    @property
    def content(self) -> str | None:
        """The text, or the caption of a photo."""
        return self.caption if self.has_photo else self.text

    def buttons(self) -> list[list[tuple[str, str | None]]]:
        """The inline keyboard as rows of (label, callback_data)."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [[(b.get("text", ""), b.get("callback_data")) for b in row] for row in rows]

    def button_data(self) -> list[str]:
        """Every callback_data on the inline keyboard, row by row."""
        return [data for row in self.buttons() for _, data in row if data is not None]


def _copied(msg: SentMessage) -> SentMessage:
    """A copy of a message that the server's later changes leave alone. Its edits are the
    server's own records, as `calls()` hands out its calls: frozen, and never changed once
    made (copying a long-edited table's history on every look would cost more than the look)."""
    return replace(msg, reply_markup=_json_copy(msg.reply_markup), edits=list(msg.edits))


def _json_copy(value: Any) -> Any:
    """A deep copy of decoded JSON (dicts, lists and plain values)."""
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value


@dataclass(frozen=True)
class Upload:
    """Bytes the bot uploaded in one call (successful or not: they crossed the wire)."""

    method: str
    at: float
    size: int


@dataclass(frozen=True)
class Delivery:
    """One POST of an update to the webhook: the HTTP status it got (0: no answer at all)."""

    update_id: int
    url: str
    status: int
    at: float

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class _Fault:
    status: int
    description: str
    parameters: JSON | None
    count: int
    chat_id: int | None = None
    """Only calls to this chat fail (None: any chat)."""


class _ApiError(Exception):
    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


def _bad(description: str) -> _ApiError:
    return _ApiError(400, f"Bad Request: {description}")


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _rendered(text: str, parse_mode: str | None) -> str:
    """The text a user would see (HTML tags removed and entities resolved); for MarkdownV2 the
    raw text is kept, which is only an approximation."""
    if parse_mode is not None and parse_mode.upper() == "HTML":
        return html.unescape(_TAG.sub("", text))
    return text


def _as_int(value: Any, default: int | None = None) -> int | None:
    if value is None or isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return default
    return default


def _decode_value(name: str, raw: str) -> Any:
    if name in _STRING_FIELDS:
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _header_param(headers: Message, param: str, header: str) -> str | None:
    value = headers.get_param(param, header=header)
    if value is None:
        return None
    if isinstance(value, tuple):
        return str(collapse_rfc2231_value(value))
    return str(value)


def _parse_multipart(content_type: str, body: bytes) -> JSON:
    """Form fields (decoded like url-encoded ones) and file parts (as bytes) of a
    multipart/form-data body. Split by hand so binary content is kept byte for byte."""
    boundary = _header_param(
        HeaderParser().parsestr(f"Content-Type: {content_type}\r\n\r\n"), "boundary", "content-type"
    )
    if not boundary:
        raise _bad("multipart body without a boundary")
    params: JSON = {}
    chunks = body.split(b"--" + boundary.encode("latin-1"))
    for chunk in chunks[1:]:
        if chunk.startswith(b"--"):
            break
        if chunk.startswith(b"\r\n"):
            chunk = chunk[2:]
        head, _, payload = chunk.partition(b"\r\n\r\n")
        if payload.endswith(b"\r\n"):
            payload = payload[:-2]
        headers = HeaderParser().parsestr(head.decode("utf-8", "replace") + "\r\n\r\n")
        name = _header_param(headers, "name", "content-disposition")
        if name is None:
            continue
        name = unquote(name)
        is_file = (
            _header_param(headers, "filename", "content-disposition") is not None
            or headers.get("content-type") is not None
        )
        if is_file:
            params[name] = payload
        else:
            params[name] = _decode_value(name, payload.decode("utf-8"))
    return params


def _decode_body(content_type: str, body: bytes, query: str) -> JSON:
    params: JSON = {k: _decode_value(k, v) for k, v in parse_qsl(query, keep_blank_values=True)}
    kind = content_type.split(";")[0].strip().lower()
    if not body:
        return params
    if kind == "multipart/form-data":
        params.update(_parse_multipart(content_type, body))
    elif kind == "application/json":
        decoded = json.loads(body)
        if isinstance(decoded, dict):
            params.update(decoded)
    else:
        text = body.decode("utf-8")
        params.update({k: _decode_value(k, v) for k, v in parse_qsl(text, keep_blank_values=True)})
    return params


def _image_size(data: bytes | None) -> tuple[int, int]:
    if data is not None and data.startswith(_PNG_SIGNATURE) and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return 100, 100


def _photo_sizes(width: int, height: int) -> list[tuple[int, int]]:
    """The sizes Telegram keeps of a photo, smallest first: each of PHOTO_SIDES below the
    photo's longest side, then the photo itself (at most the largest side)."""
    longest = max(width, height, 1)
    sizes = []
    for side in PHOTO_SIDES:
        scale = min(1.0, side / longest)
        sizes.append((max(1, round(width * scale)), max(1, round(height * scale))))
        if side >= longest:
            break
    return sizes


def _short(value: Any, limit: int = 60) -> str:
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away (a cancelled long poll) is not an error worth printing.
        pass


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.0"  # one request per connection: no stale keep-alive sockets

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return bytes(body)
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass

    def _dispatch(self) -> None:
        fake = self.server.fake
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        body = self._read_body()
        if len(parts) >= 3 and parts[0] == "file" and parts[1].startswith("bot"):
            data = fake._file_by_path("/".join(parts[2:]))
            if data is None:
                self._send(404, b'{"ok":false,"error_code":404,"description":"Not Found"}')
            else:
                self._send(200, data, "application/octet-stream")
            return
        if len(parts) != 2 or not parts[0].startswith("bot"):
            self._send(404, b'{"ok":false,"error_code":404,"description":"Not Found"}')
            return
        try:
            params = _decode_body(self.headers.get("Content-Type", ""), body, url.query)
        except (ValueError, _ApiError) as exc:
            payload = {"ok": False, "error_code": 400, "description": f"Bad Request: {exc}"}
            self._send(400, json.dumps(payload).encode())
            return
        status, response = fake._handle(parts[1], params)
        self._send(status, json.dumps(response, ensure_ascii=False).encode("utf-8"))


def _loop_clock() -> Callable[[], float]:
    try:
        return asyncio.get_running_loop().time
    except RuntimeError:
        return time.monotonic


class FakeTelegram:
    """The fake Bot API server. It listens as soon as it is created; ``close()`` it, or use it as
    a (sync or async) context manager. All helpers are safe to call from the test's event loop
    while the server threads answer the bot."""

    def __init__(self, *, clock: Callable[[], float] | None = None,
                 group_limit: int | None = GROUP_LIMIT, group_window: float = GROUP_WINDOW
                 ) -> None:
        """``clock`` stamps every call and measures every wait; by default the clock of the
        event loop the server is made in (virtual time in most tests), else the real one.
        ``group_limit`` calls of GROUP_METHODS per ``group_window`` seconds in a group chat,
        as Telegram allows; more are answered 429 (None: no limit)."""
        self._clock = clock or _loop_clock()
        self.group_limit = group_limit
        self.group_window = group_window
        self._admitted: dict[int, list[float]] = {}
        self._cond = threading.Condition(threading.RLock())
        self._calls: list[Call] = []
        self._updates: list[JSON] = []
        self._next_update_id = 1
        self._delivered_up_to = 0
        self._messages: dict[int, dict[int, SentMessage]] = {}
        self._next_message_id: dict[int, int] = {}
        self._users: dict[int, User] = {}
        self._started: set[int] = set()
        self._blocked: set[int] = set()
        self._kicked: set[int] = set()
        self._member_status: dict[tuple[int, int], str] = {}
        self._chat_titles: dict[int, str] = {}
        self._chat_types: dict[int, str] = {}
        self._faults: dict[str, list[_Fault]] = {}
        self._gates: dict[str, threading.Event] = {}
        self._held: dict[str, int] = {}
        self._commands: dict[tuple[str, str], list[JSON]] = {}
        self._files: dict[str, bytes] = {}
        self._sizes: dict[str, list[JSON]] = {}
        """Any file_id of a photo: every size of that photo (PhotoSize objects)."""
        self._file_counter = 0
        self._uploads: list[Upload] = []
        self._callback_ids: set[str] = set()
        self._answers: list[Answer] = []
        self._said: dict[int, JSON] = {}
        """What users wrote, by the update_id that carried it (for a reply to quote)."""
        self._in_flight = 0
        self._made = 0
        """Calls answered so far (`clear_calls` leaves this count alone)."""
        self._watchers: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self._polls_begun = 0
        self._last_activity = self._clock()
        self._closed = False
        self._webhook: JSON | None = None
        """What setWebhook set: url, secret_token, allowed_updates (None: no webhook)."""
        self._webhook_error: tuple[int, str] | None = None
        self._deliveries: list[Delivery] = []
        self._deliverer: threading.Thread | None = None
        self._handlers: dict[str, Callable[[JSON, float], Any]] = {
            "getMe": lambda p, at: bot_user(),
            "logOut": lambda p, at: True,
            "close": lambda p, at: True,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "getUpdates": self._get_updates,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "sendMessage": self._send_message,
            "sendPhoto": self._send_photo,
            "editMessageText": self._edit_text,
            "editMessageCaption": self._edit_caption,
            "editMessageReplyMarkup": self._edit_reply_markup,
            "editMessageMedia": self._edit_media,
            "deleteMessage": self._delete_message,
            "deleteMessages": self._delete_messages,
            "answerCallbackQuery": self._answer_callback_query,
            "getChatMember": self._get_chat_member,
            "sendChatAction": self._send_chat_action,
            "getFile": self._get_file,
        }
        self._by_lower = {name.lower(): name for name in self._handlers}
        self._httpd = _HTTPServer(self)
        self.port: int = int(self._httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"fake-telegram-{self.port}",
            daemon=True,
        )
        self._thread.start()

    # ----------------------------------------------------------------------------- lifecycle

    def close(self) -> None:
        """Stop serving: pending getUpdates return at once, the port is released."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
            gates = list(self._gates.values())
            self._gates.clear()
        for gate in gates:
            gate.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
        if self._deliverer is not None:
            self._deliverer.join(timeout=5)

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> FakeTelegram:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> FakeTelegram:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ users, chats, faults

    def start_bot(self, user: User | int) -> None:
        """The user pressed Start in a private chat with the bot."""
        with self._cond:
            if isinstance(user, User):
                self._users[user.id] = user
            self._started.add(user.id if isinstance(user, User) else user)

    def has_started(self, user_id: int) -> bool:
        with self._cond:
            return user_id in self._started

    def block(self, user_id: int) -> None:
        """The user blocked the bot: every send or edit to their private chat gets 403."""
        with self._cond:
            self._blocked.add(user_id)

    def unblock(self, user_id: int) -> None:
        with self._cond:
            self._blocked.discard(user_id)

    def kick_bot(self, chat_id: int) -> None:
        """The bot was removed from a group: sends and edits there get 403."""
        with self._cond:
            self._kicked.add(chat_id)

    def set_chat(self, chat_id: int, *, title: str | None = None, chat_type: str | None = None,
                 ) -> None:
        """Name a group chat or set its type ("group", "supergroup", "channel")."""
        with self._cond:
            if title is not None:
                self._chat_titles[chat_id] = title
            if chat_type is not None:
                self._chat_types[chat_id] = chat_type

    def set_member_status(self, chat_id: int, user: User | int, status: str) -> None:
        """getChatMember's status for this user in this chat: "creator", "administrator",
        "member", "left" or "kicked". Unset users are members."""
        if status not in {"creator", "administrator", "member", "left", "kicked"}:
            raise ValueError(f"unsupported status {status!r}")
        with self._cond:
            user_id = user.id if isinstance(user, User) else user
            if isinstance(user, User):
                self._users[user.id] = user
            self._member_status[(chat_id, user_id)] = status

    def make_admin(self, chat_id: int, user: User | int, *, creator: bool = False) -> None:
        self.set_member_status(chat_id, user, "creator" if creator else "administrator")

    def fail_next(
        self,
        method: str,
        status: int = 429,
        retry_after: int = 2,
        count: int = 1,
        description: str | None = None,
        chat_id: int | None = None,
    ) -> None:
        """Make the next ``count`` calls of ``method`` (to ``chat_id`` only, if given) fail
        with this status. 429 carries ``parameters.retry_after`` (so the library raises
        RetryAfter)."""
        name = self._by_lower.get(method.lower(), method)
        parameters: JSON | None = None
        if status == 429:
            parameters = {"retry_after": retry_after}
            description = description or f"Too Many Requests: retry after {retry_after}"
        elif description is None:
            description = {
                400: "Bad Request: injected failure",
                403: BLOCKED,
                500: "Internal Server Error",
                502: "Bad Gateway",
            }.get(status, HTTPStatus(status).phrase)
        with self._cond:
            self._faults.setdefault(name, []).append(
                _Fault(status, description, parameters, count, chat_id)
            )

    def clear_faults(self) -> None:
        """Answer every call normally again: failures `fail_next` queued and not yet used are
        dropped."""
        with self._cond:
            self._faults.clear()

    def hold(self, method: str) -> None:
        """Keep calls of ``method`` from being answered until ``release(method)``: a call on its
        way for as long as a test needs, to change things while it is."""
        name = self._by_lower.get(method.lower(), method)
        with self._cond:
            self._gates.setdefault(name, threading.Event())

    def release(self, method: str) -> None:
        """Answer the held calls of ``method``, and answer later ones at once again."""
        name = self._by_lower.get(method.lower(), method)
        with self._cond:
            gate = self._gates.pop(name, None)
        if gate is not None:
            gate.set()

    def held(self, method: str) -> int:
        """How many calls of ``method`` are waiting to be answered."""
        name = self._by_lower.get(method.lower(), method)
        with self._cond:
            return self._held.get(name, 0)

    # ------------------------------------------------------------------ what users do

    def inject(self, update: JSON) -> int:
        """Queue a raw update (``update_id`` is assigned) and return its update_id."""
        with self._cond:
            update_id = self._next_update_id
            self._next_update_id += 1
            self._updates.append({**update, "update_id": update_id})
            self._last_activity = self._clock()
            self._cond.notify_all()
            return update_id

    def send_text(
        self,
        user: User,
        chat_id: int,
        text: str,
        *,
        chat_type: str | None = None,
        thread_id: int | None = None,
        reply_to: int | None = None,
    ) -> int:
        """A user writes ``text`` in a chat (private chat id = user.id, groups are negative).
        A command gets its bot_command entity. A private message means the user started the
        bot. ``reply_to``: the update_id of an earlier message in the same chat, which this one
        answers (Telegram then quotes it as ``reply_to_message``, one level deep). Returns the
        update_id."""
        with self._cond:
            self._users[user.id] = user
            if chat_type is not None:
                self._chat_types[chat_id] = chat_type
            private = self._chat_type(chat_id) == "private"
            if private and chat_id != user.id:
                raise ValueError("a private chat's id is the user's id")
            message: JSON = {
                "message_id": self._new_message_id(chat_id),
                "date": int(time.time()),
                "chat": self._chat(chat_id),
                "from": user.to_api(),
                "text": text,
            }
            if thread_id is not None:
                message["message_thread_id"] = thread_id
                message["is_topic_message"] = True
            if reply_to is not None:
                quoted = self._said.get(reply_to)
                if quoted is None or quoted["chat"]["id"] != chat_id:
                    raise LookupError(f"no message of update {reply_to} in chat {chat_id}")
                message["reply_to_message"] = {k: v for k, v in quoted.items()
                                               if k != "reply_to_message"}
            if text.startswith("/"):
                command = text.split()[0] if text.split() else text
                message["entities"] = [
                    {"type": "bot_command", "offset": 0, "length": _utf16_len(command)}
                ]
            if private:
                self._started.add(user.id)
            update_id = self.inject({"message": message})
            self._said[update_id] = copy.deepcopy(message)
            return update_id

    def press(
        self,
        user: User,
        chat_id: int,
        message_id: int,
        data: str,
        *,
        check_button: bool = True,
    ) -> int:
        """A user presses an inline button with ``data`` under a message the bot sent. With
        ``check_button`` the message must currently have such a button. Returns the update_id;
        the callback query id is ``f"cq{update_id}"``."""
        with self._cond:
            return self.inject(self.press_update(user, chat_id, message_id, data,
                                                 check_button=check_button))

    def press_update(self, user: User, chat_id: int, message_id: int, data: str, *,
                     check_button: bool = True, update_id: int | None = None) -> JSON:
        """The callback query a press makes, not queued (`press` queues it): what a forger
        would send to a webhook. Without ``update_id`` it is the id of the next update."""
        with self._cond:
            msg = self._messages.get(chat_id, {}).get(message_id)
            if msg is None or msg.deleted:
                raise LookupError(f"no live message {message_id} in chat {chat_id}")
            if check_button and data not in msg.button_data():
                raise AssertionError(
                    f"message {message_id} in chat {chat_id} has no button {data!r}; "
                    f"it has {msg.button_data()}"
                )
            self._users[user.id] = user
            if update_id is None:
                update_id = self._next_update_id
            query_id = f"cq{update_id}"
            self._callback_ids.add(query_id)
            query: JSON = {
                "id": query_id,
                "from": user.to_api(),
                "message": self._message_api(msg),
                "chat_instance": f"ci{chat_id}",
                "data": data,
            }
            return {"callback_query": query, "update_id": update_id}

    # ------------------------------------------------------------------ what the bot did

    def polls_begun(self) -> int:
        """`getUpdates` calls received so far, finished or still waiting (`calls` lists a
        call once it is answered, and a long poll is answered only when it ends)."""
        with self._cond:
            return self._polls_begun

    def calls(self, method: str | None = None) -> list[Call]:
        with self._cond:
            if method is None:
                return list(self._calls)
            name = self._by_lower.get(method.lower(), method)
            return [call for call in self._calls if call.method == name]

    def clear_calls(self) -> None:
        with self._cond:
            self._calls.clear()

    def group_calls(self, chat_id: int) -> list[Call]:
        """Calls that send, edit or delete messages in this chat (successful or not)."""
        with self._cond:
            return [c for c in self._calls if c.method in GROUP_METHODS and c.chat_id == chat_id]

    def max_per_window(self, chat_id: int, window: float = 60.0) -> int:
        """The most successful group_calls(chat_id) that fall within any ``window`` seconds."""
        times = sorted(call.at for call in self.group_calls(chat_id) if call.ok)
        best = 0
        start = 0
        for end, at in enumerate(times):
            while at - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def messages(self, chat_id: int) -> list[SentMessage]:
        """Copies of the bot's live (not deleted) messages in a chat, oldest first."""
        with self._cond:
            found = sorted(self._messages.get(chat_id, {}).values(), key=lambda m: m.message_id)
            return [_copied(m) for m in found if not m.deleted]

    def message(self, chat_id: int, message_id: int) -> SentMessage | None:
        """A copy of one of the bot's messages, deleted or not."""
        with self._cond:
            found = self._messages.get(chat_id, {}).get(message_id)
            return _copied(found) if found is not None else None

    def last_message(self, chat_id: int) -> SentMessage | None:
        live = self.messages(chat_id)
        return live[-1] if live else None

    def latest(self, chat_id: int, *, photo: bool = False) -> SentMessage | None:
        """A copy of the newest live message in a chat (with ``photo``, the newest photo),
        without copying the rest: cheap enough to look at many chats many times a second."""
        with self._cond:
            for msg in reversed(self._messages.get(chat_id, {}).values()):
                if not msg.deleted and (msg.has_photo or not photo):
                    return _copied(msg)
        return None

    def uploads(self) -> list[Upload]:
        with self._cond:
            return list(self._uploads)

    def uploaded_bytes(self, since: float = -math.inf, until: float = math.inf) -> int:
        """Bytes uploaded by calls that arrived between ``since`` and ``until``."""
        with self._cond:
            return sum(u.size for u in self._uploads if since <= u.at < until)

    def answers(self) -> list[Answer]:
        with self._cond:
            return list(self._answers)

    def webhook(self) -> JSON | None:
        """The webhook as set (url, secret_token, allowed_updates), None when none is."""
        with self._cond:
            return copy.deepcopy(self._webhook)

    def deliveries(self) -> list[Delivery]:
        """Every POST of an update to a webhook, in order."""
        with self._cond:
            return list(self._deliveries)

    def commands(self, language_code: str = "", scope: JSON | None = None) -> list[JSON] | None:
        """The commands set for this scope and language, None if never set."""
        with self._cond:
            found = self._commands.get((self._scope_key(scope), language_code))
            return copy.deepcopy(found) if found is not None else None

    def all_commands(self) -> dict[tuple[str, str], list[JSON]]:
        """Every command list set, keyed by (scope, language_code); scope is its type, followed by
        ":chat_id" (and ":user_id") for chat scopes."""
        with self._cond:
            return copy.deepcopy(self._commands)

    def take_updates(self) -> list[JSON]:
        """The updates not yet handed to the bot, handed over now (for a bot that does not
        poll, such as one on a virtual clock), and confirmed."""
        with self._cond:
            pending = [u for u in self._updates if u["update_id"] > self._delivered_up_to]
            if pending:
                self._delivered_up_to = pending[-1]["update_id"]
            self._updates = []
            return copy.deepcopy(pending)

    def pending_updates(self) -> int:
        """Updates queued but not yet handed to the bot."""
        with self._cond:
            return sum(1 for u in self._updates if u["update_id"] > self._delivered_up_to)

    def made(self) -> int:
        """How many calls the server has answered so far: for `next_call`."""
        with self._cond:
            return self._made

    async def next_call(self, made: int, timeout: float) -> None:
        """Wait until the server has answered more than `made` calls, or for `timeout`
        seconds: a test that watches what the bot shows looks again when it may have changed,
        not at every tick of the clock (on a virtual clock, a wait for the bot's next timer
        then costs one look, not one every few milliseconds)."""
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        watcher = (loop, event)
        with self._cond:
            if self._made > made:
                return
            self._watchers.append(watcher)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        finally:
            with self._cond:
                self._watchers.remove(watcher)

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> None:
        """Wait until ``predicate()`` is true; on timeout fail with the last calls."""
        deadline = self._clock() + timeout
        while not predicate():
            if self._clock() >= deadline:
                raise AssertionError(
                    f"condition not met within {timeout}s; {self.summary()}"
                )
            await asyncio.sleep(0.01)

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[Call], bool] | None = None,
        timeout: float = 10.0,
        *,
        after: int = 0,
    ) -> Call:
        """Wait for a call of ``method`` (matching ``predicate``) among calls()[after:]."""
        found: list[Call] = []

        def seen() -> bool:
            for call in self.calls()[after:]:
                if call.method == self._by_lower.get(method.lower(), method) and (
                    predicate is None or predicate(call)
                ):
                    found.append(call)
                    return True
            return False

        await self.wait_for(seen, timeout)
        return found[0]

    async def wait_idle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until every injected update was fetched and no call (other than the long poll)
        has been made or been in progress for ``quiet`` seconds."""
        deadline = self._clock() + timeout
        while True:
            now = self._clock()
            with self._cond:
                idle = (
                    self._in_flight == 0
                    and now - self._last_activity >= quiet
                    and all(u["update_id"] <= self._delivered_up_to for u in self._updates)
                )
            if idle:
                return
            if now >= deadline:
                raise AssertionError(f"bot not idle within {timeout}s; {self.summary()}")
            await asyncio.sleep(0.02)

    def summary(self, last: int = 15) -> str:
        """The last calls, one per line, for failure messages."""
        calls = [c for c in self.calls() if c.method != "getUpdates"]
        if not calls:
            return "no calls besides getUpdates"
        start = calls[0].at
        lines = [f"last {min(last, len(calls))} of {len(calls)} calls (getUpdates omitted):"]
        for call in calls[-last:]:
            shown = ", ".join(f"{k}={_short(v)}" for k, v in call.params.items())
            status = "ok" if call.ok else f"FAILED {call.error}"
            lines.append(
                f"  +{call.at - start:7.3f}s {call.method}(chat={call.chat_id}) {status}: {shown}"
            )
        return "\n".join(lines)

    # ------------------------------------------------------------------ request handling

    def _handle(self, path_method: str, params: JSON) -> tuple[int, JSON]:
        at = self._clock()
        name = self._by_lower.get(path_method.lower(), path_method)
        chat_id = _as_int(params.get("chat_id"))
        polling = name == "getUpdates"
        with self._cond:
            if polling:
                self._polls_begun += 1
            else:
                self._in_flight += 1
                self._last_activity = at
            size = sum(len(v) for v in params.values() if isinstance(v, bytes))
            if size:
                self._uploads.append(Upload(name, at, size))
            gate = self._gates.get(name)
            if gate is not None:
                self._held[name] = self._held.get(name, 0) + 1
        if gate is not None:
            gate.wait(timeout=30.0)
            with self._cond:
                self._held[name] -= 1
        try:
            status, response = self._run(name, params, at)
        except Exception as exc:  # a bug in the fake itself: answer, and keep the record
            status = 500
            response = {"ok": False, "error_code": 500, "description": f"fake failed: {exc!r}"}
        with self._cond:
            ok = status == 200
            error = None if ok else str(response.get("description"))
            self._calls.append(Call(name, params, at, ok, chat_id, error, self._clock()))
            self._made += 1
            watchers = list(self._watchers)
            if not polling:
                self._in_flight -= 1
                self._last_activity = self._clock()
        for loop, event in watchers:
            with contextlib.suppress(RuntimeError):  # (a loop closed meanwhile)
                loop.call_soon_threadsafe(event.set)
        return status, response

    def _run(self, name: str, params: JSON, at: float) -> tuple[int, JSON]:
        handler = self._handlers.get(name)
        with self._cond:
            faults = self._faults.get(name)
            chat = _as_int(params.get("chat_id"))
            fault = next((f for f in faults or () if f.chat_id in (None, chat)), None)
            if faults and fault is not None:
                fault.count -= 1
                if fault.count <= 0:
                    faults.remove(fault)
                return fault.status, self._error_body(
                    _ApiError(fault.status, fault.description, fault.parameters)
                )
            if handler is None:
                return 404, self._error_body(_ApiError(404, METHOD_NOT_FOUND))
            flood = self._flood_wait(name, params, at)
            if flood is not None:
                return 429, self._error_body(_ApiError(
                    429, f"Too Many Requests: retry after {flood}", {"retry_after": flood}))
            try:
                return 200, {"ok": True, "result": handler(params, at)}
            except _ApiError as exc:
                self._unadmit(params, at)
                return exc.status, self._error_body(exc)

    def _flood_wait(self, name: str, params: JSON, at: float) -> int | None:
        """Seconds to wait when a group has had its ``group_limit`` calls in the window;
        otherwise the call is admitted (and counted) and None is returned."""
        chat_id = _as_int(params.get("chat_id"))
        if self.group_limit is None or name not in GROUP_METHODS or chat_id is None \
                or chat_id >= 0:
            return None
        recent = [t for t in self._admitted.get(chat_id, []) if t > at - self.group_window]
        if len(recent) >= self.group_limit:
            self._admitted[chat_id] = recent
            return max(1, math.ceil(recent[0] + self.group_window - at))
        self._admitted[chat_id] = [*recent, at]
        return None

    def _unadmit(self, params: JSON, at: float) -> None:
        """A refused call did not reach the chat: it does not count against its limit."""
        admitted = self._admitted.get(_as_int(params.get("chat_id")) or 0)
        if admitted and at in admitted:
            admitted.remove(at)

    @staticmethod
    def _error_body(exc: _ApiError) -> JSON:
        body: JSON = {"ok": False, "error_code": exc.status, "description": exc.description}
        if exc.parameters:
            body["parameters"] = exc.parameters
        return body

    def _file_by_path(self, path: str) -> bytes | None:
        file_id = path.rsplit("/", 1)[-1].split(".")[0]
        with self._cond:
            return self._files.get(file_id)

    # The handlers below run with the lock held.

    def _chat_type(self, chat_id: int) -> str:
        return self._chat_types.get(chat_id, "private" if chat_id > 0 else "supergroup")

    def _chat(self, chat_id: int) -> JSON:
        kind = self._chat_type(chat_id)
        if kind == "private":
            user = self._users.get(chat_id)
            chat: JSON = {"id": chat_id, "type": kind,
                          "first_name": user.first_name if user else f"User {chat_id}"}
            if user is not None and user.username is not None:
                chat["username"] = user.username
            return chat
        return {"id": chat_id, "type": kind,
                "title": self._chat_titles.get(chat_id, f"Group {chat_id}")}

    def _new_message_id(self, chat_id: int) -> int:
        message_id = self._next_message_id.get(chat_id, 1)
        self._next_message_id[chat_id] = message_id + 1
        return message_id

    def _check_chat(self, params: JSON) -> int:
        chat_id = _as_int(params.get("chat_id"))
        if chat_id is None:
            raise _bad("chat not found")
        if chat_id in self._kicked:
            raise _ApiError(403, KICKED)
        if self._chat_type(chat_id) == "private":
            if chat_id in self._blocked:
                raise _ApiError(403, BLOCKED)
            if chat_id not in self._started:
                raise _ApiError(403, CANT_INITIATE)
        return chat_id

    @staticmethod
    def _check_markup(markup: Any) -> JSON | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise _bad("can't parse reply keyboard markup JSON object")
        rows = markup.get("inline_keyboard")
        if rows is not None:
            for row in rows:
                for button in row:
                    data = button.get("callback_data")
                    if data is not None and len(str(data).encode()) > _MAX_CALLBACK_DATA:
                        raise _bad("BUTTON_DATA_INVALID")
            if not any(rows):
                return None
        return markup

    @staticmethod
    def _check_text(value: Any, parse_mode: str | None, *, caption: bool) -> str | None:
        if value is None:
            return None
        text = str(value)
        limit = _MAX_CAPTION if caption else _MAX_TEXT
        if _utf16_len(_rendered(text, parse_mode)) > limit:
            raise _bad("message caption is too long" if caption else "message is too long")
        return text

    def _message_api(self, msg: SentMessage) -> JSON:
        data: JSON = {
            "message_id": msg.message_id,
            "date": msg.date,
            "chat": self._chat(msg.chat_id),
            "from": bot_user(),
        }
        if msg.message_thread_id is not None:
            data["message_thread_id"] = msg.message_thread_id
            data["is_topic_message"] = True
        if msg.edit_date is not None:
            data["edit_date"] = msg.edit_date
        if msg.photo_file_id is not None:
            data["photo"] = copy.deepcopy(self._sizes[msg.photo_file_id])
            if msg.caption:
                data["caption"] = _rendered(msg.caption, msg.parse_mode)
        elif msg.text is not None:
            data["text"] = _rendered(msg.text, msg.parse_mode)
        if msg.reply_markup is not None and "inline_keyboard" in msg.reply_markup:
            data["reply_markup"] = msg.reply_markup
        return data

    def _store_file(self, data: bytes) -> str:
        """Keep an uploaded photo in each of its sizes; the largest size's file_id."""
        self._file_counter += 1
        base = f"AgACfake{self._file_counter:06d}"
        sizes = _photo_sizes(*_image_size(data))
        photo: list[JSON] = []
        for n, (width, height) in enumerate(sizes):
            file_id = base if n == len(sizes) - 1 else f"{base}_{max(width, height)}"
            self._files[file_id] = data
            photo.append({"file_id": file_id, "file_unique_id": f"u{file_id}",
                          "width": width, "height": height, "file_size": len(data)})
        for size in photo:
            self._sizes[size["file_id"]] = photo
        return base

    def _photo(self, value: Any, params: JSON) -> tuple[bytes, str]:
        """The photo a call shows: an upload, or one uploaded before named by any of its
        sizes' file_ids; the photo's bytes and its largest size's file_id."""
        if isinstance(value, str) and value.startswith("attach://"):
            value = params.get(value.removeprefix("attach://"))
            if value is None:
                raise _ApiError(400, WRONG_FILE)
        if isinstance(value, bytes):
            if not value:
                raise _bad("file must be non-empty")
            return value, self._store_file(value)
        if isinstance(value, str) and value:
            sizes = self._sizes.get(value)
            if sizes is None:
                raise _ApiError(400, WRONG_FILE)
            largest = str(sizes[-1]["file_id"])
            return self._files[largest], largest
        raise _bad("there is no photo in the request")

    def _thread_id(self, params: JSON) -> int | None:
        return _as_int(params.get("message_thread_id"))

    def _send_message(self, params: JSON, at: float) -> JSON:
        chat_id = self._check_chat(params)
        parse_mode = params.get("parse_mode")
        text = self._check_text(params.get("text"), parse_mode, caption=False)
        if not text or not _rendered(text, parse_mode).strip():
            raise _bad("message text is empty")
        msg = SentMessage(
            chat_id=chat_id,
            message_id=self._new_message_id(chat_id),
            date=int(time.time()),
            text=text,
            reply_markup=self._check_markup(params.get("reply_markup")),
            message_thread_id=self._thread_id(params),
            parse_mode=parse_mode,
        )
        self._messages.setdefault(chat_id, {})[msg.message_id] = msg
        return self._message_api(msg)

    def _send_photo(self, params: JSON, at: float) -> JSON:
        chat_id = self._check_chat(params)
        parse_mode = params.get("parse_mode")
        caption = self._check_text(params.get("caption"), parse_mode, caption=True)
        photo, file_id = self._photo(params.get("photo"), params)
        msg = SentMessage(
            chat_id=chat_id,
            message_id=self._new_message_id(chat_id),
            date=int(time.time()),
            caption=caption or None,
            photo=photo,
            photo_file_id=file_id,
            reply_markup=self._check_markup(params.get("reply_markup")),
            message_thread_id=self._thread_id(params),
            parse_mode=parse_mode,
        )
        self._messages.setdefault(chat_id, {})[msg.message_id] = msg
        return self._message_api(msg)

    def _editable(self, params: JSON) -> SentMessage:
        if params.get("inline_message_id") is not None:
            raise _bad("inline messages are not supported by the fake")
        chat_id = self._check_chat(params)
        message_id = _as_int(params.get("message_id"))
        msg = self._messages.get(chat_id, {}).get(message_id or 0)
        if msg is None or msg.deleted:
            raise _ApiError(400, EDIT_NOT_FOUND)
        return msg

    def _edited(self, msg: SentMessage, method: str, params: JSON, at: float) -> JSON:
        msg.edits.append(Edit(method, at, params))
        msg.edit_date = int(time.time())
        return self._message_api(msg)

    # Like the Bot API, an edit without reply_markup removes the inline keyboard.

    def _edit_text(self, params: JSON, at: float) -> JSON:
        msg = self._editable(params)
        if msg.text is None:
            raise _bad("there is no text in the message to edit")
        parse_mode = params.get("parse_mode")
        text = self._check_text(params.get("text"), parse_mode, caption=False)
        if not text:
            raise _bad("message text is empty")
        markup = self._check_markup(params.get("reply_markup"))
        if text == msg.text and markup == msg.reply_markup:
            raise _ApiError(400, NOT_MODIFIED)
        msg.text, msg.parse_mode, msg.reply_markup = text, parse_mode, markup
        return self._edited(msg, "editMessageText", params, at)

    def _edit_caption(self, params: JSON, at: float) -> JSON:
        msg = self._editable(params)
        if not msg.has_photo:
            raise _bad("there is no caption in the message to edit")
        parse_mode = params.get("parse_mode")
        caption = self._check_text(params.get("caption"), parse_mode, caption=True) or None
        markup = self._check_markup(params.get("reply_markup"))
        if caption == msg.caption and markup == msg.reply_markup:
            raise _ApiError(400, NOT_MODIFIED)
        msg.caption, msg.parse_mode, msg.reply_markup = caption, parse_mode, markup
        return self._edited(msg, "editMessageCaption", params, at)

    def _edit_reply_markup(self, params: JSON, at: float) -> JSON:
        msg = self._editable(params)
        markup = self._check_markup(params.get("reply_markup"))
        if markup == msg.reply_markup:
            raise _ApiError(400, NOT_MODIFIED)
        msg.reply_markup = markup
        return self._edited(msg, "editMessageReplyMarkup", params, at)

    def _edit_media(self, params: JSON, at: float) -> JSON:
        msg = self._editable(params)
        media = params.get("media")
        if not isinstance(media, dict):
            raise _bad("can't parse InputMedia: media is not a JSON object")
        if media.get("type") != "photo":
            raise _bad(f"the fake only supports photo media, not {media.get('type')!r}")
        parse_mode = media.get("parse_mode")
        caption = self._check_text(media.get("caption"), parse_mode, caption=True) or None
        markup = self._check_markup(params.get("reply_markup"))
        photo, file_id = self._photo(media.get("media"), params)
        if file_id == msg.photo_file_id and caption == msg.caption and markup == msg.reply_markup:
            raise _ApiError(400, NOT_MODIFIED)
        # Like the Bot API, this may also turn a text message into a photo.
        msg.photo, msg.photo_file_id = photo, file_id
        msg.text = None
        msg.caption, msg.parse_mode, msg.reply_markup = caption, parse_mode, markup
        return self._edited(msg, "editMessageMedia", params, at)

    def _delete_message(self, params: JSON, at: float) -> bool:
        chat_id = _as_int(params.get("chat_id"))
        message_id = _as_int(params.get("message_id"))
        msg = self._messages.get(chat_id or 0, {}).get(message_id or 0)
        if msg is None or msg.deleted:
            raise _ApiError(400, DELETE_NOT_FOUND)
        msg.deleted = True
        return True

    def _delete_messages(self, params: JSON, at: float) -> bool:
        """Several messages of one chat at once; like the Bot API, the ones already gone are
        skipped."""
        chat_id = _as_int(params.get("chat_id"))
        ids = params.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= _MAX_DELETE:
            raise _bad("message identifiers are not specified" if not ids
                       else "too many message identifiers specified")
        for message_id in ids:
            msg = self._messages.get(chat_id or 0, {}).get(_as_int(message_id) or 0)
            if msg is not None:
                msg.deleted = True
        return True

    def _answer_callback_query(self, params: JSON, at: float) -> bool:
        query_id = params.get("callback_query_id")
        if not isinstance(query_id, str) or query_id not in self._callback_ids:
            raise _ApiError(400, QUERY_INVALID)
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise _bad("MESSAGE_TOO_LONG")
        self._answers.append(Answer(
            callback_query_id=query_id,
            text=text,
            show_alert=bool(params.get("show_alert", False)),
            url=params.get("url"),
            at=at,
        ))
        return True

    def _get_chat_member(self, params: JSON, at: float) -> JSON:
        chat_id = _as_int(params.get("chat_id"))
        user_id = _as_int(params.get("user_id"))
        if chat_id is None or user_id is None:
            raise _bad("chat not found" if chat_id is None else "invalid user_id specified")
        if user_id == BOT_ID:
            user_api: JSON = {k: v for k, v in bot_user().items()
                              if k in {"id", "is_bot", "first_name", "username"}}
        else:
            user = self._users.get(user_id, User(user_id, f"User {user_id}"))
            user_api = user.to_api()
        status = self._member_status.get((chat_id, user_id), "member")
        member: JSON = {"status": status, "user": user_api}
        if status == "creator":
            member["is_anonymous"] = False
        elif status == "administrator":
            member.update({
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                "can_pin_messages": True,
                "can_manage_topics": False,
            })
        elif status == "kicked":
            member["until_date"] = 0
        return member

    def _send_chat_action(self, params: JSON, at: float) -> bool:
        self._check_chat(params)
        return True

    def _get_file(self, params: JSON, at: float) -> JSON:
        file_id = params.get("file_id")
        if not isinstance(file_id, str) or file_id not in self._files:
            raise _bad("invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_size": len(self._files[file_id]),
            "file_path": f"photos/{file_id}.png",
        }

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if not isinstance(scope, dict):
            return "default"
        key = str(scope.get("type", "default"))
        for part in ("chat_id", "user_id"):
            if part in scope:
                key += f":{scope[part]}"
        return key

    def _set_my_commands(self, params: JSON, at: float) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad("can't parse commands JSON object")
        for command in commands:
            name = command.get("command", "") if isinstance(command, dict) else ""
            if not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise _bad("BOT_COMMAND_INVALID")
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self._commands[key] = commands
        return True

    def _get_my_commands(self, params: JSON, at: float) -> list[JSON]:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return self._commands.get(key, [])

    def _delete_my_commands(self, params: JSON, at: float) -> bool:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self._commands.pop(key, None)
        return True

    def _set_webhook(self, params: JSON, at: float) -> bool:
        url = str(params.get("url") or "")
        if not url:
            return self._delete_webhook(params, at)
        if not url.startswith(("https://", "http://")):
            raise _bad("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.fullmatch(str(secret)):
            raise _bad("secret token contains unallowed characters")
        allowed = params.get("allowed_updates")
        if params.get("drop_pending_updates"):
            self._drop_pending()
        if self._webhook is None or self._webhook["url"] != url:
            self._webhook_error = None
        self._webhook = {"url": url, "secret_token": secret,
                         "allowed_updates": allowed if isinstance(allowed, list) else None}
        if self._deliverer is None:
            self._deliverer = threading.Thread(target=self._deliver, daemon=True,
                                               name=f"fake-telegram-webhook-{self.port}")
            self._deliverer.start()
        self._cond.notify_all()
        return True

    def _delete_webhook(self, params: JSON, at: float) -> bool:
        if params.get("drop_pending_updates"):
            self._drop_pending()
        self._webhook = None
        self._webhook_error = None
        self._cond.notify_all()
        return True

    def _drop_pending(self) -> None:
        if self._updates:
            self._delivered_up_to = max(self._delivered_up_to, self._updates[-1]["update_id"])
        self._updates = []

    def _get_webhook_info(self, params: JSON, at: float) -> JSON:
        pending = sum(1 for u in self._updates if u["update_id"] > self._delivered_up_to)
        info: JSON = {"url": "", "has_custom_certificate": False,
                      "pending_update_count": pending}
        if self._webhook is not None:
            info.update(url=self._webhook["url"], max_connections=40)
            if self._webhook["allowed_updates"] is not None:
                info["allowed_updates"] = self._webhook["allowed_updates"]
            if self._webhook_error is not None:
                info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    def _deliver(self) -> None:
        """The webhook's deliveries, in a thread of their own: the oldest update not yet
        delivered is POSTed (without the lock: the bot calls back while it handles it), and
        is confirmed once the webhook answers 2xx."""
        while True:
            with self._cond:
                while not self._closed and (self._webhook is None or not self._undelivered()):
                    self._cond.wait(0.5)
                if self._closed:
                    return
                assert self._webhook is not None
                update = copy.deepcopy(self._undelivered()[0])
                url, secret = self._webhook["url"], self._webhook["secret_token"]
            status, error = self._post(url, secret, update)
            with self._cond:
                self._deliveries.append(Delivery(update["update_id"], url, status,
                                                 self._clock()))
                self._last_activity = self._clock()
                if 200 <= status < 300:
                    self._delivered_up_to = max(self._delivered_up_to, update["update_id"])
                    self._updates = [u for u in self._updates
                                     if u["update_id"] > self._delivered_up_to]
                    continue
                if self._webhook is not None and self._webhook["url"] == url:
                    self._webhook_error = (int(time.time()), error)
            time.sleep(WEBHOOK_RETRY)

    def _undelivered(self) -> list[JSON]:
        return [u for u in self._updates if u["update_id"] > self._delivered_up_to]

    @staticmethod
    def _post(url: str, secret: str | None, update: JSON) -> tuple[int, str]:
        """POST one update to the webhook: the status and, if it failed, what Telegram would
        say of it."""
        headers = {"Content-Type": "application/json"}
        if secret:
            headers[SECRET_HEADER] = secret
        request = urllib.request.Request(url, data=json.dumps(update).encode(),
                                         headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return int(answer.status), ""
        except urllib.error.HTTPError as exc:
            return exc.code, f"Wrong response from the webhook: {exc.code} {exc.reason}"
        except OSError as exc:
            reason = getattr(exc, "reason", exc)
            return 0, f"Connection failed: {reason}"

    def _get_updates(self, params: JSON, at: float) -> list[JSON]:
        if self._webhook is not None:
            raise _ApiError(409, WEBHOOK_ACTIVE)
        offset = _as_int(params.get("offset"), 0) or 0
        limit = max(1, min(100, _as_int(params.get("limit"), 100) or 100))
        timeout = max(0.0, float(params.get("timeout") or 0))
        deadline = time.monotonic() + timeout  # a long poll waits on the real clock
        # Like the Bot API, an offset confirms (forgets) every earlier update.
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        while True:
            pending = self._updates[:limit]
            remaining = deadline - time.monotonic()
            if pending or self._closed or remaining <= 0:
                break
            self._cond.wait(remaining)
            if self._webhook is not None:
                raise _ApiError(409, WEBHOOK_SET)
        if pending:
            self._delivered_up_to = max(self._delivered_up_to, pending[-1]["update_id"])
        return copy.deepcopy(pending)
