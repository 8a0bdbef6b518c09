"""The bot's settings: the environment, and a `.env` file in the working folder for anything the
environment does not set (docs/architecture.md §11; `.env.example` documents every name).

Kept apart from the run loop (`bot.launch.run`), which loads the whole bot: `gupai health` and
`gupai backup` read the same settings and load nothing else.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV_FILE = ".env"


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped, quotes around a value removed."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def settings(environ: Mapping[str, str] | None = None, folder: Path | None = None
             ) -> dict[str, str]:
    """The environment wins over `.env`."""
    merged = read_env_file((folder or Path.cwd()) / ENV_FILE)
    merged.update(os.environ if environ is None else environ)
    return merged
