"""Tien Gow (docs/rules-book.md §1.1, §2.8, §3 rows 21–26, §5 TG-01…TG-22, decisions D-12…D-14,
D-18).

The worked examples are played through the real rules (scripted positions, legal moves, apply),
the whole comparison of plays is checked against a second, hand-written ranking table over a
full 32-tile set, and random playouts of every preset check settlement and trick totals.
"""

import random
from collections import Counter
from itertools import combinations

import pytest

from games import get
from games.engine import MAX_CODE_BYTES, Action, IllegalAction, Match
from games.hierarchy import beats, classify
from games.tiles import CHINESE
from tests.support.helpers import ids

tg = get("tiengow")


# ----- an independent ranking table (literal tile specs, highest first) -----------------------

CIVIL_SINGLES = ["66", "11", "44", "31", "55", "33", "22", "65", "64", "61", "51"]
MILITARY_SINGLES = [["63", "54"], ["62", "53"], ["52", "43"], ["42"], ["41", "32"], ["21"]]
"""Military singles by strength; the tiles of one group are equal (the first played wins)."""

CIVIL_PAIRS = [
    ["66", "66"], ["11", "11"], ["44", "44"], ["31", "31"], ["55", "55"], ["33", "33"],
    ["22", "22"], ["65", "65"], ["64", "64"], ["61", "61"], ["51", "51"],
]
MILITARY_PAIRS = [["63", "54"], ["62", "53"], ["52", "43"], ["41", "32"]]
SUPREME_PAIR = ["42", "21"]

# The four mixed families, Heaven–Nine > Earth–Eight > Man–Seven > Harmony–Five, in each form.
# Every form is its own category: a play only meets plays of the same form.
MIXED_FORMS = {
    "1C+1M": [
        [["66", "63"], ["66", "54"]],
        [["11", "62"], ["11", "53"]],
        [["44", "52"], ["44", "43"]],
        [["31", "41"], ["31", "32"]],
    ],
    "2C+1M": [
        [["66", "66", "63"], ["66", "66", "54"]],
        [["11", "11", "62"], ["11", "11", "53"]],
        [["44", "44", "52"], ["44", "44", "43"]],
        [["31", "31", "41"], ["31", "31", "32"]],
    ],
    "1C+2M": [
        [["66", "63", "54"]],
        [["11", "62", "53"]],
        [["44", "52", "43"]],
        [["31", "41", "32"]],
    ],
    "2C+2M": [
        [["66", "66", "63", "54"]],
        [["11", "11", "62", "53"]],
        [["44", "44", "52", "43"]],
        [["31", "31", "41", "32"]],
    ],
}


def _ranked(category, groups):
    """{sorted specs: (category, strength)} for groups listed highest first."""
    table = {}
    for place, group in enumerate(groups):
        for specs in group:
            table[tuple(sorted(specs))] = (category, len(groups) - place)
    return table


PURE_TABLE = {
    **_ranked("civil single", [[[s]] for s in CIVIL_SINGLES]),
    **_ranked("military single", [[[s] for s in group] for group in MILITARY_SINGLES]),
    **_ranked("civil pair", [[p] for p in CIVIL_PAIRS]),
    **_ranked("military pair", [[p] for p in MILITARY_PAIRS]),
    **_ranked("supreme", [[SUPREME_PAIR]]),
}
MIXED_TABLE = dict(PURE_TABLE)
for _form, _families in MIXED_FORMS.items():
    MIXED_TABLE.update(_ranked("mixed " + _form, _families))


def spec(tile):
    return f"{CHINESE.a[tile]}{CHINESE.b[tile]}"


def key(tiles):
    return tuple(sorted(spec(t) for t in tiles))


def table_beats(reply_key, best_key, table):
    """The table's answer: same category, not the Supreme, strictly stronger."""
    reply, best = table.get(reply_key), table.get(best_key)
    return (reply is not None and best is not None and reply[0] == best[0]
            and reply[0] != "supreme" and reply[1] > best[1])


def test_the_table_describes_the_full_set():
    counts = Counter(spec(t) for t in range(CHINESE.size))
    assert sum(counts.values()) == 32
    assert {s: counts[s] for s in CIVIL_SINGLES} == dict.fromkeys(CIVIL_SINGLES, 2)
    military = [s for group in MILITARY_SINGLES for s in group]
    assert {s: counts[s] for s in military} == dict.fromkeys(military, 1)
    assert set(counts) == set(CIVIL_SINGLES) | set(military)
    pairs = CIVIL_PAIRS + MILITARY_PAIRS + [SUPREME_PAIR]
    assert len(pairs) == 16
    assert Counter(s for p in pairs for s in p) == counts  # 16 pairs use all 32 tiles


# ----- scripted positions ---------------------------------------------------------------------

def position(hands, opts=None, banker=0, turn=None, tricks=None, match=None):
    """A scripted deal; hands are lists of kinds ("66"), a repeated kind takes the next copy."""
    flat = ids(CHINESE, *[s for hand in hands for s in hand])
    split, start = [], 0
    for hand in hands:
        split.append(flat[start:start + len(hand)])
        start += len(hand)
    size = len(hands[0])
    if tricks is None:
        tricks = (8 - size, 0, 0, 0)
    return tg.deal_from(opts or tg.options(), split, banker=banker, turn=turn, tricks=tricks,
                        match=match)


def offered(state, verb):
    """The kinds of every legal action with this verb."""
    return {key(a.tiles) for a in tg.legal_actions(state) if a.verb == verb}


def play(state, verb, *specs):
    """Apply the legal action with this verb and these kinds."""
    want = tuple(sorted(specs))
    for action in tg.legal_actions(state):
        if action.verb == verb and key(action.tiles) == want:
            return tg.apply(state, action)[0]
    raise AssertionError(f"{verb} {specs} not legal: {tg.legal_actions(state)}")


def illegal(state, verb, *specs):
    """The move with these kinds, built from the mover's own tiles, is refused."""
    hand = list(state.hands[state.turn])
    tiles = []
    for s in specs:
        tile = next(t for t in hand if spec(t) == s)
        hand.remove(tile)
        tiles.append(tile)
    with pytest.raises(IllegalAction):
        tg.apply(state, Action(verb, tuple(sorted(tiles))))


def reply_offered(lead, reply, opts=None):
    """Seat 0 leads `lead` (tile ids), seat 1 holds exactly `reply`: is a beat offered?"""
    used = set(lead) | set(reply)
    rest = [t for t in range(CHINESE.size) if t not in used]
    k = len(lead)
    hands = [list(lead), list(reply), rest[:k], rest[k:2 * k]]
    state = tg.deal_from(opts or tg.options(), hands, tricks=(8 - k, 0, 0, 0))
    state = tg.apply(state, Action("lead", tuple(sorted(lead))))[0]
    legal = tg.legal_actions(state)
    whole = tuple(sorted(reply))
    assert Action("fold", whole) in legal  # folding is always allowed
    assert all(len(a.tiles) == k for a in legal)
    return Action("beat", whole) in legal


def beating_replies(lead_specs, size=None):
    """Every kind group from the rest of the set that the rules let beat the lead."""
    lead = ids(CHINESE, *lead_specs)
    rest = [t for t in range(CHINESE.size) if t not in lead]
    found = set()
    for reply in combinations(rest, size or len(lead)):
        if reply_offered(lead, reply):
            found.add(key(reply))
    return found


# ----- docs/rules-book.md §5 worked examples
# ------------------------------------------------------------

def test_equal_military_singles_tg01():
    state = position([["62"], ["53"], ["63"], ["54"]], tricks=(7, 0, 0, 0))
    state = play(state, "lead", "62")
    assert offered(state, "beat") == set()  # [5:3] equals [6:2]: the first one played wins
    illegal(state, "beat", "53")
    state = play(state, "fold", "53")
    assert offered(state, "beat") == {("63",)}
    state = play(state, "beat", "63")
    assert offered(state, "beat") == set()  # [5:4] only equals the current high [6:3]
    state = play(state, "fold", "54")
    assert state.history[-1].winner == 2 and state.tricks == (7, 0, 1, 0)

    lead = ids(CHINESE, "62")
    assert reply_offered(lead, ids(CHINESE, "63"))
    assert reply_offered(lead, ids(CHINESE, "54"))
    assert not reply_offered(lead, ids(CHINESE, "53"))
    assert not reply_offered(lead, ids(CHINESE, "66"))  # civil never beats military
    assert beating_replies(["62"]) == {("63",), ("54",)}


def test_supreme_tile_as_single_six_tg02():
    assert beating_replies(["42"]) == {("52",), ("43",), ("62",), ("53",), ("63",), ("54",)}
    lead = ids(CHINESE, "42")
    for s in ["41", "32", "21", *CIVIL_SINGLES]:
        assert not reply_offered(lead, ids(CHINESE, s)), s
    state = position([["42"], ["41"], ["52"], ["66"]], tricks=(7, 0, 0, 0))
    state = play(state, "lead", "42")
    illegal(state, "beat", "41")
    state = play(state, "fold", "41")
    state = play(state, "beat", "52")
    illegal(state, "beat", "66")
    state = play(state, "fold", "66")
    assert state.history[-1].winner == 2


def test_pair_categories_tg05():
    assert beating_replies(["11", "11"]) == {("66", "66")}
    lead = ids(CHINESE, "11", "11")
    assert not reply_offered(lead, ids(CHINESE, "63", "54"))
    assert not reply_offered(lead, ids(CHINESE, "66", "63"))
    state = position([["11", "11"], ["66", "63"], ["62", "53"], ["66", "54"]],
                     tricks=(6, 0, 0, 0))
    state = play(state, "lead", "11", "11")
    for group in (("66", "63"), ("62", "53")):  # a mixed play, a military pair
        assert offered(state, "beat") == set()
        illegal(state, "beat", *group)
        state = play(state, "fold", *group)
    assert offered(state, "beat") == set()
    state = play(state, "fold", "66", "54")
    assert state.history[-1].winner == 0 and state.tricks == (8, 0, 0, 0)


def test_supreme_pair_tg08():
    # Led, nothing in the rest of the set beats it, and it takes two tricks.
    assert beating_replies(["42", "21"]) == set()
    hands = [["42", "21", "55", "33", "22", "65", "64", "61"],
             ["66", "66", "11", "11", "63", "54", "62", "53"],
             ["44", "44", "31", "31", "52", "43", "41", "32"],
             ["55", "33", "22", "65", "64", "61", "51", "51"]]
    state = position(hands, tricks=(0, 0, 0, 0))
    state = play(state, "lead", "42", "21")
    for _ in range(3):
        assert offered(state, "beat") == set()
        state = tg.apply(state, next(a for a in tg.legal_actions(state) if a.verb == "fold"))[0]
    assert state.history[-1].winner == 0 and state.tricks == (2, 0, 0, 0)
    assert state.turn == 0

    # Played on a led Fives pair, the same two tiles do not beat: they only go face down.
    assert not reply_offered(ids(CHINESE, "41", "32"), ids(CHINESE, "42", "21"))
    state = position([["41", "32"], ["42", "21"], ["66", "66"], ["11", "11"]],
                     tricks=(6, 0, 0, 0))
    state = play(state, "lead", "41", "32")
    assert offered(state, "beat") == set() and offered(state, "fold") == {("21", "42")}
    illegal(state, "beat", "42", "21")
    state = play(state, "fold", "42", "21")
    state = play(state, "fold", "66", "66")
    state = play(state, "fold", "11", "11")
    assert state.history[-1].winner == 0 and state.tricks == (8, 0, 0, 0)


def test_suit_composition_tg09():
    lead = ids(CHINESE, "11", "11", "62")
    assert reply_offered(lead, ids(CHINESE, "66", "66", "63"))
    assert not reply_offered(lead, ids(CHINESE, "66", "63", "54"))
    state = position([["11", "11", "62"], ["66", "63", "54"], ["66", "53", "43"],
                      ["44", "44", "52"]], tricks=(5, 0, 0, 0))
    state = play(state, "lead", "11", "11", "62")
    assert offered(state, "beat") == set()  # Heaven–Nine–Nine is 1C+2M, the lead is 2C+1M
    illegal(state, "beat", "66", "63", "54")
    state = play(state, "fold", "66", "63", "54")
    assert offered(state, "beat") == set()  # [6:6][5:3][4:3] is no combination at all
    state = play(state, "fold", "66", "53", "43")
    assert offered(state, "beat") == set()  # Man–Man–Seven is below Earth–Earth–Eight
    state = play(state, "fold", "44", "44", "52")
    assert state.history[-1].winner == 0 and state.tricks == (8, 0, 0, 0)

    state = position([["11", "11", "62"], ["66", "66", "63"], ["44", "44", "52"],
                      ["31", "41", "32"]], tricks=(5, 0, 0, 0))
    state = play(state, "lead", "11", "11", "62")
    state = play(state, "beat", "66", "66", "63")
    state = play(state, "fold", "44", "44", "52")
    state = play(state, "fold", "31", "41", "32")
    assert state.history[-1].winner == 1 and state.tricks == (5, 3, 0, 0)


def test_only_listed_combinations_may_be_led_tg12():
    hand = ["66", "66", "62", "63", "11", "22", "42", "52"]
    rest = [t for t in range(CHINESE.size) if t not in ids(CHINESE, *hand)]
    hands = [[spec(t) for t in rest[i * 8:(i + 1) * 8]] for i in range(3)]
    state = position([hand, *hands], tricks=(0, 0, 0, 0))
    bad = [("66", "62"), ("63", "62"), ("11", "22"), ("42", "52"), ("66", "66", "11")]
    leads = offered(state, "lead")
    for group in bad:
        assert tuple(sorted(group)) not in leads
        illegal(state, "lead", *group)
    singles = {(s,) for s in hand}
    assert leads == singles | {("66", "66"), ("63", "66"), ("11", "62"), ("63", "66", "66")}
    pure = position([hand, *hands], opts=tg.options(mixed=False), tricks=(0, 0, 0, 0))
    assert offered(pure, "lead") == singles | {("66", "66")}


def finish_single(state, winner_spec, lead_seat):
    """Play the last one-tile trick: the lead, then each seat beats only with `winner_spec`."""
    for _ in range(4):
        mine = spec(state.hands[state.turn][0])
        if state.turn == lead_seat:
            state = play(state, "lead", mine)
        elif mine == winner_spec and ((mine,) in offered(state, "beat")):
            state = play(state, "beat", mine)
        else:
            state = play(state, "fold", mine)
    return state


def test_base_scoring_with_banker_tg14():
    # East (seat 0) banks; before the last trick E1 S4 W0 N2, and N takes the last one.
    state = position([["22"], ["33"], ["55"], ["66"]], banker=0, turn=3, tricks=(1, 4, 0, 2))
    state = finish_single(state, "66", lead_seat=3)
    result = tg.outcome(state)
    assert result.points == (1, 4, 0, 3) and sum(result.points) == 8
    assert result.winners == (3,)
    assert result.deltas == (-6, 0, -5, 11)
    assert result.labels == ("banker", "normal", "normal", "normal")
    assert tg.next_match(state).leader == 3


def _tg18(opts=None, banker=0, match=None):
    """E6 S0 W0 N2 with N taking the last trick: E leads [2:2], N beats it with [6:6]."""
    state = position([["22"], ["33"], ["55"], ["66"]], opts=opts, banker=banker, turn=0,
                     tricks=(6, 0, 0, 1), match=match)
    state = finish_single(state, "66", lead_seat=0)
    assert state.tricks == (6, 0, 0, 2) and state.history[-1].winner == 3
    return tg.outcome(state)


def test_losing_banker_is_paid_at_one_tg18():
    result = _tg18()
    assert result.deltas == (2, -5, -5, 8)
    assert result.deltas != (4, -5, -5, 6)  # the figures without the cap
    # The cap holds whatever the banker's multiplier is (D-12: in every mode).
    assert _tg18(opts=tg.options(banker=5)).deltas == (2, -5, -5, 8)
    streak = tg.options(streak=True)
    deep = Match(players=4, leader=0, streak=3)
    assert _tg18(opts=streak, match=deep).deltas == (2, -5, -5, 8)
    # Only the banker is capped: the same owed player, not banking, against a banking winner,
    # is paid ×2 — the example's uncapped E +4.
    assert _tg18(banker=3).deltas == (4, -10, -10, 16)
    # A non-banking owed player against a non-banking winner is paid ×1, the banker pays ×2.
    assert _tg18(banker=1).deltas == (2, -10, -5, 13)
    # With a banker multiplier of 1 the uncapped and capped figures agree.
    assert _tg18(opts=tg.options(banker=1)).deltas == (2, -5, -5, 8)


def test_early_death_tg22():
    opts = tg.options(early_death=True)
    # Last trick led with a single tile: W (seat 2, no trick yet) holds [6:6] and cannot win.
    state = position([["11"], ["22"], ["66"], ["66"]], opts=opts, tricks=(3, 2, 0, 2))
    state = play(state, "lead", "11")
    state = play(state, "fold", "22")
    assert offered(state, "beat") == set() and offered(state, "fold") == {("66",)}
    illegal(state, "beat", "66")
    state = play(state, "fold", "66")
    # N has taken tricks, so N may still beat with the other [6:6].
    assert offered(state, "beat") == {("66",)}
    state = play(state, "beat", "66")
    assert tg.outcome(state).winners == (3,)

    # The same position without the option: W may beat.
    state = position([["11"], ["22"], ["66"], ["66"]], tricks=(3, 2, 0, 2))
    state = play(play(state, "lead", "11"), "fold", "22")
    assert offered(state, "beat") == {("66",)}

    # Last trick led with a pair: W may beat it and win the deal.
    state = position([["11", "11"], ["22", "33"], ["66", "66"], ["55", "64"]], opts=opts,
                     tricks=(3, 3, 0, 0))
    state = play(state, "lead", "11", "11")
    state = play(state, "fold", "22", "33")
    assert offered(state, "beat") == {("66", "66")}
    state = play(state, "beat", "66", "66")
    state = play(state, "fold", "55", "64")
    result = tg.outcome(state)
    assert result.winners == (2,) and result.points == (3, 3, 2, 0)


# ----- the full comparison against the independent table --------------------------------------

GROUPS = [g for n in range(1, 5) for g in combinations(range(CHINESE.size), n)]
KEYS = {g: key(g) for g in GROUPS}


@pytest.mark.parametrize(("mixed", "table"), [(True, MIXED_TABLE), (False, PURE_TABLE)])
def test_every_lead_and_reply_against_the_table(mixed, table):
    assert len(GROUPS) == 32 + 496 + 4960 + 35960
    combos = {g: classify(g, mixed) for g in GROUPS}
    accepted = {g for g, c in combos.items() if c is not None}
    expected = {g for g in GROUPS if KEYS[g] in table}
    assert accepted == expected
    by_size = Counter(len(g) for g in accepted)
    if mixed:
        # 32 singles; 11 + 4 + 1 pairs and 16 mixed pairs; 8 + 8 triples; 4 quads.
        assert by_size == {1: 32, 2: 32, 3: 16, 4: 4}
    else:
        assert by_size == {1: 32, 2: 16}

    compared = 0
    for lead in sorted(accepted):
        rest = [t for t in range(CHINESE.size) if t not in lead]
        lead_combo, lead_key = combos[lead], KEYS[lead]
        for reply in combinations(rest, len(lead)):
            combo = combos[reply]
            got = combo is not None and beats(combo, lead_combo)
            assert got == table_beats(KEYS[reply], lead_key, table), (
                f"{lead_key} then {KEYS[reply]}")
            compared += 1
    # Replies: 32·31 to singles, then C(30,2), C(29,3), C(28,4) to each pair, triple, quad.
    assert compared == (155_276 if mixed else 7_952)


@pytest.mark.parametrize(("mixed", "table"), [(True, MIXED_TABLE), (False, PURE_TABLE)])
def test_a_sample_of_replies_through_legal_moves(mixed, table):
    opts = tg.options(mixed=mixed)
    chooser = random.Random(f"replies/{mixed}")
    leads = [g for g in GROUPS if KEYS[g] in table]
    checked = Counter()
    for lead in leads:
        rest = [t for t in range(CHINESE.size) if t not in lead]
        replies = list(combinations(rest, len(lead)))
        winning = [r for r in replies if table_beats(KEYS[r], KEYS[lead], table)]
        losing = [r for r in replies if not table_beats(KEYS[r], KEYS[lead], table)]
        picks = chooser.sample(winning, min(3, len(winning)))
        picks += chooser.sample(losing, min(2, len(losing)))
        for reply in picks:
            answer = table_beats(KEYS[reply], KEYS[lead], table)
            assert reply_offered(lead, reply, opts) == answer, (KEYS[lead], KEYS[reply])
            checked[answer] += 1
    assert checked[True] > 50 and checked[False] > 80


# ----- trick play -----------------------------------------------------------------------------

def test_defaults_d14():
    opts = tg.options()
    assert (opts.mixed, opts.streak, opts.early_death) == (True, False, False)
    assert (opts.banker, opts.unit, opts.deals) == (2, 1, 0)
    assert set(tg.presets) == {"modern", "pure", "streak", "early-death"}


def test_banker_leads_the_first_trick_and_turns_go_by_seat_d18():
    opts = tg.options()
    for leader in range(4):
        match = tg.start_match(opts, 4, "lead", leader=leader)
        state = tg.new_deal(opts, 4, f"lead{leader}", match)
        assert state.banker == leader == state.turn == tg.to_move(state)
        assert state.multiplier == 2
        assert sorted(t for h in state.hands for t in h) == list(range(32))
        assert all(len(h) == 8 for h in state.hands)
        assert {a.verb for a in tg.legal_actions(state)} == {"lead"}
        seats = []
        for _ in range(4):
            seats.append(state.turn)
            state = tg.apply(state, tg.legal_actions(state)[0])[0]
        assert seats == [(leader + i) % 4 for i in range(4)]
    # By lot when no leader is given, the same for the same seed.
    a = tg.new_deal(opts, 4, "lot")
    assert a.banker == tg.new_deal(opts, 4, "lot").banker and a.turn == a.banker


def test_trick_winner_leads_the_next_trick():
    state = position([["22", "51"], ["33", "61"], ["66", "64"], ["55", "65"]],
                     tricks=(6, 0, 0, 0))
    state = play(state, "lead", "22")
    state = play(state, "beat", "33")
    state = play(state, "beat", "66")
    assert offered(state, "beat") == set()  # [5:5] is below the current high [6:6]
    state = play(state, "fold", "55")
    assert state.turn == 2 and state.trick == () and state.tricks == (6, 0, 1, 0)
    assert {a.verb for a in tg.legal_actions(state)} == {"lead"}
    state = play(state, "lead", "64")
    assert state.turn == 3  # then seat 3, 0, 1 in turn
    state = play(state, "beat", "65")
    state = play(state, "fold", "51")
    state = play(state, "fold", "61")
    assert tg.outcome(state).winners == (3,)
    assert tg.outcome(state).points == (6, 0, 1, 1)


def test_followers_play_the_same_number_of_tiles():
    state = position([["66", "66", "63"], ["11", "22", "33"], ["44", "55", "64"],
                      ["31", "41", "32"]], tricks=(5, 0, 0, 0))
    state = play(state, "lead", "66", "66", "63")
    legal = tg.legal_actions(state)
    assert {len(a.tiles) for a in legal} == {3}
    illegal(state, "fold", "11")
    illegal(state, "fold", "11", "22")
    with pytest.raises(IllegalAction):
        tg.apply(state, Action("lead", state.hands[1][:1]))
    with pytest.raises(IllegalAction):  # tiles the seat does not hold
        tg.apply(state, Action("fold", state.hands[2]))


def test_beating_needs_the_same_category_and_composition():
    cases = [
        (["51"], ["63"], False),  # military never beats civil
        (["21"], ["51"], False),  # civil never beats military
        (["51"], ["61"], True),
        (["41", "32"], ["66", "66"], False),  # a civil pair never beats a military pair
        (["41", "32"], ["52", "43"], True),
        (["51", "51"], ["63", "54"], False),
        (["31", "41"], ["66", "66"], False),  # a pair never beats a mixed play
        (["31", "41"], ["66", "63"], True),
        (["31", "41"], ["31", "32"], False),  # equal mixed plays: the first wins
        (["66", "63"], ["66", "54"], False),
        (["31", "31", "41"], ["66", "63", "54"], False),  # 1C+2M against 2C+1M
        (["31", "41", "32"], ["66", "66", "63"], False),  # 2C+1M against 1C+2M
        (["31", "41", "32"], ["66", "63", "54"], True),
        (["44", "44", "52", "43"], ["66", "66", "63", "54"], True),
        (["66", "66", "63", "54"], ["11", "11", "62", "53"], False),
        (["41", "32"], ["42", "21"], False),  # the Supreme pair never beats
        (["42", "21"], ["63", "54"], False),  # and is never beaten
    ]
    for lead, reply, answer in cases:
        lead_ids = ids(CHINESE, *lead)
        reply_ids = [t for t in ids(CHINESE, *lead, *reply) if t not in lead_ids]
        assert reply_offered(lead_ids, reply_ids) is answer, (lead, reply)


def test_a_beat_must_top_the_current_high_not_the_lead():
    state = position([["62"], ["63"], ["54"], ["66"]], tricks=(7, 0, 0, 0))
    state = play(state, "lead", "62")
    state = play(state, "beat", "63")
    assert offered(state, "beat") == set()
    illegal(state, "beat", "54")
    state = play(state, "fold", "54")
    state = play(state, "fold", "66")
    assert tg.outcome(state).winners == (1,)
    view = tg.view(state, None)
    assert view.history[-1].winner == 1


def test_a_trick_of_k_tiles_credits_k_tricks():
    for k, lead, reply in [
        (1, ["11"], ["66"]),
        (2, ["11", "11"], ["66", "66"]),
        (3, ["11", "11", "62"], ["66", "66", "63"]),
        (4, ["44", "44", "52", "43"], ["11", "11", "62", "53"]),
    ]:
        used = ids(CHINESE, *lead, *reply)
        rest = [spec(t) for t in range(CHINESE.size) if t not in used]
        state = position([lead, reply, rest[:k], rest[k:2 * k]], tricks=(8 - k, 0, 0, 0))
        state = play(state, "lead", *lead)
        state = play(state, "beat", *reply)
        state = play(state, "fold", *rest[:k])
        state = play(state, "fold", *rest[k:2 * k])
        assert state.tricks == (8 - k, k, 0, 0)
        result = tg.outcome(state)
        assert result.winners == (1,) and sum(result.points) == 8


def test_the_last_trick_wins_the_deal_not_the_most_tricks():
    state = position([["11"], ["22"], ["66"], ["33"]], banker=0, tricks=(7, 0, 0, 0))
    state = play(state, "lead", "11")
    state = play(state, "fold", "22")
    state = play(state, "beat", "66")
    state = play(state, "fold", "33")
    result = tg.outcome(state)
    assert result.winners == (2,) and result.points == (7, 0, 1, 0)
    # Banker owed 3, paid ×1; the two empty hands pay 5 each.
    assert result.deltas == (3, -5, 7, -5)
    assert tg.to_move(state) is None and tg.legal_actions(state) == ()
    with pytest.raises(IllegalAction):
        tg.apply(state, Action("lead", (0,)))


def test_early_death_only_on_a_single_tile_last_trick():
    opts = tg.options(early_death=True)
    # Not the last trick: a seat with no trick may still beat a single.
    state = position([["11", "22"], ["33", "55"], ["66", "65"], ["64", "61"]], opts=opts,
                     tricks=(6, 0, 0, 0))
    state = play(play(state, "lead", "11"), "fold", "33")
    assert offered(state, "beat") == {("66",)}
    state = play(play(state, "beat", "66"), "fold", "64")
    # Seat 2 has a trick now, so it may win the single last trick too.
    state = play(state, "lead", "65")
    state = play(state, "fold", "61")
    assert offered(state, "beat") == {("22",)}  # seat 0 has tricks: [2:2] may beat
    state = play(state, "fold", "22")
    assert offered(state, "beat") == set()  # seat 1 has none: [5:5] may not
    illegal(state, "beat", "55")
    state = play(state, "fold", "55")
    assert tg.outcome(state).winners == (2,)

    # Every follower without a trick is dead: the leader wins even with the lowest tile.
    state = position([["51"], ["66"], ["11"], ["44"]], opts=opts, tricks=(7, 0, 0, 0))
    state = play(state, "lead", "51")
    for s in ("66", "11", "44"):
        assert offered(state, "beat") == set()
        state = play(state, "fold", s)
    assert tg.outcome(state).winners == (0,)


def test_pure_pairs_forbid_mixed_leads():
    opts = tg.options(preset="pure")
    assert opts.mixed is False
    hand = ["66", "66", "63", "54", "11", "11", "62", "53"]
    rest = [spec(t) for t in range(CHINESE.size) if t not in ids(CHINESE, *hand)]
    hands = [hand, rest[:8], rest[8:16], rest[16:]]
    pure = position(hands, opts=opts, tricks=(0, 0, 0, 0))
    singles = {(s,) for s in hand}
    pairs = {("66", "66"), ("54", "63"), ("11", "11"), ("53", "62")}
    assert offered(pure, "lead") == singles | pairs
    illegal(pure, "lead", "66", "63")
    illegal(pure, "lead", "66", "66", "63", "54")
    modern = position(hands, tricks=(0, 0, 0, 0))
    leads = offered(modern, "lead")
    assert len(leads) == 22
    assert {("63", "66"), ("54", "66"), ("63", "66", "66"), ("54", "63", "66"),
            ("54", "63", "66", "66"), ("11", "11", "53", "62")} <= leads


# ----- settlement and the match ---------------------------------------------------------------

def one_deal(opts, match, winner, tricks_before):
    """A finished deal of `match`: the last single trick is led and taken by `winner`."""
    specs = ["66", "22", "33", "55"]
    hands = [[specs[(s - winner) % 4]] for s in range(4)]
    state = position(hands, opts=opts, banker=match.leader, turn=winner, tricks=tricks_before,
                     match=match)
    state = finish_single(state, "66", lead_seat=winner)
    assert tg.outcome(state).winners == (winner,)
    return state


def test_growing_banker_multiplier_d13():
    opts = tg.options(preset="streak")
    match = tg.start_match(opts, 4, "streak", leader=1)
    assert tg.new_deal(opts, 4, "d0", match).multiplier == 2
    # The banker (1) wins: everyone pays him ×2.
    state = one_deal(opts, match, 1, (2, 1, 2, 2))
    assert tg.outcome(state).deltas == (-4, 12, -4, -4)
    match = tg.next_match(state)
    assert (match.leader, match.streak, match.deal) == (1, 1, 1)
    nxt = tg.new_deal(opts, 4, "d1", match)
    assert (nxt.banker, nxt.multiplier) == (1, 3)
    # He wins again at ×3 (an owed loser is paid ×3 by the winning banker), then plays at ×4.
    state = one_deal(opts, match, 1, (5, 0, 1, 1))
    assert state.multiplier == 3
    assert tg.outcome(state).deltas == (3, 15, -9, -9)
    match = tg.next_match(state)
    nxt = tg.new_deal(opts, 4, "d2", match)
    assert (nxt.banker, nxt.multiplier, match.streak) == (1, 4, 2)
    # At ×4 a losing banker who owes pays ×4 …
    owing = one_deal(opts, match, 3, (1, 1, 3, 2))
    assert owing.multiplier == 4
    assert tg.outcome(owing).deltas == (-3, -12, -1, 16)
    # … but a losing banker who is owed is paid ×1 (D-12), and the streak resets.
    state = one_deal(opts, match, 3, (0, 6, 0, 1))
    assert tg.outcome(state).deltas == (-5, 2, -5, 8)
    match = tg.next_match(state)
    assert (match.leader, match.streak) == (3, 0)
    nxt = tg.new_deal(opts, 4, "d3", match)
    assert (nxt.banker, nxt.multiplier, nxt.turn) == (3, 2, 3)


def test_without_the_streak_option_the_multiplier_stays():
    opts = tg.options(banker=3)
    match = tg.start_match(opts, 4, "flat", leader=0)
    for deal in range(3):
        state = one_deal(opts, match, 0, (1, 2, 2, 2))
        assert state.multiplier == 3
        assert tg.outcome(state).deltas == (18, -6, -6, -6)
        match = tg.next_match(state)
        assert match.deal == deal + 1 and match.leader == 0
        assert tg.new_deal(opts, 4, f"flat{deal}", match).multiplier == 3


def test_banker_and_unit_options_scale_payments():
    def tg14(opts):
        state = position([["22"], ["33"], ["55"], ["66"]], opts=opts, banker=0, turn=3,
                         tricks=(1, 4, 0, 2))
        state = finish_single(state, "66", lead_seat=3)
        return state.multiplier, tg.outcome(state).deltas

    assert tg14(tg.options()) == (2, (-6, 0, -5, 11))
    assert tg14(tg.options(banker=3)) == (3, (-9, 0, -5, 14))
    assert tg14(tg.options(banker=1)) == (1, (-3, 0, -5, 8))
    assert tg14(tg.options(unit=3)) == (2, (-18, 0, -15, 33))
    assert tg14(tg.options(banker=4, unit=10)) == (4, (-120, 0, -50, 170))
    assert tg.new_deal(tg.options(banker=5), 4, "m").multiplier == 5


def test_deals_option_ends_the_match():
    opts = tg.options(deals=2)
    assert tg.finite_match(opts) and not tg.finite_match(tg.options())
    match = tg.start_match(opts, 4, "two", leader=0)
    first = one_deal(opts, match, 2, (1, 2, 2, 2))
    match = tg.next_match(first)
    assert not match.over and match.winner is None and match.leader == 2
    second = one_deal(opts, match, 2, (1, 2, 2, 2))
    match = tg.next_match(second)
    assert match.over and match.deal == 2
    assert match.winner == 2 and match.chips[2] == max(match.chips)
    assert sum(match.chips) == 0
    # Without a limit the match never ends by itself.
    endless = tg.start_match(tg.options(), 4, "endless", leader=0)
    for _ in range(5):
        endless = tg.next_match(one_deal(tg.options(), endless, 1, (2, 2, 2, 1)))
        assert not endless.over


# ----- what may be seen, codes, sizes ---------------------------------------------------------

def test_face_down_tiles_are_seen_only_by_their_owner():
    state = position([["11", "22"], ["33", "55"], ["66", "64"], ["61", "51"]],
                     tricks=(6, 0, 0, 0))
    state = play(state, "lead", "11")
    state, events = tg.apply(state, Action("fold", tuple(ids(CHINESE, "33"))))
    assert events[0].kind == "fold" and events[0].tiles == () and events[0].value == 1
    folded = tuple(ids(CHINESE, "33"))
    assert tg.view(state, 1).trick[1].tiles == folded
    for seat in (None, 0, 2, 3):
        shown = tg.view(state, seat).trick
        assert shown[1].tiles == () and not shown[1].up and shown[1].size == 1
        assert shown[0].tiles == tuple(ids(CHINESE, "11")) and shown[0].up
    assert tg.view(state, 2).legal and tg.view(state, 0).legal == ()
    state = play(state, "fold", "66")
    state = play(state, "fold", "61")
    assert state.trick == ()
    for seat in (None, 0, 1, 2, 3):
        plays = tg.view(state, seat).history[-1].plays
        assert plays[0].tiles == tuple(ids(CHINESE, "11"))
        for p in plays[1:]:
            assert not p.up and p.size == 1
            assert p.tiles == (state.history[-1].plays[p.seat].tiles if p.seat == seat else ())
    assert tg.view(state, 1).history[-1].plays[1].tiles == folded
    assert tg.view(state, 2).history[-1].plays[2].tiles == tuple(ids(CHINESE, "66"))
    assert tg.view(state, 0).hand == tuple(ids(CHINESE, "22"))
    assert tg.view(state, None).hand == ()
    assert tg.view(state, None).hand_counts == (1, 1, 1, 1)


def bits(tiles):
    return sum(1 << t for t in tiles)


def test_a_view_has_seen_the_face_up_tiles_and_its_own_folds():
    state = position([["11", "22"], ["33", "55"], ["66", "64"], ["61", "51"]],
                     tricks=(6, 0, 0, 0))
    state = play(state, "lead", "11")
    state = play(state, "fold", "33")
    lead, folded = bits(ids(CHINESE, "11")), bits(ids(CHINESE, "33"))
    assert tg.view(state, 1).seen == lead | folded
    assert [tg.view(state, s).seen for s in (None, 0, 2, 3)] == [lead] * 4
    state = play(state, "fold", "66")
    state = play(state, "fold", "61")
    table = tg.table(state)
    for seat in (None, 0, 1, 2, 3):
        view = tg.view(state, seat)
        named = [t for trick in view.history for p in trick.plays for t in p.tiles]
        assert view.seen == bits(named)
        assert table.view(seat).seen == view.seen


def test_json_round_trip_mid_trick_and_action_codes():
    opts = tg.options(early_death=True, streak=True, unit=2)
    state = tg.new_deal(opts, 4, "json", Match(players=4, leader=2, streak=1))
    chooser = random.Random("json")
    steps = 0
    while tg.to_move(state) is not None:
        assert tg.loads(tg.dumps(state)) == state
        for action in tg.legal_actions(state):
            code = tg.encode(state, action)
            assert len(code.encode()) <= MAX_CODE_BYTES
            assert tg.decode(state, code) == action
        legal = tg.legal_actions(state)
        state = tg.apply(state, legal[chooser.randrange(len(legal))])[0]
        steps += 1
        if state.trick:
            assert tg.loads(tg.dumps(state)) == state
    assert tg.loads(tg.dumps(state)) == state and steps >= 8
    assert state.multiplier == 3


def test_the_number_of_legal_moves_stays_small():
    opts = tg.options()
    most_leads = 0
    for i in range(300):
        state = tg.new_deal(opts, 4, f"s{i}")
        for seat in range(4):
            lead = tg.deal_from(opts, state.hands, banker=seat)
            legal = tg.legal_actions(lead)
            assert len(legal) == len(set(legal)) <= 24
            most_leads = max(most_leads, len(legal))
    assert most_leads >= 10
    # The richest lead: two full families.
    rich = position([["66", "66", "63", "54", "11", "11", "62", "53"],
                     ["44", "44", "52", "43", "31", "31", "41", "32"],
                     ["55", "55", "33", "33", "22", "22", "65", "65"],
                     ["64", "64", "61", "61", "51", "51", "42", "21"]], tricks=(0, 0, 0, 0))
    assert len(tg.legal_actions(rich)) == 22

    # Following a four-tile lead from eight tiles.
    chooser = random.Random("follow4")
    quad = ids(CHINESE, "66", "66", "63", "54")
    rest = [t for t in range(CHINESE.size) if t not in quad]
    worst = 0
    for _ in range(150):
        chooser.shuffle(rest)
        hands = [quad + rest[:4], rest[4:12], rest[12:20], rest[20:28]]
        state = tg.deal_from(opts, hands)
        state = tg.apply(state, Action("lead", tuple(sorted(quad))))[0]
        for _ in range(3):
            legal = tg.legal_actions(state)
            assert len(legal) == len(set(legal)) <= 70
            worst = max(worst, len(legal))
            state = tg.apply(state, next(a for a in legal if a.verb == "fold"))[0]
    assert worst >= 50
    # Eight different kinds: every four-tile choice is a distinct fold, 70 of them, no beat.
    distinct = position([["66", "66", "63", "54", "11", "11", "62", "53"],
                         ["44", "31", "55", "33", "22", "65", "64", "61"],
                         ["44", "31", "55", "33", "22", "65", "64", "61"],
                         ["51", "51", "52", "43", "42", "41", "32", "21"]], tricks=(0, 0, 0, 0))
    distinct = play(distinct, "lead", "66", "66", "63", "54")
    legal = tg.legal_actions(distinct)
    assert len(legal) == 70 and {a.verb for a in legal} == {"fold"}


# ----- random playouts, checked against the table ---------------------------------------------

def table_winner(plays, table):
    best = 0
    for i in range(1, len(plays)):
        if plays[i].up and table_beats(key(plays[i].tiles), key(plays[best].tiles), table):
            best = i
    return best


def expected_legal(state, table):
    """(verb, kinds) of every move the table allows the seat to move."""
    hand = state.hands[state.turn]
    if not state.trick:
        return {("lead", key(g)) for n in range(1, 5) for g in combinations(hand, n)
                if key(g) in table}
    size = state.trick[0].size
    best = key(state.trick[table_winner(state.trick, table)].tiles)
    moves = {("fold", key(g)) for g in combinations(hand, size)}
    dead = (state.options.early_death and size == 1 and len(hand) == 1
            and state.tricks[state.turn] == 0)
    if not dead:
        moves |= {("beat", k) for _, k in moves if table_beats(k, best, table)}
    return moves


def expected_deltas(tricks, winner, banker, multiplier, unit):
    deltas = [0] * 4
    for seat in range(4):
        if seat == winner:
            continue
        amount = 5 if tricks[seat] == 0 else 4 - tricks[seat]
        if winner == banker or (seat == banker and amount > 0):
            amount *= multiplier
        deltas[seat] -= amount * unit
        deltas[winner] += amount * unit
    return tuple(deltas)


@pytest.mark.parametrize("preset", sorted(tg.presets))
def test_random_playouts_settle_to_zero(preset):
    opts = tg.options(preset=preset)
    table = MIXED_TABLE if opts.mixed else PURE_TABLE
    chooser = random.Random(f"playouts/{preset}")
    match = tg.start_match(opts, 4, preset)
    winners = Counter()
    for n in range(250):
        state = tg.new_deal(opts, 4, f"{preset}/{n}", match)
        assert state.multiplier == opts.banker + (match.streak if opts.streak else 0)
        while tg.to_move(state) is not None:
            legal = tg.legal_actions(state)
            assert len(legal) == len(set(legal))
            if n < 60:
                got = {(a.verb, key(a.tiles)) for a in legal}
                assert len(got) == len(legal)  # identical tiles are offered once
                assert got == expected_legal(state, table)
            state = tg.apply(state, legal[chooser.randrange(len(legal))])[0]
        result = tg.outcome(state)
        assert sum(result.deltas) == 0
        assert sum(result.points) == sum(state.tricks) == 8
        credited = [0] * 4
        for trick in state.history:
            assert len({p.size for p in trick.plays}) == 1
            assert [p.seat for p in trick.plays] == [
                (trick.plays[0].seat + i) % 4 for i in range(4)]
            assert trick.plays[table_winner(trick.plays, table)].seat == trick.winner
            credited[trick.winner] += trick.plays[0].size
        assert tuple(credited) == state.tricks
        for before, after in zip(state.history, state.history[1:], strict=False):
            assert after.plays[0].seat == before.winner
        assert state.history[0].plays[0].seat == state.banker
        winner = state.history[-1].winner
        assert result.winners == (winner,)
        assert result.deltas == expected_deltas(state.tricks, winner, state.banker,
                                                state.multiplier, opts.unit)
        winners[winner] += 1
        match = tg.next_match(state)
        assert match.leader == winner
        assert sum(match.chips) == 0
    assert len(winners) == 4


def test_scripted_positions_are_checked():
    from games.engine import InvalidOptions

    opts = tg.options()
    with pytest.raises(InvalidOptions):
        tg.deal_from(opts, [[0], [1], [2]])
    with pytest.raises(InvalidOptions):
        tg.deal_from(opts, [[0], [1], [2], [3]], tricks=(0, 0, 0, 0))
    with pytest.raises(InvalidOptions):
        tg.deal_from(opts, [[0], [0], [2], [3]], tricks=(7, 0, 0, 0))
    with pytest.raises(InvalidOptions):
        tg.deal_from(opts, [[0, 1], [2], [3], [4]])
    state = tg.deal_from(opts, [[0], [1], [2], [3]], banker=2, tricks=(7, 0, 0, 0))
    assert state.turn == state.banker == 2
