"""Heuristic play for the connecting games (Dragon, Ce Deng, Tails, Ding Niu) from a seat's view.

Rules source: docs/rules-book.md §2.1 — a discard counts its pips against you, so the heuristic gets
rid of heavy tiles while it can still lay them, keeps an open end it can follow itself, prefers ends
the unseen tiles rarely match (the next player may have to discard), and discards its lightest tile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, cast

from games import get
from games.connect_deal import ConnectDealer, ConnectSeen, ConnectView
from games.engine import Action
from games.tiles import CHINESE

_A = CHINESE.a
_B = CHINESE.b
_PIPS = CHINESE.pips

FOLLOW_WEIGHT = 2.0
UNSEEN_WEIGHT = 1.5


_BIT = tuple(1 << t for t in range(CHINESE.size))
_SHOWING = tuple(sum(1 << t for t in range(CHINESE.size) if n in (_A[t], _B[t]))
                 for n in range(7))
"""Per number, the tiles showing it, as a set of bits: counting tiles on a number is counting
the bits of a set of tiles there."""


@cache
def deck_bits(game: str, players: int) -> int:
    """The tiles in play, as a set of bits."""
    rules = cast("ConnectDealer", get(game))
    return sum(_BIT[t] for t in rules.deck(players)[0])


def rater(view: Any) -> Callable[[Action], float]:
    if isinstance(view, ConnectSeen):
        return _rating(view.held, view.unseen, view.ends)
    v = cast("ConnectView[Any]", view)
    bit = _BIT
    held = 0
    for t in v.hand:
        held |= bit[t]
    known = held
    for p in v.line:
        known |= bit[p[0]]
    if v.seat is not None:
        for t in v.discards[v.seat]:
            known |= bit[t]
    return _rating(held, deck_bits(v.game, v.players) & ~known, v.ends)


def _rating(held: int, unseen: int, ends: tuple[int, ...]) -> Callable[[Action], float]:
    """The rating of a move, given the tiles in hand and those unseen as sets of bits. How
    many of them show a number is counted only for the numbers a move leaves open."""
    showing = _SHOWING

    def rate(action: Action) -> float:
        (tile,) = action.tiles
        verb = action.verb
        if verb == "drop":
            return -float(_PIPS[tile])
        a, b = _A[tile], _B[tile]
        # Every number a move leaves open is one of its tile's, so one tile fewer in hand
        # shows it once the tile is played.
        if verb == "play":
            end = ends[action.arg or 0]
            tiles = showing[b if a == end else a]
            follow = (held & tiles).bit_count() - 1
            return (float(_PIPS[tile]) + FOLLOW_WEIGHT * (follow if follow < 2 else 2)
                    - UNSEEN_WEIGHT * (unseen & tiles).bit_count())
        value = float(_PIPS[tile])
        for number in ((action.arg,) if action.arg is not None else (a, b)):
            tiles = showing[number]
            follow = (held & tiles).bit_count() - 1
            value += FOLLOW_WEIGHT * (follow if follow < 2 else 2)
            value -= UNSEEN_WEIGHT * (unseen & tiles).bit_count()
        return value

    return rate


FLOAT_PIPS = tuple(float(p) for p in _PIPS)
LEAVES = tuple(tuple(_SHOWING[_B[t] if _A[t] == end else _A[t]] for end in range(7))
                for t in range(CHINESE.size))
"""Per tile and open end it is attached to, the tiles showing the number it leaves open."""
FOLLOWS = tuple(FOLLOW_WEIGHT * (c - 1 if c < 3 else 2) for c in range(CHINESE.size + 1))
UNSEENS = tuple(UNSEEN_WEIGHT * c for c in range(CHINESE.size + 1))
"""The terms of a move's rating (`rate`) per count of tiles in hand, or unseen, that show
the number it leaves open: the same figures, looked up."""


def scores(legal: Sequence[Action], held: int, unseen: int, ends: tuple[int, ...]
           ) -> list[float]:
    """Every legal move's rating (`rate` above, figure for figure), in one loop: a simulated
    deal's heuristic seat rates all of them at every turn, and a call per move costs more
    than the rating itself."""
    showing = _SHOWING
    pips, leaves, follows, unseens = FLOAT_PIPS, LEAVES, FOLLOWS, UNSEENS
    found: list[float] = []
    add = found.append
    for action in legal:
        tile = action.tiles[0]
        verb = action.verb
        if verb == "play":
            tiles = leaves[tile][ends[action.arg or 0]]
            add(pips[tile] + follows[(held & tiles).bit_count()]
                - unseens[(unseen & tiles).bit_count()])
            continue
        if verb == "drop":
            add(-pips[tile])
            continue
        if action.arg is not None:  # a lead that leaves one number open
            tiles = showing[action.arg]
            add(pips[tile] + follows[(held & tiles).bit_count()]
                - unseens[(unseen & tiles).bit_count()])
            continue
        value = pips[tile]
        for number in (_A[tile], _B[tile]):
            tiles = showing[number]
            value += follows[(held & tiles).bit_count()]
            value -= unseens[(unseen & tiles).bit_count()]
        add(value)
    return found


