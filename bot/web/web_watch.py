"""Spectators at the web table: what a page offers someone watching a game without a seat, and the
presses it refuses them (docs/hosting.md, watching; docs/architecture.md §1 invariants 4 and 5).

A spectator's page is the group's table from the rules' spectator's view
(`Rules.spectator_view`, through `bot.session.turns`), so it shows what the group's table shows and
no tile more; its only button is Join, while a seat can be taken (a computer's, or one whose
person left or is away, as the chats' Join takes it). Every press from a spectator is refused
before the session layer is asked, with a sentence that says why, so a forged payload sent from
a spectator's page never reaches a game. How many watch is counted from the spectators' open
event streams (`bot.web.web_streams`) and said on every page of the game.

Who may watch: the members of the game's group, as its platform says (`Members`: Telegram's
getChatMember, asked once per person and group every `MEMBER_SECONDS`, since a page asks for its
table after every move). A link to the page passed outside the group shows nobody else's game.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.present import payload
from bot.present.screens import Actor
from bot.session.hosting import free_seat
from bot.session.manager import SessionManager
from bot.session.seating import seat_index, seats_of
from storage import Session
from words.i18n import tr


def join_button(session: Session, lang: str) -> list[dict[str, Any]]:
    """Join, for a spectator of a game under way, while a seat can be taken."""
    if free_seat(seats_of(session)) is None:
        return []
    return [{"label": tr(lang, "btn.join"), "join": True, "tone": "go"}]


def watching_text(watching: int, lang: str) -> str:
    """How many watch the game, as the page says it ("" while nobody does)."""
    return tr(lang, "web.watching", watching) if watching else ""


async def spectator_press(manager: SessionManager, actor: Actor, data: str) -> bool:
    """Whether `data` presses a game that has begun at which `actor` has no seat: a
    spectator's press, refused. (A payload that does not parse is the session layer's to
    refuse as forged, as from any page.)"""
    try:
        press = payload.decode(data)
    except payload.BadPayload:
        return False
    session = await manager.requests.current(press.session_id)
    if session is None or session.status == "lobby":
        return False
    return seat_index(session, actor.platform_id) is None


MEMBER_SECONDS = 600.0
"""Seconds an answer about who is in a group is kept."""
MEMBERS_KEPT = 10_000
"""Answers kept at most (the least recently asked go first)."""

Member = Callable[[str, str], Awaitable[bool]]
"""Whether a person (their platform id) is in a chat (its platform id) now; raises when the
platform cannot say."""


class CannotTell(Exception):
    """The platform could not say whether someone is in a group (try again later)."""


class Members:
    """Whether a spectator is in the game's group, asked of the platform (`ask`) and kept a
    while; without `ask` (a platform that cannot say), everyone may watch."""

    def __init__(self, ask: Member | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ask = ask
        self.clock = clock
        self._known: OrderedDict[tuple[str, str], tuple[bool, float]] = OrderedDict()

    async def may_watch(self, session: Session, person: str) -> bool:
        """Whether `person` may watch `session`'s game; CannotTell when the platform fails."""
        chat = str(session.messages.get("place", {}).get("chat", ""))
        if self.ask is None:
            return True
        if not chat:
            return False
        key = (chat, person)
        known = self._known.get(key)
        if known is not None and self.clock() - known[1] < MEMBER_SECONDS:
            self._known.move_to_end(key)
            return known[0]
        try:
            member = await self.ask(chat, person)
        except Exception as exc:
            raise CannotTell(str(exc)) from exc
        self._known[key] = (member, self.clock())
        self._known.move_to_end(key)
        while len(self._known) > MEMBERS_KEPT:
            self._known.popitem(last=False)
        return member
