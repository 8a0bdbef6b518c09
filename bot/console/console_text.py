"""The console's words: the board and the hand as text, the moves, the standings, the files.

docs/architecture.md §5 (Console). The board and the hand are written by each game's home
(`faces/`), so the console has no game knowledge of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import games
from bot.console.console_input import buttons_of, hand_letters, same_face, split_end, typed_face
from bot.present.screens import Button, Keyboard, Picture, Screen
from faces import home_of
from faces.home import Typed
from faces.moves import tile_text
from faces.presets import game_title
from games.engine import View
from rendering import hand_labels
from words.i18n import minus, signed, tr


def board_lines(view: View[Any], names: Sequence[str], lang: str, me: int | None = None,
                stake: int = 1) -> list[str]:
    """The public part of a view in words, as its game's home writes it; works from a public
    view or a seat's own view; `stake` turns a pot counted in antes into chips."""
    return home_of(view).text_board(view, names, lang, me, stake)


def hand_line(view: View[Any], lang: str) -> str:
    """A seat's own tiles with the letters its buttons use: "A 6:6  B 5:4 …"."""
    return home_of(view).hand_text(view, lang)


def hand_faces(view: View[Any]) -> dict[str, str]:
    """The hand's letters (lower case) and the faces they stand for."""
    labels = hand_labels(len(view.hand))
    return {labels[i].casefold(): tile_text(view.tiles, t) for i, t in enumerate(view.hand)}


def help_lines(view: View[Any] | None, lang: str) -> list[str]:
    """`?`: what this game's moves and marks mean, as its home teaches them, then how to type
    a move and the commands. Taking a discard by its face is told only where the rules have a
    move that takes one (`Rules.verbs`), so no game's help speaks of a move it lacks."""
    lines: list[str] = []
    take = ""
    if view is not None:
        taught = home_of(view).teacher.help(view, lang)
        if taught:
            lines = [tr(lang, "console.help_title", game=game_title(view.game, None, lang)),
                     *(f"  {line}" for line in taught)]
        if "take" in games.get(view.game).verbs:
            take = tr(lang, "console.help_take")
    return [*lines, tr(lang, "console.help", take=take)]


def refusal(text: str, view: View[Any], moves: list[Button], lang: str) -> str:
    """Why a typed line that names no move is none, in the rules' words (its game's home
    says), and the moves the typed tiles do have; "" when nothing more can be said."""
    labels = [label.casefold() for label in hand_labels(len(view.hand))]
    text, end = split_end(text, labels)
    letters = hand_letters(text)
    face = typed_face(text)
    if letters:
        missing = [x for x in letters if x not in labels]
        if missing:
            if len(letters) > 1:
                return ""  # a word more likely than tiles
            last = hand_labels(len(view.hand))[-1] if view.hand else "A"
            return tr(lang, "console.no_letter", letter=missing[0].upper(), last=last)
        typed = Typed(tuple(view.hand[labels.index(x)] for x in letters), "", end)
    elif face:
        if not any(same_face(face, kind.label.strip("[]")) for kind in view.tiles.kinds):
            # No tile of the set shows it ("9:9"): where it lies is no question.
            return tr(lang, "console.no_such_tile", face=face)
        mine = [t for t in view.hand if same_face(face, tile_text(view.tiles, t))]
        typed = Typed(tuple(mine[:1]), "" if mine else face, end)
    else:
        return ""
    why = home_of(view).teacher.refusal(view, typed, lang)
    if not why:
        return ""
    shown = {view.hand.index(t) for t in typed.tiles}
    wanted = {hand_labels(len(view.hand))[i] for i in shown}
    with_them = [f"{n}. {b.label}" for n, b in enumerate(moves, start=1)
                 if b.move is not None and wanted and wanted <= set(b.move.letters)]
    if with_them and len(wanted) == 1:
        why += "\n" + tr(lang, "console.moves_with", letters=", ".join(sorted(wanted)),
                         moves=" · ".join(with_them))
    return why


def drawn(before: View[Any] | None, after: View[Any], lang: str) -> str:
    """"You drew [3:4]": the tiles a draw brought into the seat's own hand, found by comparing
    its own view before and after (a draw is never named to anyone else)."""
    if before is None or before.seat != after.seat:
        return ""
    new = [t for t in after.hand if t not in before.hand]
    if not new:
        return ""
    return tr(lang, "console.drew", tiles=" ".join(f"[{tile_text(after.tiles, t)}]" for t in new))


def untimed(screen: Screen) -> str:
    """A post's text without its countdown's line ("Next deal in 2 s."): where the player
    presses Enter for the next deal, a time would not be true."""
    if screen.countdown is None:
        return screen.text
    start = screen.countdown.start
    lines = screen.text.split("\n")
    at = screen.text.count("\n", 0, start)
    return "\n".join(lines[:at] + lines[at + 1:])


def move_lines(keyboard: Keyboard, lang: str) -> list[str]:
    """The moves, numbered as the player may type them."""
    return [tr(lang, "console.moves"), *(f"  {number:>2}. {button.label}" for number, button
                                          in enumerate(buttons_of(keyboard), start=1))]


def standings(view: View[Any], names: Sequence[str], stake: int, lang: str,
              over: bool = True) -> list[str]:
    """The match's standings from its last result: chips first, then points. A match left
    saved (`over` false) is not called final: it goes on at the next run."""
    if view.outcome is None:
        return []
    scores, chips = view.match.totals(view.outcome)
    order = sorted(range(len(chips)), key=lambda s: (-chips[s], -scores[s], s))
    heading = "console.standings" if over else "console.standings_so_far"
    return [tr(lang, heading), *(
        tr(lang, "console.standing", rank=rank, name=names[seat],
           chips=signed(chips[seat] * stake), points=minus(scores[seat]))
        for rank, seat in enumerate(order, start=1))]


class PictureFiles:
    """The pictures of a console game as PNG files in one folder, drawn in a worker thread so
    the game goes on meanwhile; each file is replaced whole, so an image viewer watching it
    never shows half a picture."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.written: set[Path] = set()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gupai-png")

    async def write(self, pictures: dict[str, Picture]) -> list[Path]:
        """Draw and write `name.png` for each picture; the files that are new this game."""
        if not pictures:
            return []
        drawings = [(self.folder / f"{name}.png", picture) for name, picture in pictures.items()]
        await asyncio.get_running_loop().run_in_executor(self.pool, _write_all, drawings)
        new = [path for path, _ in drawings if path not in self.written]
        self.written.update(new)
        return new

    def close(self) -> None:
        self.pool.shutdown(wait=True)


def _write_all(drawings: list[tuple[Path, Picture]]) -> None:
    for path, picture in drawings:
        data = picture.render("console")
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        part.write_bytes(data)
        part.replace(path)
