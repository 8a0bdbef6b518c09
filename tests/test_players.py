"""Computer players: the heuristic beats random seats by a wide, measured margin (DESIGN.md §3).

Runs are seeded, so the figures are exact for this code; the bounds leave several standard
deviations of room below the measured rates (quoted beside each case) and well above the
baseline of 1 / players.
"""

import pytest

from games import get
from games.engine import InvalidOptions
from games.players import RandomPlayer, make_player
from games.sim import simulate

CASES = [
    # game, players, games, lowest acceptable win rate of the one heuristic seat
    ("dragon", 4, 600, 0.32),   # measured ~0.38; baseline 0.25
    ("dragon", 2, 300, 0.72),   # ~0.86; baseline 0.50
    ("cedeng", 4, 600, 0.32),   # ~0.39
    ("tails", 3, 400, 0.43),    # ~0.51; baseline 0.33
    ("domino", 2, 80, 0.70),    # ~0.86 of matches to 100
]


@pytest.mark.parametrize(("game", "players", "games", "floor"), CASES)
def test_heuristic_beats_random(game, players, games, floor):
    rules = get(game)
    strategies = ["heuristic"] + ["random"] * (players - 1)
    stats = simulate(rules, rules.options(), players, games, f"beat/{game}", strategies)
    rate = stats.wins[0] / stats.games
    assert rate >= floor, f"{game}: heuristic won {rate:.2f}"
    baseline = simulate(rules, rules.options(), players, games, f"beat/{game}",
                        ["random"] * players)
    assert baseline.wins[0] / baseline.games < floor
    assert stats.chips[0] > 0


def test_unknown_strategy_is_refused():
    with pytest.raises(InvalidOptions):
        make_player("dragon", "genius")
    assert isinstance(make_player("domino", "random"), RandomPlayer)
