"""What a family of games shows, outside the rules core: the contract every home fulfils.

docs/architecture.md §11 and §1 invariant 4: a game's rules live in `games/`; everything it *shows*
lives in its family's home (`faces/line`, `faces/trick`, `faces/collect`): the words on its move
buttons and how too many moves are grouped, the hint under a hand, the lines under the table's
title, the board in words for the terminal, the board and result pictures (drawn with `rendering/`'s
toolkit), its rules text and the positions its gallery shows. (The computer players, which play from
a view, are the rules core's: the simulator needs them.) The presenter, the console and the gallery
ask the home of a view's game and never look at a view's own fields, so adding a game is its rules
module, its home and its catalogue keys.

A home is given views only, typed by its family (`Home[ConnectView]`), never a state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from PIL import Image

from faces.moves import Namer, describe, faces_of, tile_text
from faces.samples import Step
from games import get
from games.engine import Action, Event, Rules, View
from rendering import Frame, ResultRow, hand_image, hand_labels, result_card, sprites
from words.i18n import signed, tr

V = TypeVar("V", bound=View[Any])
Groups = dict[str, tuple[str, list[Action]]]
"""Group key (sent back as `!pick-KEY`) -> the group button's label and its moves."""
Letters = Mapping[int, str]
"""Hand tile id -> its letter on the hand picture and the buttons."""
MAX_MOVES = 24
"""The most move buttons one screen holds: more are grouped, two taps away."""


@dataclass(frozen=True, slots=True)
class Typed:
    """What a player typed that names no legal move: the hand tiles its letters (or a hand
    tile's face) name, a face found nowhere in the hand, and the end typed (the open number
    that marks it, "4", or "")."""

    tiles: tuple[int, ...] = ()
    face: str = ""
    end: str = ""


class Teacher(Generic[V]):
    """What the terminal teaches about a home's games, from views only: what the symbols on the move
    buttons mean, why typed tiles are no move now (in the words of docs/rules-book.md), and the
    running figures a seat panel of the picture shows, each saying what it counts."""

    def help(self, view: V, lang: str) -> list[str]:
        """The game's own moves and symbols, one line each."""
        return []

    def refusal(self, view: V, typed: Typed, lang: str) -> str:
        """Why the rules allow no move with what was typed ("" when they say nothing more
        than that it is not a move now)."""
        return ""

    def standing(self, view: V, seat: int, stake: int, lang: str) -> list[str]:
        """The seat's running match figures as its panel on the picture shows them."""
        return []


class Home(ABC, Generic[V]):
    games: ClassVar[tuple[str, ...]]
    """The ids of the games this home shows."""
    fitted: ClassVar[bool] = True
    """Buttons per row from their labels' length; the line games keep fixed rows of three."""
    variants: ClassVar[tuple[tuple[str, str, int], ...]]
    """(game, preset, players) the gallery draws."""
    teacher: ClassVar[Teacher[Any]] = Teacher()
    """What the terminal explains about these games."""

    # ----- buttons and words --------------------------------------------------------------------

    @abstractmethod
    def label(self, action: Action, letters: Letters, view: V, lang: str) -> str:
        """A move's button: the hand letters match the hand picture, so a move is found by
        eye."""

    def end(self, action: Action, view: V) -> str:
        """The mark of the end of a line a move chooses (the open number its picture shows
        there, "4"), else ""."""
        return ""

    def groups(self, legal: Sequence[Action], letters: Letters, lang: str) -> Groups:
        """Moves too many for one screen, grouped: by default by the tiles they use."""
        groups: Groups = {}
        for action in legal:
            key = "".join(letters.get(t, "?") for t in action.tiles) or action.verb
            groups.setdefault(key, (key, []))[1].append(action)
        return groups

    def hint(self, view: V, lang: str) -> str:
        """A line under the hand saying what this turn's step is ("" when the moves say it)."""
        return ""

    def caption(self, view: V, names: Sequence[str], stake: int, lang: str) -> list[str]:
        """Lines under the table's title, for those who read captions."""
        return []

    def footer(self, events: Sequence[Event], view: V, names: Sequence[str], lang: str) -> str:
        """What the last move did, in words; one move can say several things (a Tien Gow
        follow, then who took the trick): all of it."""
        named = self.named(view, lang)
        return " · ".join(describe(e, names, view.tiles, lang, named=named)
                          for e in events if e.kind != "end")

    def named(self, view: V, lang: str) -> Namer:
        """How this game's sentences call tiles: by their faces ("[2:1]"), unless the game
        gives them names or values of its own (Tien Gow's ranks, Kap's counts)."""
        return faces_of(view.tiles)

    # ----- the terminal -------------------------------------------------------------------------

    @abstractmethod
    def text_board(self, view: V, names: Sequence[str], lang: str, me: int | None,
                   stake: int) -> list[str]:
        """The public part of a view in words (a seat's own view gives the same lines); `me`
        is the seat marked as the reader's, `stake` turns antes into chips."""

    def hand_text(self, view: V, lang: str) -> str:
        """A seat's own tiles with the letters its buttons use: "A 6:6  B 5:4 …"."""
        labels = hand_labels(len(view.hand))
        text = "  ".join(f"{labels[i]} {tile_text(view.tiles, t)}"
                         for i, t in enumerate(view.hand))
        return tr(lang, "console.hand", tiles=text or "—")

    # ----- pictures -----------------------------------------------------------------------------

    @abstractmethod
    def board(self, view: V, frame: Frame) -> Image.Image:
        """The group's table picture."""

    def hand(self, view: V, frame: Frame) -> Image.Image:
        """One seat's own tiles, lettered like the buttons."""
        return hand_image(view, frame)

    def result(self, view: V, frame: Frame) -> Image.Image:
        """The deal-result card: the game's own points, the chips as the table paid them (the
        frame's, else the rules' own), the match after the deal."""
        outcome = view.outcome
        if outcome is None:
            raise ValueError("the deal has not ended")
        lang = frame.lang
        scores, chips = view.match.totals(outcome)
        toward = self.target(view)
        teams = get(view.game).teams(view.players)
        rows = []
        for s in range(view.players):
            name = frame.names[s] if s < len(frame.names) else f"#{s + 1}"
            note = frame.notes[s] if s < len(frame.notes) else ""
            if teams is not None:
                note = " · ".join(filter(None, (team_name(teams[s], lang), note)))
            total = f"{scores[s]}/{toward}" if toward else signed(chips[s])
            paid = frame.chips[s] if frame.chips else outcome.deltas[s]
            rows.append(ResultRow(s in outcome.winners, name, self.points(outcome.points[s]),
                                  paid, total, note, None if teams is None else teams[s]))
        columns = (tr(lang, "img.player"), self.points_column(lang), tr(lang, "img.balance"),
                   tr(lang, "img.match"))
        tiles = view.tiles
        revealed = [self.revealed(view, s) for s in range(view.players)]
        shown = [tuple((tiles.a[t], tiles.b[t]) for t in seat) for seat in revealed]
        worth = self.worth(view)
        marks = [tuple(worth.get(t) for t in seat) for seat in revealed]
        return result_card(rows, columns, frame, shown, sprites.family_of(tiles), marks)

    def worth(self, view: V) -> Mapping[int, int]:
        """Tile id -> what it counts, for the tiles these games count other than by their
        pips; every picture marks them on the tile."""
        return {}

    def face_down(self, view: V) -> tuple[int, ...]:
        """A seat's own tiles lying face down on the table while the deal goes on (the board
        counts them; only the seat knows them), from its own view: shown with its hand as
        face down, never as tiles to play."""
        return ()

    def revealed(self, view: V, seat: int) -> tuple[int, ...]:
        """The tiles the finished deal shows for a seat on the result card, so its points can
        be checked there: face-down discards turned up, a hand left over, the winning hand."""
        return ()

    def points_column(self, lang: str) -> str:
        """What the result card's points column counts in these games."""
        return tr(lang, "img.points")

    def points(self, n: int) -> str:
        return str(n)

    def target(self, view: V) -> int:
        """The points a match is played to, when the match is counted in points (else 0)."""
        return 0

    # ----- the gallery --------------------------------------------------------------------------

    @abstractmethod
    def samples(self, rules: Rules[Any, Any], options: Any, players: int, seed: str
                ) -> dict[str, Step]:
        """The positions of a deal worth a picture, by phase name."""

    def ringed(self, event: Event) -> tuple[int, ...]:
        """The tiles a move put on the table, outlined in gold on the table's picture and the
        gallery's: never a hand the move only showed (Kap's winning hand), which would ring
        every tile but the one the footer names."""
        return event.tiles


def team_name(team: int, lang: str) -> str:
    """A partnership's name, "team A" (`Rules.teams` numbers them from 0)."""
    return tr(lang, "team.name", team=tr(lang, f"team.{team}"))


def seat_lines(view: View[Any], names: Sequence[str], lang: str, me: int | None,
               facts: Callable[[int], list[str]]) -> list[str]:
    """The terminal's seat lines: "▶" marks the seat to move, then the name and `facts`."""
    width = max((len(n) for n in names), default=0)
    lines = []
    for seat, name in enumerate(names):
        marker = "▶" if view.to_move == seat and view.outcome is None else " "
        you = tr(lang, "console.you") if seat == me else ""
        lines.append(f"{marker} {name.ljust(width)}  {', '.join(facts(seat))}{you}")
    return lines


def chips_fact(view: View[Any], seat: int, stake: int, lang: str) -> list[str]:
    """The chips a seat has won or paid in this match by the rules' own count (the deal just
    ended included), as the seat panels show them once a deal has settled: "match +3". They
    are the game's score, not the chips a table pays: those are on the result."""
    if view.outcome is not None:
        chips = view.match.totals(view.outcome)[1]
    elif view.match.deal:
        chips = view.match.chips
    else:
        return []
    return [tr(lang, "console.match_chips", chips=signed(chips[seat] * stake))]

