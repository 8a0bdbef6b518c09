"""A finished deal's moves, kept next to its seed so that it can be replayed and checked.

docs/architecture.md §1.3 and §6 (migration 7). Each deal played since the migration keeps, in its
own `deals` row (written by `Accounts.apply_settlement` in the statement that records the deal, so a
deal is settled with its moves or not at all, at no cost of another statement), its seed, what it
was dealt with (`setup`: the preset and options, the players, the match the deal was dealt in, the
stake and the chips each seat had on the table, which the settlement was covered by) and the moves'
compact text (`games.replay`). A deal played before the migration, or one whose game began before
it, has them NULL: `Moves.deal` then says so with `moves` None.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from storage.db import Database


@dataclass(frozen=True, slots=True)
class DealMoves:
    """What a deal is played again from: its seed, its setup and its moves' text."""

    seed: str
    setup: dict[str, Any]
    moves: str

    def setup_text(self) -> str:
        return json.dumps(self.setup, separators=(",", ":"), sort_keys=True)

    def size(self) -> int:
        """Bytes the deal's row keeps (its text columns), for the measures of its cost."""
        return len(self.seed.encode()) + len(self.setup_text().encode()) + len(
            self.moves.encode())


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A seat's line of a finished deal, with the person's name."""

    seat: int
    user_id: int
    name: str
    computer: bool
    points: int
    delta: int
    won: bool
    staked: bool


@dataclass(frozen=True, slots=True)
class KeptDeal:
    """A finished deal as the database keeps it; `moves` None: kept without its moves."""

    id: int
    session_id: int
    deal_no: int
    chat_id: int
    game: str
    reason: str
    seats: tuple[KeptSeat, ...]
    moves: DealMoves | None


class Moves:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def deal(self, deal_id: int) -> KeptDeal | None:
        """The deal with this id, its seats and its moves (None: there is no such deal)."""
        row = await self.db.read_one(
            "SELECT id, session_id, deal_no, chat_id, game, reason, seed, setup, moves "
            "FROM deals WHERE id = ?", (deal_id,))
        if row is None:
            return None
        seats = await self.db.read(
            "SELECT s.seat, s.user_id, u.name, u.platform, s.points, s.delta, s.won, s.staked "
            "FROM deal_seats s JOIN users u ON u.id = s.user_id WHERE s.deal_id = ? "
            "ORDER BY s.seat", (deal_id,))
        moves = None if row["moves"] is None else DealMoves(
            str(row["seed"]), _setup(row["setup"]), str(row["moves"]))
        return KeptDeal(int(row["id"]), int(row["session_id"]), int(row["deal_no"]),
                        int(row["chat_id"]), str(row["game"]), str(row["reason"]),
                        tuple(KeptSeat(int(s[0]), int(s[1]), str(s[2]), s[3] == "computer",
                                       int(s[4]), int(s[5]), bool(s[6]), bool(s[7]))
                              for s in seats), moves)

    async def deal_of(self, session_id: int, deal_no: int) -> int | None:
        """The id of a session's deal by its number (None: not settled)."""
        row = await self.db.read_one(
            "SELECT id FROM deals WHERE session_id = ? AND deal_no = ?", (session_id, deal_no))
        return None if row is None else int(row[0])

    async def sizes(self) -> list[int]:
        """Bytes each kept deal's row holds in its text columns, for the measures."""
        rows = await self.db.read(
            "SELECT LENGTH(seed) + LENGTH(setup) + LENGTH(moves) FROM deals "
            "WHERE moves IS NOT NULL")
        return [int(r[0]) for r in rows]


def _setup(text: str | None) -> dict[str, Any]:
    """A kept setup; one that is not a JSON object (changed in the database) reads as empty,
    which the check refuses as a setup it cannot read."""
    try:
        setup = json.loads(text or "")
    except ValueError:
        return {}
    return setup if isinstance(setup, dict) else {}
