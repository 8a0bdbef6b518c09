"""ДОМІНО, the Ukrainian draw game on the Western double-six set (seed 004).

Rules source: docs/rules-book.md §1.2 (the set) and §2.10 (the game), worked examples UA-01…UA-08 in
§5, rows 30–32 of the §3 table; decisions D-16 (the highest double opens with itself; playing is
compulsory when able; a playable drawn tile is played at once; a blocked deal pays the sum of all
hands, the winner's own included; a tie for the fewest pips in a block scores nothing; the match
ends at 100 points, or 50 in the short game) and D-18 (turns go by increasing seat index).

Unlike the Chinese connecting games there is a stock: a player who cannot play draws, so a turn
may be "draw" followed, on the same turn, by playing the tile just drawn. That tile is kept in
`pending` so the second half of the turn is an ordinary legal move (a button), not a side effect
hidden inside the draw. Only one player scores per deal, and the score feeds a match to a target.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast

from games import domino_ai
from games.domino_table import DominoTable
from games.engine import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    Match,
    Outcome,
    Rater,
    Rules,
    View,
    option,
    rng,
    shuffle,
)
from games.settlement import collect
from games.tiles import WESTERN, TileSet

_A = WESTERN.a
_B = WESTERN.b
_PIPS = WESTERN.pips
_ALL = tuple(range(WESTERN.size))
_DOUBLES_HIGH_FIRST = tuple(
    sorted((t for t in _ALL if WESTERN.double[t]), key=lambda t: -_PIPS[t])
)
_HAND_SIZE = {2: 7, 3: 5, 4: 5}
"""UA-01: two players get 7 tiles, three or four get 5; the rest is the stock."""

Placement = tuple[int, int, int, int]
"""A tile on the line: (tile id, left number, right number, seat that laid it), left to right."""

_DRAW = Action("draw")
_PASS = Action("pass")


@dataclass(frozen=True)
class DominoOptions:
    target: int = option(100, "the match ends when a player's score reaches this (short game 50)",
                         (100, 50))
    draw: str = option("until", "unable to play: draw until a tile fits, or draw one tile only",
                       ("until", "one"))
    chips: str = option("pips", "pips: losers pay the pips left in hand every deal; "
                        "stake: the match winner takes the stake from each player",
                        ("pips", "stake"))
    stake: int = option(1, "stake: chips each player pays the match winner", lo=1, hi=1000)


DO = TypeVar("DO", bound=DominoOptions)


@dataclass(frozen=True, slots=True)
class DominoState(Generic[DO]):
    """A deal of the draw game. A variant that must remember more subclasses it with
    defaulted fields: every move rebuilds the state with `dataclasses.replace`."""

    options: DO
    seed: str
    players: int
    match: Match
    version: int
    leader: int
    """The seat that opened (or must open) with the highest double."""
    turn: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    """Face down; drawn from the front, so a scripted stock lists tiles in the order drawn."""
    line: tuple[Placement, ...]
    ends: tuple[int, ...]
    """() before the lead, then (left number, right number)."""
    pending: int | None
    """A tile the player to move has just drawn and must play now (D-16), else None."""
    redeals: int
    done: str
    """"" while in play; "domino" (a player laid his last tile) or "blocked"."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DominoView(View[DO]):
    leader: int
    stock: int
    line: tuple[Placement, ...]
    ends: tuple[int, ...]
    pending: int | None
    redeals: int
    revealed: tuple[tuple[int, ...], ...]
    """Every hand once the deal is over; before that only the viewer's own slot is filled."""


def pip_total(tiles: Sequence[int]) -> int:
    return sum(_PIPS[t] for t in tiles)


def _placements(tile: int, ends: tuple[int, ...]) -> list[Action]:
    a, b = _A[tile], _B[tile]
    return [Action("play", (tile,), arm) for arm, end in enumerate(ends) if a == end or b == end]


def _opener(hands: Sequence[Sequence[int]]) -> tuple[int, int] | None:
    """(seat, double) of the highest double dealt, asking 6:6, then 5:5, … (UA-02, D-16)."""
    holder = {t: s for s, hand in enumerate(hands) for t in hand}
    for double in _DOUBLES_HIGH_FIRST:
        if double in holder:
            return holder[double], double
    return None


DS = TypeVar("DS", bound=DominoState[Any])


class DominoRules(Rules[DS, DO]):
    """Draw dominoes: match or draw, domino scores the others' pips, a block pays the lowest.

    Generic over the game's state and options, so a variant's hooks see its own options. A
    variant overrides narrow hooks instead of copying a method: `fits` and `unable` (who can
    play, and what a player who cannot does), `ended` (how a deal ends), and `deal_winner`
    and `deal_score` (the scores)."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    options_type: ClassVar[type[Any]] = DominoOptions
    state_type: ClassVar[type[Any]] = DominoState
    verbs: ClassVar[frozenset[str]] = frozenset({"lead", "play", "draw", "pass"})

    # ----- dealing ---------------------------------------------------------------------------

    def rater(self) -> Rater:
        return domino_ai.rater

    def table(self, state: DS) -> DominoTable:
        return DominoTable(self, state)

    def tileset(self, options: DO) -> TileSet:
        return WESTERN

    def finite_match(self, options: DO) -> bool:
        return True

    def match_target(self, options: DO) -> int:
        return options.target

    # ----- the strong level: the others' hands and the stock dealt anew, uniformly -----------

    def shown(self, view: View[DO]) -> set[int]:
        v = cast(DominoView[DO], view)
        return {*v.hand, *(p[0] for p in v.line)}

    def rebuilt(self, view: View[DO], hands: tuple[tuple[int, ...], ...],
                rest: tuple[int, ...], seed: str) -> DS:
        v = cast(DominoView[DO], view)
        if len(rest) != v.stock:
            raise ValueError("the view's counts do not add up to the unseen tiles")
        return cast(DS, self.state_type(
            options=v.options, seed=seed, players=v.players, match=v.match,
            version=v.version, leader=v.leader, turn=cast(int, v.seat), hands=hands, stock=rest,
            line=v.line, ends=v.ends, pending=v.pending, redeals=v.redeals, done=""))

    def new_deal(self, options: DO, players: int, seed: str,
                 match: Match | None = None) -> DS:
        self.check_players(players)
        match = match or Match.start(players)
        size = _HAND_SIZE[players]
        redeals = 0
        while True:
            deck = list(_ALL)
            shuffle(rng(seed, f"deal/{redeals}"), deck)
            hands = tuple(tuple(sorted(deck[i * size:(i + 1) * size])) for i in range(players))
            opening = _opener(hands)
            if opening is not None:
                break
            # No double in any hand: reshuffle and deal again (UA-02).
            redeals += 1
        leader, _ = opening
        return cast(DS, self.state_type(
            options=options, seed=seed, players=players, match=match, version=0, leader=leader,
            turn=leader, hands=hands, stock=tuple(deck[players * size:]), line=(), ends=(),
            pending=None, redeals=redeals, done="",
        ))

    def deal_from(self, options: DO, hands: Sequence[Sequence[int]],
                  stock: Sequence[int] = (), turn: int | None = None,
                  line: Sequence[Placement] = (), match: Match | None = None,
                  seed: str = "scripted", leader: int | None = None) -> DS:
        """A chosen position for tests and worked examples.

        With no `line` the holder of the highest double must open, as in a real deal, so `turn`
        may only confirm him. With a `line` (placements, left to right) play resumes at `turn`.
        Tiles named nowhere are simply out of this deal; the stock is drawn from its front.
        """
        players = len(hands)
        self.check_players(players)
        flat = [t for hand in hands for t in hand] + list(stock) + [p[0] for p in line]
        if len(set(flat)) != len(flat) or not all(0 <= t < WESTERN.size for t in flat):
            raise InvalidOptions("hands, stock and line must hold distinct double-six tiles")
        if not all(hands):
            raise InvalidOptions("every player needs at least one tile")
        ends: tuple[int, ...] = ()
        if line:
            for i, (tile, left, right, seat) in enumerate(line):
                if {left, right} != {_A[tile], _B[tile]} or not 0 <= seat < players:
                    raise InvalidOptions(f"placement {i} does not describe its tile")
                if i and line[i - 1][2] != left:
                    raise InvalidOptions(f"placement {i} does not match its neighbour")
            ends = (line[0][1], line[-1][2])
            turn = 0 if turn is None else turn
            if not 0 <= turn < players:
                raise InvalidOptions("no such seat")
        else:
            opening = _opener(hands)
            if opening is None:
                raise InvalidOptions("nobody holds a double: this deal would be redealt")
            if turn is not None and turn != opening[0]:
                raise InvalidOptions("the holder of the highest double must open")
            turn = opening[0]
        match = match or Match.start(players)
        state: DS = self.state_type(
            options=options, seed=seed, players=players, match=match, version=0,
            leader=turn if leader is None else leader, turn=turn,
            hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(stock),
            line=tuple((p[0], p[1], p[2], p[3]) for p in line),
            ends=ends, pending=None, redeals=0, done="",
        )
        return dataclasses.replace(state, done=self.ended(state))

    # ----- playing ---------------------------------------------------------------------------

    def to_move(self, state: DS) -> int | None:
        return None if state.done else state.turn

    def legal_actions(self, state: DS) -> tuple[Action, ...]:
        if state.done:
            return ()
        ends = state.ends
        if not ends:
            # The deal made the holder of the highest double the one to move; he leads with
            # his highest double (decided from his own hand alone).
            opening = _opener([state.hands[state.turn]])
            return (Action("lead", (opening[1],)),) if opening else ()
        if state.pending is not None:
            return tuple(_placements(state.pending, ends))
        acts: list[Action] = []
        for t in state.hands[state.turn]:
            if self.fits(state, t):
                acts.extend(_placements(t, ends))
        if acts:
            return tuple(acts)  # compulsory play when able (D-16)
        return (self.unable(state),)

    def fits(self, state: DS, tile: int) -> bool:
        """Whether `tile` may be laid now: it shows an open number (§2.10)."""
        return _A[tile] in state.ends or _B[tile] in state.ends

    def unable(self, state: DS) -> Action:
        """What a player who cannot lay a tile does: draw while there is a stock, else pass."""
        return _DRAW if state.stock else _PASS

    def ended(self, state: DS) -> str:
        """"domino" once a hand is empty; "blocked" once nobody can lay a tile and nobody can
        draw one; "" while the deal goes on."""
        if not all(state.hands):
            return "domino"
        if not state.ends or state.stock:
            return ""
        for hand in state.hands:
            for t in hand:
                if self.fits(state, t):
                    return ""
        return "blocked"

    def step(self, state: DS, action: Action
             ) -> tuple[DS, tuple[Event, ...]]:
        seat = state.turn
        hands, stock, line, ends = state.hands, state.stock, state.line, state.ends
        pending: int | None = None
        turn = (seat + 1) % state.players
        if action.verb in ("lead", "play"):
            (tile,) = action.tiles
            hand = tuple(t for t in hands[seat] if t != tile)
            hands = (*hands[:seat], hand, *hands[seat + 1:])
            a, b = _A[tile], _B[tile]
            if action.verb == "lead":
                line, ends = ((tile, a, b, seat),), (a, b)
            elif action.arg == 0:
                other = b if a == ends[0] else a
                line, ends = ((tile, other, ends[0], seat), *line), (other, ends[1])
            else:
                other = b if a == ends[1] else a
                line, ends = (*line, (tile, ends[1], other, seat)), (ends[0], other)
            event = Event(action.verb, seat, (tile,), action.arg)
        elif action.verb == "draw":
            # Draw from the front until a tile fits or the stock runs out ("until"), or draw
            # exactly one ("one"); every drawn tile is kept (seed 004, docs/rules-book.md §2.10).
            count = len(stock) if state.options.draw == "until" else 1
            drawn = 0
            while drawn < count:
                tile = stock[drawn]
                drawn += 1
                if _A[tile] in ends or _B[tile] in ends:
                    pending = tile
                    break
            hands = (*hands[:seat], tuple(sorted(hands[seat] + stock[:drawn])), *hands[seat + 1:])
            stock = stock[drawn:]
            if pending is not None:
                turn = seat  # the same player must now lay the tile he drew (D-16)
            event = Event("draw", seat, (), drawn)
        else:
            event = Event("pass", seat)
        if type(state) is DominoState:
            # The game's own state, built directly: `replace` reads every field by name
            # first, a third of a playout's move.
            new = cast(DS, DominoState(
                state.options, state.seed, state.players, state.match, state.version + 1,
                state.leader, turn, hands, stock, line, ends, pending, state.redeals, ""))
        else:
            new = dataclasses.replace(
                state, version=state.version + 1, turn=turn, hands=hands, stock=stock,
                line=line, ends=ends, pending=pending)
        done = self.ended(new)
        if done:
            new = dataclasses.replace(new, done=done)
        else:
            return new, (event,)
        # The end event names the deal's winner: that alone, not the whole outcome (its
        # payments are worked out where it is settled).
        winner = self.deal_winner(new, tuple(pip_total(h) for h in new.hands))
        return new, (event, Event("end", None, (), winner))

    # ----- scoring ---------------------------------------------------------------------------

    def outcome(self, state: DS) -> Outcome | None:
        if not state.done:
            return None
        n = state.players
        pips = tuple(pip_total(h) for h in state.hands)
        winner = self.deal_winner(state, pips)
        if winner is None:
            return Outcome(state.done, (0,) * n, (), (0,) * n)
        score = self.deal_score(state, winner, pips)
        points = tuple(score if s == winner else 0 for s in range(n))
        opts = state.options
        if opts.chips == "pips":
            payments = collect(n, winner, {s: pips[s] for s in range(n) if s != winner})
        elif state.match.scores[winner] + score >= opts.target:
            payments = collect(n, winner, {s: opts.stake for s in range(n) if s != winner})
        else:
            payments = ()
        return Outcome.paid(state.done, points, (winner,), payments)

    def deal_winner(self, state: DS, pips: tuple[int, ...]) -> int | None:
        """Who scores the deal: the player out of tiles, or at a block the fewest pips; a tie
        for the fewest pips in a block scores nothing, nobody pays (D-16)."""
        if state.done == "domino":
            return next(s for s, h in enumerate(state.hands) if not h)
        low = min(pips)
        lowest = [s for s in range(len(pips)) if pips[s] == low]
        return lowest[0] if len(lowest) == 1 else None

    def deal_score(self, state: DS, winner: int, pips: tuple[int, ...]) -> int:
        """What the winner scores. Domino: the others' pips (his own are 0). Block: literally
        every hand, his own included (D-16, UA-04), so points and the pips paid in chips
        differ by his own pips."""
        return sum(pips)

    def worst_loss(self, options: DO, players: int) -> int | None:
        """The stake, when chips are a fixed stake the match winner takes from each player (the
        `stake` option beside docs/rules-book.md §2.10's match to 100 or 50); when losers pay the
        pips left in their hands every deal it cannot say."""
        return options.stake if options.chips == "stake" else None

    def next_match(self, state: DS, result: Outcome | None = None) -> Match:
        if result is None:
            result = self.outcome(state)
        if result is None:
            raise IllegalAction("the deal is not over")
        m = state.match
        scores, _ = m.totals(result)
        reached = [s for s in range(state.players) if scores[s] >= state.options.target]
        winner = max(reached, key=lambda s: scores[s]) if reached else None
        # The opener of every deal is whoever holds the highest double (D-16), so `leader` is
        # carried unchanged: nothing in this game reads it.
        return m.after(result, state.redeals, m.leader, winner)

    # ----- what may be seen ------------------------------------------------------------------

    def view(self, state: DS, seat: int | None,
             legal: tuple[Action, ...] | None = None) -> DominoView[DO]:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat}")
        over = bool(state.done)
        mover = self.to_move(state)
        own = seat is not None and seat == mover
        if over:
            revealed = state.hands
        else:
            revealed = tuple(h if s == seat else () for s, h in enumerate(state.hands))
        return DominoView(
            game=self.id, options=state.options, tiles=self.tileset(state.options),
            seat=seat, players=state.players,
            version=state.version,
            leader=state.leader, to_move=mover,
            hand=state.hands[seat] if seat is not None else (),
            hand_counts=tuple(map(len, state.hands)), stock=len(state.stock),
            line=state.line, ends=state.ends, pending=state.pending if own else None,
            redeals=state.redeals, match=state.match,
            legal=(self.legal_actions(state) if legal is None else legal) if own else (),
            outcome=self.outcome(state) if over else None, revealed=revealed,
        )



class Domino(DominoRules[DominoState[DominoOptions], DominoOptions]):
    id: ClassVar[str] = "domino"
    order: ClassVar[int] = 9
    aliases: ClassVar[tuple[str, ...]] = ("доміно", "draw")
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "100": {},
        "50": {"target": 50},
        "one-draw": {"draw": "one"},
        "stake": {"chips": "stake"},
    }
