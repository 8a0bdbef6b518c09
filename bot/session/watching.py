"""A game as someone watching it sees it: the group's table from the rules' spectator's view, in the
watcher's language, for surfaces that show it to one person (watching: docs/hosting.md;
docs/architecture.md §1 invariant 4).

The session layer decides what a spectator sees, so every surface shows the same: the table
the group sees, built by the same presenter from `Rules.spectator_view` (`bot.session.turns`), with
no buttons (a spectator presses nothing; the chats' Join stays on the group's own table). A game
that has not begun, or that another platform plays, is refused with the catalogue key that
says why.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.present.screens import Screen
from bot.session.manager import SessionManager
from bot.session.requests import OPEN


@dataclass(frozen=True, slots=True)
class Watched:
    """What a spectator sees of a game now: its table and the version it shows, and whether
    the game is over (its table then no longer changes)."""

    screen: Screen
    version: int
    over: bool


class NotWatchable(Exception):
    """No game to watch: the catalogue key of the reason."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


async def watched(manager: SessionManager, session_id: int, lang: str) -> Watched:
    """The game `session_id` as a spectator sees it, in `lang`; NotWatchable otherwise."""
    r = manager.requests
    session = await r.current(session_id)
    if session is None or not await r.ours(session):
        raise NotWatchable("web.no_game")
    over = session.status not in OPEN
    seen = await manager.turns.seen(session, None, lang, over)
    if session.status == "lobby" or seen is None:
        raise NotWatchable("watch.not_yet")
    return Watched(dataclasses.replace(seen.table, keyboard=()), session.version, over)
