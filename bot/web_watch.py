"""Spectators at the web table: what a page offers someone watching a game without a seat,
and the presses it refuses them (issue 37, Watch; DESIGN.md §1 invariants 4 and 5).

A spectator's page is the group's table from the rules' spectator's view
(`Rules.spectator_view`, through `bot.turns`), so it shows what the group's table shows and no
tile more; its only button is Join, while a seat can be taken (a computer's, or one whose
person left or is away, as the chats' Join takes it). Every press from a spectator is refused
before the session layer is asked, with a sentence that says why, so a forged payload sent from
a spectator's page never reaches a game. How many watch is counted from the spectators' open
event streams (`bot.web_streams`) and said on every page of the game.
"""

from __future__ import annotations

from typing import Any

from bot import payload
from bot.hosting import free_seat
from bot.manager import SessionManager
from bot.screens import Actor
from bot.seating import seat_index, seats_of
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
