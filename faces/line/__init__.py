"""The home of the line games: Dragon, Ce Deng, Tails and Ding Niu (the Chinese set's connecting
games) and the Ukrainian "ДОМІНО" (the double-six draw game).

Rules sources: docs/rules-book.md §2.1–§2.5 (one line, one open end or two, face-down discards, the
closed end of a one-arm line), §2.11 (Ding Niu's block, in `dingniu`) and §2.10 / §3 (the draw game:
the stock, doubles crosswise, a match to 100 or 50). A move lays one tile at an end of the line, so
its button names the tile by its hand letter and face and, when both ends are open, the end it goes
to by the open number the picture shows in a badge there ("A 6:4 on 4"): a line wrapped on a
phone-wide picture snakes, so "left" and "right", or arrows, would not say which end is which.
"""

from __future__ import annotations

from faces.line.dingniu import DINGNIU
from faces.line.family import CONNECT, DOMINO, ConnectHome, DominoHome, LineHome

__all__ = ["CONNECT", "DINGNIU", "DOMINO", "HOMES", "ConnectHome", "DominoHome", "LineHome"]

HOMES = (CONNECT, DINGNIU, DOMINO)
"""This family's homes (`faces.HOMES` finds them here)."""
