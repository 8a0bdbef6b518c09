"""Sample deals for the gallery: real positions played by the computer from fixed seeds.

Each home picks from these the positions worth a picture (`Home.samples`); the deals are played
by the game's heuristic players (the random ones for a game without one), so the gallery is the
same on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.engine import Event, InvalidOptions, Match, Rules
from games.players import ComputerPlayer, make_player

SEEDS = 12
"""Sample deals tried per variant, where a home looks for the most telling one."""


@dataclass(frozen=True, slots=True)
class Step:
    state: Any
    event: Event | None


def sample_deal(rules: Rules[Any, Any], options: Any, players: int, seed: str,
                match: Match | None = None) -> list[Step]:
    """One deal from the deal to its end, played by computer seats, every position kept."""
    bots = [_player(rules.id) for _ in range(players)]
    choice = random.Random(seed)
    state = rules.new_deal(options, players, seed, match)
    steps = [Step(state, None)]
    while (seat := rules.to_move(state)) is not None:
        action = bots[seat].choose(rules.view(state, seat), choice)
        state, events = rules.apply(state, action)
        steps.append(Step(state, events[0]))
    return steps


def won(rules: Rules[Any, Any], step: Step) -> bool:
    result = rules.outcome(step.state)
    return result is not None and bool(result.winners)


def _player(game: str) -> ComputerPlayer:
    """The heuristic player, or the random one for a game that has none yet."""
    try:
        return make_player(game, "heuristic")
    except InvalidOptions:
        return make_player(game, "random")
