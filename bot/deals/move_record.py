"""A deal's moves, kept as they are made and stored with the deal when it is settled.

docs/architecture.md §1.3 and §6 (migration 7, `storage.moves`); the moves' text is
`games.replay`'s. While a deal is played its moves are kept with the session (`messages["moves"]`,
saved with every move in the save that makes it), so a restart, another process or a seat played by
the computer adds to the same text. Each move names its seat and who made it: the seat's person
(their storage id), with "a" added when the computer moved for them while they were away or gone; a
computer seat is its own user. A deal dealt by a release that did not keep moves has no such key,
and is settled without them: a part of a deal cannot be replayed. The replay's address (`page`, with
the deal's `token`) is made here, below the web table that serves it, since a result post names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode, urljoin

from bot.session.seating import Game, Seat
from games import codec, seeds
from games.engine import Action, View
from games.replay import Move, append
from storage import Session
from storage.moves import DealMoves

KEY = "moves"


def by(seat: Seat) -> str:
    """Who made a seat's move: its user, marked when the computer moved for a person."""
    return f"{seat.user_id}{'a' if seat.automatic and not seat.computer else ''}"


def recorded(messages: dict[str, Any], game: Game, state: Any, seats: Sequence[Seat],
             seat: int, action: Action | str) -> dict[str, Any]:
    """`messages` with the move that `seat` made in `state` kept (in its canonical code)."""
    if KEY not in messages:
        return messages
    rules = game.rules
    move = rules.decode(state, action) if isinstance(action, str) else action
    code = rules.encode(state, move)
    return {**messages, KEY: append(str(messages[KEY]), Move(seat, code, by(seats[seat])))}


def kept(session: Session, game: Game, state: Any, held: Sequence[int]) -> DealMoves | None:
    """What the settlement of the finished deal `state` keeps to replay it (None: the deal
    began before moves were kept). `held`: the chips each seat had on the table, which its
    settlement was covered by."""
    if KEY not in session.messages:
        return None
    match = state.match
    setup = {"preset": game.preset, "values": game.values, "players": match.players,
             "match": codec.to_jsonable(match), "stake": session.stake, "held": list(held)}
    return DealMoves(seeds.deal_seed(game.seed, match.deal), setup, str(session.messages[KEY]))


def token(session_id: int, deal_no: int, seed: str) -> str:
    return f"{session_id}_{deal_no}_{seeds.fingerprint(seed)}"


def page(base: str, session_id: int, deal_no: int, seed: str, lang: str) -> str:
    """The replay page's address under the web table's public one (`base`, ending in `/`)."""
    query = urlencode({"d": token(session_id, deal_no, seed), "lang": lang})
    return urljoin(base if base.endswith("/") else f"{base}/", f"replay.html?{query}")


def replay_link(base: str, session: Session, game: Game, view: View[Any], lang: str) -> str:
    """The address of the finished deal's replay on the web table ("" without one)."""
    if not base:
        return ""
    deal = view.match.deal
    return page(base, session.id, deal, game.deal_seed(deal), lang)
