"""Ding Niu's heuristic turns chosen and played on the table in one go
(`games.dingniu_table.DingNiuTable.scored_turn`, `play_scored`) are the heuristic player's own:
move for move, the choice `ScoredPlayer` makes from the public view with the same generator,
drawing as much from it, and the state the public engine reaches with it.

Rules source: docs/rules-book.md §2.11.3 (the block), §2.11.6 (what a SuanZhang pays); decisions
D-20, D-21 (a forced block is no SuanZhang, unless `forced_counts`), D-22 (doubles after a
full block), D-23 (`strict`) and D-25 (`lead_rule`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import dingniu_ai
from games.dingniu import DingNiu
from games.dingniu_block import SINGLE_BITS, any_blocks
from games.dingniu_table import DingNiuTable
from games.engine import rng
from games.heuristic import ScoredPlayer
from tests.support.whole_deals import played_alike

R = DingNiu()
PLAYER = ScoredPlayer(dingniu_ai.rater)
OPTIONS: list[dict[str, Any]] = [
    {}, {"suanzhang": False}, {"smothered": False}, {"doubles_after": False},
    {"forced_counts": True}, {"strict": True}, {"lead_rule": True},
    {"forced_counts": True, "doubles_after": False, "smothered": False},
]
"""The default options and each of Ding Niu's options that changes what is played (the
settlement and who leads next change only the outcome and the next deal)."""
DEALS = 100


def in_step(options: Any, deals: int, seed: str) -> tuple[int, int]:
    """Play `deals` deals through the public engine, each heuristic move checked against the
    table's own turn; the moves compared, and those among them where a move could make a
    SuanZhang."""
    rngs = [rng(seed, f"player/{i}") for i in range(4)]
    twin = random.Random()
    match = R.start_match(options, 4, seed)
    moves = suanzhangs = 0
    for deal in range(deals):
        state = R.new_deal(options, 4, f"{seed}/{deal}", match)
        table = R.table(state)
        assert isinstance(table, DingNiuTable)
        while (seat := R.to_move(state)) is not None:
            view = R.view(state, seat)
            laid = table.laid
            if (options.suanzhang and not table.block and laid and len(view.legal) > 1
                    and any_blocks(table.ends, SINGLE_BITS & ~laid, view.legal,
                                   options.smothered)):
                suanzhangs += 1
            twin.setstate(rngs[seat].getstate())
            made = table.scored_turn(seat, twin)
            action = PLAYER.choose(view, rngs[seat])
            assert made == action, f"deal {deal} move {moves}: choices differ"
            assert twin.getstate() == rngs[seat].getstate(), f"deal {deal}: draws differ"
            state, _ = R.step(state, action)
            assert table.state() == state, f"deal {deal} move {moves}: states differ"
            moves += 1
        assert table.to_move() is None
        match = R.next_match(state)
        if match.over:
            match = R.start_match(options, 4, f"{seed}/{deal}")
    return moves, suanzhangs


@pytest.mark.parametrize("values", OPTIONS, ids=lambda v: ",".join(v) or "default")
def test_the_tables_turns_are_the_heuristic_players_moves(values: dict[str, Any]) -> None:
    options = R.options(**values)
    moves, suanzhangs = in_step(options, DEALS, f"turns/{sorted(values.items())}")
    assert moves > DEALS * 10
    if options.suanzhang:
        assert suanzhangs > DEALS // 4, "too few turns where a move could make a SuanZhang"


@pytest.mark.parametrize("values", OPTIONS[:2], ids=lambda v: ",".join(v) or "default")
def test_a_deal_played_out_at_once_is_the_deal_played_move_by_move(
        values: dict[str, Any]) -> None:
    played_alike(R, R.options(**values), 4, DEALS, DingNiuTable)
