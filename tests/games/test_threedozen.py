"""Three Dozen (docs/rules-book.md §1.2, §2.9, §3 rows 28–29, §5 TD-01, TD-05, TD-07, decision
D-15).

The pairs are checked against a list built here from the two rules; the worked examples and the
rest of §2.9 (the lead's first turn, compulsory laying, the immediate win, permanent pairs, who may
take a discard, the reshuffle of every discard, the stakes and who leads next) are played through
scripted positions (`deal_from`) and the legal moves.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from games.dozen_pairs import PARTNERS, is_pair
from games.engine import (
    Action,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    Outcome,
    play,
)
from games.threedozen import ThreeDozen
from games.tiles import WESTERN as W
from tests.support.helpers import hidden_twin

TD = ThreeDozen()
OPTS = TD.options()
FORCED = TD.options(pickup="forced")
A, B, C, D = 0, 1, 2, 3


def w(*specs: str) -> list[int]:
    return [W.one(s) for s in specs]


def spec(tile: int) -> str:
    return f"{W.a[tile]}{W.b[tile]}"


def specs(tiles) -> list[str]:
    return sorted(spec(t) for t in tiles)


def pair_specs(pairs) -> list[list[str]]:
    return sorted(specs(p) for p in pairs)


def moves(state, verb) -> list[list[str]]:
    return sorted(specs(a.tiles) for a in TD.legal_actions(state) if a.verb == verb)


def act(state, verb, *kinds):
    want = sorted(kinds)
    for action in TD.legal_actions(state):
        if action.verb == verb and (not kinds or specs(action.tiles) == want):
            new, events = TD.apply(state, action)
            for event in events:
                if event.kind == "draw":
                    assert event.tiles == () and event.value is None
            return new, events
    raise AssertionError(f"{verb} {kinds} is not offered: {TD.legal_actions(state)}")


def refused(state, action):
    before = TD.dumps(state)
    with pytest.raises(IllegalAction):
        TD.apply(state, action)
    assert TD.dumps(state) == before


def all_tiles(state) -> list[int]:
    found = [t for hand in state.hands for t in hand] + list(state.stock)
    found += [t for t, _ in state.pile]
    found += [t for seat in state.melds for pair in seat for t in pair]
    return sorted(found)


# ----- TD-01: the pairs ----------------------------------------------------------------------

def by_the_rules(a: int, b: int) -> bool:
    """§2.9: two consecutive doubles, or two tiles whose pips add up to twelve."""
    doubles = W.a[a] == W.b[a] and W.a[b] == W.b[b]
    return (doubles and abs(W.a[a] - W.a[b]) == 1) or W.pips[a] + W.pips[b] == 12


def test_td01_partners_of_long_three():
    assert specs(PARTNERS[W.one("33")]) == sorted(["44", "22", "60", "51", "42"])
    assert is_pair(*w("44", "22"))  # by pips, not as consecutive doubles


def test_forty_pairs():
    pairs = [(a, b) for a, b in combinations(range(28), 2) if by_the_rules(a, b)]
    twelves = [p for p in pairs if W.pips[p[0]] + W.pips[p[1]] == 12]
    doubles = [p for p in pairs if p not in twelves]
    assert (len(pairs), len(twelves), len(doubles)) == (40, 34, 6)
    assert pair_specs(doubles) == [["00", "11"], ["11", "22"], ["22", "33"], ["33", "44"],
                                   ["44", "55"], ["55", "66"]]
    for a, b in combinations(range(28), 2):
        assert is_pair(a, b) is by_the_rules(a, b) is is_pair(b, a), (spec(a), spec(b))
    for a in range(28):
        assert sorted(PARTNERS[a]) == sorted(b for b in range(28) if b != a
                                             and by_the_rules(a, b))
    assert is_pair(*w("66", "00"))  # §3 row 29: the wrap is moot, they make twelve anyway
    assert not is_pair(*w("00", "22")) and not is_pair(*w("65", "65"))


# ----- dealing ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "stock"), [(2, 17), (3, 12), (4, 7), (5, 2)])
def test_deal_sizes(players, stock):
    for n in range(5):
        state = TD.new_deal(OPTS, players, f"deal{n}")
        leader = state.leader
        assert len(state.stock) == stock
        assert all_tiles(state) == list(range(28))
        for seat in range(players):
            held = len(state.hands[seat]) + 2 * len(state.melds[seat])
            assert held == (6 if seat == leader else 5)
        assert state.pile == () and state.turn == leader


def test_player_counts():
    for players in (1, 6):
        with pytest.raises(InvalidOptions):
            TD.new_deal(OPTS, players, "x")


def test_options():
    assert (OPTS.pickup, OPTS.stake, OPTS.deals) == ("optional", 1, 0)
    assert TD.options("forced-pickup").pickup == "forced"
    for bad in ({"pickup": "never"}, {"stake": 0}, {"colour": 1}, {"deals": -1}):
        with pytest.raises(InvalidOptions):
            TD.options(**bad)


# ----- the lead's first turn ------------------------------------------------------------------

@pytest.mark.parametrize(("lead", "pairs"), [
    # [4:4][3:3] or [3:3][2:2] would be consecutive doubles that leave the rest unpaired; the
    # hand wins all the same, as [4:4][2:2], [3:3][6:0], [5:2][4:1].
    (["44", "33", "60", "22", "52", "41"], [["22", "44"], ["33", "60"], ["41", "52"]]),
    # [5:5][4:4] would leave [2:0] with no partner: [5:5][2:0], [4:4][4:0], [4:2][3:3].
    (["55", "44", "20", "40", "42", "33"], [["20", "55"], ["33", "42"], ["40", "44"]]),
])
def test_lead_with_three_pairs_wins_from_the_deal(lead, pairs):
    rest = [t for t in range(28) if t not in w(*lead)]
    hands = [rest[0:5], w(*lead), rest[5:10]]
    state = TD.deal_from(OPTS, hands, rest[10:12], leader=B)
    assert TD.to_move(state) is None and state.winner == B and state.source == "deal"
    assert state.hands[B] == ()
    assert pair_specs(state.melds[B]) == pairs
    assert TD.outcome(state) == Outcome("three-pairs", (0, 3, 0), (B,), (-1, 2, -1),
                                        ("normal", "deal", "normal"))
    assert TD.legal_actions(state) == ()
    refused(state, Action("discard", (rest[0],)))
    match = TD.next_match(state)
    assert match.leader == B and match.chips == (-1, 2, -1)
    nxt = TD.new_deal(OPTS, 3, "next", match)
    assert nxt.leader == B and nxt.turn == B
    assert len(nxt.hands[B]) + 2 * len(nxt.melds[B]) == 6


def test_laying_a_pair_is_compulsory_and_the_player_chooses():
    hands = [w("33", "44", "60", "10", "21", "53"), w("00", "20", "30", "31", "32")]
    base = TD.deal_from(OPTS, hands, w("40", "41", "42"))
    assert base.phase == "meld"
    assert moves(base, "meld") == [["33", "44"], ["33", "60"]]
    assert moves(base, "discard") == [] and moves(base, "draw") == []
    refused(base, Action("discard", (W.one("10"),)))

    state, events = act(base, "meld", "33", "60")
    assert [e.kind for e in events] == ["meld"]
    assert pair_specs(state.melds[A]) == [["33", "60"]]
    assert specs(state.hands[A]) == sorted(["44", "10", "21", "53"])
    assert moves(state, "meld") == [] and len(moves(state, "discard")) == 4

    state, _ = act(base, "meld", "33", "44")
    assert pair_specs(state.melds[A]) == [["33", "44"]]
    assert specs(state.hands[A]) == sorted(["60", "10", "21", "53"])
    assert moves(state, "meld") == []


def test_every_pair_held_is_laid():
    hands = [w("33", "44", "65", "10", "21", "53"), w("00", "20", "30", "31", "32")]
    state = TD.deal_from(OPTS, hands, w("40", "41", "42"))
    state, _ = act(state, "meld", "33", "44")
    assert state.phase == "meld" and moves(state, "meld") == [["10", "65"]]
    refused(state, Action("discard", (W.one("21"),)))
    state, _ = act(state, "meld", "10", "65")
    assert state.phase == "discard" and moves(state, "discard") == [["21"], ["53"]]
    state, events = act(state, "discard", "53")
    assert [e.kind for e in events] == ["discard"]
    assert TD.to_move(state) == B and state.phase == "open"
    assert len(state.hands[A]) == 1 and len(state.melds[A]) == 2


def test_laid_pairs_stay_laid():
    hands = [w("33", "44", "60", "10", "21", "53"), w("00", "20", "30", "31", "32")]
    state = TD.deal_from(OPTS, hands, w("40", "41", "42", "50"))
    state, _ = act(state, "meld", "33", "60")
    state, _ = act(state, "discard", "10")
    laid = state.melds[A]
    state, _ = act(state, "draw")  # B: [4:0]
    state, _ = act(state, "discard", "40")
    assert state.melds[A] == laid
    state, _ = act(state, "draw")  # A: [4:1]
    assert state.melds[A] == laid
    # [4:4] with [4:1]? no: 8 + 5. The laid [3:3] is not in the hand to pair or discard.
    assert moves(state, "meld") == []
    assert ["33"] not in moves(state, "discard") and ["60"] not in moves(state, "discard")
    refused(state, Action("discard", (W.one("33"),)))
    refused(state, Action("discard", (W.one("60"),)))
    state, _ = act(state, "discard", "41")
    assert state.melds[A] == laid


# ----- TD-07: taking the last discard ---------------------------------------------------------

A6 = ["10", "20", "21", "30", "31", "40"]
"""A lead hand with no pair in it (no two add up to twelve, no doubles)."""
B_WITH = ["65", "41", "32", "00", "22"]
B_WITHOUT = ["64", "41", "32", "00", "22"]


def after_lead_discards_one_zero(b_hand, opts=OPTS, stock=("43", "66")):
    state = TD.deal_from(opts, [w(*A6), w(*b_hand)], w(*stock))
    assert state.phase == "discard"
    state, _ = act(state, "discard", "10")
    assert TD.to_move(state) == B and [spec(t) for t in TD.takeable(state)] == ["10"]
    return state


def test_td07_take_the_discard_and_lay_the_pair():
    state = after_lead_discards_one_zero(B_WITH)
    assert moves(state, "take") == [["10", "65"]]
    assert Action("draw") in TD.legal_actions(state)  # taking is optional (D-15)
    state, events = act(state, "take", "10", "65")
    assert [e.kind for e in events] == ["take"]
    assert pair_specs(state.melds[B]) == [["10", "65"]]  # laid out at once
    assert specs(state.hands[B]) == sorted(["41", "32", "00", "22"])
    assert state.pile == () and len(state.stock) == 2
    assert state.phase == "discard" and moves(state, "take") == []


def test_td07_a_discard_that_pairs_may_be_left():
    state = after_lead_discards_one_zero(B_WITH)
    state, events = act(state, "draw")  # [4:3]: pairs with [4:1] or [3:2]
    assert [e.kind for e in events] == ["draw"]
    assert state.phase == "meld" and moves(state, "meld") == [["32", "43"], ["41", "43"]]
    assert moves(state, "take") == [] and moves(state, "discard") == []
    state, _ = act(state, "meld", "41", "43")
    assert state.phase == "discard"
    assert [spec(t) for t, _ in state.pile] == ["10"]  # the untaken discard stays face up


def test_td07_without_a_partner_must_draw():
    state = after_lead_discards_one_zero(B_WITHOUT)
    assert TD.legal_actions(state) == (Action("draw"),)
    refused(state, Action("take", tuple(w("10", "64"))))
    refused(state, Action("take", tuple(w("10", "41"))))
    state, _ = act(state, "draw")
    assert "43" in specs(state.hands[B])


def test_forced_pickup_option():
    state = after_lead_discards_one_zero(B_WITH, FORCED)
    assert TD.legal_actions(state) == (Action("take", tuple(w("10", "65"))),)
    refused(state, Action("draw"))
    state = after_lead_discards_one_zero(B_WITHOUT, FORCED)
    assert TD.legal_actions(state) == (Action("draw"),)


def test_only_the_next_player_may_take():
    hands = [w(*A6), w(*B_WITHOUT), w("65", "11", "33", "43", "53")]
    state = TD.deal_from(OPTS, hands, w("60", "66", "55"))
    state, _ = act(state, "discard", "10")
    assert TD.to_move(state) == B
    with pytest.raises(NotYourTurn):
        play(TD, state, C, Action("take", tuple(w("10", "65"))))
    state, _ = act(state, "draw")  # [6:0]
    state, _ = act(state, "discard", "60")
    # C holds [6:5] for A's [1:0], but only B's [6:0] is his to take now.
    assert TD.to_move(state) == C and [spec(t) for t in TD.takeable(state)] == ["60"]
    assert moves(state, "take") == [["33", "60"]]
    refused(state, Action("take", tuple(w("10", "65"))))


# ----- TD-05: stakes ---------------------------------------------------------------------------

def td05(pile_tile: str, stock, opts=OPTS):
    """4 players; B has laid two pairs and holds [6:5]; A has just discarded `pile_tile`."""
    hands = [w("11", "21", "31", "32", "22"), w("65"), w("33", "40", "41", "42", "43"),
             w("44", "50", "51", "52", "53")]
    melds = [[], [tuple(w("66", "00")), tuple(w("55", "20"))], [], []]
    return TD.deal_from(opts, hands, w(*stock), turn=B, pile=[(W.one(pile_tile), A)],
                        melds=melds)


def test_td05_win_on_the_predecessors_discard():
    state = td05("10", ["54", "60"])
    state, events = act(state, "take", "10", "65")
    assert [e.kind for e in events] == ["take", "win", "end"]
    assert state.winner == B and state.source == "discard" and TD.to_move(state) is None
    assert len(state.melds[B]) == 3 and state.hands[B] == ()
    result = TD.outcome(state)
    assert result.deltas == (-1, 1, 0, 0) and result.winners == (B,)
    assert result.labels == ("normal", "discard", "normal", "normal")
    stake3 = td05("10", ["54", "60"], TD.options(stake=3))
    stake3, _ = act(stake3, "take", "10", "65")
    assert TD.outcome(stake3).deltas == (-3, 3, 0, 0)


def test_td05_win_by_a_stock_draw():
    state = td05("30", ["10", "54"])
    assert TD.legal_actions(state) == (Action("draw"),)  # [3:0] does not pair [6:5]
    state, events = act(state, "draw")
    assert [e.kind for e in events] == ["draw", "meld", "win", "end"]
    assert state.winner == B and state.source == "stock"
    assert pair_specs(state.melds[B]) == [["00", "66"], ["10", "65"], ["20", "55"]]
    assert state.hands[B] == ()
    assert TD.outcome(state).deltas == (-1, 3, -1, -1)
    stake2 = td05("30", ["10", "54"], TD.options(stake=2))
    stake2, _ = act(stake2, "draw")
    assert TD.outcome(stake2).deltas == (-2, 6, -2, -2)


def test_discard_win_pays_the_seat_before_across_the_wrap():
    hands = [w("65"), w("11", "21", "31", "32", "22"), w("33", "40", "41", "42", "43"),
             w("44", "50", "51", "52", "53")]
    melds = [[tuple(w("66", "00")), tuple(w("55", "20"))], [], [], []]
    state = TD.deal_from(OPTS, hands, w("54"), leader=B, turn=A,
                         pile=[(W.one("10"), D)], melds=melds)
    state, _ = act(state, "take", "10", "65")
    assert TD.outcome(state).deltas == (1, 0, 0, -1)


def test_previous_winner_leads_the_next_deal():
    state = td05("10", ["54", "60"])
    state, _ = act(state, "take", "10", "65")
    match = TD.next_match(state)
    assert match.leader == B and match.chips == (-1, 1, 0, 0) and match.deal == 1
    assert match.over is False
    nxt = TD.new_deal(OPTS, 4, "second", match)
    assert nxt.leader == B
    assert len(nxt.hands[B]) + 2 * len(nxt.melds[B]) == 6
    assert [len(h) for s, h in enumerate(nxt.hands) if s != B] == [5, 5, 5]


def test_deals_option_ends_the_match():
    opts = TD.options(deals=1)
    assert TD.finite_match(opts) and not TD.finite_match(OPTS)
    state = td05("10", ["54", "60"], opts)
    state, _ = act(state, "take", "10", "65")
    match = TD.next_match(state)
    assert match.over is True and match.winner == B


def test_next_match_needs_a_finished_deal():
    with pytest.raises(IllegalAction):
        TD.next_match(td05("10", ["54"]))


# ----- the empty stock: every discard is shuffled into a new one (D-15) -------------------------

def reshuffle_position(seed="scripted"):
    """B to move with an empty stock; four discards face up, the last ([1:0]) untaken though B
    holds [6:5] for it."""
    hands = [w("11", "21", "30", "31", "33"), w(*B_WITH), w("40", "42", "43", "44", "50")]
    pile = [(W.one("60"), A), (W.one("64"), B), (W.one("63"), C), (W.one("10"), A)]
    return TD.deal_from(OPTS, hands, (), turn=B, pile=pile, seed=seed)


def test_empty_stock_reshuffles_every_discard():
    state = reshuffle_position()
    deck = all_tiles(state)
    assert moves(state, "take") == [["10", "65"]]
    new, events = act(state, "draw")
    assert [(e.kind, e.value) for e in events[:2]] == [("reshuffle", 4), ("draw", None)]
    assert new.reshuffles == 1 and new.pile == ()
    (drawn,) = set(new.hands[B]) - set(state.hands[B])
    assert len(new.stock) == 3
    assert sorted([drawn, *new.stock]) == sorted(w("60", "64", "63", "10"))
    assert all_tiles(new) == deck
    # The same seed shuffles the same way; other seeds give other orders.
    again, _ = act(reshuffle_position(), "draw")
    assert again == new
    orders = set()
    for n in range(12):
        other, _ = act(reshuffle_position(f"seed{n}"), "draw")
        (first,) = set(other.hands[B]) - set(state.hands[B])
        orders.add((first, *other.stock))
    assert len(orders) >= 4


def test_every_view_names_the_discards_a_reshuffle_put_into_the_stock():
    """Everyone saw the four discards go into the new stock: every tile it holds from then on
    is one of them, and every view, the public one too, says which (until the next
    reshuffle), and how many of them each hand holds: those drawn since, less those shown."""
    state = reshuffle_position()
    assert all(TD.view(state, looker).restocked == () for looker in (None, A, B, C))
    state, _ = act(state, "draw")
    reshuffled = tuple(sorted(w("60", "64", "63", "10")))
    assert state.restocked == reshuffled and set(state.stock) <= set(reshuffled)
    assert all(TD.view(state, looker).restocked == reshuffled for looker in (None, A, B, C))
    # B drew one of them: every view says B holds one, and nobody else any.
    assert all(TD.view(state, looker).restocked_held == (0, 1, 0)
               for looker in (None, A, B, C))
    if state.phase == "meld":
        state, _ = act(state, "meld")
    (drawn,) = set(state.hands[B]) & set(reshuffled) or {None}
    tile = drawn if drawn is not None else state.hands[B][0]
    state, _ = TD.apply(state, Action("discard", (tile,)))
    assert state.restocked_held == (0, 0, 0) == TD.view(state, C).restocked_held
    assert TD.loads(TD.dumps(state)) == state


def test_play_goes_on_after_a_reshuffle():
    state, _ = act(reshuffle_position(), "draw")
    if state.phase == "meld":
        state, _ = act(state, "meld")
    tile = state.hands[B][0]
    state, _ = TD.apply(state, Action("discard", (tile,)))
    assert TD.to_move(state) == C and state.pile == ((tile, B),)
    state, _ = act(state, "draw")
    assert len(state.stock) == 2 and state.reshuffles == 1


# ----- what views show ---------------------------------------------------------------------------

def test_views_hide_hands_and_stock():
    rnd = random.Random("views")
    for n in range(4):
        state = TD.new_deal(OPTS, 4, f"views{n}")
        while TD.to_move(state) is not None:
            for looker in [None, 0, 1, 2, 3]:
                view = TD.view(state, looker)
                assert view.hand == (() if looker is None else state.hands[looker])
                assert view.stock == len(state.stock) and view.melds == state.melds
                assert TD.view(hidden_twin(state, looker, rnd), looker) == view
            action = rnd.choice(TD.legal_actions(state))
            state, events = TD.apply(state, action)
            assert all(e.tiles == () for e in events if e.kind == "draw")
        assert sum(TD.outcome(state).deltas) == 0
