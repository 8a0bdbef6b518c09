"""`gupai health`: ask the running bot how it is, as the container's HEALTHCHECK does.

It GETs `/healthz` from the bot's HTTP server on this machine (`GUPAI_HTTP_PORT`), with the
standard library only (a slim image has no curl), prints the answer, and exits 0 when the bot
is well and 1 otherwise, also when no port is set or nothing listens there.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import TextIO

WAIT = 4.0
"""Seconds to wait for the answer (Docker's HEALTHCHECK gives the command 5)."""
EVERYWHERE = ("", "0.0.0.0", "::", "[::]")


def url_of(env: Mapping[str, str]) -> str | None:
    """Where the bot's `/healthz` is on this machine; None when no port is set."""
    port = env.get("GUPAI_HTTP_PORT", "").strip()
    if not port:
        return None
    host = env.get("GUPAI_HTTP_HOST", "").strip()
    if host in EVERYWHERE:
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/healthz"


def health(env: Mapping[str, str], out: TextIO = sys.stdout, wait: float = WAIT) -> int:
    url = url_of(env)
    if url is None:
        print("GUPAI_HTTP_PORT is not set, so the bot serves no health check: set it (to 8080, "
              "say) where the bot runs, and here.", file=out)
        return 1
    try:
        with urllib.request.urlopen(url, timeout=wait) as answer:
            print(answer.read().decode("utf-8", "replace").strip(), file=out)
            return 0 if answer.status == 200 else 1
    except urllib.error.HTTPError as exc:
        body = exc.read().decode("utf-8", "replace").strip()
        print(body or f"{exc.code} {exc.reason}", file=out)
        return 1
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        print(f"Nothing answers at {url} ({reason}): is the bot running, with "
              "GUPAI_HTTP_PORT set to this port?", file=out)
        return 1
