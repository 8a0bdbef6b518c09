"""What a deal of Deer Hunt holds: its options, its state, and what one seat sees.

Apart from the rules (`games.deerhunt`) so that the computer players (`games.deerhunt_ai`) and
the deals they imagine (`games.hidden.deerhunt`) read a deal without importing the rules that
call on them. Rules source: docs/rules-book.md §2.12.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from games.engine import Match, View, option


@dataclass(frozen=True)
class DeerHuntOptions:
    deal: str = option("plain", "how the tiles are dealt: plain (eight each at random), fair "
                       "(each partnership gets one [6:6]) or fair-extended (one each of "
                       "[6:6] [6:5] [6:4] [4:4])", choices=("plain", "fair", "fair-extended"))
    deer_escaped: bool = option(False, "a trick whose four tiles all bear red pips goes to "
                                "nobody; whoever played its highest tile leads next")
    deals: int = option(4, "deals in a session: 4 (everyone deals once), 8 (twice), or any "
                        "other number a table agrees on", lo=1, hi=16)
    tie: str = option("draw", "a session tied on red pips: a draw, or won by the pair that "
                      "won the last deal (last)", choices=("draw", "last"))


@dataclass(frozen=True, slots=True)
class Lay:
    """One seat's tile in a trick (always face up)."""

    seat: int
    tile: int

    @property
    def tiles(self) -> tuple[int, ...]:
        return (self.tile,)


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its tiles in order, the seat whose tile won it, its red pips and
    whether the deer escaped (the pips then went to nobody, and the winner still leads)."""

    plays: tuple[Lay, ...]
    winner: int
    red: int
    escaped: bool = False


@dataclass(frozen=True, slots=True)
class DeerHuntState:
    options: DeerHuntOptions
    seed: str
    players: int
    match: Match
    version: int
    dealer: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    trick: tuple[Lay, ...]
    """The trick being played; empty when the turn's seat is to lead."""
    history: tuple[Trick, ...]
    red: tuple[int, int]
    """Red pips taken so far by team A (seats 0 and 2) and team B (seats 1 and 3)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeerHuntView(View[DeerHuntOptions]):
    dealer: int
    trick: tuple[Lay, ...]
    best: int | None
    """Index in `trick` of the tile holding it so far."""
    history: tuple[Trick, ...]
    red: tuple[int, int]


class DeerDealer(Protocol):
    """What the computer players' imagined deals ask of Deer Hunt's rules
    (`games.deerhunt.DeerHunt`), named here so that they need not import the rules."""

    def rebuilt(self, view: View[DeerHuntOptions], hands: tuple[tuple[int, ...], ...],
                rest: tuple[int, ...], seed: str) -> DeerHuntState: ...

    def redeal(self, view: View[DeerHuntOptions], rng: random.Random) -> DeerHuntState: ...
