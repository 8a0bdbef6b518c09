"""The Telegram adapter's HTTP below the Bot API methods: the webhook and hearing from Telegram.

Long polling is the default. With `TELEGRAM_WEBHOOK_URL` set, Telegram POSTs each update to that
URL instead (through a reverse proxy that ends TLS, to `bot.http_server`), with the secret the
bot registered in the `X-Telegram-Bot-Api-Secret-Token` header; a request without it is
refused before anything is read. The secret is `TELEGRAM_WEBHOOK_SECRET`, or one derived from
the token, so that every worker behind the proxy derives the same one.

Every request the library makes goes through `CountingRequest`, which counts it (and Telegram's
429s) and notes when Telegram last answered: what `/healthz` asks of the Telegram bot.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from telegram.request import HTTPXRequest

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
