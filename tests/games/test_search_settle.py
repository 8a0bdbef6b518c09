"""The strong player stops drawing deals once its choice is plain (`Budget.settle`,
`games.search`): no other candidate could plausibly overtake it, so further deals would only
cost time; a candidate still in reach keeps the search going."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from games import GAMES
from games.players import make_player
from games.search import SearchPlayer, search_player

SETTLED = dataclasses.replace(GAMES["kapten"].budget, settle=16, far=2.0, most=256)


def player() -> SearchPlayer:
    return search_player("kapten", SETTLED)


def test_a_candidate_far_behind_or_level_settles_the_choice() -> None:
    rng = random.Random(1)
    ref = [rng.random() for _ in range(64)]
    behind = [v - 0.5 for v in ref]
    assert player()._settled([ref, behind])
    assert player()._settled([ref, list(ref)]), "the same outcome deal for deal"


def test_a_candidate_ahead_or_within_reach_keeps_it_open() -> None:
    rng = random.Random(2)
    ref = [rng.random() for _ in range(64)]
    assert not player()._settled([ref, [v + 0.01 for v in ref]]), "always a little better"
    noisy = [v + rng.gauss(-0.01, 0.3) for v in ref]
    assert not player()._settled([ref, noisy]), "behind, but within the noise"


def test_moves_rated_alike_stay_open_until_one_is_clearly_ahead() -> None:
    rng = random.Random(3)
    first = [rng.random() for _ in range(64)]
    close = [v + rng.gauss(0.0, 0.2) for v in first]
    assert not player()._settled([first, close], tied=2)
    assert player()._settled([first, [v - 0.5 for v in first]], tied=2)


def test_a_settled_search_draws_fewer_deals_for_the_same_move() -> None:
    """Kap Ten positions from a match between normal players: the settled search chooses what
    the full one chooses, on fewer deals over all."""
    rules = GAMES["kapten"]
    short = dataclasses.replace(SETTLED, most=64, work=3000)  # a quarter of the search, for time
    full = search_player("kapten", dataclasses.replace(short, settle=0))
    settled = search_player("kapten", short)
    drawn = {id(full): 0, id(settled): 0}

    def counting(searcher: SearchPlayer) -> None:
        deals = searcher._rules.deals

        def counted(view: Any, rater: Any, rng: random.Random) -> Callable[[], Any]:
            draw = deals(view, rater, rng)

            def one() -> Any:
                drawn[id(searcher)] += 1
                return draw()
            return one

        searcher._rules = _Dealing(searcher._rules, counted)  # type: ignore[assignment]

    counting(full)
    counting(settled)
    normal = make_player("kapten", "normal")
    options = rules.options()
    chosen = 0
    for deal in range(2):
        table = rules.table(rules.new_deal(options, 2, f"settle/{deal}",
                                           rules.start_match(options, 2, f"settle/{deal}")))
        rng = random.Random(deal)
        while (seat := table.to_move()) is not None:
            view = table.view(seat)
            if seat == 0 and len(view.legal) > 1:
                seed = rng.getrandbits(32)
                a = full.choose(view, random.Random(seed))
                assert settled.choose(view, random.Random(seed)) == a
                chosen += 1
            table.play(normal.choose(view, rng))
    assert chosen >= 3
    assert drawn[id(settled)] < 0.8 * drawn[id(full)]


class _Dealing:
    """A game's rules with its dealing of the unseen tiles counted."""

    def __init__(self, rules: Any, deals: Callable[..., Any]) -> None:
        self._rules = rules
        self.deals = deals

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)
