"""Ding Niu's fast path (`engine.Table`): the connecting games' table taught the block.

Apart from the rules (`games.dingniu`), which hand a deal to it (`DingNiu.table`). Rules
source: docs/rules-book.md §2.11.3 (the block); decisions D-20 (a block is read from the line
alone), D-21 (a forced block is no SuanZhang) and D-22 (after a full block only the matching
doubles are played; a smothered block ends the deal).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from games import connecting_ai, dingniu_ai
from games.connect_table import ConnectTable, ConnectTableRules
from games.dingniu_block import BIT, DECK, SINGLE_BITS, DingNiuSeen, any_blocks, blocks
from games.dingniu_deal import DingNiuState, DingNiuView
from games.engine import Action, LazyViews
from games.tiles import CHINESE

_A, _B, _DOUBLE = CHINESE.a, CHINESE.b, CHINESE.double
_DOUBLE_BITS = sum(BIT[t] for t in DECK if _DOUBLE[t])
"""The set's doubles, as a set of bits: after a full block only they are attached (D-22)."""
_LAZY: LazyViews[DingNiuView] = LazyViews(DingNiuView)
"""Views of the seat to move."""


class DingNiuTable(ConnectTable):
    """A Ding Niu deal on the fast path: the connecting games' table (`ConnectTable`), whose
    tiles on the line, as a set of bits, make whether a move makes the deal's block one
    remembered answer (`dingniu_block.blocked`), and which after a full block lets only
    doubles be attached (D-22)."""

    __slots__ = ("block", "blocker", "clear", "forced")
    seen_type = DingNiuSeen

    def __init__(self, rules: ConnectTableRules, state: DingNiuState | None) -> None:
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
