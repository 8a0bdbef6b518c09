"""Ding Niu's set, its block read from the line, and what a SuanZhang pays.

Rules source: docs/rules-book.md §1.3 (the 24-tile set), §2.11.3 (the block) and §2.11.6 (the
settlement); decisions D-20 (a block is read from the line alone: full, or a 4 or 5
smothered) and D-23 (a SuanZhang that wins doubles the places; one that fails pays 12).

Both the rules (`games.dingniu`) and the computer players (`games.dingniu_ai`) read blocks, the
players thousands of times a simulated deal, so a block is worked out once per set of tiles
off the line and pair of open ends, and remembered.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.connect_deal import ConnectSeen
from games.engine import Action
from games.tiles import CHINESE

_A, _B, _DOUBLE = CHINESE.a, CHINESE.b, CHINESE.double
_REMOVED = ("[2:1]", "[4:1]", "[3:2]", "[4:2]", "[5:2]", "[4:3]", "[5:3]", "[5:4]")
DECK = tuple(t for t in range(CHINESE.size) if CHINESE.label(t) not in _REMOVED)
"""§1.3: the Chinese set without its military tiles but [6:3] and [6:2]: 24 tiles."""
SINGLES = tuple(t for t in DECK if not _DOUBLE[t])
"""The set's non-doubles: only they can make a block."""
BIT = tuple(1 << t for t in range(CHINESE.size))
"""A tile as a set of bits, so a set of tiles is one number."""
SINGLE_BITS = sum(BIT[t] for t in SINGLES)
DECK_BITS = sum(BIT[t] for t in DECK)
_SMOTHERED = (4, 5)
"""The numbers a smothered block is looked for on (NAV-DN names only fours and fives)."""
_NUMBERS = range(7)
_SHOWS = tuple(sum(BIT[t] for t in SINGLES if n in (_A[t], _B[t])) for n in _NUMBERS)
"""Per number, the non-doubles showing it, as a set of bits."""
_ON = tuple(sum(BIT[t] for t in SINGLES if numbers >> _A[t] & 1 or numbers >> _B[t] & 1)
            for numbers in range(1 << 7))
"""Per set of numbers (as bits), the non-doubles showing one of them."""
PLACES = (1, 2, 3)
"""What the 2nd, 3rd and 4th places pay the winner (§2.11.6); a SuanZhang doubles them."""
FAILED = 12
"""What the creator of a SuanZhang who does not win pays the winner: 2 × (3 + 2 + 1)."""


def block_of(line: tuple[tuple[int, int, int, int], ...], ends: tuple[int, ...],
             smothered: bool = True) -> str:
    """The block the line shows (D-20), read from the line alone: face-down discards count as
    not laid. "full": no non-double off the line shows an open number; "smothered": one
    shows a 4 (or a 5), but over the non-doubles off the line no path leads from it to an
    open number; "" otherwise."""
    laid = 0
    for placed in line:
        laid |= BIT[placed[0]]
    return blocked(SINGLE_BITS & ~laid, ends, smothered)


@lru_cache(maxsize=1 << 16)
def blocked(rest: int, ends: tuple[int, ...], smothered: bool) -> str:
    """`block_of` for the non-doubles `rest` (a set of bits) off the line. Numbers are sets
    of bits too: the numbers reached from the open ends grow by those of every tile off the
    line that shows one of them, until they grow no more (a simulated deal meets a few new
    sets of tiles off the line at every move, so this is worked out often)."""
    reach = 0
    for end in ends:
        reach |= 1 << end
    if not rest & _ON[reach]:
        return "full"
    if not smothered:
        return ""
    while True:
        touched = rest & _ON[reach]
        grown = reach
        for n in _NUMBERS:
            if touched & _SHOWS[n]:
                grown |= 1 << n
        if grown == reach:
            break
        reach = grown
    return "smothered" if any(rest & _SHOWS[n] and not reach >> n & 1
                              for n in _SMOTHERED) else ""


def blocks(ends: tuple[int, ...], rest: int, action: Action, smothered: bool) -> str:
    """The block attaching `action`'s tile would make, on a line with open `ends` and the
    non-doubles `rest` off it: a lead, a discard or a double makes none (D-20)."""
    tile = action.tiles[0]
    if action.verb != "play" or _DOUBLE[tile]:
        return ""
    # `ends_after`, written out: every legal move of a simulated deal asks.
    if action.arg:
        end = ends[1]
        after = (ends[0], _B[tile] if _A[tile] == end else _A[tile])
    else:
        end = ends[0]
        after = (_B[tile] if _A[tile] == end else _A[tile], ends[1])
    return blocked(rest & ~BIT[tile], after, smothered)


def any_blocks(ends: tuple[int, ...], rest: int, legal: tuple[Action, ...], smothered: bool
               ) -> bool:
    """Whether one of the `legal` moves makes a block (`blocks`, asked of each in one loop:
    a simulated deal's heuristic seat asks at nearly every turn)."""
    left, right = ends[0], ends[1]
    for action in legal:
        tile = action.tiles[0]
        if action.verb != "play" or _DOUBLE[tile]:
            continue
        a, b = _A[tile], _B[tile]
        after = (left, b if a == right else a) if action.arg else (b if a == left else a, right)
        if blocked(rest & ~BIT[tile], after, smothered):
            return True
    return False


def ends_after(ends: tuple[int, ...], action: Action) -> tuple[int, ...]:
    """The two open ends once `action` has attached its tile."""
    tile = action.tiles[0]
    arm = action.arg or 0
    end = ends[arm]
    other = _B[tile] if _A[tile] == end else _A[tile]
    return (other, ends[1]) if arm == 0 else (ends[0], other)


class DingNiuSeen(ConnectSeen):
    """What Ding Niu's heuristic reads of the seat to move's view, as its table gives it
    (`ConnectSeen`): also the deal's block, which decides whether a move may still make one."""

    __slots__ = ("block",)

    def __init__(self, table: Any, seat: int, legal: tuple[Any, ...], ends: tuple[int, ...],
                 held: int, unseen: int, laid: int) -> None:
        super().__init__(table, seat, legal, ends, held, unseen, laid)
        self.block = table.block
