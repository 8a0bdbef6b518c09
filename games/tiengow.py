"""Tien Gow (天九 Tiān Jiǔ, "Небо-Дев'ять"), the trick-taking game of the Chinese set.

Rules source: docs/rules-book.md §1.1 (hierarchy) and §2.8 (the game), worked examples TG-01…TG-22
in §5, rows 21–26 of the §3 table; decisions D-12 (a losing banker who took more than four tricks is
paid at ×1), D-13 (the growing banker multiplier has no cap), D-14 (defaults: mixed combinations on,
growing multiplier off, early death off) and D-18 (turns by increasing seat).

A trick is led by one play and followed by each other seat with the same number of tiles, face
up only when it beats the highest play so far, otherwise face down. Face-down tiles are never
shown to anyone but their owner, so views blank them. Identical tiles are interchangeable, so
the legal moves name one copy per choice of kinds: a hand of eight has at most 70 different
face-down choices, not 8!/4!4! per copy.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

from games import tiengow_ai
from games.engine import (
    Action,
    Budget,
    Event,
    IllegalAction,
    InvalidOptions,
    LazyViews,
    Match,
    Outcome,
    Rater,
    Rules,
    Scorer,
    Table,
    View,
    rng,
    shuffle,
    stale,
)
from games.heuristic import pick
from games.hierarchy import (
    CIVIL,
    SINGLE_CIVIL,
    SINGLE_MILITARY,
    VALUE,
    Combo,
    beats,
    classify,
)
from games.settlement import collect
from games.tiengow_deal import Play, TienGowOptions, TienGowSeen, TienGowState, TienGowView, Trick
from games.tiengow_leads import _KIND, _distinct_choices, _leads, lead_choices
from games.tiles import CHINESE, TileSet

_ALL = tuple(range(CHINESE.size))
PLAYERS = 4
HAND_SIZE = 8
NO_TRICK_PAYS = 5
"""A loser who took no trick pays 5; otherwise 4 − tricks (negative: the winner pays him)."""
EVEN = 4


def best_index(plays: Sequence[Play], mixed: bool = True) -> int:
    """The play holding the trick: the lead unless a later face-up play beat the best so far."""
    best = 0
    best_combo = classify(plays[0].tiles, mixed)
    assert best_combo is not None
    for i in range(1, len(plays)):
        play = plays[i]
        if not play.up:
            continue
        combo = classify(play.tiles, mixed)
        if combo is not None and beats(combo, best_combo):
            best, best_combo = i, combo
    return best


def dead(options: TienGowOptions, lead_size: int, hand_size: int, taken: int) -> bool:
    """Early death: on a last trick led with one tile, a seat with no trick cannot win it."""
    return options.early_death and lead_size == 1 and hand_size == 1 and taken == 0


class TienGow(Rules[TienGowState, TienGowOptions]):
    """Four players, eight tiles each; whoever takes the last trick wins the deal."""

    id: ClassVar[str] = "tiengow"
    order: ClassVar[int] = 7
    aliases: ClassVar[tuple[str, ...]] = ("tien-gow", "tianjiu", "небо-девять", "небо-дев'ять",
                                          "тяньдзю", "天九")
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    default_players: ClassVar[int] = PLAYERS
    options_type: ClassVar[type[Any]] = TienGowOptions
    state_type: ClassVar[type[Any]] = TienGowState
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "modern": {},
        "pure": {"mixed": False},
        "streak": {"streak": True},
        "early-death": {"early_death": True},
    }
    verbs: ClassVar[frozenset[str]] = frozenset({"lead", "beat", "fold"})

    def rater(self) -> Rater:
        return tiengow_ai.rater

    def scorer(self) -> Scorer:
        return tiengow_ai.scores

    # Tien Gow's playouts are the longest and its heuristic the slowest: at the common budget a
    # move took 152 ms on average and up to 366 ms (300 games); at 2,000 moves and 3 samples,
    # 103 ms and 223 ms, winning as often (1.25× against 1.52×, within noise).
    budget: ClassVar[Budget] = Budget(chips=0.02, work=2000, least=3)

    def tileset(self, options: TienGowOptions) -> TileSet:
        return CHINESE

    # ----- the strong level: the others' hands and face-down follows dealt anew, uniformly ---

    def shown(self, view: View[TienGowOptions]) -> set[int]:
        v = cast(TienGowView, view)
        return {*v.hand, *(t for p in [p for t in v.history for p in t.plays] + list(v.trick)
                           for t in p.tiles)}

    def rebuilt(self, view: View[TienGowOptions], hands: tuple[tuple[int, ...], ...],
                rest: tuple[int, ...], seed: str) -> TienGowState:
        v = cast(TienGowView, view)
        folded = sum(p.size for t in v.history for p in t.plays if not p.tiles)
        folded += sum(p.size for p in v.trick if not p.tiles)
        if len(rest) != folded:
            raise ValueError("the view's counts do not add up to the unseen tiles")
        # Face-down follows stay blank: nothing in the rules reads them again.
        return TienGowState(
            options=v.options, seed=seed, players=v.players, match=v.match,
            version=v.version, banker=v.banker, multiplier=v.multiplier, turn=cast(int, v.seat),
            hands=hands, trick=v.trick, history=v.history, tricks=v.tricks)

    # ----- dealing ---------------------------------------------------------------------------

    def new_deal(self, options: TienGowOptions, players: int, seed: str,
                 match: Match | None = None) -> TienGowState:
        self.check_players(players)
        match = match or self.start_match(options, players, seed)
        deck = list(_ALL)
        shuffle(rng(seed, "deal"), deck)
        hands = tuple(tuple(sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]))
                      for i in range(players))
        return self._start(options, seed, match, hands)

    def deal_from(self, options: TienGowOptions, hands: Sequence[Sequence[int]],
                  banker: int = 0, match: Match | None = None, turn: int | None = None,
                  tricks: Sequence[int] | None = None, seed: str = "scripted") -> TienGowState:
        """A chosen position for tests: hands of equal size (fewer than eight tiles means the
        earlier tricks are over; `tricks` says who took them and `turn` who leads now)."""
        if len(hands) != PLAYERS:
            raise InvalidOptions(f"tiengow is played by {PLAYERS} players")
        flat = [t for hand in hands for t in hand]
        if len(set(flat)) != len(flat) or not all(0 <= t < CHINESE.size for t in flat):
            raise InvalidOptions("hands must hold distinct tiles of one Chinese set")
        size = len(hands[0])
        if not 1 <= size <= HAND_SIZE or any(len(h) != size for h in hands):
            raise InvalidOptions("every hand needs the same number of tiles, one to eight")
        credited = tuple(tricks) if tricks is not None else (0,) * PLAYERS
        if len(credited) != PLAYERS or sum(credited) != HAND_SIZE - size:
            raise InvalidOptions("tricks taken must add up to the tiles already played")
        match = Match.led_by(match, PLAYERS, banker)
        state = self._start(options, seed, match, tuple(tuple(sorted(h)) for h in hands))
        return dataclasses.replace(state, turn=banker if turn is None else turn,
                                   tricks=credited)

    def _start(self, options: TienGowOptions, seed: str, match: Match,
               hands: tuple[tuple[int, ...], ...]) -> TienGowState:
        streak = match.streak if options.streak else 0
        return TienGowState(
            options=options, seed=seed, players=PLAYERS, match=match, version=0,
            banker=match.leader, multiplier=options.banker + streak, turn=match.leader,
            hands=hands, trick=(), history=(), tricks=(0,) * PLAYERS,
        )

    # ----- playing ---------------------------------------------------------------------------

    def to_move(self, state: TienGowState) -> int | None:
        return state.turn if state.hands[state.turn] else None

    def legal_actions(self, state: TienGowState) -> tuple[Action, ...]:
        hand = state.hands[state.turn]
        if not hand:
            return ()
        mixed = state.options.mixed
        if not state.trick:
            return _legal(hand, mixed, None, True)
        best = classify(state.trick[best_index(state.trick, mixed)].tiles, mixed)
        alive = not dead(state.options, state.trick[0].size, len(hand), state.tricks[state.turn])
        return _legal(hand, mixed, best, alive)

    def step(self, state: TienGowState, action: Action
             ) -> tuple[TienGowState, tuple[Event, ...]]:
        seat = state.turn
        tiles = action.tiles
        hand = tuple(t for t in state.hands[seat] if t not in tiles)
        hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
        trick = (*state.trick, Play(seat, len(tiles), action.verb != "fold", tiles))
        shown = () if action.verb == "fold" else tiles
        events: list[Event] = [Event(action.verb, seat, shown, len(tiles))]
        history, tricks = state.history, state.tricks
        turn = (seat + 1) % state.players
        if len(trick) == state.players:
            winner = trick[best_index(trick, state.options.mixed)].seat
            history = (*history, Trick(winner, trick))
            tricks = tuple(n + len(tiles) if s == winner else n for s, n in enumerate(tricks))
            trick = ()
            turn = winner
            events.append(Event("trick", winner, (), len(tiles)))
        new = TienGowState(
            options=state.options, seed=state.seed, players=state.players, match=state.match,
            version=state.version + 1, banker=state.banker, multiplier=state.multiplier,
            turn=turn, hands=hands, trick=trick, history=history, tricks=tricks,
        )
        if not hand and not trick:
            events.append(Event("end", None, (), turn))
        return new, tuple(events)

    # ----- scoring ---------------------------------------------------------------------------

    def outcome(self, state: TienGowState) -> Outcome | None:
        if state.hands[state.turn] or state.trick:
            return None
        winner = state.history[-1].winner
        payments = collect(state.players, winner, self.payments(state, winner))
        labels = tuple("banker" if s == state.banker else "normal" for s in range(state.players))
        return Outcome.paid("last-trick", state.tricks, (winner,), payments, labels)

    def payments(self, state: TienGowState, winner: int) -> dict[int, int]:
        """What each loser pays the winner (negative: the winner pays him), in chips."""
        banker, m, unit = state.banker, state.multiplier, state.options.unit
        owed = {}
        for seat, taken in enumerate(state.tricks):
            if seat == winner:
                continue
            base = NO_TRICK_PAYS if taken == 0 else EVEN - taken
            if winner == banker:
                factor = m
            elif seat == banker:
                factor = m if base > 0 else 1  # D-12: an owed losing banker is paid ×1
            else:
                factor = 1
            owed[seat] = base * factor * unit
        return owed

    def next_match(self, state: TienGowState, result: Outcome | None = None) -> Match:
        if result is None:
            result = self.outcome(state)
        if result is None:
            raise IllegalAction("the deal is not over")
        m = state.match
        winner = result.winners[0]
        streak = m.streak + 1 if winner == state.banker else 0
        match_winner: int | None = None
        if state.options.deals and m.deal + 1 >= state.options.deals:
            _, chips = m.totals(result)
            match_winner = max(range(state.players), key=lambda s: (chips[s], s == winner))
        after = m.after(result, 0, winner, match_winner)
        return dataclasses.replace(after, streak=streak)

    # ----- what may be seen ------------------------------------------------------------------

    def view(self, state: TienGowState, seat: int | None,
             legal: tuple[Action, ...] | None = None) -> TienGowView:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat}")
        mover = self.to_move(state)
        return TienGowView(
            game=self.id, options=state.options, tiles=self.tileset(state.options),
            seat=seat, players=state.players,
            version=state.version, banker=state.banker, multiplier=state.multiplier,
            to_move=mover, hand=state.hands[seat] if seat is not None else (),
            hand_counts=tuple(map(len, state.hands)),
            trick=_blank(state.trick, seat),
            best=best_index(state.trick, state.options.mixed) if state.trick else None,
            history=tuple(Trick(t.winner, _blank(t.plays, seat)) for t in state.history),
            tricks=state.tricks, seen=_seen(state, seat), match=state.match,
            legal=((self.legal_actions(state) if legal is None else legal)
                   if mover is not None and mover == seat else ()),
            outcome=self.outcome(state) if mover is None else None,
        )


    # ----- the fast path ---------------------------------------------------------------------

    def table(self, state: TienGowState) -> TienGowTable:
        return TienGowTable(self, state)


_BEAT_ONE = tuple(Action("beat", (t,)) for t in _ALL)
_FOLD_ONE = tuple(Action("fold", (t,)) for t in _ALL)
_SUIT = tuple(SINGLE_CIVIL if CIVIL[t] else SINGLE_MILITARY for t in _ALL)
"""The category a tile led alone has: only a single of the same suit and a higher value beats
it (`hierarchy.beats`)."""
_LEAD: dict[tuple[int, ...], Action] = {}
_BEAT: dict[tuple[int, ...], Action] = {}
_FOLD: dict[tuple[int, ...], Action] = {}
"""One move per group of tiles and verb, made once: the fast path offers the same ones often."""
_CHOICES: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}
"""`_distinct_choices` of small hands, remembered (they recur from deal to deal)."""
_LEADS: dict[tuple[tuple[int, ...], bool], tuple[Action, ...]] = {}
"""Every lead of a hand, remembered: the hands left late in a deal recur from deal to deal."""
_FOLLOWS: dict[tuple[Any, ...], tuple[Action, ...]] = {}
"""The moves of a hand that follows a lead of several tiles, remembered likewise."""
_MEMO = 1 << 16
_LAZY = LazyViews(TienGowView, late=("history",))
"""Views of the seat to move."""


def _move(moves: dict[tuple[int, ...], Action], verb: str, tiles: tuple[int, ...]) -> Action:
    action = moves.get(tiles)
    if action is None:
        if len(moves) >= _MEMO:
            moves.clear()
        action = moves[tiles] = Action(verb, tiles)
    return action


def _choices(hand: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    if size == 1:
        seen = 0
        singles = []
        for t in hand:
            bit = 1 << _KIND[t]
            if not seen & bit:
                seen |= bit
                singles.append((t,))
        return tuple(singles)
    key = (hand, size)
    found = _CHOICES.get(key)
    if found is None:
        if len(_CHOICES) >= _MEMO:
            _CHOICES.clear()
        found = _CHOICES[key] = tuple(_distinct_choices(hand, size))
    return found


def _sorted(tiles: Sequence[int]) -> bool:
    return all(tiles[i] < tiles[i + 1] for i in range(len(tiles) - 1))


def _legal(hand: tuple[int, ...], mixed: bool, best: Combo | None, alive: bool
           ) -> tuple[Action, ...]:
    """The moves of a hand: every lead when `best` is None, else the beats of `best` (none
    when not `alive`: early death) and then every fold, one per choice of kinds (§2.8)."""
    if best is None:
        key = (hand, mixed)
        found = _LEADS.get(key)
        if found is None:
            leads = (_leads(hand, mixed) if _sorted(hand)
                     else [tiles for tiles, _ in lead_choices(hand, mixed)])
            if len(_LEADS) >= _MEMO:
                _LEADS.clear()
            found = _LEADS[key] = tuple([_move(_LEAD, "lead", tiles) for tiles in leads])
        return found
    size = best.civil + best.military
    if size == 1:
        # One tile of each kind (the first in the hand); a beat must be of the lead's suit
        # and higher (`hierarchy.beats` for single tiles).
        suit, rank = best.category, best.rank
        beaten: list[Action] = []
        folds: list[Action] = []
        seen = 0
        for t in hand:
            bit = 1 << _KIND[t]
            if seen & bit:
                continue
            seen |= bit
            if alive and _SUIT[t] == suit and VALUE[t] > rank:
                beaten.append(_BEAT_ONE[t])
            folds.append(_FOLD_ONE[t])
        return (*beaten, *folds)
    shape = (hand, mixed, best.category, best.civil, best.military, best.rank, alive)
    found = _FOLLOWS.get(shape)
    if found is not None:
        return found
    choices = _choices(hand, size)
    acts: list[Action] = []
    if alive:
        for tiles in choices:
            combo = classify(tiles, mixed)
            if combo is not None and beats(combo, best):
                acts.append(_move(_BEAT, "beat", tiles))
    acts.extend([_move(_FOLD, "fold", tiles) for tiles in choices])
    if len(_FOLLOWS) >= _MEMO:
        _FOLLOWS.clear()
    found = _FOLLOWS[shape] = tuple(acts)
    return found


class TienGowTable(Table[TienGowState]):
    """A Tien Gow deal on the fast path: hands and the trick as lists changed in place, and the
    play holding the trick followed as plays come (a beat is always the new best). What a seat
    sees of the finished tricks is blanked when its view is first read, and kept: a later view
    blanks only the tricks finished since (`Table`)."""

    __slots__ = ("_fixed", "_folded", "_legal", "_public", "_seen", "_shown", "banker", "best",
                 "best_combo", "hands", "history", "match", "mixed", "multiplier", "options",
                 "players", "rules", "seed", "seen", "trick", "tricks", "turn", "version")

    def __init__(self, rules: TienGow, state: TienGowState | None) -> None:
        self.rules = rules
        if state is None:
            return  # copy() fills the fields
        options = self.options = state.options
        self.mixed = options.mixed
        self.seed, self.players, self.match = state.seed, state.players, state.match
        self.version, self.banker = state.version, state.banker
        self.multiplier, self.turn = state.multiplier, state.turn
        self.hands = [list(h) for h in state.hands]
        self.trick = list(state.trick)
        self._public = list(_blank(state.trick, None))
        """The trick as everyone sees it: the seat to move's view of it."""
        self.history = list(state.history)
        self.tricks = list(state.tricks)
        self.best = best_index(state.trick, self.mixed) if state.trick else 0
        self.best_combo = (classify(state.trick[self.best].tiles, self.mixed)
                           if state.trick else None)
        self.seen: list[list[Trick]] = [[] for _ in range(state.players)]
        """The finished tricks as each seat saw them, as far as its views have needed."""
        self._seen: list[tuple[Trick, ...]] = [() for _ in range(state.players)]
        self._shown = _seen(state, None)
        """The tiles played face up so far, as bits (the views' `seen`)."""
        self._folded = [_seen(state, s) & ~self._shown for s in range(state.players)]
        """Each seat's own face-down tiles so far, as bits: only it has seen them."""
        self._legal: tuple[Action, ...] | None = None
        self._fixed = {
            "game": rules.id, "options": options, "tiles": CHINESE, "players": self.players,
            "match": self.match, "outcome": None, "banker": self.banker,
            "multiplier": self.multiplier}
        """The fields of a view of the seat to move that stay as they are (`LazyViews`)."""

    def copy(self) -> TienGowTable:
        twin = TienGowTable(self.rules, None)
        for name in TienGowTable.__slots__:
            object.__setattr__(twin, name, getattr(self, name))
        twin.hands = [list(h) for h in self.hands]
        twin.trick = list(self.trick)
        twin._public = list(self._public)
        twin.history = list(self.history)
        twin.tricks = list(self.tricks)
        twin.seen = [list(s) for s in self.seen]
        twin._seen = list(self._seen)
        twin._folded = list(self._folded)
        return twin

    def to_move(self) -> int | None:
        return self.turn if self.hands[self.turn] else None

    def legal(self) -> tuple[Action, ...]:
        if self._legal is not None:
            return self._legal
        hand = tuple(self.hands[self.turn])
        if not hand:
            legal: tuple[Action, ...] = ()
        elif not self.trick:
            legal = _legal(hand, self.mixed, None, True)
        else:
            alive = not dead(self.options, self.trick[0].size, len(hand), self.tricks[self.turn])
            legal = _legal(hand, self.mixed, self.best_combo, alive)
        self._legal = legal
        return legal

    def play(self, action: Action) -> None:
        seat = self.turn
        tiles = action.tiles
        hand = self.hands[seat]
        for t in tiles:
            hand.remove(t)
        trick = self.trick
        verb = action.verb
        shown = Play(seat, len(tiles), verb != "fold", tiles)
        trick.append(shown)
        bits = 0
        for t in tiles:
            bits |= _BIT[t]
        if verb == "fold":
            self._folded[seat] |= bits
            shown = _BLANKS[seat][len(tiles)]
        else:
            self._shown |= bits
        self._public.append(shown)
        if verb == "lead":
            self.best = 0
            self.best_combo = classify(tiles, self.mixed)
        elif verb == "beat":
            # Only a play that beats the best so far may be made face up after the lead.
            self.best = len(trick) - 1
            self.best_combo = classify(tiles, self.mixed)
        if len(trick) == self.players:
            winner = trick[self.best].seat
            self.history.append(Trick(winner, tuple(trick)))
            self.tricks[winner] += len(tiles)
            trick.clear()
            self._public.clear()
            self.turn = winner
        else:
            self.turn = (seat + 1) % self.players
        self.version += 1
        self._legal = None

    def state(self) -> TienGowState:
        return TienGowState(
            options=self.options, seed=self.seed, players=self.players, match=self.match,
            version=self.version, banker=self.banker, multiplier=self.multiplier,
            turn=self.turn, hands=tuple(tuple(h) for h in self.hands), trick=tuple(self.trick),
            history=tuple(self.history), tricks=tuple(self.tricks),
        )

    def outcome(self) -> Outcome | None:
        return None if self.to_move() is not None else self.rules.outcome(self.state())

    def view(self, seat: int | None) -> TienGowView:
        if seat is None or seat != self.turn or not self.hands[seat]:
            return self.rules.view(self.state(), seat)
        return _LAZY.make(seat, self.legal(), self._fields, self.version, self._fixed,
                          self._history)

    @classmethod
    def scores_as(cls, rater: Callable[[Any], Callable[[Action], float]]) -> bool:
        """Whether `scored_move` chooses as the heuristic player with `rater` does."""
        return rater is tiengow_ai.rater

    def scored_move(self, seat: int, rng: random.Random) -> Action:
        """The seat to move's choice as the heuristic player makes it (`scores_as`): its moves
        scored from the table's own fields as `tiengow_ai.scores` scores them from a view
        (`rater_view`), then the best, ties broken by the same draw from the same generator
        (`ScoredPlayer.choose`). No view is made: making one at each of a deal's rated turns
        took some 6 % of a simulated deal's time."""
        legal = self.legal()
        if len(legal) == 1:
            return legal[0]
        hands = self.hands
        scores = _scores_of(
            legal, tuple(hands[seat]), seat, self.players, self.options, self.tricks,
            self._public, self._shown | self._folded[seat],
            (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]))
            if len(hands) == PLAYERS else tuple(map(len, hands)))
        return pick(legal, scores, rng)

    def play_scored(self, rngs: Sequence[random.Random]) -> int:
        """Play the deal to its end, every seat choosing as the heuristic player does
        (`scores_as`) from its own generator in `rngs`; the moves made (every trick takes a
        tile from every hand, so the deal ends once the seat to move has none)."""
        moves = 0
        hands, choose, play = self.hands, self.scored_move, self.play
        while hands[seat := self.turn]:
            play(choose(seat, rngs[seat]))
            moves += 1
        return moves

    def rater_view(self, seat: int) -> TienGowSeen:
        hands = self.hands
        return TienGowSeen(
            self.legal(), tuple(hands[seat]), seat, self.players, self.options,
            tuple(self.tricks), tuple(self._public), self._shown | self._folded[seat],
            (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]))
            if len(hands) == PLAYERS else tuple(map(len, hands)))

    def _fields(self, seat: int, version: int) -> dict[str, Any]:
        """The fields of the seat to move's view that change during a deal (`LazyViews`): read
        by the heuristic player at almost every turn, so its hand counts are counted four
        (`PLAYERS`) at once rather than mapped."""
        if version != self.version:
            stale(version, self.version)
        hands = self.hands
        # The seat to move has not played in this trick: it sees what everyone sees of it.
        return {"version": version, "to_move": seat, "hand": tuple(hands[seat]),
                "hand_counts": ((len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]))
                                if len(hands) == PLAYERS else tuple(map(len, hands))),
                "trick": tuple(self._public),
                "best": self.best if self.trick else None,
                "tricks": tuple(self.tricks), "seen": self._shown | self._folded[seat]}

    def _history(self, seat: int, version: int) -> dict[str, Any]:
        """The finished tricks as the seat to move saw them: late (`LazyViews`), as the
        computer players read `seen` instead, and blanking them was half a view's cost."""
        stale(version, self.version)
        seen = self.seen[seat]
        if len(seen) < len(self.history):
            seen.extend(Trick(t.winner, _blank(t.plays, seat))
                        for t in self.history[len(seen):])
            self._seen[seat] = tuple(seen)
        return {"history": self._seen[seat]}


_BIT = tuple(1 << t for t in _ALL)
_scores_of = tiengow_ai.scores_of


def _seen(state: TienGowState, seat: int | None) -> int:
    """The tiles `seat` has seen played (every face-up tile and its own), as bits by id."""
    bits = 0
    for plays in (*(t.plays for t in state.history), state.trick):
        for p in plays:
            if p.up or p.seat == seat:
                for t in p.tiles:
                    bits |= _BIT[t]
    return bits


_BLANKS = tuple(tuple(Play(seat, size, False, ()) for size in range(HAND_SIZE + 1))
                for seat in range(PLAYERS))
"""Another seat's face-down play as a view shows it, by seat and size: made once, as plays are
immutable, rather than for every view of every trick."""


def _blank(plays: tuple[Play, ...], seat: int | None) -> tuple[Play, ...]:
    """Plays as `seat` saw them: face-down tiles of other seats are not named."""
    return tuple([p if p.up or p.seat == seat else _BLANKS[p.seat][p.size] for p in plays])
