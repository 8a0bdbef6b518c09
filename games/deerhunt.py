"""Deer Hunt (鹿狩り shika-gari, 中原逐鹿, "Полювання на оленів"), the partnership trick game.

Rules source: docs/rules-book.md §1.4 (red pips) and §2.12 (the game), rows 43–45 of the §3 table,
worked examples TS-06 and DH-01…DH-05 in §5; decisions D-27 (partners sit opposite), D-28 (the
dealer leads the first trick; the deal passes on), D-29 (the difference is the team's, each
loser paying one opponent; a session of 4 or 8 deals; a tied session), D-30 (the numerical
ranking), D-31 (the fair deal), D-32 and D-33 (deer escaped) and D-34 (the one-source "Tien Gow
style" and "Texas 42 style" are not offered).

Every tile is played face up and any tile may follow any lead, so a view hides nothing but the
other hands. Identical tiles are interchangeable (the earlier one played wins), so the legal
moves name one copy per face in the hand. The partnerships are the seats' (`Rules.teams`): a
deal's winners are both seats of the team with more red pips, and each of its losers pays the
difference to the opponent beside him in the settlement's fixed pairs (seat 0 with seat 1,
seat 2 with seat 3), so every seat's net is its team's and the deal is zero-sum.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, cast

from games import deerhunt_ai
from games.deerhunt_deal import DeerHuntOptions, DeerHuntState, DeerHuntView, Lay, Trick
from games.deerhunt_tiles import (
    HAND,
    PLACE,
    PLAYERS,
    RANK,
    RED,
    TEAM,
    best_of,
    escapes,
    key_tiles,
)
from games.engine import (
    Action,
    Budget,
    Event,
    IllegalAction,
    InvalidOptions,
    LazyViews,
    Match,
    Outcome,
    Payment,
    Rater,
    Rules,
    Table,
    View,
    deal_in_turn,
    rng,
    stale,
)
from games.hidden.deerhunt import deer_deals, fair_redeal
from games.tiles import CHINESE, TileSet

_ALL = tuple(range(CHINESE.size))
_KIND = CHINESE.kind_of


def deal_hands(deal: str, dealer: int, chooser: random.Random) -> tuple[tuple[int, ...], ...]:
    """Eight tiles each: at random from the dealer round (plain), or, for a fair deal, the key
    faces' two copies set aside, the rest split in halves, one copy of each key face added to
    each half, the halves given to the partnerships and each split between its two players at
    random (§2.12.5, D-31)."""
    keys = key_tiles(deal)
    if not keys:
        deck = list(_ALL)
        chooser.shuffle(deck)
        hands, _ = deal_in_turn(deck, PLAYERS, dealer, HAND)
    else:
        set_aside = {t for pair in keys for t in pair}
        rest = [t for t in _ALL if t not in set_aside]
        chooser.shuffle(rest)
        half = len(rest) // 2
        piles = [rest[:half], rest[half:]]
        for pair in keys:
            copies = list(pair)
            chooser.shuffle(copies)
            piles[0].append(copies[0])
            piles[1].append(copies[1])
        chooser.shuffle(piles)
        hands = [[] for _ in range(PLAYERS)]
        for team, pile in enumerate(piles):
            chooser.shuffle(pile)
            hands[team], hands[team + 2] = pile[:HAND], pile[HAND:]
    return tuple(tuple(sorted(hand, key=PLACE.__getitem__)) for hand in hands)


def _choices(hand: Sequence[int]) -> tuple[Action, ...]:
    """One move per face in the hand (its first copy in the hand's order)."""
    seen = 0
    moves = []
    for t in hand:
        bit = 1 << _KIND[t]
        if not seen & bit:
            seen |= bit
            moves.append(_PLAY[t])
    return tuple(moves)


_PLAY = tuple(Action("play", (t,)) for t in _ALL)


class DeerHunt(Rules[DeerHuntState, DeerHuntOptions]):
    """Four players in two partnerships, eight tricks a deal, red pips the score."""

    id: ClassVar[str] = "deerhunt"
    order: ClassVar[int] = 8
    aliases: ClassVar[tuple[str, ...]] = ("deer-hunt", "deer", "полювання", "олені",
                                          "полювання-на-оленів", "shikagari", "鹿狩り",
                                          "中原逐鹿", "逐鹿")
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    default_players: ClassVar[int] = PLAYERS
    options_type: ClassVar[type[Any]] = DeerHuntOptions
    state_type: ClassVar[type[Any]] = DeerHuntState
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "deerhunt": {},
        "fair": {"deal": "fair"},
    }
    verbs: ClassVar[frozenset[str]] = frozenset({"play"})
    budget: ClassVar[Budget] = deerhunt_ai.BUDGET
    levels: ClassVar[tuple[str, ...]] = deerhunt_ai.LEVELS

    def rater(self) -> Rater:
        return deerhunt_ai.rater

    def teams(self, players: int) -> tuple[int, ...] | None:
        return TEAM

    def tileset(self, options: DeerHuntOptions) -> TileSet:
        return CHINESE

    # ----- the strong level: the other hands dealt anew, as the deal could have dealt them ----

    def shown(self, view: View[DeerHuntOptions]) -> set[int]:
        v = cast(DeerHuntView, view)
        return {*v.hand, *(lay.tile for t in v.history for lay in t.plays),
                *(lay.tile for lay in v.trick)}

    def rebuilt(self, view: View[DeerHuntOptions], hands: tuple[tuple[int, ...], ...],
                rest: tuple[int, ...], seed: str) -> DeerHuntState:
        v = cast(DeerHuntView, view)
        if rest or tuple(map(len, hands)) != v.hand_counts:
            raise ValueError("the view's counts do not add up to the unseen tiles")
        return DeerHuntState(
            options=v.options, seed=seed, players=v.players, match=v.match, version=v.version,
            dealer=v.dealer, turn=cast(int, v.seat), hands=hands, trick=v.trick,
            history=v.history, red=v.red)

    def redeal(self, view: View[DeerHuntOptions], rng: random.Random) -> DeerHuntState:
        """Uniformly, as every game, after a plain deal; after a fair one each partnership
        keeps exactly one copy of each key face (`games.hidden.deerhunt`)."""
        if key_tiles(cast(DeerHuntView, view).options.deal):
            return fair_redeal(self, view, rng)
        return super().redeal(view, rng)

    def deals(self, view: View[DeerHuntOptions], rater: Rater, rng: random.Random
              ) -> Callable[[], DeerHuntState]:
        """Re-deals weighed by how likely they make the plays the table saw
        (`games.hidden.deerhunt`)."""
        return deer_deals(self, view, rater, rng)

    # ----- dealing ---------------------------------------------------------------------------

    def new_deal(self, options: DeerHuntOptions, players: int, seed: str,
                 match: Match | None = None) -> DeerHuntState:
        self.check_players(players)
        match = match or self.start_match(options, players, seed)
        hands = deal_hands(options.deal, match.leader, rng(seed, "deal"))
        return self._start(options, seed, match, hands)

    def deal_from(self, options: DeerHuntOptions, hands: Sequence[Sequence[int]],
                  dealer: int = 0, match: Match | None = None, seed: str = "scripted"
                  ) -> DeerHuntState:
        """A chosen deal for tests: four hands of equal size (fewer than eight tiles: the
        earlier tricks are over and took no red pips), `dealer` leading."""
        if len(hands) != PLAYERS:
            raise InvalidOptions(f"deerhunt is played by {PLAYERS} players")
        flat = [t for hand in hands for t in hand]
        if len(set(flat)) != len(flat) or not all(0 <= t < CHINESE.size for t in flat):
            raise InvalidOptions("hands must hold distinct tiles of one Chinese set")
        if not 1 <= len(hands[0]) <= HAND or any(len(h) != len(hands[0]) for h in hands):
            raise InvalidOptions("every hand needs the same number of tiles, one to eight")
        return self._start(options, seed, Match.led_by(match, PLAYERS, dealer),
                           tuple(tuple(sorted(h, key=PLACE.__getitem__)) for h in hands))

    def _start(self, options: DeerHuntOptions, seed: str, match: Match,
               hands: tuple[tuple[int, ...], ...]) -> DeerHuntState:
        return DeerHuntState(options=options, seed=seed, players=PLAYERS, match=match,
                             version=0, dealer=match.leader, turn=match.leader, hands=hands,
                             trick=(), history=(), red=(0, 0))

    # ----- playing ---------------------------------------------------------------------------

    def to_move(self, state: DeerHuntState) -> int | None:
        return state.turn if state.hands[state.turn] else None

    def legal_actions(self, state: DeerHuntState) -> tuple[Action, ...]:
        return _choices(state.hands[state.turn])

    def step(self, state: DeerHuntState, action: Action
             ) -> tuple[DeerHuntState, tuple[Event, ...]]:
        seat, tile = state.turn, action.tiles[0]
        hand = tuple(t for t in state.hands[seat] if t != tile)
        hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
        trick = (*state.trick, Lay(seat, tile))
        events = [Event("play", seat, (tile,), RED[tile])]
        history, red, turn = state.history, state.red, (seat + 1) % PLAYERS
        if len(trick) == PLAYERS:
            done = _finish(trick, state.options.deer_escaped)
            history = (*history, done)
            if not done.escaped:
                red = _credit(red, TEAM[done.winner], done.red)
            trick, turn = (), done.winner
            events.append(Event("escaped" if done.escaped else "trick", done.winner, (),
                                done.red))
        new = DeerHuntState(options=state.options, seed=state.seed, players=state.players,
                            match=state.match, version=state.version + 1, dealer=state.dealer,
                            turn=turn, hands=hands, trick=trick, history=history, red=red)
        if not hand and not trick:
            events.append(Event("end", None, (), turn))
        return new, tuple(events)

    # ----- scoring ---------------------------------------------------------------------------

    def outcome(self, state: DeerHuntState) -> Outcome | None:
        if state.hands[state.turn] or state.trick:
            return None
        return settle(state.red)

    def next_match(self, state: DeerHuntState, result: Outcome | None = None) -> Match:
        """The deal passes to the next seat (D-28). After the session's last deal the team
        with more red pips over the session wins it (its first seat stands for it); equal
        totals are a draw, or go to the pair that won the last deal (`tie=last`, D-29)."""
        if result is None:
            result = self.outcome(state)
        if result is None:
            raise IllegalAction("the deal is not over")
        m = state.match
        over = m.deal + 1 >= state.options.deals
        winner: int | None = None
        if over:
            _, chips = m.totals(result)
            if chips[0] != chips[1]:
                winner = 0 if chips[0] > chips[1] else 1
            elif state.options.tie == "last" and result.winners:
                winner = TEAM[result.winners[0]]
        after = m.after(result, 0, (state.dealer + 1) % PLAYERS, winner)
        return dataclasses.replace(after, over=True) if over and winner is None else after

    # ----- what may be seen ------------------------------------------------------------------

    def view(self, state: DeerHuntState, seat: int | None,
             legal: tuple[Action, ...] | None = None) -> DeerHuntView:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat}")
        mover = self.to_move(state)
        trick = state.trick
        return DeerHuntView(
            game=self.id, options=state.options, tiles=CHINESE, seat=seat,
            players=state.players, version=state.version, to_move=mover,
            hand=state.hands[seat] if seat is not None else (),
            hand_counts=tuple(map(len, state.hands)), match=state.match,
            legal=((self.legal_actions(state) if legal is None else legal)
                   if mover is not None and mover == seat else ()),
            outcome=self.outcome(state) if mover is None else None,
            dealer=state.dealer, trick=trick,
            best=best_of([lay.tile for lay in trick]) if trick else None,
            history=state.history, red=state.red)

    # ----- the fast path ---------------------------------------------------------------------

    def table(self, state: DeerHuntState) -> DeerHuntTable:
        return DeerHuntTable(self, state)


def _finish(trick: tuple[Lay, ...], deer_escaped: bool) -> Trick:
    tiles = [lay.tile for lay in trick]
    red = sum(RED[t] for t in tiles)
    return Trick(trick, trick[best_of(tiles)].seat, red, deer_escaped and escapes(tiles))


def _credit(red: tuple[int, int], team: int, pips: int) -> tuple[int, int]:
    return (red[0] + pips, red[1]) if team == 0 else (red[0], red[1] + pips)


def settle(red: tuple[int, int]) -> Outcome:
    """The deal's outcome from the teams' red pips: every seat scores its team's pips; the
    team with fewer pays the difference, each of its players to the opponent it is paired
    with (0 with 1, 2 with 3), so each player's net is the team's (D-29)."""
    points = tuple(red[TEAM[s]] for s in range(PLAYERS))
    difference = red[0] - red[1]
    if not difference:
        return Outcome.paid("level", points, (), ())
    losers = 1 if difference > 0 else 0
    winners = tuple(s for s in range(PLAYERS) if TEAM[s] != losers)
    payments = [Payment(s, s ^ 1, abs(difference)) for s in range(PLAYERS) if TEAM[s] == losers]
    return Outcome.paid("red-pips", points, winners, payments)


_LAZY = LazyViews(DeerHuntView)
"""Views of the seat to move."""
_FIXED = MappingProxyType({"tiles": CHINESE, "players": PLAYERS})
"""The fields of every view the same in every Deer Hunt deal."""


class DeerHuntTable(Table[DeerHuntState]):
    """A Deer Hunt deal on the fast path: the hands and the trick as lists changed in place,
    the tile holding the trick followed as tiles come."""

    __slots__ = ("_legal", "best", "dealer", "deer", "hands", "history", "match", "options",
                 "red", "rules", "seed", "trick", "turn", "version")

    def __init__(self, rules: DeerHunt, state: DeerHuntState | None) -> None:
        self.rules = rules
        if state is None:
            return  # copy() fills the fields
        self.options, self.seed, self.match = state.options, state.seed, state.match
        self.deer = state.options.deer_escaped
        self.version, self.dealer, self.turn = state.version, state.dealer, state.turn
        self.hands = [list(h) for h in state.hands]
        self.trick = list(state.trick)
        self.history = list(state.history)
        self.red = list(state.red)
        self.best = best_of([lay.tile for lay in state.trick]) if state.trick else 0
        self._legal: tuple[Action, ...] | None = None

    def copy(self) -> DeerHuntTable:
        twin = DeerHuntTable(self.rules, None)
        for name in DeerHuntTable.__slots__:
            object.__setattr__(twin, name, getattr(self, name))
        twin.hands = [list(h) for h in self.hands]
        twin.trick = list(self.trick)
        twin.history = list(self.history)
        twin.red = list(self.red)
        return twin

    def to_move(self) -> int | None:
        return self.turn if self.hands[self.turn] else None

    def legal(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = _choices(self.hands[self.turn])
        return legal

    def play(self, action: Action) -> None:
        seat = self.turn
        tile = action.tiles[0]
        self.hands[seat].remove(tile)
        trick = self.trick
        trick.append(Lay(seat, tile))
        if len(trick) > 1 and RANK[tile] > RANK[trick[self.best].tile]:
            self.best = len(trick) - 1
        elif len(trick) == 1:
            self.best = 0
        if len(trick) == PLAYERS:
            done = _finish(tuple(trick), self.deer)
            self.history.append(done)
            if not done.escaped:
                self.red[TEAM[done.winner]] += done.red
            trick.clear()
            self.turn = done.winner
        else:
            self.turn = (seat + 1) % PLAYERS
        self.version += 1
        self._legal = None

    def state(self) -> DeerHuntState:
        return DeerHuntState(
            options=self.options, seed=self.seed, players=PLAYERS, match=self.match,
            version=self.version, dealer=self.dealer, turn=self.turn,
            hands=tuple(tuple(h) for h in self.hands), trick=tuple(self.trick),
            history=tuple(self.history), red=(self.red[0], self.red[1]))

    def outcome(self) -> Outcome | None:
        if self.hands[self.turn] or self.trick:
            return None
        return settle((self.red[0], self.red[1]))

    def view(self, seat: int | None) -> DeerHuntView:
        if seat is None or seat != self.turn or not self.hands[seat]:
            return self.rules.view(self.state(), seat)
        return _LAZY.make(seat, self.legal(), self._fields, self.version, _FIXED)

    def _fields(self, seat: int, version: int) -> dict[str, Any]:
        """The view of the seat to move, by name, but for `_FIXED`, its seat and its legal
        moves (`LazyViews`)."""
        stale(version, self.version)
        trick = tuple(self.trick)
        return {"game": self.rules.id, "options": self.options, "version": self.version,
                "to_move": seat, "hand": tuple(self.hands[seat]),
                "hand_counts": tuple(map(len, self.hands)), "match": self.match,
                "outcome": None, "dealer": self.dealer, "trick": trick,
                "best": self.best if trick else None, "history": tuple(self.history),
                "red": (self.red[0], self.red[1])}
