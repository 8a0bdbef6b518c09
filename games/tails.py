"""Tails (꼬리붙이기, "Хвости"): the Korean one-arm game where only the worst hands pay.

Rules source: docs/rules-book.md §2.5; decisions D-07 (strictly more than 30 pays, for any number of
players; among players tied for the highest score the later hand is the one who pays) and D-08
(one chip per payer by default, the difference of points as an option).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.connect_deal import ConnectOptions, ConnectState
from games.connecting import ConnectingRules
from games.engine import Budget, Payment, hand_order, option
from games.settlement import collect
from games.tiles import CHINESE

_SHORT = tuple(t for t in range(CHINESE.size)
               if CHINESE.kind(t).label not in ("[3:3]", "[4:4]", "[5:5]", "[6:6]"))
_FULL = tuple(range(CHINESE.size))
OVER = 30


@dataclass(frozen=True)
class TailsOptions(ConnectOptions):
    settlement: str = option("chips", "chips: 1 per payer; points: each payer pays the difference",
                             ("chips", "points", "tally"))


class Tails(ConnectingRules[ConnectState[TailsOptions], TailsOptions]):
    id: ClassVar[str] = "tails"
    order: ClassVar[int] = 3
    aliases: ClassVar[tuple[str, ...]] = ("kkori", "хвости", "꼬리붙이기")
    options_type: ClassVar[type[Any]] = TailsOptions
    budget: ClassVar[Budget] = Budget(chips=0.05, sure=0.5)
    """Half a standard error of gain is enough to leave the heuristic's move here: with the
    default (one), one strong seat among three normal ones won 28.2 % of 400 deals, not
    clearly over its fair 25 %; with a half, 34.5 % (`benchmarks/levels.py`)."""
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "chips": {},
        "points": {"settlement": "points"},
    }

    def deck(self, players: int) -> tuple[tuple[int, ...], int]:
        if players == 4:
            return _FULL, 8
        return _SHORT, 8 if players == 3 else 12

    def payers(self, state: ConnectState[TailsOptions], points: tuple[int, ...], winner: int
               ) -> list[int]:
        """The highest scorer (the later hand on a tie) and everyone else over 30."""
        order = hand_order(state.players, state.leader)
        highest = max(reversed(order), key=lambda s: points[s])
        return [s for s in order if s != winner and (s == highest or points[s] > OVER)]

    def settle(self, state: ConnectState[TailsOptions], points: tuple[int, ...], winner: int
               ) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
        payers = self.payers(state, points, winner)
        if state.options.settlement == "points":
            amounts = {s: points[s] - points[winner] for s in payers}
        else:
            amounts = {s: 1 for s in payers}
        return collect(state.players, winner, amounts), ()
