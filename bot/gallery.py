"""`gupai gallery`: every kind of image for every game, from sample deals, as PNG files.

The sample deals are played by the heuristic computer players from fixed seeds, so the gallery is
the same on every machine and shows real positions; each game's home (`faces`) says which
variants to draw and which positions of a deal are worth a picture (a line game's longest line,
a trick in progress, a discard about to be taken, a winning hand laid out). Each image is drawn
from a view, exactly as the bot draws it, with the leaderboard and sheets of every tile face.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image

import games
from faces import HOMES, pictures
from faces.home import Home
from faces.presets import game_title
from faces.samples import Step
from games.engine import Rules
from rendering import Frame, encode, sprites
from rendering.theme import THEMES, theme
from storage.stats import Standing

SAMPLE_NAMES = (
    "Олена",
    "Bob 🎲",
    "Кім Мін Су",
    "Олександра-Ярослава Володимирівна Стефаник-Квітка-Основ'яненкова",
    "Тарас",
    "Maria José",
    "Ігор",
    "Ann",
    "Степан",
    "Zoë",
    "Оксана",
    "Jean-Luc",
    "Богдана",
    "Mehmet",
    "Юлія",
    "Sven",
    "Віталій",
    "Priya",
    "Остап",
    "Kofi",
)
"""Twenty names, one per seat of the largest table. The fourth is 64 characters of Cyrillic: the
longest a layout is promised to survive."""

def render_gallery(out: Path, lang: str = "uk", theme_name: str = "dark") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / f"{name}.png"
        path.write_bytes(data)
        written.append(path)

    def save_all(rules: Rules[Any, Any], step: Step, stem: str, frame: Frame) -> None:
        view = rules.view(step.state, None)
        save(f"{stem}-board", pictures.board(view, frame))
        seat = rules.to_move(step.state)
        if seat is not None:
            save(f"{stem}-hand", pictures.hand(rules.view(step.state, seat), frame))
        if view.outcome is not None:
            save(f"{stem}-result", pictures.result(view, frame))

    homes: list[Home[Any]] = list(dict.fromkeys(HOMES.values()))
    for home in homes:
        for game, preset, players in home.variants:
            rules = games.get(game)
            options = rules.options(preset)
            names = SAMPLE_NAMES[:players]
            title = game_title(game, preset, lang)
            samples = home.samples(rules, options, players, f"gallery/{game}/{preset}")
            for phase, step in samples.items():
                event = step.event
                view = rules.view(step.state, None)
                footer = home.footer((event,), view, names, lang) if event is not None else ""
                last = home.ringed(event) if event is not None else ()
                frame = Frame(title=title, names=names, footer=footer, lang=lang,
                              theme=theme_name, last=last)
                save_all(rules, step, f"{game}-{preset}-{players}p-{phase}", frame)
    standings = [
        Standing(1, 1, SAMPLE_NAMES[0], 1240, 57),
        Standing(2, 2, SAMPLE_NAMES[1], 315, 12),
        Standing(3, 3, SAMPLE_NAMES[2], 0, 1),
        Standing(4, 4, SAMPLE_NAMES[3], -86, 33),
    ]
    top = "Найкращі гравці" if lang == "uk" else "Leaderboard"
    save("leaderboard", pictures.leaderboard(
        standings, Frame(title=top, names=(), lang=lang, theme=theme_name)))
    for name in THEMES:
        save(f"tiles-{name}", encode(tile_sheet(name)))
    return written


def tile_sheet(theme_name: str) -> Image.Image:
    """Every Chinese and double-six face, a back of each, and each highlight state."""
    look = theme(theme_name)
    chinese = games.get("dragon").tileset(games.get("dragon").options())
    western = games.get("domino").tileset(games.get("domino").options())
    gap, room = 10, 1000
    sheet = Image.new("RGB", (room, 1280), look.table)
    x, y, row = gap, gap, 0

    def put(sprite: Image.Image) -> None:
        nonlocal x, y, row
        if x + sprite.width + gap > room:
            x, y, row = gap, y + row + gap, 0
        sheet.paste(sprite, (x, y), sprite)
        x, row = x + sprite.width + gap, max(row, sprite.height)

    def new_row() -> None:
        nonlocal x, y, row
        x, y, row = gap, y + row + gap * 2, 0

    for kind in chinese.kinds:
        put(sprites.face("chinese", kind.hi, kind.lo, 120, theme_name))
    put(sprites.back("chinese", 120, theme_name))
    new_row()
    for kind in western.kinds:
        put(sprites.face("western", kind.hi, kind.lo, 96, theme_name))
    put(sprites.back("western", 96, theme_name))
    new_row()
    for state in sprites.STATES:
        put(sprites.face("chinese", 6, 6, 120, theme_name, state, horizontal=True))
    for state in sprites.STATES:
        put(sprites.face("western", 6, 3, 96, theme_name, state, horizontal=True))
    return sheet.crop((0, 0, room, y + row + gap))
