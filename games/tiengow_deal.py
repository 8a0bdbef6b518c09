"""What a deal of Tien Gow holds: its options, its state, and what one seat sees.

Apart from the rules (`games.tiengow`) so that the computer players (`games.tiengow_ai`) read a
deal without importing the rules that call on them. Rules source: docs/rules-book.md §2.8.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from games.engine import Match, View, option


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
    seen: int
    """The tiles the seat has seen played this deal, bit t for tile t: every face-up tile and
    its own face-down ones (what `history` and `trick` name). Kept as the deal goes, so a
    player need not walk the tricks again at every turn to learn which tiles are still unseen."""


class TienGowSeen(NamedTuple):
    """What the Tien Gow heuristic (`games.tiengow_ai.scores`) reads of the view of the seat to
    move, as the fast table gives it (`Table.rater_view`): a tuple made at once, where a view
    fills its fields by name, a tenth of a simulated deal with heuristic players."""

    legal: tuple[Any, ...]
    hand: tuple[int, ...]
    seat: int
    players: int
    options: TienGowOptions
    tricks: tuple[int, ...]
    trick: tuple[Play, ...]
    seen: int
    hand_counts: tuple[int, ...]
