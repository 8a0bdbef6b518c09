"""The Tien Gow table's own choice for the heuristic (`TienGowTable.scored_move`, `play_scored`):
what the simulator and the strong player's playouts ask of a table whose seats all play the
heuristic (docs/architecture.md §3, `Table`).

That the table chooses as the player does from the same view and generator, move for move, is
held in `tests/games/test_fast_path.py` for every preset; here, a deal played in one loop against
the same deal played move by move, and the table declining to choose for any other rater.
"""

from __future__ import annotations

import functools

import pytest

from games import get, tiengow_ai
from games.tiengow import TienGowTable
from tests.support.whole_deals import played_alike


@pytest.mark.parametrize("preset", ["modern", "pure", "early-death"])
def test_a_deal_played_at_once_is_played_move_by_move(preset: str) -> None:
    rules = get("tiengow")
    played_alike(rules, rules.options(preset=preset), 4, 30, TienGowTable)


def test_the_table_chooses_only_for_the_tien_gow_heuristic() -> None:
    assert TienGowTable.scores_as(tiengow_ai.rater)
    # Other weights rate otherwise: the table's choice is the default weights' alone.
    assert not TienGowTable.scores_as(
        functools.partial(tiengow_ai.rater, weights=tiengow_ai.Weights(endgame=1)))
    assert not TienGowTable.scores_as(lambda view: lambda action: 0.0)
