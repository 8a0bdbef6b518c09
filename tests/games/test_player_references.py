"""The connecting games' and Tien Gow's heuristics score every move as their plain formulations.

The connecting player counts tiles on each number as bits of sets of tiles, and the Tien Gow
player remembers, per view, the chances it works out and, across deals, what a hand may lead
and leave and how likely a hand is to hold a play; the plain versions below recount everything
for every move. Over thousands of
positions every legal move must get the same score from both, so the players' behaviour did
not change. (Kap has its own reference: `tests/games/test_kap_reference.py`.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.cli import main
from games import connecting_ai, get, tiengow_ai, tiengow_odds
from games.engine import Action
from games.tiles import CHINESE


def plain_connecting(view: Any) -> Callable[[Action], float]:
    """The connecting heuristic as first written: sets of tiles, counts per move."""
    deck = {t for t in range(CHINESE.size)
            if t in get(view.game).deck(view.players)[0]}
    known = set(view.hand)
    known.update(p[0] for p in view.line)
    known.update(view.discards[view.seat])
    unseen_on = CHINESE.number_counts([t for t in sorted(deck) if t not in known])

    def rate(action: Action) -> float:
        (tile,) = action.tiles
        if action.verb == "drop":
            return -float(CHINESE.pips[tile])
        rest = [t for t in view.hand if t != tile]
        a, b = CHINESE.a[tile], CHINESE.b[tile]
        if action.verb == "lead":
            new_ends = [action.arg] if action.arg is not None else [a, b]
        else:
            end = view.ends[action.arg or 0]
            new_ends = [b if a == end else a]
        value = float(CHINESE.pips[tile])
        for number in new_ends:
            value += connecting_ai.FOLLOW_WEIGHT * min(CHINESE.showing(rest, number), 2)
            value -= connecting_ai.UNSEEN_WEIGHT * unseen_on[number]
        return value

    return rate


def positions(game: str, preset: str | None, players: int, deals: int, rater: Any
              ) -> list[Any]:
    """Views of the seat to move with a choice to make, the heuristic choosing most moves."""
    rules = get(game)
    options = rules.options(preset=preset)
    chooser = random.Random(f"references/{game}/{preset}")
    found = []
    for deal in range(deals):
        state = rules.new_deal(options, players, f"references/{deal}")
        while (seat := rules.to_move(state)) is not None:
            view = rules.view(state, seat)
            legal = view.legal
            if len(legal) > 1:
                found.append(view)
            if len(legal) > 1 and chooser.random() < 0.8:
                rate = rater(view)
                scores = [rate(a) for a in legal]
                action = legal[scores.index(max(scores))]
            else:
                action = legal[chooser.randrange(len(legal))]
            state, _ = rules.step(state, action)
    return found


@pytest.mark.parametrize(("game", "preset", "players", "deals"), [
    ("dragon", "one-arm", 4, 200),
    ("dragon", "two-arm", 2, 100),
    ("cedeng", None, 4, 100),
    ("tails", None, 3, 100),
    ("tails", None, 2, 60),
])
def test_connecting_player_scores_as_the_plain_formulation(game, preset, players, deals):
    views = positions(game, preset, players, deals, connecting_ai.rater)
    assert len(views) > 5 * deals
    for view in views:
        fast, plain = connecting_ai.rater(view), plain_connecting(view)
        assert [fast(a) for a in view.legal] == [plain(a) for a in view.legal]


class Forgetful(dict):  # type: ignore[type-arg]
    """A memory that keeps nothing: every answer is worked out afresh."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def test_tien_gow_player_scores_as_without_its_memory(monkeypatch):
    views = positions("tiengow", "modern", 4, 40, tiengow_ai.rater)
    views += positions("tiengow", "early-death", 4, 30, tiengow_ai.rater)
    assert len(views) > 1000
    fast = [[rate(a) for a in v.legal] for v in views for rate in (tiengow_ai.rater(v),)]
    read = tiengow_odds.Odds.__init__

    def forgetful(odds: Any, seen: int, counts: tuple[int, ...], hand: int) -> None:
        read(odds, seen, counts, hand)
        odds._threats, odds._reach = Forgetful(), Forgetful()

    monkeypatch.setattr(tiengow_odds.Odds, "__init__", forgetful)
    monkeypatch.setattr(tiengow_odds, "_THREATS", Forgetful())
    monkeypatch.setattr(tiengow_odds, "_REACH", Forgetful())
    monkeypatch.setattr(tiengow_ai, "_SHAPES", Forgetful())
    plain = [[rate(a) for a in v.legal] for v in views for rate in (tiengow_ai.rater(v),)]
    assert fast == plain


RECORDED = [
    ("modern", "1", {
        "win_rate": [0.24666666666666667, 0.22, 0.22666666666666666, 0.30666666666666664],
        "mean_points_per_deal": [2.06, 1.8533333333333333, 2.0, 2.0866666666666664],
        "mean_chips_per_game": [-0.1, -0.9866666666666667, -0.06, 1.1466666666666667],
        "mean_turns_per_deal": 26.72,
    }),
    ("modern", "2", {
        "win_rate": [0.20666666666666667, 0.24, 0.2866666666666667, 0.26666666666666666],
        "mean_points_per_deal": [1.9466666666666668, 2.08, 2.06, 1.9133333333333333],
        "mean_chips_per_game": [-0.5533333333333333, -0.08, 0.5266666666666666,
                                0.10666666666666667],
        "mean_turns_per_deal": 26.826666666666668,
    }),
    ("pure", "1", {
        "win_rate": [0.24666666666666667, 0.23333333333333334, 0.23333333333333334,
                     0.2866666666666667],
        "mean_points_per_deal": [1.8933333333333333, 1.9866666666666666, 1.9133333333333333,
                                 2.2066666666666666],
        "mean_chips_per_game": [-0.15333333333333332, -0.4066666666666667, -0.4066666666666667,
                                0.9666666666666667],
        "mean_turns_per_deal": 28.453333333333333,
    }),
    ("early-death", "1", {
        "win_rate": [0.23333333333333334, 0.24666666666666667, 0.23333333333333334,
                     0.2866666666666667],
        "mean_points_per_deal": [2.04, 2.0, 2.013333333333333, 1.9466666666666668],
        "mean_chips_per_game": [-0.3, -0.22666666666666666, -0.1, 0.6266666666666667],
        "mean_turns_per_deal": 26.613333333333333,
    }),
]
"""`gupai sim tiengow --strategy heuristic --games 150 --json` as the heuristic played before it
was made cheaper (tile sets as bits, the tiles seen carried in the view): any move it now made
differently would, over 600 deals, almost surely move one of these figures."""


@pytest.mark.parametrize(("preset", "seed", "figures"), RECORDED)
def test_tien_gow_player_plays_the_recorded_games(preset, seed, figures, capsys):
    args = ["sim", "tiengow", "--strategy", "heuristic", "--games", "150", "--seed", seed,
            "--preset", preset, "--jobs", "1", "--json"]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["deals"] == 150
    assert {name: printed[name] for name in figures} == figures
