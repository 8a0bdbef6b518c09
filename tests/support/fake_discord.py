"""A fake Discord for tests of the Discord adapter: a real `discord.Client` with no network.

discord.py sends every request through one aiohttp session, and `FakeDiscord.install` answers
it: `HTTPClient.request` (login, command sync, DMs, channel messages) runs as it does live, with
its rate-limit buckets and retries, and so does the webhook adapter that sends interaction
responses, followups and `@original` edits. The fake keeps what users see (`messages`,
ephemeral ones marked with their user) and records every call. Users act through
INTERACTION_CREATE payloads (`slash`, `autocomplete`, `button`, `select`) given to `feed`, which
waits for the handlers to finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import math
import mimetypes
import re
import time
import weakref
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import unquote

import aiohttp
import discord
from discord.http import Route
from multidict import CIMultiDict
from yarl import URL

JSON = dict[str, Any]
Files = list[tuple[str, bytes]]

APP_ID = 4242
DEFAULT_GUILD_ID = 555
DEFAULT_CHANNEL_ID = 777
EPHEMERAL = 64
LOADING = 128

ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(discord.Permissions(
    view_channel=True, send_messages=True, read_message_history=True, embed_links=True,
    attach_files=True, add_reactions=True, use_application_commands=True).value)

BOT_USER: JSON = {"id": str(APP_ID), "username": "gupai", "global_name": "Gupai",
                  "discriminator": "0", "avatar": None, "bot": True, "verified": True,
                  "mfa_enabled": False, "flags": 0, "public_flags": 0}
APPLICATION: JSON = {"id": str(APP_ID), "name": "gupai", "description": "", "icon": None,
                     "bot_public": True, "bot_require_code_grant": False, "owner": BOT_USER,
                     "team": None, "verify_key": "0" * 64, "flags": 0}

# Bookkeeping the fake keeps in each stored message; never sent to discord.py.
FAKE_KEYS = ("interaction_token", "ephemeral", "interaction_user_id")
# Tasks `settle` does not wait for: a view's timeout, a `delete_after` timer.
BACKGROUND = ("__timeout_task_impl", "<locals>.inner_call")

_snowflakes = itertools.count(1_400_000_000_000_000_000)
_tokens = itertools.count(1)


def command_id(name: str) -> int:
    """The id a command gets when synced, the same in every payload that invokes it."""
    return 1_100_000_000_000_000_000 + zlib.crc32(name.encode())


def dm_channel_id(user_id: int) -> int:
    return 900_000 + user_id


def permissions_without(*names: str) -> str:
    """The resolved permissions of a bot that is not an administrator and lacks `names`."""
    permissions = discord.Permissions.all()
    for name in ("administrator", *names):
        setattr(permissions, name, False)  # an unknown name raises AttributeError
    return str(permissions.value)


def _wire(message: JSON) -> JSON:
    """A stored message as Discord sends it: a copy without the fake's bookkeeping."""
    return {k: copy.deepcopy(v) for k, v in message.items() if k not in FAKE_KEYS}


def _skeleton(message_id: int, channel_id: int, flags: int = 0) -> JSON:
    return {"id": str(message_id), "channel_id": str(channel_id), "author": BOT_USER,
            "content": "", "embeds": [], "components": [], "attachments": [],
            "timestamp": datetime.now(UTC).isoformat(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
            "type": 0, "flags": flags}


@dataclass(frozen=True)
class User:
    """A Discord user as interactions describe them; `locale` is their client's language."""

    id: int
    name: str
    locale: str = "en-US"
    roles: tuple[int, ...] = ()
    permissions: str = MEMBER_PERMISSIONS

    def user(self) -> JSON:
        return {"id": str(self.id), "username": self.name.lower(), "global_name": self.name,
                "discriminator": "0", "avatar": None, "bot": False, "public_flags": 0}

    def member(self) -> JSON:
        return {"user": self.user(), "roles": [str(r) for r in self.roles],
                "joined_at": "2024-01-01T00:00:00+00:00", "permissions": self.permissions,
                "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None}


@dataclass
class Call:
    """One request discord.py made: `json` is the body, or the `payload_json` of a multipart one."""

    index: int
    method: str
    path: str
    json: JSON | list[Any] | None
    files: Files = field(default_factory=list)
    reason: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    at: float = 0.0
    """When it was made, on the loop's clock."""
    status: int = 200
    """What it was answered: 200 (or 204), an error status, 429 when rate limited."""


@dataclass
class _Interaction:
    id: int
    type: int
    token: str
    user_id: int
    channel_id: int
    message_id: int | None  # the message a component is on
    response: int | None = None
    original_id: int | None = None
    created: float = 0.0


class _Response:
    """As much of `aiohttp.ClientResponse` as discord.py reads."""

    def __init__(self, status: int, body: Any = None, headers: dict[str, str] | None = None
                 ) -> None:
        self.status = status
        self.reason = HTTPStatus(status).phrase
        self.headers: CIMultiDict[str] = CIMultiDict(headers or {})
        if body is not None:
            self.headers["content-type"] = "application/json"
        self._text = "" if body is None else json.dumps(body)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text


class Refused(Exception):
    """An error answer, as Discord's body gives it: HTTP status, JSON error code, message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message = status, code, message


def http_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises for a Discord error response."""
    response, body = cast(Any, _Response(status)), {"code": code, "message": message}
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return (discord.DiscordServerError if status >= 500 else kind)(response, body)


def _invalid(detail: str) -> Refused:
    return Refused(400, 50035, f"Invalid Form Body: {detail}")


def _read(fp: Any) -> bytes:
    position = fp.tell()
    data = fp.read()
    fp.seek(position)
    return bytes(data)


@dataclass(frozen=True)
class Limit:
    """One of Discord's rate limits: `count` requests per `per` seconds in each bucket."""

    count: int
    per: float


LIMITS: dict[tuple[str, str], Limit] = {
    # Per channel, as Discord reports them in X-RateLimit headers for a bot's own messages.
    ("POST", r"/channels/(\d+)/messages"): Limit(5, 5.0),
    ("PATCH", r"/channels/(\d+)/messages/\d+"): Limit(5, 5.0),
    ("DELETE", r"/channels/(\d+)/messages/\d+"): Limit(5, 1.0),
}
GLOBAL = Limit(50, 1.0)
"""Every request of the bot (interaction responses and followups excepted)."""
FIRST_RESPONSE = 3.0
"""Seconds an interaction may wait for its first response."""
TOKEN_LIFE = 15 * 60.0
"""Seconds an interaction's token can send followups and edit its messages."""


@dataclass
class _Window:
    start: float = float("-inf")
    used: int = 0


class _Session:
    """Stands in for the aiohttp session through which discord.py sends every request: its
    `HTTPClient.request` (rate limits, retries) and the webhook adapter run as they do live,
    and so does the client's `http_trace`, told of every answer as a real session tells it."""

    def __init__(self, fake: FakeDiscord, trace: aiohttp.TraceConfig | None = None) -> None:
        self._fake = fake
        self._trace = trace
        if trace is not None:
            trace.freeze()
        self.closed = False

    @contextlib.asynccontextmanager
    async def request(self, method: str, url: str, *, data: Any = None,
                      headers: dict[str, str] | None = None,
                      params: dict[str, Any] | None = None, **_: Any) -> AsyncIterator[_Response]:
        body: Any = json.loads(data) if isinstance(data, str) and data else None
        files: Files = []
        if isinstance(data, aiohttp.FormData):
            for options, _headers, value in data._fields:
                if options["name"] == "payload_json":
                    body = json.loads(value)
                elif "filename" in options:
                    files.append((options["filename"], _read(value)))
        reason = (headers or {}).get("X-Audit-Log-Reason")
        await asyncio.sleep(0)
        response = self._fake.answer(method, unquote(url.removeprefix(Route.BASE)), body, files,
                                     unquote(reason) if reason else None, params or {})
        if self._trace is not None:
            await self._trace.on_request_end.send(
                self, self._trace.trace_config_ctx(), aiohttp.TraceRequestEndParams(
                    method, URL(url), CIMultiDict(headers or {}), cast(Any, response)))
        yield response

    async def close(self) -> None:
        self.closed = True


_FAKES: weakref.WeakKeyDictionary[discord.Client, FakeDiscord] = weakref.WeakKeyDictionary()


class FakeDiscord:
    """Discord as seen by one client: what it was asked, and what its channels show.

    Discord's rules are kept, on the loop's clock: the rate limits of `LIMITS` (answered with
    X-RateLimit headers, and with 429 when exceeded), an interaction's first response within
    three seconds, its token for fifteen minutes, and the limits on content, embeds and
    components. A request that breaks one is refused as Discord would refuse it; one that
    Discord would take but shows badly is noted in `problems`.
    """

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[int, JSON] = {}
        self.interaction_responses: list[tuple[int, int, Any]] = []
        self.unhandled: list[str] = []
        self.problems: list[str] = []
        self.registered: list[JSON] = []
        """Every interaction users made, in order."""
        self.closed_dms: set[int] = set()
        self.users: dict[int, JSON] = {}
        self.channels: dict[int, JSON] = {}
        self.background: list[str] = list(BACKGROUND)
        self.limits = dict(LIMITS)
        self._windows: dict[tuple[Any, ...], _Window] = {}
        self._failures: list[tuple[str, str, int, int, str]] = []
        self._interactions: dict[str, _Interaction] = {}
        self._known: set[asyncio.Task[Any]] = set()
        self._outside: set[asyncio.Task[Any]] = set()
        routes: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", r"/users/@me", lambda call: BOT_USER),
            ("GET", r"/oauth2/applications/@me", lambda call: APPLICATION),
            ("PUT", r"/applications/(\d+)/commands", self._sync),
            ("PUT", r"/applications/(\d+)/guilds/(\d+)/commands", self._sync),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("POST", r"/channels/(\d+)/typing", lambda call, channel: None),
            ("POST", r"/channels/(\d+)/messages", self._post),
            ("GET|PATCH|DELETE", r"/channels/(\d+)/messages/(\d+)", self._channel_message),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._callback),
            ("POST", r"/webhooks/(\d+)/([^/]+)", self._followup),
            ("GET|PATCH|DELETE", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)",
             self._webhook_message)]
        self._routes = [(m.split("|"), re.compile(p), h) for m, p, h in routes]
        self._limits = [(m, re.compile(p), limit) for (m, p), limit in self.limits.items()]

    @classmethod
    def install(cls, client: discord.Client) -> FakeDiscord:
        """Answer `client`'s requests from now on; no connection is ever opened."""
        fake, http = cls(), client.http

        async def static_login(token: str) -> Any:
            # What discord.py's own does, but with no connector or real session to make.
            http._global_over = asyncio.Event()
            http._global_over.set()
            http.token = token
            return await http.request(Route("GET", "/users/@me"))

        http.static_login = static_login  # type: ignore[method-assign]
        http._HTTPClient__session = _Session(fake, http.http_trace)  # type: ignore[attr-defined]
        with contextlib.suppress(RuntimeError):
            fake._outside = set(asyncio.all_tasks())
        _FAKES[client] = fake
        return fake

    @classmethod
    def of(cls, client: discord.Client) -> FakeDiscord:
        assert client in _FAKES, "FakeDiscord.install(client) was not called"
        return _FAKES[client]

    @staticmethod
    def now() -> float:
        """The clock Discord's rules are kept on: the running loop's."""
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return time.monotonic()

    def fail_next(self, method: str, path_prefix: str, status: int, code: int = 0,
                  message: str = "", count: int = 1) -> None:
        """Make the next `count` `method` calls to a path starting with `path_prefix` fail."""
        for _ in range(count):
            self._failures.append((method, path_prefix, status, code, message))

    def _shown(self, shown: Callable[[JSON], bool]) -> list[JSON]:
        return sorted(filter(shown, self.messages.values()), key=lambda m: int(m["id"]))

    def channel_messages(self, channel_id: int) -> list[JSON]:
        """What everyone sees in the channel, oldest first."""
        return self._shown(lambda m: int(m["channel_id"]) == channel_id and not m["ephemeral"])

    def last_message(self, channel_id: int) -> JSON | None:
        shown = self.channel_messages(channel_id)
        return shown[-1] if shown else None

    def ephemerals_for(self, user_id: int) -> list[JSON]:
        """The ephemeral messages only `user_id` sees, oldest first."""
        return self._shown(lambda m: m["ephemeral"] and m["interaction_user_id"] == user_id)

    def channel_calls(self, channel_id: int) -> list[Call]:
        """Successful calls that post, edit or delete messages in the channel."""
        prefix = f"/channels/{channel_id}/messages"
        return [c for c in self.calls if c.path.startswith(prefix) and c.status < 300
                and c.method in ("POST", "PATCH", "DELETE")]

    @property
    def limited(self) -> list[Call]:
        """The calls answered with 429."""
        return [c for c in self.calls if c.status == 429]

    def register(self, payload: JSON) -> None:
        """Learn of an interaction before discord.py sees it (`feed` does this)."""
        user = payload["member"]["user"] if "member" in payload else payload["user"]
        user_id, channel_id = int(user["id"]), int(payload["channel"]["id"])
        self.users[user_id] = user
        self.channels[channel_id] = payload["channel"]
        message = payload.get("message")
        if message is not None and int(message["id"]) not in self.messages:
            ephemeral = bool(message.get("flags", 0) & EPHEMERAL)
            self.messages[int(message["id"])] = {
                **copy.deepcopy(message), "interaction_token": None, "ephemeral": ephemeral,
                "interaction_user_id": user_id if ephemeral else None}
        self.registered.append(copy.deepcopy(payload))
        self._interactions[payload["token"]] = _Interaction(
            int(payload["id"]), payload["type"], payload["token"], user_id, channel_id,
            None if message is None else int(message["id"]), created=self.now())

    def answer(self, method: str, path: str, body: Any, files: Files, reason: str | None,
               params: dict[str, Any]) -> _Response:
        """Record a call and answer it as Discord would: a result, or an error body."""
        call = Call(len(self.calls), method, path, copy.deepcopy(body), files, reason,
                    {k: str(v) for k, v in params.items()}, at=self.now())
        self.calls.append(call)
        headers: dict[str, str] = {}
        try:
            for failure in self._failures:
                if failure[0] == method and path.startswith(failure[1]):
                    self._failures.remove(failure)
                    raise Refused(*failure[2:])
            limited = self._rate_limit(method, path, headers)
            if limited is not None:
                call.status = 429
                return _Response(429, limited, headers)
            for methods, pattern, handler in self._routes:
                match = pattern.fullmatch(path)
                if method in methods and match is not None:
                    result = copy.deepcopy(handler(call, *match.groups()))
                    return _Response(204 if result is None else 200, result, headers)
        except Refused as refused:
            call.status = refused.status
            return _Response(refused.status, {"code": refused.code, "message": refused.message},
                             headers)
        self.unhandled.append(f"{method} {path}")
        return _Response(200, {}, headers)

    def _rate_limit(self, method: str, path: str, headers: dict[str, str]) -> JSON | None:
        """Count the call in its buckets; the 429 body if one of them is used up."""
        interaction = path.startswith(("/interactions/", "/webhooks/"))
        buckets: list[tuple[tuple[Any, ...], Limit]] = [] if interaction else [
            (("global",), GLOBAL)]
        for methods, pattern, limit in self._limits:
            match = pattern.fullmatch(path)
            if method == methods and match is not None:
                buckets.append(((method, pattern.pattern, *match.groups()), limit))
        now = self.now()
        for key, limit in buckets:
            window = self._windows.setdefault(key, _Window())
            if now >= window.start + limit.per:
                window.start, window.used = now, 0
            reset = window.start + limit.per - now
            if window.used >= limit.count:
                headers.update({"Via": "1.1 google", "Retry-After": str(math.ceil(reset)),
                                "X-RateLimit-Scope": "user"})
                if key != ("global",):
                    headers.update(_bucket_headers(key, limit, 0, reset))
                return {"message": "You are being rate limited.", "retry_after": reset,
                        "global": key == ("global",), "code": 0}
        for key, limit in buckets:
            window = self._windows[key]
            window.used += 1
            if key != ("global",):
                headers.update(_bucket_headers(key, limit, limit.count - window.used,
                                               window.start + limit.per - now))
        return None

    def _sync(self, call: Call, app_id: str, guild_id: str | None = None) -> list[JSON]:
        return [{**command, "id": str(command_id(command["name"])), "application_id": app_id,
                 "version": "1", "type": command.get("type", 1),
                 **({"guild_id": guild_id} if guild_id else {})}
                for command in cast(list[JSON], call.json or [])]

    def _open_dm(self, call: Call) -> JSON:
        user_id = int(cast(JSON, call.json)["recipient_id"])
        recipient = self.users.get(user_id) or User(user_id, f"user{user_id}").user()
        channel = {"id": str(dm_channel_id(user_id)), "type": 1, "recipients": [recipient]}
        self.channels[dm_channel_id(user_id)] = channel
        return channel

    def _post(self, call: Call, channel_id: str) -> JSON:
        channel = self.channels.get(int(channel_id), {})
        if channel.get("type") == 1 and int(channel["recipients"][0]["id"]) in self.closed_dms:
            raise Refused(403, 50007, "Cannot send messages to this user")
        flags = int(cast(JSON, call.json or {}).get("flags") or 0) & ~(EPHEMERAL | LOADING)
        return _wire(self._create(int(channel_id), call.json, call.files, flags))

    def _channel_message(self, call: Call, channel_id: str, message_id: str) -> JSON | None:
        message = self.messages.get(int(message_id))
        # An ephemeral message can be reached only through its interaction's webhook.
        if message is None or message["channel_id"] != channel_id or message["ephemeral"]:
            raise Refused(404, 10008, "Unknown Message")
        return self._act(call, message)

    def _act(self, call: Call, message: JSON) -> JSON | None:
        if call.method == "DELETE":
            del self.messages[int(message["id"])]
            return None
        if call.method == "PATCH":
            self._edit(message, call.json, call.files)
        return _wire(message)

    def _callback(self, call: Call, interaction_id: str, token: str) -> JSON:
        interaction = self._interactions.get(token)
        if interaction is None or interaction.id != int(interaction_id):
            raise Refused(404, 10062, "Unknown interaction")
        if interaction.response is not None:
            raise Refused(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - interaction.created > FIRST_RESPONSE:
            raise Refused(404, 10062, "Unknown interaction")
        kind, data = cast(JSON, call.json)["type"], cast(JSON, call.json).get("data")
        if kind in (4, 7):
            _check_message(data or {}, call.files)
        self.interaction_responses.append((interaction.id, kind, copy.deepcopy(data)))
        interaction.response = kind
        flags = int((data or {}).get("flags") or 0) | (LOADING if kind == 5 else 0)
        answer: JSON = {"id": str(interaction.id), "type": interaction.type,
                        "response_message_loading": kind == 5,
                        "response_message_ephemeral": kind in (4, 5) and bool(flags & EPHEMERAL)}
        result: JSON = {"interaction": answer}
        if kind in (4, 5):
            message = self._create(interaction.channel_id, data, call.files, flags, interaction)
            interaction.original_id = int(message["id"])
        elif kind in (6, 7):
            # A component's message is the original response of its interaction.
            message_id = interaction.original_id = interaction.message_id
            if message_id is None or message_id not in self.messages:
                raise Refused(400, 40004, "Interaction callback type not allowed here")
            message = self.messages[message_id]
            if kind == 7:
                self._edit(message, data, call.files)
        else:
            return result
        answer["response_message_id"] = message["id"]
        if kind in (4, 7):
            result["resource"] = {"type": kind, "message": _wire(message)}
        return result

    def _interaction(self, app_id: str, token: str) -> _Interaction:
        interaction = self._interactions.get(token)
        if int(app_id) != APP_ID or interaction is None or interaction.response is None:
            raise Refused(404, 10015, "Unknown Webhook")
        if self.now() - interaction.created > TOKEN_LIFE:
            raise Refused(401, 50027, "Invalid Webhook Token")
        return interaction

    def _followup(self, call: Call, app_id: str, token: str) -> JSON | None:
        interaction = self._interaction(app_id, token)
        body = cast(JSON, call.json or {})
        original = self.messages.get(interaction.original_id or 0)
        if interaction.response == 5 and original is not None and original["flags"] & LOADING:
            # Discord fills the "is thinking" message with the first followup after a deferral,
            # which keeps the deferral's visibility whatever the followup's flags say.
            message = self._edit(original, body, call.files)
        else:
            flags = int(body.get("flags") or 0)
            message = self._create(interaction.channel_id, body, call.files, flags, interaction)
        return _wire(message) if call.params.get("wait") in ("1", "True", "true") else None

    def _webhook_message(self, call: Call, app_id: str, token: str, ref: str) -> JSON | None:
        interaction = self._interaction(app_id, token)
        original = ref == "@original"
        message_id = interaction.original_id if original else int(ref)
        message = None if message_id is None else self.messages.get(message_id)
        if message is None or (not original and message["interaction_token"] != token):
            raise Refused(404, 10008, "Unknown Message")
        return self._act(call, message)

    def _create(self, channel_id: int, body: Any, files: Files, flags: int,
                interaction: _Interaction | None = None) -> JSON:
        _check_message(body or {}, files)
        message = _skeleton(next(_snowflakes), channel_id, flags)
        message.update(interaction_token=None, ephemeral=bool(flags & EPHEMERAL),
                       interaction_user_id=None, tts=bool((body or {}).get("tts")))
        if "guild_id" in self.channels.get(channel_id, {}):
            message["guild_id"] = self.channels[channel_id]["guild_id"]
        if interaction is not None:
            message.update(webhook_id=str(APP_ID), application_id=str(APP_ID),
                           interaction_token=interaction.token,
                           interaction_user_id=interaction.user_id)
        self.messages[int(message["id"])] = message
        return self._edit(message, body, files, edited=False)

    def _edit(self, message: JSON, body: Any, files: Files, *, edited: bool = True) -> JSON:
        body = body or {}
        if edited:
            _check_message(body, files)
        if "attachments" in body:  # the attachments kept, by id, and those of the new files
            keep = {str(a["id"]) for a in body["attachments"] or []}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in keep]
        for name, data in files:
            attachment_id = next(_snowflakes)
            tail = f"attachments/{message['channel_id']}/{attachment_id}/{name}"
            message["attachments"].append({
                "id": str(attachment_id), "filename": name, "size": len(data),
                "url": f"https://cdn.discordapp.com/{tail}",
                "proxy_url": f"https://media.discordapp.net/{tail}",
                "content_type": mimetypes.guess_type(name)[0] or "application/octet-stream"})
        for key, empty in (("content", ""), ("embeds", []), ("components", [])):
            if key in body:
                message[key] = copy.deepcopy(body[key]) or empty
        if "embeds" in body:
            self._check_attached(message, body, files)
        if edited:
            message["flags"] &= ~LOADING
            message["edited_timestamp"] = datetime.now(UTC).isoformat()
        return message

    def _check_attached(self, message: JSON, body: JSON, files: Files) -> None:
        """An embed's `attachment://NAME` must name a file sent with it or one the request
        keeps: otherwise clients show the picture twice, in the embed and below it."""
        named = {name for name, _ in files}
        kept = {str(a["id"]) for a in body.get("attachments") or []}
        for attachment in message["attachments"]:
            if attachment["id"] in kept:
                named.add(attachment["filename"])
        for embed in message["embeds"]:
            url = (embed.get("image") or {}).get("url", "")
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in named:
                self.problems.append(
                    f"message {message['id']}: the embed shows {url}, which the request "
                    f"neither sends nor keeps")


def _bucket_headers(key: tuple[Any, ...], limit: Limit, remaining: int, reset: float
                    ) -> dict[str, str]:
    # To the millisecond, rounded up: a client that sleeps exactly this long (as discord.py does
    # on the virtual clock) must not wake a fraction of a millisecond before the window ends.
    after = math.ceil(max(0.0, reset) * 1000) / 1000
    return {"X-RateLimit-Limit": str(limit.count), "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": f"{zlib.crc32(repr(key[:2]).encode()):08x}"}


CONTENT = 2000
EMBEDS = 10
EMBED_DESCRIPTION = 4096
EMBED_TITLE = 256
EMBED_TOTAL = 6000
ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
UPLOAD = 10 * 1024 * 1024


def _check_message(body: JSON, files: Files) -> None:
    """Discord's limits on what one message holds; a request over any of them is refused."""
    content = body.get("content") or ""
    if len(content) > CONTENT:
        raise _invalid(f"content: must be {CONTENT} or fewer in length")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        raise _invalid(f"embeds: must be {EMBEDS} or fewer in length")
    total = 0
    for embed in embeds:
        description, title = embed.get("description") or "", embed.get("title") or ""
        if len(description) > EMBED_DESCRIPTION or len(title) > EMBED_TITLE:
            raise _invalid("embeds.0: a title or description is too long")
        total += len(description) + len(title)
    if total > EMBED_TOTAL:
        raise _invalid(f"embeds: the embeds hold more than {EMBED_TOTAL} characters")
    for name, data in files:
        if len(data) > UPLOAD:
            raise Refused(413, 40005, f"Request entity too large: {name}")
    rows = body.get("components") or []
    if len(rows) > ROWS:
        raise _invalid(f"components: must be {ROWS} or fewer in length")
    ids: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") == 3]
        if not items or len(items) > BUTTONS_PER_ROW or (selects and len(items) > 1):
            raise _invalid("components: a row holds one to five buttons, or one select")
        for item in items:
            custom = item.get("custom_id")
            if custom is not None:
                if len(custom) > CUSTOM_ID or custom in ids:
                    raise _invalid("custom_id: too long or used twice in one message")
                ids.add(custom)
            if len(item.get("label") or "") > BUTTON_LABEL:
                raise _invalid(f"label: must be {BUTTON_LABEL} or fewer in length")
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= SELECT_OPTIONS:
                    raise _invalid(f"options: must hold 1 to {SELECT_OPTIONS} options")
                if any(len(o.get("label", "")) > OPTION_TEXT or len(o.get("value", ""))
                       > OPTION_TEXT for o in options):
                    raise _invalid(f"options: labels and values of {OPTION_TEXT} or fewer")
                if len(item.get("placeholder") or "") > PLACEHOLDER:
                    raise _invalid(f"placeholder: must be {PLACEHOLDER} or fewer in length")
                if not 0 <= item.get("min_values", 1) <= item.get("max_values", 1) \
                        <= len(options):
                    raise _invalid("max_values: more than the options")


def _interaction(kind: int, data: JSON, *, user: User, guild_id: int | None = DEFAULT_GUILD_ID,
                 channel_id: int | None = None, app_permissions: str = ALL_PERMISSIONS,
                 locale: str | None = None, message: JSON | None = None,
                 thread: bool = False) -> JSON:
    if channel_id is None and message is not None:
        channel_id = int(message["channel_id"])
    if channel_id is None:
        channel_id = DEFAULT_CHANNEL_ID if guild_id is not None else dm_channel_id(user.id)
    payload: JSON = {
        "id": str(next(_snowflakes)), "application_id": str(APP_ID), "type": kind, "data": data,
        "token": f"interaction-token-{next(_tokens)}", "version": 1,
        "channel_id": str(channel_id), "locale": locale or user.locale,
        "app_permissions": app_permissions, "entitlements": [],
        "authorizing_integration_owners": {}, "context": 0 if guild_id is not None else 1,
        "attachment_size_limit": 10 * 1024 * 1024}
    if guild_id is not None:
        payload.update(
            guild_id=str(guild_id), guild_locale="en-US", member=user.member(),
            guild={"id": str(guild_id), "locale": "en-US", "features": []},
            channel={"id": str(channel_id), "type": 0, "guild_id": str(guild_id),
                     "name": f"channel-{channel_id}", "position": 0, "nsfw": False,
                     "flags": 0, "permissions": app_permissions})
        if thread:  # a public thread of another channel
            payload["channel"].update(
                type=11, parent_id=str(DEFAULT_CHANNEL_ID), owner_id=str(user.id),
                message_count=0, member_count=1, rate_limit_per_user=0,
                thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                 "archive_timestamp": "2024-01-01T00:00:00+00:00",
                                 "locked": False})
    else:
        payload.update(user=user.user(), channel={"id": str(channel_id), "type": 1,
                                                  "recipients": [user.user()]})
    if message is not None:
        payload["message"] = message
    return payload


def slash(name: str, options: dict[str, Any] | list[JSON] | None = None, *, user: User,
          guild_id: int | None = DEFAULT_GUILD_ID, channel_id: int | None = None,
          app_permissions: str = ALL_PERMISSIONS, locale: str | None = None,
          guild_command: bool = False, thread: bool = False) -> JSON:
    """`user` runs the top-level chat-input command `/name` (`guild_id=None`: in a DM with the
    bot; `thread`: in a thread). Option types follow the values: str 3, int 4, bool 5, float
    10, and a `User` 6 (the user picked in the client, whom Discord sends along as resolved
    data, with their membership in a server). `locale` defaults to the user's;
    `guild_command` addresses a command synced to that guild only."""
    kinds = ((User, 6), (bool, 5), (int, 4), (float, 10), (str, 3))
    given = {} if isinstance(options, list) else dict(options or {})
    listed = copy.deepcopy(options) if isinstance(options, list) else [
        {"name": k, "type": next(n for t, n in kinds if isinstance(v, t)),
         "value": str(v.id) if isinstance(v, User) else v}
        for k, v in given.items()]
    data: JSON = {"id": str(command_id(name)), "name": name, "type": 1, "options": listed}
    picked = [v for v in given.values() if isinstance(v, User)]
    if picked:
        data["resolved"] = {"users": {str(u.id): u.user() for u in picked}}
        if guild_id is not None:  # a server's member: everything the member object has but the user
            data["resolved"]["members"] = {
                str(u.id): {k: v for k, v in u.member().items() if k != "user"} for u in picked}
    if guild_command and guild_id is not None:
        data["guild_id"] = str(guild_id)
    return _interaction(2, data, user=user, guild_id=guild_id, channel_id=channel_id,
                        app_permissions=app_permissions, locale=locale, thread=thread)


def autocomplete(name: str, options: dict[str, Any] | list[JSON], focused: str, *, user: User,
                 **where: Any) -> JSON:
    """`user` is typing option `focused` of `/name`; `options` holds what is typed so far.
    `where` takes `slash`'s keyword arguments."""
    payload = slash(name, options, user=user, **where)
    payload["type"] = 4
    for option in payload["data"]["options"]:
        if option["name"] == focused:
            option["focused"] = True
            return payload
    raise ValueError(f"no option {focused!r} among {options!r}")


def _component(data: JSON, component: JSON, user: User, message: JSON | None,
               ephemeral_message: bool, where: dict[str, Any]) -> JSON:
    if message is None:
        channel_id = where.pop("channel_id", None)
        if channel_id is None:
            dm = where.get("guild_id", DEFAULT_GUILD_ID) is None
            channel_id = dm_channel_id(user.id) if dm else DEFAULT_CHANNEL_ID
        message = _skeleton(next(_snowflakes), channel_id)
        message["components"] = [{"type": 1, "components": [component]}]
    message = _wire(message)
    if ephemeral_message:
        message["flags"] = message.get("flags", 0) | EPHEMERAL
    return _interaction(3, data, user=user, message=message, **where)


def button(custom_id: str, *, user: User, message: JSON | None = None,
           ephemeral_message: bool = False, **where: Any) -> JSON:
    """`user` presses the button `custom_id` on `message` (a message the fake stored), or else
    on a message of the bot's holding only that button; `ephemeral_message`: a message only
    that user sees. `where`: `guild_id`, `channel_id`, `app_permissions`, `locale` of `slash`."""
    component = {"type": 2, "style": 2, "label": "·", "custom_id": custom_id}
    return _component({"custom_id": custom_id, "component_type": 2}, component, user, message,
                      ephemeral_message, where)


def select(custom_id: str, values: list[str], *, user: User, message: JSON | None = None,
           ephemeral_message: bool = False, **where: Any) -> JSON:
    """`user` picks `values` in the string select `custom_id`, as `button` presses."""
    component = {"type": 3, "custom_id": custom_id, "min_values": 1,
                 "max_values": max(1, len(values)),
                 "options": [{"label": v, "value": v} for v in values]}
    data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
    return _component(data, component, user, message, ephemeral_message, where)


async def login(client: discord.Client) -> FakeDiscord:
    """Log `client` in against the fake (installing it if needed): `client.user` and
    `client.application_id` are set and `setup_hook` has run; no gateway connection is made."""
    fake = _FAKES.get(client) or FakeDiscord.install(client)
    await client.login("fake-token")
    return fake


async def settle(client: discord.Client, fake: FakeDiscord | None = None, rounds: int = 3,
                 timeout: float = 5.0) -> None:
    """Wait until the tasks started since the last `feed` (but `fake.background` ones) are done
    and the loop stays quiet for `rounds` turns; re-raise what a handler let escape."""
    fake = fake or FakeDiscord.of(client)
    loop, current = asyncio.get_running_loop(), asyncio.current_task()
    deadline, quiet = loop.time() + timeout, 0
    while quiet < rounds:
        pending = {t for t in asyncio.all_tasks()
                   if t is not current and t not in fake._known
                   and not any(marker in repr(t) for marker in fake.background)}
        quiet = 0 if pending else quiet + 1
        if not pending:
            await asyncio.sleep(0)
            continue
        done, still = await asyncio.wait(pending, timeout=max(0.0, deadline - loop.time()))
        if still:
            names = "; ".join(sorted(repr(t) for t in still))
            raise AssertionError(f"handlers still running after {timeout}s: {names}")
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                raise cast(BaseException, task.exception())


async def feed(client: discord.Client, payload: JSON, *, rounds: int = 3,
               timeout: float = 5.0) -> None:
    """Deliver INTERACTION_CREATE `payload` as the gateway would, and wait for its handlers."""
    fake = FakeDiscord.of(client)
    fake.register(payload)
    fake._known = set(asyncio.all_tasks())
    client._connection.parse_interaction_create(cast(Any, copy.deepcopy(payload)))
    await settle(client, fake, rounds=rounds, timeout=timeout)


async def shutdown(client: discord.Client) -> None:
    """Close `client` and cancel what still runs since the fake was installed (view timeouts,
    timers), so that a test leaves no task behind."""
    fake = FakeDiscord.of(client)
    await client.close()
    current = asyncio.current_task()
    leftovers = [t for t in asyncio.all_tasks() if t is not current and t not in fake._outside]
    for task in leftovers:
        task.cancel()
    await asyncio.gather(*leftovers, return_exceptions=True)
