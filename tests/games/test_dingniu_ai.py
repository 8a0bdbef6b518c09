"""Ding Niu's computer players and SuanZhang: a block is made when it likely wins, not when it
likely costs 12 (`games.dingniu_ai`).

Rules source: docs/rules-book.md §2.11.3, §2.11.6; decisions D-21 (a forced block settles normally),
D-22 and D-23 (success is rank 1, whatever the points, 0 too; `strict` needs strictly the fewest).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games import connecting_ai, dingniu_ai
from games.dingniu import DingNiu, DingNiuState
from games.engine import Action
from games.heuristic import ScoredPlayer
from games.players import make_player
from games.tiles import CHINESE
from tests.games.test_dingniu import DN03, deal, move

R = DingNiu()
NORMAL = ScoredPlayer(dingniu_ai.rater)
HEAVY = ("64 11 11 22 33 62", "64 44 66 66 55 55", "44 65 61 31 51 22", "65 61 63 31 51 33")
"""DN-03's Fours block within P2's reach, but P2 holds the heavy doubles: blocking leaves him
44 points against P1's 22, P3's 32 and P4's 43."""


def six_to_six(state: DingNiuState) -> Action:
    """P2's block of DN-03: the second [6:4] six to six, leaving ends 4|4."""
    return next(a for a in R.legal_actions(state) if a.arg == 0 and CHINESE.a[a.tiles[0]] == 6)


def best(rater: Any, view: Any) -> set[Action]:
    rate = rater(view)
    top = max(rate(a) for a in view.legal)
    return {a for a in view.legal if rate(a) == top}


def finished(state: DingNiuState) -> DingNiuState:
    rng = random.Random(0)
    while (seat := R.to_move(state)) is not None:
        state, _ = R.apply(state, NORMAL.choose(R.view(state, seat), rng))
    return state


@pytest.mark.parametrize("options", [{}, {"strict": True}])
def test_the_normal_player_makes_a_suanzhang_that_wins(options: dict[str, bool]) -> None:
    state = move(deal(*DN03, **options), "64")
    block = six_to_six(state)
    view = R.view(state, 1)
    assert len(view.legal) == 3, "two other moves: no forced block"
    assert dingniu_ai.win_chance(view, block, "full") > 0.9
    assert NORMAL.choose(view, random.Random(0)) == block
    result = R.outcome(finished(R.apply(state, block)[0]))
    assert result is not None and result.labels[1] == "suanzhang"


def test_the_normal_player_declines_a_suanzhang_that_would_fail() -> None:
    state = move(deal(*HEAVY), "64")
    block = six_to_six(state)
    view = R.view(state, 1)
    assert best(connecting_ai.rater, view) == {block}, "the connecting heuristic would block"
    assert dingniu_ai.win_chance(view, block, "full") < 0.1
    assert NORMAL.choose(view, random.Random(0)) != block
    result = R.outcome(finished(R.apply(state, block)[0]))
    assert result is not None and result.labels[1] == "suanzhang_failed"


def test_a_block_that_leaves_no_points_is_sure_to_win() -> None:
    """No zero-point exception (D-23): a maker left with nothing ranks first, strict or not,
    when nobody before him in the hand order can have nothing too."""
    state = move(deal(*DN03), "64")
    view = R.view(state, 1)
    block = six_to_six(state)
    four = next(t for t in view.hand if CHINESE.label(t) == "[4:4]")
    last = dataclasses.replace(view, hand=(block.tiles[0], four),
                               hand_counts=(5, 2, 6, 6), discard_counts=(0, 4, 0, 0))
    assert dingniu_ai.win_chance(last, block, "full") == 1.0
    strict = dataclasses.replace(last, options=R.options(strict=True))
    assert dingniu_ai.win_chance(strict, block, "full") == 1.0
    one = dataclasses.replace(last, hand_counts=(1, 2, 6, 6))
    assert 0.9 < dingniu_ai.win_chance(one, block, "full") < 1.0, (
        "P1, with one tile, may hold the other [4:4]: 0 too, and before P2 in the hand order")
    assert dingniu_ai.win_chance(one, block, "smothered") < 0.9, (
        "the [4:4] stays in hand when the deal ends at once")


def test_a_forced_block_is_rated_as_any_move() -> None:
    """DN-05: P3's only move blocks, so it settles normally and is no SuanZhang to weigh."""
    state = move(deal("63 56 51 51 33 11", "31 61 64 64 33 11", "16 13 55 55 22 44",
                      "65 62 66 66 22 44"), "63")
    for spec in ("31", "16", "65", "56", "61"):
        state = move(state, spec, 1)
    before = R.view(state, 2)
    assert len(before.legal) == 1 and R.apply(state, before.legal[0])[0].forced
    old, new = connecting_ai.rater(before), dingniu_ai.rater(before)
    assert [new(a) for a in before.legal] == [old(a) for a in before.legal]


def test_the_chance_is_exact_where_the_lightest_or_heaviest_tiles_decide() -> None:
    values = [0, 2, 2, 4, 12]
    assert dingniu_ai._at_least(values, 2, 2, 4.0, 18.4) == 1.0
    assert dingniu_ai._at_least(values, 2, 17, 4.0, 18.4) == 0.0
    assert 0.0 < dingniu_ai._at_least(values, 2, 8, 4.0, 18.4) < 1.0
    assert dingniu_ai._at_least(values, 0, 0, 4.0, 18.4) == 1.0
    assert dingniu_ai._at_least(values, 0, 1, 4.0, 18.4) == 0.0


def test_the_normal_players_suanzhangs_succeed_more_often_than_they_fail() -> None:
    """Among normal players about half the SuanZhangs failed while the heuristic knew nothing
    of what a block pays (here 55 of 115); now 9 of 77 do (`benchmarks/dingniu_blocks.py`
    measures it over more deals)."""
    player = make_player("dingniu", "normal")
    options = R.options()
    match = R.start_match(options, 4, "sz")
    succeeded = failed = 0
    rng = random.Random(0)
    for deal_no in range(300):
        table = R.table(R.new_deal(options, 4, f"sz/{deal_no}", match))
        while (seat := table.to_move()) is not None:
            table.play(player.choose(table.view(seat), rng))
        state = table.state()
        result = R.outcome(state)
        assert result is not None
        if R.suanzhang(state):
            label = result.labels[state.blocker]
            succeeded += label == "suanzhang"
            failed += label == "suanzhang_failed"
        match = R.next_match(state, result)
    assert succeeded > 2 * failed > 0
