"""Seats of a session and the game a session plays, as the session layer stores them.

A seat is a person (platform id) or a computer player, with the two flags the turn timer keeps:
how many turns in a row the timer ran out (`misses`) and whether the computer now plays the seat
until its owner comes back (`away`). Everything here round-trips through the JSON that
`storage.sessions` keeps, so a restarted bot finds the same table.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import games
from games.engine import Rules
from storage import Session


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int
    """The storage user id (computer seats are users too, so settlements stay zero-sum)."""
    name: str
    platform_id: str = ""
    computer: bool = False
    away: bool = False
    misses: int = 0

    @property
    def automatic(self) -> bool:
        """Moved by the computer: a computer seat, or a person who is away."""
        return self.computer or self.away

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(**data)


def seats_of(session: Session) -> list[Seat]:
    return [Seat.from_json(s) for s in session.seats]


def seat_index(session: Session, platform_id: str) -> int | None:
    for i, seat in enumerate(seats_of(session)):
        if not seat.computer and seat.platform_id == platform_id:
            return i
    return None


def with_seats(session: Session, seats: list[Seat]) -> Session:
    return session.but(seats=[s.to_json() for s in seats])


@dataclass(frozen=True, slots=True)
class Game:
    """A session's game: the rules, its validated options, the preset named and the seed."""

    rules: Rules[Any, Any]
    options: Any
    preset: str | None
    values: dict[str, Any]
    seed: str

    @classmethod
    def of(cls, session: Session) -> Game:
        rules = games.get(session.game)
        stored = session.options
        preset, values = stored.get("preset"), dict(stored.get("values", {}))
        return cls(rules, rules.options(preset, **values), preset, values, str(stored["seed"]))

    def stored(self) -> dict[str, Any]:
        return {"preset": self.preset, "values": self.values, "seed": self.seed}

    def state(self, session: Session) -> Any:
        return None if session.state is None else self.rules.loads(session.state)

    def deal_seed(self, deal: int) -> str:
        return f"{self.seed}/deal{deal}"
