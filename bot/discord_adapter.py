"""The Discord adapter: interactions in, neutral requests to the session layer, screens out.

DESIGN.md §5 (Discord) and §1 invariant 8: no game logic here. A slash command becomes a call of
`SessionManager` or `Commands`, a component press `SessionManager.press`; the screens that come
back become Discord calls. The chip scope is the server: a `Place` is (server, channel), so each
channel holds at most one game and every channel of a server shares its chips and leaderboard.

The channel sees one table message per game (an embed with the board as an attachment), edited in
place through the channel's `Outbox`, whose pace is Discord's own: discord.py keeps each
channel's rate limits, and the outbox only coalesces (the newest table wins) and retries what a
passing failure held back. The table names the player to move, and its countdown is a Discord
timestamp that counts by itself, so no edit is made just to count down.

Hands are never posted: "My tiles" answers with an ephemeral message, which later hand updates
edit in place through the interaction's token while it is valid (15 minutes). A player is
mentioned in the channel only when their hand is not live (never opened, or its token ran out)
and their turn or a new deal begins; a game keeps at most one such ping, replaced by the next and
deleted once everyone it names has opened their tiles, and a server's admins can turn pings off
(`/settings mentions off`). Every interaction is deferred before anything slow, every press is
answered (an ephemeral sentence when something is refused), and everything users typed (names
above all) is shown with its markdown and mentions escaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.utils import escape_markdown, escape_mentions

from bot import payload
from bot.commands import Commands
from bot.discord_commands import register
from bot.discord_components import GameButton, GameSelect, view_of
from bot.i18n import lang_of, tr
from bot.manager import SessionManager, Timing
from bot.outbox import Budget, Outbox, loop_time
from bot.screens import Actor, Place, Post, Reply, Screen
from bot.seating import seat_index
from storage import Storage

log = logging.getLogger(__name__)

PLATFORM = "discord"
TEXT_LIMIT = 2000
EMBED_LIMIT = 4096
TOKEN_LIFE = 14 * 60.0
"""An interaction token lasts 15 minutes; a minute is kept in hand for slow calls."""
COLOUR = discord.Colour(0x2E7D5B)
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")
"""What the bot needs in a game's channel: the table is an embed with an image."""
NEEDED_IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files")
CHANNEL_BUDGET = Budget(cap=None, spacing=1.0)
"""discord.py keeps Discord's per-channel limits; the outbox spaces in-place table edits a
second apart so that a burst of moves is shown as one edit."""


@dataclass(slots=True)
class Table:
    """A game's table message in its channel, and what is waiting to replace it."""

    channel: int
    message_id: int | None = None
    screen: Screen | None = None
    shown: Any = None
    """The picture now shown, so a text-only change does not upload it again."""
    attachments: list[discord.Attachment] = field(default_factory=list)
    """The message's files, kept by a text-only edit (the embed's picture is one of them)."""
    fresh: bool = False
    closing: bool = False


@dataclass(slots=True)
class Hand:
    """A player's ephemeral hand: the newest screen, and the interaction whose message shows it
    (None when there is none, or its token has run out)."""

    screen: Screen | None = None
    interaction: discord.Interaction[Any] | None = None
    since: float = 0.0
    closing: bool = False


@dataclass(slots=True)
class Ping:
    """A game's one ping message, and the players it names who have not opened their tiles."""

    message_id: int
    users: set[str]


@dataclass(slots=True)
class Seen:
    """A user's latest interaction in one channel, for ephemeral notes while its token lasts."""

    interaction: discord.Interaction[Any]
    since: float


class GupaiClient(discord.Client):
    """The client carries the adapter's press handler, which the `DynamicItem` templates call."""

    def __init__(self, adapter: DiscordBot) -> None:
        # The bot never joins a voice channel: no warning about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # No message mentions anyone unless it names whom (a ping names its players).
        super().__init__(intents=discord.Intents(guilds=True),
                         allowed_mentions=discord.AllowedMentions.none())
        self.adapter = adapter
        self.tree = app_commands.CommandTree(self)

    async def game_press(self, interaction: discord.Interaction[Any], data: str) -> None:
        await self.adapter.on_press(interaction, data)

    async def setup_hook(self) -> None:
        await self.adapter.setup()


class DiscordBot:
    def __init__(self, token: str, storage: Storage, *, timing: Timing | None = None,
                 channel_budget: Budget | None = None, theme: str = "dark",
                 sync_commands: bool = True, clock: Callable[[], float] = loop_time,
                 game_clock: Callable[[], float] = time.time) -> None:
        """`clock` measures how long interaction tokens last; `game_clock` is the session
        layer's (deadlines, shown as Discord timestamps, are seconds since the epoch)."""
        self.token = token
        self.manager = SessionManager(storage, PLATFORM, timing, clock=game_clock, theme=theme,
                                      live_countdown=True)
        self.manager.deliver = self.deliver
        self.commands = Commands(self.manager)
        self.channel_budget = channel_budget or CHANNEL_BUDGET
        self.sync_commands = sync_commands
        self.clock = clock
        self.client = GupaiClient(self)
        self.tree = self.client.tree
        self.outboxes: dict[int, Outbox] = {}
        self.tables: dict[int, Table] = {}
        self.hands: dict[tuple[int, str], Hand] = {}
        self.seen: dict[tuple[int, str], Seen] = {}
        """(channel, user): their latest interaction there, for notes about that channel."""
        self.pings: dict[int, Ping] = {}
        self._warned: set[int] = set()
        self._answering: dict[str, int] = {}
        """Users whose own interaction is being handled: its answer covers any private note
        the same request makes ("you joined" after Join)."""
        self._opening: dict[str, int] = {}
        """Users whose interaction shows their own hand ("My tiles", a press on the hand):
        their turn needs no ping."""
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
        await self.manager.close()
        for box in self.outboxes.values():
            await box.drain(timeout=grace)
        for box in self.outboxes.values():
            await box.close()
        if not self.client.is_closed():
            await self.client.close()

    async def drain(self) -> None:
        """Wait until every queued message has gone out (tests and shutdown)."""
        await self.manager.idle()
        for box in list(self.outboxes.values()):
            await box.drain()

    # ----- interactions in ----------------------------------------------------------------------

    def _saw(self, interaction: discord.Interaction[Any], actor: Actor) -> None:
        if interaction.channel_id is not None:
            self.seen[(interaction.channel_id, actor.platform_id)] = Seen(interaction,
                                                                          self.clock())

    async def on_press(self, interaction: discord.Interaction[Any], data: str) -> None:
        """A button or a select: deferred first, then the session layer; a refusal is told
        only to the presser."""
        actor = actor_of(interaction)
        self._saw(interaction, actor)
        try:
            press = payload.decode(data)
        except payload.BadPayload:
            await _ephemeral(interaction, tr(lang_of(actor.language), "err.forged"))
            return
        if press.code == payload.TOP:
            await self._turn_page(interaction, actor, press.version)
            return
        own_hand = press.code == "!hand" or _is_ephemeral(interaction)
        try:
            if press.code == "!hand":
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException:
            return  # the interaction expired or was answered: nothing can be shown for it
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
                         anew=press.code == "!hand")
        if press.code == "!hand":
            if not accepted:  # the hand itself is the answer, unless there is none
                await _quietly(interaction.edit_original_response(
                    content=plain(reply.toast, TEXT_LIMIT)))
            return
        if reply.toast:
            await _quietly(interaction.followup.send(plain(reply.toast, TEXT_LIMIT),
                                                     ephemeral=True))

    async def _turn_page(self, interaction: discord.Interaction[Any], actor: Actor,
                         page: int) -> None:
        """A leaderboard page button: the message it is on shows that page."""
        try:
            await interaction.response.defer()
        except discord.HTTPException:
            return
        place = place_of(interaction)
        if place is None:
            return
        reply = await self.commands.run("top", place, actor, [str(page)],
                                        self._admin_check(interaction))
        if reply.answer is not None:
            await _quietly(self._answer(interaction, reply.answer))

    def _follow(self, sid: int, user: str, interaction: discord.Interaction[Any],
                anew: bool) -> None:
        """Later updates of the user's hand edit this interaction's message (the hand it was
        pressed on, or the new one for "My tiles"). Only after the press was accepted: a
        refused one may come from a message that is not the presser's. The newest screen is
        shown there again unless it is the message already followed; an older message still
        in reach loses its buttons, and the hand no longer needs its ping."""
        hand = self.hands.setdefault((sid, user), Hand())
        old, old_since = hand.interaction, hand.since
        same = (not anew and old is not None and old.message is not None
                and interaction.message is not None and old.message.id == interaction.message.id)
        hand.interaction, hand.since = interaction, self.clock()
        if not same and hand.screen is not None:
            self._box_of_user(user).update(f"hand:{sid}", self._hand_job(sid, user))
        if anew and old is not None and old is not interaction \
                and self.clock() - old_since < TOKEN_LIFE:
            self._box_of_user(user).post(self._retire(sid, old))
        ping = self.pings.get(sid)
        if ping is not None and user in ping.users:
            ping.users.discard(user)
            if not ping.users:
                del self.pings[sid]
                table = self.tables.get(sid)
                channel = table.channel if table is not None else interaction.channel_id
                if channel is not None:
                    self._box(channel).post(self._delete(channel, ping.message_id))

    def _retire(self, sid: int, old: discord.Interaction[Any]) -> Callable[[], Awaitable[None]]:
        """An older ephemeral hand, replaced by a newer one: no buttons, and it says where the
        tiles are now."""
        async def job() -> None:
            chat_id = await self._chat_id(sid)
            lang = await self.manager.language(chat_id) if chat_id is not None else "uk"
            await _quietly(old.edit_original_response(
                content=plain(tr(lang, "hand.moved"), TEXT_LIMIT), embed=None, attachments=[],
                view=None))
        return job

    async def command(self, interaction: discord.Interaction[Any], name: str,
                      words: list[str], *, private: bool = False) -> None:
        """A slash command: deferred (ephemeral for the game commands and personal ones), run,
        and answered in the same place."""
        actor = actor_of(interaction)
        self._saw(interaction, actor)
        lang = lang_of(actor.language)
        try:
            await interaction.response.defer(ephemeral=private, thinking=True)
        except discord.HTTPException:
            return
        place = place_of(interaction)
        try:
            with self._counting(self._answering, actor):
                reply = await self._run_command(interaction, name, place, actor, words)
        except Exception:
            log.exception("/%s failed", name)
            reply = Reply(answer=Screen(tr(lang, "err.storage")))
        if reply is None:
            return  # the player's hand is the answer, on its way
        screen = reply.answer or Screen(reply.toast or tr(lang, "discord.done"))
        await _quietly(self._answer(interaction, screen))

    @staticmethod
    @contextlib.contextmanager
    def _counting(users: dict[str, int], actor: Actor) -> Iterator[None]:
        """`actor` is among `users` while the body runs (nested requests count)."""
        user = actor.platform_id
        users[user] = users.get(user, 0) + 1
        try:
            yield
        finally:
            users[user] -= 1
            if not users[user]:
                del users[user]

    async def _run_command(self, interaction: discord.Interaction[Any], name: str,
                           place: Place | None, actor: Actor, words: list[str]) -> Reply | None:
        """None: answered with the player's hand (`/join` by a player already seated)."""
        lang = lang_of(actor.language)
        if place is None and name in GROUP_ONLY:
            return Reply(answer=Screen(tr(lang, "discord.server_only")))
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
            return await self._new_game(interaction, place, actor, words)
        if place is not None and name in ("join", "leave", "stop"):
            return await self._game_command(interaction, name, place, actor)
        here = place or Place(f"dm{actor.platform_id}")
        return await self.commands.run(name, here, actor, words, self._admin_check(interaction))

    async def _new_game(self, interaction: discord.Interaction[Any], place: Place,
                        actor: Actor, words: list[str]) -> Reply:
        missing = missing_permissions(interaction.app_permissions,
                                      isinstance(interaction.channel, discord.Thread))
        if missing:
            _, lang = await self.manager.chat_of(place, actor)
            return Reply(answer=Screen(tr(lang, "discord.no_permissions",
                                          missing=self._permission_names(lang, missing))))
        reply = await self.manager.new_game(place, actor, words)
        if reply.answer is None and not reply.toast:
            _, lang = await self.manager.chat_of(place, actor)
            reply.answer = Screen(tr(lang, "discord.lobby_open"))
        return reply

    async def _game_command(self, interaction: discord.Interaction[Any], name: str,
                            place: Place, actor: Actor) -> Reply:
        if name == "join":
            return await self.manager.join(place, actor)
        if name == "leave":
            return await self.manager.leave(place, actor)
        return await self.manager.stop(place, actor, self._admin_check(interaction))

    def _admin_check(self, interaction: discord.Interaction[Any]) -> Callable[[], Awaitable[bool]]:
        async def is_admin() -> bool:
            if interaction.guild_id is None:
                return True
            rights = interaction.permissions
            return rights.administrator or rights.manage_guild or rights.manage_channels
        return is_admin

    @staticmethod
    def _permission_names(lang: str, missing: list[str]) -> str:
        return ", ".join(tr(lang, f"discord.perm.{name}") for name in missing)

    async def _answer(self, interaction: discord.Interaction[Any], screen: Screen) -> None:
        """Fill in a deferred command's answer (a picture goes as an attachment of its embed)."""
        embed, file = await self._embed(screen, "answer.png")
        await interaction.edit_original_response(
            content=None, embed=embed, attachments=[file] if file is not None else [],
            view=view_of(screen.keyboard))

    # ----- screens out --------------------------------------------------------------------------

    async def deliver(self, reply: Reply) -> None:
        """Queue a reply's effects; called by the session layer under the session's lock, so it
        only queues (the outboxes send in order, coalescing table edits)."""
        sid, place = reply.session_id, reply.place
        if sid is None or place is None or not place.topic:
            return
        channel = int(place.topic)
        box = self._box(channel)
        if reply.table is not None:
            table = await self._table(sid, channel)
            table.screen = reply.table
            table.fresh = table.fresh or reply.table_fresh
            table.closing = reply.closed
            anew = table.fresh or table.message_id is None
            box.update(f"table:{sid}", lambda: self._flush_table(sid), in_order=anew)
        for post in reply.posts:
            box.post(self._post(sid, channel, post))
        wanted: list[str] = []
        for update in reply.hands:
            hand = self.hands.setdefault((sid, update.user), Hand())
            hand.screen = update.screen
            # (no ping when the request itself shows the hand: "My tiles", a move on it)
            if update.fresh and update.user not in self._opening and not self._live(hand):
                wanted.append(update.user)
            self._box_of_user(update.user).update(f"hand:{sid}", self._hand_job(sid, update.user))
        if wanted and not reply.closed:
            box.post(self._ping(sid, channel, wanted))
        for user, screen in reply.private:
            if user not in self._answering:
                self._box_of_user(user).post(self._note(user, channel, screen))
        if reply.closed:
            for key, hand in self.hands.items():
                if key[0] == sid:
                    hand.closing = True
            ping = self.pings.pop(sid, None)
            if ping is not None:
                box.post(self._delete(channel, ping.message_id))

    def _live(self, hand: Hand) -> bool:
        """Whether the player's ephemeral hand can still be edited (and so needs no ping)."""
        return hand.interaction is not None and self.clock() - hand.since < TOKEN_LIFE

    async def _chat_id(self, sid: int) -> int | None:
        session = await self.manager.session(sid)
        return session.chat_id if session is not None else None

    def _box(self, channel: int) -> Outbox:
        if channel not in self.outboxes:
            self.outboxes[channel] = Outbox(f"channel {channel}", self.channel_budget,
                                            retry_after=retry_after)
        return self.outboxes[channel]

    def _box_of_user(self, user: str) -> Outbox:
        """Ephemeral edits go through the interaction's webhook, not the channel: one
        unlimited box per user keeps them in order and coalesced."""
        key = -int(user) if user.isdigit() else -1
        if key not in self.outboxes:
            self.outboxes[key] = Outbox(f"user {user}", Budget(cap=None, spacing=0.0),
                                        retry_after=retry_after)
        return self.outboxes[key]

    async def _table(self, sid: int, channel: int) -> Table:
        if sid not in self.tables:
            table = Table(channel)
            session = await self.manager.stored(sid)
            stored = (session.messages.get("table") if session else None) or {}
            table.message_id = stored.get("id")
            self.tables[sid] = table
        return self.tables[sid]

    async def _flush_table(self, sid: int) -> None:
        table = self.tables.get(sid)
        if table is None or table.screen is None:
            return
        screen = table.screen
        box = self._box(table.channel)
        messageable = self.client.get_partial_messageable(table.channel)
        anew = table.fresh or table.message_id is None
        table.fresh = False
        try:
            # A table someone deleted comes back as a new message.
            if anew or not await self._edit_table(table, screen, box, messageable):
                embed, file = await self._embed(screen, "table.png")
                async with box.sending():
                    message = await messageable.send(
                        embed=embed, **_with(file=file, view=view_of(screen.keyboard)))
                old, table.message_id = table.message_id, message.id
                table.shown, table.attachments = screen.picture, list(message.attachments)
                await self.manager.remember(sid, "table", {"id": message.id})
                if old is not None:
                    async with box.sending():
                        await _quietly(messageable.get_partial_message(old).delete())
        except discord.Forbidden as exc:
            if table.message_id is None:  # the game was never shown: it cannot be played
                self.tables.pop(sid, None)
                await self._first_post_refused(sid, table.channel, exc)
                return
            await self._lost_permissions(sid, table.channel, exc)
        if table.closing and table.screen is screen:
            self.tables.pop(sid, None)

    async def _edit_table(self, table: Table, screen: Screen, box: Outbox,
                          messageable: discord.PartialMessageable) -> bool:
        """Edit the table in place; False when its message is gone. A text-only change keeps
        the picture shown (its attachment), and a screen without one drops it."""
        assert table.message_id is not None
        message = messageable.get_partial_message(table.message_id)
        new_picture = screen.picture is not None and screen.picture != table.shown
        embed, file = await self._embed(screen, "table.png", draw=new_picture)
        kept = table.attachments if screen.picture is not None else []
        try:
            async with box.sending():
                edited = await message.edit(embed=embed, view=view_of(screen.keyboard),
                                            attachments=[file] if file is not None else kept)
        except discord.NotFound:
            table.message_id = None
            return False
        table.shown, table.attachments = screen.picture, list(edited.attachments)
        return True

    async def _embed(self, screen: Screen, name: str, draw: bool = True
                     ) -> tuple[discord.Embed, discord.File | None]:
        """The screen as an embed; its picture drawn in a worker thread, attached as `name`."""
        embed = discord.Embed(description=shown_text(screen, EMBED_LIMIT), colour=COLOUR)
        if screen.picture is None:
            return embed, None
        embed.set_image(url=f"attachment://{name}")
        if not draw:
            return embed, None
        png = await asyncio.to_thread(screen.picture.render)
        return embed, discord.File(io.BytesIO(png), filename=name)

    def _post(self, sid: int, channel: int, post: Post) -> Callable[[], Awaitable[None]]:
        """A new message in the channel; a kept one is reported delivered once the channel has
        it, or once the channel refuses it for good."""
        async def job() -> None:
            embed, file = await self._embed(post.screen, "result.png")
            try:
                async with self._box(channel).sending():
                    await self.client.get_partial_messageable(channel).send(
                        embed=embed, **_with(file=file, view=view_of(post.screen.keyboard)))
            except discord.HTTPException as exc:
                if retry_after(exc) is not None:
                    raise
                log.warning("discord: channel %s refused a post: %s", channel, exc)
                if isinstance(exc, discord.Forbidden):
                    await self._lost_permissions(sid, channel, exc)
            if post.key is not None:
                await self.manager.delivered(post.key)
        return job

    def _ping(self, sid: int, channel: int, users: list[str]) -> Callable[[], Awaitable[None]]:
        """One short message that mentions the players whose turn began (or who were dealt a
        new hand) and have no live hand when it is sent, with a "My tiles" button; it replaces
        the game's previous ping."""
        async def job() -> None:
            chat_id = await self._chat_id(sid)
            if chat_id is None or not (await self.manager.chat_settings(chat_id)).mentions:
                return
            due = [u for u in dict.fromkeys(users) if self._needs_ping(sid, u)]
            if not due:
                return
            lang = await self.manager.language(chat_id)
            turn = [u for u in due if _has_moves(self.hands[(sid, u)])]
            dealt = [u for u in due if u not in turn]
            lines = [tr(lang, "discord.ping_turn", mention=f"<@{u}>") for u in turn]
            if dealt:
                lines.insert(0, tr(lang, "discord.ping_deal",
                                   mentions=" ".join(f"<@{u}>" for u in dealt)))
            view = discord.ui.View(timeout=None)
            view.add_item(GameButton(payload.encode(sid, 0, "!hand"), tr(lang, "btn.my_tiles"),
                                     discord.ButtonStyle.primary))
            messageable = self.client.get_partial_messageable(channel)
            box = self._box(channel)
            try:
                async with box.sending():
                    message = await messageable.send(
                        "\n".join(lines)[:TEXT_LIMIT], view=view,
                        allowed_mentions=discord.AllowedMentions(
                            users=[discord.Object(int(u)) for u in due if u.isdigit()]))
            except discord.Forbidden as exc:
                await self._lost_permissions(sid, channel, exc)
                return
            old = self.pings.get(sid)
            self.pings[sid] = Ping(message.id, set(due))
            if old is not None:
                async with box.sending():
                    await _quietly(messageable.get_partial_message(old.message_id).delete())
        return job

    def _needs_ping(self, sid: int, user: str) -> bool:
        hand = self.hands.get((sid, user))
        return hand is not None and not hand.closing and not self._live(hand)

    def _delete(self, channel: int, message_id: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            async with self._box(channel).sending():
                await _quietly(self.client.get_partial_messageable(channel)
                               .get_partial_message(message_id).delete())
        return job

    def _hand_job(self, sid: int, user: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            hand = self.hands.get((sid, user))
            if hand is None or hand.screen is None:
                return
            screen = hand.screen
            interaction = hand.interaction
            if interaction is not None and self._live(hand):
                embed, file = await self._embed(screen, "hand.png")
                try:
                    await interaction.edit_original_response(
                        content=None, embed=embed,
                        attachments=[file] if file is not None else [],
                        view=view_of(screen.keyboard, screen.choice))
                except discord.HTTPException as exc:
                    if retry_after(exc) is not None:
                        raise
                    # The token ran out or the message was dismissed: a ping brings a new
                    # one when it is the player's turn.
                    log.info("discord: a hand could not be edited: %s", exc)
                    hand.interaction = None
                    if _has_moves(hand) and not hand.closing and (table := self.tables.get(sid)):
                        self._box(table.channel).post(self._ping(sid, table.channel, [user]))
            else:
                hand.interaction = None
            if hand.closing and hand.screen is screen:
                self.hands.pop((sid, user), None)
        return job

    def _note(self, user: str, channel: int, screen: Screen) -> Callable[[], Awaitable[None]]:
        """A private note about the game in `channel` ("the computer plays for you"):
        ephemeral while the user's last interaction there lasts, else a direct message;
        closed direct messages (50007) are fine."""
        async def job() -> None:
            text = shown_text(screen, TEXT_LIMIT)
            seen = self.seen.get((channel, user))
            if seen is not None and self.clock() - seen.since < TOKEN_LIFE:
                with contextlib.suppress(discord.HTTPException):
                    await seen.interaction.followup.send(text, ephemeral=True)
                    return
            if not user.isdigit():
                return
            try:
                target = await self.client.create_dm(discord.Object(int(user)))
                await target.send(text)
            except discord.Forbidden:
                log.info("discord: user %s does not take direct messages", user)
            except discord.HTTPException as exc:
                log.warning("discord: %s", exc)
        return job

    async def _first_post_refused(self, sid: int, channel: int, exc: discord.Forbidden) -> None:
        """The channel refused the game's first message: the game is closed, so that the
        channel is free, and its starter is told why."""
        log.warning("discord: channel %s refused a new game: %s", channel, exc)
        await self.manager.abandon(sid)
        await self._tell_starter(sid, channel, "discord.first_post_refused")

    async def _lost_permissions(self, sid: int, channel: int, exc: discord.Forbidden) -> None:
        """The channel refuses the table or a ping (permissions taken away mid-game): tell the
        player who started the game, once, privately."""
        log.warning("discord: channel %s refuses messages: %s", channel, exc)
        if sid in self._warned:
            return
        self._warned.add(sid)
        await self._tell_starter(sid, channel, "discord.lost_permissions")

    async def _tell_starter(self, sid: int, channel: int, key: str) -> None:
        session = await self.manager.stored(sid)
        if session is None or not session.seats:
            return
        lang = await self.manager.language(session.chat_id)
        creator = next((s for s in session.seats if s.get("user_id") == session.creator_id),
                       session.seats[0])
        text = tr(lang, key, channel=channel, missing=self._permission_names(lang, list(NEEDED)))
        user = str(creator.get("platform_id", ""))
        self._box_of_user(user).post(self._note(user, channel, Screen(text)))


def _has_moves(hand: Hand) -> bool:
    """The hand's newest screen offers moves: its player's turn is on."""
    return hand.screen is not None and bool(hand.screen.keyboard or hand.screen.choice)


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and options in Ukrainian from the catalogue; English is the
    text the commands are declared with."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if locale is not discord.Locale.ukrainian or not key:
            return None
        return tr("uk", key)


GROUP_ONLY = ("newgame", "join", "leave", "stop", "chips", "top", "stats")


def missing_permissions(granted: discord.Permissions, in_thread: bool = False) -> list[str]:
    needed = NEEDED_IN_THREAD if in_thread else NEEDED
    return [name for name in needed if not getattr(granted, name)]


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


def _is_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _with(**values: Any) -> dict[str, Any]:
    """Keyword arguments without the None ones (discord.py treats a passed None as a value)."""
    return {k: v for k, v in values.items() if v is not None}


async def _ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        await interaction.response.send_message(plain(text, TEXT_LIMIT), ephemeral=True)


async def _quietly(work: Awaitable[Any]) -> None:
    """A message that could not be sent (deleted, channel gone) is logged, never raised."""
    try:
        await work
    except discord.HTTPException as exc:
        log.warning("discord: %s", exc)
