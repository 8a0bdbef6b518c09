"""Computer-player levels: easy, normal (the heuristic), strong (search over sampled deals).

The strong player must never peek: it is given one seat's view, and the deals it plays out are
built from that view alone (`Rules.redeal`, `Rules.deals`). These tests re-deal the tiles a seat
cannot see in real positions and check that nothing it sees, and nothing it chooses, changes;
that every deal it samples shows it exactly its own view; and that the levels are ordered as
their names say. Runs are seeded, so every figure here is exact for this code; the bounds sit
below the measured figures quoted beside them.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games import get
from games.connecting import ConnectState
from games.domino import DominoState
from games.engine import Budget, InvalidOptions
from games.hidden.connecting import connect_clues, connect_orders
from games.kap import KapState
from games.players import LEVELS, EasyPlayer, ScoredPlayer, make_player
from games.search import DECISIVE, SearchPlayer, search_player
from games.sim import simulate
from games.threedozen import ThreeDozenState
from games.tiengow import TienGowState
from games.tiles import CHINESE, chinese

CASES = [
    # game, preset, players
    ("dragon", None, 4),
    ("dragon", "two-arm", 4),
    ("dragon", None, 3),
    ("cedeng", None, 4),
    ("tails", None, 3),
    ("domino", None, 2),
    ("domino", None, 4),
    ("kapten", None, 2),
    ("kapten", "classical", 2),
    ("kaptaishap", None, 6),
    ("threedozen", None, 4),
    ("tiengow", None, 4),
]
LINE = [c for c in CASES if c[0] in ("dragon", "cedeng", "tails")]


def positions(game: str, preset: str | None, players: int, deals: int, every: int
              ) -> Iterator[tuple[Any, int, Any]]:
    """(state, seat to move, its view) every `every` moves of deals between normal players."""
    rules = get(game)
    options = rules.options(preset)
    player = make_player(game, "normal")
    for deal in range(deals):
        state = rules.new_deal(options, players, f"levels/{game}/{preset}/{deal}")
        rng = random.Random(deal)
        moves = 0
        while (seat := rules.to_move(state)) is not None:
            view = rules.view(state, seat)
            if moves % every == every - 1:
                yield state, seat, view
            state, _ = rules.apply(state, player.choose(view, rng))
            moves += 1


def _deal_out(pool: list[int], sizes: list[int]) -> list[list[int]]:
    out = []
    for size in sizes:
        out.append(pool[:size])
        del pool[:size]
    assert not pool
    return out


def twin(state: Any, seat: int, seed: int) -> Any:
    """The same table as `seat` sees it, with every tile it cannot see dealt anew among the
    places that hold unseen tiles (written here independently of `Rules.redeal`)."""
    rng = random.Random(seed)
    n = state.players
    others = [s for s in range(n) if s != seat]
    if isinstance(state, ConnectState):
        pool = [t for s in others for t in state.hands[s] + state.discards[s]]
        pool += state.unused
        rng.shuffle(pool)
        sizes = [len(state.hands[s]) for s in others] + [len(state.discards[s]) for s in others]
        parts = _deal_out(pool, [*sizes, len(state.unused)])
        hands, discards = list(state.hands), list(state.discards)
        for i, s in enumerate(others):
            hands[s] = tuple(sorted(parts[i], key=lambda t: (CHINESE.kind_of[t], t)))
            discards[s] = tuple(parts[len(others) + i])
        return dataclasses.replace(state, hands=tuple(hands), discards=tuple(discards),
                                   unused=tuple(sorted(parts[-1])))
    if isinstance(state, (DominoState, KapState, ThreeDozenState)):
        pool = [t for s in others for t in state.hands[s]] + list(state.stock)
        rng.shuffle(pool)
        parts = _deal_out(pool, [len(state.hands[s]) for s in others] + [len(state.stock)])
        kind = chinese(10).kind_of
        key = (lambda t: (kind[t], t)) if isinstance(state, KapState) else None
        hands = list(state.hands)
        for i, s in enumerate(others):
            hands[s] = tuple(sorted(parts[i], key=key))
        return dataclasses.replace(state, hands=tuple(hands), stock=tuple(parts[-1]))
    assert isinstance(state, TienGowState)
    plays = [p for t in state.history for p in t.plays] + list(state.trick)
    hidden = [p for p in plays if not p.up and p.seat != seat]
    pool = [t for s in others for t in state.hands[s]] + [t for p in hidden for t in p.tiles]
    rng.shuffle(pool)
    parts = _deal_out(pool, [len(state.hands[s]) for s in others] + [p.size for p in hidden])
    hands = list(state.hands)
    for i, s in enumerate(others):
        hands[s] = tuple(sorted(parts[i]))
    fresh = {id(p): tuple(parts[len(others) + i]) for i, p in enumerate(hidden)}

    def replay(play: Any) -> Any:
        return dataclasses.replace(play, tiles=fresh[id(play)]) if id(play) in fresh else play

    history = tuple(dataclasses.replace(t, plays=tuple(map(replay, t.plays)))
                    for t in state.history)
    return dataclasses.replace(state, hands=tuple(hands), history=history,
                               trick=tuple(map(replay, state.trick)))


# ----- the levels --------------------------------------------------------------------------------

def test_every_game_has_every_level():
    from games import GAMES

    assert LEVELS == ("easy", "normal", "strong")
    for game in GAMES:
        assert isinstance(make_player(game, "easy"), EasyPlayer)
        assert isinstance(make_player(game, "normal"), ScoredPlayer)
        assert isinstance(make_player(game, "heuristic"), ScoredPlayer)
        assert isinstance(make_player(game, "strong"), SearchPlayer)
    with pytest.raises(InvalidOptions, match="known: random, easy, normal, strong"):
        make_player("tiengow", "expert")


def test_the_simulator_seats_levels_side_by_side():
    rules = get("tails")
    stats = simulate(rules, rules.options(), 3, 3, "levels/sim", ["strong", "normal", "easy"])
    assert stats.games == 3 and stats.strategies == ("strong", "normal", "easy")
    assert sum(stats.wins) + stats.no_winner == 3


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_easy_plays_one_of_the_two_best_ideas_and_never_passes_up_a_win(game, preset, players):
    rules = get(game)
    rater = rules.rater()
    easy = make_player(game, "easy")
    seen = {"slips": 0, "moves": 0}
    for _, _, view in positions(game, preset, players, 4, 1):
        if len(view.legal) < 2:
            continue
        rate = rater(view)
        levels = sorted({rate(a) for a in view.legal}, reverse=True)
        for k in range(3):
            action = easy.choose(view, random.Random(k))
            assert action in view.legal
            assert rate(action) in levels[:2]
            if levels[0] >= DECISIVE:
                assert rate(action) == levels[0]
            seen["moves"] += 1
            seen["slips"] += rate(action) != levels[0]
    assert 0 < seen["slips"] < seen["moves"] / 2


EASY = [
    # game, players, games; measured share of wins of the one easy seat vs a normal seat 0
    ("dragon", 4, 1000),      # easy 0.214, normal 0.247
    ("kapten", 2, 1000),      # 0.332, 0.504
    ("threedozen", 4, 1000),  # 0.192, 0.259
    ("tiengow", 4, 300),      # 0.130, 0.290
    ("domino", 2, 60),        # 0.283, 0.533 (matches to 100)
]


@pytest.mark.parametrize(("game", "players", "games"), EASY)
def test_easy_wins_less_often_than_normal(game, players, games):
    rules = get(game)
    easy = simulate(rules, rules.options(), players, games, "ez", ["easy"] + ["normal"] * (
        players - 1))
    normal = simulate(rules, rules.options(), players, games, "ez", ["normal"] * players)
    assert easy.wins[0] < normal.wins[0] * 0.9


# ----- never peeking -----------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_every_sampled_deal_shows_the_seat_its_own_view(game, preset, players):
    rules = get(game)
    rater = rules.rater()
    for _, seat, view in positions(game, preset, players, 3, 3):
        for k in range(3):
            assert rules.view(rules.redeal(view, random.Random(k)), seat) == view
        deals = rules.deals(view, rater, random.Random(7))
        for _ in range(3):
            assert rules.view(deals(), seat) == view


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_the_strong_choice_does_not_depend_on_tiles_it_cannot_see(game, preset, players):
    """Same view, same generator: the same move, however the unseen tiles lie."""
    rules = get(game)
    strong = make_player(game, "strong")
    checked = 0
    for state, seat, view in positions(game, preset, players, 2, 5):
        if len(view.legal) < 2 or checked >= 3:
            continue
        other = twin(state, seat, checked)
        assert other != state
        assert rules.view(other, seat) == view
        for k in (1, 2):
            action = strong.choose(view, random.Random(k))
            assert action in view.legal
            assert strong.choose(rules.view(other, seat), random.Random(k)) == action
        checked += 1
    assert checked


@pytest.mark.parametrize(("game", "preset", "players"), LINE)
def test_what_line_discards_tell_holds_in_the_real_deal(game, preset, players):
    """A seat that discarded face down held none of the open numbers, then or later; and a
    normal seat's discards are its lightest tiles (the reading `connect_sample` tries first)."""
    pips = CHINESE.pips
    ends_a, ends_b = CHINESE.a, CHINESE.b
    read = 0
    for state, _, view in positions(game, preset, players, 6, 1):
        assert connect_orders(view)
        for s, clue in connect_clues(view).items():
            discards = state.discards[s]
            for k, tile in enumerate(discards):
                assert ends_a[tile] not in clue.barred[k] and ends_b[tile] not in clue.barred[k]
                assert pips[tile] <= clue.caps[k]
                read += bool(clue.barred[k])
            for tile in state.hands[s]:
                assert ends_a[tile] not in clue.barred[-1]
                assert ends_b[tile] not in clue.barred[-1]
            assert list(map(pips.__getitem__, discards)) == sorted(pips[t] for t in discards)
            assert all(pips[d] <= pips[t] for d in discards for t in state.hands[s])
    assert read


def test_a_budget_counts_work_not_time():
    """The same view and generator give the same move with the same budget: no clock."""
    _, _, view = next(positions("dragon", None, 4, 1, 9))
    small = Budget(candidates=8, work=300, least=2, most=4)
    a = search_player("dragon", small).choose(view, random.Random(5))
    b = search_player("dragon", small).choose(view, random.Random(5))
    assert a == b and a in view.legal


STRONG = [
    # game, players, games, the least wins of the strong seat 0 (seeded: exact for this code;
    # the measured figures beside). The same seat played by a normal player, on the same
    # seeds, stays below the bound: the test fails if strong plays as normal does.
    ("domino", 2, 5, 4),  # strong 5 of 5 matches, normal 2 (300 matches: 81 %)
]


@pytest.mark.parametrize(("game", "players", "games", "least"), STRONG)
def test_strong_wins_more_often_than_normal(game, players, games, least):
    rules = get(game)
    others = ["normal"] * (players - 1)
    strong = simulate(rules, rules.options(), players, games, "strong", ["strong", *others])
    normal = simulate(rules, rules.options(), players, games, "strong", ["normal", *others])
    assert normal.wins[0] < least <= strong.wins[0]
