"""The strong player's looks at its playouts (`Budget.look`): it stops playing out a move that
could no longer be played, and stops searching once one move is left.

The figures are exact for this code (seeded); the positions are the first of a Kap Ten deal
between normal players, searched with a small budget so that the test stays cheap.
"""

from __future__ import annotations

import random
from typing import Any

from games import get
from games.engine import Action, Budget, Table
from games.players import make_player
from games.search import SearchPlayer

LOOKING = Budget(candidates=3, sure=2.0, ties=True, most=64, work=10**6, look=8, plausible=1.0)
PLAIN = Budget(candidates=3, sure=2.0, ties=True, most=64, work=10**6)


class Counting(SearchPlayer):
    """A strong player that remembers every playout it made: (its sample, its move)."""

    def __init__(self, budget: Budget) -> None:
        rules = get("kapten")
        rater = rules.rater()
        assert rater is not None
        super().__init__(rules, rater, budget)
        self.played: list[tuple[int, Action]] = []

    def _playout(self, table: Table[Any], start: Any, move: Action, seat: int, roll: int
                 ) -> tuple[float, int]:
        self.played.append((roll, move))
        return super()._playout(table, start, move, seat, roll)


def searches(count: int) -> list[tuple[list[Action], Counting, Action, Action]]:
    """The first `count` positions of a deal with more than one move worth playing out: those
    moves, the looking player after its search, its choice and the plain player's."""
    rules = get("kapten")
    normal = make_player("kapten", "normal")
    state = rules.new_deal(rules.options(), 2, "looks")
    rng = random.Random(0)
    found = []
    moves = 0
    while len(found) < count and (seat := rules.to_move(state)) is not None:
        view = rules.view(state, seat)
        looking = Counting(LOOKING)
        if len(candidates := looking.candidates(view)) > 1:
            found.append((candidates, looking, looking.choose(view, random.Random(moves)),
                          Counting(PLAIN).choose(view, random.Random(moves))))
        moves += 1
        state, _ = rules.apply(state, normal.choose(view, rng))
    return found


def test_a_search_plays_out_only_the_moves_still_in_it_and_stops_once_one_is_left():
    (moves, first, a, b), _, (third_moves, third, c, d) = searches(3)
    # The first position: its third move is dropped at the first look, after 8 samples; the
    # other two are played out to the last sample (64), and the choice is the plain search's.
    samples = sorted({roll for roll, _ in first.played})
    assert len(samples) == 64
    assert {move for roll, move in first.played if roll == samples[-1]} == set(moves[:2])
    assert len(first.played) == 3 * 8 + 2 * 56
    assert a == b
    # The third: at the first look only the heuristic's choice is left, and that is all.
    assert len(third.played) == 3 * 8
    assert c == d == third_moves[0]


def test_a_look_drops_a_move_only_once_it_could_no_longer_be_played():
    player = Counting(LOOKING)
    ref = [1.0, 0.0] * 8
    values = [
        ref,                      # the heuristic's choice
        [0.0] * 16,               # rated alike, and behind it by 0.5 ± 0.13: dropped
        [1.0, 1.0, 0.0, 0.0] * 4,  # rated lower, level with it (± 0.18 a deal): may yet win
        [0.0] * 16,               # rated lower, and behind it: dropped
        [1.0] * 16,               # rated lower, and ahead by 0.5: kept
    ]
    # With 100 samples to come, a move level with the choice may still gain the 2 standard
    # errors of 100 it would need (0.15 a deal) within one standard error of 16 (0.18); ...
    assert player._race(values, [0, 1, 2, 3, 4], 2, 100) == [0, 2, 4]
    # ... with no more samples to come, 2 standard errors of 16 are out of its reach.
    assert player._race(values, [0, 2, 4], 1, 16) == [0, 4]
    # The best of the moves rated alike is the one the others must beat, whichever it is.
    assert player._race([[0.0] * 16, ref], [0, 1], 2, 100) == [1]
