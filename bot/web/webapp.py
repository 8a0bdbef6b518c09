"""The web table's routes on the bot's HTTP server (`/app/`): the page, its data, its moves.

docs/architecture.md §4: a tap on the page is a press like any other. Every request under
`/app/api/` carries Telegram's init data (`Authorization: tma <init data>`), checked against the
bot's token and its age (`bot.web.webapp_auth`); without it the answer is 401 and nothing is read or
changed. Then:

- `GET api/table?session=N`: the table as the opener may see it (`bot.web.web_table`): their seat's,
  or a spectator's (`bot.web.web_watch`), with how many watch.
- `GET api/board?session=N`: the board picture the group sees, in the opener's language.
- `GET api/events?session=N`: server-sent events, one `{"version": V}` each time the game is
  saved, by this process or another (`bot.web.web_streams`: told, never polling), one
  `{"watching": text}` each time the number of spectators changes, and a last
  `{"closed": reason}` when the stream is closed to make room for newer ones.
- `POST api/press` `{"data": payload}`: `SessionManager.press`, as a chat button would; a
  spectator's is refused (403) before it reaches the game.
- `POST api/join` `{"session": N}`: a seat at a lobby, as the chats' Join does.
- `GET api/replay`, `GET api/replay/board`: a finished deal's replay, opened by the token its
  result post carries rather than by init data (`bot.web.web_replay`).

The pages themselves (`index.html`, `app.js`, `app.css`; `replay.html`, `replay.js`) and tile
faces (`tile/<family>/<a>-<b>.png`) are public: they hold nothing about any game.

Everything under `/app/` is rate-limited per address (the API apart from the pages' files and
tile faces), and the API per person too (429 with `Retry-After`, which the page shows as a note
and waits out); refusals are counted, a few lines a minute at most (`bot.service.http_guard`).
A press or a join, once taken, is carried through even if the page goes away meanwhile: the
server cancels a request's handler when its client disconnects (so a stream ends at once), and
these are shielded from that.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from importlib import resources
from typing import Any

from aiohttp import web

from bot.present.miniapp import TOTAL
from bot.present.screens import Actor
from bot.service.http_guard import Buckets, Guard, Refused, client_address, read_json
from bot.session.manager import SessionManager
from bot.web.web_replay import Replays
from bot.web.web_streams import Streams
from bot.web.web_table import Opened, WebRefusal, opened, table_json, table_screen
from bot.web.web_watch import CannotTell, Member, Members, spectator_press, watching_text
from bot.web.webapp_auth import BadInitData, InitDataCheck, WebUser
from rendering import sprites
from rendering.theme import THEMES
from storage import StorageError
from words.i18n import lang_of, tr

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

PREFIX = "/app"
STATIC = {"index.html": "text/html", "app.js": "text/javascript", "app.css": "text/css",
          "replay.html": "text/html", "replay.js": "text/javascript"}
KEEPALIVE = 30.0
"""Seconds of quiet after which an event stream says it is still there: the only work an open
page costs while nothing happens, within the minute proxies wait (nginx's default 60 s)."""
BOARDS_KEPT = 64
BODY_LIMIT = 4096
"""Bytes a press or a join may send (a payload is at most 64)."""
PER_ADDRESS = (20.0, 60.0)
"""API requests a second from one address, and at once: a page asks for its table and board
after every move, a few pages can share an address (one household's network)."""
PER_ADDRESS_FILES = (50.0, 200.0)
"""Requests a second for the pages' own files and tile faces from one address, and at once:
public, the same for everyone, and cached by the browser, but a page opened brings some twenty
at once (its files and a face per tile shown). They have a budget apart from the API's, so a
page opened while its address's API budget is spent still loads whole and shows the wait as a
note: a page whose script was refused would stay blank."""
PER_PERSON = (10.0, 30.0)
"""API requests a second of one person, and at once."""
TILE_HEIGHTS = range(40, 241)
POLICY = ("default-src 'self'; script-src 'self' https://telegram.org; "
          "img-src 'self' blob: data:; style-src 'self'; connect-src 'self'; "
          "frame-ancestors https://web.telegram.org https://*.telegram.org")


class WebApp:
    """The routes, with the Telegram bot's session layer behind them."""

    def __init__(self, manager: SessionManager, token: str, max_age: float,
                 clock: Callable[[], float] | None = None, streams: int = TOTAL,
                 member: Member | None = None) -> None:
        """`member` says whether someone is in a game's group, so that only its members
        watch it (`bot.web.web_watch.Members`; without it, anyone may)."""
        self.manager = manager
        self.members = Members(member)
        self.check = InitDataCheck(token, max_age, clock or manager.clock)
        self.boards: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self.most_streams = streams
        self.streams = Streams(manager.storage, total=streams)
        self.guard = Guard()
        self.addresses = Buckets(*PER_ADDRESS)
        self.files = Buckets(*PER_ADDRESS_FILES)
        self.people = Buckets(*PER_PERSON)
        manager.requests.web_table = manager.requests.watching = True

    def add_to(self, app: web.Application, guard: Guard) -> None:
        """The routes on `app`, refusing through `guard` (the server's counts and proxies)."""
        self.guard = guard
        self.streams = Streams(self.manager.storage, guard.registry, total=self.most_streams)
        app.middlewares.append(self.limited)
        router = app.router
        router.add_get(PREFIX, self.to_page)
        router.add_get(f"{PREFIX}/", self.static)
        router.add_get(f"{PREFIX}/{{name:[a-z]+\\.(?:js|css|html)}}", self.static)
        router.add_get(f"{PREFIX}/tile/{{family:chinese|western}}/{{a:[0-6]}}-{{b:[0-6]}}.png",
                       self.tile)
        router.add_get(f"{PREFIX}/tile/{{family:chinese|western}}/back.png", self.tile)
        router.add_get(f"{PREFIX}/api/table", self.table)
        router.add_get(f"{PREFIX}/api/board", self.board)
        router.add_get(f"{PREFIX}/api/events", self.events)
        router.add_post(f"{PREFIX}/api/press", self.press)
        router.add_post(f"{PREFIX}/api/join", self.join)
        Replays(self.manager.storage, self.manager.theme).add_to(router, PREFIX)

    def stop(self) -> None:
        """End the event streams, so the server can stop at once."""
        self.streams.stop()

    @web.middleware
    async def limited(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request under `/app/` within its address's rate, the API's and the files'
        apart (`PER_ADDRESS_FILES`); a refusal is counted."""
        if not request.path.startswith(PREFIX):
            return await handler(request)
        address = client_address(request, self.guard.proxies)
        try:
            if request.path.startswith(f"{PREFIX}/api/"):
                self._within(self.addresses, address, "address")
            else:
                self._within(self.files, address, "address_files")
            return await handler(request)
        except Refused as no:
            self.guard.refusals.note(no.reason)
            return _refusal(no, request)

    def _within(self, buckets: Buckets, key: str, what: str) -> None:
        wait = buckets.take(key)
        if wait:
            raise Refused(429, f"rate_{what}", str(math.ceil(wait)))

    # ----- the page -----------------------------------------------------------------------------

    async def to_page(self, request: web.Request) -> web.Response:
        raise web.HTTPFound(f"{PREFIX}/" + (f"?{request.query_string}"
                                             if request.query_string else ""))

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info.get("name", "index.html")
        if name not in STATIC:
            raise web.HTTPNotFound()
        body = resources.files("bot.web").joinpath("static", name).read_bytes()
        headers = {"Cache-Control": "no-cache"}
        if name.endswith(".html"):
            headers["Content-Security-Policy"] = POLICY
        return web.Response(body=body, content_type=STATIC[name], charset="utf-8",
                            headers=headers)

    async def tile(self, request: web.Request) -> web.Response:
        info = request.match_info
        try:
            height = int(request.query.get("h", "120"))
        except ValueError:
            height = 0
        theme = request.query.get("theme", self.manager.theme)
        if height not in TILE_HEIGHTS or theme not in THEMES:
            raise web.HTTPBadRequest(text="h: 40-240; theme: one of " + ", ".join(THEMES))
        png = (back_png(info["family"], height, theme) if "a" not in info
               else tile_png(info["family"], int(info["a"]), int(info["b"]), height, theme))
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "public, max-age=86400"})

    # ----- who asks, and for what ---------------------------------------------------------------

    def who(self, request: web.Request) -> WebUser:
        """The person Telegram's init data names; 401 without valid init data."""
        scheme, _, init_data = request.headers.get("Authorization", "").partition(" ")
        try:
            if scheme.lower() != "tma":
                raise BadInitData("no tma authorization")
            user = self.check(init_data.strip())
        except BadInitData as exc:
            self.guard.refusals.note("init_data", str(exc))
            said = _guess_language(init_data, request.headers.get("Accept-Language", ""))
            raise _error(401, tr(said, "web.unsigned")) from None
        wait = self.people.take(user.id)
        if wait:
            self.guard.refusals.note("rate_person")
            raise _error(429, tr(lang_of(user.language), "web.slow_down"),
                         {"Retry-After": str(math.ceil(wait))})
        return user

    async def seen(self, request: web.Request, user: WebUser) -> Opened:
        text = request.query.get("session", "")
        if not (text.isascii() and text.isdigit() and len(text) <= 12):
            raise _error(400, tr(lang_of(user.language), "web.no_game"))
        lang = lang_of(user.language)
        try:
            seen = await opened(self.manager, int(text), actor_of(user))
        except WebRefusal as no:
            self.guard.refusals.note("no_game")
            raise _error(no.status, tr(lang, no.key)) from None
        try:
            if seen.spectator and not await self.members.may_watch(seen.session, user.id):
                self.guard.refusals.note("not_member")
                raise _error(403, tr(lang, "web.not_member"))
        except CannotTell as exc:
            log.warning("web table: whether %s may watch is unknown: %s", user.id, exc)
            raise _error(503, tr(lang, "web.cannot_tell")) from None
        return seen

    # ----- the table ----------------------------------------------------------------------------

    async def table(self, request: web.Request) -> web.Response:
        user = self.who(request)
        with _storage_answers(user):
            seen = await self.seen(request, user)
            body = await table_json(self.manager, seen, self.manager.theme)
        body["watching"] = watching_text(self.streams.watching(seen.session.id), seen.lang)
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    async def board(self, request: web.Request) -> web.Response:
        user = self.who(request)
        with _storage_answers(user):
            seen = await self.seen(request, user)
            session = seen.session
            key = (session.id, session.version, seen.lang)
            png = self.boards.get(key)
            if png is None:
                screen, _ = await table_screen(self.manager, seen)
                if screen.picture is None:
                    raise web.HTTPNotFound(text="no board before the first deal\n")
                png = await asyncio.to_thread(screen.picture.render, "lossless")
                self.boards[key] = png
                while len(self.boards) > BOARDS_KEPT:
                    self.boards.popitem(last=False)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "no-store"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        user = self.who(request)
        with _storage_answers(user):
            seen = await self.seen(request, user)
        session = seen.session
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        stream = self.streams.open(user.id, session.id, session.version, seen.spectator)
        loop = asyncio.get_running_loop()
        try:
            await self.streams.caught_up(stream)
            sent: int | None = None
            told = 0  # how many watch, as the page was told (its own stream not yet counted)
            said = loop.time()
            while True:
                stream.wake.clear()
                if stream.closed is not None:
                    await response.write(_event({"closed": stream.closed}))
                    break
                if stream.version != sent:
                    sent = stream.version
                    await response.write(_event({"version": sent}))
                    said = loop.time()
                if stream.watching != told:
                    told = watching = stream.watching
                    await response.write(_event({"watching": watching_text(watching,
                                                                           seen.lang)}))
                    said = loop.time()
                if loop.time() - said >= KEEPALIVE:
                    await response.write(b": still here\n\n")
                    said = loop.time()
                with suppress(TimeoutError):
                    await asyncio.wait_for(stream.wake.wait(),
                                           max(0.0, said + KEEPALIVE - loop.time()))
        except (ConnectionError, RuntimeError):
            pass  # the page went away
        finally:
            self.streams.close(stream)
        return response

    # ----- moves --------------------------------------------------------------------------------

    async def press(self, request: web.Request) -> web.Response:
        user = self.who(request)
        data = (await self._body(request, user)).get("data")
        if not isinstance(data, str) or len(data) > 256:
            self.guard.refusals.note("malformed")
            raise _error(400, tr(lang_of(user.language), "err.forged"))
        with _storage_answers(user):
            if await spectator_press(self.manager, actor_of(user), data):
                self.guard.refusals.note("spectator")
                raise _error(403, tr(lang_of(user.language), "web.watch_only"))
        reply = await asyncio.shield(self.manager.press(actor_of(user), data))
        return web.json_response({"toast": reply.toast})

    async def join(self, request: web.Request) -> web.Response:
        user = self.who(request)
        session = (await self._body(request, user)).get("session")
        if not isinstance(session, int) or isinstance(session, bool) or not \
                0 <= session < 2 ** 53:
            self.guard.refusals.note("malformed")
            raise _error(400, tr(lang_of(user.language), "web.no_game"))
        reply = await asyncio.shield(self.manager.join_session(session, actor_of(user)))
        return web.json_response({"toast": reply.toast})

    async def _body(self, request: web.Request, user: WebUser) -> dict[str, Any]:
        """The request's JSON object; anything else is refused, in the person's words."""
        try:
            body = await read_json(request, BODY_LIMIT)
        except Refused as no:
            self.guard.refusals.note(no.reason)
            raise _error(no.status, tr(lang_of(user.language), "err.forged")) from None
        if not isinstance(body, dict):
            self.guard.refusals.note("malformed")
            raise _error(400, tr(lang_of(user.language), "err.forged"))
        return body


def actor_of(user: WebUser) -> Actor:
    return Actor(user.id, user.name, user.language)


@lru_cache(maxsize=512)
def tile_png(family: str, a: int, b: int, height: int, theme: str) -> bytes:
    """One tile face, as the pictures draw it."""
    out = io.BytesIO()
    sprites.face(family, a, b, height, theme).save(out, format="PNG", optimize=True)
    return out.getvalue()


def back_png(family: str, height: int, theme: str) -> bytes:
    """A tile's back, as the pictures draw a face-down tile."""
    out = io.BytesIO()
    sprites.back(family, height, theme).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _error(status: int, text: str, headers: dict[str, str] | None = None
           ) -> web.HTTPException:
    cls = {400: web.HTTPBadRequest, 401: web.HTTPUnauthorized, 403: web.HTTPForbidden,
           404: web.HTTPNotFound, 408: web.HTTPRequestTimeout,
           413: web.HTTPRequestEntityTooLarge, 429: web.HTTPTooManyRequests,
           503: web.HTTPServiceUnavailable}[status]
    body = json.dumps({"error": text})
    if cls is web.HTTPRequestEntityTooLarge:
        return web.HTTPRequestEntityTooLarge(BODY_LIMIT, BODY_LIMIT + 1, text=body,
                                             content_type="application/json")
    error: web.HTTPException = cls(text=body, content_type="application/json",
                                   headers=headers)
    return error


def _refusal(no: Refused, request: web.Request) -> web.Response:
    """A refusal before anyone is known: in the browser's language, for the page to show."""
    lang = lang_of(request.headers.get("Accept-Language", "").split(",")[0].strip()[:2]
                   or None)
    headers = {"Retry-After": no.text} if no.status == 429 else {}
    return web.json_response({"error": tr(lang, "web.slow_down")}, status=no.status,
                             headers=headers)


def _event(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()


@contextmanager
def _storage_answers(user: WebUser) -> Iterator[None]:
    """A database that cannot answer gets 503 with the chats' sentence, not a traceback."""
    try:
        yield
    except StorageError as exc:
        log.warning("web table: storage: %s", exc)
        raise _error(503, tr(lang_of(user.language), "err.storage")) from exc


def _guess_language(init_data: str, accepted: str) -> str:
    """The language of a refusal's words only: the one init data that failed its check
    claims, else the browser's first."""
    for token in ("language_code%22%3A%22", 'language_code":"'):
        at = init_data.find(token)
        if at >= 0:
            return lang_of(init_data[at + len(token):at + len(token) + 2])
    return lang_of(accepted.split(",")[0].strip()[:2] or None)
