"""Where the web table is published, and the links that open it from the chats.

A Telegram Mini App is a web page registered with @BotFather under a short name; Telegram opens
it over the chat, signed with who opened it (`bot.web.webapp_auth`). The bot's own HTTP server
serves it at `/app/` (`bot.web.webapp`); a public HTTPS address in front of that (a reverse proxy)
is what BotFather is given. Two settings turn it on, both or neither:

- `TELEGRAM_MINIAPP_URL`: that public address of the page (`https://example.org/app/`).
- `TELEGRAM_MINIAPP_NAME`: the short name given to BotFather's `/newapp`, so a group message
  can carry a direct link (`https://t.me/<bot>/<name>?startapp=s<session>`): groups take no
  `web_app` buttons, private chats do (they open the page at its URL with `?s=<session>`).
  Watch opens the same page (`w<session>`, `?w=<session>`); the server, not the link, decides
  that someone without a seat sees a spectator's table (`bot.web.web_watch`).

`GUPAI_MINIAPP_MAX_AGE` sets how many seconds Telegram's signature on an opening stays good,
and `GUPAI_WEB_STREAMS` how many pages may follow games at once (`bot.web.web_streams`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_AGE = 24 * 3600.0
"""Seconds init data stays good: Telegram makes it when the table is opened, and a player may
keep the table open through a long evening."""
TOTAL = 2000
"""Streams one process holds open at most, unless GUPAI_WEB_STREAMS says otherwise."""
START = "s"
"""The start parameter is this letter and the session's number."""
WATCH = "w"
"""The same, for the Watch link."""
_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


@dataclass(frozen=True, slots=True)
class MiniApp:
    url: str
    name: str
    max_age: float = MAX_AGE
    streams: int = TOTAL

    @classmethod
    def of(cls, env: Mapping[str, str]) -> MiniApp | None:
        """From the settings; None when neither is set. ValueError with a sentence saying
        what to fix."""
        url = env.get("TELEGRAM_MINIAPP_URL", "").strip()
        name = env.get("TELEGRAM_MINIAPP_NAME", "").strip()
        if not url and not name:
            return None
        if not url or not name:
            missing = "TELEGRAM_MINIAPP_URL" if not url else "TELEGRAM_MINIAPP_NAME"
            raise ValueError(f"The Mini App needs {missing} too: TELEGRAM_MINIAPP_URL is the "
                             "public HTTPS address of the page (/app/ on GUPAI_HTTP_PORT, "
                             "behind a proxy), TELEGRAM_MINIAPP_NAME its short name in "
                             "@BotFather's /newapp.")
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http") or not parts.netloc:
            raise ValueError(f"TELEGRAM_MINIAPP_URL must be an https:// address, not {url!r}")
        if not _NAME.fullmatch(name):
            raise ValueError("TELEGRAM_MINIAPP_NAME must be the Mini App's short name "
                             f"(3-30 letters, digits or _), not {name!r}")
        text = env.get("GUPAI_MINIAPP_MAX_AGE", "").strip()
        max_age = MAX_AGE
        if text:
            if not text.isdigit() or not 60 <= int(text) <= 7 * 24 * 3600:
                raise ValueError("GUPAI_MINIAPP_MAX_AGE must be 60 to 604800 seconds, "
                                 f"not {text!r}")
            max_age = float(text)
        text = env.get("GUPAI_WEB_STREAMS", "").strip()
        streams = TOTAL
        if text:
            if not text.isdigit() or not 1 <= int(text) <= 100_000:
                raise ValueError("GUPAI_WEB_STREAMS must be 1 to 100000 pages, not "
                                 f"{text!r}")
            streams = int(text)
        return cls(url, name, max_age, streams)

    def direct_link(self, username: str | None, session_id: int, start: str = START) -> str:
        """Opens the table over a group (Telegram's direct Mini App link)."""
        return f"https://t.me/{username}/{self.name}?startapp={start}{session_id}"

    def page(self, session_id: int, start: str = START) -> str:
        """The page's address for one game (a private chat's `web_app` button)."""
        return f"{self.url}{'&' if '?' in self.url else '?'}{start}={session_id}"
