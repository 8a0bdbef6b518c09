"""Charts for a phone: the /stats card and `gupai sim --plot` (rendering/chart.py).

A picture is checked the way a phone shows it, 400 px wide: every piece of text at least 8 px
tall there, inside the picture, clear of every other; the numbers a chart shows are read back
from the PNG, never from its pixels.
"""

from __future__ import annotations

import io
import json
import math
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from PIL import Image

import games
from bot.cli import main
from faces.presets import game_title
from games.sim import simulate
from rendering import Frame
from rendering.chart import (
    SHEET_WIDTH,
    BarChart,
    BarSeries,
    Drawn,
    LineChart,
    LineSeries,
    charts_in,
    nice_ticks,
    number,
    sheet,
    wrap,
)
from rendering.sim_plot import sim_plot
from rendering.stats_card import GameLine, StatsCard, stats_card
from words.i18n import tr

PHONE = 400
"""How wide a phone shows a picture, in px."""
LONG_NAME = "Олександра-Ярослава Володимирівна Стефаник-Квітка-Основ'яненкова"


def readable_on_a_phone(drawn: Drawn) -> None:
    """Every label at least 8 px tall at phone width, inside the picture, overlapping no other
    label, and whole (nothing shortened with an ellipsis)."""
    image = drawn.image
    scale = PHONE / image.width
    assert drawn.labels
    for label in drawn.labels:
        assert label.size * scale >= 8, label
        x0, y0, x1, y1 = label.box
        assert min(x0, y0) >= 0 and x1 <= image.width and y1 <= image.height, label
        assert not label.text.endswith("…"), label
    for a, b in combinations(drawn.labels, 2):
        apart = (a.box[2] <= b.box[0] or b.box[2] <= a.box[0]
                 or a.box[3] <= b.box[1] or b.box[3] <= a.box[1])
        assert apart, (a, b)


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


# ----- the toolkit ---------------------------------------------------------------------------


@pytest.mark.parametrize(("lo", "hi", "whole"), [
    (0, 0.237, False), (953, 1287, True), (-215, 340, True), (0, 1, True), (5, 5, True),
    (0, 0, False), (1, 143, True), (0.0004, 0.0071, False)])
def test_ticks_are_round_and_cover_the_values(lo, hi, whole):
    ticks = nice_ticks(lo, hi, whole=whole)
    assert ticks[0] <= lo and ticks[-1] >= hi
    assert 2 <= len(ticks) <= 8
    steps = {round(b - a, 9) for a, b in pairwise(ticks)}
    assert len(steps) == 1
    step = steps.pop()
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(abs(mantissa - m) < 1e-6 for m in (1, 2, 2.5, 5)), step
    if whole:
        assert all(t == int(t) for t in ticks)


def test_numbers_are_written_as_the_chart_says():
    assert number(0.25, "percent", 0.05) == "25%"
    assert number(0.025, "percent", 0.025) == "2.5%"
    assert number(0.1234, "percent", 0.001) == "12.3%"
    assert number(-215, "signed") == "−215"
    assert number(340, "signed") == "+340"
    assert number(0, "signed") == "0"
    assert number(-40, "plain") == "−40"
    assert number(1000, "plain") == "1000"


def test_long_words_wrap_and_only_what_has_no_room_left_is_shortened():
    lines = wrap(LONG_NAME + " · ігри та фішки", 30, 752, bold=True)
    assert 1 < len(lines) <= 3 and not lines[-1].endswith("…")
    assert " ".join(lines) == LONG_NAME + " · ігри та фішки"
    many = wrap("слово " * 200, 20, 300, most=3)
    assert len(many) == 3 and many[-1].endswith("…")
    assert len(wrap("x" * 400, 20, 300, most=10)) > 1  # one word wider than the room is broken


def test_a_sheet_carries_its_charts_numbers():
    line = LineChart("Line", (LineSeries("a", ((1.0, 0.5), (2.0, 0.25))),
                              LineSeries("b", ((1.0, 0.0), (2.0, 0.75)))),
                     x_label="turn", values="percent", zero=True)
    bars = BarChart("Bars", ("0", "1"), (BarSeries("a", (0.4, 0.6)),
                                        BarSeries("b", (0.55, 0.45))), values="percent")
    drawn = sheet("Title", "subtitle", (line, bars))
    data = charts_in(drawn.png())
    assert data[0]["kind"] == "line" and data[0]["series"][1]["points"] == [[1.0, 0.0],
                                                                            [2.0, 0.75]]
    assert data[1]["kind"] == "bar" and data[1]["categories"] == ["0", "1"]
    assert [s["values"] for s in data[1]["series"]] == [[0.4, 0.6], [0.55, 0.45]]
    assert charts_in(_plain_png()) == []
    readable_on_a_phone(drawn)


def _plain_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, "PNG")
    return out.getvalue()


def test_bars_must_have_a_value_per_category():
    with pytest.raises(ValueError, match="3 values for 2 categories"):
        BarChart("Bars", ("a", "b"), (BarSeries("x", (1.0, 2.0, 3.0)),))


def test_a_sheet_too_tall_for_the_bot_is_refused():
    rows = tuple(f"row {i}" for i in range(40))
    too_many = BarChart("Bars", rows, (BarSeries("", tuple(float(i) for i in range(40))),),
                        horizontal=True)
    with pytest.raises(ValueError, match="more than 1280"):
        sheet("Title", "", (too_many,))


def test_twenty_seats_of_two_presets_stay_readable():
    """Kap Tai Shap's largest table, two presets: forty bars, labels thinned, none cut."""
    seats = tuple(str(s) for s in range(20))
    bars = BarChart("Wins by seat", seats, (
        BarSeries("culin", tuple(0.01 * s for s in range(20))),
        BarSeries("classical", tuple(0.05 - 0.001 * s for s in range(20)))),
        x_label="seat", values="percent")
    line = LineChart("Winning turn", tuple(
        LineSeries(name, tuple((float(t), (t % 7) / 100) for t in range(1, 240)))
        for name in ("culin", "classical", "a-third-preset-name", "fourth", "fifth", "sixth")),
        x_label="turn", values="percent", zero=True)
    drawn = sheet("Kap Tai Shap", "20 players · 5000 games · seed gupai", (line, bars))
    assert drawn.image.width == SHEET_WIDTH
    readable_on_a_phone(drawn)


# ----- the /stats card -----------------------------------------------------------------------


CARD = StatsCard(
    balance=-35,
    history=((0, 1000), (1, 1040), (2, 990), (2, 0), (3, -35)),
    games=(GameLine("Тягни багато десяток", 2, 1, -1035), GameLine("Доміно", 1, 0, -10),
           GameLine("Небо-Дев'ять", 0, 0, 0), GameLine("Dragon", 7, 7, 12345)))


@pytest.mark.parametrize("lang", ["uk", "en"])
def test_the_stats_card_shows_the_history_and_every_game(lang):
    title = tr(lang, "stats.picture_title", name=LONG_NAME)
    drawn = stats_card(CARD, Frame(title=title, names=(), lang=lang))
    history, per_game = charts_in(drawn.png())
    assert [tuple(p) for p in history["series"][0]["points"]] == [
        (float(d), float(b)) for d, b in CARD.history]
    assert per_game["horizontal"] and per_game["series"][0]["values"] == [
        -1035.0, -10.0, 0.0, 12345.0]
    assert per_game["categories"] == [tr(lang, "img.game_line", g.played, game=g.title,
                                         won=g.won) for g in CARD.games]
    texts = [label.text for label in drawn.labels]
    assert "−1035" in texts and "+12345" in texts and "0" in texts
    assert any("−35" in t for t in texts)  # the balance, with a real minus
    assert LONG_NAME.split()[0] in " ".join(texts)
    assert drawn.image.width == SHEET_WIDTH and drawn.image.height <= 1280
    readable_on_a_phone(drawn)


def test_one_deal_is_a_chart_too():
    card = StatsCard(1010, ((0, 1000), (1, 1010)), (GameLine("Dragon", 1, 1, 10),))
    drawn = stats_card(card, Frame(title="Ann", names=(), lang="en"))
    readable_on_a_phone(drawn)
    assert charts_in(drawn.png())[1]["series"][0]["values"] == [10.0]


# ----- gupai sim --plot ----------------------------------------------------------------------


def run_sim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    code = main(["sim", *argv, "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out) if code == 0 else {}, out.err


def shares(win_turns: dict[str, int], last: int) -> list[list[float]]:
    won = sum(win_turns.values())
    return [[float(t), win_turns.get(str(t), 0) / won] for t in range(1, last + 1)]


def test_sim_plots_the_winning_turns_and_seats_of_presets_compared(tmp_path, capsys,
                                                                   monkeypatch):
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    path = tmp_path / "kap.png"
    code, out, err = run_sim(capsys, "kapten", "--games", "40", "--seed", "plot", "--compare",
                             "--plot", str(path))
    assert code == 0 and str(path) in err
    data = path.read_bytes()
    width, height = png_size(data)
    assert width == SHEET_WIDTH and 500 <= height <= 1280
    turns, seats = charts_in(data)
    presets = out["presets"]
    last = max(int(t) for p in presets for t in p["win_turns"])
    assert [s["name"] for s in turns["series"]] == [p["preset"] for p in presets]
    for series, preset in zip(turns["series"], presets, strict=True):
        assert series["points"] == shares(preset["win_turns"], last)
    assert [s["values"] for s in seats["series"]] == [p["win_rate"] for p in presets]
    assert seats["categories"] == ["0", "1"]
    # The same run draws the same picture, and it reads on a phone.
    rules = games.get("kapten")
    runs = [(name, simulate(rules, rules.options(name), 2, 40, "plot", ["heuristic"]))
            for name in rules.presets]
    drawn = sim_plot(game_title(rules.id, None, "en"), "plot", runs, "en")
    assert drawn.png() == data
    readable_on_a_phone(drawn)


def test_sim_plots_only_the_seats_of_a_game_without_winning_turns(tmp_path, capsys):
    path = tmp_path / "dragon.png"
    code, out, _ = run_sim(capsys, "dragon", "--games", "30", "--plot", str(path))
    assert code == 0
    data = path.read_bytes()
    assert png_size(data)[0] == SHEET_WIDTH
    (seats,) = charts_in(data)
    assert seats["kind"] == "bar" and len(seats["series"]) == 1
    assert seats["series"][0]["values"] == out["win_rate"]
    assert seats["categories"] == ["0", "1", "2", "3"]


def test_sim_plots_one_preset_of_a_draw_game(tmp_path, capsys):
    path = tmp_path / "three.png"
    code, out, _ = run_sim(capsys, "threedozen", "--games", "30", "--preset", "forced-pickup",
                           "--players", "3", "--plot", str(path))
    assert code == 0
    turns, seats = charts_in(path.read_bytes())
    (series,) = turns["series"]
    assert series["points"] == shares(out["win_turns"], max(map(int, out["win_turns"])))
    assert seats["series"][0]["values"] == out["win_rate"]


def test_a_chart_that_cannot_be_written_is_refused_before_the_run(tmp_path, capsys):
    missing = tmp_path / "no-such-folder" / "x.png"
    assert main(["sim", "dragon", "--games", "5", "--plot", str(missing)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "no-such-folder" in out.err and "Traceback" not in out.err
    assert main(["sim", "dragon", "--games", "5", "--plot", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and str(tmp_path) in out.err
    assert not Path(missing).exists()

