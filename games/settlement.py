"""Chip settlements shared by several games (docs/rules-book.md §2.1 points 8–9, §2.4, §2.5, §2.8).

Every function says who pays whom (`Payment`s), not only what each seat ends with: the rules
name the pairs that settle, and the session layer keeps the pairs whose both seats are people
(docs/architecture.md §1 invariant 7). Payments move chips from one seat to another, so their deltas
(`deltas_of`) sum to zero by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from games.outcome import Payment, deltas_of

__all__ = ["collect", "deltas_of", "lowest_by_hand", "pairwise"]


def pairwise(points: Sequence[int], multiplier: Callable[[int, int], int] | None = None
             ) -> tuple[Payment, ...]:
    """Every pair settles the difference of their points, times the pair's multiplier: the
    seat with more points pays the other, and tied seats pay each other nothing.

    With no multiplier each seat nets the classic Chinese settlement, `net_i = S − n·p_i` (D-01).
    """
    n = len(points)
    owed: list[Payment] = []
    for i in range(n):
        for j in range(i + 1, n):
            amount = points[j] - points[i]
            if multiplier is not None:
                amount *= multiplier(i, j)
            if amount > 0:
                owed.append(Payment(j, i, amount))
            elif amount < 0:
                owed.append(Payment(i, j, -amount))
    # One payment per pair of seats, sorted: already in the form `netted` gives (a simulation
    # settles every deal).
    return tuple(_in_order(owed))


def collect(players: int, winner: int, amounts: Mapping[int, int]) -> tuple[Payment, ...]:
    """Each seat in `amounts` pays the winner its amount; a negative amount is one the winner
    owes that seat (Tien Gow, §2.8: "negative ⇒ W pays P"), and a zero moves nothing."""
    owed: list[Payment] = []
    for seat, amount in amounts.items():
        if not 0 <= seat < players or seat == winner:
            raise ValueError(f"seat {seat} cannot settle with the winner, seat {winner}")
        if amount > 0:
            owed.append(Payment(seat, winner, amount))
        elif amount < 0:
            owed.append(Payment(winner, seat, -amount))
    # One payment per seat that settles, sorted: already in the form `netted` gives.
    return tuple(_in_order(owed))


def _in_order(payments: list[Payment]) -> list[Payment]:
    """Payments of distinct pairs of seats, sorted as `netted` keeps them, so that it has
    nothing to rebuild."""
    payments.sort(key=_pair)
    return payments


def _pair(payment: Payment) -> tuple[int, int]:
    return payment.payer, payment.payee


def lowest_by_hand(points: Sequence[int], order: Sequence[int]) -> int:
    """The seat with the fewest points; a tie goes to the lower hand number (§2.1 point 7)."""
    return min(order, key=lambda seat: points[seat])
