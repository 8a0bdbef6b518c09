"""The connecting games' fast path (`engine.Table`): a deal of Dragon, Ce Deng, Tails or Ding
Niu played move by move on lists changed in place.

Apart from the rules (`games.connecting`), which hand a deal to it (`ConnectingRules.table`)
unless a variant changes the common core. A deal of heuristic seats is played out in one loop
(`ConnectTable.play_scored`), and the walk of a hand that finds its moves and rates them
is the one Ding Niu's table walks too (`games.connect_walk`).
Rules source: docs/rules-book.md §2.1 (common core), §2.3 (two arms); decisions D-02 (play is
compulsory when able) and D-03 (block).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Protocol

from games import connecting_ai, heuristic
from games.connect_deal import ConnectSeen, ConnectState, ConnectView, Placement
from games.connect_walk import (
    _BIT,
    _SAME_KIND,
    _SHOWS,
    _attach,
    _attachments,
    _discards,
)
from games.connecting_ai import deck_bits
from games.engine import Action, LazyViews, Outcome, Table, stale
from games.tiles import CHINESE, TileSet

_A = CHINESE.a
_B = CHINESE.b
_KIND = CHINESE.kind_of


class ConnectTableRules(Protocol):
    """What a connecting table asks of its game's rules (`games.connecting.ConnectingRules`),
    named here so that the table need not import the rules that make it."""

    @property
    def id(self) -> str: ...

    def arms(self, options: Any) -> int: ...

    def tileset(self, options: Any) -> TileSet: ...

    def legal_actions(self, state: Any) -> tuple[Action, ...]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def view(self, state: Any, seat: int | None,
             legal: tuple[Action, ...] | None = None) -> ConnectView[Any]: ...


def _bits(tiles: Iterable[int]) -> int:
    """Tiles as a set of bits."""
    bits = 0
    for t in tiles:
        bits |= _BIT[t]
    return bits


_LEAD = tuple(Action("lead", (t,)) for t in range(CHINESE.size))
_LEAD_AT = tuple(tuple(Action("lead", (t,), n) for n in range(7)) for t in range(CHINESE.size))
_LAZY: LazyViews[ConnectView[Any]] = LazyViews(ConnectView)
"""Views of the seat to move."""


class ConnectTable(Table[ConnectState[Any]]):
    """A connecting deal on the fast path: hands, discards and the line as lists changed in
    place, and every tile still in a hand as one set of bits (`in_hand`), so a block (no
    tile in hand shows an open end) and the last tile placed are seen at a glance instead of
    by searching every hand after every move (`Table`). Each hand, each seat's discards and
    the line are also kept as sets of bits, which is what the heuristic counts
    (`ConnectSeen`)."""

    __slots__ = ("_fixed", "_legal", "_line", "attachable", "closed", "deck", "discards",
                 "done", "dropped",
                 "ends", "hands", "held", "in_hand", "laid", "leader", "line", "match",
                 "options", "players", "redeals", "rules", "seed", "turn", "two", "unused",
                 "version")
    seen_type: ClassVar[type[ConnectSeen]] = ConnectSeen
    """What the table gives the heuristic to read (`rater_view`)."""

    def __init__(self, rules: ConnectTableRules, state: ConnectState[Any] | None) -> None:
        self.rules = rules
        if state is None:
            return  # copy() fills the fields
        self.options = state.options
        self.two = rules.arms(state.options) == 2
        self.seed, self.players, self.match = state.seed, state.players, state.match
        self.version, self.leader, self.turn = state.version, state.leader, state.turn
        self.hands = [list(h) for h in state.hands]
        self.discards = [list(d) for d in state.discards]
        self.line = list(state.line)
        self._line: tuple[Placement, ...] | None = state.line
        """The line as a tuple while it has not changed."""
        self.ends, self.closed = state.ends, state.closed
        self.unused, self.redeals, self.done = state.unused, state.redeals, state.done
        held = self.held = [_bits(h) for h in state.hands]
        in_hand = 0
        for bits in held:
            in_hand |= bits
        self.in_hand = in_hand
        self.dropped = [_bits(d) for d in state.discards]
        self.laid = _bits(p[0] for p in state.line)
        self.deck = deck_bits(rules.id, self.players)
        self._legal: tuple[Action, ...] | None = None
        self.attachable = -1
        """The tiles that may be attached where they match an open end, as a set of bits
        (every tile here; a game whose rules narrow them later narrows this too)."""
        self._fixed: dict[str, Any] | None = None
        """The fields of a view of the seat to move that stay as they are (`LazyViews`),
        once a view has been asked for (a simulation's heuristic players never ask)."""

    def fixed(self) -> dict[str, Any]:
        """The fields of a view of the seat to move that stay as they are for the deal."""
        fixed = self._fixed
        if fixed is None:
            rules = self.rules
            fixed = self._fixed = {
                "game": rules.id, "options": self.options, "tiles": rules.tileset(self.options),
                "players": self.players, "match": self.match, "outcome": None,
                "arms": 2 if self.two else 1, "leader": self.leader,
                "unused": len(self.unused), "redeals": self.redeals}
        return fixed

    def copy(self) -> ConnectTable:
        twin = type(self)(self.rules, None)
        for name in ConnectTable.__slots__:
            object.__setattr__(twin, name, getattr(self, name))
        twin.hands = [list(h) for h in self.hands]
        twin.discards = [list(d) for d in self.discards]
        twin.line = list(self.line)
        twin.held = list(self.held)
        twin.dropped = list(self.dropped)
        return twin

    def to_move(self) -> int | None:
        return None if self.done else self.turn

    def legal(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        if self.done:
            self._legal = ()
            return ()
        if self.line:
            legal = self._legal = tuple(self._found(self.turn)[0])
            return legal
        seen = 0
        acts: list[Action] = []
        for t in self.hands[self.turn]:
            bit = 1 << _KIND[t]
            if seen & bit:
                continue
            seen |= bit
            if self.two:
                acts.append(_LEAD[t])
            else:
                acts.append(_LEAD_AT[t][_A[t]])
                if _B[t] != _A[t]:
                    acts.append(_LEAD_AT[t][_B[t]])
        legal = self._legal = tuple(acts)
        return legal

    def play(self, action: Action) -> None:
        seat = self.turn
        tile = action.tiles[0]
        self.hands[seat].remove(tile)
        bit = _BIT[tile]
        self.held[seat] ^= bit
        in_hand = self.in_hand = self.in_hand ^ bit
        verb = action.verb
        if verb == "lead":
            a, b = _A[tile], _B[tile]
            if action.arg is None:
                self.line.append((tile, a, b, seat))
                self.ends = (a, b)
            else:
                open_end = action.arg
                closed = self.closed = b if open_end == a else a
                self.line.append((tile, closed, open_end, seat))
                self.ends = (open_end,)
            self._line = None
            self.laid |= bit
        elif verb == "play":
            self.ends = _attach(self.line, self.ends, tile, action.arg or 0, seat)
            self._line = None
            self.laid |= bit
        else:
            self.discards[seat].append(tile)
            self.dropped[seat] |= bit
        ends = self.ends
        if not in_hand:
            self.done = "out"
        elif not in_hand & (_SHOWS[ends[0]] | _SHOWS[ends[-1]]):
            self.done = "blocked"
        self.turn = (seat + 1) % self.players
        self.version += 1
        self._legal = None

    def _line_tuple(self) -> tuple[Placement, ...]:
        line = self._line
        if line is None:
            line = self._line = tuple(self.line)
        return line

    def state(self) -> ConnectState[Any]:
        return ConnectState(
            options=self.options, seed=self.seed, players=self.players, match=self.match,
            version=self.version, leader=self.leader, turn=self.turn,
            hands=tuple(tuple(h) for h in self.hands),
            discards=tuple(tuple(d) for d in self.discards), line=self._line_tuple(),
            ends=self.ends, closed=self.closed, unused=self.unused, redeals=self.redeals,
            done=self.done,
        )

    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state()) if self.done else None

    def view(self, seat: int | None) -> ConnectView[Any]:
        if self.done or seat is None or seat != self.turn:
            return self.rules.view(self.state(), seat)
        return _LAZY.make(seat, self.legal(), self._fields, self.version, self.fixed())

    def rater_view(self, seat: int) -> Any:
        if self.done or seat != self.turn:
            return self.view(seat)
        held, laid = self.held[seat], self.laid
        return self.seen_type(self, seat, self.legal(), self.ends, held,
                              self.deck & ~(held | laid | self.dropped[seat]), laid)

    @classmethod
    def scores_as(cls, rater: Callable[[Any], Callable[[Action], float]]) -> bool:
        """Whether `scored_move` chooses as the heuristic player with `rater` does."""
        return rater is connecting_ai.rater

    def scored_move(self, seat: int, rng: random.Random) -> Action:
        """The seat to move's choice as the heuristic player makes it (`scores_as`), from
        the same generator, its moves rated here in one loop (`connecting_ai.scores`): a
        simulated deal then builds nothing for its heuristic seats to read. A seat with a line
        before it, every turn but the lead, has its moves found and rated in the same walk of
        its hand (`_found`, as `legal` finds them, the rating `connecting_ai.scores`'), figure for
        figure."""
        legal, rated = self._walk(seat)
        if len(legal) == 1:
            return legal[0]
        return self._best(legal, seat, rng) if rated is None else heuristic.pick(
            legal, rated, rng)

    def play_scored(self, rngs: Sequence[random.Random]) -> int:
        """Play the deal to its end, every seat choosing as the heuristic player does
        (`scores_as`) from its own generator in `rngs`; the moves made.

        Why one loop: a simulated deal's heuristic seats make some twenty-five moves a deal,
        and each move asked the table for its moves and their ratings, then made the move,
        reading every field of the table again each time. After the lead (`scored_move`,
        `play`) each turn here walks the seat's hand once for its moves and ratings
        (`_attachments` or `_discards`, as `_found` does), picks as `heuristic.pick` does
        and places the tile, with the deal's changing fields (whose turn, the open ends, the
        tiles laid and in hand) kept in local names until the deal ends. A seat with one kind
        of tile to attach, at one end, has one legal move (from a quarter of the turns to two in
        five at four hands with one arm): it is made unrated, as the player makes it. A table
        taught more rules (`DingNiuTable`) plays its own."""
        moves = 0
        while not self.line and not self.done:
            seat = self.turn
            self.play(self.scored_move(seat, rngs[seat]))
            moves += 1
        if self.done:
            return moves
        hands, held, dropped, discards, line = (self.hands, self.held, self.dropped,
                                                self.discards, self.line)
        deck, attachable, players, two = self.deck, self.attachable, self.players, self.two
        seat, ends, laid, in_hand = self.turn, self.ends, self.laid, self.in_hand
        played = moves
        e0, e1 = ends[0], ends[-1]
        on_left = _SHOWS[e0]
        on_right = _SHOWS[e1] if two else 0
        while True:
            mine = held[seat]
            hand = hands[seat]
            match = mine & (on_left | on_right) & attachable
            if match and not (match & ~_SAME_KIND[(match & -match).bit_length() - 1]
                              or match & on_left & on_right):
                # One kind to attach, at one end: the only legal move, which needs no rating.
                # Its tile is the first of the kind in hand (`_attachments`).
                for tile in hand:
                    if match & _BIT[tile]:
                        break
                arm = 0 if match & on_left else 1
            else:
                acts, rated = _attachments(
                    hand, mine, match, on_left, on_right, e0, e1,
                    deck & ~(mine | laid | dropped[seat])) if match else _discards(hand)
                if len(acts) == 1:
                    action = acts[0]
                else:  # `heuristic.pick`, written out
                    top = max(rated)
                    if rated.count(top) == 1:
                        action = acts[rated.index(top)]
                    else:
                        best = [act for act, value in zip(acts, rated, strict=True)
                                if value == top]
                        action = best[rngs[seat].randrange(len(best))]
                tile, arm = action.tiles[0], action.arg or 0
            hand.remove(tile)
            bit = _BIT[tile]
            held[seat] = mine ^ bit
            in_hand ^= bit
            moves += 1
            if match:
                ends = _attach(line, ends, tile, arm, seat)
                laid |= bit
                e0, e1 = ends[0], ends[-1]
                on_left = _SHOWS[e0]
                on_right = _SHOWS[e1] if two else 0
            else:
                discards[seat].append(tile)
                dropped[seat] |= bit
            seat = (seat + 1) % players
            if not in_hand:
                done = "out"
                break
            # Only a tile laid changes the open ends: a discard, of a tile that shows none of
            # them, leaves in hand every tile that showed one, and so never blocks the deal.
            if match and not in_hand & (on_left | on_right):
                done = "blocked"
                break
        self.turn, self.ends, self.laid, self.in_hand, self.done = seat, ends, laid, in_hand, done
        self.version += moves - played
        self._line = self._legal = None
        return moves

    def _walk(self, seat: int) -> tuple[tuple[Action, ...], list[float] | None]:
        """The seat to move's legal moves, and their ratings where the walk that finds them
        gives them (`scored_move`), else None."""
        if not self.ends or self._legal is not None or self.done:
            return self.legal(), None
        acts, rated = self._found(seat)
        legal = self._legal = tuple(acts)
        return legal, rated

    def _found(self, seat: int) -> tuple[list[Action], list[float]]:
        """The moves of `seat`, to move with a line before it, and their ratings, found in one
        walk of its hand (`_attachments`, else `_discards`)."""
        ends = self.ends
        e0, e1 = ends[0], ends[-1]
        on_left = _SHOWS[e0]
        on_right = _SHOWS[e1] if len(ends) == 2 else 0
        held = self.held[seat]
        match = held & (on_left | on_right) & self.attachable
        if not match:
            return _discards(self.hands[seat])
        return _attachments(self.hands[seat], held, match, on_left, on_right, e0, e1,
                            self.deck & ~(held | self.laid | self.dropped[seat]))

    def _best(self, legal: tuple[Action, ...], seat: int, rng: random.Random) -> Action:
        """`scored_move` among two or more `legal` moves, on the connecting games' rating."""
        held = self.held[seat]
        unseen = self.deck & ~(held | self.laid | self.dropped[seat])
        return heuristic.pick(legal, connecting_ai.scores(legal, held, unseen, self.ends),
                                  rng)

    def _fields(self, seat: int, version: int) -> dict[str, Any]:
        """The fields of the seat to move's view that change during a deal (`LazyViews`)."""
        stale(version, self.version)
        discards: list[tuple[int, ...]] = [()] * self.players
        discards[seat] = tuple(self.discards[seat])
        return {"version": version, "to_move": seat, "hand": tuple(self.hands[seat]),
                "hand_counts": tuple(map(len, self.hands)),
                "discard_counts": tuple(map(len, self.discards)), "discards": tuple(discards),
                "line": self._line_tuple(), "ends": self.ends, "closed": self.closed}
