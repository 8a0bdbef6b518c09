"""What a deal of Three Dozen holds: its options, its state, and what one seat sees.

Apart from the rules (`games.threedozen`) so that the computer players (`games.threedozen_ai`)
and the deals they imagine (`games.hidden.threedozen`) read a deal without importing the rules
that call on them. Rules source: docs/rules-book.md §2.9.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Match, View, option


@dataclass(frozen=True)
class ThreeDozenOptions:
    pickup: str = option("optional", "taking the last discard to pair it: optional (the seed), "
                         "or forced whenever it pairs (pagat's reading)", ("optional", "forced"))
    stake: int = option(1, "chips each player stakes", lo=1, hi=100)
    deals: int = option(0, "deals in a match (0: until the table stops)", lo=0, hi=1000)


@dataclass(frozen=True, slots=True)
class ThreeDozenState:
    options: ThreeDozenOptions
    seed: str
    players: int
    match: Match
    version: int
    leader: int
    turn: int
    turns: int
    """Player turns begun in this deal, the current one included (1-based)."""
    phase: str
    """"open" (take the last discard or draw), "meld" (lay out a pair), "discard", "" at the end."""
    hands: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[tuple[int, int], ...], ...]
    """Pairs laid out face up, per seat, in the order laid."""
    stock: tuple[int, ...]
    """Face down; drawn from the front, so a scripted stock lists tiles in the order drawn."""
    pile: tuple[tuple[int, int], ...]
    """Face-up discards since the last reshuffle, oldest first, as (tile, seat)."""
    reshuffles: int
    winner: int | None
    source: str
    """How the third pair came: "deal", "discard" (the predecessor's) or "stock"."""
    restocked: tuple[int, ...] = ()
    """The discards shuffled into the stock at the latest reshuffle, in id order: everyone saw
    them face up, and every tile the stock has held since is one of them."""
    restocked_held: tuple[int, ...] = ()
    """Per seat, how many tiles of `restocked` it holds (none before the first reshuffle):
    every draw since brought one, and every one it has laid out or discarded since went, all
    in everyone's sight."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreeDozenView(View[ThreeDozenOptions]):
    leader: int
    turns: int
    phase: str
    melds: tuple[tuple[tuple[int, int], ...], ...]
    stock: int
    pile: tuple[tuple[int, int], ...]
    takeable: tuple[int, ...]
    """The last discard while the player to move may take it (if it pairs with his tiles)."""
    reshuffles: int
    restocked: tuple[int, ...]
    """The discards shuffled into the stock at the latest reshuffle, in id order (none before
    the first): the stock holds only tiles of these, so every other tile nobody has seen since
    is in a hand."""
    restocked_held: tuple[int, ...]
    """Per seat, how many tiles of `restocked` it holds (empty before the first reshuffle): one
    for each draw since the reshuffle, less those it has laid out or discarded since."""
    pot: int
