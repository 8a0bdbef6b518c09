"""Computer players: how a seat chooses a move from its own view (docs/architecture.md §1 invariant
4, §3).

A player receives one seat's view — its own hand, the public table, the legal moves — and never the
state, so it cannot peek. Every game has `random` and three levels: `easy` (the heuristic,
slipping now and then to its second choice), `normal` (the game's heuristic; `heuristic` is its
older name) and `strong` (the heuristic's best moves played out in deals sampled from the view,
`games.search`). The simulator may seat any of them; a table chooses from the levels its game
offers (`Rules.levels`: a level that plays no better than the one below it is not offered).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from games import get
from games.engine import LEVELS as LEVELS
from games.engine import Action, InvalidOptions, Rules
from games.heuristic import ScoredPlayer
from games.search import DECISIVE, search_player


class ComputerPlayer(Protocol):
    name: str

    def choose(self, view: Any, rng: random.Random) -> Action: ...


class RandomPlayer:
    """Any legal move, uniformly: the baseline every heuristic is measured against."""

    name = "random"

    def choose(self, view: Any, rng: random.Random) -> Action:
        legal: tuple[Action, ...] = view.legal
        return legal[rng.randrange(len(legal))]


EASY_SLIP = 0.4
"""How often the easy player takes its second-best idea (measured: it then wins clearly less
often than a normal seat, see tests/games/test_levels.py)."""

class EasyPlayer:
    """The heuristic with lapses: now and then it plays the move it rates second best.

    Weaker on purpose, never silly: it only ever plays one of the heuristic's two best ideas,
    and a move that wins on the spot (rated decisive) is never passed up.
    """

    name = "easy"

    def __init__(self, rater: Callable[[Any], Callable[[Action], float]],
                 slip: float = EASY_SLIP) -> None:
        self._rater = rater
        self._slip = slip

    def choose(self, view: Any, rng: random.Random) -> Action:
        legal: tuple[Action, ...] = view.legal
        if len(legal) == 1:
            return legal[0]
        rate = self._rater(view)
        scores = [rate(a) for a in legal]
        levels = sorted(set(scores), reverse=True)
        top = levels[0]
        if len(levels) > 1 and top < DECISIVE and rng.random() < self._slip:
            top = levels[1]
        chosen = [a for a, s in zip(legal, scores, strict=True) if s == top]
        return chosen[0] if len(chosen) == 1 else chosen[rng.randrange(len(chosen))]


STRATEGIES = ("random", *LEVELS, "heuristic")
"""What the simulator may seat: every level, whether or not a table may choose it."""


def offered(rules: Rules[Any, Any], level: str) -> str:
    """The level a table of `rules`' game gets when it asks for `level` (one of `LEVELS`):
    that level if the game offers it (`Rules.levels`), else the strongest it offers below
    it (a game offers `normal` always)."""
    below = LEVELS[:LEVELS.index(level) + 1]
    return next((each for each in reversed(below) if each in rules.levels), rules.levels[0])


def make_player(game: str, strategy: str) -> ComputerPlayer:
    """A computer player for `game`: "random", a level ("easy", "normal", "strong"), or
    "heuristic" (the same as "normal")."""
    if strategy == "random":
        return RandomPlayer()
    rules = get(game)
    rater = rules.rater() if strategy in STRATEGIES else None
    if rater is None:
        raise InvalidOptions(f"no {strategy!r} player for {game} "
                             f"(known: {', '.join(STRATEGIES)})")
    if strategy == "easy":
        return EasyPlayer(rater)
    if strategy == "strong":
        return search_player(rules.id)
    return ScoredPlayer(rater, rules.scorer())
