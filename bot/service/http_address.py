"""Where the bot's HTTP server listens, read from the settings (docs/architecture.md §11).

Kept apart from the server (`bot.launch.http_server`) and its limits (`bot.service.http_guard`),
which load aiohttp: a bot without `GUPAI_HTTP_PORT` runs no server, and reading its settings
should not cost it the loading of one (a third of a second of a start's processor time).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_HOST = "127.0.0.1"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxies_of(env: Mapping[str, str]) -> tuple[Network, ...]:
    """GUPAI_HTTP_PROXIES: the addresses or networks of the reverse proxies in front, whose
    `X-Forwarded-For` names the client. ValueError with a sentence saying what to fix."""
    found = []
    for part in env.get("GUPAI_HTTP_PROXIES", "").replace(",", " ").split():
        try:
            found.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError("GUPAI_HTTP_PROXIES must list addresses or networks (127.0.0.1, "
                             f"10.0.0.0/8), not {part!r}") from None
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Address:
    host: str
    port: int
    proxies: tuple[Network, ...] = ()
    """The reverse proxies in front, whose `X-Forwarded-For` names the client."""

    @classmethod
    def of(cls, env: Mapping[str, str]) -> Address | None:
        """From GUPAI_HTTP_HOST, GUPAI_HTTP_PORT and GUPAI_HTTP_PROXIES; None when no port is
        set (no server). ValueError with a sentence saying what to fix."""
        text = env.get("GUPAI_HTTP_PORT", "").strip()
        if not text:
            return None
        if not text.isdigit() or not 0 < int(text) < 65536:
            raise ValueError(f"GUPAI_HTTP_PORT must be a port number (1-65535), not {text!r}")
        return cls(env.get("GUPAI_HTTP_HOST", "").strip() or DEFAULT_HOST, int(text),
                   proxies_of(env))
