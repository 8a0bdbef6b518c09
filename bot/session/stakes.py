"""Who pays whom at a table: people only, and no more than each has on the table.

docs/architecture.md §1.7 and §6. The rules core reports a deal's settlement as payments between
pairs of seats (`games.engine.Payment`: a loser pays a winner). Only the payments between two seats
at stake are kept, so people settle among themselves as if the computers' pairs were not there, and
the chips stay zero-sum among people; a computer, or a person with nothing on the table, plays for
nothing. Each seat's net is then covered by its table: a loser pays what they owe or, when that is
more than they brought, all they have, and the winners share what there is in proportion to what
they were owed (the chips that do not divide evenly go to the largest remainders, ties to the
earlier seat). No hold can go below zero, and the deal stays zero-sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Payment


@dataclass(frozen=True, slots=True)
class Paid:
    """A deal's chips per seat: what the seats at stake owed each other (stake included) and
    what actually moved, once covered by what each had on the table."""

    staked: tuple[bool, ...]
    owed: tuple[int, ...]
    chips: tuple[int, ...]

    @property
    def practice(self) -> bool:
        """Fewer than two seats at stake: nothing could move."""
        return sum(self.staked) < 2

    @property
    def short(self) -> tuple[int, ...]:
        """Per seat, what a loser owed but could not cover (0 for everyone else)."""
        return tuple(c - o if o < 0 else 0 for o, c in zip(self.owed, self.chips, strict=True))

    def to_json(self) -> dict[str, Any]:
        return {"staked": list(self.staked), "owed": list(self.owed), "chips": list(self.chips)}

    @classmethod
    def as_dealt(cls, deltas: Sequence[int], stake: int) -> Paid:
        """Every seat at stake and every payment covered: the rules core's own chips."""
        chips = tuple(d * stake for d in deltas)
        return cls((True,) * len(chips), chips, chips)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Paid:
        return cls(tuple(bool(s) for s in data["staked"]), tuple(int(o) for o in data["owed"]),
                   tuple(int(c) for c in data["chips"]))


def settle(payments: Sequence[Payment], staked: Sequence[bool], held: Sequence[int],
           stake: int) -> Paid:
    """The chips a deal moves: `payments` between seats, kept where both seats are `staked`,
    times `stake`, covered by what each seat `held` on the table."""
    n = len(staked)
    owed = [0] * n
    for p in payments:
        if staked[p.payer] and staked[p.payee]:
            owed[p.payer] -= p.amount * stake
            owed[p.payee] += p.amount * stake
    chips = [-min(-o, held[seat]) if o < 0 else 0 for seat, o in enumerate(owed)]
    pot = -sum(chips)
    winners = [seat for seat, o in enumerate(owed) if o > 0]
    due = sum(owed[seat] for seat in winners)
    if pot == due:
        for seat in winners:
            chips[seat] = owed[seat]
    elif winners:
        shares = {seat: divmod(pot * owed[seat], due) for seat in winners}
        for seat, (whole, _) in shares.items():
            chips[seat] = whole
        left = pot - sum(whole for whole, _ in shares.values())
        for seat in sorted(winners, key=lambda s: (-shares[s][1], s))[:left]:
            chips[seat] += 1
    return Paid(tuple(bool(s) for s in staked), tuple(owed), tuple(chips))
