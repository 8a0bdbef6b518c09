"""`gupai gallery`: every kind of image for every game, from sample deals, as PNG files.

The sample deals are played by the heuristic computer players (the random ones for a game that
has no heuristic yet) from fixed seeds, so the gallery is the same on every machine and shows
real positions: the opening, the middle of a deal, the longest line among a few seeds just before
its end, and the end with its result card. Tien Gow has no line; its samples are the banker about
to lead, a trick in progress that holds a face-down play of several tiles (taken from a second
deal, so running chips show), a trick just taken, and the end. The draw-and-discard games (Kap
Ten, Kap Tai Shap up to twenty seats, Three Dozen) show the opening, a turn with discards the
player may take, and the end of a won deal, its winning hand laid out. Each image is drawn from a
view, exactly as the bot draws it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

import games
import rendering
from bot.describe import describe
from games.engine import Event, InvalidOptions, Match, Rules
from games.players import ComputerPlayer, make_player
from rendering import sprites
from rendering.canvas import encode
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

VARIANTS: tuple[tuple[str, str, int], ...] = (
    ("dragon", "one-arm", 4),
    ("dragon", "two-arm", 2),
    ("dragon", "one-arm", 3),
    ("cedeng", "classic", 4),
    ("tails", "chips", 3),
    ("tails", "chips", 4),
    ("domino", "100", 2),
    ("domino", "50", 4),
)
SEEDS = 12
"""Sample deals tried per variant; the one with the longest line is shown."""
TRICK_VARIANTS: tuple[tuple[str, str, int], ...] = (("tiengow", "modern", 4),)
COLLECT_VARIANTS: tuple[tuple[str, str, int], ...] = (
    ("kapten", "culin", 2),
    ("kapten", "classical", 2),
    ("kaptaishap", "classical", 10),
    ("kaptaishap", "culin", 20),
    ("kaptaishap", "classical", 20),
    ("threedozen", "standard", 4),
    ("threedozen", "forced-pickup", 5),
)
"""Kap Tai Shap's sets follow the players (⌈2n/5⌉: four for ten, eight for twenty)."""
COLLECT_MOVES = ("discard", "take", "meld")
"""Events whose tiles are ringed as just played."""


@dataclass(frozen=True, slots=True)
class Step:
    state: Any
    event: Event | None


def sample_deal(rules: Rules[Any, Any], options: Any, players: int, seed: str,
                match: Match | None = None) -> list[Step]:
    """One deal from the deal to its end, played by computer seats, every position kept."""
    bots = [_player(rules.id) for _ in range(players)]
    choice = random.Random(seed)
    state = rules.new_deal(options, players, seed, match)
    steps = [Step(state, None)]
    while (seat := rules.to_move(state)) is not None:
        action = bots[seat].choose(rules.view(state, seat), choice)
        state, events = rules.apply(state, action)
        steps.append(Step(state, events[0]))
    return steps


def _player(game: str) -> ComputerPlayer:
    """The heuristic player, or the random one for a game that has none yet."""
    try:
        return make_player(game, "heuristic")
    except InvalidOptions:
        return make_player(game, "random")


def trick_samples(rules: Rules[Any, Any], options: Any, players: int, seed: str
                  ) -> dict[str, Step]:
    """The positions of a trick-taking match worth a picture, by phase name.

    The first deal gives the banker about to lead, the first trick just taken and the end; the
    trick in progress comes from the following deal, with a face-down play of two or more tiles
    and a seat still to play, the case a table picture has most to show.
    """
    first = sample_deal(rules, options, players, seed)
    second = sample_deal(rules, options, players, f"{seed}/2",
                         rules.next_match(first[-1].state))
    samples = {"opening": first[0]}
    samples["taken"] = next(step for step in first[1:]
                            if not step.state.trick and step.state.history)
    busy = [step for step in second if _busy_trick(step.state, players)]
    if busy:
        samples["trick"] = max(busy, key=lambda step: len(step.state.trick))
    samples["end"] = first[-1]
    return samples


def collect_samples(rules: Rules[Any, Any], options: Any, players: int, seed: str
                    ) -> dict[str, Step]:
    """The positions of a draw-and-discard deal worth a picture, by phase name.

    Of a few seeds the longest won deal is kept (the longest void one if none was won): the
    opening, a turn two thirds in where the player may take a discard (the pile is long and,
    in Three Dozen, pairs are laid by then), the last time a Kap player took a discard (his
    hand marks the tile he may not throw back), and the end with its winning hand.
    """
    deals = [sample_deal(rules, options, players, f"{seed}/{k}") for k in range(SEEDS)]
    won = [d for d in deals if _won(rules, d[-1])]
    steps = max(won or deals, key=len)
    samples = {"opening": steps[0]}
    offers = [step for step in steps[:-1] if rules.view(step.state, None).takeable]
    if offers:
        samples["middle"] = offers[len(offers) * 2 // 3]
    takes = [step for step in steps[:-1]
             if getattr(rules.view(step.state, None), "taken", None) is not None]
    if takes:
        samples["picked"] = takes[-1]
    samples["end"] = steps[-1]
    return samples


def _won(rules: Rules[Any, Any], step: Step) -> bool:
    result = rules.outcome(step.state)
    return result is not None and bool(result.winners)


def _busy_trick(state: Any, players: int) -> bool:
    """A trick in progress, led with two or more tiles, with a face-down play among them."""
    trick = state.trick
    return (1 < len(trick) < players and trick[0].size > 1
            and any(not play.up for play in trick))


def render_gallery(out: Path, lang: str = "uk", theme_name: str = "dark") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / f"{name}.png"
        path.write_bytes(data)
        written.append(path)

    def save_all(rules: Rules[Any, Any], step: Step, stem: str, table: rendering.Table
                 ) -> None:
        view = rules.view(step.state, None)
        save(f"{stem}-board", rendering.board(view, table))
        seat = rules.to_move(step.state)
        if seat is not None:
            save(f"{stem}-hand", rendering.hand(rules.view(step.state, seat), table))
        if view.outcome is not None:
            save(f"{stem}-result", rendering.result(view, table))

    for game, preset, players in VARIANTS:
        rules = games.get(game)
        options = rules.options(preset)
        tiles = rules.tileset(options)
        deals = [sample_deal(rules, options, players, f"gallery/{game}/{k}")
                 for k in range(SEEDS)]
        steps = max(deals, key=lambda d: (len(rules.view(d[-1].state, None).line), -len(d)))
        names = SAMPLE_NAMES[:players]
        title = f"{rules.title[lang]} · {preset}"
        moves = len(steps) - 1
        phases = {"opening": 1, "middle": moves // 2, "late": moves - 1, "end": moves}
        for phase, index in phases.items():
            step = steps[index]
            view = rules.view(step.state, None)
            footer = ""
            last: tuple[int, ...] = ()
            if step.event is not None:
                footer = describe(step.event, names, tiles, lang, ends=len(view.ends))
                last = step.event.tiles if step.event.kind in ("lead", "play") else ()
            table = rendering.Table(title=title, names=names, footer=footer, lang=lang,
                                    theme=theme_name, last=last)
            save_all(rules, step, f"{game}-{preset}-{players}p-{phase}", table)
    for game, preset, players in TRICK_VARIANTS:
        rules = games.get(game)
        options = rules.options(preset)
        tiles = rules.tileset(options)
        names = SAMPLE_NAMES[:players]
        title = f"{rules.title[lang]} · {preset}"
        for k in range(SEEDS):
            samples = trick_samples(rules, options, players, f"gallery/{game}/{k}")
            if "trick" in samples:
                break
        for phase, step in samples.items():
            event = step.event
            footer = describe(event, names, tiles, lang) if event is not None else ""
            last = event.tiles if event is not None and event.kind in ("lead", "beat") else ()
            table = rendering.Table(title=title, names=names, footer=footer, lang=lang,
                                    theme=theme_name, last=last)
            save_all(rules, step, f"{game}-{preset}-{players}p-{phase}", table)
    for game, preset, players in COLLECT_VARIANTS:
        rules = games.get(game)
        options = rules.options(preset)
        tiles = rules.tileset(options)
        names = SAMPLE_NAMES[:players]
        title = f"{rules.title[lang]} · {preset}"
        samples = collect_samples(rules, options, players, f"gallery/{game}/{preset}")
        for phase, step in samples.items():
            event = step.event
            footer = describe(event, names, tiles, lang) if event is not None else ""
            last = event.tiles if event is not None and event.kind in COLLECT_MOVES else ()
            table = rendering.Table(title=title, names=names, footer=footer, lang=lang,
                                    theme=theme_name, last=last)
            save_all(rules, step, f"{game}-{preset}-{players}p-{phase}", table)
    standings = [
        Standing(1, 1, SAMPLE_NAMES[0], 1240, 57),
        Standing(2, 2, SAMPLE_NAMES[1], 315, 12),
        Standing(3, 3, SAMPLE_NAMES[2], 0, 1),
        Standing(4, 4, SAMPLE_NAMES[3], -86, 33),
    ]
    top = "Найкращі гравці" if lang == "uk" else "Leaderboard"
    save("leaderboard", rendering.leaderboard(
        standings, rendering.Table(title=top, names=(), lang=lang, theme=theme_name)))
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
