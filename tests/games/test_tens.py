"""The winning-hand test of Kap Ten and Kap Tai Shap (docs/rules-book.md §0, §1.1, §2.6, §2.7, §3
rows 16–17, §5 KT-01…KT-03).

The worked examples are checked as written; then `wins`, `layout` and `missing` are checked
against a second, deliberately naive search written here from the rules' wording alone: try every
eye (two identical tiles), then every way of pairing the rest into pairs worth 10 or 20, `[4:2]`
counting 3 (or 6 under the option). The random hands come from fixed seeds: one set, four sets,
and winning hands with one tile swapped, so that both answers are common.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from games.tens import layout, missing, wins
from games.tiles import CHINESE, chinese
from tests.support.helpers import ids

KINDS = CHINESE.kinds
FOUR_SETS = chinese(4)


def kind_index(spec: str) -> int:
    hi, lo = sorted((int(spec[0]), int(spec[1])), reverse=True)
    return next(k for k, kind in enumerate(KINDS) if (kind.hi, kind.lo) == (hi, lo))


def kinds(*specs: str) -> list[int]:
    return [kind_index(s) for s in specs]


# ----- the naive search ---------------------------------------------------------------------

def value(kind: int, four_two: int = 3) -> int:
    """Pips, except that `[4:2]` counts `four_two` (§2.6)."""
    face = KINDS[kind]
    if (face.hi, face.lo) == (4, 2):
        return four_two
    return face.hi + face.lo


def ten(a: int, b: int, four_two: int = 3) -> bool:
    return value(a, four_two) + value(b, four_two) in (10, 20)


def pairs_into_tens(rest: tuple[int, ...], four_two: int) -> bool:
    if not rest:
        return True
    first = rest[0]
    for j in range(1, len(rest)):
        if ten(first, rest[j], four_two) and pairs_into_tens(rest[1:j] + rest[j + 1:], four_two):
            return True
    return False


def naive_split(hand: list[int], four_two: int = 3
                ) -> tuple[tuple[int, int], list[tuple[int, int]]] | None:
    """(eye positions, pairs of positions) of one winning split of the kinds, or None."""
    n = len(hand)
    if n < 2 or n % 2:
        return None
    for i, j in combinations(range(n), 2):
        if hand[i] != hand[j]:
            continue
        rest = [p for p in range(n) if p not in (i, j)]
        found = _pair_positions(rest, hand, four_two)
        if found is not None:
            return (i, j), found
    return None


def _pair_positions(rest: list[int], hand: list[int], four_two: int
                    ) -> list[tuple[int, int]] | None:
    if not rest:
        return []
    first = rest[0]
    for q in rest[1:]:
        if ten(hand[first], hand[q], four_two):
            tail = _pair_positions([p for p in rest[1:] if p != q], hand, four_two)
            if tail is not None:
                return [(first, q), *tail]
    return None


def naive_wins(hand: list[int], four_two: int = 3) -> bool:
    return naive_split(hand, four_two) is not None


@cache
def best_overlap(tiles: tuple[int, ...], eye_open: bool, pairs_left: int, four_two: int) -> int:
    """The most of these tiles that one eye plus `pairs_left` tens can contain."""
    if not tiles:
        return 0
    first, rest = tiles[0], tiles[1:]
    best = best_overlap(rest, eye_open, pairs_left, four_two)  # a surplus tile
    if eye_open:
        # The eye made of this tile and another copy of it, held or still to come.
        best = max(best, 1 + best_overlap(rest, False, pairs_left, four_two))
        if first in rest:
            i = rest.index(first)
            best = max(best, 2 + best_overlap(rest[:i] + rest[i + 1:], False, pairs_left,
                                              four_two))
    if pairs_left:
        if any(ten(first, k, four_two) for k in range(len(KINDS))):
            best = max(best, 1 + best_overlap(rest, eye_open, pairs_left - 1, four_two))
        for j, other in enumerate(rest):
            if ten(first, other, four_two):
                best = max(best, 2 + best_overlap(rest[:j] + rest[j + 1:], eye_open,
                                                  pairs_left - 1, four_two))
    return best


def naive_missing(hand: list[int], pairs: int, four_two: int = 3) -> int:
    return 2 + 2 * pairs - best_overlap(tuple(sorted(hand)), True, pairs, four_two)


# ----- docs/rules-book.md §5 worked examples
# ------------------------------------------------------------

KT01 = ["22", "22", "65", "63", "33", "31", "66", "62"]
KT02 = ["33", "33", "42", "61", "55", "55", "64", "64"]
KT03 = ["11", "11", "42", "22", "64", "64", "55", "55"]


def test_kt01_eye_and_three_tens():
    assert wins(kinds(*KT01))
    assert naive_wins(kinds(*KT01))
    tiles = ids(CHINESE, *KT01)
    eye, pairs = layout(tiles, CHINESE.kind_of)
    assert sorted(CHINESE.label(t) for t in eye) == ["[2:2]", "[2:2]"]
    assert sorted(sorted(CHINESE.label(t) for t in p) for p in pairs) == [
        ["[3:1]", "[3:3]"], ["[6:2]", "[6:6]"], ["[6:3]", "[6:5]"]]


def test_kt02_four_two_counts_three():
    assert wins(kinds(*KT02))
    assert naive_wins(kinds(*KT02))
    tiles = ids(CHINESE, *KT02)
    laid = layout(tiles, CHINESE.kind_of)
    assert laid is not None
    _, pairs = laid
    four_two = CHINESE.one("42")
    (with_four_two,) = [p for p in pairs if four_two in p]
    assert sorted(CHINESE.label(t) for t in with_four_two) == ["[4:2]", "[6:1]"]
    # Counted as its six pips, [4:2] + [6:1] would be 13: the hand no longer wins.
    assert not wins(kinds(*KT02), four_two=6)
    assert layout(tiles, CHINESE.kind_of, four_two=6) is None


def test_kt03_four_two_is_not_six():
    assert not wins(kinds(*KT03))
    assert not naive_wins(kinds(*KT03))
    assert layout(ids(CHINESE, *KT03), CHINESE.kind_of) is None
    # Every eye fails: [1:1], [6:4] and [5:5] each leave [4:2] + [2:2] = 7 unpaired.
    for eye in ("11", "64", "55"):
        rest = list(KT03)
        rest.remove(eye)
        rest.remove(eye)
        assert not pairs_into_tens(tuple(kinds(*rest)), 3)
    # With [4:2] counted as 6 it wins: eye [1:1], then [4:2]+[2:2] = 10.
    assert wins(kinds(*KT03), four_two=6)
    laid = layout(ids(CHINESE, *KT03), CHINESE.kind_of, four_two=6)
    assert laid is not None
    assert sorted(CHINESE.label(t) for t in laid[0]) == ["[1:1]", "[1:1]"]


def test_any_tile_may_play_any_role():
    # [5:5][5:5] is the eye in one hand and a twenty in another (§2.6).
    as_eye = kinds("55", "55", "64", "64", "33", "31", "66", "62")
    as_pair = kinds("22", "22", "55", "55", "64", "64", "66", "62")
    assert wins(as_eye) and wins(as_pair)
    # Only [2:2] works as the eye of the second hand: [5:5] or [6:4] would leave 4 + 4.
    tiles = ids(CHINESE, "22", "22", "55", "55", "64", "64", "66", "62")
    eye, _ = layout(tiles, CHINESE.kind_of)
    assert [CHINESE.label(t) for t in eye] == ["[2:2]", "[2:2]"]
    assert naive_wins(as_eye) and naive_wins(as_pair)


def test_one_set_has_no_military_eye():
    # Each military kind exists once in a set, so an eye from one set is always civil (§2.6).
    for k, kind in enumerate(KINDS):
        copies = sum(1 for t in range(CHINESE.size) if CHINESE.kind_of[t] == k)
        assert copies == (2 if kind.civil else 1), kind.label
    # Two Nines are equal in value but are not identical: no eye.
    hand = kinds("63", "54", "55", "64", "66", "62", "33", "22")
    assert not wins(hand) and not naive_wins(hand)


def test_several_sets_allow_a_military_eye():
    # §2.7: with several sets [6:3][6:3] is an eye.
    specs = ["63", "63", "55", "64", "66", "62", "33", "22", "61", "42"]
    hand = kinds(*specs)
    assert wins(hand) and naive_wins(hand)
    tiles = ids(FOUR_SETS, *specs)
    assert len(set(tiles)) == 10
    laid = layout(tiles, FOUR_SETS.kind_of)
    assert laid is not None
    assert [FOUR_SETS.label(t) for t in laid[0]] == ["[6:3]", "[6:3]"]
    assert len(laid[1]) == 4
    # And two equal military tiles may sit in two different tens.
    twice = kinds("11", "11", "63", "65", "63", "65", "52", "42", "52", "42")
    assert wins(twice) and naive_wins(twice)


def test_odd_or_short_hands_never_win():
    # A 7-tile (9-tile) hand can never win (§2.6, D-10), even one tile short of a win.
    for sub in combinations(kinds(*KT01), 7):
        assert not wins(list(sub))
    nine = kinds(*KT01, "55")
    assert not wins(nine)
    assert not wins([]) and not wins(kinds("66")) and not wins(kinds("66", "66", "55"))
    # An eye alone is an eye plus zero tens.
    assert wins(kinds("66", "66"))


def test_ten_means_ten_or_twenty():
    # Twenty counts: [6:6]+[4:4] = 20; [6:6]+[6:2] = 20; thirty is out of reach (max 24).
    assert wins(kinds("11", "11", "66", "44"))
    assert wins(kinds("11", "11", "55", "55"))  # 20 from two tens
    assert wins(kinds("11", "11", "64", "55"))
    assert not wins(kinds("11", "11", "66", "66"))  # 24
    assert not wins(kinds("11", "11", "66", "65"))  # 23
    assert not wins(kinds("11", "11", "42", "21"))  # 6 (Supreme pair is no ten)
    assert wins(kinds("11", "11", "42", "61"))  # 3 + 7
    assert wins(kinds("11", "11", "42", "43"))  # 3 + 7
    assert not wins(kinds("11", "11", "42", "31"))  # 3 + 4, even though pips are 6 + 4
    assert wins(kinds("11", "11", "42", "31"), four_two=6)
    assert wins(kinds("11", "11", "21", "61"))  # [2:1] counts 3 as usual


# ----- the search against the naive one --------------------------------------------------------

def winning_draw(rnd: random.Random, tileset, size: int) -> list[int] | None:
    """Tile ids of a winning hand of `size` built at random from the set, or None."""
    pool = list(range(tileset.size))
    rnd.shuffle(pool)
    by_kind: dict[int, list[int]] = {}
    for t in pool:
        by_kind.setdefault(tileset.kind_of[t], []).append(t)
    eyes = [k for k, copies in by_kind.items() if len(copies) >= 2]
    eye_kind = rnd.choice(eyes)
    hand = by_kind[eye_kind][:2]
    rest = [t for t in pool if t not in hand]
    for _ in range((size - 2) // 2):
        first = rest.pop()
        partners = [t for t in rest if ten(tileset.kind_of[first], tileset.kind_of[t])]
        if not partners:
            return None
        second = rnd.choice(partners)
        rest.remove(second)
        hand += [first, second]
    return hand


def a_win(rnd: random.Random, tileset, size: int) -> list[int]:
    while (hand := winning_draw(rnd, tileset, size)) is None:
        pass
    return hand


def near_win(rnd: random.Random, tileset, size: int) -> list[int]:
    """A winning hand with one tile swapped for another tile of the set."""
    hand = a_win(rnd, tileset, size)
    out = rnd.randrange(size)
    rest = [t for t in range(tileset.size) if t not in hand]
    hand[out] = rnd.choice(rest)
    return hand


def check_hand(tiles: list[int], tileset, four_two: int = 3) -> bool:
    hand = [tileset.kind_of[t] for t in tiles]
    expected = naive_wins(hand, four_two)
    assert wins(hand, four_two) is expected, [tileset.label(t) for t in tiles]
    laid = layout(tiles, tileset.kind_of, four_two)
    if not expected:
        assert laid is None
        return False
    assert laid is not None
    eye, pairs = laid
    assert len(eye) == 2 and tileset.kind_of[eye[0]] == tileset.kind_of[eye[1]]
    assert len(pairs) == (len(tiles) - 2) // 2
    for a, b in pairs:
        assert ten(tileset.kind_of[a], tileset.kind_of[b], four_two)
    used = [*eye, *(t for p in pairs for t in p)]
    assert sorted(used) == sorted(tiles)
    return True


@pytest.mark.parametrize("four_two", [3, 6])
def test_random_eight_tile_hands_from_one_set(four_two):
    rnd = random.Random(f"one-set/{four_two}")
    results = [check_hand(rnd.sample(range(32), 8), CHINESE, four_two) for _ in range(3000)]
    assert sum(results) >= 5 and results.count(False) >= 2500


@pytest.mark.parametrize("four_two", [3, 6])
def test_random_ten_tile_hands_from_four_sets(four_two):
    rnd = random.Random(f"four-sets/{four_two}")
    results = [check_hand(rnd.sample(range(128), 10), FOUR_SETS, four_two)
               for _ in range(3000)]
    assert sum(results) >= 5 and results.count(False) >= 2500


@pytest.mark.parametrize(("tileset", "size"), [(CHINESE, 8), (FOUR_SETS, 10), (FOUR_SETS, 8)])
def test_near_wins(tileset, size):
    rnd = random.Random(f"near/{tileset.name}/{size}")
    for _ in range(300):
        assert check_hand(a_win(rnd, tileset, size), tileset) is True
    results = [check_hand(near_win(rnd, tileset, size), tileset) for _ in range(1500)]
    # Both answers are common, so each branch of the search is exercised.
    assert sum(results) >= 80 and results.count(False) >= 1000


def test_near_wins_with_four_two_as_six():
    rnd = random.Random("near/six")
    results = [check_hand(near_win(rnd, CHINESE, 8), CHINESE, 6) for _ in range(1000)]
    assert sum(results) >= 50 and results.count(False) >= 600


def test_worked_examples_with_any_one_tile_replaced():
    # Systematic near-wins: KT-01, KT-02 and KT-03 with each tile replaced by each kind.
    for base in (KT01, KT02, KT03):
        for pos in range(8):
            for k in range(len(KINDS)):
                hand = kinds(*base)
                hand[pos] = k
                for four_two in (3, 6):
                    assert wins(hand, four_two) is naive_wins(hand, four_two), (hand, four_two)


# ----- how many tiles a hand is missing -------------------------------------------------------

def test_missing_on_examples():
    assert missing(kinds(*KT01), 3) == 0
    assert missing(kinds(*KT01[:7]), 3) == 1
    assert missing(kinds(*KT03), 3) == 1  # [4:2] or [2:2] needs a partner
    assert missing(kinds(*KT03), 3, four_two=6) == 0
    assert missing([], 3) == 8 and missing([], 4) == 10
    assert missing(kinds("66"), 3) == 7
    assert missing(kinds("66", "66"), 3) == 6
    assert missing(kinds("66", "44"), 3) == 6
    assert missing(kinds(*KT01, "55", "41"), 3) == 0  # surplus tiles are ignored
    assert missing(kinds(*KT01), 4) == 2


@pytest.mark.parametrize("pairs", [3, 4])
def test_missing_against_the_naive_search(pairs):
    rnd = random.Random(f"missing/{pairs}")
    seen = set()
    for _ in range(1500):
        size = rnd.randrange(0, 2 * pairs + 4)
        tileset = CHINESE if pairs == 3 else FOUR_SETS
        hand = [tileset.kind_of[t] for t in rnd.sample(range(tileset.size), size)]
        for four_two in (3, 6):
            expected = naive_missing(hand, pairs, four_two)
            assert missing(hand, pairs, four_two) == expected, (hand, four_two)
            seen.add(expected)
            if size == 2 * pairs + 2:
                assert (expected == 0) is naive_wins(hand, four_two)
    assert seen >= set(range(0, 2 * pairs + 1))


def test_missing_on_near_wins():
    rnd = random.Random("missing/near")
    counts = {0: 0, 1: 0, 2: 0}
    for _ in range(600):
        tiles = near_win(rnd, CHINESE, 8)
        hand = [CHINESE.kind_of[t] for t in tiles]
        expected = naive_missing(hand, 3)
        assert missing(hand, 3) == expected
        counts[expected] += 1
        shorter = hand[:rnd.randrange(8)]
        assert missing(shorter, 3) == naive_missing(shorter, 3)
    assert counts[0] >= 25 and counts[1] >= 200
