"""Ding Niu (頂牛 dǐng niú, "Bull Fight", "Бій Биків"): two-arm Jie Long for four players on a
24-tile set, with SuanZhang, the blocking that settles the accounts.

Rules source: docs/rules-book.md §1.3 (the 24-tile set), §2.11 (the game) and the worked examples
TS-05 and DN-01…DN-05 of §5; decisions D-19 (six tiles each), D-20 (a block is read from the line
alone: full, or 4 or 5 smothered), D-21 (a forced block is no SuanZhang), D-22 (doubles only after a
full block; a smothered block ends the deal), D-23 (success is rank 1; otherwise the creator pays
12), D-24 (ties: the lower hand wins, the higher hand ranks better after), D-25 (the lead
restriction, an option) and D-26 (the winner leads next).

Everything else is the connecting games' engine (`games.connecting`): this module only fills
its hooks — who may lead and attach, what a move leaves to remember, how a deal ends, and the
settlement. The set and the reading of a block from the line are in `games.dingniu_block`,
which the computer players read too; the options, state and view in `games.dingniu_deal`, and
the fast path in `games.dingniu_table`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any, ClassVar, cast

from games import dingniu_ai
from games.connect_deal import ConnectView
from games.connecting import ConnectingRules, changes_core
from games.dingniu_block import BIT, DECK, FAILED, PLACES, SINGLE_BITS, blocks
from games.dingniu_block import block_of as block_of
from games.dingniu_deal import DingNiuOptions as DingNiuOptions
from games.dingniu_deal import DingNiuState as DingNiuState
from games.dingniu_deal import DingNiuView as DingNiuView
from games.dingniu_table import DingNiuTable
from games.engine import (
    Action,
    Budget,
    Payment,
    Rater,
    Rules,
    StateTable,
    Table,
    View,
    hand_order,
)
from games.settlement import collect
from games.tiles import CHINESE

_A, _B, _DOUBLE = CHINESE.a, CHINESE.b, CHINESE.double


class DingNiu(ConnectingRules[DingNiuState, DingNiuOptions]):
    id: ClassVar[str] = "dingniu"
    aliases: ClassVar[tuple[str, ...]] = ("bullfight", "бій", "頂牛")
    order: ClassVar[int] = 4
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    options_type: ClassVar[type[Any]] = DingNiuOptions
    state_type: ClassVar[type[Any]] = DingNiuState
    view_type: ClassVar[type[ConnectView[Any]]] = DingNiuView
    budget: ClassVar[Budget] = Budget(chips=0.1)
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "beginner": {"suanzhang": False, "settlement": "tally"},
        "zhwiki": {"lead_rule": True, "strict": True},
    }

    def arms(self, options: DingNiuOptions) -> int:
        return 2

    def deck(self, players: int) -> tuple[tuple[int, ...], int]:
        return DECK, 6

    # ----- who may play what ---------------------------------------------------------------

    def may_lead(self, state: DingNiuState, tile: int) -> bool:
        """With the lead restriction (D-25), not a tile every other tile of whose numbers
        the leader holds himself: nobody else could ever attach to it."""
        if not state.options.lead_rule:
            return True
        numbers = (_A[tile], _B[tile])
        hand = state.hands[state.turn]
        return not all(o in hand for o in DECK
                       if o != tile and (_A[o] in numbers or _B[o] in numbers))

    def may_attach(self, state: DingNiuState, tile: int) -> bool:
        """After a full block only doubles are played (D-22)."""
        return state.block != "full" or _DOUBLE[tile]

    # ----- SuanZhang ---------------------------------------------------------------------

    def moved(self, before: DingNiuState, action: Action, after: DingNiuState
              ) -> DingNiuState:
        """A non-double attached may make the deal's one block; it is a SuanZhang unless
        every attachment its player had would have made one too (D-21)."""
        opts = before.options
        if (not opts.suanzhang or action.verb != "play" or before.block
                or _DOUBLE[action.tiles[0]]):
            return after
        rest = SINGLE_BITS & ~sum(BIT[p[0]] for p in before.line)
        kind = blocks(before.ends, rest, action, opts.smothered)
        if not kind:
            return after
        forced = not any(not blocks(before.ends, rest, other, opts.smothered)
                         for other in self.legal_actions(before) if other != action)
        return dataclasses.replace(after, block=kind, blocker=before.turn, forced=forced)

    def ended(self, state: DingNiuState) -> str:
        """A smothered block ends the deal at once; so does a full one when doubles are not
        played after it (D-22)."""
        if state.block == "smothered" or (state.block and not state.options.doubles_after):
            return "blocked" if any(state.hands) else "out"
        return super().ended(state)

    # ----- the scores ----------------------------------------------------------------------

    def ranking(self, state: DingNiuState, points: tuple[int, ...], winner: int
                ) -> tuple[int, ...]:
        """Seats from 1st to 4th: the winner, then by points, a tie to the higher hand (D-24)."""
        # By points, a tie to the higher hand: the seats from the last hand to the first,
        # sorted by points alone (a sort keeps the order of ties).
        order = hand_order(state.players, state.leader)
        rest = sorted([s for s in reversed(order) if s != winner], key=points.__getitem__)
        return (winner, *rest)

    def suanzhang(self, state: DingNiuState) -> bool:
        """Whether the deal's block settles the accounts: not a forced one (D-21)."""
        return bool(state.options.suanzhang and state.block
                    and (not state.forced or state.options.forced_counts))

    def settle(self, state: DingNiuState, points: tuple[int, ...], winner: int
               ) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
        ranks = self.ranking(state, points, winner)
        labels = ["normal"] * state.players
        if not self.suanzhang(state):
            return collect(state.players, winner, dict(zip(ranks[1:], PLACES, strict=True))), ()
        blocker = cast(int, state.blocker)
        won = blocker == winner and (not state.options.strict or all(
            points[blocker] < points[s] for s in range(state.players) if s != blocker))
        if won:
            labels[blocker] = "suanzhang"
            return collect(state.players, winner, {s: 2 * p for s, p in
                                                   zip(ranks[1:], PLACES, strict=True)}), \
                tuple(labels)
        labels[blocker] = "suanzhang_failed"
        if blocker == winner:  # strict success missed: he still pays the doubled places
            payee = ranks[1]
            amounts = {s: 0 for s in ranks[2:]}
            return collect(state.players, payee, {blocker: FAILED, **amounts}), tuple(labels)
        return collect(state.players, winner, {blocker: FAILED}), tuple(labels)

    def tally(self, state: DingNiuState, points: tuple[int, ...], order: tuple[int, ...]
              ) -> tuple[Payment, ...]:
        """Points only (NAV-DN's advice to beginners): totals are kept, no chips move."""
        return ()

    def worst_loss(self, options: DingNiuOptions, players: int) -> int | None:
        """A failed SuanZhang's 12, or nothing when only points are kept."""
        return 0 if self.tallied(options) else FAILED

    # ----- what is seen, and the strong level -----------------------------------------------

    def view_more(self, state: DingNiuState) -> dict[str, Any]:
        return {"block": state.block, "blocker": state.blocker, "forced": state.forced}

    def rater(self) -> Rater:
        """The connecting games' heuristic, taught what a SuanZhang pays (`games.dingniu_ai`)."""
        return dingniu_ai.rater

    def redeal(self, view: View[DingNiuOptions], rng: random.Random) -> DingNiuState:
        """Uniformly (`Rules.redeal`): after a full block a face-down discard may show an open
        number, so the connecting games' reading of discards does not hold here."""
        return Rules.redeal(self, view, rng)

    def deals(self, view: View[DingNiuOptions], rater: Rater, rng: random.Random
              ) -> Callable[[], DingNiuState]:
        return Rules.deals(self, view, rater, rng)

    def shown(self, view: View[DingNiuOptions]) -> set[int]:
        """The tiles off the table (the eight not in the set), the seat's hand and own
        discards, and the line."""
        v = cast(DingNiuView, view)
        off = set(range(CHINESE.size)) - set(DECK)
        seat = cast(int, v.seat)
        return off | set(v.hand) | set(v.discards[seat]) | {p[0] for p in v.line}

    def rebuilt(self, view: View[DingNiuOptions], hands: tuple[tuple[int, ...], ...],
                rest: tuple[int, ...], seed: str) -> DingNiuState:
        v = cast(DingNiuView, view)
        seat = cast(int, v.seat)
        counts = [0 if s == seat else n for s, n in enumerate(v.discard_counts)]
        if len(rest) != sum(counts):
            raise ValueError("the view's counts do not add up to the unseen tiles")
        discards: list[tuple[int, ...]] = []
        at = 0
        for s, n in enumerate(counts):
            discards.append(tuple(v.discards[seat]) if s == seat else rest[at:at + n])
            at += n
        return DingNiuState(
            options=v.options, seed=seed, players=v.players, match=v.match, version=v.version,
            leader=v.leader, turn=cast(int, v.to_move), hands=hands, discards=tuple(discards),
            line=v.line, ends=v.ends, closed=None, unused=(), redeals=v.redeals, done="",
            block=v.block, blocker=v.blocker, forced=v.forced)

    # ----- the fast path ---------------------------------------------------------------------

    def table(self, state: DingNiuState) -> Table[DingNiuState]:
        """Ding Niu's own table, unless a variant changes who can play, what a move leaves or
        how a deal ends: it then plays its public `step` (as `ConnectingRules.table` says)."""
        if changes_core(type(self), DingNiu):
            return StateTable(self, state)
        return cast(Table[DingNiuState], DingNiuTable(self, state))
