"""Seats of a session and the game a session plays, as the session layer stores them.

A seat is a person (platform id) or a computer player at the level the table chose for it,
with the two flags the turn timer keeps: how many turns in a row the timer ran out (`misses`)
and whether the computer now plays the seat until its owner comes back (`away`). A person who
left the game, or whom its host removed, is `gone`: the computer plays the seat for no chips,
and the seat waits for whoever takes it over (the person who left first). `staked` is whose
chips the seat plays for in the deal in progress: fixed when the deal starts, so that leaving
or handing the seat over mid-deal settles that deal as it began. Everything here round-trips
through the JSON that `storage.sessions` keeps, so a restarted bot finds the same table (seats
saved before levels existed load as `normal`, the only level there was).
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import games
from games import seeds
from games.engine import Rules
from games.players import LEVELS
from storage import Session
from words.i18n import tr

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
    gone: str = ""
    """"left" (the person left; they get the seat back if they return) or "removed" (by the
    host); "" while the person sits here."""
    staked: int | None = None
    """The user whose chips the seat plays for in the deal in progress (None: for nothing)."""

    @property
    def automatic(self) -> bool:
        """Moved by the computer: a computer seat, a person who is away, or one who is gone."""
        return self.computer or self.away or bool(self.gone)

    @property
    def person(self) -> bool:
        """A person sits here (they may be away for a turn or two)."""
        return not self.computer and not self.gone

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
    """The seat of the person with this platform id (not a seat they left)."""
    for i, seat in enumerate(seats_of(session)):
        if seat.person and seat.platform_id == platform_id:
            return i
    return None


def people(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.person]


def successor(seats: list[Seat], after: int) -> int | None:
    """Who takes over the creator's role from the seat `after` (or from a seat just removed
    at that index): the next person round the table, None if nobody is left."""
    n = len(seats)
    for step in range(n):
        seat = seats[(after + step) % n]
        if seat.person:
            return seat.user_id
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
        """A deal's seed: derived from the session's secret, so that naming it once the deal is
        over gives away neither the secret nor any other deal (`games.seeds`)."""
        return seeds.deal_seed(self.seed, deal)


CACHE_SIZE = 2048
_GAMES: OrderedDict[tuple[str, str], Game] = OrderedDict()
_STATES: OrderedDict[tuple[str, str], Any] = OrderedDict()


def _keep(cache: OrderedDict[tuple[str, str], Any], key: tuple[str, str], value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    if len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
