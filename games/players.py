"""Computer players: how a seat chooses a move from its own view (DESIGN.md §1 invariant 4, §3).

A player receives one seat's view — its own hand, the public table, the legal moves — and never the
state, so it cannot peek. Every game has at least `random` and a heuristic `heuristic`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from games import get
from games.engine import Action, InvalidOptions


class ComputerPlayer(Protocol):
    name: str

    def choose(self, view: Any, rng: random.Random) -> Action: ...


class RandomPlayer:
    """Any legal move, uniformly: the baseline every heuristic is measured against."""

    name = "random"

    def choose(self, view: Any, rng: random.Random) -> Action:
        legal: tuple[Action, ...] = view.legal
        return legal[rng.randrange(len(legal))]


class ScoredPlayer:
    """Picks the legal move a game's rater scores highest; ties are broken at random.

    A rater looks at the view once and returns a scoring function for single moves, so what it
    derives from the view (the unseen tiles, say) is computed once per turn, not once per move.
    """

    name = "heuristic"

    def __init__(self, rater: Callable[[Any], Callable[[Action], float]]) -> None:
        self._rater = rater

    def choose(self, view: Any, rng: random.Random) -> Action:
        legal: tuple[Action, ...] = view.legal
        if len(legal) == 1:
            return legal[0]
        rate = self._rater(view)
        best: list[Action] = []
        best_score = float("-inf")
        for action in legal:
            value = rate(action)
            if value > best_score:
                best, best_score = [action], value
            elif value == best_score:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


STRATEGIES = ("random", "heuristic")


def make_player(game: str, strategy: str) -> ComputerPlayer:
    """A computer player for `game`: "random", or the heuristic its rules name."""
    if strategy == "random":
        return RandomPlayer()
    rater = get(game).rater() if strategy == "heuristic" else None
    if rater is None:
        raise InvalidOptions(f"no {strategy!r} player for {game} "
                             f"(known: {', '.join(STRATEGIES)})")
    return ScoredPlayer(rater)
