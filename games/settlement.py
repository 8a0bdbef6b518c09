"""Chip settlements shared by several games (RULES.md §2.1 points 8–9, §2.4, §2.5).

Every function returns per-seat deltas that sum to zero by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def pairwise(points: Sequence[int], multiplier: Callable[[int, int], int] | None = None
             ) -> tuple[int, ...]:
    """Every pair settles the difference of their points, times the pair's multiplier.

    With no multiplier this is the classic Chinese settlement, `net_i = S − n·p_i` (D-01).
    """
    n = len(points)
    deltas = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            amount = points[j] - points[i]
            if multiplier is not None:
                amount *= multiplier(i, j)
            deltas[i] += amount
            deltas[j] -= amount
    return tuple(deltas)


def collect(players: int, winner: int, payments: dict[int, int]) -> tuple[int, ...]:
    """The winner receives `payments[seat]` from each paying seat."""
    deltas = [0] * players
    for seat, amount in payments.items():
        deltas[seat] -= amount
        deltas[winner] += amount
    return tuple(deltas)


def lowest_by_hand(points: Sequence[int], order: Sequence[int]) -> int:
    """The seat with the fewest points; a tie goes to the lower hand number (§2.1 point 7)."""
    return min(order, key=lambda seat: points[seat])
