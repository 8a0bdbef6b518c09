"""The Kap table the simulator plays on chooses as the heuristic player does (`games.kap_scored`).

The table keeps every seat's reading of the deal as the moves change it and rates the moves
itself; the heuristic player (`ScoredPlayer` with `kap_ai.rater`) reads the seat's view afresh.
Over a few hundred deals of both games, both sets of rules, both values of `[4:2]`, several
numbers of players and sets, and seats mixed with random players (whose seats the table never
reads), every choice must be the player's, from a generator left in the same state.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import get, kap_ai
from games.engine import rng
from games.heuristic import ScoredPlayer
from games.kap_scored import ScoredKapTable
from games.players import make_player
from tests.support.whole_deals import played_alike

CASES = [
    ("kapten", {"deal": "even"}, 2, ("heuristic",), 300),
    ("kapten", {}, 2, ("heuristic",), 150),
    ("kapten", {"rules": "classical"}, 2, ("heuristic",), 200),
    ("kapten", {"four_two": 6, "deal": "even"}, 2, ("heuristic", "random"), 150),
    ("kaptaishap", {"sets": 4}, 10, ("heuristic",), 150),
    ("kaptaishap", {"rules": "classical"}, 6, ("heuristic",), 150),
    ("kaptaishap", {"four_two": 6}, 4, ("heuristic", "random"), 100),
    ("kaptaishap", {"sets": 1}, 2, ("heuristic",), 150),
    ("kaptaishap", {"sets": 8}, 20, ("heuristic", "random"), 40),
]
"""(game, options, players, strategies by seat in turn, deals)."""


def play(game: str, values: dict[str, Any], players: int, strategies: tuple[str, ...],
         deals: int, seed: str) -> int:
    """Play `deals` deals on the table, every heuristic seat's choice made both ways; the
    number of choices compared."""
    rules = get(game)
    options = rules.options(**values)
    player = ScoredPlayer(kap_ai.rater)
    heuristic = [strategies[s % len(strategies)] == "heuristic" for s in range(players)]
    others = [make_player(game, "random") for _ in range(players)]
    rngs = [rng(seed, f"player/{s}") for s in range(players)]
    twin = random.Random()
    match = rules.start_match(options, players, seed)
    compared = 0
    for deal in range(deals):
        table = rules.table(rules.new_deal(options, players, f"{seed}/{deal}", match))
        assert isinstance(table, ScoredKapTable)
        while (seat := table.to_move()) is not None:
            if not heuristic[seat]:
                table.play(others[seat].choose(table.view(seat), rngs[seat]))
                continue
            twin.setstate(rngs[seat].getstate())
            chosen = table.scored_move(seat, twin)
            action = player.choose(rules.view(table.state(), seat), rngs[seat])
            assert chosen == action, f"{game} {values} deal {deal}: choices differ"
            assert twin.getstate() == rngs[seat].getstate(), f"{game} deal {deal}: draws differ"
            # What bounds every move's tiles to come (`_unseen`) is the sum of the seat's
            # cells, none of them below nothing (once the seat is read: a lone move is not).
            if table._context is not None and table._counts[seat] is not None:
                cells = table._cells[seat]
                assert table._unseen(seat) == sum(cells) and min(cells) >= 0
            # The deal goes on as the rules say, a hand the readings find complete included.
            before = table.state()
            table.play(action)
            assert table.state() == rules.step(before, action)[0], f"{game} deal {deal}"
            compared += 1
        match = rules.next_match(table.state())
        if match.over:
            match = rules.start_match(options, players, f"{seed}/{deal}")
    return compared


@pytest.mark.parametrize(("game", "values", "players", "strategies", "deals"), CASES,
                         ids=[f"{c[0]}-{c[2]}-{'-'.join(map(str, c[1].values()))}"
                              for c in CASES])
def test_the_table_chooses_as_the_heuristic_player(game, values, players, strategies, deals):
    assert play(game, values, players, strategies, deals, f"scored/{game}") > deals


def test_the_table_chooses_only_for_the_kap_heuristic():
    assert ScoredKapTable.scores_as(kap_ai.rater)
    assert not ScoredKapTable.scores_as(lambda view: lambda action: 0.0)


def test_a_copy_reads_its_own_deal():
    """A copy made once the table has read some seats moves on alone: each chooses as the
    player does from its own position."""
    rules = get("kaptaishap")
    options = rules.options()
    player = ScoredPlayer(kap_ai.rater)
    for deal in range(20):
        table = rules.table(rules.new_deal(options, 6, f"copy/{deal}"))
        chooser = random.Random(deal)
        for _ in range(6):
            seat = table.to_move()
            if seat is None:
                break
            table.play(table.scored_move(seat, chooser))
        twin = table.copy()
        for board in (twin, table):
            while (seat := board.to_move()) is not None:
                state = random.Random(seat).getstate()
                first, second = random.Random(), random.Random()
                first.setstate(state)
                second.setstate(state)
                chosen = board.scored_move(seat, first)
                assert chosen == player.choose(rules.view(board.state(), seat), second)
                board.play(chosen)


def test_a_hand_of_one_kind_pays_for_its_take_with_a_copy():
    """With ten sets a hand can be all [6:6]: after taking one more, the discard the table
    weighs (`ScoredKapTable._discard_move`) finds no other kind to give, and gives a copy
    other than the tile taken, the one move the rules offer (D-10)."""
    from games.tiles import chinese
    from tests.support.helpers import ids

    rules = get("kaptaishap")
    options = rules.options(sets=10)
    flat = ids(chinese(10), *["66"] * 19, "11", "44", "31")
    state = rules.deal_from(options, [flat[:10], flat[10:19]], flat[19:], sets=10)
    table = rules.table(state)
    chooser = random.Random("one kind")
    for verb in ("discard", "discard", "take"):
        seat = table.to_move()
        assert seat is not None
        action = table.scored_move(seat, chooser) if verb == "discard" else next(
            a for a in table.legal() if a.verb == "take" and a.tiles[0] in flat[:19])
        assert action.verb == verb
        table.play(action)
    assert table.taken is not None
    offered = rules.legal_actions(table.state())
    assert len(offered) == 1 and offered[0].tiles[0] != table.taken
    assert table.scored_move(table.turn, chooser) == offered[0]


def test_a_tile_more_never_makes_a_hand_lack_more():
    """The table weighs a take that brings the hand no closer only where no other take leaves
    a hand lacking fewer tiles than the draw's (`ScoredKapTable._open_best`): that rests on a
    hand with one tile more never lacking more, so that paying for such a take leaves a hand
    lacking at least what the hand lacks now."""
    from games.tens import missing
    from games.tiles import chinese

    rnd = random.Random("more")
    for sets, pairs in ((1, 3), (4, 4), (8, 4)):
        deck = chinese(sets).kind_of
        for four_two in (3, 6):
            for _ in range(400):
                kinds = [deck[t] for t in rnd.sample(range(len(deck)), 2 * pairs + 2)]
                whole = missing(kinds, pairs, four_two)
                for i in range(len(kinds)):
                    assert missing(kinds[:i] + kinds[i + 1:], pairs, four_two) >= whole, kinds


@pytest.mark.parametrize(("game", "values", "players"),
                         [("kapten", {"deal": "even"}, 2), ("kaptaishap", {"sets": 4}, 10)])
def test_a_deal_played_at_once_is_played_move_by_move(game, values, players):
    """The simulator plays a deal of heuristic seats in one loop (`play_scored`): the same moves,
    the same end and the generators left alike as the moves chosen one by one."""
    rules = get(game)
    played_alike(rules, rules.options(**values), players, 40, ScoredKapTable)


def test_a_hand_lacking_nothing_is_complete():
    """A read seat's hand, once grown to an eye and all its tens' size, is tested by its
    signature (`ScoredKapTable._won`): it lacks nothing exactly when the table's own test
    (`kap_table._complete`) finds it complete."""
    from games.kap_signatures import signatures
    from games.kap_table import _complete, _in_hand
    from games.tens import KINDS, digits
    from games.tiles import chinese

    rnd = random.Random("complete")
    for sets, pairs in ((1, 3), (4, 4), (8, 4)):
        kind_of = chinese(sets).kind_of
        copies = [kind_of.count(kind) for kind in range(KINDS)]
        for four_two in (3, 6):
            sig = signatures(pairs, four_two)
            digit = digits(four_two)
            by_digit = [[t for t in range(len(kind_of)) if digit[kind_of[t]] == r]
                        for r in range(10)]
            complete = 0
            for _ in range(3000):
                if rnd.random() < 0.5:
                    hand = rnd.sample(range(len(kind_of)), 2 * pairs + 2)
                else:
                    # An eye and tens, one tile of them perhaps swapped for another.
                    tiles = set(rnd.sample(range(len(kind_of)), len(kind_of)))
                    hand = []
                    eye = rnd.choice([t for t in tiles if copies[kind_of[t]] > 1])
                    twin = next(u for u in tiles if u != eye and kind_of[u] == kind_of[eye])
                    hand += [eye, twin]
                    while len(hand) < 2 * pairs + 2:
                        r = rnd.randrange(10)
                        a = [t for t in by_digit[r] if t not in hand]
                        b = [t for t in by_digit[(10 - r) % 10] if t not in hand]
                        if a and b and (a[0] != b[0] or len(a) > 1):
                            first = rnd.choice(a)
                            second = rnd.choice([t for t in b if t != first])
                            hand += [first, second]
                    if rnd.random() < 0.3:
                        hand[rnd.randrange(len(hand))] = rnd.choice(
                            [t for t in range(len(kind_of)) if t not in hand])
                counts = [0] * KINDS
                for t in hand:
                    counts[kind_of[t]] += 1
                whole = _complete(list(_in_hand(hand)), digit)
                complete += whole
                assert (sig.missing(sig.key(counts)) == 0) == whole, hand
            assert complete > 100
