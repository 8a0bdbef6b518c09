"""The limits on what the internet can make the bot's HTTP server do (docs/architecture.md §11:
everything the internet can reach has limits; a flood of forged requests never slows a real press).

- **Refusals are counted, not written down one by one.** Anyone can send a forged webhook or
  init data thousands of times a second; a log line each would fill the disk. Each refusal
  counts in `gupai_http_refusals{reason}`, and all of them together write at most
  `LINES_PER_MINUTE` lines, each saying how many were left out since the last.
- **Malformed requests** (a header over 8 KB, a broken request line) are answered 400 by aiohttp
  as before, but its protocol log (`QuietProtocolLog`) counts them as refusals instead of
  writing a traceback that quotes what was sent (a person's name, in init data). An error in
  the bot's own handlers is still written with its traceback, within the same budget.
- **Bodies** are read with a size limit and a deadline, and JSON that is too deep, too big or
  not JSON at all is a 400 (`read_json`), never a 500.
- **Refusals are slow, answers are not.** A refused request (400, 401, 403, 404, 405, 408,
  413) is answered no sooner than `PAUSE` seconds later, and refusals are answered at most
  `PACE` a second in all, in turn. A client that waits for its answers, as HTTP/1.1 clients
  do, can then send only as fast as it is refused, however many connections it opens: a flood
  costs the event loop a bounded share, and real presses do not queue behind it. Past
  `WAITING` refusals waiting at once, a refused connection is dropped without an answer. A body
  over its limit (413) waits too, its connection no longer read (what it would still send is
  not worth holding) and closed after the answer.
  (A 429 is answered at once: it says when to come back.)
- **Rates**: token buckets per person and per address (`Buckets`), answered 429 with a
  `Retry-After`. The address is the connection's, or, behind a proxy named in
  `GUPAI_HTTP_PROXIES`, the last one that proxy puts in `X-Forwarded-For`.

Slow clients are cut off by the server's keep-alive timer (`HEADERS`, in `bot.launch.http_server`),
which closes a connection that has not finished a request's headers that long after it opened
or after its last answer.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter

from bot.service.http_address import Network

log = logging.getLogger(__name__)

LINES_PER_MINUTE = 6
"""Lines all refusals together may write a minute."""
BODY_SECONDS = 10.0
"""Seconds a client has to send a request's body."""
PAUSE = 1.0
"""Seconds a refusal waits at least before it is answered."""
PACE = 64.0
"""Refusals answered a second, at most, all of them together."""
WAITING = 4096
"""Refusals waiting at once, at most; past that a refused connection is dropped."""
SLOWED = frozenset({400, 401, 403, 404, 405, 408, 413})
"""The statuses of refusals (not 429, which says when to come back, nor 503)."""
KEYS_KEPT = 50_000
"""Buckets kept per limit; the least recently used go first (a flood from many addresses
cannot grow the memory without bound)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def loop_time() -> float:
    """The event loop's clock (the server's timers run on it), or the monotonic one."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


class Refused(Exception):
    """A request the server will not serve: its status, its reason (a metric label) and what
    the answer says."""

    def __init__(self, status: int, reason: str, text: str = "") -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.text = text or f"{reason}\n"


class Refusals:
    """Counts refusals by reason and writes a few lines a minute about them."""

    def __init__(self, registry: CollectorRegistry | None,
                 clock: Callable[[], float] = loop_time,
                 lines_per_minute: int = LINES_PER_MINUTE) -> None:
        self.counter = Counter("gupai_http_refusals",
                               "Requests refused (forged, strangers', malformed, too many, "
                               "too slow), by reason", ["reason"],
                               registry=registry if registry is not None else CollectorRegistry())
        self.clock = clock
        self.lines_per_minute = lines_per_minute
        self._window = -1.0
        self._lines = 0
        self._left_out = 0

    def note(self, reason: str, detail: str = "", *, exc_info: BaseException | None = None,
             level: int = logging.INFO) -> None:
        """One refusal (or failure) more; a line only while the minute's budget lasts."""
        self.counter.labels(reason).inc()
        now = self.clock()
        if now - self._window >= 60.0:
            self._window, self._lines = now, 0
        if self._lines >= self.lines_per_minute:
            self._left_out += 1
            return
        self._lines += 1
        left_out, self._left_out = self._left_out, 0
        more = f" ({left_out} more refused since the last line)" if left_out else ""
        log.log(level, "HTTP: refused (%s)%s%s", reason, f": {detail}" if detail else "", more,
                exc_info=exc_info)


class QuietProtocolLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """What aiohttp's protocol logs, through the refusals' budget: a request it could not
    parse is a refusal named by its error's class (never its message, which quotes the
    request); anything else keeps its traceback."""

    def __init__(self, refusals: Refusals) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self.refusals = refusals

    def log(self, level: int, msg: object, *args: object, **kwargs: Any) -> None:
        if level < logging.WARNING:
            return
        exc = kwargs.get("exc_info")
        error = exc if isinstance(exc, BaseException) else None
        if error is not None and _malformed(error):
            self.refusals.note("malformed", type(error).__name__)
            return
        self.refusals.note("server_error", type(error).__name__ if error else str(msg) % args,
                           exc_info=error, level=logging.ERROR)


def _malformed(error: BaseException) -> bool:
    from aiohttp.http_exceptions import HttpProcessingError

    return isinstance(error, HttpProcessingError | UnicodeError)


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class Buckets:
    """A token bucket per key: `rate` requests a second, up to `burst` at once."""

    rate: float
    burst: float
    clock: Callable[[], float] = loop_time
    kept: int = KEYS_KEPT
    _buckets: OrderedDict[str, _Bucket] = field(default_factory=OrderedDict)

    def take(self, key: str) -> float:
        """0 when `key` may go on (a token is taken); else the seconds until it may."""
        now = self.clock()
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        self._buckets[key] = bucket
        while len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


@dataclass
class Guard:
    """What the server's routes refuse through: the counts and their lines, the proxies whose
    `X-Forwarded-For` is believed, and the registry further figures go on."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    proxies: tuple[Network, ...] = ()
    pause: float = PAUSE
    refusals: Refusals = field(init=False)
    paused: int = field(init=False, default=0)
    """Refusals waiting now."""
    _turn: float = field(init=False, default=0.0)
    """When the next refusal may be answered (the event loop's clock)."""

    def __post_init__(self) -> None:
        self.refusals = Refusals(self.registry)

    @web.middleware
    async def slowed(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every refusal answered `pause` seconds late (see the module's note)."""
        try:
            response = await handler(request)
        except web.HTTPException as refused:
            await self._refused(request, refused)
            raise
        await self._refused(request, response)
        return response

    async def _refused(self, request: web.Request, response: web.StreamResponse) -> None:
        if response.status == 413:
            response.force_close()
            if request.transport is not None:
                request.transport.pause_reading()
        if response.status in SLOWED:
            await self._wait(request)

    async def _wait(self, request: web.Request) -> None:
        """Until this refusal's turn: `pause` from now at the soonest, `1 / PACE` after the
        one before."""
        if self.paused >= WAITING:
            if request.transport is not None:
                request.transport.abort()
            self.refusals.note("dropped")
            return
        now = loop_time()
        turn = max(now + self.pause, self._turn)
        self._turn = turn + 1.0 / PACE
        self.paused += 1
        try:
            await asyncio.sleep(turn - now)
        finally:
            self.paused -= 1


# ----- who is asking ---------------------------------------------------------------------------


def client_address(request: web.Request, proxies: tuple[Network, ...]) -> str:
    """The address a request comes from: the connection's, unless that is a trusted proxy;
    then the last hop of `X-Forwarded-For` that is not one (what a client writes there itself
    is never believed past the proxies)."""
    remote = request.remote or ""
    if not proxies or not _trusted(remote, proxies):
        return remote
    hops = [h.strip() for h in ",".join(request.headers.getall("X-Forwarded-For", [])
                                         ).split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop[:64]
    return remote


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


# ----- bodies ----------------------------------------------------------------------------------


async def read_json(request: web.Request, limit: int, seconds: float = BODY_SECONDS) -> Any:
    """A request's body as JSON: Refused (413) over `limit` bytes, (408) not sent within
    `seconds`, (400) not JSON: nested too deep for the parser included (it stops at
    Python's recursion limit, which is caught)."""
    if request.content_length is not None and request.content_length > limit:
        raise Refused(413, "too_big", "too big\n")
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            while chunk := await request.content.read(limit + 1 - size):
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise Refused(413, "too_big", "too big\n")
    except TimeoutError:
        raise Refused(408, "too_slow", "the body came too slowly\n") from None
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise Refused(400, "malformed", "not JSON\n") from None

