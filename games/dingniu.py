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
which the computer players read too.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from games import connecting_ai, dingniu_ai
from games.connect_deal import ConnectOptions, ConnectState, ConnectView
from games.connect_table import ConnectTable
from games.connecting import ConnectingRules, changes_core
from games.dingniu_block import (
    BIT,
    DECK,
    FAILED,
    PLACES,
    SINGLE_BITS,
    DingNiuSeen,
    any_blocks,
    blocks,
)
from games.dingniu_block import block_of as block_of
from games.engine import (
    Action,
    Budget,
    LazyViews,
    Payment,
    Rater,
    Rules,
    StateTable,
    Table,
    View,
    hand_order,
    option,
)
from games.settlement import collect
from games.tiles import CHINESE

_A, _B, _DOUBLE = CHINESE.a, CHINESE.b, CHINESE.double
_DOUBLE_BITS = sum(BIT[t] for t in DECK if _DOUBLE[t])
"""The set's doubles, as a set of bits: after a full block only they are attached (D-22)."""


@dataclass(frozen=True)
class DingNiuOptions(ConnectOptions):
    settlement: str = option("chips", "chips: 6/1/2/3 a deal; tally: points only, no chips",
                             ("chips", "tally"))
    suanzhang: bool = option(True, "a block settles the accounts (SuanZhang); off: plain "
                             "two-armed Jie Long on 24 tiles")
    smothered: bool = option(True, "a 4 or 5 nobody can reach any more is a block too")
    doubles_after: bool = option(True, "after a full block matching doubles are still played")
    forced_counts: bool = option(False, "a block its creator could not avoid counts as "
                                 "SuanZhang too")
    strict: bool = option(False, "SuanZhang succeeds only with strictly the fewest points")
    lead_rule: bool = option(False, "no lead that only the leader's own tiles could answer")


@dataclass(frozen=True, slots=True)
class DingNiuState(ConnectState[DingNiuOptions]):
    block: str = ""
    """"full" or "smothered" once a block was made, else ""."""
    blocker: int | None = None
    """The seat whose attachment made the block."""
    forced: bool = False
    """Whether every attachment the blocker had would have made a block (死砸, D-21)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DingNiuView(ConnectView[DingNiuOptions]):
    block: str
    blocker: int | None
    forced: bool


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
        order = hand_order(state.players, state.leader)
        rest = sorted((s for s in order if s != winner),
                      key=lambda s: (points[s], -order.index(s)))
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


_LAZY: LazyViews[DingNiuView] = LazyViews(DingNiuView)
"""Views of the seat to move."""


class DingNiuTable(ConnectTable):
    """A Ding Niu deal on the fast path: the connecting games' table (`ConnectTable`), whose
    tiles on the line, as a set of bits, make whether a move makes the deal's block one
    remembered answer (`dingniu_block.blocked`), and which after a full block lets only
    doubles be attached (D-22)."""

    __slots__ = ("block", "blocker", "clear", "forced")
    seen_type = DingNiuSeen

    def __init__(self, rules: DingNiu, state: DingNiuState | None) -> None:
        super().__init__(rules, state)
        self.clear = -1
        """The version at which no legal move was found to make a block (`scored_move`), so
        that the move then made need not be asked again (`play`)."""
        if state is None:
            return  # copy() fills the fields
        self.block, self.blocker, self.forced = state.block, state.blocker, state.forced
        if self.block == "full":
            self.attachable = _DOUBLE_BITS

    def copy(self) -> DingNiuTable:
        twin = cast(DingNiuTable, super().copy())
        twin.block, twin.blocker, twin.forced = self.block, self.blocker, self.forced
        return twin

    @classmethod
    def scores_as(cls, rater: Callable[[Any], Callable[[Action], float]]) -> bool:
        return rater is dingniu_ai.rater

    def scored_move(self, seat: int, rng: random.Random) -> Action:
        """The heuristic seat's choice (`ConnectTable.scored_move`), as Ding Niu's rater
        makes it (`dingniu_ai.rater`): the connecting games' rating unless a move would make
        a SuanZhang, whose rare turns the rater's own reading answers."""
        opts = self.options
        if not self.line and opts.lead_rule:
            legal, rated = self.legal(), None
        else:  # the connecting games' moves (`legal`), found and rated in one walk
            legal, rated = self._walk(seat)
        if len(legal) == 1:
            return legal[0]
        laid = self.laid
        if opts.suanzhang and not self.block and laid:
            rest = SINGLE_BITS & ~laid
            ends, smothered = self.ends, opts.smothered
            if any_blocks(ends, rest, legal, smothered):
                rate = dingniu_ai.rater(self.rater_view(seat))
                return connecting_ai.pick(legal, [rate(each) for each in legal], rng)
            self.clear = self.version
        return self._best(legal, seat, rng) if rated is None else connecting_ai.pick(
            legal, rated, rng)

    def legal(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is not None:
            return legal
        if not self.done and not self.line and self.options.lead_rule:
            # The lead restriction: a rare position, which the public rules answer. (Only
            # doubles are attached after a full block: `attachable`, which `play` narrows.)
            legal = self._legal = self.rules.legal_actions(self.state())
            return legal
        return super().legal()

    def play(self, action: Action) -> None:
        seat = self.turn
        tile = action.tiles[0]
        verb = action.verb
        opts = self.options
        made = ""
        if (verb == "play" and opts.suanzhang and not self.block and not _DOUBLE[tile]
                and self.clear != self.version):
            rest = SINGLE_BITS & ~self.laid
            ends, smothered = self.ends, opts.smothered
            made = blocks(ends, rest, action, smothered)
            if made:
                forced = not any(not blocks(ends, rest, other, smothered)
                                 for other in self.legal() if other != action)
        super().play(action)
        if made:
            self.block, self.blocker, self.forced = made, seat, forced
            if made == "full":
                self.attachable = _DOUBLE_BITS
        block = self.block
        if block == "smothered" or (block and not opts.doubles_after):
            self.done = "blocked" if self.left else "out"
        elif block and self.left:
            ends = self.ends
            self.done = "" if any(_DOUBLE[t] and _A[t] in ends
                                  for hand in self.hands for t in hand) else "blocked"

    def state(self) -> DingNiuState:
        # Built at once, not from the connecting games' state (a state is a dozen fields set
        # one by one, and a simulation asks at the end of every deal).
        return DingNiuState(
            options=self.options, seed=self.seed, players=self.players, match=self.match,
            version=self.version, leader=self.leader, turn=self.turn,
            hands=tuple(tuple(h) for h in self.hands),
            discards=tuple(tuple(d) for d in self.discards), line=self._line_tuple(),
            ends=self.ends, closed=self.closed, unused=self.unused, redeals=self.redeals,
            done=self.done, block=self.block, blocker=self.blocker, forced=self.forced)

    def view(self, seat: int | None) -> DingNiuView:
        if self.done or seat is None or seat != self.turn:
            return cast(DingNiuView, self.rules.view(self.state(), seat))
        return _LAZY.make(seat, self.legal(), self._dn_fields, self.version, self.fixed())

    def _dn_fields(self, seat: int, version: int) -> dict[str, Any]:
        """The fields of the seat to move's view that change during a deal (`LazyViews`)."""
        fields = self._fields(seat, version)
        fields["block"], fields["blocker"], fields["forced"] = (
            self.block, self.blocker, self.forced)
        return fields
