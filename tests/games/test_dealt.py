"""`Rules.dealt`: a fresh deal as dealt, for checking it again from its seed (`gupai verify`).

For every game, preset and player count: the hands plus the undealt tiles hold every tile of the
deck exactly once, the deck does not depend on the shuffle, and the undealt tiles are listed in
the order they are drawn.
"""

import pytest

from games import GAMES, get
from games.engine import Match, rng
from tests.games.test_playouts import CASES, tiles_of


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_a_fresh_deal_holds_every_tile_once(game, preset, players):
    rules = GAMES[game]
    options = rules.options(preset)
    decks = set()
    for n in range(6):
        state = rules.new_deal(options, players, f"dealt/{n}", Match.start(players, n % players))
        hands, stock = rules.dealt(state)
        assert len(hands) == players and all(hands)
        flat = [t for hand in hands for t in hand] + list(stock)
        assert len(flat) == len(set(flat)), "a tile dealt twice"
        assert sorted(flat) == sorted(tiles_of(state)), "a tile the deal shows nowhere"
        decks.add(tuple(sorted(flat)))
    assert len(decks) == 1, "the deck is the same whatever the shuffle"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_stock_is_listed_in_drawing_order(game):
    rules = GAMES[game]
    for n in range(10):
        players = rules.default_players
        state = rules.new_deal(rules.options(), players, f"order/{n}", Match.start(players))
        _, stock = rules.dealt(state)
        chooser = rng(f"order/{n}", "choices")
        while rules.to_move(state) is not None and not getattr(state, "reshuffles", 0):
            left = getattr(state, "stock", None)
            if left is not None:
                assert stock[len(stock) - len(left):] == left
            legal = rules.legal_actions(state)
            state, _ = rules.apply(state, legal[chooser.randrange(len(legal))])
        if state.version:
            with pytest.raises(ValueError):
                rules.dealt(state)  # a deal under way no longer shows how it was dealt


def test_options_that_change_the_deck_change_what_is_dealt():
    kts = get("kaptaishap")
    state = kts.new_deal(kts.options(sets=3), 4, "sets", Match.start(4))
    hands, stock = kts.dealt(state)
    assert len([t for h in hands for t in h]) + len(stock) == 3 * 32
    assert [len(h) for h in hands] == [10, 9, 9, 9]
    even = kts.dealt(kts.new_deal(kts.options(deal="even"), 4, "sets", Match.start(4)))
    assert [len(h) for h in even[0]] == [9, 9, 9, 9]


def test_a_lead_player_dealt_three_pairs_still_shows_his_hand():
    td = get("threedozen")
    for n in range(3000):
        state = td.new_deal(td.options(), 3, f"pairs/{n}", Match.start(3))
        if state.winner is not None:
            break
    else:
        raise AssertionError("no hand dealt three pairs in 3000 seeds")
    hands, _ = td.dealt(state)
    assert state.hands[state.leader] == () and len(hands[state.leader]) == 6
