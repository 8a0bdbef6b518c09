"""A deal of heuristic seats played out at once on the connecting games' table
(`games.connect_table.ConnectTable.play_scored`) is the deal played move by move: the same
moves from the same generators, drawing as much from them, and the same state at the end.

Rules source: docs/rules-book.md §2.1 (common core), §2.3 (two arms); decisions D-02 and D-03.
"""

from __future__ import annotations

import pytest

from games import get
from games.connect_table import ConnectTable
from tests.support.whole_deals import played_alike

CASES = [("dragon", {}, 4), ("dragon", {}, 2), ("dragon", {"arms": 2}, 3),
         ("dragon", {"arms": 2}, 4), ("cedeng", {}, 4), ("tails", {}, 3)]
"""One arm and two, at several table sizes, and the other games the table plays."""
DEALS = 60


@pytest.mark.parametrize(("game", "values", "players"), CASES,
                         ids=[f"{g}-{','.join(v) or 'default'}-{p}" for g, v, p in CASES])
def test_a_deal_played_out_at_once_is_the_deal_played_move_by_move(
        game: str, values: dict[str, int], players: int) -> None:
    rules = get(game)
    played_alike(rules, rules.options(**values), players, DEALS, ConnectTable)
