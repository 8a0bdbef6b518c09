"""Host controls: taking over a seat, removing a player, skipping a stuck turn, leaving a game.

docs/architecture.md §4. A table that goes wrong can be fixed from the chat, on every platform in
the same words. `/join` (or the table's Join) in a running game takes over a seat the computer
plays: the person who left a seat gets that seat back; anyone else takes a computer's seat first,
then one whose person left or was removed, then one whose person is away, so that a seat waits for
its person as long as there is another. The creator (or a chat admin) can remove a player: from a
lobby they leave; in a game the computer plays their seat from then on, for no chips. The creator
(or an admin) can make the computer play the turn that is due now (`/skip`): it is the turn's timer
running out early, so it counts as the player's missed turn. Whoever leaves the creator's role
passes it to the next person at the table.

A seat changes hands at once, but chips follow the deal (`bot.session.chips`): whoever was at stake
when the deal began stays at stake in it, and a newcomer plays for chips from the next deal on.
"""

from __future__ import annotations

import dataclasses

from bot.present.screens import Actor, Reply, Screen, Target
from bot.session.lobby import Lobby
from bot.session.requests import IsAdmin, Refusal, Requests, seat_of
from bot.session.seating import Seat, seat_index, seats_of, successor
from bot.session.timers import Timers
from bot.session.turns import Ended, Turns
from storage import Session
from words.i18n import tr

NAME_SHOWN = 64
"""The most of a typed name an answer repeats."""


class Hosting:
    def __init__(self, requests: Requests, turns: Turns, lobby: Lobby, timers: Timers) -> None:
        self.r = requests
        self.turns = turns
        self.lobby = lobby
        self.timers = timers

    # ----- joining and leaving ------------------------------------------------------------------

    async def join(self, session: Session, actor: Actor) -> Reply:
        """A seat: in a lobby, a new one; in a game, the player's own hand if they sit, else a
        seat the computer plays."""
        if session.status == "lobby":
            return await self.lobby.join(session, actor)
        if seat_index(session, actor.platform_id) is not None:
            return await self.turns.show_hand(session, actor)
        return await self.take_seat(session, actor)

    async def take_seat(self, session: Session, actor: Actor) -> Reply:
        seats = seats_of(session)
        mine = actor.platform_id
        if any(s.gone == "removed" and s.platform_id == mine for s in seats):
            raise Refusal("host.removed_before")
        user_id = await self.r.user_of(actor)
        index = next((i for i, s in enumerate(seats) if s.gone == "left"
                      and s.platform_id == mine), None)
        if index is None:
            if any(s.staked == user_id for s in seats) and self.turns.in_progress(session):
                raise Refusal("host.after_deal")  # still at stake on the seat they left
            index = free_seat(seats)
            if index is None:
                raise Refusal("host.no_seat")
        await self.turns.chips.ready(session.chat_id, user_id, actor.name, session.stake)
        old = seats[index]
        seats[index] = Seat(user_id, actor.name, mine, staked=old.staked)
        creator = None
        departed = None
        if old.person:  # an away person's seat: they are told, and the role moves on
            departed = (old.platform_id, index,
                        lambda lang: tr(lang, "host.seat_taken_from_you", name=actor.name))
            if old.user_id == session.creator_id:
                creator = successor(seats, index + 1)
        return await self.turns.seats_changed(session, seats, index, "host.took_seat",
                                              actor.name, creator_id=creator,
                                              departed=departed, arrived=True)

    async def leave(self, session: Session, actor: Actor) -> Reply:
        """Leave a lobby; in a game, the computer plays the seat from now on, for no chips,
        and the seat waits for the player to take it back."""
        if session.status == "lobby":
            return await self.lobby.leave(session, actor)
        index = seat_of(session, actor)
        return await self.unseat(session, index, "left", "table.left_game", actor.name,
                                 lambda lang: tr(lang, "hand.left_game"))

    # ----- the host's controls ------------------------------------------------------------------

    async def remove(self, session: Session, actor: Actor, target: Target,
                     is_admin: IsAdmin) -> Reply:
        """The creator (or an admin) removes a player: from a lobby they leave; in a game the
        computer plays their seat from now on."""
        await self.check_rights(session, actor, is_admin)
        seats = seats_of(session)
        index = find(seats, target, lobby=session.status == "lobby")
        seat = seats[index]
        if seat.platform_id == actor.platform_id and not seat.computer:
            raise Refusal("host.not_yourself")
        if session.status == "lobby":
            note = None if seat.computer else (seat.platform_id, Screen(tr(
                await self.r.language_of(seat.platform_id, session.chat_id),
                "host.removed_you_lobby", name=actor.name)))
            return await self.lobby.unseat(session, index, "host.removed", note, seat.name)
        return await self.unseat(session, index, "removed", "host.removed", seat.name,
                                 lambda lang: tr(lang, "host.removed_you", name=actor.name))

    async def skip(self, session: Session, actor: Actor, is_admin: IsAdmin) -> Reply:
        """The creator (or an admin) has the computer play the turn that is due now."""
        await self.check_rights(session, actor, is_admin)
        if session.status != "active" or not session.dealt:
            raise Refusal("err.not_started")
        mover = self.turns.mover(session)
        if mover is None:
            raise Refusal("host.no_turn")
        name = seats_of(session)[mover].name
        await self.timers.due(session)
        return Reply(toast=tr(self.r.answering(await self.r.language(session.chat_id)),
                              "host.skipped", name=name))

    async def check_rights(self, session: Session, actor: Actor, is_admin: IsAdmin) -> None:
        if await self.r.user_of(actor) != session.creator_id and not await is_admin():
            raise Refusal("host.rights")

    # ----- helpers ------------------------------------------------------------------------------

    async def unseat(self, session: Session, index: int, gone: str, key: str, name: str,
                     why: Ended) -> Reply:
        """A person's seat in a game goes to the computer (they left, or were removed)."""
        seats = seats_of(session)
        seat = seats[index]
        seats[index] = dataclasses.replace(seat, gone=gone, away=False, misses=0)
        creator = successor(seats, index + 1) if seat.user_id == session.creator_id else None
        return await self.turns.seats_changed(session, seats, index, key, name,
                                              creator_id=creator,
                                              departed=(seat.platform_id, index, why))


def free_seat(seats: list[Seat]) -> int | None:
    """The seat a newcomer takes: a computer's, then one whose person left or was removed,
    then one whose person is away (the earliest of each)."""
    for wanted in (lambda s: s.computer, lambda s: bool(s.gone), lambda s: s.away):
        for i, seat in enumerate(seats):
            if wanted(seat):
                return i
    return None


def find(seats: list[Seat], target: Target, *, lobby: bool) -> int:
    """The seat a host's command names: by the player's id (a reply, a user option), else by
    name; in a lobby a computer may be named too."""
    candidates = [i for i, s in enumerate(seats) if s.person or (lobby and s.computer)]
    if target.platform_id:
        found = [i for i in candidates if seats[i].platform_id == target.platform_id]
    else:
        wanted = target.name.strip().casefold()
        found = [i for i in candidates if seats[i].name.strip().casefold() == wanted]
    shown = (target.name or target.platform_id)[:NAME_SHOWN]
    if not found:
        raise Refusal("host.no_such_player", name=shown)
    if len(found) > 1:
        raise Refusal("host.which", name=shown)
    return found[0]
