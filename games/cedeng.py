"""Ce Deng (斜釘, "Косий цвях"): the four-player one-arm game with bonuses and penalties.

Rules source: docs/rules-book.md §2.4; decisions D-03 (a block counts what is left in hand as
discards, also for head/tail counts), D-04 (seven or more doubles: redeal; eight doubles win only as
an option), D-05 (multipliers both ways), D-06 (head-6/tail-7 means at least 6 / 7 discards).
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
_THRESHOLDS = {"7-8": (7, 8), "6-7": (6, 7)}


@dataclass(frozen=True)
class CeDengOptions(ConnectOptions):
    penalty: str = option("7-8", "discards that penalize the head / a tail", ("7-8", "6-7"))
    eight_doubles: str = option(
        "redeal", "a dealt hand of eight doubles: redeal like seven, or win paid double",
        ("redeal", "win"))


class CeDeng(ConnectingRules[ConnectState[CeDengOptions], CeDengOptions]):
    id: ClassVar[str] = "cedeng"
    order: ClassVar[int] = 2
    aliases: ClassVar[tuple[str, ...]] = ("tsairdeng", "цвях", "斜釘")
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type[Any]] = CeDengOptions
    budget: ClassVar[Budget] = Budget(chips=0.01)
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "classic": {},
        "strict": {"penalty": "6-7"},
        "eight-win": {"eight_doubles": "win"},
        "chips": {"settlement": "chips"},
    }

    def deck(self, players: int) -> tuple[tuple[int, ...], int]:
        return _ALL, 8

    def special_deal(self, options: CeDengOptions, hands: tuple[tuple[int, ...], ...]
                     ) -> str | None:
        for hand in hands:
            doubles = sum(CHINESE.double[t] for t in hand)
            if doubles == 8 and options.eight_doubles == "win":
                return "eight"
            if doubles >= 7:
                return "redeal"
        return None

    def worst_loss(self, options: CeDengOptions, players: int) -> int | None:
        """As the other connecting games, except that a dealt hand of eight doubles that wins
        (§2.4, the "win" option) makes every other seat pay twice its points, whatever the
        settlement: then it cannot say."""
        if options.eight_doubles == "win":
            return None
        return super().worst_loss(options, players)

    def statuses(self, state: ConnectState[CeDengOptions]) -> tuple[str, ...]:
        """clean / penalized / normal for every seat (docs/rules-book.md §2.4)."""
        head_limit, tail_limit = _THRESHOLDS[state.options.penalty]
        result = []
        for seat, discards in enumerate(self.final_discards(state)):
            limit = head_limit if seat == state.leader else tail_limit
            if not discards:
                result.append("clean")
            elif len(discards) >= limit:
                result.append("penalized")
            else:
                result.append("normal")
        return tuple(result)

    def settle(self, state: ConnectState[CeDengOptions], points: tuple[int, ...], winner: int
               ) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
        status = self.statuses(state)
        if state.options.settlement == "chips":
            return self.one_chip_each(state, winner), status

        def multiplier(i: int, j: int) -> int:
            pair = {status[i], status[j]}
            if len(pair) == 1:
                return 1
            return 4 if pair == {"clean", "penalized"} else 2

        return pairwise(points, multiplier), status
