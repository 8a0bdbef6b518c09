"""Neutral keyboards as Discord components: buttons, and select menus where buttons run out.

docs/architecture.md §5 (Discord). A message holds at most five rows of five buttons, and a select
menu takes a row of its own with at most 25 options. The presenter's keyboards hold at most 25
buttons, but in rows laid out for a phone; here they are re-flowed into rows of five, and when they
still do not fit (a hand with a tile select above its buttons) the moves become the options of a
select menu. Every button and every select is one of two `DynamicItem` templates, so components on
messages sent before a restart keep working: their custom ids are the payloads themselves
(`bot.present.payload`), and a select's values are payloads too.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.present import payload
from bot.present.screens import Button, Keyboard, TileChoice

ROWS = 5
PER_ROW = 5
OPTIONS = 25
LABEL_LIMIT = 80
OPTION_LIMIT = 100

PressHandler = Callable[[discord.Interaction[Any], str], Awaitable[None]]
"""What a component does: the adapter's press handler, given the payload pressed."""


async def _dispatch(interaction: discord.Interaction[Any], data: str) -> None:
    """discord.py makes components from their custom ids; the client they arrived on carries
    the adapter's handler (`game_press`)."""
    press: PressHandler | None = getattr(interaction.client, "game_press", None)
    if press is not None:
        await press(interaction, data)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"g:(?P<sid>\d{1,12}):(?P<ver>\d{1,9}):(?P<code>\S+)"):
    """Every game button: its custom id is the payload the session layer decodes."""

    def __init__(self, data: str, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label[:LABEL_LIMIT] or "·", custom_id=data,
                                           style=style, disabled=disabled))
        self.data = data

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> GameButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.data)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"s:(?P<sid>\d{1,12}):(?P<ver>\d{1,9}):(?P<kind>[a-z]+)(?P<n>\d*)"):
    """A select menu of moves (each option's value is a payload), or the tile multi-select
    (`kind` "tiles": the values are hand letters, sent as one `!tiles-…` payload)."""

    def __init__(self, custom_id: str,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None, least: int = 1, most: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=custom_id, options=list(options) or [discord.SelectOption(label="·")],
            placeholder=placeholder, min_values=least, max_values=most))
        self.custom = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> GameSelect:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data = selected(self.custom, [str(v) for v in self.item.values])
        await _dispatch(interaction, data)


def selected(custom_id: str, values: Sequence[str]) -> str:
    """The payload a select's choice stands for ("" when it names nothing we made)."""
    match = GameSelect.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is None or not values:
        return ""
    if match.group("kind") == "tiles":
        letters = "-".join(sorted(v for v in values if v.isascii() and v.isalnum()))
        if not letters:
            return ""
        try:
            return payload.encode(int(match.group("sid")), int(match.group("ver")),
                                  f"!tiles-{letters}")
        except ValueError:
            return ""
    return values[0]


def link_data(button: Button) -> str:
    """Telegram's link buttons are plain presses here: joining needs no private chat first,
    "My tiles" answers with an ephemeral hand, and Watch with an ephemeral table."""
    assert button.link is not None
    kind, sid = button.link
    code = {"join": payload.JOIN, "watch": payload.WATCH}.get(kind, payload.HAND)
    return payload.encode(sid, 0, code)


def view_of(keyboard: Keyboard, choice: TileChoice | None = None) -> discord.ui.View | None:
    """The components for a neutral keyboard (and a tile multi-select above it)."""
    buttons = [b for row in keyboard for b in row]
    if not buttons and choice is None:
        return None
    view = discord.ui.View(timeout=None)
    rows_left = ROWS
    if choice is not None:
        view.add_item(_tile_select(choice))
        rows_left -= 1
    laid = _rows(keyboard, rows_left)
    if laid is not None:
        for index, row in enumerate(laid, start=ROWS - rows_left):
            for button in row:
                view.add_item(_button(button, index))
        return view
    # Too many for buttons: the moves become select options, 25 to a menu.
    moves = [b for b in buttons if b.link is None]
    if not moves:
        return view
    ident = payload.decode(moves[0].data)
    for number, start in enumerate(range(0, len(moves), OPTIONS)):
        if number >= rows_left:
            break
        chunk = moves[start:start + OPTIONS]
        options = [discord.SelectOption(label=b.label[:OPTION_LIMIT], value=b.data)
                   for b in chunk]
        view.add_item(GameSelect(f"s:{ident.session_id}:{ident.version}:moves{number}",
                                 options, placeholder=chunk[0].label[:OPTION_LIMIT]))
    return view


def _rows(keyboard: Keyboard, rows_left: int) -> list[list[Button]] | None:
    """The keyboard's own rows when each fits, else everything re-flowed five to a row."""
    if len(keyboard) <= rows_left and all(len(row) <= PER_ROW for row in keyboard):
        return [list(row) for row in keyboard]
    buttons = [b for row in keyboard for b in row]
    if len(buttons) > rows_left * PER_ROW:
        return None
    return [buttons[i:i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]


STYLES = {"go": discord.ButtonStyle.success, "stop": discord.ButtonStyle.danger,
          "main": discord.ButtonStyle.primary}
"""Join green, Leave red, the screen's one action blurple, the rest grey."""


def _button(button: Button, row: int) -> discord.ui.Item[Any]:
    if button.url:
        return discord.ui.Button(label=button.label, url=button.url, row=row)
    data = link_data(button) if button.link is not None else button.data
    style = STYLES.get(button.tone, discord.ButtonStyle.secondary)
    item = GameButton(data, button.label, style, disabled=not button.enabled)
    item.row = row
    return item


def _tile_select(choice: TileChoice) -> GameSelect:
    options = [discord.SelectOption(label=f"{letter} {face}"[:OPTION_LIMIT], value=letter)
               for letter, face in choice.options[:OPTIONS]]
    ident = payload.decode(choice.data)
    item = GameSelect(f"s:{ident.session_id}:{ident.version}:tiles", options,
                      placeholder=choice.prompt[:OPTION_LIMIT], least=choice.least,
                      most=min(choice.most, len(options)))
    item.row = 0
    return item
