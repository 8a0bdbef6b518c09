"""The Telegram adapter's HTTP below the Bot API methods: the webhook and hearing from Telegram.

Long polling is the default. With `TELEGRAM_WEBHOOK_URL` set, Telegram POSTs each update to that
URL instead (through a reverse proxy that ends TLS, to `bot.launch.http_server`), with the secret
the bot registered in the `X-Telegram-Bot-Api-Secret-Token` header; a request without it is
refused before anything is read. The secret is `TELEGRAM_WEBHOOK_SECRET`, or one derived from
the token, so that every worker behind the proxy derives the same one.

Every request the library makes goes through `CountingRequest`, which counts it (and Telegram's
429s) and notes when Telegram last answered: what `/healthz` asks of the Telegram bot.

Telegram's flood limits are on what a bot sends (some 20 messages a minute in a group), and the
library's rate limiter (`AIORateLimiter`) holds back every request that names a group. A question
that sends nothing, such as whether someone may watch a group's game (getChatMember, asked when a
page opens), must not wait behind the group's messages, nor take their place: `FloodLimits`
lets questions through at once.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import re
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from telegram import Bot
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, Application
from telegram.request import HTTPXRequest

log = logging.getLogger(__name__)

HEARTBEAT = 60.0
"""Seconds of quiet after which a bot on a webhook asks Telegram about it (so that a quiet
bot is still heard from, and a webhook Telegram cannot reach is logged)."""

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
"""What Telegram accepts as a webhook's secret token."""
DEFAULT_PATH = "/telegram"
"""The webhook's path when its URL names none."""
RESERVED = ("/healthz", "/metrics")


def derived_secret(token: str) -> str:
    """A secret every process with the token derives alike (HMAC-SHA256 of the token, in hex:
    64 characters Telegram accepts); it tells nothing of the token."""
    return hmac.new(token.encode(), b"gupai telegram webhook", hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Webhook:
    url: str
    """The URL Telegram POSTs updates to."""
    path: str
    """The path the bot's HTTP server takes them on (the URL's own path)."""
    secret: str

    @classmethod
    def of(cls, url: str, token: str, secret: str | None = None) -> Webhook:
        """From the settings; ValueError with a sentence saying what to fix."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"TELEGRAM_WEBHOOK_URL must be an https:// URL, not {url!r}")
        path = parts.path.rstrip("/") or DEFAULT_PATH
        if path in RESERVED:
            raise ValueError(f"TELEGRAM_WEBHOOK_URL must not end in {path}: the bot serves "
                             "that itself")
        secret = (secret or "").strip() or derived_secret(token)
        if not SECRET.fullmatch(secret):
            raise ValueError("TELEGRAM_WEBHOOK_SECRET may hold only letters, digits, _ and -, "
                             "at most 256 of them")
        full = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
        return cls(full, path, secret)

    def allows(self, given: str | None) -> bool:
        """Whether a request carries the secret (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.encode(), self.secret.encode())


class Contact:
    """When Telegram last answered (any request it answered, or an update it delivered)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.at: float | None = None

    def heard(self) -> None:
        self.at = self.clock()

    def silence(self) -> float | None:
        """Seconds since Telegram was last heard from; None before it ever was."""
        return None if self.at is None else self.clock() - self.at

    def health(self, silence: float) -> str | None:
        """None while Telegram was heard from within `silence` seconds; else why not."""
        quiet = self.silence()
        if quiet is None:
            return "telegram: not heard from yet"
        if quiet > silence:
            return f"telegram: nothing heard for {quiet:.0f} s"
        return None


async def watch_webhook(bot: Bot, contact: Contact, webhook: Webhook) -> None:
    """While updates come by webhook, ask Telegram about it after every quiet minute: a bot
    nobody writes to is still heard from, and what keeps Telegram from delivering updates is
    logged (each failure once)."""
    seen = None
    while True:
        quiet = contact.silence()
        if quiet is not None and quiet < HEARTBEAT:
            await asyncio.sleep(HEARTBEAT - quiet)
            continue
        try:
            info = await bot.get_webhook_info()
        except TelegramError as exc:
            log.warning("telegram: the webhook could not be looked at: %s", exc)
            await asyncio.sleep(HEARTBEAT)
            continue
        if info.url != webhook.url:
            log.warning("telegram: the webhook is %r, not %r (another process set it?)",
                        info.url, webhook.url)
        elif info.last_error_message and info.last_error_date != seen:
            seen = info.last_error_date
            log.warning("telegram: the webhook's last delivery failed: %s (%d updates "
                        "waiting)", info.last_error_message, info.pending_update_count)
        await asyncio.sleep(HEARTBEAT)


class CountingRequest(HTTPXRequest):
    """The library's own HTTP requests, each told to `answered` with the status it got (None
    when it got none: a timeout, a network error)."""

    def __init__(self, answered: Callable[[int | None], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._answered = answered

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        status: int | None = None
        try:
            status, payload = await super().do_request(*args, **kwargs)
        finally:
            self._answered(status)
        return status, payload


QUESTIONS = frozenset({"getChatMember", "getChatAdministrators", "getChat"})
"""Bot API methods that send nothing to a chat, and so spend none of its flood limit."""


class FloodLimits(AIORateLimiter):
    """The library's rate limiter, for what a bot sends only (see the module's note)."""

    async def process_request(self, callback: Callable[..., Any], args: Any, kwargs: Any,
                              endpoint: str, data: dict[str, Any],
                              rate_limit_args: int | None) -> Any:
        if endpoint in QUESTIONS:
            return await callback(*args, **kwargs)
        return await super().process_request(callback, args, kwargs, endpoint, data,
                                             rate_limit_args)


@functools.cache
def tls() -> ssl.SSLContext:
    """The TLS settings of every request to Telegram: httpx's defaults (its CA bundle, or
    SSL_CERT_FILE's), read once a process. Each HTTP client read the bundle anew, some 50 ms
    of a start's processor time, and a bot has two (one for its updates)."""
    return httpx.create_ssl_context()


def application(token: str, api_url: str | None, webhook: bool, max_retries: int,
                answered: Callable[[int | None], None]
                ) -> Application[Any, Any, Any, Any, Any, Any]:
    """The library's application: every request counted (`answered`), the flood limits kept
    by its rate limiter, updates handled concurrently; no updater on a webhook (the HTTP
    server hands the updates in); `api_url`, a local Bot API server."""
    builder = (Application.builder().token(token)
               .rate_limiter(FloodLimits(max_retries=max_retries))
               .request(CountingRequest(answered, connection_pool_size=256,
                                        httpx_kwargs={"verify": tls()}))
               .get_updates_request(CountingRequest(answered, connection_pool_size=1,
                                                    httpx_kwargs={"verify": tls()}))
               .concurrent_updates(True))
    if webhook:
        builder = builder.updater(None)
    if api_url:
        base = api_url.rstrip("/")
        builder = builder.base_url(f"{base}/bot").base_file_url(f"{base}/file/bot")
    return builder.build()
