"""The screens a game's home makes, from states the tests build: through the public view, as
the session layer hands them to the presenter (which never sees a state)."""

from __future__ import annotations

from typing import Any

from bot import presenter
from faces import home_of


def table_of(session: Any, game: Any, seats: Any, state: Any, lang: str, events: Any,
             clock: Any) -> Any:
    """The table screen of a state, through its public view (the presenter sees only views)."""
    return presenter.table(session, game, seats, game.rules.view(state, None), lang, events,
                           clock)


def result_of(session: Any, game: Any, seats: Any, state: Any, lang: str, after: Any,
              clock: Any) -> Any:
    return presenter.result(session, game, seats, game.rules.view(state, None), lang, after,
                            clock)


def hint(view: Any, lang: str) -> str:
    return home_of(view).hint(view, lang)
