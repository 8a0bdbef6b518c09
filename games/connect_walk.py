"""A connecting hand's moves and their ratings, found in one walk of the hand, and a tile laid
on the line: what the connecting games' fast tables share (`games.connect_table`, and Ding
Niu's, `games.dingniu_table`, whose walk also reads the block each move makes).

Apart from the tables so that each stays small; the tile tables here are the ones they read
too. Rules source: docs/rules-book.md §2.1 (common core), §2.3 (two arms); decisions D-02
(play is compulsory when able) and D-03 (block).
"""

from __future__ import annotations

from collections.abc import Callable

from games import connecting_ai
from games.connect_deal import Placement
from games.engine import Action
from games.tiles import CHINESE

_A = CHINESE.a
_B = CHINESE.b
_KIND = CHINESE.kind_of
_BIT = tuple(1 << t for t in range(CHINESE.size))
_SHOWS = tuple(sum(_BIT[t] for t in range(CHINESE.size) if n in (_A[t], _B[t]))
               for n in range(7))
"""Per number, the tiles showing it, as a set of bits."""
_SAME_KIND = tuple(sum(_BIT[u] for u in range(CHINESE.size) if _KIND[u] == _KIND[t])
                   for t in range(CHINESE.size))
"""Per tile, the tiles of its kind, as a set of bits."""
_DOUBLE = CHINESE.double
_PIPS = connecting_ai.FLOAT_PIPS
_FOLLOWS, _UNSEENS = connecting_ai.FOLLOWS, connecting_ai.UNSEENS
"""The terms of a move's rating (`connecting_ai.scores`)."""
_LEFT_OPEN = tuple(tuple(_B[t] if _A[t] == end else _A[t] for end in range(7))
                   for t in range(CHINESE.size))
"""Per tile and open end it is attached to, the number it leaves open."""
_PLAY = tuple((Action("play", (t,), 0), Action("play", (t,), 1)) for t in range(CHINESE.size))
_DROP = tuple(Action("drop", (t,)) for t in range(CHINESE.size))
Blocked = Callable[[int, tuple[int, ...], bool], str]
"""The block a line's open ends make, given the non-doubles off the line as a set of bits and
whether a smothered block counts (`games.dingniu_block.blocked`)."""


def _attach(line: list[Placement], ends: tuple[int, ...], tile: int, arm: int, seat: int
            ) -> tuple[int, ...]:
    """`tile` laid by `seat` at the open end `arm` of `line`; the open ends it leaves."""
    end = ends[arm]
    other = _LEFT_OPEN[tile][end]
    if arm:
        line.append((tile, end, other, seat))
        return (ends[0], other)
    if len(ends) == 2:
        line.insert(0, (tile, other, end, seat))
        return (other, ends[1])
    line.append((tile, end, other, seat))
    return (other,)


def _discards(hand: list[int]) -> tuple[list[Action], list[float]]:
    """The moves of a hand with nothing to attach, one discard of each kind (D-02), and their
    ratings (`connecting_ai.scores`'): a discard counts its pips against the seat."""
    acts: list[Action] = []
    rated: list[float] = []
    seen = 0
    for t in hand:
        bit = 1 << _KIND[t]
        if not seen & bit:
            seen |= bit
            acts.append(_DROP[t])
            rated.append(-_PIPS[t])
    return acts, rated


def _unblocked(rest: int, ends: tuple[int, ...], smothered: bool) -> str:
    """No block, whatever a move leaves (the games without one)."""
    return ""


def _attachments(hand: list[int], held: int, match: int, on_left: int, on_right: int,
                 e0: int, e1: int, unseen: int, kinds: list[str] | None = None,
                 rest: int = 0, blocked: Blocked = _unblocked, smothered: bool = False,
                 ) -> tuple[list[Action], list[float]]:
    """The moves of a hand (`held` as a set of bits) with tiles to attach, and their ratings
    (`connecting_ai.scores`', figure for figure), found in one walk of the hand: `match`
    holds the tiles in hand that may be attached to the left end `e0` (those showing it are
    `on_left`) or the right end `e1` (`on_right`), `unseen` those the seat cannot see.
    Where a move may make a block (Ding Niu's, `games.dingniu_table`), `kinds` is given the
    block each move makes (`blocked`, asked of the non-doubles off the line, `rest`, but the
    tile; a double makes none), in the same walk.

    The hand is walked only while some of `match` are left, and a tile's kind leaves with it
    (the first of a kind stands for every copy of it)."""
    acts: list[Action] = []
    rated: list[float] = []
    sides = ((0, on_left, e0), (1, on_right, e1)) if on_right else ((0, on_left, e0),)
    for t in hand:
        bit = _BIT[t]
        if not match & bit:
            continue
        for arm, on, end in sides:
            if not on & bit:
                continue
            acts.append(_PLAY[t][arm])
            left_open = _LEFT_OPEN[t][end]
            tiles = _SHOWS[left_open]
            rated.append(_PIPS[t] + _FOLLOWS[(held & tiles).bit_count()]
                         - _UNSEENS[(unseen & tiles).bit_count()])
            if kinds is not None:
                kinds.append("" if _DOUBLE[t] else blocked(
                    rest & ~bit, (e0, left_open) if arm else (left_open, e1), smothered))
        match &= ~_SAME_KIND[t]
        if not match:
            break
    return acts, rated
