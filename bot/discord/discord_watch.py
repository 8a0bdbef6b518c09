"""Watching a game on Discord: Watch answers with the table as an ephemeral message for the presser
alone, edited in place as the game goes on (docs/playing.md, Discord; docs/architecture.md §5,
Discord).

What it shows is the session layer's spectator's table (`bot.session.watching`: the group's table
from the rules' spectator's view, in the watcher's language, with no buttons). Discord's limits
bound it:

- An interaction's token lasts 15 minutes, so a message is followed for `TOKEN_LIFE` from the
  press and then left as it is; the message says until when (a timestamp every client shows in
  its own time), and pressing Watch again follows the game anew.
- Edits go through each interaction's own webhook, one outbox per watcher, at most one every
  `SPACING` seconds and only the newest position (a burst of moves is one edit), and they give
  way while the bot is near its limit (`spare`). A board is drawn once per position and
  language, whoever watches it.
- A game is followed for `PER_GAME` people at most, and `TOTAL` in all; past that Watch shows
  the table once and says the channel's table shows the same.
- When the game ends its last table is shown and the watchers are forgotten; a message that
  cannot be edited any more (dismissed, its token gone) is forgotten too.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.discord_hands import TOKEN_LIFE
from bot.discord.discord_messages import (
    COLOUR,
    EMBED_LIMIT,
    TEXT_LIMIT,
    plain,
    quietly,
    retry_after,
    shown_text,
)
from bot.present.screens import Actor
from bot.session.adapter import Job
from bot.session.manager import SessionManager
from bot.session.outbox import Budget, Outbox
from bot.session.watching import NotWatchable, Watched, watched
from storage import StorageError
from words.i18n import lang_of, tr

log = logging.getLogger(__name__)

SPACING = 5.0
"""Seconds between two edits of one watcher's message."""
PER_GAME = 25
"""People who may follow one game at once."""
TOTAL = 500
"""People who may follow games at once in one process."""
DRAWN_KEPT = 64
"""Boards kept drawn (per game, position and language)."""
PICTURE = "watch.png"
_TIME = "\x00"
"""Where the live timestamp goes in a note, once the note's own text is escaped."""


@dataclass(slots=True)
class Watcher:
    """One person following one game: the interaction whose message shows it, when it was
    pressed, in what language, the version it shows and until when (epoch seconds) it follows."""

    interaction: discord.Interaction[Any]
    since: float
    lang: str
    until: float
    version: int = -1


class DiscordWatch:
    """The watchers of every game this process shows."""

    def __init__(self, manager: SessionManager, clock: Callable[[], float],
                 outbox: Callable[[int, str, Budget], Outbox]) -> None:
        """`clock` measures how long interaction tokens last; `outbox` makes (or finds) an
        outbox by key, name and budget (the adapter's, so it drains and closes with them)."""
        self.manager = manager
        self.clock = clock
        self.outbox = outbox
        self.watchers: dict[int, dict[str, Watcher]] = {}
        self._drawn: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()

    def watching(self, sid: int) -> int:
        return len(self.watchers.get(sid, ()))

    def _all(self) -> int:
        return sum(map(len, self.watchers.values()))

    def _box(self, user: str) -> Outbox:
        key = -(2 ** 64) - (int(user) if user.isdigit() else 0)
        return self.outbox(key, f"watching {user}", Budget(cap=None, spacing=SPACING))

    async def open(self, interaction: discord.Interaction[Any], actor: Actor, sid: int) -> None:
        """Watch pressed: the table now, for the presser alone, followed from then on."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException:
            return  # the interaction expired or was answered: nothing can be shown for it
        lang = lang_of(actor.language)
        try:
            lang = await self.manager.person_language(actor)
            now = await watched(self.manager, sid, lang)
        except (NotWatchable, StorageError) as no:
            key = no.key if isinstance(no, NotWatchable) else "err.storage"
            await quietly(interaction.edit_original_response(
                content=plain(tr(lang, key), TEXT_LIMIT)))
            return
        user = actor.platform_id
        following = self.watchers.get(sid, {})
        crowded = user not in following and (len(following) >= PER_GAME
                                             or self._all() >= TOTAL)
        watcher = Watcher(interaction, self.clock(), lang,
                          self.manager.clock() + TOKEN_LIFE, now.version)
        if not now.over and not crowded:
            self.watchers.setdefault(sid, {})[user] = watcher
        note = ("watch.over" if now.over else "watch.crowded" if crowded else "watch.live")
        await quietly(self._show(sid, watcher, now, note))
        if self.watchers.get(sid, {}).get(user) is watcher:
            # A move made while the table was read for this answer was told to no watcher of
            # this one's: one look more, now that it follows the game, shows it (and one
            # shown meanwhile by a follow-up is not taken back by this answer).
            watcher.version = now.version
            self._box(user).update(f"watch:{sid}", self._job(sid, user), spare=True)

    def changed(self, sid: int) -> None:
        """The game's table changed: each watcher's message follows, at its own pace."""
        for user in list(self.watchers.get(sid, ())):
            self._box(user).update(f"watch:{sid}", self._job(sid, user), spare=True)

    def _forget(self, sid: int, user: str) -> None:
        following = self.watchers.get(sid)
        if following is not None:
            following.pop(user, None)
            if not following:
                del self.watchers[sid]

    def _job(self, sid: int, user: str) -> Job:
        async def job() -> None:
            watcher = self.watchers.get(sid, {}).get(user)
            if watcher is None:
                return
            if self.clock() - watcher.since >= TOKEN_LIFE:
                self._forget(sid, user)  # its token is gone: the message stays as it is
                return
            try:
                now = await watched(self.manager, sid, watcher.lang)
            except NotWatchable:
                self._forget(sid, user)
                return
            if now.version == watcher.version:
                return
            try:
                await self._show(sid, watcher, now, "watch.over" if now.over else "watch.live")
            except discord.HTTPException as exc:
                if retry_after(exc) is not None:
                    raise
                log.info("discord: a watched table could not be edited: %s", exc)
                self._forget(sid, user)
                return
            watcher.version = now.version
            if now.over:
                self._forget(sid, user)
        return job

    async def _show(self, sid: int, watcher: Watcher, now: Watched, note: str) -> None:
        """Edit the watcher's message to show `now`, with `note` (and how many watch) above."""
        lang = watcher.lang
        text = plain(tr(lang, note, until=_TIME), TEXT_LIMIT // 2)
        text = text.replace(_TIME, f"<t:{int(watcher.until)}:t>")
        if note == "watch.live":
            text += "\n" + tr(lang, "web.watching", self.watching(sid))
        embed = discord.Embed(description=shown_text(now.screen, EMBED_LIMIT), colour=COLOUR)
        files = []
        picture = now.screen.picture
        if picture is not None:
            key = (sid, now.version, lang)
            png = self._drawn.get(key)
            if png is None:
                png = await asyncio.to_thread(picture.render, "discord")
                self._drawn[key] = png
                while len(self._drawn) > DRAWN_KEPT:
                    self._drawn.popitem(last=False)
            embed.set_image(url=f"attachment://{PICTURE}")
            files.append(discord.File(io.BytesIO(png), filename=PICTURE))
        await watcher.interaction.edit_original_response(content=text, embed=embed,
                                                         attachments=files, view=None)

