"""One home per family of games for everything a game shows, and the one registry of them.

docs/architecture.md §11: the rules core (`games/`) decides what happens; a family's home
(`faces/line`, `faces/trick`, `faces/collect`) decides how it looks and reads: button labels and
groups, hints, captions, the board in words and in pictures, the result card, the rules text and the
gallery's positions. Everything outside `games/` and the homes asks this registry for a game's home
instead of looking at the view's class.

Adding a game: its rules module (naming its computer player) in `games/`, a home here (or its
ids added to the home of its family), and its catalogue keys. The homes are found, not
listed: every package of `faces` names the homes it holds in its `HOMES`.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from faces.home import Groups, Home, Letters
from games import GAMES, get
from games.engine import InvalidOptions, View
from words.i18n import tr

__all__ = ["HOMES", "Groups", "Home", "Letters", "home", "home_of", "rules_text"]

_FOUND: dict[str, Home[Any]] = {
    game: home
    for info in pkgutil.iter_modules(__path__) if info.ispkg
    for home in importlib.import_module(f"{__name__}.{info.name}").HOMES
    for game in home.games
}
HOMES: dict[str, Home[Any]] = {game: _FOUND[game] for game in GAMES if game in _FOUND}
"""Game id -> its family's home, in the games' order."""
assert set(HOMES) == set(GAMES), "every game has a home"

MAX_RULES_CHARS = 3000
"""The longest rules text: it fits one Telegram message (4096) and a Discord embed (4096)."""


def home(game: str) -> Home[Any]:
    """The home of a game, by id or alias."""
    return HOMES[get(game).id]


def home_of(view: View[Any]) -> Home[Any]:
    """The home of the game a view shows; anything but a view is refused (a state above all:
    nothing hidden may reach what is shown)."""
    if not isinstance(view, View):
        raise TypeError(f"a game is shown from a view, not from {type(view).__name__}")
    return HOMES[view.game]


def rules_text(game: str, lang: str) -> str:
    """The rules of `game` (an id or any alias) in `lang`, in short: who plays, the deal, a
    turn, the end of a deal, chips, and the presets and options by the names `/newgame` takes.
    Each is its home's catalogue key `rules.<id>`.

    A language without a text falls back to English ("uk-UA" and "en_GB" count as their base
    language); a game nobody knows raises KeyError.
    """
    try:
        rules = get(game)
    except InvalidOptions:
        raise KeyError(game) from None
    return tr(lang.strip().lower().replace("_", "-").split("-")[0], f"rules.{rules.id}")
