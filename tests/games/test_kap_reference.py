"""The Kap heuristic scores every move exactly as its plain formulation does.

`games/kap_ai.py` reads a view once and weighs the hands a move would leave by changing that
reading a tile at a time; `tests/games/kap_reference.py` recounts every hand. Played through
thousands of positions of both games, both rule sets, both values of `[4:2]`, few and many
players (the heuristic chooses most moves, a random one the rest, so positions vary), every
legal move must get the same score from both: the player's behaviour did not change.
"""

from __future__ import annotations

import random

import pytest

from games import get
from games.kap_ai import rater
from tests.games import kap_reference


@pytest.mark.parametrize(("game", "players", "options", "deals"), [
    ("kapten", 2, {}, 250),
    ("kapten", 2, {"rules": "classical"}, 120),
    ("kapten", 2, {"four_two": 6, "deal": "even"}, 100),
    ("kaptaishap", 10, {"sets": 4}, 40),
    ("kaptaishap", 4, {"rules": "classical"}, 40),
    ("kaptaishap", 6, {"four_two": 6}, 30),
])
def test_every_move_scores_as_in_the_plain_formulation(game, players, options, deals):
    rules = get(game)
    opts = rules.options(**options)
    chooser = random.Random(f"reference/{game}/{options}")
    positions = 0
    for deal in range(deals):
        state = rules.new_deal(opts, players, f"reference/{deal}")
        while (seat := rules.to_move(state)) is not None:
            view = rules.view(state, seat)
            fast, plain = rater(view), kap_reference.rater(view)
            scores = [fast(action) for action in view.legal]
            assert scores == [plain(action) for action in view.legal], (deal, view.legal)
            positions += 1
            if chooser.random() < 0.8:
                best = max(scores)
                action = view.legal[scores.index(best)]
            else:
                action = view.legal[chooser.randrange(len(view.legal))]
            state, _ = rules.apply(state, action)
    assert positions > 10 * deals
