"""The suite's order under work stealing (`tests.support.spread`)."""

from __future__ import annotations

import random

from tests.support.spread import SHARE, shares, spread


def test_shares_are_those_work_stealing_hands_out() -> None:
    assert shares(3039, 4) == [759, 760, 760, 760]
    assert shares(3, 4) == [0, 1, 1, 1]


def test_every_share_gets_its_slow_tests_early_and_keeps_every_test() -> None:
    rng = random.Random(7)
    for count, workers, slow_count in ((3039, 4, 49), (100, 3, 40), (10, 4, 9), (5, 2, 0)):
        items = list(range(count))
        slow = set(rng.sample(items, slow_count))
        ordered = spread(items, workers, slow.__contains__)
        assert sorted(ordered) == items
        assert [i for i in ordered if i not in slow] == sorted(set(items) - slow)
        at = 0
        for size in shares(count, workers):
            share = ordered[at:at + size]
            at += size
            mine = [k for k, i in enumerate(share) if i in slow]
            assert abs(len(mine) - slow_count / workers) <= 1
            if size >= 2 * len(mine):
                assert all(k < max(len(mine), round(SHARE * size)) for k in mine)


def test_clustered_slow_tests_are_pulled_apart() -> None:
    items = list(range(1000))
    ordered = spread(items, 4, lambda i: i >= 950)
    firsts = [ordered[k * 250:(k + 1) * 250] for k in range(4)]
    assert [sum(i >= 950 for i in share) for share in firsts] == [13, 13, 12, 12]
    assert all(max(k for k, i in enumerate(share) if i >= 950) < 150 for share in firsts)


def test_without_workers_nothing_moves() -> None:
    assert spread([3, 1, 2], 1, lambda i: i == 2) == [3, 1, 2]
