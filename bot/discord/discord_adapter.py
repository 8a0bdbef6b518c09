"""The Discord adapter: interactions in, neutral requests to the session layer, screens out.

docs/architecture.md §5 (Discord) and §1 invariant 8: no game logic here. A slash command becomes a
call of `SessionManager` or `Commands`, a component press `SessionManager.press`; the screens that
come back become Discord calls. The chip scope is the server: a `Place` is (server, channel), so
each channel holds at most one game and every channel of a server shares its chips and leaderboard.

The channel sees one table message per game (an embed with the board as an attachment), edited in
place through the channel's `Outbox`, whose pace is Discord's own: discord.py keeps each
channel's rate limits, and the outbox only coalesces (the newest table wins) and retries what a
passing failure held back. The table names the player to move, and its countdown is a Discord
timestamp that counts by itself, so no edit is made just to count down. Hands, pings and notes
are `DiscordHands`'s; how a screen becomes an embed is `discord_messages`'s. Every interaction
is deferred before anything slow, and every press is answered (an ephemeral sentence when
something is refused).

Every request discord.py makes to Discord's API is counted through its `http_trace` (a 429 too,
which discord.py waits out and retries), and `health` asks whether the gateway is connected.
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.discord.discord_commands import CatalogueTranslator, register
from bot.discord.discord_components import GameButton, GameSelect, view_of
from bot.discord.discord_hands import DiscordHands
from bot.discord.discord_messages import (
    TEXT_LIMIT,
    TableMessage,
    actor_of,
    embed_of,
    is_ephemeral,
    missing_permissions,
    permission_names,
    place_of,
    plain,
    present,
    quietly,
    retry_after,
    tell,
)
from bot.discord.discord_watch import DiscordWatch
from bot.present import payload
from bot.present.screens import Actor, Place, Reply, Screen, Target
from bot.service.logs import hide
from bot.service.metrics import Metrics, PlatformMetrics
from bot.service.shards import Shards
from bot.session.manager import SessionManager, Timing
from bot.session.outbox import Budget, Outbox, loop_time
from bot.session.seating import seat_index
from storage import Session, Storage
from words.i18n import lang_of, tr

log = logging.getLogger(__name__)

PLATFORM = "discord"
CHANNEL_BUDGET = Budget(cap=None, spacing=1.0)
"""discord.py keeps Discord's per-channel limits; the outbox spaces in-place table edits a
second apart so that a burst of moves is shown as one edit."""
API_PATH = "/api/"
"""Where Discord's HTTP API is (the gateway's connection is not counted as a call)."""


def http_trace(metrics: PlatformMetrics) -> aiohttp.TraceConfig:
    """Counts every request discord.py makes to the API, and the status it got."""
    trace = aiohttp.TraceConfig()

    async def ended(session: aiohttp.ClientSession, context: Any,
                    params: aiohttp.TraceRequestEndParams) -> None:
        if params.url.path.startswith(API_PATH):
            metrics.called(params.response.status)

    async def failed(session: aiohttp.ClientSession, context: Any,
                     params: aiohttp.TraceRequestExceptionParams) -> None:
        if params.url.path.startswith(API_PATH):
            metrics.called(None)

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


class GupaiClient(discord.AutoShardedClient):
    """The client carries the adapter's press handler, which the `DynamicItem` templates call.

    Sharded as discord.py shards: the shards `GUPAI_SHARDS` names (`bot.service.shards`), or without
    it every shard, as many as Discord recommends, in this one process."""

    def __init__(self, adapter: DiscordBot, shards: Shards | None = None) -> None:
        # The bot never joins a voice channel: no warning about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # No message mentions anyone unless it names whom (a ping names its players).
        intents, mentions = discord.Intents(guilds=True), discord.AllowedMentions.none()
        trace = http_trace(adapter.metrics)
        if shards is None:
            super().__init__(intents=intents, allowed_mentions=mentions, http_trace=trace)
        else:
            super().__init__(intents=intents, allowed_mentions=mentions, http_trace=trace,
                             shard_ids=list(shards.ids), shard_count=shards.count)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(self)

    async def game_press(self, interaction: discord.Interaction[Any], data: str) -> None:
        await self.adapter.on_press(interaction, data)

    async def setup_hook(self) -> None:
        await self.adapter.setup()


async def on_shards(shards: Shards, session: Session) -> bool:
    """Whether a game's server is on these shards (its place's chat is the server)."""
    chat = str(session.messages.get("place", {}).get("chat", ""))
    return chat.isdigit() and shards.holds(int(chat))


class DiscordBot(DiscordHands):
    group_only = "discord.server_only"

    def __init__(self, token: str, storage: Storage, *, timing: Timing | None = None,
                 channel_budget: Budget | None = None, theme: str = "dark",
                 sync_commands: bool = True, clock: Callable[[], float] = loop_time,
                 game_clock: Callable[[], float] = time.time, shards: Shards | None = None,
                 metrics: Metrics | None = None) -> None:
        """`clock` measures how long interaction tokens last (and presses take to answer);
        `game_clock` is the session layer's (deadlines, shown as Discord timestamps, are
        seconds since the epoch). `metrics`: the process's (by default, a registry of the
        bot's own)."""
        self.metrics = (metrics or Metrics()).platform(PLATFORM)
        hide(token)  # never in a log line, whichever library writes it
        super().__init__(SessionManager(storage, PLATFORM, timing, clock=game_clock, theme=theme,
                                        live_countdown=True, metrics=self.metrics), clock)
        self.token = token
        self.channel_budget = channel_budget or CHANNEL_BUDGET
        self.sync_commands = sync_commands
        self.shards = shards
        self.client = GupaiClient(self, shards)
        if shards is not None:  # a dead process's games: only those of this one's shards
            self.manager.requests.worker.mine = functools.partial(on_shards, shards)
        self.tree = self.client.tree
        self.watch = DiscordWatch(self.manager, clock, self.outbox)
        self.manager.requests.watching = True
        register(self)

    # ----- life cycle ---------------------------------------------------------------------------

    async def setup(self) -> None:
        """Once the client has logged in: templates, commands, and the open games."""
        self.client.add_dynamic_items(GameButton, GameSelect)
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_commands:
            await self.tree.sync()
        restored = await self.manager.restore()
        if restored:
            log.info("restored %d open games", restored)

    async def start(self) -> None:
        """Log in and connect to the gateway (returns when the client is closed)."""
        await self.client.start(self.token)

    async def stop(self, grace: float = 3.0) -> None:
        await self.settle(grace)
        await self.close_outboxes()
        if not self.client.is_closed():
            await self.client.close()

    def health(self) -> str | None:
        """None while the gateway is connected and answers heartbeats; else why not."""
        client = self.client
        if client.is_closed():
            return "discord: the client is closed"
        if not client.is_ready():
            return "discord: not connected to the gateway"
        if not isinstance(client, discord.AutoShardedClient):
            return None if math.isfinite(client.latency) else "discord: no heartbeat answered"
        for shard in client.shards.values():
            if shard.is_closed():
                return f"discord: shard {shard.id} is disconnected"
        for shard_id, latency in client.latencies:
            if not math.isfinite(latency):
                return f"discord: shard {shard_id} has no heartbeat answered"
        return None

    # ----- interactions in ----------------------------------------------------------------------

    async def on_press(self, interaction: discord.Interaction[Any], data: str) -> None:
        """A button or a select: deferred first, then the session layer; a refusal is told
        only to the presser."""
        self.metrics.pressed()
        arrived = self.clock()
        actor = actor_of(interaction)
        self._saw(interaction, actor)
        try:
            press = payload.decode(data)
        except payload.BadPayload:
            await tell(interaction, tr(await self.manager.person_language(actor), "err.forged"))
            self.metrics.answered(self.clock() - arrived)
            return
        words = payload.top_words(data)
        if words is not None:
            await self._turn_page(interaction, actor, words, arrived)
            return
        if press.code == payload.WATCH:
            await self.watch.open(interaction, actor, press.session_id)
            self.metrics.answered(self.clock() - arrived)
            return
        own_hand = press.code == payload.HAND or is_ephemeral(interaction)
        try:
            if press.code == payload.HAND:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException:
            return  # the interaction expired or was answered: nothing can be shown for it
        self.metrics.answered(self.clock() - arrived)
        try:
            with self._counting(self._answering, actor), \
                    self._counting(self._opening if own_hand else {}, actor):
                reply = await self.manager.press(actor, data)
        except Exception:
            log.exception("a press failed")
            reply = Reply(toast=tr(lang_of(actor.language), "err.storage"))
        accepted = reply.answer is None  # a refusal always carries its answer
        if own_hand and accepted:
            self._follow(press.session_id, actor.platform_id, interaction,
                         anew=press.code == payload.HAND)
        if press.code == payload.HAND:
            if not accepted:  # the hand itself is the answer, unless there is none
                await quietly(interaction.edit_original_response(
                    content=plain(reply.toast, TEXT_LIMIT)))
            return
        if reply.toast:
            await quietly(interaction.followup.send(plain(reply.toast, TEXT_LIMIT),
                                                     ephemeral=True))

    async def _turn_page(self, interaction: discord.Interaction[Any], actor: Actor,
                         words: list[str], arrived: float) -> None:
        """A leaderboard button: the message it is on shows that page or ranking."""
        try:
            await interaction.response.defer()
        except discord.HTTPException:
            return
        self.metrics.answered(self.clock() - arrived)
        place = place_of(interaction)
        if place is None:
            return
        reply = await self.commands.run("top", place, actor, words,
                                        self._admin_check(interaction))
        if reply.answer is not None:
            await quietly(self._answer(interaction, reply.answer))

    async def command(self, interaction: discord.Interaction[Any], name: str,
                      words: list[str], *, private: bool = False,
                      target: Target | None = None) -> None:
        """A slash command: deferred (ephemeral for the game commands and personal ones), run,
        and answered in the same place; an ephemeral answer is in the asker's language."""
        actor = actor_of(interaction)
        self._saw(interaction, actor)
        try:
            await interaction.response.defer(ephemeral=private, thinking=True)
        except discord.HTTPException:
            return
        place = place_of(interaction)
        lang = await self.manager.person_language(actor)
        try:
            with self._counting(self._answering, actor):
                reply = await self._run_command(interaction, name, place, actor, words,
                                                alone=private or place is None, target=target)
        except Exception:
            log.exception("/%s failed", name)
            reply = Reply(answer=Screen(tr(lang, "err.storage")))
        if reply is None:
            return  # the player's hand is the answer, on its way
        screen = reply.answer or Screen(reply.toast or tr(lang, "discord.done"))
        await quietly(self._answer(interaction, screen))

    async def _run_command(self, interaction: discord.Interaction[Any], name: str,
                           place: Place | None, actor: Actor, words: list[str], *,
                           alone: bool, target: Target | None = None) -> Reply | None:
        """None: answered with the player's hand (`/join` by a player already seated).
        `alone`: the answer is ephemeral, so it is in the actor's language."""
        if place is not None and name == "join":
            session = await self.manager.open_in(place)
            if (session is not None and session.status == "active"
                    and seat_index(session, actor.platform_id) is not None):
                with self._counting(self._opening, actor):
                    reply = await self.manager.show_hand(session.id, actor)
                if reply.answer is not None:
                    return reply
                self._follow(session.id, actor.platform_id, interaction, anew=True)
                return None
        if place is not None and name == "newgame":
            missing = missing_permissions(interaction.app_permissions,
                                          isinstance(interaction.channel, discord.Thread))
            if missing:
                lang = await self._answer_language(place, actor, alone)
                return Reply(answer=Screen(tr(lang, "discord.no_permissions",
                                              missing=permission_names(lang, missing))))
        reply = await self.run_command(name, place or Place(f"dm{actor.platform_id}"), actor,
                                       words, self._admin_check(interaction),
                                       private=place is None, alone=alone, target=target)
        if name == "newgame" and place is not None and reply.answer is None:
            lang = await self._answer_language(place, actor, alone)
            reply.answer = Screen(tr(lang, "discord.lobby_open"))
        return reply

    async def _answer_language(self, place: Place, actor: Actor, alone: bool) -> str:
        _, lang = await self.manager.chat_of(place, actor)
        return await self.manager.person_language(actor, lang) if alone else lang

    def _admin_check(self, interaction: discord.Interaction[Any]) -> Callable[[], Awaitable[bool]]:
        async def is_admin() -> bool:
            if interaction.guild_id is None:
                return True
            rights = interaction.permissions
            return rights.administrator or rights.manage_guild or rights.manage_channels
        return is_admin

    async def _answer(self, interaction: discord.Interaction[Any], screen: Screen) -> None:
        """Fill in a deferred command's answer (a picture goes as an attachment of its embed)."""
        embed, file = await embed_of(screen, "answer.png")
        await interaction.edit_original_response(
            content=None, embed=embed, attachments=[file] if file is not None else [],
            view=view_of(screen.keyboard))

    # ----- screens out --------------------------------------------------------------------------

    async def deliver(self, reply: Reply) -> None:
        """As every platform does, and the game's watchers follow its table."""
        await super().deliver(reply)
        if reply.table is not None and reply.session_id is not None:
            self.watch.changed(reply.session_id)

    def where_of(self, place: Place) -> tuple[int, int | None] | None:
        """A game's channel (a thread is a channel of its own)."""
        return (int(place.topic), None) if place.topic else None

    def retry_after(self, exc: BaseException) -> float | None:
        return retry_after(exc)

    def is_refusal(self, exc: BaseException) -> bool:
        return isinstance(exc, discord.HTTPException)

    async def post_refused(self, sid: int, chat: int, exc: BaseException) -> None:
        if isinstance(exc, discord.Forbidden):
            await self._lost_permissions(sid, chat, exc)

    def box(self, where: int) -> Outbox:
        return self.outbox(where, f"channel {where}", self.channel_budget)

    def new_table(self, where: int, thread: int | None) -> TableMessage:
        return TableMessage(where=where)

    async def show_table(self, sid: int, table: TableMessage) -> bool:
        screen = table.screen
        assert screen is not None
        box = self.box(table.where)
        messageable = self.client.get_partial_messageable(table.where)
        anew = table.anew(screen)
        table.fresh = False
        try:
            # A table someone deleted comes back as a new message.
            if anew or not await self._edit_table(table, screen, box, messageable):
                embed, file = await embed_of(screen, "table.png")
                async with box.sending():
                    message = await messageable.send(
                        embed=embed, **present(file=file, view=view_of(screen.keyboard)))
                if table.message_id is not None:
                    table.retired.append(table.message_id)
                table.message_id = message.id
                table.picture, table.attachments = screen.picture, list(message.attachments)
        except discord.Forbidden as exc:
            if table.message_id is None:  # the game was never shown: it cannot be played
                self.tables.pop(sid, None)
                await self._first_post_refused(sid, table.where, exc)
                return False
            await self._lost_permissions(sid, table.where, exc)
        return True

    async def _edit_table(self, table: TableMessage, screen: Screen, box: Outbox,
                          messageable: discord.PartialMessageable) -> bool:
        """Edit the table in place; False when its message is gone. A text-only change keeps
        the picture shown (its attachment), and a screen without one drops it."""
        assert table.message_id is not None
        message = messageable.get_partial_message(table.message_id)
        new_picture = screen.picture is not None and screen.picture != table.picture
        embed, file = await embed_of(screen, "table.png", draw=new_picture)
        kept = table.attachments if screen.picture is not None else []
        try:
            async with box.sending():
                edited = await message.edit(embed=embed, view=view_of(screen.keyboard),
                                            attachments=[file] if file is not None else kept)
        except discord.NotFound:
            table.message_id = None
            return False
        table.picture, table.attachments = screen.picture, list(edited.attachments)
        return True

    async def send_post(self, chat: int, thread: int | None, screen: Screen) -> None:
        embed, file = await embed_of(screen, "result.png")
        async with self.box(chat).sending():
            await self.client.get_partial_messageable(chat).send(
                embed=embed, **present(file=file, view=view_of(screen.keyboard)))

    async def delete(self, where: int, message_id: int) -> None:
        await quietly(self.client.get_partial_messageable(where)
                       .get_partial_message(message_id).delete())

    async def _first_post_refused(self, sid: int, channel: int, exc: discord.Forbidden) -> None:
        """The channel refused the game's first message: the game is closed, so that the
        channel is free, and its starter is told why."""
        log.warning("discord: channel %s refused a new game: %s", channel, exc)
        await self.manager.abandon(sid)
        await self._tell_starter(sid, channel, "discord.first_post_refused")



