"""How a deal ended, and its chips as payments between seats (docs/architecture.md §1 invariant 7,
§3).

Rules source: docs/rules-book.md §2 (each game's settlement: §2.1 points 8–9, §2.4, §2.5, §2.6,
§2.7, §2.8, §2.9, §2.10). Every game's rules say who pays whom, and the session layer needs exactly
that: chips change hands only between people, so a computer seat's payments are dropped pair by
pair, and the people settle among themselves as if the computers' pairs were not there. Per-seat
deltas alone cannot say it once several seats gain, so an outcome carries the payments, and the
deltas are their sum per seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Payment:
    """One loser paying one winner: a positive amount between two different seats, so a
    settlement never holds a payment that says nothing or one a seat makes to itself."""

    payer: int
    payee: int
    amount: int

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a payment is a positive amount, not {self.amount}")
        if self.payer == self.payee:
            raise ValueError(f"seat {self.payer} cannot pay itself")


def deltas_of(players: int, payments: Iterable[Payment]) -> tuple[int, ...]:
    """What each seat gains (or, negative, loses) once `payments` are made."""
    deltas = [0] * players
    for p in payments:
        if not (0 <= p.payer < players and 0 <= p.payee < players):
            raise ValueError(f"no seat {max(p.payer, p.payee)} among {players} players")
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    return tuple(deltas)


def netted(payments: Iterable[Payment]) -> tuple[Payment, ...]:
    """One payment per pair of seats that still owe each other something, sorted by (payer,
    payee): the one form two settlements that move chips alike share, however written.
    Payments already in that form (every settlement's, and an outcome's own again) are
    returned as they are, not rebuilt: a simulation settles every deal."""
    given = tuple(payments)
    pairs = set()
    last = (-1, -1)
    for p in given:
        key = (p.payer, p.payee)
        pair = (p.payer, p.payee) if p.payer < p.payee else (p.payee, p.payer)
        if key <= last or pair in pairs:
            break
        pairs.add(pair)
        last = key
    else:
        return given
    net: dict[tuple[int, int], int] = {}
    for p in given:
        if p.payer < p.payee:
            key, amount = (p.payer, p.payee), p.amount
        else:
            key, amount = (p.payee, p.payer), -p.amount
        net[key] = net.get(key, 0) + amount
    result = [Payment(lo, hi, amount) if amount > 0 else Payment(hi, lo, -amount)
              for (lo, hi), amount in net.items() if amount]
    result.sort(key=lambda p: (p.payer, p.payee))
    return tuple(result)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended. `points` are the game's own scores; `deltas` are chips and sum to 0;
    `payments` say who pays whom, netted per pair of seats.

    A game where one seat at most gains may give only the deltas: every loser then pays that
    seat. Where several seats can gain (pairwise settlements, a winner who owes a loser) the
    deltas cannot say who paid whom, so the payments must be named (`Outcome.paid`).
    """

    reason: str
    points: tuple[int, ...]
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    labels: tuple[str, ...] = ()
    payments: tuple[Payment, ...] = ()

    def __post_init__(self) -> None:
        players = len(self.points)
        if len(self.deltas) != players:
            raise ValueError("points and deltas must have one entry per seat")
        if sum(self.deltas) != 0:
            raise ValueError(f"chip deltas must sum to zero: {self.deltas}")
        if self.payments:
            if deltas_of(players, self.payments) != self.deltas:
                raise ValueError(f"payments {self.payments} do not net to {self.deltas}")
            object.__setattr__(self, "payments", netted(self.payments))
            return
        gainers = [s for s, d in enumerate(self.deltas) if d > 0]
        if not gainers:
            return
        if len(gainers) > 1:
            raise ValueError(f"several seats gain ({self.deltas}): the payments must be named")
        (payee,) = gainers
        object.__setattr__(self, "payments", tuple(
            Payment(s, payee, -d) for s, d in enumerate(self.deltas) if d < 0))

    @classmethod
    def paid(cls, reason: str, points: tuple[int, ...], winners: tuple[int, ...],
             payments: Iterable[Payment], labels: tuple[str, ...] = ()) -> Outcome:
        """An outcome whose deltas are what `payments` leave each seat with: the way a game
        where several seats can gain settles a deal."""
        made = tuple(payments)
        deltas = deltas_of(len(points), made)
        # The deltas are the payments' own, one per seat, and so sum to 0: only the netting
        # is left of what the constructor does (a simulation settles every deal this way).
        outcome = object.__new__(cls)
        for name, value in zip(_FIELDS, (reason, points, winners, deltas, labels, netted(made)),
                               strict=True):
            object.__setattr__(outcome, name, value)
        return outcome


_FIELDS = tuple(Outcome.__dataclass_fields__)
"""The fields of an outcome, in the order the constructor takes them."""
