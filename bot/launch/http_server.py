"""The bot's one small HTTP server: Telegram's webhook, health and metrics (docs/architecture.md
§11).

It runs only when configured (`GUPAI_HTTP_PORT`, and `GUPAI_HTTP_HOST`, 127.0.0.1 unless set;
0.0.0.0 in a container), on the bots' own event loop, started and stopped by
`bot.launch.run._serve`:

- `GET /healthz`: 200 `ok` while the database answers a trivial read and every platform that
  runs was heard from lately (each platform's `health` says); else 503, one reason a line.
- `GET /metrics`: the process's `Metrics` in Prometheus's text format.
- `/app/`: the web table, Telegram's Mini App (`bot.web.webapp`), with TELEGRAM_MINIAPP_URL.
- `POST <the path of TELEGRAM_WEBHOOK_URL>`: Telegram's webhook. A request without the secret
  header gets 403 and nothing else happens; a body that is not an update gets 400; an update
  is queued for the Telegram bot's handlers and answered at once (the handlers answer the
  people, not this request).

What it refuses is counted, never written a line each, and a client that is slow to send its
headers (`HEADERS`) or body is cut off (`bot.service.http_guard`). A handler is cancelled when its
client goes away, so an event stream ends at once; what must not be cut short (a press, an
update) is shielded from it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.service.http_address import DEFAULT_HOST, Network
from bot.service.http_guard import PAUSE, Guard, QuietProtocolLog, Refused, read_json
from bot.service.metrics import Metrics
from bot.telegram.telegram_http import SECRET_HEADER
from storage import Storage

if TYPE_CHECKING:
    from bot.telegram.telegram_adapter import TelegramBot
    from bot.web.webapp import WebApp

log = logging.getLogger(__name__)

SILENCE = 120.0
"""Seconds a platform may go unheard before `/healthz` calls the bot unhealthy."""
DATABASE_WAIT = 3.0
"""Seconds the health check waits for the database's answer."""
HEADERS = 15.0
"""Seconds a connection may take to send a request's headers, from its opening or its last
answer (aiohttp's keep-alive timer closes it then; an idle connection goes with it)."""
UPDATE_LIMIT = 1 << 20
"""Bytes an update may have (Telegram's are far smaller)."""

Check = Callable[[], str | None]
"""A platform's health: None when well, else the reason."""


class HttpServer:
    """The aiohttp application and the site it listens on."""

    def __init__(self, storage: Storage, metrics: Metrics, host: str = DEFAULT_HOST,
                 port: int = 0, *, silence: float = SILENCE,
                 proxies: tuple[Network, ...] = (), headers: float = HEADERS,
                 pause: float = PAUSE) -> None:
        """`port` 0: any free port (`port` tells which once started); `proxies`: the reverse
        proxies whose `X-Forwarded-For` names a client (GUPAI_HTTP_PROXIES)."""
        self.storage = storage
        self.metrics = metrics
        self.host = host
        self.port = port
        self.silence = silence
        self.headers = headers
        self.guard = Guard(metrics.registry, proxies, pause)
        self.checks: list[Check] = []
        self.app = web.Application(middlewares=[self.guard.slowed])
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.scrape)
        self._runner: web.AppRunner | None = None
        self.webapp: WebApp | None = None

    def watch(self, check: Check) -> None:
        """A platform's health, asked at every `/healthz`."""
        self.checks.append(check)

    def take_webhook(self, bot: TelegramBot) -> None:
        """Telegram's updates, POSTed to the path of the bot's webhook."""
        webhook = bot.webhook
        assert webhook is not None

        async def post(request: web.Request) -> web.Response:
            refusals = self.guard.refusals
            if not webhook.allows(request.headers.get(SECRET_HEADER)):
                refusals.note("webhook_secret")
                return web.Response(status=403, text="forbidden\n")
            try:
                data = await read_json(request, UPDATE_LIMIT)
            except Refused as no:
                refusals.note(no.reason)
                return web.Response(status=no.status, text=no.text)
            if not await asyncio.shield(bot.take_update(data)):
                refusals.note("not_an_update")
                return web.Response(status=400, text="not an update\n")
            return web.Response(text="ok\n")
        self.app.router.add_post(webhook.path, post)

    def take_webapp(self, webapp: WebApp) -> None:
        """The web table (Telegram's Mini App) at `/app/`."""
        self.webapp = webapp
        webapp.add_to(self.app, self.guard)

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                               handler_cancellation=True, keepalive_timeout=self.headers,
                               logger=QuietProtocolLog(self.guard.refusals))
        await runner.setup()
        self._runner = runner
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        for address in runner.addresses:
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break
        log.info("HTTP server on %s:%d", self.host, self.port)

    async def stop(self) -> None:
        if self.webapp is not None:
            self.webapp.stop()  # its event streams would hold the stop up
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    # ----- routes -------------------------------------------------------------------------------

    async def problems(self) -> list[str]:
        """Why the bot is not well: the database first, then each platform."""
        found = []
        try:
            await asyncio.wait_for(self.storage.db.read("SELECT 1"), DATABASE_WAIT)
        except TimeoutError:
            found.append(f"database: no answer within {DATABASE_WAIT:.0f} s")
        except Exception as exc:
            found.append(f"database: {exc or type(exc).__name__}")
        for check in self.checks:
            reason = check()
            if reason:
                found.append(reason)
        return found

    async def healthz(self, request: web.Request) -> web.Response:
        found = await self.problems()
        if found:
            return web.Response(status=503, text="\n".join(found) + "\n")
        return web.Response(text="ok\n")

    async def scrape(self, request: web.Request) -> web.Response:
        body = await self.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
