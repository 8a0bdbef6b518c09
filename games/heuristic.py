"""The heuristic player: the legal move a game's rater (`Rules.rater`) scores highest.

It is the `normal` level (`games.players`), and the policy the strong level plays its playouts
with (`games.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from games.engine import Action, Table


def pick(legal: Sequence[Action], rated: list[float], rng: random.Random) -> Action:
    """The move rated highest, a tie broken by one draw from `rng`: the heuristic player's
    choice, and that of every table that rates the moves itself (`ScoredPlayer.mover_on`), so
    such a table plays the player's very moves."""
    top = max(rated)
    if rated.count(top) == 1:
        return legal[rated.index(top)]
    best = [action for action, score in zip(legal, rated, strict=True) if score == top]
    return best[rng.randrange(len(best))]


class ScoredPlayer:
    """Picks the legal move a game's rater scores highest; ties are broken at random.

    A rater looks at the view once and returns a scoring function for single moves, so what it
    derives from the view (the unseen tiles, say) is computed once per turn, not once per move;
    a game's `scorer`, when it has one, scores all the moves in one call (`Rules.scorer`).
    """

    name = "heuristic"

    def __init__(self, rater: Callable[[Any], Callable[[Action], float]],
                 scorer: Callable[[Any], list[float]] | None = None) -> None:
        self._rater = rater
        self._scorer = scorer

    @property
    def rater(self) -> Callable[[Any], Callable[[Action], float]]:
        """The judgement this player chooses by (a table that rates alike may choose for it:
        `games.sim`)."""
        return self._rater

    def choose(self, view: Any, rng: random.Random) -> Action:
        legal: tuple[Action, ...] = view.legal
        if len(legal) == 1:
            return legal[0]
        scorer = self._scorer
        return pick(legal, scorer(view) if scorer is not None
                    else list(map(self._rater(view), legal)), rng)

    def choose_on(self, table: Table[Any], seat: int, rng: random.Random) -> Action:
        """`choose` for the seat to move on a fast table (the simulator): the same move from
        the same generator, but rated from what the table gives the rater to read
        (`Table.rater_view`), and nothing at all built when only one move is legal."""
        legal = table.legal()
        if len(legal) == 1:
            return legal[0]
        return self.choose(table.rater_view(seat), rng)

    def mover_on(self, kind: type[Table[Any]]
                 ) -> Callable[[Table[Any], int, random.Random], Action]:
        """How this player chooses on a table of `kind`: on the table itself where the table
        rates as this player's rater does (its `scored_move`, the same move from the same
        generator draws, without a reading built for the rater), else `choose_on`. The
        simulator's seats and the strong player's playouts choose this way."""
        scores_as = getattr(kind, "scores_as", None)
        scored = getattr(kind, "scored_move", None)
        if scores_as is not None and scored is not None and scores_as(self._rater):
            return cast("Callable[[Table[Any], int, random.Random], Action]", scored)
        return self.choose_on
