"""Rendering: sizes, determinism, red pips, long lines, long names, views only (DESIGN.md §7)."""

from __future__ import annotations

import ast
import dataclasses
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import games
import rendering
from bot.cli import main
from bot.gallery import SAMPLE_NAMES, sample_deal
from games.tiles import CHINESE, WESTERN
from rendering import sprites
from rendering.canvas import BOARD_WIDTH, PAD
from rendering.line import best_fit, snake
from rendering.text import MISSING_MARK, fit, font, printable, width
from rendering.theme import THEMES
from storage.stats import Standing

ROOT = Path(__file__).resolve().parent.parent
TELEGRAM_PHOTO_BYTES = 10 * 1024 * 1024


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _deal(game: str, preset: str, players: int, seed: str = "t"):
    rules = games.get(game)
    return rules, sample_deal(rules, rules.options(preset), players, seed)


def _table(players: int, **kw) -> rendering.Table:
    return rendering.Table(title="Test", names=SAMPLE_NAMES[:players], **kw)


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
    tiles = WESTERN if game == "domino" else CHINESE
    order = sorted(range(tiles.size), key=lambda t: not tiles.double[t]) if doubles_first \
        else list(range(tiles.size))
    line = tuple((t, tiles.a[t], tiles.b[t], 0) for t in order)
    return dataclasses.replace(view, line=line)


@pytest.mark.parametrize(("game", "preset", "players", "doubles"), [
    ("dragon", "one-arm", 4, False), ("dragon", "two-arm", 2, False),
    ("domino", "100", 2, True), ("domino", "50", 4, False)])
def test_the_longest_lines_fit(game, preset, players, doubles):
    view = _longest_view(game, preset, players, doubles)
    image = _png(rendering.board(view, _table(players)))
    assert max(image.size) <= 1280 and image.width == BOARD_WIDTH
    family = "western" if game == "domino" else "chinese"
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
    first = rendering.board(view, _table(2))
    sprites.face.cache_clear()
    assert rendering.board(view, _table(2)) == first
    script = (
        "import sys, games, rendering\n"
        "from bot.gallery import SAMPLE_NAMES, sample_deal\n"
        "r = games.get('dragon'); s = sample_deal(r, r.options('two-arm'), 2, 't')\n"
        "v = r.view(s[len(s) // 2].state, None)\n"
        "sys.stdout.buffer.write(rendering.board(v, rendering.Table(title='Test', "
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
    image = _png(rendering.board(view, rendering.Table(title=long_name * 2, names=names,
                                                       footer=long_name * 3)))
    assert image.size[0] == BOARD_WIDTH
    # The 12 px gaps between the seat boxes hold nothing but the band's background.
    box_w = (BOARD_WIDTH - PAD * 2 - 12 * 3) // 4
    background = image.getpixel((PAD + box_w + 6, 150))
    for i in range(3):
        left = PAD + (i + 1) * box_w + i * 12 + 2
        for x in range(left, left + 9):
            for y in range(80, 230):
                assert image.getpixel((x, y)) == background, (x, y)


def test_hand_marks_playable_tiles_and_letters_them_like_buttons():
    rules, steps = _deal("dragon", "one-arm", 4)
    state = next(s.state for s in steps if s.state.line and rules.to_move(s.state) is not None
                 and any(a.verb == "play" for a in rules.legal_actions(s.state))
                 and len(rules.legal_actions(s.state)) < len(s.state.hands[s.state.turn]))
    seat = rules.to_move(state)
    view = rules.view(state, seat)
    image = _png(rendering.hand(view, _table(4))).convert("RGB")
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
    image = _png(rendering.hand(view, _table(2))).convert("RGB")
    look = THEMES["dark"]
    assert not any(_close(p, look.good, 10) for p in image.get_flattened_data())


def test_result_card_and_leaderboard():
    rules, steps = _deal("tails", "chips", 3)
    view = rules.view(steps[-1].state, None)
    card = _png(rendering.result(view, _table(3)))
    assert card.width <= 1280 and card.height <= 1280
    with pytest.raises(ValueError):
        rendering.result(rules.view(steps[0].state, None), _table(3))
    rows = [Standing(i + 1, i, "Щ" * 64, 100 - 50 * i, i) for i in range(10)]
    board = _png(rendering.leaderboard(rows, rendering.Table(title="Top", names=())))
    assert max(board.size) <= 1280
    empty = _png(rendering.leaderboard([], rendering.Table(title="Top", names=(), lang="uk")))
    assert empty.size[0] == board.size[0]


@pytest.mark.parametrize("game", sorted(games.GAMES))
def test_rendering_refuses_states(game):
    rules = games.get(game)
    state = rules.new_deal(rules.options(), rules.default_players, "s")
    table = _table(rules.default_players)
    for draw in (rendering.board, rendering.hand, rendering.result):
        with pytest.raises(TypeError):
            draw(state, table)
    with pytest.raises(ValueError):
        rendering.hand(rules.view(state, None), table)


def test_rendering_code_never_names_a_state():
    for path in (ROOT / "rendering").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
                assert not any(a.name.endswith("State") for a in node.names), path.name
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("hands", "seed"), (path.name, node.attr)
