"""The connecting games' and Tien Gow's heuristics score every move as their plain formulations.

The connecting player counts tiles on each number as bits of sets of tiles, and the Tien Gow
player remembers, per view, the chances it works out and, across deals, what a hand may lead
and leave; the plain versions below recount everything for every move. Over thousands of
positions every legal move must get the same score from both, so the players' behaviour did
not change. (Kap has its own reference: `tests/games/test_kap_reference.py`.)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games import connecting_ai, get, tiengow_ai
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
    read = tiengow_ai._Table.__init__

    def forgetful(table: Any, view: Any) -> None:
        read(table, view)
        table._threats, table._reach, table._survival = Forgetful(), Forgetful(), Forgetful()

    monkeypatch.setattr(tiengow_ai._Table, "__init__", forgetful)
    monkeypatch.setattr(tiengow_ai, "_SPLITS", Forgetful())
    monkeypatch.setattr(tiengow_ai, "_LEAVES", Forgetful())
    plain = [[rate(a) for a in v.legal] for v in views for rate in (tiengow_ai.rater(v),)]
    assert fast == plain
