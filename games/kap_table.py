"""Kap Ten's and Kap Tai Shap's fast path (`engine.Table`): a deal played move by move on lists
changed in place.

Apart from the rules (`games.kap`), which hand a deal to it (`KapRules.table`), so that the
table the simulator plays on (`games.kap_scored`) can build on it. Rules source:
docs/rules-book.md §2.6 (Kap Ten), §2.7 (Kap Tai Shap); decisions D-09 (a stock empty at the
start of a turn voids the deal), D-10 (any face-up discard may be taken, and a different tile
must then be discarded; the hand is tested whenever its owner holds 8 or 10 tiles) and D-11
(Culin's compulsory draw after the paying discard).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from typing import Any, Protocol, Self

from games.engine import Action, LazyViews, Outcome, Table, stale
from games.kap_deal import MAX_SETS, KapSeen, KapState, KapView
from games.tens import digits
from games.tiles import TileSet, chinese

_KIND = chinese(MAX_SETS).kind_of
_DRAW = Action("draw")
_ORDER = tuple(k * len(_KIND) + t for t, k in enumerate(_KIND))
"""A tile's place in a hand: kind order, then id (`_in_hand`'s order as one number)."""
_TAKE = tuple(Action("take", (t,)) for t in range(len(_KIND)))
_DISCARD = tuple(Action("discard", (t,)) for t in range(len(_KIND)))


class KapTableRules(Protocol):
    """What a Kap table asks of its game's rules (`games.kap.KapRules`), named here so that the
    table need not import the rules that make it."""

    @property
    def id(self) -> str: ...

    def tileset(self, options: Any) -> TileSet: ...

    def outcome(self, state: KapState) -> Outcome | None: ...

    def view(self, state: KapState, seat: int | None,
             legal: tuple[Action, ...] | None = None) -> KapView: ...


class KapTable(Table[KapState]):
    """A Kap deal on the fast path: the hands, the pile and the stock as lists that moves change
    in place, the legal moves worked out once per position (`Table`). Hands stay in the kind
    order the rules keep them in (`_in_hand`), so one copy per kind is the first of its run,
    and an eye is two neighbours (`_complete`)."""

    __slots__ = (
        "_culin",
        "_fixed",
        "_legal",
        "at",
        "done",
        "hands",
        "leader",
        "match",
        "options",
        "phase",
        "pile",
        "players",
        "rules",
        "seed",
        "sets",
        "source",
        "stock",
        "taken",
        "took",
        "turn",
        "turns",
        "version",
        "winner",
    )

    def __init__(self, rules: KapTableRules, state: KapState | None) -> None:
        self.rules = rules
        if state is None:
            return  # copy() fills the fields
        self.options = state.options
        self._culin = state.options.rules == "culin"
        self.seed, self.players, self.match = state.seed, state.players, state.match
        self.version, self.sets, self.leader = state.version, state.sets, state.leader
        self.turn, self.turns, self.phase = state.turn, state.turns, state.phase
        self.taken = state.taken
        self.hands = [list(h) for h in state.hands]
        self.stock, self.at = state.stock, 0
        """Drawn from `at` on: the public stock is `stock[at:]`."""
        self.pile = list(state.pile)
        self.took = list(state.took)
        self.done, self.winner, self.source = state.done, state.winner, state.source
        self._legal: tuple[Action, ...] | None = None
        options = self.options
        self._fixed = {
            "game": rules.id, "options": options, "tiles": rules.tileset(options),
            "players": self.players, "match": self.match, "outcome": None, "sets": self.sets,
            "leader": self.leader, "pot": options.ante * self.players, "winning": None}
        """The fields of a view of the seat to move that stay as they are (`LazyViews`)."""

    def copy(self) -> Self:
        twin = type(self)(self.rules, None)
        for name in KapTable.__slots__:
            object.__setattr__(twin, name, getattr(self, name))
        twin.hands = [list(h) for h in self.hands]
        twin.pile = list(self.pile)
        twin.took = list(self.took)
        return twin

    def to_move(self) -> int | None:
        return None if self.done else self.turn

    def legal(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        if self.done:
            legal = ()
        elif self.phase == "open":
            pile = self.pile
            if not pile:
                legal = (_DRAW,)
            elif not self._culin:
                legal = (_TAKE[pile[-1][0]], _DRAW)
            else:
                chosen: dict[int, int] = {}
                for t, _ in pile:
                    k = _KIND[t]
                    if k not in chosen or t < chosen[k]:
                        chosen[k] = t
                legal = (*(_TAKE[chosen[k]] for k in sorted(chosen)), _DRAW)
        else:
            hand = self.hands[self.turn]
            taken = self.taken
            tiles = self._discards(hand, taken)
            if not tiles and taken is not None:
                # Nothing but the taken kind: only copies other than the taken tile may go.
                tiles = _one_per_kind([t for t in hand if t != taken])
            legal = tuple(_DISCARD[t] for t in tiles)
        self._legal = legal
        return legal

    @staticmethod
    def _discards(hand: list[int], taken: int | None) -> list[int]:
        """The tiles the hand may discard, one per kind (the first of its run: the hand is in
        kind order, lowest id first), none of the kind just taken (D-10); empty when the hand
        holds nothing else."""
        barred = -1 if taken is None else _KIND[taken]
        tiles: list[int] = []
        last = -1
        for t in hand:
            k = _KIND[t]
            if k != last and k != barred:
                tiles.append(t)
                last = k
        return tiles

    def play(self, action: Action) -> None:
        seat = self.turn
        hand = self.hands[seat]
        verb = action.verb
        phase = self.phase
        self.version += 1
        self._legal = None
        if verb == "take":
            tile = action.tiles[0]
            pile = self.pile
            for i in range(len(pile) - 1, -1, -1):
                if pile[i][0] == tile:
                    del pile[i]
                    break
            insort(hand, tile, key=_ORDER.__getitem__)
            self.took.append((tile, seat))
            self.taken = tile
            self.phase = "swap" if self._culin else "discard"
            source = "discard"
        elif verb == "draw":
            insort(hand, self.stock[self.at], key=_ORDER.__getitem__)
            self.at += 1
            self.phase = "discard"
            source = "stock"
        else:
            tile = action.tiles[0]
            hand.remove(tile)
            self.pile.append((tile, seat))
            if self.took and (tile, seat) in self.took:
                self.took.remove((tile, seat))
            if phase == "swap":
                insort(hand, self.stock[self.at], key=_ORDER.__getitem__)
                self.at += 1
                self.phase = "discard"
                self.taken = None
                source = "stock"
            else:
                source = ""
        if source and self._won(seat, hand):
            self.phase, self.done, self.winner, self.source = "", "won", seat, source
            self.taken = None
        elif verb == "discard" and phase == "discard":
            self.taken = None
            if self.at == len(self.stock):
                self.phase, self.done = "", "void"
            else:
                self.turn = (seat + 1) % self.players
                self.turns += 1
                self.phase = "open"

    def _won(self, seat: int, hand: list[int]) -> bool:
        """Whether the seat's hand, just grown by a tile, is complete."""
        return _complete(hand, digits(self.options.four_two))

    def state(self) -> KapState:
        return KapState(
            options=self.options, seed=self.seed, players=self.players, match=self.match,
            version=self.version, sets=self.sets, leader=self.leader, turn=self.turn,
            turns=self.turns, phase=self.phase, taken=self.taken,
            hands=tuple(tuple(h) for h in self.hands), stock=self.stock[self.at:],
            pile=tuple(self.pile), done=self.done, winner=self.winner, source=self.source,
            took=tuple(self.took),
        )

    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state()) if self.done else None

    def view(self, seat: int | None) -> KapView:
        if self.done or seat is None or seat != self.turn:
            return self.rules.view(self.state(), seat)
        return _LAZY.make(seat, self.legal(), self._fields, self.version, self._fixed)

    def rater_view(self, seat: int) -> KapSeen:
        return KapSeen(self.rules.id, self.options, self.players, self.sets, seat,
                       tuple(self.hands[seat]), tuple(self.pile), self.phase, self.legal())

    def _fields(self, seat: int, version: int) -> dict[str, Any]:
        """The fields of the seat to move's view that change during a deal (`LazyViews`)."""
        stale(version, self.version)
        pile = tuple(self.pile)
        if self.phase != "open" or not pile:
            takeable: tuple[int, ...] = ()
        elif self._culin:
            takeable = tuple(t for t, _ in pile)
        else:
            takeable = (pile[-1][0],)
        return {"version": version, "to_move": seat, "hand": tuple(self.hands[seat]),
                "hand_counts": tuple(map(len, self.hands)), "turns": self.turns,
                "phase": self.phase, "taken": self.taken, "stock": len(self.stock) - self.at,
                "pile": pile, "took": took_by_seat(self.took, self.players),
                "takeable": takeable}


_LAZY = LazyViews(KapView)
"""Views of the seat to move."""


def took_by_seat(took: Sequence[tuple[int, int]], players: int
                 ) -> tuple[tuple[int, ...], ...]:
    """The record of taken discards (`KapState.took`) as the views carry it: per seat. (Every
    view of every playout asks, mostly of an empty record.)"""
    if not took:
        return ((),) * players
    held: list[list[int]] = [[] for _ in range(players)]
    for tile, seat in took:
        held[seat].append(tile)
    return tuple(map(tuple, held))


def _complete(hand: Sequence[int], digit: Sequence[int]) -> bool:
    """`tens.wins` for a hand in kind order: an eye (two of a kind, side by side here) and the
    rest paired into tens by last digit."""
    if len(hand) & 1:
        return False
    c = [0] * 10
    eyes = 0
    last = -1
    for t in hand:
        k = _KIND[t]
        r = digit[k]
        c[r] += 1
        if k == last:
            eyes |= 1 << r
        last = k
    for r in range(10):
        if eyes >> r & 1:
            c[r] -= 2
            if (c[1] == c[9] and c[2] == c[8] and c[3] == c[7] and c[4] == c[6]
                    and not c[5] & 1 and not c[0] & 1):
                return True
            c[r] += 2
    return False


def _in_hand(tiles: Sequence[int]) -> tuple[int, ...]:
    """A hand in kind order, so copies of a kind from different sets sit side by side (lowest
    id first: `_ORDER`, one number per tile, so no pair is built per tile)."""
    return tuple(sorted(tiles, key=_ORDER.__getitem__))


def _one_per_kind(tiles: Sequence[int]) -> list[int]:
    """One copy of each kind (the lowest id), in kind order like a hand: identical tiles play
    identically."""
    chosen: dict[int, int] = {}
    for t in tiles:
        k = _KIND[t]
        if k not in chosen or t < chosen[k]:
            chosen[k] = t
    return [chosen[k] for k in sorted(chosen)]
