"""The draw game's fast path: its public states and `step`, with a cheaper view for the
heuristic (docs/architecture.md §3, `Table`; the game: docs/rules-book.md §2.10).

The strong player's playouts ask the heuristic (`games.domino_ai.rater`) at every move, and
building the seat's whole view for it (a frozen class that sets its fields one by one, the
hand counts, the legal moves) was a fifth of a playout's time. The heuristic reads the hand,
the line, the open ends and the legal moves only: a tuple of those rates every move alike.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.engine import Action, StateTable


class DominoSeen(NamedTuple):
    """What the draw game's heuristic reads of the view of the seat to move."""

    hand: tuple[int, ...]
    line: tuple[Any, ...]
    ends: tuple[int, ...]
    legal: tuple[Action, ...]


class DominoTable(StateTable[Any]):
    """`StateTable` whose heuristic's view is a `DominoSeen`."""

    __slots__ = ()

    def rater_view(self, seat: int) -> DominoSeen:
        state = self._state
        return DominoSeen(state.hands[seat], state.line, state.ends, self.legal())

    def copy(self) -> DominoTable:
        twin = DominoTable(self.rules, self._state)
        twin._legal = self._legal
        return twin
