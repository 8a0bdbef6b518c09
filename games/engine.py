"""The rules-core contract every game follows, and the single `play` entry (docs/architecture.md §1,
§3).

A game is a `Rules` object: options with documented defaults and named presets, a seeded deal, a
pure `apply`, per-seat and public views, an outcome whose chips are payments between seats
(`games/outcome.py`), and the match that carries from one deal to the next. Platforms, the
simulator and the tests all go through the same few calls, so a rule is written once and every
surface obeys it.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar

from games import codec
from games.outcome import Outcome as Outcome
from games.outcome import Payment as Payment
from games.tiles import TileSet

MAX_CODE_BYTES = 40
LEVELS = ("easy", "normal", "strong")
"""Every level a computer player plays at, weakest first (`games.players`)."""


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
    shares. Each game's view extends it with its own table (a line, a trick, discards); nothing in a
    view is hidden from whom it is for, and it is the only way out of a state (docs/architecture.md
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


V = TypeVar("V")


class LazyViews(Generic[V]):
    """Views of a fast table that work out their fields when first read (`Table.view`).

    The seat to move mostly reads its legal moves and little else (a random player, or any
    player with one move to make): the view is made with `legal`, `seat` and the fields that
    stay as they are for the whole deal (`fixed`: the game, its options, the players …) set,
    and the others come from `source(seat, version)` the first time one of them is read. The
    view is an instance of a subclass of the game's view class, equal to the public engine's
    view (it compares field by field with any view of that class) and as immutable. Its fields
    come from the table as it stood: read after the table's next move, it refuses
    (`GameError`) rather than show a later position.

    The subclass keeps its fields in the instance's dictionary, not in the view class's slots:
    each field of the subclass is a descriptor that only answers while the dictionary lacks
    its name (the dictionary comes first for such a descriptor), so a filled field is read as
    any attribute, and a view is filled by copying one dictionary and updating it with
    another, where setting every slot in turn cost more than working the fields out.

    Fields named `late` come from a second source (`make`'s `later`) when one of them is first
    read: what a computer player never reads (the finished tricks, say) then costs nothing.
    """

    def __init__(self, cls: type[V], late: tuple[str, ...] = ()) -> None:
        names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
        count = len(names) + 1  # and the source, until it is used
        waiting = count - len(late) + 1  # the same while the late fields wait for theirs

        class Unfilled:
            """A field not read yet: reading it fills the others too."""

            __slots__ = ("name",)

            def __init__(self, name: str) -> None:
                self.name = name

            def __get__(self, view: Any, owner: Any = None) -> Any:
                if view is None:
                    return self
                filled = view.__dict__
                source = filled.get(_SOURCE)
                if source is None:
                    raise AttributeError(self.name)
                fill, seat, version = source
                filled.update(fill(seat, version))
                if len(filled) != (waiting if _LATE in filled else count):
                    raise TypeError(f"{cls.__name__} has {len(names)} fields, not "
                                    f"{len(filled) - 1}")
                del filled[_SOURCE]
                return filled[self.name]

        class Late(Unfilled):
            """A late field not read yet: reading it fills the other late ones too."""

            __slots__ = ()

            def __get__(self, view: Any, owner: Any = None) -> Any:
                if view is None:
                    return self
                filled = view.__dict__
                source = filled.get(_LATE)
                if source is None:
                    return super().__get__(view, owner)
                fill, seat, version = source
                filled.update(fill(seat, version))
                del filled[_LATE]
                return filled[self.name]

        fields = attrgetter(*names)

        def __eq__(view: Any, other: object) -> bool:
            if not isinstance(other, cls):
                return NotImplemented
            equal: bool = fields(view) == fields(other)
            return equal

        namespace: dict[str, Any] = {
            name: Late(name) if name in late else Unfilled(name) for name in names}
        namespace.update({
            "__eq__": __eq__, "__hash__": cls.__hash__, "__module__": cls.__module__,
            "__doc__": f"A {cls.__name__} whose fields are worked out when first read."})
        self.cls: type[V] = type(f"Lazy{cls.__name__}", (cls,), namespace)

    def make(self, seat: int, legal: tuple[Action, ...],
             source: Callable[[int, int], Mapping[str, Any]], version: int,
             fixed: Mapping[str, Any],
             later: Callable[[int, int], Mapping[str, Any]] | None = None) -> V:
        """A view for `seat` (to move, with these legal moves), with the `fixed` fields; the
        others come from `source(seat, version)` (by name) when first wanted, the late ones
        from `later(seat, version)`."""
        view: V = object.__new__(self.cls)
        filled = view.__dict__
        filled.update(fixed)
        filled["seat"] = seat
        filled["legal"] = legal
        filled[_SOURCE] = (source, seat, version)
        if later is not None:
            filled[_LATE] = (later, seat, version)
        return view


_SOURCE = "_source"
"""Where a lazy view keeps what fills it, until it is filled (`LazyViews`)."""
_LATE = "_late"
"""Where it keeps what fills its late fields, until they are filled."""


def stale(version: int, now: int) -> None:
    """Refuse to fill a lazy view from a table that has moved on since it was made."""
    if version != now:
        raise GameError("a view of a fast table was read after the table's next move")


def rng(seed: str, label: str) -> random.Random:
    """A generator derived from the state's seed and a label (never `hash()`, docs/architecture.md
    §1.3)."""
    return random.Random(f"{seed}/{label}")


@cache
def hand_order(players: int, leader: int) -> tuple[int, ...]:
    """Seats by hand number: the leader is hand 1, then increasing seat index (D-18). Worked
    out once per table size and leader: a simulation settles every deal by it."""
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


def hand_out(counts: tuple[int, ...], seat: int, own: tuple[int, ...], tiles: list[int],
             key: Callable[[int], Any] | None = None,
             held: Sequence[Sequence[int]] = ()) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Every hand of a deal dealt anew from `seat`'s view: the seat's `own`, and the others'
    from the front of `tiles` in seat order, each sorted (by `key`) as the rules keep a hand;
    with how many of `tiles` they took (the rest stay for the stock). `held`, when given, names
    per seat the tiles everyone knows it holds (a face-up discard it took): they are part of
    its hand and of its count, and `tiles` fills the rest."""
    hands: list[tuple[int, ...]] = []
    at = 0
    for s, count in enumerate(counts):
        if s == seat:
            hands.append(own)
            continue
        known = tuple(held[s]) if held else ()
        need = count - len(known)
        if need < 0:
            raise ValueError(f"seat {s} holds {count} tiles, not the {len(known)} known")
        hands.append(tuple(sorted((*known, *tiles[at:at + need]), key=key)))
        at += need
    return tuple(hands), at


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """`rng.shuffle(items)`, move for move: the same draws from the generator, so the same
    order and the generator left in the same state (`tests/games/test_engine.py` holds them
    equal), without the method call per draw that makes up most of the library's cost. Every
    deal starts with one."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def sample_seed(rng: random.Random) -> str:
    """A seed for the rules' own later shuffles in a deal dealt anew (a reshuffled stock)."""
    return f"sample/{rng.getrandbits(48)}"


def option(default: Any, help: str, choices: tuple[Any, ...] = (), lo: int | None = None,
           hi: int | None = None) -> Any:
    """A documented option field; `choices` or the range `lo..hi` bound what a user may set."""
    return field(default=default, metadata={"help": help, "choices": choices, "lo": lo, "hi": hi})


S = TypeVar("S")
O = TypeVar("O")  # noqa: E741 - the options type, as in Rules[S, O]
Rater = Callable[[Any], Callable[["Action"], float]]
"""A computer player's judgement: given its own view, a score for each legal move."""
Scorer = Callable[[Any], list[float]]
"""The same judgement of every legal move at once: their scores, in the order of the legal
moves (`Rules.scorer`)."""


@dataclass(frozen=True)
class Budget:
    """How hard one game's strong player thinks (`games.search`)."""

    candidates: int = 4
    """The heuristic's best moves that are played out (the rest are never chosen)."""
    work: int = 3000
    """Moves the playouts may make, over all samples and candidates, per choice."""
    least: int = 4
    """Samples drawn even when the playouts are long."""
    most: int = 64
    """Samples never exceeded, however short the playouts."""
    chips: float = 0.0
    """Weight of the chips a deal moves against the win itself (per chip, per player)."""
    sure: float = 1.0
    """How many standard errors a move must gain over the heuristic's choice to be played
    instead: playouts are noisy, and a move chosen by noise is worse than the heuristic's."""
    ties: bool = False
    """Whether moves the heuristic rates as high as its first choice are its choice too: the
    one of them that did best in the playouts is then the move the others must beat by `sure`
    standard errors (otherwise the first in legal order is)."""
    look: int = 0
    """Samples between looks at the playouts so far (0: no looks, every candidate meets every
    sample). At a look, a move that could no longer plausibly be played is played out no more
    (`plausible`), and the search ends once one move is left: samples are spent only where
    they may still change the choice."""
    plausible: float = 2.0
    """How many standard errors of the paired differences a look allows a move: a lower-rated
    move is dropped once its mean gain over the heuristic's choice, even this many standard
    errors higher, falls short of the `sure` standard errors it would need by the last sample
    the budget leaves; a move rated as high as the first (`ties`) once, this many higher, it
    still did worse than the best of them."""
    deal: int = 0
    """Moves a sampled deal counts for in `work`, where drawing one costs as much as playing
    many (Kap Ten's deals are drawn in proportion to how likely they make what was seen)."""



class Rules(ABC, Generic[S, O]):
    """One game. Subclasses name their options type, presets and state type."""

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 4
    options_type: ClassVar[type[Any]]
    state_type: ClassVar[type[Any]]
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    verbs: ClassVar[frozenset[str]]
    order: ClassVar[int] = 100
    """Where the game stands in lists of games (`games.GAMES`): a family's games together."""

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
    def view(self, state: S, seat: int | None, legal: tuple[Action, ...] | None = None
             ) -> View[O]:
        """What `seat` may see (None: what everybody may see). `legal`, when the caller has
        them already, are the seat's legal moves (the seat is to move), not worked out again."""

    def spectator_view(self, state: S) -> View[O]:
        """What someone watching the deal without a seat may see: the table as the group sees
        it, with no seat's hand and no legal moves. Every surface that shows a deal to a
        spectator asks for this view, so a game shows spectators less (or, once a deal has
        ended, more) by overriding it alone; by default it is the public view."""
        return self.view(state, None)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abstractmethod
    def next_match(self, state: S, result: Outcome | None = None) -> Match:
        """The match after this finished deal: cumulative scores, next leader, over or not.
        `result`, when the caller has it already, is the deal's outcome, not worked out
        again."""

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

    def scorer(self) -> Scorer | None:
        """The rater's scores of all the legal moves of a view at once, for a game that works
        them out faster together than move by move (None: the heuristic player asks the rater
        move by move). Both must score every move alike."""
        return None

    def teams(self, players: int) -> tuple[int, ...] | None:
        """The team each seat plays for, by seat (`(0, 1, 0, 1)`: partners sit opposite), or
        None when every seat plays for itself. A partnership is a seat's property, read the
        same way by everything that shows or settles a game (docs/architecture.md §11): the payments
        say who pays whom, the outcome names every seat of the winning team among its
        winners and scores every seat with its team's points, and the strong player counts
        a deal its partner won as won."""
        return None

    # ----- the strong level (`games.search`) -----------------------------------------------

    levels: ClassVar[tuple[str, ...]] = LEVELS
    """The levels a table may choose for this game's computer players, weakest first; always
    `normal` (the level a person who is away is played at). A game whose strong player is not
    measurably stronger than its normal one (`benchmarks/levels.py`) leaves `strong` out, and
    a table that asks for it gets the strongest level offered (`games.players.offered`)."""

    budget: ClassVar[Budget] = Budget()
    """How hard the strong player thinks; a game whose playouts are long, or mostly luck,
    sets its own."""

    def match_target(self, options: O) -> int | None:
        """The score a match is played to when every deal's points count towards it (None:
        each deal is played for itself). The strong player then values a deal by the points
        it brings towards the target against the best of the others, and reaching the target
        as the win; otherwise by the deal won and the chips it moves."""
        return None

    def redeal(self, view: View[O], rng: random.Random) -> S:
        """A deal `view`'s seat cannot tell from the real one: the view's table with every
        tile it does not show dealt anew, uniformly, to the other hands by their counts and
        the rest to where the view counts unseen tiles (`rebuilt`). A game whose public
        record tells more about the hidden tiles (which numbers a face-down discard lacked)
        overrides it."""
        seat = view.seat
        if seat is None:
            raise ValueError("only a seat's view is dealt anew")
        shown = self.shown(view)
        pool = [t for t in range(view.tiles.size) if t not in shown]
        shuffle(rng, pool)
        hands, at = hand_out(view.hand_counts, seat, view.hand, pool)
        return self.rebuilt(view, hands, tuple(pool[at:]), sample_seed(rng))

    def shown(self, view: View[O]) -> set[int]:
        """Every tile `view` shows: the seat's hand and whatever lies face up (`redeal`)."""
        raise NotImplementedError(f"{self.id}: say which tiles a view shows to deal the "
                                  "others anew")

    def rebuilt(self, view: View[O], hands: tuple[tuple[int, ...], ...], rest: tuple[int, ...],
                seed: str) -> S:
        """The state `redeal` makes: `view`'s table with these hands, `rest` where the view
        counts unseen tiles that are in no hand (the stock, face-down plays) and `seed` for
        the rules' later shuffles; ValueError when the view's counts do not add up."""
        raise NotImplementedError(f"{self.id}: say how a state is rebuilt from a view")

    def deals(self, view: View[O], rater: Rater, rng: random.Random) -> Callable[[], S]:
        """Deals consistent with `view`, one per call, for the strong player to play out: by
        default each one `redeal`. A game whose moves tell about the hands (a heuristic
        player's discards) draws them in proportion to how likely the moves seen were in
        them, read with `rater`."""
        return lambda: self.redeal(view, rng)

    def finite_match(self, options: O) -> bool:
        """Whether a match ends by itself (a target score or a number of deals); by default,
        when the game has a `deals` option and it is set."""
        deals: int = getattr(options, "deals", 0)
        return deals > 0

    def worst_loss(self, options: O, players: int) -> int | None:
        """The most chips one seat can lose in one deal, before the session's stake multiplier,
        or None when the game cannot say so simply: a table can then ask a person to bring
        enough chips to cover any deal. A game overrides it only where its settlement bounds
        every loss exactly (a fixed ante or stake, one chip a loser)."""
        return None

    def dealt(self, state: S) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """Each seat's hand and the undealt tiles in the order they would be drawn, read from a
        freshly dealt state: what anyone holding the deal's seed can check against the table
        (`games/seeds.py`). A game that keeps its hands or its undealt tiles under other names
        overrides it."""
        if getattr(state, "version", 0):
            raise ValueError("only a fresh deal shows the tiles as they were dealt")
        hands: tuple[tuple[int, ...], ...] = tuple(
            tuple(h) for h in getattr(state, "hands"))  # noqa: B009 - every state has hands
        stock: tuple[int, ...] = tuple(getattr(state, "stock", ()))
        return hands, stock

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

    # ----- the fast path ---------------------------------------------------------------------

    def table(self, state: S) -> Table[S]:
        """`state` on the fast path (simulation, search): see `Table`. A game with a table of
        its own overrides this; any other game plays its public `step` without the checks."""
        return StateTable(self, state)


class Table(ABC, Generic[S]):
    """A deal in play on the fast path, for simulation and search: the same game as the public
    engine (the same deal, legal moves in the same order, the same moves, states and outcome),
    made without what a move from outside needs.

    A table is mutable inside and trusts its caller: a move passed to `play` is one of `legal()`
    (a computer player chooses from its view's legal moves), so it is not checked again; the
    legal moves are worked out once per position; a seat's view is built only when asked for,
    and what nobody asks for (the outcome while the deal runs) is never worked out. Views are
    public values as the public engine builds them; `state()` gives the public state whenever
    it is wanted, and `copy()` a table to play on independently (search).
    """

    __slots__ = ()

    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, or None once the deal has ended."""

    @abstractmethod
    def legal(self) -> tuple[Action, ...]:
        """The legal moves of the seat to move, in the public engine's order."""

    @abstractmethod
    def play(self, action: Action) -> None:
        """Make a move taken from `legal()` (not checked again)."""

    @abstractmethod
    def view(self, seat: int | None) -> View[Any]:
        """What `seat` may see now: equal to the public engine's view of `state()`. A game's
        own table gives the seat to move a view that works out its fields when first read
        (`LazyViews`): read it before the table's next move."""

    def rater_view(self, seat: int) -> Any:
        """What the game's heuristic (`Rules.rater`) reads of the view of `seat`, the seat to
        move: the view itself, unless the game's table builds something cheaper that the
        heuristic rates alike (the strong player's playouts ask at every move)."""
        return self.view(seat)

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def state(self) -> S:
        """The public state this table has reached."""

    @abstractmethod
    def copy(self) -> Table[S]:
        """A table in the same position that moves on independently."""


class StateTable(Table[S]):
    """The fast path of a game without a table of its own: its public states and `step`, with
    the legal moves worked out once per position and no second check."""

    __slots__ = ("_legal", "_state", "rules")

    def __init__(self, rules: Rules[S, Any], state: S) -> None:
        self.rules = rules
        self._state = state
        self._legal: tuple[Action, ...] | None = None

    def to_move(self) -> int | None:
        return self.rules.to_move(self._state)

    def legal(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self.rules.legal_actions(self._state)
        return legal

    def play(self, action: Action) -> None:
        self._state, _ = self.rules.step(self._state, action)
        self._legal = None

    def view(self, seat: int | None) -> View[Any]:
        if seat is not None and seat == self.rules.to_move(self._state):
            return self.rules.view(self._state, seat, self.legal())
        return self.rules.view(self._state, seat)

    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self._state)

    def state(self) -> S:
        return self._state

    def copy(self) -> StateTable[S]:
        twin = StateTable(self.rules, self._state)
        twin._legal = self._legal
        return twin


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
