"""Worked examples for the connecting games (docs/rules-book.md §5: DR, CD, TL) and their
options."""

import dataclasses

import pytest

from games import get
from games.engine import IllegalAction, Match, Payment
from games.settlement import deltas_of, pairwise
from games.tiles import CHINESE
from tests.support.helpers import finished, ids

dragon, cedeng, tails = get("dragon"), get("cedeng"), get("tails")


def act(rules, state, verb, spec=None, arg=None):
    """Apply the legal action that uses the first held copy of kind `spec`."""
    for action in rules.legal_actions(state):
        if action.verb != verb or action.arg != arg:
            continue
        if spec is None or CHINESE.kind(action.tiles[0]).label == f"[{spec[0]}:{spec[1]}]":
            return rules.apply(state, action)[0]
    raise AssertionError(f"{verb} {spec} {arg} not legal: {rules.legal_actions(state)}")


def labels(actions):
    return sorted((a.verb, CHINESE.kind(a.tiles[0]).label, a.arg) for a in actions)


# ----- Dragon ---------------------------------------------------------------------------------

def test_classic_settlement_dr01():
    # The seed's pairwise payments: each pair settles the difference, the higher score paying.
    paid = pairwise([2, 12, 34, 18])
    assert paid == (Payment(1, 0, 10), Payment(2, 0, 32), Payment(2, 1, 22), Payment(2, 3, 16),
                    Payment(3, 0, 16), Payment(3, 1, 6))
    assert deltas_of(4, paid) == (58, 18, -70, -6)
    state = finished(dragon, dragon.options(),
                     [["11"], ["66"], ["66", "55", "64", "11"], ["65", "61"]])
    result = dragon.outcome(state)
    assert result.points == (2, 12, 34, 18)
    assert result.deltas == (58, 18, -70, -6)
    assert result.payments == paid
    assert result.winners == (0,)


def test_compulsory_play_dr04():
    opts = dragon.options()
    state = dragon.deal_from(opts, [ids(CHINESE, "31", "66"), ids(CHINESE, "63", "33", "51", "42")])
    state = act(dragon, state, "lead", "31", 3)
    assert state.ends == (3,) and state.closed == 1
    legal = dragon.legal_actions(state)
    assert labels(legal) == [("play", "[3:3]", 0), ("play", "[6:3]", 0)]
    drop = dataclasses.replace(legal[0], verb="drop", arg=None)
    with pytest.raises(IllegalAction):
        dragon.apply(state, drop)
    assert act(dragon, state, "play", "63", 0).ends == (6,)
    assert act(dragon, state, "play", "33", 0).ends == (3,)


def test_unable_to_play_discards_one_face_down_dr05():
    opts = dragon.options()
    state = dragon.deal_from(opts, [ids(CHINESE, "22", "21"), ids(CHINESE, "66", "51")])
    state = act(dragon, state, "lead", "22", 2)
    assert labels(dragon.legal_actions(state)) == [("drop", "[5:1]", None),
                                                   ("drop", "[6:6]", None)]
    after = act(dragon, state, "drop", "66")
    assert after.discards[1] == tuple(ids(CHINESE, "66"))
    assert dragon.view(after, 0).discards[1] == ()  # face down: the others do not see it
    assert dragon.view(after, 0).discard_counts[1] == 1


def test_block_counts_tiles_left_in_hand_dr09():
    opts = dragon.options()
    state = dragon.deal_from(opts, [ids(CHINESE, "41", "66"), ids(CHINESE, "55", "33")])
    state = act(dragon, state, "lead", "41", 4)
    result = dragon.outcome(state)
    assert result.reason == "blocked"
    assert result.points == (12, 16)
    assert result.deltas == (4, -4) and result.winners == (0,)
    assert dragon.to_move(state) is None


def test_deal_sizes_dr11():
    for players, size, unused in ((2, 16, 0), (3, 10, 2), (4, 8, 0)):
        state = dragon.new_deal(dragon.options(), players, "sizes")
        assert [len(h) for h in state.hands] == [size] * players
        assert len(state.unused) == unused
    three = dragon.new_deal(dragon.options(), 3, "sizes")
    assert dragon.view(three, None).unused == 2


def test_lower_hand_wins_ties_and_leads_next():
    state = finished(dragon, dragon.options(), [["55"], ["64"], ["66"], ["65"]], leader=2)
    result = dragon.outcome(state)
    assert result.points == (10, 10, 12, 11)
    assert result.winners == (0,)  # hands: seat 2 is hand 1, seat 3 hand 2, seat 0 hand 3
    assert dragon.next_match(state).leader == 0
    rotate = dataclasses.replace(state, options=dragon.options(lead="rotate"))
    assert dragon.next_match(rotate).leader == 3


def test_one_chip_option():
    state = finished(dragon, dragon.options(preset="chips"), [["11"], ["66"], ["55"], ["64"]])
    assert dragon.outcome(state).deltas == (3, -1, -1, -1)


def test_two_arms_d17():
    opts = dragon.options(preset="two-arm")
    state = dragon.deal_from(opts, [ids(CHINESE, "63", "44"), ids(CHINESE, "61", "32")])
    assert labels(dragon.legal_actions(state)) == [("lead", "[4:4]", None), ("lead", "[6:3]", None)]
    state = act(dragon, state, "lead", "63")
    assert state.ends == (6, 3)
    assert labels(dragon.legal_actions(state)) == [("play", "[3:2]", 1), ("play", "[6:1]", 0)]
    left = act(dragon, state, "play", "61", 0)
    assert left.ends == (1, 3)
    assert [(a, b) for _, a, b, _ in left.line] == [(1, 6), (6, 3)]
    right = act(dragon, state, "play", "32", 1)
    assert right.ends == (6, 2)
    assert [(a, b) for _, a, b, _ in right.line] == [(6, 3), (3, 2)]


def test_clean_bonus_doubles_the_others_option():
    plain = finished(dragon, dragon.options(arms=2), [[], ["55"], ["64"], ["66"]])
    bonus = finished(dragon, dragon.options(preset="dancing"), [[], ["55"], ["64"], ["66"]])
    assert dragon.outcome(plain).points == (0, 10, 10, 12)
    assert dragon.outcome(bonus).points == (0, 20, 20, 24)
    assert dragon.outcome(bonus).payments == pairwise([0, 20, 20, 24])
    assert dragon.outcome(bonus).deltas == deltas_of(4, pairwise([0, 20, 20, 24]))


def test_tally_match_pays_at_the_end():
    opts = dragon.options(settlement="tally", target=30)
    match = Match(players=4, scores=(20, 5, 5, 5), chips=(0,) * 4)
    state = finished(dragon, opts, [["55"], ["11"], ["22"], ["33"]])
    early = dataclasses.replace(state, match=dataclasses.replace(match, scores=(0,) * 4))
    assert dragon.outcome(early).deltas == (0, 0, 0, 0)
    assert not dragon.next_match(early).over
    late = dataclasses.replace(state, match=match)
    assert dragon.outcome(late).deltas == (-1, 3, -1, -1)  # totals 30, 7, 9, 11
    after = dragon.next_match(late)
    assert after.over and after.winner == 1 and after.scores == (30, 7, 9, 11)


def test_fixed_number_of_deals_ends_the_match():
    opts = dragon.options(deals=2)
    state = finished(dragon, opts, [["55"], ["11"], ["22"], ["33"]])
    assert not dragon.next_match(state).over
    last = dataclasses.replace(state, match=dataclasses.replace(state.match, deal=1))
    assert dragon.next_match(last).over


# ----- Ce Deng --------------------------------------------------------------------------------

CD01 = [["11", "11", "31", "31", "33", "55", "66"], [], ["41", "32"], ["21", "42", "33"]]


def test_bonuses_and_penalties_cd01():
    state = finished(cedeng, cedeng.options(), CD01, leader=0)
    result = cedeng.outcome(state)
    assert result.points == (40, 0, 10, 15)
    assert result.labels == ("penalized", "clean", "normal", "normal")
    assert result.deltas == (-270, 210, 45, 15)
    assert cedeng.next_match(state).leader == 1


def test_tail_with_seven_discards_cd05():
    discards = [["55"], ["11", "11", "22", "22", "31", "31", "33"], ["44"], ["66"]]
    default = finished(cedeng, cedeng.options(), discards)
    strict = finished(cedeng, cedeng.options(preset="strict"), discards)
    assert cedeng.statuses(default)[1] == "normal"
    assert cedeng.statuses(strict)[1] == "penalized"
    head_six = [["11", "11", "22", "22", "31", "31"], ["55"], ["44"], ["66"]]
    assert cedeng.statuses(finished(cedeng, cedeng.options(), head_six))[0] == "normal"
    assert cedeng.statuses(finished(cedeng, cedeng.options(penalty="6-7"), head_six))[0] == (
        "penalized")
    all_eight = [["55"], ["11", "11", "22", "22", "31", "31", "33", "44"], ["44"], ["66"]]
    assert cedeng.statuses(finished(cedeng, cedeng.options(), all_eight))[1] == "penalized"


def test_block_counts_hand_tiles_for_head_and_tail_d03():
    state = finished(cedeng, cedeng.options(),
                     [["55"], ["11", "11", "22", "22", "31"], ["44"], ["66"]])
    held = tuple(ids(CHINESE, "33", "21", "41"))
    blocked = dataclasses.replace(state, hands=((), held, (), ()), done="blocked")
    assert cedeng.statuses(state)[1] == "normal"
    assert cedeng.statuses(blocked)[1] == "penalized"  # 5 discards + 3 left in hand = 8
    result = cedeng.outcome(blocked)
    assert result.reason == "blocked" and result.points[1] == 16 + 6 + 3 + 5


def test_cedeng_one_chip_option_keeps_statuses():
    state = finished(cedeng, cedeng.options(preset="chips"), CD01)
    result = cedeng.outcome(state)
    assert result.deltas == (-1, 3, -1, -1)
    assert result.labels == ("penalized", "clean", "normal", "normal")


def test_penalized_pair_multipliers_d05():
    # head penalized with fewer points than a normal player: the x2 works both ways
    state = finished(cedeng, cedeng.options(),
                     [["11", "11", "22", "22", "31", "31", "21"], ["66", "66"], ["65"], ["64"]])
    result = cedeng.outcome(state)
    assert result.labels == ("penalized", "normal", "normal", "normal")
    p = result.points
    assert result.deltas[0] == 2 * ((p[1] - p[0]) + (p[2] - p[0]) + (p[3] - p[0]))


def test_seven_doubles_redeal_cd06():
    seven = tuple(ids(CHINESE, "66", "66", "11", "11", "44", "44", "55", "21"))
    six = tuple(ids(CHINESE, "66", "66", "11", "11", "44", "44", "65", "21"))
    assert cedeng.special_deal(cedeng.options(), (seven,)) == "redeal"
    assert cedeng.special_deal(cedeng.options(), (six,)) is None
    for n in range(3000):
        state = cedeng.new_deal(cedeng.options(), 4, f"s{n}", Match.start(4, leader=2))
        if state.redeals:
            break
    else:
        raise AssertionError("no redeal in 3000 deals")
    assert state.leader == 2 and state.turn == 2
    assert all(sum(CHINESE.double[t] for t in h) < 7 for h in state.hands)
    assert cedeng.view(state, None).redeals == state.redeals
    assert cedeng.new_deal(cedeng.options(), 4, f"s{n}", Match.start(4, leader=2)) == state


def test_eight_doubles_option():
    eight = ids(CHINESE, "66", "66", "11", "11", "44", "44", "55", "55")
    rest = [t for t in range(32) if t not in eight]
    hands = [rest[0:8], eight, rest[8:16], rest[16:24]]
    assert cedeng.special_deal(cedeng.options(), (tuple(eight),)) == "redeal"
    state = cedeng.deal_from(cedeng.options(preset="eight-win"), hands)
    result = cedeng.outcome(state)
    assert result.reason == "eight-doubles" and result.winners == (1,)
    pips = [sum(CHINESE.pips[t] for t in h) for h in hands]
    assert result.deltas == (-2 * pips[0], 2 * (pips[0] + pips[2] + pips[3]), -2 * pips[2],
                             -2 * pips[3])


def test_cedeng_is_four_players_only():
    from games.engine import InvalidOptions

    for players in (2, 3, 5):
        with pytest.raises(InvalidOptions):
            cedeng.new_deal(cedeng.options(), players, "x")


# ----- Tails ----------------------------------------------------------------------------------

TL01 = [["55"], ["66", "65", "11"], ["66", "65", "64", "43"], ["55", "64", "63", "11"]]
TL03 = [["66"], ["66", "55", "44"], ["65", "65", "64", "64", "21"], ["55", "44", "11"]]


def test_payer_rule_tl01():
    state = finished(tails, tails.options(), TL01)
    result = tails.outcome(state)
    assert result.points == (10, 25, 40, 31)
    assert result.deltas == (2, 0, -1, -1)


def test_exactly_thirty_does_not_pay_tl03():
    result = tails.outcome(finished(tails, tails.options(), TL03))
    assert result.points == (12, 30, 45, 20)
    assert result.deltas == (1, 0, -1, 0)


def test_points_option_pays_differences_d08():
    result = tails.outcome(finished(tails, tails.options(preset="points"), TL01))
    assert result.deltas == (30 + 21, 0, -30, -21)


def test_tied_highest_later_hand_pays_d07():
    tie = finished(tails, tails.options(), [["55"], ["66", "64"], ["66", "64"], ["22"]])
    assert tails.outcome(tie).points == (10, 22, 22, 4)
    assert tails.outcome(tie).deltas == (0, 0, -1, 1)
    rotated = finished(tails, tails.options(), [["55"], ["66", "64"], ["66", "64"], ["22"]],
                       leader=2)
    # hands: seat 2 = 1, seat 3 = 2, seat 0 = 3, seat 1 = 4: seat 1 is now the later hand
    assert tails.outcome(rotated).deltas == (0, -1, 0, 1)


def test_tails_decks_tl06():
    for players, size, deck in ((2, 12, 24), (3, 8, 24), (4, 8, 32)):
        state = tails.new_deal(tails.options(), players, "tl06")
        assert [len(h) for h in state.hands] == [size] * players
        assert len(state.unused) + size * players == deck
        if deck == 24:
            held = {CHINESE.kind(t).label for h in state.hands for t in h}
            assert not held & {"[3:3]", "[4:4]", "[5:5]", "[6:6]"}


def test_tails_is_one_arm_only():
    from games.engine import InvalidOptions

    with pytest.raises(InvalidOptions):
        tails.options(arms=2)
