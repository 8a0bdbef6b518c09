"""`gupai gallery`: every kind of image for every game, from sample deals, as PNG files.

The sample deals are played by the heuristic computer players from fixed seeds, so the gallery is
the same on every machine and shows real positions; each game's home (`faces`) says which
variants to draw and which positions of a deal are worth a picture (a line game's longest line,
a trick in progress, a discard about to be taken, a winning hand laid out). Each image is drawn
from a view, exactly as the bot draws it, with the leaderboard and the sheets of every tile face
(`faces.tile_sheet`), named, and a season's table and podium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import games
from faces import HOMES, pictures
from faces.home import Home
from faces.presets import game_title
from faces.samples import Step
from faces.tile_sheet import tile_sheet
from games.engine import Rules
from rendering import Frame, encode
from rendering.theme import THEMES
from storage.stats import Standing
from words.i18n import tr

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
    season = [Standing(1, 4, SAMPLE_NAMES[3], 540, 23, 540),
              Standing(2, 1, SAMPLE_NAMES[0], 120, 11, 120),
              Standing(3, 2, SAMPLE_NAMES[1], -15, 30, -15)]
    title = tr(lang, "top.season_picture_title", number=3,
               span=tr(lang, "season.span_month", month=tr(lang, "season.month_11"), year=2026))
    save("season", pictures.leaderboard(
        season, Frame(title=title, names=(), lang=lang, theme=theme_name), won=True))
    save("podium", pictures.podium(season, Frame(
        title=title, names=(), lang=lang, theme=theme_name,
        footer=tr(lang, "season.picture_footer", 64, players=7))))
    for name in THEMES:
        save(f"tiles-{name}", encode(tile_sheet(name, lang)))
    return written

