"""Tien Gow (天九 Tiān Jiǔ, "Небо-Дев'ять"), the trick-taking game of the Chinese set.

Rules source: RULES.md §1.1 (hierarchy) and §2.8 (the game), worked examples TG-01…TG-22 in §5,
rows 21–26 of the §3 table; decisions D-12 (a losing banker who took more than four tricks is
paid at ×1), D-13 (the growing banker multiplier has no cap), D-14 (defaults: mixed
combinations on, growing multiplier off, early death off) and D-18 (turns by increasing seat).

A trick is led by one play and followed by each other seat with the same number of tiles, face
up only when it beats the highest play so far, otherwise face down. Face-down tiles are never
shown to anyone but their owner, so views blank them. Identical tiles are interchangeable, so
the legal moves name one copy per choice of kinds: a hand of eight has at most 70 different
face-down choices, not 8!/4!4! per copy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from games.engine import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    Match,
    Outcome,
    Rater,
    Rules,
    View,
    option,
    rng,
)
from games.hierarchy import Combo, beats, classify
from games.settlement import collect
from games.tiles import CHINESE, TileSet

_ALL = tuple(range(CHINESE.size))
_KIND = CHINESE.kind_of
PLAYERS = 4
HAND_SIZE = 8
NO_TRICK_PAYS = 5
"""A loser who took no trick pays 5; otherwise 4 − tricks (negative: the winner pays him)."""
EVEN = 4


@dataclass(frozen=True)
class TienGowOptions:
    mixed: bool = option(True, "mixed civil–military combinations may be led "
                         "(off: pure pairs only, the historical game)")
    streak: bool = option(False, "a banker who wins again plays the next deal at one more "
                          "multiplier: ×2, ×3, ×4 … until another player wins")
    early_death: bool = option(False, "a player with no trick must lay his last tile face down "
                               "when the last trick is led with a single tile")
    banker: int = option(2, "multiplier on every payment to or from the banker", lo=1, hi=10)
    unit: int = option(1, "chips per point of every payment", lo=1, hi=100)
    deals: int = option(0, "deals in a match (0: until the table stops)", lo=0, hi=1000)


@dataclass(frozen=True, slots=True)
class Play:
    """One seat's tiles in a trick. In a view, another seat's face-down tiles are blank (())."""

    seat: int
    size: int
    up: bool
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its plays in order and who took it."""

    winner: int
    plays: tuple[Play, ...]


@dataclass(frozen=True, slots=True)
class TienGowState:
    options: TienGowOptions
    seed: str
    players: int
    match: Match
    version: int
    banker: int
    multiplier: int
    """The banker's multiplier for this deal (the base, plus the streak when it grows)."""
    turn: int
    hands: tuple[tuple[int, ...], ...]
    trick: tuple[Play, ...]
    """The trick being played; empty when the turn's seat is to lead."""
    history: tuple[Trick, ...]
    tricks: tuple[int, ...]
    """Tricks credited per seat: a trick of k tiles counts k."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TienGowView(View[TienGowOptions]):
    banker: int
    multiplier: int
    trick: tuple[Play, ...]
    best: int | None
    """Index in `trick` of the play that holds it so far."""
    history: tuple[Trick, ...]
    tricks: tuple[int, ...]


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


def _distinct_choices(hand: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Every way to take `size` tiles from `hand`, one per multiset of kinds (lowest ids)."""
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for chosen in combinations(hand, size):
        seen.setdefault(tuple(_KIND[t] for t in chosen), chosen)
    return list(seen.values())


def lead_choices(hand: Sequence[int], mixed: bool) -> list[tuple[tuple[int, ...], Combo]]:
    """Every play that may be led from `hand`: singles, pairs, then the mixed combinations."""
    found: list[tuple[tuple[int, ...], Combo]] = []
    for size in (1, 2, 3, 4):
        for tiles in _distinct_choices(hand, size):
            combo = classify(tiles, mixed)
            if combo is not None:
                found.append((tiles, combo))
    return found


class TienGow(Rules[TienGowState, TienGowOptions]):
    """Four players, eight tiles each; whoever takes the last trick wins the deal."""

    id: ClassVar[str] = "tiengow"
    title: ClassVar[dict[str, str]] = {"uk": "Небо-Дев'ять", "en": "Tien Gow", "zh": "天九"}
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
        from games import tiengow_ai  # the player reads this module's views: imported when used

        return tiengow_ai.rater

    def tileset(self, options: TienGowOptions) -> TileSet:
        return CHINESE

    # ----- dealing ---------------------------------------------------------------------------

    def new_deal(self, options: TienGowOptions, players: int, seed: str,
                 match: Match | None = None) -> TienGowState:
        self.check_players(players)
        match = match or self.start_match(options, players, seed)
        deck = list(_ALL)
        rng(seed, "deal").shuffle(deck)
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
            return tuple(Action("lead", tiles) for tiles, _ in lead_choices(hand, mixed))
        lead = state.trick[0]
        size = lead.size
        best = classify(state.trick[best_index(state.trick, mixed)].tiles, mixed)
        assert best is not None
        choices = _distinct_choices(hand, size)
        acts: list[Action] = []
        if not dead(state.options, size, len(hand), state.tricks[state.turn]):
            for tiles in choices:
                combo = classify(tiles, mixed)
                if combo is not None and beats(combo, best):
                    acts.append(Action("beat", tiles))
        acts.extend(Action("fold", tiles) for tiles in choices)
        return tuple(acts)

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
        new = dataclasses.replace(state, version=state.version + 1, turn=turn, hands=hands,
                                  trick=trick, history=history, tricks=tricks)
        if not hand and not trick:
            events.append(Event("end", None, (), turn))
        return new, tuple(events)

    # ----- scoring ---------------------------------------------------------------------------

    def outcome(self, state: TienGowState) -> Outcome | None:
        if state.hands[state.turn] or state.trick:
            return None
        winner = state.history[-1].winner
        deltas = collect(state.players, winner, self.payments(state, winner))
        labels = tuple("banker" if s == state.banker else "normal" for s in range(state.players))
        return Outcome("last-trick", state.tricks, (winner,), deltas, labels)

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

    def next_match(self, state: TienGowState) -> Match:
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

    def view(self, state: TienGowState, seat: int | None) -> TienGowView:
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
            tricks=state.tricks, match=state.match,
            legal=self.legal_actions(state) if mover is not None and mover == seat else (),
            outcome=self.outcome(state),
        )


def _blank(plays: tuple[Play, ...], seat: int | None) -> tuple[Play, ...]:
    """Plays as `seat` saw them: face-down tiles of other seats are not named."""
    return tuple(p if p.up or p.seat == seat else Play(p.seat, p.size, False, ())
                 for p in plays)
