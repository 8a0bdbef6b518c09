"""Ding Niu's fast path (`engine.Table`): the connecting games' table taught the block, and a
heuristic seat's turn chosen and played in one go.

Apart from the rules (`games.dingniu`), which hand a deal to it (`DingNiu.table`). Rules
source: docs/rules-book.md §2.11.3 (the block) and §2.11.6 (what a SuanZhang pays); decisions
D-20 (a block is read from the line alone), D-21 (a forced block is no SuanZhang) and D-22
(after a full block only the matching doubles are played; a smothered block ends the deal).

Why the turn in one go: a simulated deal's heuristic seats make some twenty moves a deal, and
each move asked the table for the legal moves and their ratings, then whether one of them
blocks, then made the move, asking again whether it blocks. Walking the seat's hand once finds
every legal move, its rating and the block it would make, and the chosen one is played with
what the walk found (`DingNiuTable.scored_turn`). A move that could make a SuanZhang is rated
on the table's sets of bits too (`dingniu_ai.rerated`, `dingniu_ai.chance`), not from a view
built for it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

from games import dingniu_ai, heuristic
from games.connect_table import ConnectTable, ConnectTableRules
from games.connect_walk import _BIT, _SHOWS, _attach, _attachments, _discards
from games.dingniu_block import (
    BIT,
    DECK,
    SINGLE_BITS,
    DingNiuSeen,
    any_blocks,
    blocked,
    blocks,
)
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
                return heuristic.pick(legal, [rate(each) for each in legal], rng)
            self.clear = self.version
        return self._best(legal, seat, rng) if rated is None else heuristic.pick(
            legal, rated, rng)

    def play_scored(self, rngs: Sequence[random.Random]) -> int:
        """Play the deal to its end, every seat choosing as the heuristic player does
        (`scores_as`) from its own generator in `rngs`; the moves made. Each move removes a
        tile from a hand, so a deal ends within as many moves as there are tiles dealt."""
        moves = 0
        turn = self.scored_turn
        while not self.done:
            seat = self.turn
            turn(seat, rngs[seat])
            moves += 1
        return moves

    def scored_turn(self, seat: int, rng: random.Random) -> Action:
        """The seat to move's choice as the heuristic player makes it (`scored_move`), from the
        same generator, played at once (`play`); the move made.

        A seat with a line before it, every turn but the lead, has its moves found, rated and
        read for the block each would make in one walk of its hand (the connecting games'
        walk, `connect_walk._attachments`, asking `dingniu_block.blocked`), figure for
        figure, and the chosen move is made with what the walk found. A move that makes the
        deal's block is rated by what its SuanZhang is expected to pay (`dingniu_ai.rerated`),
        on the table's sets of bits."""
        if not self.line or self._legal is not None or self.done:
            action = self.scored_move(seat, rng)
            self.play(action)
            return action
        opts = self.options
        e0, e1 = self.ends
        on_left, on_right = _SHOWS[e0], _SHOWS[e1]
        hand = self.hands[seat]
        held = self.held[seat]
        match = held & (on_left | on_right) & self.attachable
        # Per legal move, the block it makes ("" for none), while the deal may still have one
        # (D-20: only an attached non-double makes one).
        kinds: list[str] | None = None
        if not match:  # nothing to attach: a discard, of one tile of each kind (D-02)
            acts, rated = _discards(hand)
        else:
            laid = self.laid
            if opts.suanzhang and not self.block:
                kinds = []
            acts, rated = _attachments(hand, held, match, on_left, on_right, e0, e1,
                                       self.deck & ~(held | laid | self.dropped[seat]), kinds,
                                       SINGLE_BITS & ~laid, blocked, opts.smothered)
        if len(acts) == 1:
            chosen = 0
        else:
            if kinds is not None and any(kinds):
                rated = self._block_rated(seat, acts, rated, kinds)
            top = max(rated)
            if rated.count(top) == 1:
                chosen = rated.index(top)
            else:  # the draw `heuristic.pick` makes
                best = [i for i, value in enumerate(rated) if value == top]
                chosen = best[rng.randrange(len(best))]
        action = acts[chosen]
        self._made(seat, action, kinds, chosen)
        return action

    def _block_rated(self, seat: int, acts: list[Action], rated: list[float],
                     kinds: list[str]) -> list[float]:
        """The ratings of a turn where a move makes the deal's block (`scored_turn`), as Ding
        Niu's rater makes them (`dingniu_ai.rater`): the chance that a block wins is worked
        out from what the seat sees, read off the table."""
        opts = self.options
        hand, discards = self.hands[seat], self.discards[seat]
        ends, leader = self.ends, self.leader
        unseen = self.deck & ~(self.held[seat] | self.laid | self.dropped[seat])
        held = [len(h) + len(d) for h, d in zip(self.hands, self.discards, strict=True)]

        def odds(i: int) -> float:
            return dingniu_ai.chance(opts, seat, leader, ends, acts[i], kinds[i], hand,
                                     discards, unseen, held)

        block_rated = dingniu_ai.rerated(rated, kinds, odds, opts.forced_counts)
        return rated if block_rated is None else block_rated

    def _made(self, seat: int, action: Action, kinds: list[str] | None, chosen: int) -> None:
        """`play`, for a move found by `scored_turn`'s walk (an attachment or a discard), and
        the block it makes already known (`kinds`)."""
        tile = action.tiles[0]
        self.hands[seat].remove(tile)
        bit = _BIT[tile]
        self.held[seat] ^= bit
        in_hand = self.in_hand = self.in_hand ^ bit
        ends = self.ends
        if action.verb == "play":
            self.ends = ends = _attach(self.line, ends, tile, action.arg or 0, seat)
            self._line = None
            self.laid |= bit
        else:
            self.discards[seat].append(tile)
            self.dropped[seat] |= bit
        made = kinds[chosen] if kinds is not None else ""
        if made:
            self.block, self.blocker = made, seat
            self.forced = all(kind for i, kind in enumerate(kinds or ()) if i != chosen)
            if made == "full":
                self.attachable = _DOUBLE_BITS
        block = self.block
        if block == "smothered" or (block and not self.options.doubles_after):
            self.done = "blocked" if in_hand else "out"
        elif not in_hand:
            self.done = "out"
        elif block:
            if not in_hand & _DOUBLE_BITS & (_SHOWS[ends[0]] | _SHOWS[ends[1]]):
                self.done = "blocked"
        elif not in_hand & (_SHOWS[ends[0]] | _SHOWS[ends[1]]):
            self.done = "blocked"
        self.turn = (seat + 1) % self.players
        self.version += 1
        self._legal = None

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
            self.done = "blocked" if self.in_hand else "out"
        elif block and self.in_hand:
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
