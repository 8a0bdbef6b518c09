"""Ding Niu: every worked example of docs/rules-book.md §5 for it (TS-05, DN-01…DN-05) and its
options.

Rules source: docs/rules-book.md §1.3, §2.11; decisions D-19…D-26.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, cast

import pytest

from games import GAMES
from games.dingniu import DECK, DingNiu, DingNiuState, DingNiuView, block_of
from games.engine import Action, IllegalAction, Outcome
from games.outcome import deltas_of
from games.settlement import lowest_by_hand
from games.tiles import CHINESE

R = DingNiu()


def ids(*specs: str, taken: set[int] | None = None) -> list[int]:
    """Tile ids for "64"-style specs, a new copy for each repeat."""
    taken = set() if taken is None else taken
    out = []
    for spec in specs:
        t = next(t for t in CHINESE.ids_of(int(spec[0]), int(spec[1])) if t not in taken)
        taken.add(t)
        out.append(t)
    return out


def deal(*hands: str, **options: Any) -> DingNiuState:
    taken: set[int] = set()
    return R.deal_from(R.options(**options), [ids(*h.split(), taken=taken) for h in hands])


def line_of(*specs: str) -> tuple[tuple[int, int, int, int], ...]:
    """A line written left to right as the tiles lie ("46" is [4:6] with 4 on the left)."""
    taken: set[int] = set()
    return tuple((ids(s, taken=taken)[0], int(s[0]), int(s[1]), 0) for s in specs)


def move(state: DingNiuState, spec: str, arm: int | None = None) -> DingNiuState:
    """Play the tile `spec` (lead, or attach at `arm`), refused unless the rules list it."""
    hi, lo = max(map(int, spec)), min(map(int, spec))
    for action in R.legal_actions(state):
        t = action.tiles[0]
        if (CHINESE.a[t], CHINESE.b[t]) == (hi, lo) and action.verb in ("lead", "play") and (
                action.verb == "lead" or action.arg == arm):
            return R.apply(state, action)[0]
    raise AssertionError(f"{spec} at {arm} is not legal: {R.legal_actions(state)}")


def drop_any(state: DingNiuState) -> DingNiuState:
    legal = R.legal_actions(state)
    assert {a.verb for a in legal} == {"drop"}
    return R.apply(state, legal[0])[0]


def test_ts05_the_set() -> None:
    assert len(DECK) == 24
    assert sum(CHINESE.double[t] for t in DECK) == 12
    assert sum(CHINESE.pips[t] for t in DECK) == 177
    kinds = Counter(CHINESE.label(t) for t in DECK)
    assert kinds.pop("[6:3]") == 1 and kinds.pop("[6:2]") == 1
    assert set(kinds.values()) == {2}
    singles = [t for t in DECK if not CHINESE.double[t]]
    per_number = {n: sum(1 for t in singles if n in (CHINESE.a[t], CHINESE.b[t]))
                  for n in range(1, 7)}
    assert per_number == {1: 6, 2: 1, 3: 3, 4: 2, 5: 4, 6: 8}


def test_the_game_is_found_and_deals_six_to_four() -> None:
    assert isinstance(GAMES["dingniu"], DingNiu)
    state = R.new_deal(R.options(), 4, "dn")
    assert [len(h) for h in state.hands] == [6] * 4 and not state.unused
    assert sorted(t for h in state.hands for t in h) == sorted(DECK)
    with pytest.raises(Exception, match="4"):
        R.new_deal(R.options(), 3, "dn")


@pytest.mark.parametrize(("line", "ends", "kind"), [
    (("46", "64"), (4, 4), "full"),                                           # (a) Fours
    (("64", "46"), (6, 6), ""),                                               # (b)
    (("33", "33", "31", "13", "36", "62", "22", "22"), (3, 2), "full"),       # (c) Two-Three
    (("13", "31", "15", "51", "16", "61", "11", "11"), (1, 1), "full"),       # (d) Ones
    (("56", "65", "51", "15", "55", "55"), (5, 5), "full"),                   # (e) Fives
    (("26", "63", "31", "16", "65", "56", "61"), (2, 1), "smothered"),        # (f) Fours
    (("63", "31", "16", "65", "56", "61", "13"), (6, 3), "smothered"),        # (g) Fives
], ids="abcdefg")
def test_dn01_block_detection(line: tuple[str, ...], ends: tuple[int, int], kind: str) -> None:
    placed = line_of(*line)
    assert (placed[0][1], placed[-1][2]) == ends
    assert block_of(placed, ends) == kind
    if kind == "smothered":
        assert block_of(placed, ends, smothered=False) == ""


def settled(points: tuple[int, ...], leader: int = 0) -> tuple[tuple[int, ...], Outcome]:
    state = dataclasses.replace(R.deal_from(R.options(), [[], [], [], []]), leader=leader)
    winner = lowest_by_hand(points, (0, 1, 2, 3))
    payments, labels = R.settle(state, points, winner)
    result = Outcome.paid("out", points, (winner,), payments, labels)
    return R.ranking(state, points, winner), result


@pytest.mark.parametrize(("points", "ranks", "deltas"), [
    ((10, 5, 5, 10), (1, 2, 3, 0), (-3, 6, -1, -2)),
    ((10, 15, 15, 10), (0, 3, 2, 1), (6, -3, -2, -1)),
    ((0, 0, 0, 0), (0, 3, 2, 1), (6, -3, -2, -1)),
])
def test_dn02_ties(points: tuple[int, ...], ranks: tuple[int, ...],
                   deltas: tuple[int, ...]) -> None:
    got, result = settled(points)
    assert got == ranks
    assert result.deltas == deltas
    state = R.deal_from(R.options(), [[], [], [], []])
    assert R.next_match(state, result).leader == ranks[0], "the winner leads next (D-26)"


DN03 = ("64 11 11 22 33 62", "64 44 51 51 31 22", "44 66 65 61 31 55", "66 65 61 63 33 55")


def test_dn03_a_fours_suanzhang_that_wins() -> None:
    state = deal(*DN03)
    state = move(state, "64")
    state = move(state, "64", 0)                # six to six: ends 4|4
    assert state.ends == (4, 4)
    assert (state.block, state.blocker, state.forced) == ("full", 1, False)
    assert cast(DingNiuView, R.view(state, 3)).block == "full"
    assert cast(DingNiuView, R.view(state, None)).blocker == 1
    legal = R.legal_actions(state)
    assert {CHINESE.label(a.tiles[0]) for a in legal} == {"[4:4]"}, "only doubles now"
    with pytest.raises(IllegalAction):
        R.apply(state, Action("drop", (state.hands[2][0],)))
    state = move(state, "44", 0)                # P3 must play [4:4]
    state = drop_any(state)                     # P4
    state = drop_any(state)                     # P1
    state = move(state, "44", 0)                # P2
    assert state.done == "blocked"
    result = R.outcome(state)
    assert result is not None
    assert result.points == (22, 20, 44, 55)
    assert result.deltas == (-2, 12, -4, -6)
    assert result.labels[1] == "suanzhang"
    assert R.next_match(state, result).leader == 1


def test_dn03_without_doubles_after_the_block_the_maker_pays_12() -> None:
    state = deal(*DN03, doubles_after=False)
    state = move(move(state, "64"), "64", 0)
    assert state.done == "blocked"
    result = R.outcome(state)
    assert result is not None
    assert result.points == (22, 28, 52, 55)
    assert result.deltas == (12, -12, 0, 0)
    assert result.labels[1] == "suanzhang_failed"


def _seven_plays(*hands: str) -> DingNiuState:
    state = deal(*hands)
    state = move(state, "63")
    for spec in ("31", "16", "65", "56", "61", "13"):
        state = move(state, spec, 1)
    return state


def test_dn04_a_smothered_fives_suanzhang_that_fails() -> None:
    state = _seven_plays("63 56 51 51 44 33", "31 61 64 64 22 33", "16 13 66 66 55 22",
                         "65 62 11 11 55 44")
    assert state.ends == (6, 3)
    assert (state.block, state.blocker, state.forced) == ("smothered", 2, False)
    assert state.done == "blocked", "a smothered block ends the deal at once"
    result = R.outcome(state)
    assert result is not None
    assert result.points == (26, 30, 38, 30)
    assert R.ranking(state, result.points, 0) == (0, 3, 1, 2)
    assert result.deltas == (12, 0, -12, 0)


def test_dn05_a_forced_block_settles_normally() -> None:
    state = _seven_plays("63 56 51 51 33 11", "31 61 64 64 33 11", "16 13 55 55 22 44",
                         "65 62 66 66 22 44")
    assert (state.block, state.blocker, state.forced) == ("smothered", 2, True)
    assert state.done == "blocked"
    result = R.outcome(state)
    assert result is not None
    assert result.points == (20, 28, 32, 44)
    assert result.deltas == (6, -1, -2, -3)
    assert not any(label.startswith("suanzhang") for label in result.labels)


def test_a_forced_block_counts_when_the_option_says_so() -> None:
    state = deal("63 56 51 51 33 11", "31 61 64 64 33 11", "16 13 55 55 22 44",
                 "65 62 66 66 22 44", forced_counts=True)
    state = move(state, "63")
    for spec in ("31", "16", "65", "56", "61", "13"):
        state = move(state, spec, 1)
    result = R.outcome(state)
    assert result is not None
    assert result.deltas == (12, 0, -12, 0), "P3 made it and did not win: he pays 12"


def test_without_suanzhang_it_is_plain_two_arm_dragon() -> None:
    state = deal(*DN03, suanzhang=False)
    state = move(move(state, "64"), "64", 0)
    assert state.block == "" and not state.done
    legal = R.legal_actions(state)
    assert legal and all(a.verb == "play" for a in legal)


def test_strict_success_needs_strictly_the_fewest_points() -> None:
    """Only with ZH-JL's strict rule does a maker who wins on the lower hand fail."""
    state = deal(*DN03, strict=True)
    blocked = dataclasses.replace(state, block="full", blocker=0)
    points = (20, 20, 30, 40)
    payments, labels = R.settle(blocked, points, 0)
    assert labels[0] == "suanzhang_failed"
    assert deltas_of(4, payments) == (-12, 12, 0, 0)
    plain = dataclasses.replace(blocked, options=R.options())
    payments, labels = R.settle(plain, points, 0)
    assert labels[0] == "suanzhang" and deltas_of(4, payments) == (12, -2, -4, -6)


def test_the_lead_restriction() -> None:
    """D-25: leading [4:4] while holding the other [4:4] and both [6:4] is refused with the
    option, allowed without it; a hand always keeps some lead."""
    hands = ("44 44 64 64 11 22", "66 66 65 65 61 61", "55 55 51 51 31 31", "63 62 33 33 22 11")
    free = deal(*hands)
    ruled = deal(*hands, lead_rule=True)
    fours = {a.tiles[0] for a in R.legal_actions(free)} - {a.tiles[0] for a in
                                                          R.legal_actions(ruled)}
    assert {CHINESE.label(t) for t in fours} == {"[4:4]"}, "[6:4] shows a 6 others can answer"
    assert R.legal_actions(ruled)
    with pytest.raises(IllegalAction):
        R.apply(ruled, Action("lead", (ruled.hands[0][0],)))


def test_points_only_moves_no_chips() -> None:
    options = R.options("beginner")
    assert options.settlement == "tally" and not options.suanzhang
    assert R.worst_loss(options, 4) == 0
    state = R.new_deal(options, 4, "points")
    while R.to_move(state) is not None:
        state = R.apply(state, R.legal_actions(state)[0])[0]
    result = R.outcome(state)
    assert result is not None and not any(result.deltas)
    assert R.finite_match(options)
