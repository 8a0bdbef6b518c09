"""The order the suite's tests run in under `--dist worksteal`: the tests that wait on the real
clock spread over the first part of every worker's share, none left for its end.

pytest-xdist's work stealing hands each worker one contiguous share of the collection, in
order, and later moves the tail of a busy worker's queue to one that ran dry. The tests marked
`real_time` (a bot process, a browser, a stop's grace) take seconds each, mostly waiting; in the
collection's own order they came in clusters (every browser test in one share), and the last of
them ran alone at the end while the other workers had nothing left. Spread, each share holds
its part of them, one every few tests over its first `SHARE`, and ends with short tests that
any worker can take over: the workers finish within a second or two of each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

SHARE = 0.6
"""The part of each worker's share over which its slow tests are spread."""


def shares(count: int, workers: int) -> list[int]:
    """The sizes of the contiguous shares work stealing first hands out (pytest-xdist's
    `WorkStealingScheduling.check_schedule`: to each worker in turn, what is left divided by
    the workers still to serve)."""
    sizes = []
    left = count
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    return sizes


def spread(items: Sequence[T], workers: int, slow: Callable[[T], bool]) -> list[T]:
    """`items` reordered so that each of the `workers` shares holds its part of the slow ones,
    evenly spaced over its first `SHARE`; otherwise in their order."""
    if workers < 2:
        return list(items)
    slow_items = [item for item in items if slow(item)]
    fast = iter([item for item in items if not slow(item)])
    ordered: list[T] = []
    for worker, size in enumerate(shares(len(items), workers)):
        mine = slow_items[worker::workers]
        count = len(mine)
        span = max(count, round(SHARE * size))
        places = {k * span // count for k in range(count)}
        slow_ones = iter(mine)
        for at in range(max(size, count)):
            item = next(slow_ones) if at in places else next(fast, None)
            if item is not None:
                ordered.append(item)
    ordered += list(fast)
    return ordered
