"""What the session layer does with chips: who may sit down, what a table holds, who is paid.

docs/architecture.md §1.7 and §6. Chips change hands only between people. When a deal starts, each
person at the table brings chips to it (the buy-in: the game's worst deal at the table's stake where
the game can say so, else the chat's cap in stakes; never more than they have), and a deal's
settlement is covered by what is on the table (`bot.session.stakes`). A table of fewer than two
people is practice: nobody brings anything, and the rules core's payments all involve a computer. A
person who left, or whom the host removed, stays at stake for the deal in progress (leaving cannot
undo a losing deal) and gets what is left back when it ends; anyone else no longer at the table gets
it back at once (`keep`).

Once a day (UTC) per chat, a person whose chips, on tables included, are below the chat's floor
is brought back up to it at their first game of the day: when they open, join or take over a
table. A person who cannot bring even one stake's worth is told so, and when the next refill
comes.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from bot.session.requests import Refusal, Requests
from bot.session.seating import Game, Seat, people
from bot.session.stakes import Paid, settle
from games.engine import Outcome
from storage import ChatSettings, Session, TableChips, Wallet

DAY = 86_400


def day_of(now: float) -> str:
    """The UTC day a refill belongs to ("2026-11-26")."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


def keep(seats: list[Seat], in_progress: bool) -> frozenset[int]:
    """The people whose chips stay on the table: everyone seated, and while a deal is in
    progress everyone at stake in it."""
    kept = {s.user_id for s in seats if s.person}
    if in_progress:
        kept |= {s.staked for s in seats if s.staked is not None}
    return frozenset(kept)


def practice(seats: list[Seat]) -> bool:
    """Fewer than two people at the table: computers play for nothing, so nothing can move."""
    return len(people(seats)) < 2


def buy_in(game: Game, players: int, stake: int, settings: ChatSettings) -> int:
    """The chips a person brings to a table (or tops up to before each deal)."""
    worst = game.rules.worst_loss(game.options, players)
    return (worst if worst is not None else settings.buy_in) * stake


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal that starts: its seats (who is at stake), the chips they bring, what each then
    holds."""

    seats: list[Seat]
    chips: TableChips
    held: dict[int, int]


class Chips:
    def __init__(self, requests: Requests) -> None:
        self.r = requests

    def day(self) -> str:
        return day_of(self.r.clock())

    def until_refill(self) -> tuple[int, int]:
        """Hours and minutes until the next UTC day (rounded up to a minute)."""
        left = DAY - int(self.r.clock()) % DAY
        minutes = -(-left // 60)
        return minutes // 60, minutes % 60

    async def ready(self, chat_id: int, user_id: int, name: str, stake: int) -> Wallet:
        """The person's chips once today's refill is given where due; refused (with the reason
        and the next refill) when they cannot bring one stake's worth."""
        settings = await self.r.chat_settings(chat_id)
        wallet = await self.r.storage.accounts.wallet(chat_id, user_id, settings.floor,
                                                      self.day())
        if wallet.balance >= stake:
            return wallet
        hours, minutes = self.until_refill()
        if wallet.total < settings.floor:  # only today's refill was taken already
            raise Refusal("chips.short_refill", name=name, balance=wallet.balance, need=stake,
                          floor=settings.floor, hours=hours, minutes=minutes)
        raise Refusal("chips.short", name=name, balance=wallet.balance, need=stake)

    async def refill(self, chat_id: int, seated: list[Seat]) -> None:
        """Today's refill for whoever at a table that starts has not had it and needs it."""
        settings = await self.r.chat_settings(chat_id)
        for seat in seated:
            await self.r.storage.accounts.wallet(chat_id, seat.user_id, settings.floor,
                                                 self.day())

    async def deal_starts(self, session: Session, game: Game, seats: list[Seat]) -> Dealt:
        """The seats at stake in the deal that starts, the chips they bring to the table, and
        what each will then hold."""
        held = await self.r.storage.tables.held(session.id)
        if practice(seats):
            return Dealt([dataclasses.replace(s, staked=None) for s in seats],
                         TableChips(frozenset()), {})
        settings = await self.r.chat_settings(session.chat_id)
        wanted = buy_in(game, len(seats), session.stake, settings)
        users = [s.user_id for s in people(seats)]
        balances = await self.r.storage.accounts.balances(session.chat_id, users)
        bring = {u: min(max(0, wanted - held.get(u, 0)), balances[u]) for u in users}
        after = {u: held.get(u, 0) + bring[u] for u in users}
        staked = [dataclasses.replace(s, staked=s.user_id if s.person and after[s.user_id]
                                      else None) for s in seats]
        return Dealt(staked, TableChips(keep(staked, in_progress=False),
                                        tuple((u, n) for u, n in bring.items() if n)), after)

    async def deal_ends(self, session: Session, seats: list[Seat], outcome: Outcome,
                        held: dict[int, int] | None = None
                        ) -> tuple[Paid, TableChips, tuple[int, ...]]:
        """What the finished deal pays each seat, within what is on the table (`held`, when
        the same save brings it), whose chips leave the table now (people no longer seated),
        and what each seat at stake had on the table (kept with the deal's moves)."""
        if held is None:
            held = await self.r.storage.tables.held(session.id)
        at_stake = [s.staked if s.staked is not None and held.get(s.staked, 0) > 0 else None
                    for s in seats]
        covered = tuple(held.get(u, 0) if u is not None else 0 for u in at_stake)
        paid = settle(outcome.payments, [u is not None for u in at_stake], covered,
                      session.stake)
        return paid, TableChips(keep(seats, in_progress=False)), covered

    @staticmethod
    def paid_users(seats: list[Seat]) -> list[int]:
        """The user each seat's settlement line names: whoever it played for, else its own."""
        return [s.staked if s.staked is not None else s.user_id for s in seats]
