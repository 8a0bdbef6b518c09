"""A hand's move buttons: one per legal move, in two taps when there are too many for a phone.

docs/architecture.md §1 invariant 5: buttons come only from the view's legal moves. Each button
carries its move as data (the hand letters it plays, the faces it names, the end of the line, the
verb), so a platform that chooses by typing (the terminal) or by picking tiles (Discord's
multi-select) reads the move, not its label. Labels and groupings are the game's home's (`faces`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present import payload
from bot.present.payload import PICK, TILES
from bot.present.screens import Button, Keyboard, Move, TileChoice, rows
from faces import home_of
from faces.home import MAX_MOVES, Letters
from faces.moves import tile_text
from games.engine import Action, View
from rendering import hand_labels
from storage import Session
from words.i18n import tr

MAX_MOVE_BUTTONS = MAX_MOVES
"""More legal moves than this are chosen in two taps (tile, then move)."""


def letters_of(view: View[Any]) -> Letters:
    """Each hand tile's letter, as the hand picture shows it."""
    labels = hand_labels(len(view.hand))
    return {t: labels[i] for i, t in enumerate(view.hand)}


def tile_choice(session: Session, view: View[Any], lang: str) -> TileChoice | None:
    """When the moves are grouped (two taps), a platform with a multi-select lets the player
    pick a play's tiles at once instead; only where every move names its tiles."""
    legal = view.legal
    if len(legal) <= MAX_MOVE_BUTTONS or not all(a.tiles for a in legal):
        return None
    labels = hand_labels(len(view.hand))
    sizes = [len(a.tiles) for a in legal]
    return TileChoice(tr(lang, "hand.choose_tiles"),
                      tuple((labels[i], tile_text(view.tiles, t))
                            for i, t in enumerate(view.hand)),
                      min(sizes), max(sizes), payload.encode(session.id, session.version, TILES))


def moves_by_letters(view: View[Any], letters: Sequence[str]) -> list[Action]:
    """The legal moves that play exactly the hand tiles with these letters, in any order."""
    by_tile = letters_of(view)
    wanted = sorted(letters)
    return [a for a in view.legal
            if a.tiles and sorted(by_tile.get(t, "?") for t in a.tiles) == wanted]


def picks(view: View[Any], picked: str, lang: str) -> bool:
    """Whether a first tap's key names one of the hand's groups of moves ("=A-B": the moves
    of those tiles), as `moves_keyboard` made them."""
    if picked.startswith("="):
        return bool(moves_by_letters(view, picked[1:].split("-")))
    if len(view.legal) <= MAX_MOVE_BUTTONS:
        return False
    return picked in home_of(view).groups(view.legal, letters_of(view), lang)


def moves_keyboard(session: Session, view: View[Any], lang: str, picked: str | None = None
                   ) -> Keyboard:
    """One button per legal move; more than `MAX_MOVE_BUTTONS` are grouped so that every move
    is at most two taps away and no screen holds more than `MAX_MOVE_BUTTONS` moves."""
    legal = view.legal
    by_tile = letters_of(view)
    home = home_of(view)

    def move(action: Action) -> Button:
        return move_button(session, view, lang, action, by_tile)

    def laid_out(actions: Sequence[Action]) -> Keyboard:
        if not home.fitted:
            return rows(distinct([move(a) for a in actions]), 3)
        # A word ("Draw from the stock") gets a row of its own, so the tiles keep their width.
        placed = distinct([move(a) for a in actions if a.tiles])
        said = distinct([move(a) for a in actions if not a.tiles])
        return (*rows(placed, _per_row(placed)), *rows(said, 1))

    back = Button(tr(lang, "btn.back_to_tiles"),
                  payload.encode(session.id, session.version, PICK))
    if picked and picked.startswith("="):
        return (*laid_out(moves_by_letters(view, picked[1:].split("-"))), (back,))
    if len(legal) <= MAX_MOVE_BUTTONS:
        return laid_out(legal)
    groups = home.groups(legal, by_tile, lang)
    if picked and picked in groups:
        return (*laid_out(groups[picked][1]), (back,))
    buttons = [move(acts[0]) if len(acts) == 1 else
               Button(label, payload.encode(session.id, session.version, f"{PICK}-{key}"))
               for key, (label, acts) in groups.items()]
    return rows(buttons, _per_row(buttons) if home.fitted else 4)


def distinct(buttons: Sequence[Button]) -> list[Button]:
    """One button per label: moves the player cannot tell apart are one move to them (a
    tile that fits both ends of a line when both show the same number)."""
    first: dict[str, Button] = {}
    for button in buttons:
        first.setdefault(button.label, button)
    return list(first.values())


def move_button(session: Session, view: View[Any], lang: str, action: Action,
                letters: Letters) -> Button:
    """The button that plays `action`, labelled as the game's home says."""
    return Button(home_of(view).label(action, letters, view, lang),
                  payload.encode(session.id, session.version, action.code(view.tiles)),
                  move=move_of(action, view, letters))


def move_of(action: Action, view: View[Any], letters: Letters) -> Move:
    """What a move button plays, as data."""
    return Move(tuple(letters[t] for t in action.tiles if t in letters),
                tuple(tile_text(view.tiles, t) for t in action.tiles),
                home_of(view).end(action, view), action.verb)


def _per_row(buttons: Sequence[Button]) -> int:
    """As many buttons per row as their labels leave room for on a phone."""
    longest = max((len(b.label) for b in buttons), default=0)
    return 4 if longest <= 8 else 3 if longest <= 12 else 2 if longest <= 20 else 1
