"""How a screen becomes a Discord message, and what Discord's errors and objects mean here.

docs/architecture.md §5 (Discord). A screen is an embed whose picture is an attachment; everything
users typed (names above all) is shown with its markdown and mentions escaped, and a countdown is a
timestamp that counts by itself on every client. Which refusals are passing (`retry_after`) and
which permissions a game's channel needs are decided here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.utils import escape_markdown, escape_mentions

from bot.present.screens import Actor, Place, Screen
from bot.session.adapter import Slot
from words.i18n import tr

log = logging.getLogger(__name__)

TEXT_LIMIT = 2000
EMBED_LIMIT = 4096
COLOUR = discord.Colour(0x2E7D5B)
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")
"""What the bot needs in a game's channel: the table is an embed with an image."""
NEEDED_IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files")


@dataclass(slots=True)
class TableMessage(Slot):
    """A game's table in its channel: an embed whose picture is an attachment."""

    attachments: list[discord.Attachment] = field(default_factory=list)
    """The message's files, kept by a text-only edit (the embed's picture is one of them)."""


async def embed_of(screen: Screen, name: str, draw: bool = True
                   ) -> tuple[discord.Embed, discord.File | None]:
    """The screen as an embed; its picture drawn in a worker thread, attached as `name`."""
    embed = discord.Embed(description=shown_text(screen, EMBED_LIMIT), colour=COLOUR)
    if screen.picture is None:
        return embed, None
    embed.set_image(url=f"attachment://{name}")
    if not draw:
        return embed, None
    png = await asyncio.to_thread(screen.picture.render, "discord")
    return embed, discord.File(io.BytesIO(png), filename=name)


def missing_permissions(granted: discord.Permissions, in_thread: bool = False) -> list[str]:
    needed = NEEDED_IN_THREAD if in_thread else NEEDED
    return [name for name in needed if not getattr(granted, name)]


def permission_names(lang: str, missing: list[str]) -> str:
    return ", ".join(tr(lang, f"discord.perm.{name}") for name in missing)


def plain(text: str, limit: int) -> str:
    """Text as Discord shows it literally: no markdown, no mentions (names are typed by
    users: `[Free Nitro](https://…)` must not become a link)."""
    return escape_mentions(escape_markdown(text))[:limit]


def shown_text(screen: Screen, limit: int) -> str:
    """A screen's text for Discord: escaped, with its countdown as a timestamp that counts by
    itself on every client."""
    parts = screen.split_at_countdown()
    if parts is None:
        return plain(screen.text, limit)
    before, after, deadline = parts
    return (plain(before, limit) + f"<t:{int(deadline)}:R>" + plain(after, limit))[:limit]


def retry_after(exc: BaseException) -> float | None:
    """Seconds to wait before trying again what Discord held back for now (a rate limit past
    discord.py's patience, a server error, the network); None for a refusal that retrying
    cannot change."""
    if isinstance(exc, discord.RateLimited):
        return float(exc.retry_after)
    if isinstance(exc, discord.DiscordServerError):
        return 2.0
    if isinstance(exc, discord.HTTPException):
        return 2.0 if exc.status == 429 else None
    if isinstance(exc, aiohttp.ClientError | OSError | TimeoutError):
        return 2.0
    return None


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    return Actor(str(user.id), user.display_name or user.name, str(interaction.locale.value))


def place_of(interaction: discord.Interaction[Any]) -> Place | None:
    """(server, channel); None outside a server. The server is the chip scope."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    title = interaction.guild.name if interaction.guild is not None else ""
    return Place(str(interaction.guild_id), str(interaction.channel_id), title)


def is_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def present(**values: Any) -> dict[str, Any]:
    """Keyword arguments without the None ones (discord.py treats a passed None as a value)."""
    return {k: v for k, v in values.items() if v is not None}


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.send_message(plain(text, TEXT_LIMIT), ephemeral=True)


async def quietly(work: Awaitable[Any]) -> None:
    """A message that could not be sent (deleted, channel gone) is logged, never raised."""
    try:
        await work
    except discord.HTTPException as exc:
        log.warning("discord: %s", exc)
