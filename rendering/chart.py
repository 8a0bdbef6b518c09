"""Line and bar charts drawn with Pillow, for pictures read on a phone rather than a desktop.

A phone shows a picture about 400 px wide, so a sheet of charts is drawn `SHEET_WIDTH` (800 px)
wide and no text is smaller than `MIN_TEXT` (18 px, 9 px on the phone). Every label is measured
before it is placed: a title too long for one line is wrapped, tick labels that would collide are
thinned out, a value label with no room is left out (the axis still gives the value), so nothing
is cut at an edge. What was drawn where is kept (`Drawn.labels`) so a test can hold the picture
to these promises.

What a chart shows is data first (`LineChart`, `BarChart`) and pixels second: `Drawn.png` writes
the charts' numbers into the PNG beside the picture (a compressed text chunk, JSON), and
`charts_in` reads them back, so a reader or a test checks the figures without reading pixels.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from rendering.chart_data import (
    BarChart,
    BarSeries,
    Chart,
    LineChart,
    LineSeries,
    Values,
    nice_ticks,
    number,
)
from rendering.text import fit, font, printable, width
from rendering.theme import RGB, Theme, theme

SHEET_WIDTH = 800
MIN_TEXT = 18
TITLE_SIZE = 30
SUBTITLE_SIZE = 22
CHART_TITLE_SIZE = 24
LABEL_SIZE = 20
TICK_SIZE = MIN_TEXT
PAD = 24
PLOT_HEIGHT = 260
BAR_THICKNESS = 26
MAX_SIDE = 1280
"""The pictures' limit everywhere in the bot (docs/architecture.md §7); a sheet taller than this is
refused."""
DATA_KEY = "gupai:charts"
"""The PNG text chunk that carries the charts' numbers."""

__all__ = ["BarChart", "BarSeries", "Chart", "Drawn", "Label", "LineChart", "LineSeries", "Pen",
           "Values", "charts_in", "nice_ticks", "number", "palette", "sheet", "wrap"]


@dataclass(frozen=True, slots=True)
class Label:
    """A piece of text as drawn: its font size and the box its ink covers."""

    text: str
    size: int
    box: tuple[int, int, int, int]


@dataclass(slots=True)
class Drawn:
    image: Image.Image
    charts: tuple[Chart, ...]
    labels: list[Label] = field(default_factory=list)

    def png(self) -> bytes:
        """The picture as PNG, carrying the charts' numbers (see `charts_in`)."""
        info = PngInfo()
        info.add_text(DATA_KEY, json.dumps([dataclasses.asdict(c) for c in self.charts],
                                           ensure_ascii=False), zip=True)
        out = io.BytesIO()
        self.image.save(out, "PNG", pnginfo=info, compress_level=3)
        return out.getvalue()


def charts_in(png: bytes) -> list[dict[str, Any]]:
    """The charts' numbers a sheet's PNG carries ([] for a PNG without them)."""
    with Image.open(io.BytesIO(png)) as image:
        text = getattr(image, "text", {}).get(DATA_KEY)
    return [] if text is None else list(json.loads(text))


# ----- words that fit ----------------------------------------------------------------------------


def wrap(text: str, size: int, room: int, bold: bool = False, most: int = 3) -> list[str]:
    """Lines of at most `room` px, broken between words (inside a word only when one word is
    wider than the room); past `most` lines the last is shortened with an ellipsis."""
    face = font(size, bold)
    lines: list[str] = []
    for word in printable(text).split():
        if lines and width(f"{lines[-1]} {word}", face) <= room:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while width(word, face) > room:
            cut = max(1, next(i for i in range(len(word), 0, -1)
                              if width(word[:i], face) <= room))
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    if len(lines) > most:
        lines = [*lines[:most - 1], fit(" ".join(lines[most - 1:]), face, room)]
    return lines or [""]


# ----- a sheet of charts -------------------------------------------------------------------------


def sheet(title: str, subtitle: str, charts: Sequence[Chart], theme_name: str = "dark",
          width_: int = SHEET_WIDTH) -> Drawn:
    """A header (title, then a muted subtitle) and the charts one below the other."""
    look = theme(theme_name)
    room = width_ - 2 * PAD
    titles = wrap(title, TITLE_SIZE, room, bold=True)
    subtitles = wrap(subtitle, SUBTITLE_SIZE, room) if subtitle else []
    header = PAD + len(titles) * (TITLE_SIZE + 8) + len(subtitles) * (SUBTITLE_SIZE + 8) + PAD
    layouts = [_layout(chart, width_) for chart in charts]
    height = header + sum(layout.height for layout in layouts) + PAD
    if height > MAX_SIDE:
        raise ValueError(f"{len(charts)} charts need {height} px, more than {MAX_SIDE}")
    drawn = Drawn(Image.new("RGB", (width_, height), look.panel), tuple(charts))
    pen = Pen(ImageDraw.Draw(drawn.image), drawn.labels)
    pen.draw.rectangle((0, 0, width_, header - PAD // 2), fill=look.table)
    y = PAD
    for line in titles:
        pen.text((PAD, y), line, TITLE_SIZE, look.text, bold=True)
        y += TITLE_SIZE + 8
    for line in subtitles:
        pen.text((PAD, y), line, SUBTITLE_SIZE, look.text)
        y += SUBTITLE_SIZE + 8
    y = header
    for layout in layouts:
        layout.draw(pen, look, y)
        y += layout.height
    return drawn


@dataclass(slots=True)
class Pen:
    """Draws text and remembers where (the labels a sheet is checked by)."""

    draw: ImageDraw.ImageDraw
    labels: list[Label]

    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB,
             anchor: str = "la", bold: bool = False) -> None:
        face = font(size, bold)
        box = self.draw.textbbox(xy, text, font=face, anchor=anchor)
        self.draw.text(xy, text, font=face, fill=fill, anchor=anchor)
        self.labels.append(Label(text, size, (int(box[0]), int(box[1]), math.ceil(box[2]),
                                              math.ceil(box[3]))))


@dataclass(slots=True)
class _Layout:
    height: int
    draw: Callable[[Pen, Theme, int], None]


def _layout(chart: Chart, width_: int) -> _Layout:
    room = width_ - 2 * PAD
    titles = wrap(chart.title, CHART_TITLE_SIZE, room, bold=True)
    names = [s.name for s in chart.series] if len(chart.series) > 1 else []
    legend = _legend_rows(names, room)
    top = PAD + len(titles) * (CHART_TITLE_SIZE + 6) + 6 + len(legend) * (LABEL_SIZE + 10) + 8
    body: _Body
    if isinstance(chart, LineChart):
        body = _line_body(chart, width_)
    elif chart.horizontal:
        body = _hbar_body(chart, width_)
    else:
        body = _bar_body(chart, width_)

    def draw(pen: Pen, look: Theme, y: int) -> None:
        for line in titles:
            pen.text((PAD, y + PAD), line, CHART_TITLE_SIZE, look.text, bold=True)
            y += CHART_TITLE_SIZE + 6
        y += PAD + 6
        for row in legend:
            x = PAD
            for index, name in row:
                colour = palette(look)[index % len(palette(look))]
                pen.draw.rectangle((x, y + 2, x + 16, y + 18), fill=colour)
                pen.text((x + 24, y), name, LABEL_SIZE, look.text)
                x += 24 + width(name, font(LABEL_SIZE)) + 28
            y += LABEL_SIZE + 10
        body.draw(pen, look, y + 8)
    return _Layout(top + body.height, draw)


@dataclass(slots=True)
class _Body:
    height: int
    draw: Callable[[Pen, Theme, int], None]


def palette(look: Theme) -> tuple[RGB, ...]:
    """Series colours, the first the theme's accent, all apart from one another on the panel."""
    return (look.accent, look.gold, look.good, look.bad, look.select, look.text)


def _legend_rows(names: Sequence[str], room: int) -> list[list[tuple[int, str]]]:
    face = font(LABEL_SIZE)
    rows: list[list[tuple[int, str]]] = []
    used = room + 1
    for index, name in enumerate(names):
        shown = fit(name, face, room - 24)
        need = 24 + width(shown, face) + 28
        if used + need - 28 > room:
            rows.append([])
            used = 0
        rows[-1].append((index, shown))
        used += need
    return rows


def _y_axis(ticks: Sequence[float], values: Values) -> tuple[list[str], int]:
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    words = [number(t, values, step) for t in ticks]
    return words, max(width(w, font(TICK_SIZE)) for w in words)


def _grid(pen: Pen, look: Theme, ticks: Sequence[float], words: Sequence[str], box: tuple[
        int, int, int, int]) -> Callable[[float], float]:
    """Horizontal grid lines with their values at the left; returns value → y."""
    left, top, right, bottom = box
    lo, hi = ticks[0], ticks[-1]

    def y_of(value: float) -> float:
        return bottom - (value - lo) / (hi - lo) * (bottom - top)
    for tick, word in zip(ticks, words, strict=True):
        y = y_of(tick)
        colour = look.muted if abs(tick) < 1e-12 and lo < 0 else look.panel_hi
        pen.draw.line((left, y, right, y), fill=colour, width=2 if colour == look.muted else 1)
        pen.text((left - 10, y), word, TICK_SIZE, look.muted, anchor="rm")
    return y_of


def _x_label_height(label: str) -> int:
    return TICK_SIZE + 10 if label else 0


def _line_body(chart: LineChart, width_: int) -> _Body:
    points = [p for s in chart.series for p in s.points]
    xs = [x for x, _ in points] or [0.0]
    ys = [y for _, y in points] or [0.0]
    lo, hi = min(ys), max(ys)
    if chart.zero:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    y_ticks = nice_ticks(lo, hi, whole=chart.values != "percent")
    words, y_room = _y_axis(y_ticks, chart.values)
    x_lo, x_hi = min(xs), max(xs)
    if x_hi == x_lo:
        x_lo, x_hi = x_lo - 1, x_hi + 1
    x_ticks = [t for t in nice_ticks(x_lo, x_hi, whole=True) if x_lo <= t <= x_hi]
    tick_face = font(TICK_SIZE)
    last_half = width(number(x_ticks[-1], "plain"), tick_face) // 2 if x_ticks else 0
    left, right = PAD + y_room + 12, width_ - PAD - max(8, last_half)
    height = 10 + PLOT_HEIGHT + 8 + TICK_SIZE + 6 + _x_label_height(chart.x_label)

    def draw(pen: Pen, look: Theme, y: int) -> None:
        top, bottom = y + 10, y + 10 + PLOT_HEIGHT
        y_of = _grid(pen, look, y_ticks, words, (left, top, right, bottom))

        def x_of(value: float) -> float:
            return left + (value - x_lo) / (x_hi - x_lo) * (right - left)
        shown_right = -1.0
        for tick in x_ticks:
            word = number(tick, "plain")
            half = width(word, tick_face) / 2
            if x_of(tick) - half < shown_right + 12:
                continue
            pen.draw.line((x_of(tick), bottom, x_of(tick), bottom + 6), fill=look.muted, width=2)
            pen.text((x_of(tick), bottom + 8), word, TICK_SIZE, look.muted, anchor="ma")
            shown_right = x_of(tick) + half
        if chart.x_label:
            pen.text((right, bottom + 8 + TICK_SIZE + 8), chart.x_label, TICK_SIZE, look.muted,
                     anchor="ra")
        colours = palette(look)
        for index, series in enumerate(chart.series):
            colour = colours[index % len(colours)]
            line = [(x_of(x), y_of(v)) for x, v in series.points]
            if len(line) > 1:
                pen.draw.line(line, fill=colour, width=3, joint="curve")
            if len(line) <= 60:
                for px, py in line:
                    pen.draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=colour)
    return _Body(height, draw)


def _bar_body(chart: BarChart, width_: int) -> _Body:
    values = [v for s in chart.series for v in s.values] or [0.0]
    y_ticks = nice_ticks(min(0.0, *values), max(0.0, *values),
                         whole=chart.values != "percent")
    words, y_room = _y_axis(y_ticks, chart.values)
    left, right = PAD + y_room + 12, width_ - PAD
    groups = max(1, len(chart.categories))
    bars = max(1, len(chart.series))
    group_w = (right - left) / groups
    slot = group_w * 0.8 / bars
    tick_face = font(TICK_SIZE)
    labels = [number(v, chart.values, _label_step(chart.values)) for v in values]
    labelled = groups * bars <= 16 and all(width(w, tick_face) <= slot + group_w * 0.2 - 4
                                           for w in labels)
    every = 1
    while any(width(c, tick_face) > group_w * every - 8 for c in chart.categories) \
            and every < groups:
        every += 1
    head = TICK_SIZE + 8 if labelled else 10
    height = head + PLOT_HEIGHT + 8 + TICK_SIZE + 6 + _x_label_height(chart.x_label)

    def draw(pen: Pen, look: Theme, y: int) -> None:
        top, bottom = y + head, y + head + PLOT_HEIGHT
        y_of = _grid(pen, look, y_ticks, words, (left, top, right, bottom))
        zero = y_of(0.0)
        colours = palette(look)
        for g, category in enumerate(chart.categories):
            x0 = left + g * group_w + group_w * 0.1
            for b, series in enumerate(chart.series):
                value = series.values[g]
                colour = _sign_colour(look, value) if chart.by_sign else \
                    colours[b % len(colours)]
                bx = x0 + b * slot
                y_end = y_of(value)
                pen.draw.rectangle((bx + 1, min(zero, y_end), bx + slot - 1, max(zero, y_end)),
                                   fill=colour)
                if labelled:
                    word = number(value, chart.values, _label_step(chart.values))
                    anchor, at = ("ma", y_end + 4) if value < 0 else ("md", y_end - 4)
                    pen.text((bx + slot / 2, at), word, TICK_SIZE, look.text, anchor=anchor)
            if g % every == 0:
                pen.text((left + (g + 0.5) * group_w, bottom + 8), category, TICK_SIZE,
                         look.muted, anchor="ma")
        if chart.x_label:
            pen.text((right, bottom + 8 + TICK_SIZE + 8), chart.x_label, TICK_SIZE, look.muted,
                     anchor="ra")
    return _Body(height, draw)


def _label_step(values: Values) -> float:
    """Value labels on bars: a share to a tenth of a percent, anything else whole."""
    return 0.001 if values == "percent" else 1.0


def _sign_colour(look: Theme, value: float) -> RGB:
    return look.good if value > 0 else look.bad if value < 0 else look.muted


def _hbar_body(chart: BarChart, width_: int) -> _Body:
    """One row per category: its words on a line (wrapped), the bar below, its value at the
    bar's end; the zero line sits where the largest loss and the largest gain both fit."""
    room = width_ - 2 * PAD
    face = font(LABEL_SIZE, bold=True)
    series = chart.series[0] if chart.series else BarSeries("", (0.0,) * len(chart.categories))
    words = [number(v, chart.values, _label_step(chart.values)) for v in series.values]
    lines = [wrap(c, LABEL_SIZE, room) for c in chart.categories]
    low = max((width(w, face) for w, v in zip(words, series.values, strict=True) if v < 0),
              default=0)
    high = max((width(w, face) for w, v in zip(words, series.values, strict=True) if v >= 0),
               default=0)
    losses = max((-v for v in series.values if v < 0), default=0.0)
    gains = max((v for v in series.values if v > 0), default=0.0)
    span = room - (low + 10 if low else 0) - (high + 10 if high else 0)
    zero_x = PAD + (low + 10 if low else 0) + (span * losses / (losses + gains)
                                               if losses + gains else 0)
    scale = span / (losses + gains) if losses + gains else 0.0
    rows = [len(ls) * (LABEL_SIZE + 6) + BAR_THICKNESS + 16 for ls in lines]

    def draw(pen: Pen, look: Theme, y: int) -> None:
        for ls, value, word, row in zip(lines, series.values, words, rows, strict=True):
            for line in ls:
                pen.text((PAD, y), line, LABEL_SIZE, look.text)
                y += LABEL_SIZE + 6
            colour = _sign_colour(look, value) if chart.by_sign else palette(look)[0]
            end = zero_x + value * scale
            bar_top = y + 2
            pen.draw.rectangle((min(zero_x, end), bar_top, max(zero_x, end),
                                bar_top + BAR_THICKNESS), fill=colour)
            mid = bar_top + BAR_THICKNESS / 2
            pen.draw.line((zero_x, bar_top - 4, zero_x, bar_top + BAR_THICKNESS + 4),
                          fill=look.muted, width=2)
            if value < 0:
                pen.text((end - 10, mid), word, LABEL_SIZE, colour, anchor="rm", bold=True)
            else:
                pen.text((end + 10, mid), word, LABEL_SIZE, colour, anchor="lm", bold=True)
            y += row - len(ls) * (LABEL_SIZE + 6)
    return _Body(sum(rows), draw)
