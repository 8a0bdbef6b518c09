"""The rules-core contract every game follows, and the single `play` entry (DESIGN.md §1, §3).

A game is a `Rules` object: options with documented defaults and named presets, a seeded deal, a
pure `apply`, per-seat and public views, an outcome with zero-sum chip deltas, and the match that
carries from one deal to the next. Platforms, the simulator and the tests all go through the same
few calls, so a rule is written once and every surface obeys it.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from games import codec
from games.tiles import TileSet

MAX_CODE_BYTES = 40


class GameError(Exception):
    """Anything a move or a setting was refused for; the state is untouched."""


class InvalidOptions(GameError):
    """An unknown option, a value out of range, or an unsupported number of players."""


class InvalidCode(GameError):
    """An action code that does not parse (forged or garbled button data)."""


class GameOver(GameError):
    """The deal has already ended."""


class NotYourTurn(GameError):
    """The seat that sent the move is not the seat to move."""


class IllegalAction(GameError):
    """A well-formed move the rules do not allow now."""


@dataclass(frozen=True, slots=True)
class Action:
    """A move: a verb, the tiles it uses and one small number (an arm, an open end).

    The compact `code` (`"play.63a@1"`) is what a button carries; `Rules.decode` reverses it.
    """

    verb: str
    tiles: tuple[int, ...] = ()
    arg: int | None = None

    def code(self, tiles: TileSet) -> str:
        text = ".".join([self.verb, *(tiles.token(t) for t in self.tiles)])
        return text if self.arg is None else f"{text}@{self.arg}"


def parse_code(code: str, tiles: TileSet, verbs: frozenset[str]) -> Action:
    if not isinstance(code, str) or len(code.encode()) > MAX_CODE_BYTES:
        raise InvalidCode("action code too long")
    body, at, arg_text = code.partition("@")
    arg: int | None = None
    if at:
        if not arg_text.isdigit() or len(arg_text) > 2:
            raise InvalidCode(f"bad argument in {code!r}")
        arg = int(arg_text)
    verb, *tokens = body.split(".")
    if verb not in verbs:
        raise InvalidCode(f"unknown move {verb!r}")
    ids = []
    for token in tokens:
        tile = tiles.parse(token)
        if tile is None:
            raise InvalidCode(f"no tile {token!r}")
        ids.append(tile)
    return Action(verb, tuple(ids), arg)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, safe to show to everyone: hidden tiles are never named here."""

    kind: str
    seat: int | None = None
    tiles: tuple[int, ...] = ()
    value: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended. `points` are the game's own scores; `deltas` are chips and sum to 0."""

    reason: str
    points: tuple[int, ...]
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.deltas) != len(self.points):
            raise ValueError("points and deltas must have one entry per seat")
        if sum(self.deltas) != 0:
            raise ValueError(f"chip deltas must sum to zero: {self.deltas}")


@dataclass(frozen=True, slots=True)
class Match:
    """What carries from deal to deal: who leads, cumulative points and chips, streaks."""

    players: int
    deal: int = 0
    leader: int = 0
    scores: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()
    redeals: int = 0
    streak: int = 0
    winner: int | None = None
    over: bool = False

    def __post_init__(self) -> None:
        # A match built with just the player count starts from zero, never from "no scores".
        for name in ("scores", "chips"):
            value = getattr(self, name)
            if not value:
                object.__setattr__(self, name, (0,) * self.players)
            elif len(value) != self.players:
                raise ValueError(f"{name} must have one entry per player")

    @classmethod
    def start(cls, players: int, leader: int = 0) -> Match:
        return cls(players=players, leader=leader)

    @classmethod
    def led_by(cls, match: Match | None, players: int, leader: int) -> Match:
        """`match` (or a fresh one) with `leader` leading: a scripted deal names its leader."""
        if match is None:
            return cls.start(players, leader)
        return match if match.leader == leader else dataclasses.replace(match, leader=leader)

    def totals(self, result: Outcome) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Cumulative points and chips once `result` is added."""
        scores = tuple(s + p for s, p in zip(self.scores, result.points, strict=True))
        chips = tuple(c + d for c, d in zip(self.chips, result.deltas, strict=True))
        return scores, chips

    def after(self, result: Outcome, redeals: int, leader: int, winner: int | None) -> Match:
        """The match once a deal has ended: every game's next_match decides only who leads
        and who (if anyone) has won the match."""
        scores, chips = self.totals(result)
        return Match(players=self.players, deal=self.deal + 1, leader=leader, scores=scores,
                     chips=chips, redeals=self.redeals + redeals, streak=self.streak,
                     winner=winner, over=winner is not None)


OV = TypeVar("OV")
"""A view's options type."""


@dataclass(frozen=True, slots=True, kw_only=True)
class View(Generic[OV]):
    """What one seat (or, with `seat` None, everybody) may see of a deal: the fields every game
    shares. Each game's view extends it with its own table (a line, a trick, discards); nothing
    in a view is hidden from whom it is for, and it is the only way out of a state (DESIGN.md
    §1 invariant 4)."""

    game: str
    options: OV
    tiles: TileSet
    """The game's tile set, to name and draw the tile ids the view holds."""
    seat: int | None
    players: int
    version: int
    to_move: int | None
    hand: tuple[int, ...]
    """The seat's own tiles; empty in the public view."""
    hand_counts: tuple[int, ...]
    match: Match
    legal: tuple[Action, ...]
    """The seat's legal moves when it is to move, else empty."""
    outcome: Outcome | None


def rng(seed: str, label: str) -> random.Random:
    """A generator derived from the state's seed and a label (never `hash()`, DESIGN.md §1.3)."""
    return random.Random(f"{seed}/{label}")


def hand_order(players: int, leader: int) -> tuple[int, ...]:
    """Seats by hand number: the leader is hand 1, then increasing seat index (D-18)."""
    return tuple((leader + i) % players for i in range(players))


def deal_in_turn(deck: Sequence[int], players: int, leader: int, size: int, extra: int = 0
                 ) -> tuple[list[list[int]], tuple[int, ...]]:
    """Hands dealt from the front of `deck` in hand order (the leader gets `extra` more, as the
    first player of the collecting games does), and the rest as the stock."""
    hands: list[list[int]] = [[] for _ in range(players)]
    at = 0
    for seat in hand_order(players, leader):
        take = size + (extra if seat == leader else 0)
        hands[seat] = list(deck[at:at + take])
        at += take
    return hands, tuple(deck[at:])


def option(default: Any, help: str, choices: tuple[Any, ...] = (), lo: int | None = None,
           hi: int | None = None) -> Any:
    """A documented option field; `choices` or the range `lo..hi` bound what a user may set."""
    return field(default=default, metadata={"help": help, "choices": choices, "lo": lo, "hi": hi})


S = TypeVar("S")
O = TypeVar("O")  # noqa: E741 - the options type, as in Rules[S, O]
Rater = Callable[[Any], Callable[["Action"], float]]
"""A computer player's judgement: given its own view, a score for each legal move."""



class Rules(ABC, Generic[S, O]):
    """One game. Subclasses name their options type, presets and state type."""

    id: ClassVar[str]
    title: ClassVar[Mapping[str, str]]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 4
    options_type: ClassVar[type[Any]]
    state_type: ClassVar[type[Any]]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    verbs: ClassVar[frozenset[str]]

    # ----- options -------------------------------------------------------------------------

    def options(self, preset: str | None = None, **values: Any) -> O:
        """Options from a preset plus overrides, validated; the defaults when given nothing."""
        merged: dict[str, Any] = {}
        if preset is not None:
            if preset not in self.presets:
                known = ", ".join(self.presets) or "none"
                raise InvalidOptions(f"{self.id}: unknown preset {preset!r} (known: {known})")
            merged.update(self.presets[preset])
        merged.update(values)
        fields = {f.name: f for f in dataclasses.fields(self.options_type)}
        for name, value in merged.items():
            if name not in fields:
                raise InvalidOptions(f"{self.id}: unknown option {name!r} "
                                     f"(known: {', '.join(fields)})")
            meta = fields[name].metadata
            if meta["choices"] and value not in meta["choices"]:
                allowed = ", ".join(map(str, meta["choices"]))
                raise InvalidOptions(f"{self.id}: {name} must be one of {allowed}")
            if type(value) is not type(fields[name].default):
                raise InvalidOptions(f"{self.id}: {name} must be a "
                                     f"{type(fields[name].default).__name__}")
            if isinstance(value, bool) or not isinstance(value, int):
                continue
            if (meta["lo"] is not None and value < meta["lo"]) or (
                meta["hi"] is not None and value > meta["hi"]
            ):
                raise InvalidOptions(f"{self.id}: {name} must be in {meta['lo']}..{meta['hi']}")
        opts: O = self.options_type(**merged)
        return opts

    def parse_options(self, preset: str | None, pairs: Mapping[str, str]) -> O:
        """Options from text (`k=v` on a command line or in a chat command)."""
        fields = {f.name: f for f in dataclasses.fields(self.options_type)}
        values: dict[str, Any] = {}
        for name, text in pairs.items():
            if name not in fields:
                raise InvalidOptions(f"{self.id}: unknown option {name!r} "
                                     f"(known: {', '.join(fields)})")
            default: object = fields[name].default
            if isinstance(default, bool):
                if text.lower() not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
                    raise InvalidOptions(f"{self.id}: {name} is on or off")
                values[name] = text.lower() in ("on", "true", "yes", "1")
            elif isinstance(default, int):
                try:
                    values[name] = int(text)
                except ValueError:
                    raise InvalidOptions(f"{self.id}: {name} must be a whole number") from None
            else:
                values[name] = text
        return self.options(preset, **values)

    def describe_options(self) -> list[tuple[str, Any, str, tuple[Any, ...]]]:
        return [
            (f.name, f.default, f.metadata["help"], f.metadata["choices"])
            for f in dataclasses.fields(self.options_type)
        ]

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            span = (str(self.min_players) if self.min_players == self.max_players
                    else f"{self.min_players}–{self.max_players}")
            raise InvalidOptions(f"{self.id} is played by {span} players, not {players}")

    # ----- the game ------------------------------------------------------------------------

    @abstractmethod
    def tileset(self, options: O) -> TileSet: ...

    @abstractmethod
    def new_deal(self, options: O, players: int, seed: str, match: Match | None = None) -> S:
        """A fresh deal, a pure function of its arguments (redeals included)."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat to move, or None once the deal has ended."""

    @abstractmethod
    def legal_actions(self, state: S) -> tuple[Action, ...]: ...

    def apply(self, state: S, action: Action) -> tuple[S, tuple[Event, ...]]:
        """The next state and what happened. A finished deal, or a move the rules do not allow
        now, is refused here for every game (IllegalAction) and changes nothing."""
        if self.to_move(state) is None:
            raise IllegalAction("the deal is over")
        self.check_legal(state, action)
        return self.step(state, action)

    @abstractmethod
    def step(self, state: S, action: Action) -> tuple[S, tuple[Event, ...]]:
        """The game's own move, already known to be legal."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> View[O]:
        """What `seat` may see (None: what everybody may see)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def next_match(self, state: S) -> Match:
        """The match after this finished deal: cumulative scores, next leader, over or not."""

    # ----- shared helpers ------------------------------------------------------------------

    def start_match(self, options: O, players: int, seed: str, leader: int | None = None
                    ) -> Match:
        """A new match; the first leader is drawn by lot from the seed unless given (§2.1)."""
        self.check_players(players)
        if leader is None:
            leader = rng(seed, "lot").randrange(players)
        return Match.start(players, leader)

    def rater(self) -> Rater | None:
        """The game's heuristic computer player's judgement (None: only random players)."""
        return None

    def finite_match(self, options: O) -> bool:
        """Whether a match ends by itself (a target score or a number of deals); by default,
        when the game has a `deals` option and it is set."""
        deals: int = getattr(options, "deals", 0)
        return deals > 0

    def decode(self, state: S, code: str) -> Action:
        return parse_code(code, self.tileset(self.state_options(state)), self.verbs)

    def encode(self, state: S, action: Action) -> str:
        return action.code(self.tileset(self.state_options(state)))

    def state_options(self, state: S) -> O:
        opts: O = getattr(state, "options")  # noqa: B009 - every state has options
        return opts

    def dumps(self, state: S) -> str:
        return codec.dumps(state)

    def loads(self, text: str) -> S:
        state: S = codec.loads(self.state_type, text, {"options": self.options_type})
        return state

    def check_legal(self, state: S, action: Action) -> None:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action.verb} is not a legal move now")


def play(rules: Rules[S, Any], state: S, seat: int, action: Action | str
         ) -> tuple[S, tuple[Event, ...]]:
    """The one door for a move from outside: finished, wrong seat, garbled and illegal are told
    apart. (Whether a button is out of date is the session layer's to say: its saves carry the
    version a button names.)"""
    if rules.outcome(state) is not None:
        raise GameOver("the deal is over")
    if rules.to_move(state) != seat:
        raise NotYourTurn("it is not this seat's turn")
    if isinstance(action, str):
        action = rules.decode(state, action)
    return rules.apply(state, action)
