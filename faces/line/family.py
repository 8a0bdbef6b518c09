"""The line games' homes: what every line game shows alike (`LineHome`), and the homes of
the connecting games (`ConnectHome`) and of "ДОМІНО" (`DominoHome`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar, cast

from PIL import Image

from faces.home import Home, Letters, seat_lines
from faces.line import en, uk
from faces.line.board import connecting_board, domino_board
from faces.line.teach import ConnectTeacher, DominoTeacher
from faces.moves import describe, tile_text
from faces.samples import SEEDS, Step, sample_deal
from games.connect_deal import ConnectView
from games.domino import DominoView
from games.engine import Action, Event, Rules
from rendering import Frame, hand_image
from words.catalogue import add
from words.i18n import tr

add({"en": en.LINE, "uk": uk.LINE})

TILES_PER_ROW = 12
"""Tiles of the line printed on one row of text."""
LineView = TypeVar("LineView", ConnectView[Any], DominoView[Any])


class LineHome(Home[LineView]):
    """What every line game shows alike: lettered tiles, the ends, the line in words."""

    fitted: ClassVar[bool] = False

    def label(self, action: Action, letters: Letters, view: LineView, lang: str) -> str:
        """"A 6:4 →4" leads with an open end, "A 6:4 on 4" chooses the end by its open number,
        "A 6:4 ↓" lays a tile face down; a move without tiles is a word ("Draw", "Pass")."""
        if not action.tiles:
            return tr(lang, f"btn.{action.verb}")
        text = " ".join(f"{letters.get(t, '?')} {tile_text(view.tiles, t)}"
                        for t in action.tiles)
        if action.verb == "lead" and action.arg is not None:
            return f"{text} →{action.arg}"
        side = self.end(action, view)
        if side:
            return tr(lang, "btn.on_end", move=text, end=side)
        if action.verb == "drop":
            return f"{text} ↓"
        return text

    def end(self, action: Action, view: LineView) -> str:
        """The open number of the end a play goes to, as the picture's badge shows it. Two ends
        showing the same number name the same move: either way the line keeps the same open
        numbers."""
        if action.verb == "play" and len(view.ends) == 2 and action.arg is not None:
            return str(view.ends[action.arg])
        return ""

    def hint(self, view: LineView, lang: str) -> str:
        verbs = {a.verb for a in view.legal}
        if verbs == {"lead"} and any(a.arg is not None for a in view.legal):
            return tr(lang, "hint.lead_open_end")
        if verbs == {"drop"}:
            return tr(lang, "hint.drop")
        return ""

    def footer(self, events: Sequence[Event], view: LineView, names: Sequence[str],
               lang: str) -> str:
        """The end a play went to is named only when the line has two open ends."""
        return " · ".join(describe(e, names, view.tiles, lang, self.played_on(e, view))
                          for e in events if e.kind != "end")

    def played_on(self, event: Event, view: LineView) -> int | None:
        """The open number a play at one of two ends covered: the face of the tile that now
        touches the line, its right face at the first end, its left face at the last."""
        if event.kind != "play" or len(view.ends) != 2 or not event.tiles:
            return None
        placed = next((p for p in view.line if p[0] == event.tiles[0]), None)
        if placed is None:
            return None
        return placed[2] if event.value == 0 else placed[1]

    def text_board(self, view: LineView, names: Sequence[str], lang: str, me: int | None,
                   stake: int) -> list[str]:
        """The line of tiles, its ends, and every seat's counts."""
        lines: list[str] = []
        if view.line:
            tiles = [f"[{left}:{right}]" for _, left, right, _ in view.line]
            rows = ["".join(tiles[i:i + TILES_PER_ROW])
                    for i in range(0, len(tiles), TILES_PER_ROW)]
            lines.append(tr(lang, "console.line", tiles=rows[0]))
            lines += [f"  {row}" for row in rows[1:]]
        else:
            lines.append(tr(lang, "console.line_empty"))
        facts = ([tr(lang, "console.ends", ends=" · ".join(str(e) for e in view.ends))]
                 if view.ends else [])
        facts += self.line_facts(view, lang)
        if facts:
            lines.append(" · ".join(facts))

        def counted(seat: int) -> list[str]:
            return [tr(lang, "console.tiles", view.hand_counts[seat]),
                    *self.seat_facts(view, seat, lang),
                    *self.teacher.standing(view, seat, stake, lang)]

        return lines + seat_lines(view, names, lang, me, counted)

    def line_facts(self, view: LineView, lang: str) -> list[str]:
        """What else the text board says after the ends."""
        return []

    def seat_facts(self, view: LineView, seat: int, lang: str) -> list[str]:
        """What else the text board says of a seat after its tiles."""
        return []

    def samples(self, rules: Rules[Any, Any], options: Any, players: int, seed: str
                ) -> dict[str, Step]:
        """The opening, the middle, just before the end and the end, of the deal with the
        longest line among a few seeds."""
        deals = [sample_deal(rules, options, players, f"{seed}/{k}") for k in range(SEEDS)]

        def line_length(deal: list[Step]) -> int:
            view = cast(LineView, rules.view(deal[-1].state, None))
            return len(view.line)
        steps = max(deals, key=lambda d: (line_length(d), -len(d)))
        moves = len(steps) - 1
        phases = {"opening": 1, "middle": moves // 2, "late": moves - 1, "end": moves}
        return {phase: steps[index] for phase, index in phases.items()}

    def ringed(self, event: Event) -> tuple[int, ...]:
        return event.tiles if event.kind in ("lead", "play") else ()


class ConnectHome(LineHome[ConnectView[Any]]):
    """Dragon, Ce Deng and Tails: a player who cannot play lays a tile face down."""

    games: ClassVar[tuple[str, ...]] = ("dragon", "cedeng", "tails")
    teacher = ConnectTeacher()
    variants: ClassVar[tuple[tuple[str, str, int], ...]] = (
        ("dragon", "one-arm", 4), ("dragon", "two-arm", 2), ("dragon", "one-arm", 3),
        ("cedeng", "classic", 4), ("tails", "chips", 3), ("tails", "chips", 4))

    def line_facts(self, view: ConnectView[Any], lang: str) -> list[str]:
        if view.closed is not None and view.line:
            return [tr(lang, "console.closed_end", end=view.closed)]
        return []

    def seat_facts(self, view: ConnectView[Any], seat: int, lang: str) -> list[str]:
        down = view.discard_counts[seat]
        return [tr(lang, "console.face_down", down)] if down else []

    def hand_text(self, view: ConnectView[Any], lang: str) -> str:
        """The tiles, and while the deal goes on the ones laid face down (only the seat sees
        its own)."""
        line = super().hand_text(view, lang)
        own = self.face_down(view)
        if own:
            line += "\n" + tr(lang, "console.my_face_down", tiles="  ".join(
                tile_text(view.tiles, t) for t in own))
        return line

    def face_down(self, view: ConnectView[Any]) -> tuple[int, ...]:
        """The tiles the seat laid face down (its own view holds them)."""
        if view.seat is None or view.outcome is not None:
            return ()
        return tuple(view.discards[view.seat])

    def board(self, view: ConnectView[Any], frame: Frame) -> Image.Image:
        return connecting_board(view, frame)

    def target(self, view: ConnectView[Any]) -> int:
        return view.options.target if view.options.settlement == "tally" else 0

    def revealed(self, view: ConnectView[Any], seat: int) -> tuple[int, ...]:
        """The face-down discards, which the end of the deal turns up and counts."""
        return tuple(view.discards[seat])


class DominoHome(LineHome[DominoView[Any]]):
    """"ДОМІНО": a player who cannot play draws from the stock."""

    games = ("domino",)
    teacher = DominoTeacher()
    variants = (("domino", "100", 2), ("domino", "50", 4))

    def line_facts(self, view: DominoView[Any], lang: str) -> list[str]:
        return [tr(lang, "console.stock", view.stock)]

    def board(self, view: DominoView[Any], frame: Frame) -> Image.Image:
        return domino_board(view, frame)

    def hand(self, view: DominoView[Any], frame: Frame) -> Image.Image:
        """A tile just drawn that must be played now is shown selected."""
        return hand_image(view, frame, pending=view.pending)

    def target(self, view: DominoView[Any]) -> int:
        return int(view.options.target)

    def revealed(self, view: DominoView[Any], seat: int) -> tuple[int, ...]:
        """The tiles left in each hand, whose pips the winner scores."""
        return tuple(view.revealed[seat])


CONNECT = ConnectHome()
DOMINO = DominoHome()
