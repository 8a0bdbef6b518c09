"""Dragon (接龍 Jiē Lóng, "З'єднай дракона"), one arm or two arms.

Rules source: docs/rules-book.md §2.1–§2.3; decisions D-01 (classic settlement), D-02, D-03, D-17
(two arms; the Dancing Dragons bonus for a player who places every tile is an option, off by
default).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.connect_deal import ConnectOptions, ConnectState
from games.connecting import ConnectingRules
from games.engine import Budget, Payment, option
from games.settlement import pairwise
from games.tiles import CHINESE

_ALL = tuple(range(CHINESE.size))
_HAND_SIZE = {2: 16, 3: 10, 4: 8}


@dataclass(frozen=True)
class DragonOptions(ConnectOptions):
    arms: int = option(1, "open ends of the line: one (the closed end is declared) or two",
                       (1, 2))
    clean_bonus: bool = option(False, "if anyone places every tile, the others' points double")


class Dragon(ConnectingRules[ConnectState[DragonOptions], DragonOptions]):
    id: ClassVar[str] = "dragon"
    order: ClassVar[int] = 1
    aliases: ClassVar[tuple[str, ...]] = ("jielong", "дракон", "接龍")
    options_type: ClassVar[type[Any]] = DragonOptions
    budget: ClassVar[Budget] = Budget(chips=0.01)
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "one-arm": {},
        "two-arm": {"arms": 2},
        "dancing": {"arms": 2, "clean_bonus": True},
        "chips": {"settlement": "chips"},
        "tally": {"settlement": "tally"},
    }

    def arms(self, options: DragonOptions) -> int:
        return options.arms

    def deck(self, players: int) -> tuple[tuple[int, ...], int]:
        return _ALL, _HAND_SIZE[players]

    def adjust_points(self, state: ConnectState[DragonOptions], points: tuple[int, ...]
                      ) -> tuple[int, ...]:
        if not state.options.clean_bonus:
            return points
        clean = [not d for d in self.final_discards(state)]
        if not any(clean):
            return points
        return tuple(p if c else 2 * p for p, c in zip(points, clean, strict=True))

    def settle(self, state: ConnectState[DragonOptions], points: tuple[int, ...], winner: int
               ) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
        if state.options.settlement == "chips":
            return self.one_chip_each(state, winner), ()
        return pairwise(points), ()
