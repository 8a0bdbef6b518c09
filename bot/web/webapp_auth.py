"""Who opened the web table: Telegram's init data, checked with the bot's token.

Telegram signs what it hands a Mini App (the user, the start parameter, when it was made) with
a key derived from the bot's token: `secret = HMAC-SHA256(key="WebAppData", msg=token)`, and
`hash = HMAC-SHA256(key=secret, msg=data_check_string)`, where the data-check string is every
received field but `hash`, sorted by name, as `name=value` lines (Telegram's "Validating data
received via the Mini App"). Only the token's holder can make a valid hash, so a request that
carries valid init data really comes from the person it names; its age is checked too, so a
copy found later (in a log, a shared link) stops working. Nothing in the page is trusted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.present.miniapp import MAX_AGE

MAX_LENGTH = 8192
"""Longer init data is refused unread (Telegram's is well under this)."""
SKEW = 60.0
"""Seconds init data may seem to come from the future (clocks differ)."""


class BadInitData(ValueError):
    """Init data that does not prove who sent it; the message says why, for the log."""


@dataclass(frozen=True, slots=True)
class WebUser:
    """The person init data names, and what Telegram says they opened."""

    id: str
    name: str
    language: str | None
    start: str
    """The start parameter of a direct link ("" when opened otherwise)."""
    made: float
    """When Telegram made the init data (seconds since the epoch)."""


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


class InitDataCheck:
    """Checks init data for one bot token (the key is derived once)."""

    def __init__(self, token: str, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.time) -> None:
        self._key = secret_key(token)
        self.max_age = max_age
        self.clock = clock

    def __call__(self, init_data: str) -> WebUser:
        """The person the init data names; BadInitData when it is not Telegram's, or too old."""
        if not init_data or len(init_data) > MAX_LENGTH:
            raise BadInitData("no init data" if not init_data else "init data too long")
        try:
            pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            raise BadInitData("init data is not a query string") from None
        fields = dict(pairs)
        if len(fields) != len(pairs):
            raise BadInitData("a field appears twice")
        given = fields.get("hash", "")
        expected = hmac.new(self._key, data_check_string(fields).encode(),
                            hashlib.sha256).hexdigest()
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise BadInitData("the hash does not match")
        made = _number(fields.get("auth_date", ""))
        if made is None:
            raise BadInitData("no auth_date")
        age = self.clock() - made
        if age > self.max_age:
            raise BadInitData(f"init data is {age:.0f} s old")
        if age < -SKEW:
            raise BadInitData("init data from the future")
        return _user(fields, made)


def _user(fields: dict[str, str], made: float) -> WebUser:
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError:
        raise BadInitData("no user") from None
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        raise BadInitData("no user id")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    language = user.get("language_code")
    return WebUser(str(user["id"]), name or str(user.get("username") or user["id"]),
                   language if isinstance(language, str) else None,
                   fields.get("start_param", ""), made)


def _number(text: str) -> float | None:
    return float(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None
