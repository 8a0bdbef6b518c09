"""Kap Ten and Kap Tai Shap (docs/rules-book.md §2.6, §2.7, §3 rows 15–20, §5 KT-08 and KT-09,
decisions D-09, D-10, D-11).

Every case is a scripted deal (`deal_from`) played through the legal moves: the deal sizes, both
turn rules (Culin's take-any-then-draw, the classical take-the-last-or-draw), the first turn, what
may be taken and discarded, the three moments a hand wins, the void deal, the ante settlement and
the options. Each move is also checked for what its events reveal: a drawn tile is never named.
"""

from __future__ import annotations

import random

import pytest

from games import get
from games.engine import (
    Action,
    IllegalAction,
    InvalidOptions,
    Match,
    NotYourTurn,
    Outcome,
    play,
)
from games.kap import KapTaiShap, KapTen
from games.tiles import chinese
from tests.support.helpers import hidden_twin, ids

KT = KapTen()
KTS = KapTaiShap()
CULIN = KT.options()
CLASSICAL = KT.options(rules="classical")
A, B = 0, 1


def spec(tile: int) -> str:
    tiles = chinese(10)
    return f"{tiles.a[tile]}{tiles.b[tile]}"


def deal(rules, opts, hands, stock=(), leader=0, sets=None, match=None):
    """A scripted deal from kinds written "63"; a repeated kind takes the next copy."""
    n_sets = sets or rules.sets_for(opts, len(hands))
    flat = ids(chinese(n_sets), *[s for hand in hands for s in hand], *stock)
    split, at = [], 0
    for hand in hands:
        split.append(flat[at:at + len(hand)])
        at += len(hand)
    return rules.deal_from(opts, split, flat[at:], leader=leader, sets=sets, match=match)


def check_events(before, after, events):
    """Events name only face-up tiles: discards and takes, or the winner's revealed hand."""
    public = {t for t, _ in before.pile} | {t for t, _ in after.pile}
    for event in events:
        if event.kind == "draw":
            assert event.tiles == () and event.value is None
        elif event.kind == "win":
            assert event.tiles == after.hands[event.seat]
        else:
            assert set(event.tiles) <= public, event


def act(rules, state, verb, kind=None):
    """Apply the legal move with this verb (and this kind); it must be offered."""
    for action in rules.legal_actions(state):
        if action.verb == verb and (kind is None or spec(action.tiles[0]) == kind):
            new, events = rules.apply(state, action)
            check_events(state, new, events)
            return new, events
    raise AssertionError(f"{verb} {kind} is not offered: {rules.legal_actions(state)}")


def offered(rules, state, verb):
    return sorted(spec(a.tiles[0]) for a in rules.legal_actions(state) if a.verb == verb)


def refused(rules, state, verb, kind):
    """The move with a tile of this kind (from hand or pile) is refused, the state untouched."""
    everywhere = [*(t for h in state.hands for t in h), *(t for t, _ in state.pile),
                  *state.stock]
    tiles = [t for t in everywhere if spec(t) == kind]
    assert tiles, kind
    before = rules.dumps(state)
    for tile in tiles:
        with pytest.raises(IllegalAction):
            rules.apply(state, Action(verb, (tile,)))
    assert rules.dumps(state) == before


def kinds_of(tiles):
    return sorted(spec(t) for t in tiles)


# Two hands of all-different kinds: neither can hold an eye, so neither can win by accident.
P0 = ["62", "11", "41", "32", "52", "43", "61", "51"]
P1 = ["66", "44", "31", "55", "33", "22", "65"]
STOCK = ["64", "63", "54", "53", "42", "21", "66", "44"]
KT01 = ["22", "22", "65", "63", "33", "31", "66", "62"]
OTHER8 = ["11", "41", "32", "52", "43", "61", "51", "64"]
SMALL = ["64", "54", "21"]
"""A stock for deals that end at once (KT-01 and OTHER8[:7] leave these free)."""
W_STOCK = ["64", "54", "53", "42", "21"]
"""The first player's hand [6:2] + OTHER8[:7] and the second's KT-01 less [6:2] leave these."""


# ----- KT-08: deal sizes and sets --------------------------------------------------------------

def test_kt08_kap_ten_deal():
    for n in range(6):
        state = KT.new_deal(CULIN, 2, f"deal{n}")
        leader = state.leader
        assert len(state.hands[leader]) == 8 and len(state.hands[1 - leader]) == 7
        assert len(state.stock) == 17
        assert sorted([*state.hands[0], *state.hands[1], *state.stock]) == list(range(32))
        assert state.turn == leader and state.pile == () and state.sets == 1
    second = KT.new_deal(CULIN, 2, "x", Match.start(2, leader=1))
    assert [len(h) for h in second.hands] == [7, 8] and second.turn == 1


def test_kt08_kap_tai_shap_ten_players_four_sets():
    state = KTS.new_deal(KTS.options(), 10, "ten", Match.start(10, leader=3))
    assert state.sets == 4
    sizes = [len(h) for h in state.hands]
    assert sizes[3] == 10 and sizes.count(9) == 9
    assert sum(sizes) == 91 and len(state.stock) == 37
    assert sorted([*(t for h in state.hands for t in h), *state.stock]) == list(range(128))


@pytest.mark.parametrize(("players", "sets"), [(2, 1), (3, 2), (5, 2), (6, 3), (10, 4), (20, 8)])
def test_default_sets_two_per_five_players(players, sets):
    state = KTS.new_deal(KTS.options(), players, f"sets{players}")
    assert state.sets == sets
    assert len(state.stock) == 32 * sets - (9 * players + 1)
    everything = [*(t for h in state.hands for t in h), *state.stock]
    assert sorted(everything) == list(range(32 * sets))


def test_chosen_sets_and_too_few():
    state = KTS.new_deal(KTS.options(sets=5), 10, "five")
    assert state.sets == 5 and len(state.stock) == 160 - 91
    state = KTS.new_deal(KTS.options(sets=3), 10, "three")
    assert len(state.stock) == 5
    for players, sets in [(10, 2), (20, 5), (4, 1), (7, 2)]:
        # Not enough tiles to deal, or (7 players, 2 sets) none left to draw.
        with pytest.raises(InvalidOptions):
            KTS.new_deal(KTS.options(sets=sets), players, "few")


def test_player_counts():
    for players in (1, 3):
        with pytest.raises(InvalidOptions):
            KT.new_deal(CULIN, players, "x")
    for players in (1, 21):
        with pytest.raises(InvalidOptions):
            KTS.new_deal(KTS.options(), players, "x")


# ----- the first turn (D-11) ------------------------------------------------------------------

def test_culin_first_turn_discard_draw_discard():
    state = deal(KT, CULIN, [P0, P1], STOCK)
    assert KT.to_move(state) == A
    assert [a.verb for a in KT.legal_actions(state)] == ["discard"] * 8
    state, events = act(KT, state, "discard", "62")
    assert [e.kind for e in events] == ["discard", "draw"]
    assert kinds_of(state.hands[A]) == sorted([*P0[1:], "64"])
    assert len(state.stock) == len(STOCK) - 1
    assert KT.to_move(state) == A and offered(KT, state, "take") == []
    assert Action("draw") not in KT.legal_actions(state)
    state, events = act(KT, state, "discard", "41")
    assert [e.kind for e in events] == ["discard"]
    assert KT.to_move(state) == B and state.turns == 2
    assert len(state.hands[A]) == 7 and [spec(t) for t, _ in state.pile] == ["62", "41"]


def test_classical_first_turn_is_one_discard():
    state = deal(KT, CLASSICAL, [P0, P1], STOCK)
    assert [a.verb for a in KT.legal_actions(state)] == ["discard"] * 8
    state, events = act(KT, state, "discard", "62")
    assert [e.kind for e in events] == ["discard"]
    assert KT.to_move(state) == B and len(state.hands[A]) == 7
    assert len(state.stock) == len(STOCK)


# ----- KT-09: the two rule sets ---------------------------------------------------------------

def test_kt09_culin_takes_an_old_discard_then_draws():
    state = deal(KT, CULIN, [P0, P1], STOCK)
    state, _ = act(KT, state, "discard", "62")  # turn 1
    state, _ = act(KT, state, "discard", "41")
    state, _ = act(KT, state, "draw")  # turn 2: [6:3]
    state, _ = act(KT, state, "discard", "65")
    state, _ = act(KT, state, "draw")  # turn 3: [5:4]
    state, _ = act(KT, state, "discard", "32")
    assert KT.to_move(state) == B and state.turns == 4
    # Turn 4: any face-up discard may be taken, the one from turn 1 too.
    assert [spec(t) for t in KT.takeable(state)] == ["62", "41", "65", "32"]
    assert offered(KT, state, "take") == ["32", "41", "62", "65"]
    assert Action("draw") in KT.legal_actions(state)
    start = kinds_of(state.hands[B])
    stock = len(state.stock)
    state, events = act(KT, state, "take", "62")
    assert [e.kind for e in events] == ["take"] and state.done == ""
    assert [spec(t) for t, _ in state.pile] == ["41", "65", "32"]
    assert offered(KT, state, "take") == [] and Action("draw") not in KT.legal_actions(state)
    assert KT.takeable(state) == ()
    state, events = act(KT, state, "discard", "31")
    assert [e.kind for e in events] == ["discard", "draw"]  # the compulsory draw follows
    # Two tiles came in this turn: the old discard and the stock's [5:3].
    expected = sorted([k for k in start if k != "31"] + ["62", "53"])
    assert kinds_of(state.hands[B]) == expected and len(state.hands[B]) == 8
    assert len(state.stock) == stock - 1
    state, _ = act(KT, state, "discard", "53")
    assert KT.to_move(state) == A and state.turns == 5 and state.phase == "open"


def test_kt09_classical_only_the_last_discard_and_no_draw():
    state = deal(KT, CLASSICAL, [P0, P1], STOCK)
    state, _ = act(KT, state, "discard", "62")  # turn 1
    assert offered(KT, state, "take") == ["62"]
    state, _ = act(KT, state, "draw")  # turn 2: [6:4]
    assert offered(KT, state, "take") == []  # drew: no take as well
    assert KT.takeable(state) == () and KT.view(state, B).takeable == ()
    state, _ = act(KT, state, "discard", "65")
    state, _ = act(KT, state, "draw")  # turn 3: [6:3]
    state, _ = act(KT, state, "discard", "41")
    assert KT.to_move(state) == B and state.turns == 4
    assert [spec(t) for t in KT.takeable(state)] == ["41"]
    assert offered(KT, state, "take") == ["41"]
    refused(KT, state, "take", "62")  # three turns old
    refused(KT, state, "take", "65")  # his own, not the last
    stock = state.stock
    state, events = act(KT, state, "take", "41")
    assert [e.kind for e in events] == ["take"]
    assert len(state.hands[B]) == 8 and state.stock == stock
    assert [a.verb for a in KT.legal_actions(state)] == ["discard"] * 7
    with pytest.raises(IllegalAction):
        KT.apply(state, Action("draw"))
    state, events = act(KT, state, "discard", "33")
    assert [e.kind for e in events] == ["discard"] and state.stock == stock
    assert KT.to_move(state) == A and len(state.hands[B]) == 7


def test_culin_own_earlier_discard_may_be_taken():
    state = deal(KT, CULIN, [P0, P1], STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "discard", "41")
    state, _ = act(KT, state, "draw")
    state, _ = act(KT, state, "discard", "65")
    assert KT.to_move(state) == A
    assert offered(KT, state, "take") == ["41", "62", "65"]
    state, _ = act(KT, state, "take", "41")  # his own discard (D-10)
    assert "41" in kinds_of(state.hands[A]) and state.phase == "swap"


def test_classical_last_discard_is_never_ones_own():
    state = deal(KT, CLASSICAL, [P0, P1], STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "draw")
    state, _ = act(KT, state, "discard", "65")
    assert offered(KT, state, "take") == ["65"]
    refused(KT, state, "take", "62")


def test_taken_tile_is_not_discarded_straight_back():
    state = deal(KT, CULIN, [P0, P1], STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "discard", "41")
    state, _ = act(KT, state, "take", "62")
    assert "62" not in offered(KT, state, "discard")
    assert len(offered(KT, state, "discard")) == 7
    refused(KT, state, "discard", "62")
    state, _ = act(KT, state, "discard", "31")
    # After the compulsory draw the turn's last discard is "one tile": any of the eight.
    assert "62" in offered(KT, state, "discard") and len(offered(KT, state, "discard")) == 8
    state, _ = act(KT, state, "discard", "62")
    assert [spec(t) for t, _ in state.pile] == ["41", "31", "62"] and KT.to_move(state) == A

    state = deal(KT, CLASSICAL, [P0, P1], STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "take", "62")
    assert "62" not in offered(KT, state, "discard")
    refused(KT, state, "discard", "62")


def test_only_the_seat_to_move_may_act():
    state = deal(KT, CULIN, [P0, P1], STOCK)
    tile = state.hands[B][0]
    with pytest.raises(NotYourTurn):
        play(KT, state, B, Action("discard", (tile,)))
    refused(KT, state, "discard", "66")  # a tile B holds, not A


# ----- winning: after the deal, after a take, after a draw (D-10) -------------------------------

@pytest.mark.parametrize("opts", [CULIN, CLASSICAL])
@pytest.mark.parametrize("leader", [A, B])
def test_win_from_the_deal(opts, leader):
    hands = [KT01, OTHER8[:7]] if leader == A else [OTHER8[:7], KT01]
    state = deal(KT, opts, hands, SMALL, leader=leader)
    assert state.done == "won" and state.winner == leader and state.source == "deal"
    assert KT.to_move(state) is None and KT.legal_actions(state) == ()
    result = KT.outcome(state)
    deltas = (1, -1) if leader == A else (-1, 1)
    assert result == Outcome("tens", deltas, (leader,), deltas,
                             tuple("deal" if s == leader else "normal" for s in (A, B)))
    with pytest.raises(IllegalAction):
        KT.apply(state, Action("draw"))
    view = KT.view(state, None)
    eye, pairs = view.winning
    assert kinds_of(eye) == ["22", "22"]
    assert sorted(kinds_of(p) for p in pairs) == [["31", "33"], ["62", "66"], ["63", "65"]]


def test_seven_or_nine_tiles_never_win_from_the_deal():
    # The second player holds KT-01 less one tile: no win until he has eight.
    state = deal(KT, CULIN, [OTHER8, KT01[:7]], ["54", "53"])
    assert state.done == "" and KT.to_move(state) == A
    ten = ["22", "22", "65", "63", "33", "31", "66", "62", "55", "64"]
    hands = [["11", "41", "32", "52", "43", "61", "51", "64", "44", "53"], ten[:9]]
    state = deal(KTS, KTS.options(), hands, ["54"])
    assert state.done == ""


def test_win_after_a_take_culin():
    state = deal(KT, CULIN, [["62", *OTHER8[:7]], KT01[:7]], W_STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "discard", "41")
    state, events = act(KT, state, "take", "62")
    assert [e.kind for e in events] == ["take", "win", "end"]
    assert state.done == "won" and state.winner == B and state.source == "discard"
    assert KT.outcome(state).deltas == (-1, 1) and KT.to_move(state) is None
    assert len(state.hands[B]) == 8


def test_win_after_a_take_classical():
    state = deal(KT, CLASSICAL, [["62", *OTHER8[:7]], KT01[:7]], W_STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, events = act(KT, state, "take", "62")
    assert [e.kind for e in events] == ["take", "win", "end"]
    assert state.winner == B and state.source == "discard"
    assert KT.outcome(state).deltas == (-1, 1)


@pytest.mark.parametrize("opts", [CULIN, CLASSICAL])
def test_win_after_a_draw(opts):
    # Under Culin's rules the first player's first turn draws the stock's first tile.
    stock = ["54", "62", "53"] if opts is CULIN else ["62", "53"]
    state = deal(KT, opts, [OTHER8, KT01[:7]], stock)
    state, _ = act(KT, state, "discard", "41")
    if opts is CULIN:
        state, _ = act(KT, state, "discard", "32")
    state, events = act(KT, state, "draw")
    assert [e.kind for e in events] == ["draw", "win", "end"]
    assert state.winner == B and state.source == "stock" and state.done == "won"
    assert KT.outcome(state).deltas == (-1, 1)


def test_win_on_the_compulsory_draw_after_a_take():
    p0 = ["66", "11", "32", "52", "43", "61", "51", "64"]
    p1 = ["22", "22", "65", "63", "33", "31", "41"]
    state = deal(KT, CULIN, [p0, p1], ["54", "62", "53"])
    state, _ = act(KT, state, "discard", "66")
    state, _ = act(KT, state, "discard", "32")
    state, events = act(KT, state, "take", "66")
    assert [e.kind for e in events] == ["take"] and state.done == ""
    state, events = act(KT, state, "discard", "41")
    assert [e.kind for e in events] == ["discard", "draw", "win", "end"]
    assert state.winner == B and state.source == "stock"
    assert kinds_of(state.hands[B]) == sorted(KT01)


def test_first_player_wins_on_his_first_draw():
    hands = [[*KT01[:7], "41"], ["11", "32", "52", "43", "61", "51", "64"]]
    state = deal(KT, CULIN, hands, ["62", "53"])
    assert state.done == ""
    state, events = act(KT, state, "discard", "41")
    assert [e.kind for e in events] == ["discard", "draw", "win", "end"]
    assert state.winner == A and state.source == "stock"
    assert KT.outcome(state).deltas == (1, -1)
    # Under the classical rules the first turn has no draw: he holds seven and play passes.
    state = deal(KT, CLASSICAL, hands, ["62", "53"])
    state, events = act(KT, state, "discard", "41")
    assert [e.kind for e in events] == ["discard"] and KT.to_move(state) == B


def test_four_two_option():
    kt03 = ["11", "11", "42", "22", "64", "64", "55", "55"]
    other, stock = ["41", "32", "52", "43", "61", "51", "63"], ["54", "21", "53"]
    state = deal(KT, CULIN, [kt03, other], stock)
    assert state.done == "" and KT.to_move(state) == A
    six = KT.options(four_two=6)
    state = deal(KT, six, [kt03, other], stock)
    assert state.done == "won" and state.winner == A
    eye, _ = KT.view(state, A).winning
    assert kinds_of(eye) == ["11", "11"]
    kt02 = ["33", "33", "42", "61", "55", "55", "64", "64"]
    assert deal(KT, CULIN, [kt02, other], stock).done == "won"
    assert deal(KT, six, [kt02, other], stock).done == ""


def test_kap_tai_shap_military_eye_with_several_sets():
    hand = ["63", "63", "55", "64", "66", "62", "33", "22", "61", "42"]
    other = ["11", "41", "32", "52", "43", "51", "44", "53", "21"]
    opts = KTS.options(sets=4)
    state = deal(KTS, opts, [hand, other], ["54"], sets=4)
    assert state.done == "won" and state.winner == A and state.source == "deal"
    eye, pairs = KTS.view(state, B).winning
    assert kinds_of(eye) == ["63", "63"] and len(pairs) == 4


# ----- the void deal (D-09) --------------------------------------------------------------------

def test_stock_empty_at_turn_start_voids_culin():
    state = deal(KT, CULIN, [P1, P0], ["64"], leader=B)
    state, _ = act(KT, state, "discard", "62")
    assert state.stock == ()
    state, events = act(KT, state, "discard", "41")
    assert [e.kind for e in events] == ["discard", "void", "end"]
    assert state.done == "void" and state.winner is None and KT.to_move(state) is None
    assert KT.legal_actions(state) == ()
    assert KT.outcome(state) == Outcome("void", (0, 0), (), (0, 0))
    match = KT.next_match(state)
    assert match.leader == B and match.deal == 1 and match.chips == (0, 0)
    assert match.over is False


def test_stock_empty_at_turn_start_voids_classical():
    # Even though the last discard could be taken, a turn that starts on an empty stock ends it.
    state = deal(KT, CLASSICAL, [P0, P1], ["64"])
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "draw")
    assert state.stock == ()
    state, events = act(KT, state, "discard", "65")
    assert [e.kind for e in events] == ["discard", "void", "end"]
    assert KT.outcome(state).deltas == (0, 0) and KT.next_match(state).leader == A
    state = deal(KT, CLASSICAL, [P0, P1], [])
    state, events = act(KT, state, "discard", "62")
    assert [e.kind for e in events] == ["discard", "void", "end"]


def test_last_stock_tile_is_drawn_before_the_void():
    state = deal(KT, CULIN, [P0, P1], ["64", "63"])
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "discard", "41")
    assert len(state.stock) == 1 and KT.to_move(state) == B and state.done == ""
    state, _ = act(KT, state, "take", "62")
    state, events = act(KT, state, "discard", "31")
    assert [e.kind for e in events] == ["discard", "draw"] and state.stock == ()
    state, events = act(KT, state, "discard", "63")
    assert [e.kind for e in events] == ["discard", "void", "end"]


# ----- settlement and the match (D-09) ---------------------------------------------------------

def test_winner_collects_the_ante_and_leads_next():
    opts = KT.options(ante=5)
    state = deal(KT, opts, [["62", *OTHER8[:7]], KT01[:7]], W_STOCK)
    state, _ = act(KT, state, "discard", "62")
    state, _ = act(KT, state, "discard", "41")
    state, _ = act(KT, state, "take", "62")
    assert KT.outcome(state).deltas == (-5, 5)
    assert KT.view(state, A).pot == 10
    match = KT.next_match(state)
    assert match.leader == B and match.chips == (-5, 5) and match.deal == 1
    nxt = KT.new_deal(opts, 2, "next", match)
    assert nxt.leader == B and nxt.turn == B and [len(h) for h in nxt.hands] == [7, 8]


def test_kap_tai_shap_winner_collects_from_everyone():
    win = ["22", "22", "65", "63", "33", "31", "66", "62", "64", "55"]
    rest = [t for t in range(64) if t not in ids(chinese(2), *win)]
    opts = KTS.options(ante=2)
    hands = [list(rest[0:9]), list(rest[9:18]), ids(chinese(2), *win), list(rest[18:27])]
    state = KTS.deal_from(opts, hands, rest[27:], leader=2)
    assert state.winner == 2 and state.source == "deal"
    assert KTS.outcome(state).deltas == (-2, -2, 6, -2)
    assert KTS.next_match(state).leader == 2

    # A later hand wins on a draw: every other player pays, the first player too.
    p1 = win[:9]
    p0 = ["11", "41", "32", "52", "43", "61", "51", "44", "53", "54"]
    p2 = ["11", "41", "32", "52", "43", "61", "51", "44", "53"]
    state = deal(KTS, KTS.options(), [p0, p1, p2], ["21", "55", "42"])
    assert state.sets == 2
    state, _ = act(KTS, state, "discard", "54")
    state, _ = act(KTS, state, "discard", "41")
    state, events = act(KTS, state, "draw")
    assert [e.kind for e in events] == ["draw", "win", "end"]
    assert KTS.outcome(state).deltas == (-1, 2, -1) and KTS.next_match(state).leader == 1


def test_deals_option_ends_the_match():
    opts = KT.options(deals=2)
    assert KT.finite_match(opts) and not KT.finite_match(CULIN)
    state = deal(KT, opts, [KT01, OTHER8[:7]], SMALL)
    first = KT.next_match(state)
    assert first.over is False and first.winner is None and first.deal == 1
    state = deal(KT, opts, [KT01, OTHER8[:7]], SMALL, match=first)
    second = KT.next_match(state)
    assert second.over is True and second.winner == A
    assert second.chips == (2, -2) and second.deal == 2
    assert KT.next_match(deal(KT, CULIN, [KT01, OTHER8[:7]], SMALL,
                              match=first)).over is False


def test_next_match_needs_a_finished_deal():
    with pytest.raises(IllegalAction):
        KT.next_match(deal(KT, CULIN, [P0, P1], STOCK))


# ----- options ----------------------------------------------------------------------------------

def test_options():
    assert (CULIN.rules, CULIN.ante, CULIN.four_two, CULIN.deals) == ("culin", 1, 3, 0)
    assert KT.options("classical").rules == "classical"
    assert KTS.options().sets == 0
    for bad in ({"colour": "red"}, {"rules": "modern"}, {"four_two": 4}, {"four_two": "6"},
                {"ante": 0}, {"deals": -1}, {"sets": 4}):
        with pytest.raises(InvalidOptions):
            KT.options(**bad)
    for bad in ({"sets": 11}, {"sets": -1}, {"rules": "Culin"}):
        with pytest.raises(InvalidOptions):
            KTS.options(**bad)
    with pytest.raises(InvalidOptions):
        KT.options("western")
    assert KT.parse_options(None, {"four_two": "6"}).four_two == 6
    assert KT.parse_options(None, {"rules": "classical"}).rules == "classical"
    with pytest.raises(InvalidOptions):
        KT.parse_options(None, {"four_two": "six"})
    assert get("kapten") is not None and get("kapten").id == "kapten"
    assert get("kaptaishap").id == "kaptaishap"


# ----- what events and views show ---------------------------------------------------------------

@pytest.mark.parametrize(("rules", "opts", "players"),
                         [(KT, CULIN, 2), (KT, CLASSICAL, 2), (KTS, KTS.options(), 5),
                          (KTS, KTS.options(rules="classical"), 3)])
def test_events_and_views_never_show_hidden_tiles(rules, opts, players):
    rnd = random.Random(f"hidden/{rules.id}/{opts.rules}/{players}")
    for n in range(4):
        state = rules.new_deal(opts, players, f"hidden{n}")
        while rules.to_move(state) is not None:
            seat = rules.to_move(state)
            for looker in [None, *range(players)]:
                view = rules.view(state, looker)
                assert view.hand == (() if looker is None else state.hands[looker])
                assert view.stock == len(state.stock)
                assert view.legal == (rules.legal_actions(state) if looker == seat else ())
                assert rules.view(hidden_twin(state, looker, rnd), looker) == view
            action = rnd.choice(rules.legal_actions(state))
            new, events = rules.apply(state, action)
            check_events(state, new, events)
            state = new


def test_every_view_records_the_discards_a_seat_took_until_it_shows_them_again():
    """Everyone saw B take [6:2] and A take back its [4:1]: every view, the public one too,
    says so, per seat, for as long as the tile stays in that hand (A discards its [4:1]
    again at the end of the turn, and then it is on the table for all to see)."""
    state = deal(KT, CULIN, [P0, P1], STOCK)
    for kind in ("62", "41"):  # turn 1 (A)
        state, _ = act(KT, state, "discard", kind)
    state, _ = act(KT, state, "draw")  # turn 2 (B)
    state, _ = act(KT, state, "discard", "65")
    state, _ = act(KT, state, "draw")  # turn 3 (A)
    state, _ = act(KT, state, "discard", "32")
    assert all(KT.view(state, looker).took == ((), ()) for looker in (None, A, B))
    state, _ = act(KT, state, "take", "62")  # turn 4 (B)
    for kind in ("31", "53"):
        state, _ = act(KT, state, "discard", kind)
    (six_two,) = [t for t in state.hands[B] if spec(t) == "62"]
    assert all(KT.view(state, looker).took == ((), (six_two,)) for looker in (None, A, B))
    state, _ = act(KT, state, "take", "41")  # turn 5 (A): its own earlier discard
    (four_one,) = [t for t in state.hands[A] if spec(t) == "41"]
    assert KT.view(state, B).took == ((four_one,), (six_two,))
    state, _ = act(KT, state, "discard", "11")
    assert KT.view(state, None).took == ((four_one,), (six_two,))
    state, _ = act(KT, state, "discard", "41")
    assert four_one not in state.hands[A] and state.pile[-1] == (four_one, A)
    assert all(KT.view(state, looker).took == ((), (six_two,)) for looker in (None, A, B))
    assert KT.loads(KT.dumps(state)) == state


# ----- the even deal of the seed author's simulator (§3 row 20, §4.2) --------------------------

@pytest.mark.parametrize("rules_name", ["culin", "classical"])
def test_an_even_deal_gives_everyone_alike_and_opens_with_a_draw(rules_name):
    opts = KT.options(rules=rules_name, deal="even")
    state = KT.new_deal(opts, 2, "even", KT.start_match(opts, 2, "even", leader=1))
    assert [len(h) for h in state.hands] == [7, 7] and len(state.stock) == 18
    assert KT.legal_actions(state) == (Action("draw"),)
    state, events = KT.apply(state, Action("draw"))
    assert [e.kind for e in events] == ["draw"] and state.turn == 1
    assert len(state.hands[1]) == 8 and {a.verb for a in KT.legal_actions(state)} == {"discard"}
    state, _ = KT.apply(state, KT.legal_actions(state)[0])
    assert state.turn == 0 and state.turns == 2 and state.phase == "open"
    opts10 = KTS.options(rules=rules_name, deal="even")
    big = KTS.new_deal(opts10, 10, "even10", KTS.start_match(opts10, 10, "even10", leader=0))
    assert [len(h) for h in big.hands] == [9] * 10 and len(big.stock) == 128 - 90


def test_an_even_scripted_deal_wants_equal_hands():
    opts = KT.options(deal="even")
    with pytest.raises(InvalidOptions):
        deal(KT, opts, [P0, P1], ["64"])
    state = deal(KT, opts, [P0[:7], P1], ["64"])
    assert state.phase == "open" and KT.legal_actions(state) == (Action("draw"),)


def test_an_identical_copy_does_not_go_back_either():
    """Taking [6:6] and discarding one's own [6:6] would put the same tile back (D-10)."""
    for opts in (CULIN, CLASSICAL):
        state = deal(KT, opts, [["66", *P0[1:]], P1], [t for t in STOCK if t != "66"])
        state, _ = act(KT, state, "discard", "66")
        if opts is CULIN:
            state, _ = act(KT, state, "discard", "41")
        state, _ = act(KT, state, "take", "66")
        assert [spec(t) for t in state.hands[B]].count("66") == 2
        assert offered(KT, state, "discard") == ["22", "31", "33", "44", "55", "65"]
        refused(KT, state, "discard", "66")


def test_a_hand_of_one_kind_may_still_pay_for_a_take():
    """With ten sets a hand can be all [6:6]: taking one more leaves only copies to give."""
    opts = KTS.options(sets=10)
    state = deal(KTS, opts, [["66"] * 10, ["66"] * 9], ["11", "44", "31"], sets=10)
    state, _ = act(KTS, state, "discard", "66")
    state, _ = act(KTS, state, "discard", "11")
    state, _ = act(KTS, state, "take", "66")
    discards = KTS.legal_actions(state)
    assert discards and {spec(a.tiles[0]) for a in discards} == {"66"}
    assert all(a.tiles[0] != state.taken for a in discards)
