"""Deer Hunt: every worked example of docs/rules-book.md §5 for it (TS-06, DH-01…DH-05), its
options, and properties over random deals of every preset.

Rules source: docs/rules-book.md §1.4, §2.12, §3 rows 43–45; decisions D-27…D-34.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from games import get
from games.deerhunt import DeerHunt, settle
from games.deerhunt_deal import DeerHuntState
from games.deerhunt_tiles import KEYS, RED, TEAM, escapes
from games.engine import Action, IllegalAction, InvalidOptions, Match, play
from games.tiles import CHINESE
from tests.support.helpers import ids

R = get("deerhunt")
assert isinstance(R, DeerHunt)


def deal(*hands: str, dealer: int = 0, **options: Any) -> DeerHuntState:
    """Hands written "66 64 …", seat by seat; a repeated face takes the next copy."""
    flat = ids(CHINESE, *[spec for hand in hands for spec in hand.split()])
    size = len(hands[0].split())
    return R.deal_from(R.options(**options),
                       [flat[i * size:(i + 1) * size] for i in range(len(hands))], dealer)


def lay(state: DeerHuntState, *faces: str) -> DeerHuntState:
    """Each seat in turn plays the face named (a copy from its hand), through the one door."""
    for face in faces:
        seat = R.to_move(state)
        assert seat is not None
        move = next(a for a in R.legal_actions(state)
                    if CHINESE.kind(a.tiles[0]).label == f"[{face[0]}:{face[1]}]")
        state, _ = play(R, state, seat, R.encode(state, move))
    return state


def test_ts_06_red_pips():
    """TS-06: [4:4] 8, [6:6] 6, [4:1] 5, [6:4] [5:4] [4:3] [4:2] 4, [1:1] 2, [6:1] [5:1] [3:1]
    [2:1] 1, the rest 0; the whole set 64 (§1.4)."""
    expected = {"44": 8, "66": 6, "41": 5, "64": 4, "54": 4, "43": 4, "42": 4, "11": 2,
                "61": 1, "51": 1, "31": 1, "21": 1}
    for tile in range(CHINESE.size):
        kind = CHINESE.kind(tile)
        assert RED[tile] == expected.get(f"{kind.hi}{kind.lo}", 0), kind.label
    assert sum(RED) == 64


def test_dh_01_one_trick():
    """DH-01: [5:5] [6:1] [4:4] [6:1] — P2 wins ([6:1] beats [5:5] on the higher end, and of
    the two [6:1]s the earlier); 10 red pips to team B; P2 leads next."""
    state = deal("55 22", "61 33", "44 22", "61 33")
    state = lay(state, "55", "61", "44", "61")
    (trick,) = state.history
    assert (trick.winner, trick.red, trick.escaped) == (1, 10, False)
    assert state.red == (0, 10)
    assert R.to_move(state) == 1
    assert trick.plays[1].tile < trick.plays[3].tile  # the first copy was P2's


DH_02 = ("66 64 61 54 52 51 31 11", "65 65 55 53 44 33 32 21",
         "66 61 55 43 42 33 31 22", "64 63 62 51 44 41 22 11")
DH_02_TRICKS = [("66 32 22 22", 0, 6), ("64 65 66 62", 2, 10), ("61 63 52 21", 3, 2),
                ("64 31 33 33", 3, 5), ("51 54 55 55", 1, 5), ("65 31 11 51", 1, 4),
                ("53 42 41 61", 0, 10), ("11 44 43 44", 1, 22)]
"""Each trick of DH-02 as played (leader first), its winner and its red pips."""


def play_dh_02(**options: Any) -> DeerHuntState:
    state = deal(*DH_02, **options)
    for faces, winner, red in DH_02_TRICKS:
        state = lay(state, *faces.split())
        assert (state.history[-1].winner, state.history[-1].red) == (winner, red), faces
    return state


def test_dh_02_a_whole_deal():
    """DH-02: team A 26, team B 38: P1 and P3 each pay 12; the next dealer is P2. Team A
    holds both [6:6], so the fair deal could not deal this."""
    state = play_dh_02()
    assert R.to_move(state) is None and state.red == (26, 38)
    result = R.outcome(state)
    assert result.points == (26, 38, 26, 38) and result.winners == (1, 3)
    assert result.deltas == (-12, 12, -12, 12)
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == [(0, 1, 12), (2, 3, 12)]
    after = R.next_match(state)
    assert after.leader == 1 and after.chips == (-12, 12, -12, 12) and not after.over
    heavens = set(CHINESE.ids_of(6, 6))
    start = deal(*DH_02)
    assert heavens <= set(start.hands[0]) | set(start.hands[2])


def test_dh_03_deer_escaped():
    """DH-03: deer escaped on, the same deal: only T8 ([1:1] [4:4] [4:3] [4:4]) has red pips
    on all four tiles, its 22 go to nobody: A 26, B 16, B pays 10. A trick with [5:5] never
    escapes; [6:6] [6:4] [4:1] [1:1] does."""
    state = play_dh_02(deer_escaped=True)
    assert [t.escaped for t in state.history] == [False] * 7 + [True]
    assert state.red == (26, 16)
    result = R.outcome(state)
    assert result.winners == (0, 2) and result.deltas == (10, -10, 10, -10)
    assert sum(t.red for t in state.history) == 64 > sum(state.red)
    assert not escapes(ids(CHINESE, "66", "64", "55", "11"))
    assert escapes(ids(CHINESE, "66", "64", "41", "11"))


def test_d_33_after_an_escaped_trick_the_would_be_winner_leads():
    """D-33: the trick of all red tiles goes to nobody, and P1, whose [6:6] would have won it,
    leads the next."""
    state = deal("66 33", "64 22", "41 55", "11 65", dealer=1, deer_escaped=True)
    state = lay(state, "64", "41", "11", "66")
    (trick,) = state.history
    assert trick.escaped and trick.red == 17 and trick.winner == 0
    assert state.red == (0, 0) and R.to_move(state) == 0


def finished(red: tuple[int, int], match: Match, dealer: int, **options: Any) -> DeerHuntState:
    """A deal over, with these red pips taken (what DH-04 needs of each deal)."""
    state = R.deal_from(R.options(**options), [[t] for t in range(4)], dealer, match)
    return dataclasses.replace(state, hands=((),) * 4, red=red)


def session(reds: list[tuple[int, int]], **options: Any) -> list[tuple[Any, Match]]:
    match = Match.start(4, 0)
    played = []
    for n, red in enumerate(reds):
        assert match.leader == n % 4
        state = finished(red, match, match.leader, **options)
        result = R.outcome(state)
        match = R.next_match(state, result)
        played.append((result, match))
    return played


def test_dh_04_a_session_of_four_deals():
    """DH-04: dealers P1…P4; A 26, 40, 32, 20 (B 38, 24, 32, 44): per deal A −12, +16, 0,
    −24; the session A −20, B +20 — team B wins it."""
    played = session([(26, 38), (40, 24), (32, 32), (20, 44)])
    assert [result.deltas[0] for result, _ in played] == [-12, 16, 0, -24]
    assert [match.over for _, match in played] == [False, False, False, True]
    last = played[-1][1]
    assert last.chips == (-20, 20, -20, 20) and last.winner == 1 and TEAM[last.winner] == 1
    assert played[2][0].winners == () and played[2][0].reason == "level"


def test_a_tied_session_is_a_draw_or_goes_to_the_last_deals_winner():
    reds = [(40, 24), (24, 40), (30, 34), (34, 30)]
    drawn = session(reds)[-1][1]
    assert drawn.over and drawn.winner is None and drawn.chips == (0, 0, 0, 0)
    last = session(reds, tie="last")[-1][1]
    assert last.over and last.winner == 0
    level = session([(40, 24), (24, 40), (32, 32), (32, 32)], tie="last")[-1][1]
    assert level.over and level.winner is None


def test_eight_deals_pass_the_deal_round_twice():
    played = session([(32, 32)] * 8, deals=8)
    assert [m.over for _, m in played] == [False] * 7 + [True]
    assert [m.leader for _, m in played] == [1, 2, 3, 0, 1, 2, 3, 0]


def key_counts(state: DeerHuntState, deal: str) -> list[Counter]:
    """How many copies of each key face each team holds (hands and tricks played)."""
    held = [Counter(), Counter()]
    tiles = [(s, t) for s, hand in enumerate(state.hands) for t in hand]
    tiles += [(lay.seat, lay.tile) for trick in state.history for lay in trick.plays]
    tiles += [(lay.seat, lay.tile) for lay in state.trick]
    for seat, t in tiles:
        face = (CHINESE.a[t], CHINESE.b[t])
        if face in KEYS[deal]:
            held[TEAM[seat]][face] += 1
    return held


@pytest.mark.parametrize("fair", ["fair", "fair-extended"])
def test_dh_05_the_fair_deal(fair):
    """DH-05: each partnership's 16 tiles hold exactly one [6:6]; extended: exactly one each
    of [6:6] [6:5] [6:4] [4:4]; each player 8 tiles. The halves are dealt at random: over many
    deals every player holds a key tile sometimes."""
    holders = Counter()
    for n in range(200):
        state = R.new_deal(R.options(deal=fair), 4, f"fair/{n}")
        assert [len(h) for h in state.hands] == [8] * 4
        assert sorted(t for h in state.hands for t in h) == list(range(32))
        for team in key_counts(state, fair):
            assert team == Counter(dict.fromkeys(KEYS[fair], 1))
        holders.update(s for s, h in enumerate(state.hands) for t in h if CHINESE.a[t] == 6 ==
                       CHINESE.b[t])
    assert set(holders) == {0, 1, 2, 3}
    plain = [R.new_deal(R.options(), 4, f"plain/{n}") for n in range(200)]
    assert any(key_counts(s, "fair")[0][(6, 6)] == 2 for s in plain)


def test_the_teams_and_the_options():
    assert R.teams(4) == (0, 1, 0, 1)
    assert R.options("fair").deal == "fair" and R.options("deerhunt") == R.options()
    for bad in ({"deals": 0}, {"deals": 17}, {"deal": "lucky"}, {"tie": "coin"}):
        with pytest.raises(InvalidOptions):
            R.options(**bad)
    with pytest.raises(InvalidOptions):
        R.new_deal(R.options(), 3, "three")
    assert get("полювання") is R and get("鹿狩り") is R


def test_any_tile_may_be_played_one_move_per_face():
    state = deal("55 55 61 21", "66 64 41 11", "44 43 42 33", "65 63 62 22")
    assert [CHINESE.label(a.tiles[0]) for a in R.legal_actions(state)] == [
        "[6:1]", "[5:5]", "[2:1]"]
    state = lay(state, "21")
    assert len(R.legal_actions(state)) == 4  # [2:1] led: anything follows, even lower
    with pytest.raises(IllegalAction):
        R.apply(state, Action("play", (state.hands[0][0],)))


def random_deal(options: Any, seed: str, match: Match | None = None) -> DeerHuntState:
    chooser = random.Random(seed)
    state = R.new_deal(options, 4, seed, match)
    while (seat := R.to_move(state)) is not None:
        legal = R.legal_actions(state)
        state, _ = R.apply(state, legal[chooser.randrange(len(legal))])
        assert seat is not None
    return state


OPTIONS = [{"deal": deal} | extra for deal in KEYS for extra in ({}, {"deer_escaped": True})]


@pytest.mark.parametrize("values", OPTIONS, ids=lambda v: "-".join(map(str, v.values())))
def test_properties_over_random_deals(values):
    """The red pips of all tricks add up to 64, and the teams' to 64 less what escaped; each
    deal is zero-sum, every seat's net its team's; a fair deal keeps one of each key face per
    team; a session of 4 deals lets every seat deal once, in turn."""
    options = R.options(**values)
    for n in range(25):
        match = R.start_match(options, 4, f"props/{n}")
        dealers = []
        while not match.over:
            state = random_deal(options, f"props/{n}/{match.deal}", match)
            dealers.append(state.dealer)
            assert len(state.history) == 8
            assert sum(t.red for t in state.history) == 64
            escaped = sum(t.red for t in state.history if t.escaped)
            assert sum(state.red) == 64 - escaped
            assert escaped == 0 or values.get("deer_escaped")
            result = R.outcome(state)
            assert sum(result.deltas) == 0
            assert all(result.deltas[s] == result.deltas[TEAM[s]] for s in range(4))
            assert abs(result.deltas[0]) == abs(state.red[0] - state.red[1])
            if values["deal"] != "plain":
                for team in key_counts(state, values["deal"]):
                    assert team == Counter(dict.fromkeys(KEYS[values["deal"]], 1))
            match = R.next_match(state, result)
        assert len(dealers) == 4 and sorted(dealers) == [0, 1, 2, 3]
        assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))


def test_a_finished_deal_settles_as_the_red_pips_say():
    assert settle((32, 32)).deltas == (0, 0, 0, 0)
    assert settle((0, 64)).deltas == (-64, 64, -64, 64)
    assert settle((33, 31)).winners == (0, 2)


@pytest.mark.parametrize("fair", ["fair", "fair-extended"])
def test_every_deal_the_strong_player_samples_keeps_the_fair_deal(fair):
    """After a fair deal each partnership holds one copy of each key face; a deal the strong
    player samples from a seat's view keeps that, shows the seat its own view, and gives the
    partner no hand but what the rule of the deal says (the partner's tiles are dealt anew as
    freely as the opponents')."""
    from games.players import make_player

    normal = make_player("deerhunt", "normal")
    rater = R.rater()
    options = R.options(deal=fair)
    partner_hands = set()
    checked = 0
    for n in range(6):
        state = R.new_deal(options, 4, f"sampled/{fair}/{n}")
        chooser = random.Random(n)
        while (seat := R.to_move(state)) is not None:
            view = R.view(state, seat)
            if len(view.hand) in (7, 4, 2):
                deals = R.deals(view, rater, random.Random(checked))
                samples = [R.redeal(view, random.Random(k)) for k in range(4)]
                samples += [deals() for _ in range(4)]
                for sample in samples:
                    assert R.view(sample, seat) == view
                    for team in key_counts(sample, fair):
                        assert team == Counter(dict.fromkeys(KEYS[fair], 1))
                    partner_hands.add(sample.hands[(seat + 2) % 4])
                checked += 1
            state, _ = R.apply(state, normal.choose(view, chooser))
    assert checked and len(partner_hands) > checked
