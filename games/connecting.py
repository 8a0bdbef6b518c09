"""The common engine of the Chinese connecting games: Dragon, Ce Deng and Tails.

Rules source: docs/rules-book.md §2.1 (common core), §2.3 (two arms); decisions D-02 (play is
compulsory when able), D-03 (block: stop and count what is left in hand), D-17 (two arms), D-18
(turn order). The three games differ only in deck, deal sizes, arms, redeals and settlement, which
each subclass supplies; everything about laying tiles lives here once.
"""

from __future__ import annotations

import dataclasses
import random
from abc import abstractmethod
from collections.abc import Callable
from functools import cache
from typing import Any, ClassVar, TypeVar, cast

from games import connecting_ai
from games.connect_deal import CO, ConnectState, ConnectView
from games.connect_table import ConnectTable as ConnectTable
from games.engine import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    Match,
    Outcome,
    Payment,
    Rater,
    Rules,
    StateTable,
    Table,
    View,
    hand_order,
    rng,
    shuffle,
)
from games.hidden.connecting import connect_chain, connect_sample
from games.settlement import collect, lowest_by_hand
from games.tiles import CHINESE, TileSet

_A = CHINESE.a
_B = CHINESE.b
_PIPS = CHINESE.pips
_KIND = CHINESE.kind_of
_DOUBLE = CHINESE.double


def pip_total(tiles: tuple[int, ...]) -> int:
    return sum(map(_PIPS.__getitem__, tiles))


CS = TypeVar("CS", bound=ConnectState[Any])


class ConnectingRules(Rules[CS, CO]):
    """Lead, compulsory attach, face-down discard, block; subclasses settle.

    Generic over the game's state and options, so a game's hooks see its own options. A
    variant overrides narrow hooks instead of copying a method: `may_lead` and `may_attach`
    (who can play what), `moved` (what a move leaves to remember) and `ended` (how a deal
    ends), `adjust_points`, `settle` and the tally's (the scores)."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = ConnectState
    verbs: ClassVar[frozenset[str]] = frozenset({"lead", "play", "drop"})

    # ----- what each game supplies -----------------------------------------------------------

    def arms(self, options: CO) -> int:
        return 1

    @abstractmethod
    def deck(self, players: int) -> tuple[tuple[int, ...], int]:
        """The tile ids in play and the hand size for this many players."""

    def special_deal(self, options: CO, hands: tuple[tuple[int, ...], ...]
                     ) -> str | None:
        """"redeal" to void a dealt hand, "eight" for an immediate win, None to play."""
        return None

    @abstractmethod
    def settle(self, state: CS, points: tuple[int, ...], winner: int
               ) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
        """Who pays whom (and per-seat labels) for a deal played to its end."""

    def worst_loss(self, options: CO, players: int) -> int | None:
        """One chip, where the settlement is the chip simplification (docs/rules-book.md §2.1 point
        9: the winner takes one chip from each other player; Tails, §2.5: one chip from each payer)
        or the tally (the lowest total takes one chip from each at the match's end). The classic
        settlement (§2.1 point 8) and Tails' "points" pay differences of points, which only a whole
        deal bounds, so they cannot say."""
        return 1 if options.settlement in ("chips", "tally") else None

    def dealt(self, state: CS) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The hands, and the tiles left face down (§2.2: never played, never counted) in the
        order they were shuffled: these games have no stock to draw from."""
        hands, _ = super().dealt(state)
        return hands, state.unused

    # ----- dealing ---------------------------------------------------------------------------

    def rater(self) -> Rater:
        return connecting_ai.rater

    def redeal(self, view: View[CO], rng: random.Random) -> CS:
        """The others' hands and face-down discards dealt so that no discard shows a number
        its player could have attached then (§2.1, D-02)."""
        state: CS = connect_sample(self, view, rng)
        return state

    def deals(self, view: View[CO], rater: Rater, rng: random.Random
              ) -> Callable[[], CS]:
        return cast(Callable[[], CS], connect_chain(self, view, rater, rng))

    def tileset(self, options: CO) -> TileSet:
        return CHINESE

    def new_deal(self, options: CO, players: int, seed: str,
                 match: Match | None = None) -> CS:
        self.check_players(players)
        match = match or Match.start(players)
        tiles, size = self.deck(players)
        redeals = 0
        while True:
            deck = list(tiles)
            shuffle(rng(seed, f"deal/{redeals}"), deck)
            hands = tuple(
                tuple(sorted(deck[i * size:(i + 1) * size], key=_ORDER.__getitem__))
                for i in range(players)
            )
            special = self.special_deal(options, hands)
            if special != "redeal":
                break
            redeals += 1
        return self._state(options, seed, match, hands, tuple(deck[players * size:]), redeals,
                           "eight" if special == "eight" else "")

    def deal_from(self, options: CO, hands: list[list[int]], leader: int = 0,
                  match: Match | None = None, seed: str = "scripted") -> CS:
        """A deal with chosen hands (tests and worked examples): never redealt, but an
        eight-doubles hand still wins at once when the options say so."""
        players = len(hands)
        self.check_players(players)
        tiles, _ = self.deck(players)
        flat = [t for hand in hands for t in hand]
        if len(set(flat)) != len(flat) or not set(flat) <= set(tiles):
            raise InvalidOptions("hands must hold distinct tiles of this game's deck")
        match = match or Match.start(players, leader)
        unused = tuple(sorted(set(tiles) - set(flat)))
        dealt = tuple(tuple(h) for h in hands)
        done = "eight" if self.special_deal(options, dealt) == "eight" else ""
        return self._state(options, seed, dataclasses.replace(match, leader=leader), dealt,
                           unused, 0, done)

    def _state(self, options: CO, seed: str, match: Match,
               hands: tuple[tuple[int, ...], ...], unused: tuple[int, ...], redeals: int,
               done: str) -> CS:
        players = len(hands)
        return cast(CS, self.state_type(
            options=options, seed=seed, players=players, match=match, version=0,
            leader=match.leader, turn=match.leader, hands=hands,
            discards=((),) * players, line=(), ends=(), closed=None, unused=unused,
            redeals=redeals, done=done,
        ))

    # ----- playing ---------------------------------------------------------------------------

    def to_move(self, state: CS) -> int | None:
        return None if state.done else state.turn

    def may_lead(self, state: CS, tile: int) -> bool:
        """Whether the rules let the leader open with `tile` (any tile, §2.1 point 3)."""
        return True

    def may_attach(self, state: CS, tile: int) -> bool:
        """Whether `tile` may be attached at all now, where it matches an open end (every
        tile, §2.1 point 4). Deciding who can play, it also decides when a deal is blocked."""
        return True

    def moved(self, before: CS, action: Action, after: CS) -> CS:
        """The state after a move, with whatever the game remembers of it (nothing here)."""
        return after

    def ended(self, state: CS) -> str:
        """How the deal stands after a move: "out" once every tile is placed, "blocked" once no
        tile in any hand may be attached (D-03), "" while it goes on."""
        if not any(state.hands):
            return "out"
        ends = state.ends
        if not any((_A[t] in ends or _B[t] in ends) and self.may_attach(state, t)
                   for h in state.hands for t in h):
            return "blocked"
        return ""

    def legal_actions(self, state: CS) -> tuple[Action, ...]:
        if state.done:
            return ()
        hand = state.hands[state.turn]
        seen: set[int] = set()
        acts: list[Action] = []
        if not state.line:
            two = self.arms(state.options) == 2
            for t in hand:
                if _KIND[t] in seen or not self.may_lead(state, t):
                    continue
                seen.add(_KIND[t])
                if two:
                    acts.append(Action("lead", (t,)))
                else:
                    acts.append(Action("lead", (t,), _A[t]))
                    if _B[t] != _A[t]:
                        acts.append(Action("lead", (t,), _B[t]))
            return tuple(acts)
        ends = state.ends
        for t in hand:
            if _KIND[t] in seen or not self.may_attach(state, t):
                continue
            seen.add(_KIND[t])
            for arm, end in enumerate(ends):
                if _A[t] == end or _B[t] == end:
                    acts.append(Action("play", (t,), arm))
        if acts:
            return tuple(acts)
        seen.clear()
        for t in hand:
            if _KIND[t] not in seen:
                seen.add(_KIND[t])
                acts.append(Action("drop", (t,)))
        return tuple(acts)

    def check_legal(self, state: CS, action: Action) -> None:
        """The same answer as membership in `legal_actions`, without building the list."""
        hand = state.hands[state.turn]
        ok = len(action.tiles) == 1 and action.tiles[0] in hand
        if ok:
            tile = action.tiles[0]
            kind = _KIND[tile]
            a, b = _A[tile], _B[tile]
            ok = next(t for t in hand if _KIND[t] == kind) == tile
            if not state.line:
                two = self.arms(state.options) == 2
                ok = ok and action.verb == "lead" and self.may_lead(state, tile) and (
                    action.arg is None if two else action.arg in (a, b))
            elif action.verb == "play":
                arm = action.arg
                ok = ok and arm is not None and 0 <= arm < len(state.ends) and (
                    state.ends[arm] in (a, b)) and self.may_attach(state, tile)
            else:
                ends = state.ends
                ok = ok and action.verb == "drop" and action.arg is None and not any(
                    (_A[t] in ends or _B[t] in ends) and self.may_attach(state, t)
                    for t in hand)
        if not ok:
            raise IllegalAction(f"{action.verb} is not a legal move now")

    def step(self, state: CS, action: Action) -> tuple[CS, tuple[Event, ...]]:
        seat = state.turn
        (tile,) = action.tiles
        hand = tuple(t for t in state.hands[seat] if t != tile)
        hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
        line, ends, closed, discards = state.line, state.ends, state.closed, state.discards
        a, b = _A[tile], _B[tile]
        if action.verb == "lead":
            if action.arg is None:
                line, ends = ((tile, a, b, seat),), (a, b)
            else:
                open_end = action.arg
                closed = b if open_end == a else a
                line, ends = ((tile, closed, open_end, seat),), (open_end,)
            event = Event("lead", seat, (tile,), action.arg)
        elif action.verb == "play":
            arm = action.arg or 0
            end = ends[arm]
            other = b if a == end else a
            if arm == 0 and len(ends) == 2:
                line = ((tile, other, end, seat), *line)
                ends = (other, ends[1])
            elif arm == 0:
                line = (*line, (tile, end, other, seat))
                ends = (other,)
            else:
                line = (*line, (tile, end, other, seat))
                ends = (ends[0], other)
            event = Event("play", seat, (tile,), arm)
        else:
            discards = (*discards[:seat], (*discards[seat], tile), *discards[seat + 1:])
            event = Event("drop", seat)
        new = self.moved(state, action, dataclasses.replace(
            state, version=state.version + 1, turn=(seat + 1) % state.players, hands=hands,
            discards=discards, line=line, ends=ends, closed=closed))
        done = self.ended(new)
        if not done:
            return new, (event,)
        new = dataclasses.replace(new, done=done)
        return new, (event, Event("end", None, (), None if done == "out" else 1))

    # ----- scoring ---------------------------------------------------------------------------

    def final_discards(self, state: CS) -> tuple[tuple[int, ...], ...]:
        """Discards plus, after a block, the tiles left in hand (D-03)."""
        if state.done == "eight":
            return state.hands
        return tuple(d + h for d, h in zip(state.discards, state.hands, strict=True))

    def outcome(self, state: CS) -> Outcome | None:
        if not state.done:
            return None
        order = hand_order(state.players, state.leader)
        if state.done == "eight":
            winner = next(s for s in order if all(_DOUBLE[t] for t in state.hands[s]))
            points = tuple(0 if s == winner else pip_total(h) for s, h in enumerate(state.hands))
            payments = collect(state.players, winner,
                               {s: 2 * p for s, p in enumerate(points) if s != winner})
            return Outcome.paid("eight-doubles", points, (winner,), payments)
        points = tuple(pip_total(d) for d in self.final_discards(state))
        points = self.adjust_points(state, points)
        winner = lowest_by_hand(points, order)
        labels: tuple[str, ...] = ()
        if self.tallied(state.options):
            payments = self.tally(state, points, order)
        else:
            payments, labels = self.settle(state, points, winner)
        return Outcome.paid("out" if state.done == "out" else "blocked", points, (winner,),
                            payments, labels)

    def one_chip_each(self, state: CS, winner: int) -> tuple[Payment, ...]:
        """The simplified settlement: the winner takes one chip from every other player."""
        return collect(state.players, winner, {s: 1 for s in range(state.players) if s != winner})

    def adjust_points(self, state: CS, points: tuple[int, ...]) -> tuple[int, ...]:
        return points

    def tallied(self, options: CO) -> bool:
        """Whether scores add up over a match to a target instead of paying every deal."""
        return options.settlement == "tally"

    def tally(self, state: CS, points: tuple[int, ...], order: tuple[int, ...]
              ) -> tuple[Payment, ...]:
        """Scores add up over the match; at its end the lowest total takes 1 from each."""
        winner = self._tally_winner(state, points, order)
        if winner is None:
            return ()
        return collect(state.players, winner, {s: 1 for s in order if s != winner})

    def _tally_winner(self, state: CS, points: tuple[int, ...],
                      order: tuple[int, ...]) -> int | None:
        totals = tuple(m + p for m, p in zip(state.match.scores, points, strict=True))
        opts = state.options
        ends = max(totals) >= opts.target or (opts.deals and state.match.deal + 1 >= opts.deals)
        return lowest_by_hand(totals, order) if ends else None

    def next_match(self, state: CS, result: Outcome | None = None) -> Match:
        if result is None:
            result = self.outcome(state)
        if result is None:
            raise IllegalAction("the deal is not over")
        m = state.match
        opts = state.options
        leader = result.winners[0] if opts.lead == "winner" else (state.leader + 1) % state.players
        winner: int | None = None
        if self.tallied(opts):
            winner = self._tally_winner(state, result.points,
                                        hand_order(state.players, state.leader))
        elif opts.deals and m.deal + 1 >= opts.deals:
            _, chips = m.totals(result)
            winner = max(hand_order(state.players, state.leader), key=lambda s: chips[s])
        return m.after(result, state.redeals, leader, winner)

    def finite_match(self, options: CO) -> bool:
        return self.tallied(options) or options.deals > 0

    # ----- what may be seen ------------------------------------------------------------------

    view_type: ClassVar[type[ConnectView[Any]]] = ConnectView
    """A variant that shows more subclasses `ConnectView` and fills it in `view_more`."""

    def view_more(self, state: CS) -> dict[str, Any]:
        """The public fields a variant's view adds, for every seat alike."""
        return {}

    def view(self, state: CS, seat: int | None,
             legal: tuple[Action, ...] | None = None) -> ConnectView[CO]:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat}")
        if state.done:
            discards = self.final_discards(state)
        elif seat is None:
            discards = ((),) * state.players
        else:
            discards = (*((),) * seat, state.discards[seat], *((),) * (state.players - seat - 1))
        return self.view_type(
            **self.view_more(state),
            game=self.id, options=state.options, tiles=self.tileset(state.options),
            seat=seat, players=state.players,
            version=state.version,
            arms=self.arms(state.options), leader=state.leader, to_move=self.to_move(state),
            hand=state.hands[seat] if seat is not None else (),
            hand_counts=tuple(map(len, state.hands)),
            discard_counts=tuple(map(len, state.discards)),
            discards=discards, line=state.line, ends=state.ends, closed=state.closed,
            unused=len(state.unused), redeals=state.redeals, match=state.match,
            legal=((self.legal_actions(state) if legal is None else legal)
                   if seat is not None and seat == state.turn else ()),
            outcome=self.outcome(state) if state.done else None,
        )


    # ----- the fast path ---------------------------------------------------------------------

    def table(self, state: CS) -> Table[CS]:
        """The fast path knows the common core only: a game that changes who can play, what
        a move leaves or how a deal ends (`CORE_HOOKS`) plays its public `step` instead, so
        a variant is never silently wrong there."""
        if changes_core(type(self), ConnectingRules):
            return StateTable(self, state)
        return cast(Table[CS], ConnectTable(self, state))


CORE_HOOKS = ("may_lead", "may_attach", "moved", "ended", "view_more")


@cache
def changes_core(game: type, base: type) -> bool:
    """Whether `game` overrides one of `base`'s `CORE_HOOKS`, which its fast table knows only
    as `base` has them (asked at every deal, answered once)."""
    return any(getattr(game, hook) is not getattr(base, hook) for hook in CORE_HOOKS)


_ORDER = tuple(_KIND[t] * CHINESE.size + t for t in range(CHINESE.size))
"""A tile's place in a dealt hand: kind order, then id."""
