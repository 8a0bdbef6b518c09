"""Rendering: sizes, determinism, red pips, long lines, long names, views only (docs/architecture.md
§7)."""

from __future__ import annotations

import ast
import dataclasses
import functools
import io
import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import faces
import games
import rendering
from bot.cli import main
from bot.commandline.gallery import SAMPLE_NAMES
from faces import home_of, pictures
from faces.collect import board as collecting
from faces.collect import winning
from faces.home import Home
from faces.samples import sample_deal
from faces.trick import board as tricks
from games.tiles import CHINESE, WESTERN
from rendering import sprites
from rendering.canvas import BOARD_WIDTH, FOOTER_HEIGHT, PAD
from rendering.hand import TILE_HEIGHT
from rendering.line import best_fit, snake
from rendering.text import MISSING_MARK, fit, font, printable, width
from rendering.theme import THEMES
from storage.stats import Standing
from tests.games.test_playouts import player_counts
from tests.support import sources
from tests.support.hidden import Deal
from words.i18n import signed, tr

ROOT = Path(__file__).resolve().parents[2]
TELEGRAM_PHOTO_BYTES = 10 * 1024 * 1024


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _deal(game: str, preset: str, players: int, seed: str = "t"):
    rules = games.get(game)
    return rules, sample_deal(rules, rules.options(preset), players, seed)


def _table(players: int, **kw) -> rendering.Frame:
    return rendering.Frame(title="Test", names=SAMPLE_NAMES[:players], **kw)


def _shows(game: str, name: str) -> bool:
    """Whether the game's views have a field `name` (a line of tiles, a pile of discards)."""
    rules = games.get(game)
    view = rules.view(rules.new_deal(rules.options(), rules.default_players, "probe"), None)
    return name in {f.name for f in dataclasses.fields(view)}


def _gallery_tables(game: str) -> list[tuple[str, int]]:
    """(preset, players) of every table the game's home draws in its gallery."""
    return [(preset, players) for shown, preset, players in faces.home(game).variants
            if shown == game]


GALLERY_TABLES = [pytest.param(game, preset, players, id=f"{game}-{preset}-{players}")
                  for game in games.GAMES for preset, players in _gallery_tables(game)]


# ----- sprites ---------------------------------------------------------------------------------


def _flat(sprite: Image.Image) -> Image.Image:
    """A sprite as it looks pasted on a plain grey background."""
    ground = Image.new("RGB", sprite.size, (128, 128, 128))
    ground.paste(sprite, (0, 0), sprite)
    return ground


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize(("hi", "lo", "red"), [(4, 4, 8), (6, 5, 0), (6, 6, 6), (3, 1, 1),
                                               (1, 1, 2), (5, 4, 4), (3, 3, 0), (6, 4, 4)])
def test_red_pips_on_chinese_tiles(theme_name, hi, lo, red):
    look = THEMES[theme_name]
    height = 250
    sprite = _flat(sprites.face("chinese", hi, lo, height, theme_name))
    w, h = sprite.size
    assert h / w == pytest.approx(2.5, abs=0.05)
    pips = sprites.chinese_pips(hi, lo)
    assert len(pips) == hi + lo
    seen_red = 0
    for x, y, _radius, _red in pips:
        colour = sprite.getpixel((round(x * w), round(y * h)))
        if _close(colour, look.red):
            seen_red += 1
        else:
            assert _close(colour, look.pip), (hi, lo, colour)
    assert seen_red == red
    if red == 0:  # not one red pixel anywhere on the tile
        assert not any(_close(p, look.red, 60) for p in sprite.get_flattened_data())


def test_western_tiles_have_die_layouts_and_a_bar():
    for kind in WESTERN.kinds:
        assert len(sprites.western_pips(kind.hi, kind.lo)) == kind.hi + kind.lo
    blank = _flat(sprites.face("western", 0, 0, 200))
    w, h = blank.size
    assert h == 2 * w
    look = THEMES["dark"]
    assert not _close(blank.getpixel((w // 2, h // 2)), look.western_face, 20)  # the centre bar
    assert _close(blank.getpixel((w // 2, h // 4)), look.western_face, 20)  # a blank half


def test_orientations_and_states_differ():
    upright = sprites.face("chinese", 6, 1, 100)
    lying = sprites.face("chinese", 6, 1, 100, horizontal=True)
    assert lying.size == upright.size[::-1]
    looks = {sprites.face("chinese", 6, 1, 100, state=s).tobytes() for s in sprites.STATES}
    assert len(looks) == len(sprites.STATES)
    assert sprites.back("chinese", 100).size == upright.size


# ----- text ------------------------------------------------------------------------------------


def test_names_in_any_script_are_drawable():
    assert printable("Олена") == "Олена"
    assert printable("Kim 🎲🎲 x") == f"Kim {MISSING_MARK} x"
    assert printable("👨‍👩‍👧") == MISSING_MARK
    assert printable("a\x00b\nc") == "ab c"
    face = font(28, bold=True)
    name = "Щ" * 64
    shown = fit(name, face, 200)
    assert shown.endswith("…") and width(shown, face) <= 200
    assert fit("Bob", face, 200) == "Bob"


# ----- layout ----------------------------------------------------------------------------------


def _overlap(a, b) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


@pytest.mark.parametrize("ratio", [sprites.CHINESE_RATIO, sprites.WESTERN_RATIO])
def test_snake_tiles_never_overlap_and_stay_inside(ratio):
    rng = random.Random(7)
    for count in range(0, 33):
        cross = [ratio == 2 and rng.random() < 0.25 for _ in range(count)]
        layout = best_fit(cross, ratio, BOARD_WIDTH, 688, PAD * 3, range(150, 44, -6))
        assert len(layout.slots) == count + 1
        for i, slot in enumerate(layout.slots):
            assert slot.x >= 0 and slot.x + slot.w <= BOARD_WIDTH, (count, i)
            assert slot.y >= 0 and slot.y + slot.h <= layout.height, (count, i)
            for other in layout.slots[:i]:
                assert not _overlap(slot, other), (count, i)


def test_snake_keeps_each_tile_next_to_the_one_before():
    layout = snake([False] * 30, 100, 40, BOARD_WIDTH, 48, 4)
    for a, b in zip(layout.slots, layout.slots[1:], strict=False):
        gap_x = max(b.x - (a.x + a.w), a.x - (b.x + b.w))
        gap_y = max(b.y - (a.y + a.h), a.y - (b.y + b.h))
        assert gap_x <= 4 and gap_y <= 0, (a, b)


def _longest_view(game: str, preset: str, players: int, doubles_first: bool = False):
    """A real view with every tile of the deck on the line (geometry only needs the shape)."""
    rules, steps = _deal(game, preset, players)
    view = rules.view(steps[-1].state, None)
    tiles = view.tiles
    order = sorted(range(tiles.size), key=lambda t: not tiles.double[t]) if doubles_first \
        else list(range(tiles.size))
    line = tuple((t, tiles.a[t], tiles.b[t], 0) for t in order)
    return dataclasses.replace(view, line=line)


def _line_tables() -> list:
    """Every gallery table of a game laid in a line, with the deck in its own order and, for a
    set whose doubles lie across the line (the double-six), with the doubles first too."""
    found = []
    for game in games.GAMES:
        if not _shows(game, "line"):
            continue
        rules = games.get(game)
        crossing = sprites.family_of(rules.tileset(rules.options())) == "western"
        for preset, players in _gallery_tables(game):
            for doubles in (False, True) if crossing else (False,):
                found.append(pytest.param(game, preset, players, doubles, id=(
                    f"{game}-{preset}-{players}" + ("-doubles first" if doubles else ""))))
    return found


@pytest.mark.parametrize(("game", "preset", "players", "doubles"), _line_tables())
def test_the_longest_lines_fit(game, preset, players, doubles):
    view = _longest_view(game, preset, players, doubles)
    image = _png(pictures.board(view, _table(players)))
    assert max(image.size) <= 1280 and image.width == BOARD_WIDTH
    family = sprites.family_of(view.tiles)
    cross = [family == "western" and p[1] == p[2] for p in view.line]
    ratio = sprites.WESTERN_RATIO if family == "western" else sprites.CHINESE_RATIO
    layout = best_fit(cross, ratio, BOARD_WIDTH, 688, PAD * 3, range(150, 44, -6))
    assert layout.long >= 90  # still large enough to count pips on a phone


# ----- boards, hands and cards -----------------------------------------------------------------

GALLERY_LIMITS = (1280, 10_000, 20)
"""Long side, Telegram's width + height limit, Telegram's aspect ratio limit."""


def test_gallery_renders_every_kind_of_image_within_platform_limits(tmp_path, capsys):
    assert main(["gallery", str(tmp_path), "--lang", "en"]) == 0
    assert "images in" in capsys.readouterr().out
    files = sorted(tmp_path.glob("*.png"))
    kinds = {f.stem.rsplit("-", 1)[-1] for f in files}
    assert {"board", "hand", "result", "leaderboard"} <= kinds
    for game in games.GAMES:
        assert any(f.name.startswith(f"{game}-") for f in files), game
    for path in files:
        image = Image.open(path)
        assert image.mode == "RGB", path.name
        w, h = image.size
        assert max(w, h) <= GALLERY_LIMITS[0], path.name
        assert w + h <= GALLERY_LIMITS[1] and max(w, h) / min(w, h) <= GALLERY_LIMITS[2]
        assert path.stat().st_size < TELEGRAM_PHOTO_BYTES


def test_same_view_gives_identical_bytes_even_in_another_process():
    rules, steps = _deal("dragon", "two-arm", 2)
    view = rules.view(steps[len(steps) // 2].state, None)
    first = pictures.board(view, _table(2))
    sprites.face.cache_clear()
    assert pictures.board(view, _table(2)) == first
    script = (
        "import sys, games, rendering\n"
        "from bot.commandline.gallery import SAMPLE_NAMES; from faces.samples import sample_deal\n"
        "r = games.get('dragon'); s = sample_deal(r, r.options('two-arm'), 2, 't')\n"
        "v = r.view(s[len(s) // 2].state, None)\n"
        "from faces import pictures\n"
        "sys.stdout.buffer.write(pictures.board(v, rendering.Frame(title='Test', "
        "names=SAMPLE_NAMES[:2])))\n"
    )
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True,
                           cwd=ROOT, env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout
    assert other == first


def test_a_64_character_cyrillic_name_stays_in_its_box():
    long_name = "Олександра-Ярослава Володимирівна Стефаник-Квітка-Основ'яненкова"
    assert len(long_name) == 64
    rules, steps = _deal("cedeng", "classic", 4)
    view = rules.view(steps[len(steps) // 2].state, None)
    names = (long_name,) * 4
    image = _png(pictures.board(view, rendering.Frame(title=long_name * 2, names=names,
                                                       footer=long_name * 3)))
    assert image.size[0] == BOARD_WIDTH
    # The 12 px gap between the two columns of seat boxes holds nothing but the band's
    # background, down both rows of boxes.
    box_w = (BOARD_WIDTH - PAD * 2 - 12) // 2
    background = image.getpixel((PAD + box_w + 6, 150))
    left = PAD + box_w + 2
    for x in range(left, left + 9):
        for y in range(150, 400):
            assert image.getpixel((x, y)) == background, (x, y)


def test_hand_marks_playable_tiles_and_letters_them_like_buttons():
    rules, steps = _deal("dragon", "one-arm", 4)
    state = next(s.state for s in steps if s.state.line and rules.to_move(s.state) is not None
                 and any(a.verb == "play" for a in rules.legal_actions(s.state))
                 and len(rules.legal_actions(s.state)) < len(s.state.hands[s.state.turn]))
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    image = _png(pictures.hand(view, _table(4))).convert("RGB")
    labels = rendering.hand_labels(len(view.hand))
    assert labels[:3] == ("A", "B", "C") and len(set(labels)) == len(labels)
    legal = {CHINESE.kind_of[t] for a in view.legal for t in a.tiles}
    look = THEMES["dark"]
    tile_w = sprites.tile_size("chinese", 200)[0]
    run = len(view.hand) * (tile_w + 16) - 16
    left = (image.width - run) // 2
    for i, tile in enumerate(view.hand):
        edge = image.getpixel((left + i * (tile_w + 16) + tile_w // 2, PAD + 3))
        assert _close(edge, look.good, 30) == (CHINESE.kind_of[tile] in legal), i
    assert rendering.hand_labels(28)[26] == "A2"


def test_not_my_turn_shows_the_hand_without_marks():
    rules, steps = _deal("domino", "100", 2)
    state = steps[1].state
    idle = 1 - rules.to_move(state)
    view = rules.view(state, idle)
    assert not view.legal
    image = _png(pictures.hand(view, _table(2))).convert("RGB")
    look = THEMES["dark"]
    assert not any(_close(p, look.good, 10) for p in image.get_flattened_data())


def test_result_card_and_leaderboard():
    rules, steps = _deal("tails", "chips", 3)
    view = rules.view(steps[-1].state, None)
    card = _png(pictures.result(view, _table(3)))
    assert card.width <= 1280 and card.height <= 1280
    with pytest.raises(ValueError):
        pictures.result(rules.view(steps[0].state, None), _table(3))
    rows = [Standing(i + 1, i, "Щ" * 64, 100 - 50 * i, i) for i in range(10)]
    board = _png(pictures.leaderboard(rows, rendering.Frame(title="Top", names=())))
    assert max(board.size) <= 1280
    empty = _png(pictures.leaderboard([], rendering.Frame(title="Top", names=(), lang="uk")))
    assert empty.size[0] == board.size[0]


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_rendering_refuses_states(game):
    rules = games.get(game)
    state = rules.new_deal(rules.options(), rules.default_players, "s")
    table = _table(rules.default_players)
    for draw in (pictures.board, pictures.hand, pictures.result):
        with pytest.raises(TypeError):
            draw(state, table)
    with pytest.raises(ValueError):
        pictures.hand(rules.view(state, None), table)


def test_rendering_code_never_names_a_state():
    for path in (ROOT / "rendering").glob("*.py"):
        for node in sources.nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
                assert not any(a.name.endswith("State") for a in node.names), path.name
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("hands", "seed"), (path.name, node.attr)


@pytest.mark.parametrize(("game", "preset", "players"), [
    pytest.param(game, *_gallery_tables(game)[0], id=game) for game in games.GAMES])
def test_hidden_tiles_never_change_the_pictures(game, preset, players):
    """A deal of random seats; late in it, every tile the seat to move cannot know is dealt
    anew (`tests.support.hidden`): the table's picture and the seat's hand stay the same."""
    rules = games.get(game)
    choice = random.Random("hidden")

    def pick(state, seat):
        legal = rules.legal_actions(state)
        return legal[choice.randrange(len(legal))]

    deal = Deal(rules, rules.new_deal(rules.options(preset), players, "hidden"), pick)
    for position in reversed(deal.positions):
        state, seat = position.state, rules.to_move(position.state)
        if seat is None:
            continue
        other = deal.twin(position, seat, "hidden")
        # The tiles moved are hidden from the seat, not from everyone: another seat sees them.
        if any(rules.view(other, s) != rules.view(state, s) for s in range(players) if s != seat):
            break
    else:
        raise AssertionError("no position hides a tile another seat holds")
    mine = rules.view(state, seat)
    assert rules.view(other, seat) == mine
    table = _table(players)
    public = pictures.board(rules.view(state, None), table)
    assert pictures.board(rules.view(other, None), table) == public
    assert pictures.hand(rules.view(other, seat), table) == pictures.hand(mine, table)
    # A seat's own view knows its hand; the table picture drawn from it still does not show it:
    # dealt another hand, the seat sees the same table (its own face-down tiles stay its own)...
    another = rules.view(deal.twin(position, seat, "another hand", hand=False), seat)
    assert another.hand != mine.hand
    assert pictures.board(another, table) == pictures.board(mine, table)
    # ...which is the public one where its view adds nothing but its hand and moves to it.
    if dataclasses.replace(mine, seat=None, hand=(), legal=()) == rules.view(state, None):
        assert pictures.board(mine, table) == public


# ----- Tien Gow --------------------------------------------------------------------------------


def _tiengow_positions(seed: str = "seed", options=None) -> list:
    """Every position of one deal where each seat leads its longest play and beats when it can,
    so tricks of several tiles, face-up beats and face-down folds all come up."""
    rules = games.get("tiengow")
    state = rules.new_deal(options or rules.options(), 4, seed)
    states = [state]
    while rules.to_move(state) is not None:
        legal = rules.legal_actions(state)
        if not state.trick:
            action = max(legal, key=lambda a: len(a.tiles))
        else:
            action = legal[0] if legal[0].verb == "beat" else legal[-1]
        state, _ = rules.apply(state, action)
        states.append(state)
    return states


def _in_progress(state) -> bool:
    return 1 < len(state.trick) < 4 and any(not p.up for p in state.trick)


def _just_taken(state) -> bool:
    return (not state.trick and bool(state.history) and games.get("tiengow").to_move(state)
            is not None and any(not p.up for p in state.history[-1].plays))


def _swap_folded(state):
    """The same public position with other tiles under the latest face-down play: they go to a
    seat that has not played them, its tiles of other kinds take their place face down."""
    trick = state.trick or state.history[-1].plays
    index, fold = next((i, p) for i, p in enumerate(trick) if not p.up)
    other = next(s for s in range(4) if s != fold.seat and len(state.hands[s]) >= fold.size)
    kinds = {CHINESE.kind_of[t] for t in fold.tiles}
    fresh = tuple(t for t in state.hands[other] if CHINESE.kind_of[t] not in kinds)[:fold.size]
    assert len(fresh) == fold.size
    swapped = (*trick[:index], dataclasses.replace(fold, tiles=fresh), *trick[index + 1:])
    hands = list(state.hands)
    hands[other] = tuple(sorted((*(t for t in hands[other] if t not in fresh), *fold.tiles)))
    if state.trick:
        return dataclasses.replace(state, hands=tuple(hands), trick=swapped)
    last = dataclasses.replace(state.history[-1], plays=swapped)
    return dataclasses.replace(state, hands=tuple(hands), history=(*state.history[:-1], last))


def _within_limits(data: bytes) -> Image.Image:
    image = _png(data)
    assert image.mode == "RGB" and image.width == BOARD_WIDTH
    assert max(image.size) <= GALLERY_LIMITS[0] and sum(image.size) <= GALLERY_LIMITS[1]
    assert max(image.size) / min(image.size) <= GALLERY_LIMITS[2]
    assert len(data) < TELEGRAM_PHOTO_BYTES
    return image


@pytest.mark.parametrize("theme_name", sorted(THEMES))
@pytest.mark.parametrize("lang", ["en", "uk"])
def test_tiengow_trick_in_progress_fits_a_phone(lang, theme_name):
    rules = games.get("tiengow")
    state = next(s for s in _tiengow_positions() if _in_progress(s) and s.trick[0].size > 1)
    view = rules.view(state, None)
    assert any(p.tiles == () for p in view.trick)  # a face-down play, blanked by the view
    table = _table(4, lang=lang, theme=theme_name, footer=SAMPLE_NAMES[3] * 2,
                   last=state.trick[0].tiles)
    _within_limits(pictures.board(view, table))
    seat = rules.to_move(state)
    assert max(_png(pictures.hand(rules.view(state, seat), table)).size) <= 1280


@pytest.mark.parametrize("where", [_in_progress, _just_taken])
def test_tiengow_board_never_shows_a_face_down_tile(where):
    rules = games.get("tiengow")
    state = next(s for s in _tiengow_positions() if where(s))
    other = _swap_folded(state)
    assert other.hands != state.hands
    table = _table(4)
    public = pictures.board(rules.view(state, None), table)
    assert pictures.board(rules.view(other, None), table) == public
    # The folding seat's own view names its face-down tiles; the table picture still does not.
    plays = state.trick or state.history[-1].plays
    folder = next(p.seat for p in plays if not p.up)
    own = rules.view(state, folder)
    assert any(p.tiles and not p.up for p in (own.trick or own.history[-1].plays))
    assert pictures.board(own, table) == public
    # The slots do depend on what they show: the same tiles face up change the picture.
    shown = tuple(dataclasses.replace(p, up=True) if p.seat == folder else p
                  for p in (own.trick or own.history[-1].plays))
    if own.trick:
        turned = dataclasses.replace(own, trick=shown)
    else:
        last = dataclasses.replace(own.history[-1], plays=shown)
        turned = dataclasses.replace(own, history=(*own.history[:-1], last))
    assert pictures.board(turned, table) != public


def test_tiengow_shows_the_last_trick_dimmed_with_who_took_it():
    rules = games.get("tiengow")
    state = next(s for s in _tiengow_positions() if _just_taken(s))
    view = rules.view(state, None)
    last = view.history[-1]
    shown = tricks.shown_trick(view)
    assert shown.finished and shown.plays == last.plays
    assert shown.plays[shown.holder].seat == last.winner
    k = last.plays[0].size
    winner = SAMPLE_NAMES[last.winner]
    assert tricks.felt_line(view, _table(4)) == f"taken by {winner} (+{k})"
    assert tricks.felt_line(view, _table(4, lang="uk")) == f"бере {winner} (+{k})"
    # The same plays as a live trick: drawn at full brightness, with no "taken by" line.
    live = dataclasses.replace(view, trick=last.plays, best=shown.holder,
                               history=view.history[:-1])
    assert tricks.felt_line(live, _table(4)) == ""
    top, bottom = tricks.trick_area(view, _table(4))

    def brightest(data: bytes) -> int:
        area = _png(data).convert("RGB").crop((0, top, BOARD_WIDTH, bottom))
        return max(max(pixel) for pixel in area.get_flattened_data())

    assert brightest(pictures.board(live, _table(4))) >= 240
    assert brightest(pictures.board(view, _table(4))) < 200


def test_tiengow_opening_says_who_leads():
    rules = games.get("tiengow")
    view = rules.view(rules.new_deal(rules.options(), 4, "seed"), None)
    assert not tricks.shown_trick(view).plays
    name = SAMPLE_NAMES[view.banker]
    assert tricks.felt_line(view, _table(4)) == f"banker {name} leads"
    assert tricks.felt_line(view, _table(4, lang="uk")) == f"перший хід: банкір {name}"
    _within_limits(pictures.board(view, _table(4, lang="uk")))


def test_tiengow_banker_badge_and_running_chips():
    rules = games.get("tiengow")
    options = dataclasses.replace(rules.options(), banker=3)
    positions = _tiengow_positions(options=options)
    view = rules.view(positions[0], None)
    seats = tricks.tiengow_seats(view, _table(4))
    assert [s.badge for s in seats] == ["banker ×3" if i == view.banker else "" for i in range(4)]
    assert seats[view.banker].to_move
    assert seats[0].lines == ("tricks: 0", "hand: 8")
    uk = tricks.tiengow_seats(view, _table(4, lang="uk"))
    assert uk[view.banker].badge == "банкір ×3"
    assert uk[0].lines == ("взятки: 0", "у руці: 8")
    first = _within_limits(pictures.board(view, _table(4)))
    # The next deal of the match: running chips under every seat, the picture a row taller.
    end = positions[-1]
    match = rules.next_match(end)
    assert any(match.chips)
    later = rules.view(rules.new_deal(options, 4, "next", match), None)
    seats = tricks.tiengow_seats(later, _table(4))
    assert [s.lines[-1] for s in seats] == [f"match: {signed(c)}" for c in match.chips]
    assert seats[later.banker].badge.startswith("banker ×")
    second = _within_limits(pictures.board(later, _table(4)))
    assert second.height == first.height  # two boxes a row leave the chips room beside
    # The finished deal: the winner's box is gold, the result card counts tricks.
    done = rules.view(end, None)
    assert [s.winner for s in tricks.tiengow_seats(done, _table(4))] == [
        i in done.outcome.winners for i in range(4)]
    assert done.outcome.points == done.tricks
    card = _png(pictures.result(done, _table(4)))
    assert max(card.size) <= 1280


def _hand_rings(view) -> list[tuple[bool, bool]]:
    """Per tile of the hand image: (outlined as playable, dimmed)."""
    image = _png(pictures.hand(view, _table(4))).convert("RGB")
    look = THEMES["dark"]
    tile_w = sprites.tile_size("chinese", 200)[0]
    run = len(view.hand) * (tile_w + 16) - 16
    left = (image.width - run) // 2
    marks = []
    for i in range(len(view.hand)):
        x = left + i * (tile_w + 16) + tile_w // 2
        edge = image.getpixel((x, PAD + 3))
        body = image.getpixel((x, PAD + 100))
        marks.append((_close(edge, look.good, 30), _close(body, (0, 0, 0), 12)))
    return marks


def test_tiengow_hand_outlines_only_tiles_that_can_go_face_up():
    rules = games.get("tiengow")
    positions = _tiengow_positions()
    beating = next(s for s in positions if s.trick and rules.to_move(s) is not None
                   and rules.legal_actions(s)[0].verb == "beat")
    view = rules.view(beating, rules.to_move(beating))
    up = {CHINESE.kind_of[t] for a in view.legal if a.verb == "beat" for t in a.tiles}
    assert 0 < sum(CHINESE.kind_of[t] in up for t in view.hand) < len(view.hand)
    marks = _hand_rings(view)
    assert [ring for ring, _ in marks] == [CHINESE.kind_of[t] in up for t in view.hand]
    assert not any(dim for _, dim in marks)
    # With nothing to beat, every tile can only be laid face down: no mark, no veil at all.
    folding = next(s for s in positions if s.trick and rules.to_move(s) is not None
                   and all(a.verb == "fold" for a in rules.legal_actions(s)))
    view = rules.view(folding, rules.to_move(folding))
    idle = dataclasses.replace(view, legal=())
    assert pictures.hand(view, _table(4)) == pictures.hand(idle, _table(4))
    # Leading: every tile leads at least as a single, so all are outlined.
    leading = rules.view(positions[0], positions[0].turn)
    assert all(ring for ring, _ in _hand_rings(leading))


# ----- Kap Ten, Kap Tai Shap, Three Dozen: a pile of discards ----------------------------------


def _random_positions(game: str, players: int, seed: str = "seed", preset: str | None = None,
                      **changes) -> list:
    """Every position of one deal played by random seats: the pictures must hold whatever
    a table does, and random play does not depend on how a computer player is tuned."""
    rules = games.get(game)
    options = dataclasses.replace(rules.options(preset), **changes)
    state = rules.new_deal(options, players, seed)
    choice = random.Random(seed)
    states = [state]
    while rules.to_move(state) is not None:
        legal = rules.legal_actions(state)
        state, _ = rules.apply(state, legal[choice.randrange(len(legal))])
        states.append(state)
    return states


@functools.cache
def _won_positions(game: str, players: int, preset: str | None = None, **changes) -> tuple:
    """The positions of the first deal some seat wins, worked out once per test process (the
    English and Ukrainian pictures of a table are drawn from the same deal)."""
    rules = games.get(game)
    for k in range(50):
        states = _random_positions(game, players, f"won/{k}", preset, **changes)
        result = rules.outcome(states[-1])
        if result is not None and result.winners:
            return tuple(states)
    raise AssertionError(f"no won {game} deal in 50 seeds")


PILE_GAMES = [game for game in games.GAMES if _shows(game, "pile")]
"""The games whose discards lie face up in a pile on the table (the collecting games)."""


def _pile_tables() -> list:
    """Every table size of every pile game (`player_counts`), from the largest down with the
    presets taken in turn, and every preset at the largest."""
    found = []
    for game in PILE_GAMES:
        rules = games.get(game)
        counts, presets = player_counts(rules)[::-1], list(rules.presets) or [None]
        tables = {(counts[0], preset) for preset in presets}
        tables |= {(n, presets[i % len(presets)]) for i, n in enumerate(counts)}
        found += [pytest.param(game, players, preset, id=f"{game}-{players}-{preset}")
                  for players, preset in sorted(tables)]
    return found


@pytest.mark.parametrize("lang", ["en", "uk"])
@pytest.mark.parametrize(("game", "players", "preset"), _pile_tables())
def test_collecting_boards_fit_every_table_size(game, players, preset, lang):
    rules = games.get(game)
    states = _won_positions(game, players, preset)
    table = _table(players, lang=lang, footer=SAMPLE_NAMES[3])
    for state in (states[0], states[len(states) // 2], states[-2], states[-1]):
        view = rules.view(state, None)
        _within_limits(pictures.board(view, table))
        seat = rules.to_move(state)
        if seat is not None:
            hand = _png(pictures.hand(rules.view(state, seat), table))
            assert max(hand.size) <= 1280
    card = _png(pictures.result(rules.view(states[-1], None), table))
    assert max(card.size) <= 1280 and card.mode == "RGB"


@pytest.mark.parametrize(("players", "sets"), [(2, 10), (20, 10), (20, 8)])
def test_the_largest_discard_pile_fits(players, sets):
    """Every tile of ten sets on the pile, a won hand above it and twenty seats: more than any
    deal can hold, still one picture within the limits, each discard in its own place."""
    rules = games.get("kaptaishap")
    states = _won_positions("kaptaishap", players, sets=sets)
    view = rules.view(states[-1], None)
    everything = tuple((t, t % players) for t in range(32 * sets))
    full = dataclasses.replace(view, pile=everything, takeable=tuple(range(32 * sets)))
    _within_limits(pictures.board(full, _table(players)))
    at = collecting.layout(full, _table(players))
    assert len(at.slots) == 32 * sets and at.height <= 1280
    boxes = [at.frame(i) for i in range(len(at.slots))]
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert x0 >= 0 and x1 < BOARD_WIDTH and y0 >= at.pile_top - at.gap, i
        assert y1 < at.height - FOOTER_HEIGHT, i
    for a, b in itertools.pairwise(boxes):
        assert a[2] < b[0] or a[3] < b[1]  # the next frame starts right of or below this one


def test_twenty_seats_make_a_grid_of_readable_boxes():
    assert [collecting.grid_columns(n) for n in (2, 5, 6, 7, 10, 11, 16, 20)] == [
        2, 3, 3, 2, 2, 2, 2, 2]
    rules = games.get("kaptaishap")
    view = rules.view(rules.new_deal(rules.options(), 20, "grid"), None)
    at = collecting.layout(view, _table(20))
    assert at.columns == 2 and at.box_w >= 370
    assert PAD + 2 * at.box_w + 12 <= BOARD_WIDTH - PAD
    seats = collecting.seat_facts(view, _table(20))
    assert [s.name for s in seats] == list(SAMPLE_NAMES[:20])
    assert [s.badge for s in seats] == ["leads" if s == view.leader else "" for s in range(20)]
    assert seats[view.to_move].to_move and seats[0].lines == (f"hand: {view.hand_counts[0]}",)
    two = rules.view(rules.new_deal(rules.options(), 2, "grid"), None)
    assert collecting.seat_facts(two, _table(2))[two.leader].badge == "leads"


def _frame_pixels(view, table):
    """Per discard: whether the middle of its frame's top edge shows the "may take" green."""
    image = _png(pictures.board(view, table)).convert("RGB")
    at = collecting.layout(view, table)
    look = THEMES[table.theme]
    marks = []
    for i in range(len(view.pile)):
        x0, y0, x1, _ = at.frame(i)
        marks.append(_close(image.getpixel(((x0 + x1) // 2, y0 + at.frame_width // 2)),
                            look.good, 20))
    return marks


@pytest.mark.parametrize(("game", "preset", "players"), [
    pytest.param(game, *_gallery_tables(game)[0], id=game) for game in PILE_GAMES])
def test_only_takeable_discards_are_framed(game, preset, players):
    """At the first table of each pile game's gallery: Culin's Kap lets any face-up discard
    be taken, the others only the newest."""
    rules = games.get(game)
    offered = []
    for k in range(20):
        states = _random_positions(game, players, f"frames/{k}", preset)
        offered += [s for s in states if len(s.pile) > 3 and rules.view(s, None).takeable]
        if offered:
            break
    view = rules.view(offered[len(offered) // 2], None)
    table = _table(players)
    marks = _frame_pixels(view, table)
    assert marks == [t in view.takeable for t, _ in view.pile]
    if preset == "culin":
        assert all(marks)
    else:
        assert marks == [False] * (len(view.pile) - 1) + [True]
    # The frame follows `takeable` and nothing else: every other discard, then none at all.
    some = tuple(t for t, _ in view.pile[::2])
    assert _frame_pixels(dataclasses.replace(view, takeable=some), table) == [
        i % 2 == 0 for i in range(len(view.pile))]
    assert not any(_frame_pixels(dataclasses.replace(view, takeable=()), table))


def test_the_newest_discard_is_ringed_in_gold():
    rules = games.get("kaptaishap")
    states = _random_positions("kaptaishap", 10, "newest", rules="classical")
    view = rules.view(next(s for s in states if len(s.pile) > 5), None)
    image = _png(pictures.board(view, _table(10))).convert("RGB")
    at = collecting.layout(view, _table(10))
    look = THEMES["dark"]
    rings = [_close(image.getpixel((x + at.tile_w // 2, y + 1)), look.gold, 30)
             for x, y in at.slots]
    assert rings == [False] * (len(view.pile) - 1) + [True]


def test_a_won_kap_deal_lays_out_the_eye_apart_from_the_tens():
    # The worked example's hand, eye [2:2][2:2], [6:5][6:3] = 20, [3:3][3:1] = 10, with a third
    # ten [1:1][6:2] = 10 to make eight tiles, dealt to the leader: he wins before a discard.
    rules = games.get("kapten")
    eye = CHINESE.ids_of(2, 2)
    tens = [CHINESE.one(t) for t in ("65", "63", "33", "31", "11", "62")]
    winner = [*eye, *tens]
    other = [t for t in range(32) if t not in winner][:7]
    state = rules.deal_from(rules.options(), [winner, other])
    view = rules.view(state, None)
    assert view.outcome is not None and view.winning is not None
    groups = winning.winning_groups(view)
    assert groups[0] == tuple(eye)
    worth = games.tens.values(3)
    assert sorted(sum(worth[CHINESE.kind_of[t]] for t in g) for g in groups[1:]) == [10, 10, 20]
    for lang in ("en", "uk"):
        image = _within_limits(pictures.board(view, _table(2, lang=lang)))
        at = collecting.layout(view, _table(2, lang=lang))
        assert at.panel_h > 0
        # The panel's gold frame, and the gap between the eye and the first ten, which is
        # wider than the gap between the eye's two tiles.
        look = THEMES["dark"]
        assert _close(image.getpixel((BOARD_WIDTH // 2, at.panel_top + 2)), look.gold, 30)
    assert winning.WIN_GAP > 3 * winning.PAIR_GAP


def _dealt_winner(hand: str, four_two: int = 3):
    """A Kap Ten deal whose leader is dealt `hand` ("33 33b 42 61 ..."), a win before any
    discard."""
    rules = games.get("kapten")
    winner = [CHINESE.ids_of(int(spec[0]), int(spec[1]))[1 if spec.endswith("b") else 0]
              for spec in hand.split()]
    other = [t for t in range(32) if t not in winner][:7]
    options = dataclasses.replace(rules.options(), four_two=four_two)
    view = rules.view(rules.deal_from(options, [winner, other]), None)
    assert view.outcome is not None and view.winning is not None
    return view


def _board_words(monkeypatch, view, lang: str = "en") -> list[str]:
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    _within_limits(pictures.board(view, _table(2, lang=lang)))
    return drawn


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_a_ten_with_four_two_spells_out_that_it_counts_three(monkeypatch, lang):
    """KT-02 (docs/rules-book.md §5): [4:2][6:1] is a ten because [4:2] counts 3, though 13 pips
    show; the caption under it says 3 + 7, the other tens their plain totals."""
    view = _dealt_winner("33 33b 42 61 55 55b 64 64b")
    groups = winning.winning_groups(view)
    (with_four_two,) = [g for g in groups[1:] if CHINESE.ids_of(4, 2)[0] in g]
    first, _ = with_four_two
    expected = "3 + 7 = 10" if first == CHINESE.ids_of(4, 2)[0] else "7 + 3 = 10"
    drawn = _board_words(monkeypatch, view, lang)
    assert expected in drawn
    assert sorted(t for t in drawn if t in ("10", "20")) == ["20", "20"]
    assert [t for t in drawn if " = " in t] == [expected]


@pytest.mark.parametrize(("hand", "four_two", "totals"), [
    ("22 22b 65 63 33 31 11 62", 3, ["10", "10", "20"]),
    ("11 11b 42 22 64 64b 55 55b", 6, ["10", "20", "20"])])
def test_tens_that_count_their_pips_keep_a_plain_total(monkeypatch, hand, four_two, totals):
    """No [4:2] among the tens (KT-01), or [4:2] counting its six pips by the table's option
    (then KT-03 wins, [4:2][2:2] = 10): the captions are the plain totals."""
    drawn = _board_words(monkeypatch, _dealt_winner(hand, four_two))
    assert not [t for t in drawn if " = " in t]
    assert sorted(t for t in drawn if t in ("10", "20")) == totals


def test_a_void_kap_deal_says_why_there_is_no_winning_hand():
    rules = games.get("kaptaishap")
    end = next(states[-1] for k in range(50)
               if not rules.outcome((states := _random_positions(
                   "kaptaishap", 20, f"void/{k}", rules="classical"))[-1]).winners)
    view = rules.view(end, None)
    assert view.winning is None and winning.winning_groups(view) == ()
    assert collecting.layout(view, _table(20)).panel_h == winning.VOID_HEIGHT
    _within_limits(pictures.board(view, _table(20, lang="uk")))
    assert not any(s.winner for s in collecting.seat_facts(view, _table(20)))


def test_a_won_three_dozen_deal_shows_the_three_pairs():
    rules = games.get("threedozen")
    one = WESTERN.one
    pairs = [(one("66"), one("00")), (one("65"), one("10")), (one("55"), one("11"))]
    winner = [t for p in pairs for t in p]
    others = [t for t in range(WESTERN.size) if t not in winner]
    state = rules.deal_from(rules.options(), [winner, others[:5], others[5:10]])
    view = rules.view(state, None)
    assert view.outcome is not None and view.outcome.winners == (0,)
    assert sorted(winning.winning_groups(view)) == sorted(view.melds[0])
    assert len(winning.winning_groups(view)) == 3
    _within_limits(pictures.board(view, _table(3)))
    card = _png(pictures.result(view, _table(3)))
    assert max(card.size) <= 1280


def _hand_marks(view, family: str = "chinese") -> list[str]:
    """Per tile of the hand image, what its top edge shows: playable, taken, plain or dim."""
    image = _png(pictures.hand(view, _table(4))).convert("RGB")
    look = THEMES["dark"]
    tile_w = sprites.tile_size(family, TILE_HEIGHT[family])[0]
    run = len(view.hand) * (tile_w + 16) - 16
    left = (image.width - run) // 2
    marks = []
    for i in range(len(view.hand)):
        edge = image.getpixel((left + i * (tile_w + 16) + tile_w // 2, PAD + 1))
        if _close(edge, look.good, 30):
            marks.append("playable")
        elif _close(edge, look.gold, 30):
            marks.append("taken")
        elif _close(edge, look.edge, 12):
            marks.append("plain")
        else:
            marks.append("dim")
    return marks


def test_kap_hand_marks_the_tile_taken_this_turn():
    rules = games.get("kaptaishap")
    for k in range(30):
        states = _random_positions("kaptaishap", 6, f"take/{k}")
        tiles = rules.tileset(states[0].options)
        swaps = [s for s in states if s.taken is not None and any(
            t != s.taken and tiles.kind_of[t] == tiles.kind_of[s.taken]
            for t in s.hands[s.turn])]
        if swaps:
            break
    state = swaps[0]
    view = rules.view(state, state.turn)
    marks = _hand_marks(view)
    # Neither the taken copy nor another copy of its kind may be thrown back (D-10).
    barred = tiles.kind_of[view.taken]
    assert marks == ["taken" if t == view.taken else "dim" if tiles.kind_of[t] == barred
                     else "playable" for t in view.hand]
    assert _png(pictures.hand(view, _table(4))).height > _png(pictures.hand(
        dataclasses.replace(view, taken=None), _table(4))).height  # room for the word
    # Taking or drawing: the choice is on the table, so the hand is neither marked nor dimmed.
    opening = next(s for s in states if s.phase == "open" and s.pile)
    assert set(_hand_marks(rules.view(opening, opening.turn))) == {"plain"}


def test_three_dozen_hand_marks_the_tiles_that_pair_with_the_discard():
    rules = games.get("threedozen")
    for k in range(30):
        states = _random_positions("threedozen", 4, f"pair/{k}")
        offers = [s for s in states if s.phase == "open"
                  and any(a.verb == "take" for a in rules.legal_actions(s))]
        if offers:
            break
    state = offers[0]
    view = rules.view(state, state.turn)
    partners = {a.tiles[1] for a in view.legal if a.verb == "take"}
    assert _hand_marks(view, "western") == [
        "playable" if t in partners else "plain" for t in view.hand]
    assert len(view.hand) <= 6


@pytest.mark.parametrize("lang", ["en", "uk"])
def test_result_cards_head_the_points_column_for_each_game(lang):
    kap = games.get("kaptaishap")
    states = _won_positions("kaptaishap", 20)
    view = kap.view(states[-1], None)
    assert home_of(view).points_column(lang) == tr(lang, "img.won_paid_column")
    card = _png(pictures.result(view, _table(20, lang=lang)))
    assert max(card.size) <= 1280  # twenty rows squeeze in
    dozen = games.get("threedozen")
    end = _won_positions("threedozen", 4)[-1]
    assert home_of(dozen.view(end, None)).points_column(lang) == tr(lang, "img.pairs_column")
    assert {"en": "won / paid", "uk": "виграш / сплата"}[lang] == tr(lang, "img.won_paid_column")
    assert {"en": "pairs", "uk": "пари"}[lang] == tr(lang, "img.pairs_column")


def test_the_pot_is_drawn_in_the_tables_chips():
    """The caption names the pot times the table's stake; the picture must say the same: the
    only difference a stake of 5 makes to a Kap board is the pot's figure."""
    rules = games.get("kapten")
    view = rules.view(_random_positions("kapten", 2, "pot")[0], None)
    assert view.pot == 2
    assert pictures.board(view, _table(2, stake=5)) != pictures.board(view, _table(2))
    assert pictures.board(dataclasses.replace(view, pot=10), _table(2)) == pictures.board(
        view, _table(2, stake=5))


def test_tiengow_names_the_led_and_the_holding_combinations():
    """The felt says who led with what and who holds (or took) the trick with what, by Tien
    Gow's names, and the leader's slot carries the "led" tag."""
    rules = games.get("tiengow")
    state = next(s for s in _tiengow_positions() if _just_taken(s)
                 and s.history[-1].winner != s.history[-1].plays[0].seat)
    view = rules.view(state, None)
    last = view.history[-1]
    leader, winner = last.plays[0].seat, last.winner
    line = tricks.names_line(view, _table(4))
    assert line.startswith(f"{SAMPLE_NAMES[leader]} led ")
    assert f" · {SAMPLE_NAMES[winner]} took it with " in line
    uk = tricks.names_line(view, _table(4, lang="uk"))
    assert uk.startswith(f"{SAMPLE_NAMES[leader]}: перший хід, ")
    live = dataclasses.replace(view, trick=last.plays, best=tricks.shown_trick(view).holder,
                               history=view.history[:-1])
    assert f" · {SAMPLE_NAMES[winner]} holds with " in tricks.names_line(live, _table(4))
    opening = rules.view(rules.new_deal(rules.options(), 4, "seed"), None)
    assert tricks.names_line(opening, _table(4)) == ""


def test_seat_boxes_keep_no_empty_row_for_tiles_nobody_has():
    """Before anyone lays a tile face down the boxes are only as tall as their words: the
    picture fits what it shows, and grows a row when the first discard appears."""
    rules = games.get("tails")
    view = rules.view(rules.new_deal(rules.options(), 4, "fit"), None)
    assert not any(view.discard_counts)
    bare = _png(pictures.board(view, _table(4)))
    one = dataclasses.replace(view, discard_counts=(1, 0, 0, 0))
    assert _png(pictures.board(one, _table(4))).height > bare.height


@pytest.mark.parametrize(("game", "preset", "players"), GALLERY_TABLES)
def test_result_cards_show_the_tiles_the_deal_turned_up(monkeypatch, game, preset, players):
    """The result card lays out what its points count: face-down discards turned up, the
    pips left in hand, the pairs laid out, the Kap winner's hand (tested more closely below);
    a game that turns nothing up (Tien Gow) shows no tile. The deal is the one the gallery
    ends on."""
    rules = games.get(game)
    home = faces.home(game)
    steps = home.samples(rules, rules.options(preset), players, f"gallery/{game}/{preset}")
    view = rules.view(steps["end"].state, None)
    expected = [tuple((view.tiles.a[t], view.tiles.b[t]) for t in home.revealed(view, s))
                for s in range(players)]
    assert any(expected) == (type(home).revealed is not Home.revealed)
    drawn = _faces_drawn(monkeypatch, lambda: pictures.result(view, _table(players)))
    assert drawn == [face for seat in expected for face in seat]


def test_a_kap_result_card_lays_out_the_winning_hand(monkeypatch):
    rules = games.get("kapten")
    view = rules.view(_won_positions("kapten", 2)[-1], None)
    winner = view.outcome.winners[0]
    eye, tens = view.winning
    hand = [(view.tiles.a[t], view.tiles.b[t]) for t in (*eye, *(t for g in tens for t in g))]
    drawn = _faces_drawn(monkeypatch, lambda: pictures.result(view, _table(2)))
    assert drawn == hand and faces.home("kapten").revealed(view, 1 - winner) == ()


def _faces_drawn(monkeypatch, draw) -> list[tuple[int, int]]:
    real = sprites.face
    seen: list[tuple[int, int]] = []

    def spy(family, first, second, *args, **kwargs):
        seen.append((first, second))
        return real(family, first, second, *args, **kwargs)

    monkeypatch.setattr(sprites, "face", spy)
    draw()
    return seen


def test_seat_panels_count_running_chips_in_the_tables_chips():
    """At a table of 3 chips a unit, a seat that won 2 units shows +6, as captions and the
    terminal say."""
    rules = games.get("tiengow")
    end = _tiengow_positions()[-1]
    match = rules.next_match(end)
    later = rules.view(rules.new_deal(rules.options(), 4, "next", match), None)
    seats = tricks.tiengow_seats(later, _table(4, stake=3))
    assert [s.lines[-1] for s in seats] == [f"match: {signed(3 * c)}" for c in match.chips]
