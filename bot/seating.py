"""Seats of a session and the game a session plays, as the session layer stores them.

A seat is a person (platform id) or a computer player at the level the table chose for it,
with the two flags the turn timer keeps: how many turns in a row the timer ran out (`misses`)
and whether the computer now plays the seat until its owner comes back (`away`). Everything here
round-trips through the JSON that `storage.sessions` keeps, so a restarted bot finds the same
table (seats saved before levels existed load as `normal`, the only level there was).
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import games
from bot.i18n import tr
from games.engine import Rules
from games.players import LEVELS
from storage import Session

AWAY_LEVEL = "normal"
"""How the computer plays for a person who is away: as well as it usually plays, no better and
no worse, since they come back to their own game."""


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int
    """The storage user id (computer seats are users too, so settlements stay zero-sum)."""
    name: str
    platform_id: str = ""
    computer: bool = False
    away: bool = False
    misses: int = 0
    level: str = AWAY_LEVEL
    """A computer seat's level (`games.players.LEVELS`); a person's seat keeps the default."""

    @property
    def automatic(self) -> bool:
        """Moved by the computer: a computer seat, or a person who is away."""
        return self.computer or self.away

    @property
    def plays_at(self) -> str:
        """The level the computer moves this seat at: a computer seat's own, the usual one
        for a person who is away (or for a level this release does not know)."""
        return self.level if self.computer and self.level in LEVELS else AWAY_LEVEL

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(**data)


COMPUTER_LABEL = "computer-{number}"
"""How a computer seat is known to storage; its shown name comes from the catalogue."""


def computer_label(number: int) -> str:
    return COMPUTER_LABEL.format(number=number)


def computer_name(label: str, lang: str) -> str:
    """A computer seat's name in `lang`, from its label ("computer-2": "Computer 2")."""
    number = label.rpartition("-")[2]
    return tr(lang, "computer.name", number=number) if number.isdigit() else label


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
        key = (session.game, json.dumps(session.options, sort_keys=True))
        game = _GAMES.get(key)
        if game is None:
            rules = games.get(session.game)
            stored = session.options
            preset, values = stored.get("preset"), dict(stored.get("values", {}))
            game = cls(rules, rules.options(preset, **values), preset, values,
                       str(stored["seed"]))
            _keep(_GAMES, key, game)
        return game

    def stored(self) -> dict[str, Any]:
        return {"preset": self.preset, "values": self.values, "seed": self.seed}

    def state(self, session: Session) -> Any:
        """The deal, decoded once per saved text: states are immutable values, so one decoded
        copy serves every request until the next move saves a new text."""
        if session.state is None:
            return None
        key = (self.rules.id, session.state)
        state = _STATES.get(key)
        if state is None:
            state = self.rules.loads(session.state)
            _keep(_STATES, key, state)
        return state

    def dumps(self, state: Any) -> str:
        """The text to save, remembered with its decoded state."""
        text = self.rules.dumps(state)
        _keep(_STATES, (self.rules.id, text), state)
        return text

    def deal_seed(self, deal: int) -> str:
        return f"{self.seed}/deal{deal}"


CACHE_SIZE = 2048
_GAMES: OrderedDict[tuple[str, str], Game] = OrderedDict()
_STATES: OrderedDict[tuple[str, str], Any] = OrderedDict()


def _keep(cache: OrderedDict[tuple[str, str], Any], key: tuple[str, str], value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    if len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
