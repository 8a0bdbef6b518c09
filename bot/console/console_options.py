"""What `gupai play` was asked for, and its defaults (the console's own database and language).

docs/architecture.md §5 (Console).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "gupai-console.sqlite3"
"""The console's own database in the working directory (not the bot's `GUPAI_DB`)."""
DB_ENV = "GUPAI_CONSOLE_DB"
DEFAULT_OUT = "gupai-play"
COMPUTER_DELAY = 0.6
DEAL_PAUSE = 2.0


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What `gupai play` was asked for."""

    game: str
    """The game to play; "" to resume whatever game is saved."""
    players: int | None = None
    preset: str | None = None
    stake: int | None = None
    options: tuple[str, ...] = ()
    """`name=value` words passed to the new game as they are."""
    lang: str = "en"
    name: str = "Player"
    player_id: str = "player"
    out: Path = Path(DEFAULT_OUT)
    db: str = DEFAULT_DB
    computer_delay: float = COMPUTER_DELAY
    deal_pause: float = DEAL_PAUSE
    new: bool = False
    """Stop an unfinished game found in the database instead of resuming it."""
    wait: bool = False
    """Keep each deal's final board until the player presses Enter."""
    level: str | None = None
    """The computer players' level (`games.players.LEVELS`); None: not asked for, so a new
    table gets `normal` and a saved one is resumed whatever its level."""
    pictures: bool = True
    """Write the table, the hand and each result as PNG files into `out`; without them the
    terminal's own text is the whole game (drawing them is most of what a move costs)."""


def shown_value(value: object) -> str:
    """An option's value as `gupai games` and `--option` write it: on/off for a yes-or-no."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def default_db(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return env.get(DB_ENV) or DEFAULT_DB


def default_lang(env: Mapping[str, str] | None = None) -> str:
    """Ukrainian when the terminal's locale is Ukrainian, English otherwise."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "uk" if value.lower().startswith("uk") else "en"
    return "en"
