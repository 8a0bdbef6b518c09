"""Kap Ten (夾十) and Kap Tai Shap (夾大十): draw and discard until a hand is an eye and tens.

Rules source: docs/rules-book.md §2.6 (Kap Ten), §2.7 (Kap Tai Shap), §3 rows 15–20, examples
KT-01…KT-09 in §5; decisions D-09 (ante 1 and the winner takes the pot; a stock empty at the start
of a turn voids the deal and returns the antes; the winner leads the next deal), D-10 (any face-up
discard may be taken, one's own too, and a different tile must then be discarded; the hand is tested
whenever its owner holds 8 or 10 tiles on his turn or from the deal) and D-11 (the first turn:
discard, draw, discard under Culin's rules; a single discard under the classical rules). The `deal`
option "even" deals as the seed author's simulator does (§3 row 20, §4.2): everyone alike, and the
first turn a plain draw and discard, so the simulator can be set beside his figures.

A turn is cut into the moves a player chooses, so every choice is a button: under Culin's rules
"take a discard" or "draw", then the discard that pays for a taken tile (the compulsory draw
follows it at once: nothing is chosen there), then the closing discard; under the classical rules
"take the last discard" or "draw", then the discard. A winning hand ends the deal the moment it
is held, so there is no "declare" move a player could forget.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, ClassVar

from games import kap_ai
from games.engine import (
    Action,
    Budget,
    Event,
    IllegalAction,
    InvalidOptions,
    Match,
    Outcome,
    Rater,
    Rules,
    View,
    deal_in_turn,
    rng,
    shuffle,
)
from games.hidden.kap import kap_chain, kap_sample
from games.kap_deal import (
    MAX_SETS,
    KapOptions,
    KapState,
    KapTaiShapOptions,
    KapView,
    Laid,
)
from games.kap_scored import ScoredKapTable
from games.kap_table import _DRAW, _KIND, KapTable, _in_hand, _one_per_kind, took_by_seat
from games.settlement import collect, deltas_of
from games.tens import layout, wins
from games.tiles import CHINESE, TileSet, chinese


class KapRules(Rules[KapState, KapOptions]):
    """The rules both Kap games share; they differ in sets, hand sizes and players."""

    state_type: ClassVar[type[Any]] = KapState
    presets: ClassVar[dict[str, dict[str, Any]]] = {
        "culin": {},
        "classical": {"rules": "classical"},
    }
    verbs: ClassVar[frozenset[str]] = frozenset({"take", "draw", "discard"})
    pairs: ClassVar[int]
    """Tens in a winning hand besides the eye."""

    # ----- what each game supplies -----------------------------------------------------------

    def rater(self) -> Rater:
        return kap_ai.rater

    def redeal(self, view: View[KapOptions], rng: random.Random) -> KapState:
        state: KapState = kap_sample(self, view, rng)
        return state

    def deals(self, view: View[KapOptions], rater: Rater, rng: random.Random
              ) -> Callable[[], KapState]:
        """Deals drawn in proportion to how likely they make the others' face-up discards,
        read as the heuristic's choices."""
        deals: Callable[[], KapState] = kap_chain(self, view, rater, rng)
        return deals

    def sets_for(self, options: KapOptions, players: int) -> int:
        return 1

    @property
    def hand_size(self) -> int:
        """What every player but the first is dealt; the first gets one more unless the deal
        is even."""
        return 2 * self.pairs + 1

    # ----- dealing ---------------------------------------------------------------------------

    def new_deal(self, options: KapOptions, players: int, seed: str,
                 match: Match | None = None) -> KapState:
        self.check_players(players)
        match = match or self.start_match(options, players, seed)
        sets = self.sets_for(options, players)
        deck = list(range(32 * sets))
        shuffle(rng(seed, "deal"), deck)
        hands, stock = deal_in_turn(deck, players, match.leader, self.hand_size,
                                    1 if options.deal == "seed" else 0)
        return self._start(options, seed, match, sets, tuple(_in_hand(h) for h in hands), stock)

    def deal_from(self, options: KapOptions, hands: Sequence[Sequence[int]],
                  stock: Sequence[int] = (), leader: int = 0, match: Match | None = None,
                  seed: str = "scripted", sets: int | None = None) -> KapState:
        """A chosen deal for tests and worked examples: the leader holds one tile more than
        the others (unless the deal is even); tiles named nowhere are out of this deal; the
        stock is drawn from its front.
        """
        players = len(hands)
        self.check_players(players)
        sets = self.sets_for(options, players) if sets is None else sets
        flat = [t for hand in hands for t in hand] + list(stock)
        if len(set(flat)) != len(flat) or not all(0 <= t < 32 * sets for t in flat):
            raise InvalidOptions(f"hands and stock must hold distinct tiles of {sets} set(s)")
        if not 0 <= leader < players:
            raise InvalidOptions("no such seat")
        for seat, hand in enumerate(hands):
            want = self.hand_size + (1 if seat == leader and options.deal == "seed" else 0)
            if len(hand) != want:
                raise InvalidOptions(f"seat {seat} must hold {want} tiles")
        match = Match.led_by(match, players, leader)
        state = self._start(options, seed, match, sets, tuple(_in_hand(h) for h in hands),
                            tuple(stock))
        if not state.done and not stock and state.phase != "discard":
            raise InvalidOptions("the first turn draws: the stock needs a tile")
        return state

    def _start(self, options: KapOptions, seed: str, match: Match, sets: int,
               hands: tuple[tuple[int, ...], ...], stock: tuple[int, ...]) -> KapState:
        leader = match.leader
        if options.deal == "even":
            phase = "open"  # nothing on the table yet: the first turn is a draw and a discard
        else:
            phase = "swap" if options.rules == "culin" else "discard"  # D-11
        state = KapState(
            options=options, seed=seed, players=len(hands), match=match, version=0, sets=sets,
            leader=leader, turn=leader, turns=1, phase=phase, taken=None, hands=hands,
            stock=stock, pile=(), done="", winner=None, source="",
        )
        if self._wins(options, hands[leader]):
            # A hand dealt complete wins before its first discard (D-10).
            return dataclasses.replace(state, phase="", done="won", winner=leader,
                                       source="deal")
        return state

    def _wins(self, options: KapOptions, hand: Sequence[int]) -> bool:
        return wins([_KIND[t] for t in hand], options.four_two)

    # ----- playing ---------------------------------------------------------------------------

    def to_move(self, state: KapState) -> int | None:
        return None if state.done else state.turn

    def takeable(self, state: KapState) -> tuple[int, ...]:
        """Pile tiles the player to move may take now: any of them under Culin's rules (his own
        included, D-10), only the last under the classical rules, none once he has taken."""
        if state.done or state.phase != "open" or not state.pile:
            return ()
        if state.options.rules == "classical":
            return (state.pile[-1][0],)
        return tuple(t for t, _ in state.pile)

    def legal_actions(self, state: KapState) -> tuple[Action, ...]:
        if state.done:
            return ()
        if state.phase == "open":
            return (*(Action("take", (t,)) for t in _one_per_kind(self.takeable(state))), _DRAW)
        hand = state.hands[state.turn]
        if state.taken is not None:
            # "Another" tile (D-10): an identical copy would put the same tile straight back.
            barred = _KIND[state.taken]
            others = tuple(t for t in hand if _KIND[t] != barred)
            # A hand of nothing but that kind (possible with many sets) has only copies to give.
            hand = others or tuple(t for t in hand if t != state.taken)
        return tuple(Action("discard", (t,)) for t in _one_per_kind(hand))

    def step(self, state: KapState, action: Action
             ) -> tuple[KapState, tuple[Event, ...]]:
        seat = state.turn
        hand = state.hands[seat]
        events: list[Event] = []
        pile, stock, phase, taken = state.pile, state.stock, state.phase, state.taken
        took = state.took
        turn, turns, done, winner = state.turn, state.turns, state.done, state.winner
        completed = state.source
        source = ""
        if action.verb == "take":
            (tile,) = action.tiles
            index = max(i for i, (t, _) in enumerate(pile) if t == tile)
            pile = pile[:index] + pile[index + 1:]
            hand = _in_hand((*hand, tile))
            took = (*took, (tile, seat))
            events.append(Event("take", seat, (tile,)))
            phase = "swap" if state.options.rules == "culin" else "discard"
            taken = tile
            source = "discard"
        elif action.verb == "draw":
            hand = _in_hand((*hand, stock[0]))
            events.append(Event("draw", seat))
            stock, phase = stock[1:], "discard"
            source = "stock"
        else:
            (tile,) = action.tiles
            hand = tuple(t for t in hand if t != tile)
            events.append(Event("discard", seat, (tile,)))
            pile = (*pile, (tile, seat))
            if (tile, seat) in took:
                took = tuple(r for r in took if r != (tile, seat))
            if state.phase == "swap":
                # Culin's compulsory draw follows the discard at once (§2.6, D-11); the stock
                # cannot be empty here: it was checked when the turn began. The turn's last
                # discard is "one tile" (§2.6): the taken tile may go now.
                hand = _in_hand((*hand, stock[0]))
                events.append(Event("draw", seat))
                stock, phase, taken = stock[1:], "discard", None
                source = "stock"
        if source and self._wins(state.options, hand):
            phase, done, winner, taken, completed = "", "won", seat, None, source
            events += [Event("win", seat, hand, len(hand)), Event("end", None, (), seat)]
        elif action.verb == "discard" and state.phase == "discard":
            taken = None
            if not stock:
                # Nothing left to draw when a turn begins: the deal is void (D-09).
                phase, done = "", "void"
                events += [Event("void"), Event("end")]
            else:
                turn, turns, phase = (seat + 1) % state.players, turns + 1, "open"
        new = KapState(
            options=state.options, seed=state.seed, players=state.players, match=state.match,
            version=state.version + 1, sets=state.sets, leader=state.leader, turn=turn,
            turns=turns, phase=phase, taken=taken,
            hands=(*state.hands[:seat], hand, *state.hands[seat + 1:]), stock=stock, pile=pile,
            done=done, winner=winner, source=completed, took=took,
        )
        return new, tuple(events)

    # ----- scoring ---------------------------------------------------------------------------

    def outcome(self, state: KapState) -> Outcome | None:
        if not state.done:
            return None
        return _settled(state.players, state.winner, state.options.ante, state.source)

    def worst_loss(self, options: KapOptions, players: int) -> int | None:
        """The ante: each player antes and the winner takes the pot, a void deal returns the
        antes (docs/rules-book.md §2.6 and §2.7, "Settlement"; D-09)."""
        return options.ante

    def next_match(self, state: KapState, result: Outcome | None = None) -> Match:
        if result is None:
            result = self.outcome(state)
        if result is None:
            raise IllegalAction("the deal is not over")
        m = state.match
        # The winner leads the next deal; after a void deal the same player leads again (D-09).
        leader = state.winner if state.winner is not None else state.leader
        winner: int | None = None
        if state.options.deals and m.deal + 1 >= state.options.deals:
            _, chips = m.totals(result)
            winner = max(range(state.players), key=lambda s: (chips[s], s == leader, -s))
        return m.after(result, 0, leader, winner)

    # ----- what may be seen ------------------------------------------------------------------

    def view(self, state: KapState, seat: int | None, legal: tuple[Action, ...] | None = None
             ) -> KapView:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"no seat {seat}")
        mover = self.to_move(state)
        winning: Laid | None = None
        if state.winner is not None:
            winning = layout(state.hands[state.winner], _KIND, state.options.four_two)
        return KapView(
            game=self.id, options=state.options, tiles=self.tileset(state.options),
            seat=seat, players=state.players,
            version=state.version, sets=state.sets, leader=state.leader, to_move=mover,
            turns=state.turns, phase=state.phase, taken=state.taken,
            hand=state.hands[seat] if seat is not None else (),
            hand_counts=tuple(map(len, state.hands)), stock=len(state.stock), pile=state.pile,
            took=took_by_seat(state.took, state.players),
            takeable=self.takeable(state), pot=state.options.ante * state.players,
            match=state.match,
            legal=((self.legal_actions(state) if legal is None else legal)
                   if mover is not None and mover == seat else ()),
            outcome=self.outcome(state) if state.done else None, winning=winning,
        )

    # ----- the fast path ---------------------------------------------------------------------

    def table(self, state: KapState) -> KapTable:
        return ScoredKapTable(self, state)


@cache
def _settled(n: int, winner: int | None, ante: int, source: str) -> Outcome:
    """A finished deal's outcome: all it depends on is who won, how, and the ante (a void deal
    returns the antes, D-09). Remembered, as an outcome cannot change: a simulation settles
    every deal, and the payments of ten players cost more than a deal's last moves."""
    if winner is None:
        return Outcome("void", (0,) * n, (), (0,) * n)
    payments = collect(n, winner, {s: ante for s in range(n) if s != winner})
    labels = tuple(source if s == winner else "normal" for s in range(n))
    return Outcome.paid("tens", deltas_of(n, payments), (winner,), payments, labels)


class KapTen(KapRules):
    """Two players, one set: an eye and three tens out of eight tiles."""

    id: ClassVar[str] = "kapten"
    order: ClassVar[int] = 5
    aliases: ClassVar[tuple[str, ...]] = ("kap-ten", "kapshap", "kap-shap", "тягни-десятки",
                                          "десятки", "夾十")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    options_type: ClassVar[type[Any]] = KapOptions
    pairs: ClassVar[int] = 3
    # Kap Ten's playouts are mostly the luck of the draw: asked for one standard error, the
    # strong seat left the heuristic's discard on noise and won 46.8 % of 900 games against a
    # normal one (`gupai sim kapten --strategy strong,normal`); asked for two, 52.8 %. With 64
    # deals a choice it won no more than a normal seat does (`benchmarks/levels.py --games
    # 400`: 52.2 %); with 256, 58.5 % (53.7–63.3 %), but at some 590 ms of processor time a
    # move. Looking every 16 deals, dropping a discard that could no longer plausibly be played
    # and stopping once one is left, within 3000 moves (a deal drawn counting as 20), it wins
    # 53.8 % of the same 400 games (48.9–58.6 %) and 55.0 % of 400 others (`--seed levels2`),
    # at 112 ms a move, 260 at most. A deal counted as the 10 moves it now costs (some 90
    # deals, not 70) won 55.2 % and 50.7 %, at up to 375 ms: not taken.
    budget: ClassVar[Budget] = Budget(candidates=3, sure=2.0, ties=True, most=256, work=3000,
                                      deal=20, look=16)

    def tileset(self, options: KapOptions) -> TileSet:
        return CHINESE


class KapTaiShap(KapRules):
    """Two to twenty players and several sets: an eye and four tens out of ten tiles."""

    id: ClassVar[str] = "kaptaishap"
    order: ClassVar[int] = 6
    aliases: ClassVar[tuple[str, ...]] = ("kap-tai-shap", "kimtaishap", "тягни-багато-десяток",
                                          "夾大十", "執十")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 20
    default_players: ClassVar[int] = 6
    options_type: ClassVar[type[Any]] = KapTaiShapOptions
    pairs: ClassVar[int] = 4
    budget: ClassVar[Budget] = Budget(candidates=3, ties=True)
    # The strong seat won 24.8 % of 400 four-player games against normal ones
    # (`benchmarks/levels.py --games 400`: 0.82–1.16 × the fair share), 26.5 % once its deals
    # kept the discards each seat took and 26.2 % (0.88–1.22 ×) once its ties went to the
    # playouts: never clearly more than a normal seat. Four times the deals would take some
    # 600 ms a move. No strong level, then.
    levels: ClassVar[tuple[str, ...]] = ("easy", "normal")

    def tileset(self, options: KapOptions) -> TileSet:
        return chinese(MAX_SETS)

    def sets_for(self, options: KapOptions, players: int) -> int:
        """⌈2n/5⌉ sets unless chosen (§2.7: 10 players → 4 sets, 20 → 8); the deal must leave
        a stock."""
        chosen = getattr(options, "sets", 0)
        sets = chosen or max(1, -(-2 * players // 5))
        dealt = 9 * players + 1
        if 32 * sets <= dealt:
            need = dealt // 32 + 1
            raise InvalidOptions(f"kaptaishap: {players} players need at least {need} sets "
                                 f"(sets={chosen})")
        return sets
