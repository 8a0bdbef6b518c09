"""The screens a game's home makes, from states the tests build: through the public view, as
the session layer hands them to the presenter (which never sees a state)."""

from __future__ import annotations

from typing import Any

import games
from bot.present import presenter
from bot.session.stakes import Paid
from faces import home_of


def table_of(session: Any, game: Any, seats: Any, state: Any, lang: str, events: Any,
             clock: Any) -> Any:
    """The table screen of a state, through its public view (the presenter sees only views)."""
    return presenter.table(session, game, seats, game.rules.view(state, None), lang, events,
                           clock)


def result_of(session: Any, game: Any, seats: Any, state: Any, lang: str, after: Any,
              clock: Any) -> Any:
    view = game.rules.view(state, None)
    return presenter.result(session, game, seats, view, lang, after, clock,
                            Paid.as_dealt(view.outcome.deltas, session.stake))


def hint(view: Any, lang: str) -> str:
    return home_of(view).hint(view, lang)


def taught(game: str, preset: str | None, players: int, lang: str = "en") -> list[str]:
    """The lines the terminal's help (`?`) teaches of a game's own moves and marks, as its home
    writes them for a seat at the start of a deal."""
    rules = games.get(game)
    view = rules.view(rules.new_deal(rules.options(preset), players, "help"), 0)
    return home_of(view).teacher.help(view, lang)
