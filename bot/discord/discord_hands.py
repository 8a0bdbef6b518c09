"""What reaches one Discord player: their ephemeral hand, the ping when it is not live, notes.

docs/architecture.md §5 (Discord). Hands are never posted: "My tiles" answers with an ephemeral
message, which later hand updates edit in place through the interaction's token while it is valid
(15 minutes). A player is mentioned in the channel only when their hand is not live (never opened,
or its token ran out) and their turn or a new deal begins; a game keeps at most one such ping,
replaced by the next and deleted once everyone it names has opened their tiles, and a server's
admins can turn pings off (`/settings mentions off`). A private note ("the computer plays for you")
is an ephemeral follow-up while the player's last interaction in that channel lasts, else a direct
message.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.discord_components import GameButton, view_of
from bot.discord.discord_messages import (
    NEEDED,
    TEXT_LIMIT,
    TableMessage,
    embed_of,
    permission_names,
    plain,
    present,
    quietly,
    retry_after,
    shown_text,
)
from bot.present import payload
from bot.present.screens import Actor, Reply, Screen
from bot.session.adapter import Adapter, Job, Showing
from bot.session.manager import SessionManager
from bot.session.outbox import Budget, Outbox
from words.i18n import DEFAULT_LANG, tr

log = logging.getLogger(__name__)

TOKEN_LIFE = 14 * 60.0
"""An interaction token lasts 15 minutes; a minute is kept in hand for slow calls."""


@dataclass(slots=True)
class Hand(Showing):
    """A player's ephemeral hand: the interaction whose message shows it (None when there is
    none, or its token has run out)."""

    interaction: discord.Interaction[Any] | None = None
    since: float = 0.0


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


class DiscordHands(Adapter[TableMessage, Hand]):
    """The hand, ping and note machinery of the Discord adapter."""

    client: discord.Client
    """The logged-in client, which the adapter makes."""

    def __init__(self, manager: SessionManager, clock: Callable[[], float]) -> None:
        """`clock` measures how long interaction tokens last."""
        super().__init__(manager)
        self.clock = clock
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

    def _saw(self, interaction: discord.Interaction[Any], actor: Actor) -> None:
        if interaction.channel_id is not None:
            self.seen[(interaction.channel_id, actor.platform_id)] = Seen(interaction,
                                                                          self.clock())

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
            self._box_of_user(user).post(self._retire(sid, user, old))
        ping = self.pings.get(sid)
        if ping is not None and user in ping.users:
            ping.users.discard(user)
            if not ping.users:
                del self.pings[sid]
                table = self.tables.get(sid)
                channel = table.where if table is not None else interaction.channel_id
                if channel is not None:
                    self.box(channel).post(self._delete(channel, ping.message_id))

    def _retire(self, sid: int, user: str, old: discord.Interaction[Any]) -> Job:
        """An older ephemeral hand, replaced by a newer one: no buttons, and it says where the
        tiles are now, in its player's language."""
        async def job() -> None:
            chat_id = await self._chat_id(sid)
            lang = (await self.manager.language_of(user, chat_id) if chat_id is not None
                    else DEFAULT_LANG)
            await quietly(old.edit_original_response(
                content=plain(tr(lang, "hand.moved"), TEXT_LIMIT), embed=None, attachments=[],
                view=None))
        return job

    def _box_of_user(self, user: str) -> Outbox:
        """Ephemeral edits go through the interaction's webhook, not the channel: one
        unlimited box per user keeps them in order and coalesced."""
        return self.outbox(-int(user) if user.isdigit() else -1, f"user {user}",
                           Budget(cap=None, spacing=0.0))

    async def deliver_hands(self, sid: int, chat: int, thread: int | None,
                            reply: Reply) -> None:
        """Each hand is edited where its player last opened it; the players it is news for,
        and who cannot see it there, get one ping."""
        wanted: list[str] = []
        for update in reply.hands:
            hand = await self.hand_of(sid, update.user)
            hand.screen = update.screen
            # (no ping when the request itself shows the hand: "My tiles", a move on it)
            if update.fresh and update.user not in self._opening and not self._live(hand):
                wanted.append(update.user)
            self._box_of_user(update.user).update(f"hand:{sid}", self._hand_job(sid, update.user))
        if wanted and not reply.closed:
            self.box(chat).post(self._ping(sid, chat, wanted))

    def note(self, sid: int, user: str, chat: int, thread: int | None, screen: Screen) -> None:
        if user not in self._answering:
            self._box_of_user(user).post(self._note(user, chat, screen))

    async def hand_of(self, sid: int, user: str) -> Hand:
        return self.hands.setdefault((sid, user), Hand())

    def invite(self, user: str, screen: Screen) -> None:
        self._box_of_user(user).post(self._direct(user, screen))

    def _direct(self, user: str, screen: Screen) -> Job:
        """A direct message with the screen's buttons; closed direct messages are fine."""
        async def job() -> None:
            if not user.isdigit():
                return
            try:
                target = await self.client.create_dm(discord.Object(int(user)))
                await target.send(shown_text(screen, TEXT_LIMIT), **present(
                    view=view_of(screen.keyboard)))
            except discord.HTTPException as exc:
                log.info("discord: no direct message to %s: %s", user, exc)
        return job

    def game_closed(self, sid: int, chat: int) -> None:
        ping = self.pings.pop(sid, None)
        if ping is not None:
            self.box(chat).post(self._delete(chat, ping.message_id))

    def _live(self, hand: Hand) -> bool:
        """Whether the player's ephemeral hand can still be edited (and so needs no ping)."""
        return hand.interaction is not None and self.clock() - hand.since < TOKEN_LIFE

    async def _chat_id(self, sid: int) -> int | None:
        session = await self.manager.session(sid)
        return session.chat_id if session is not None else None

    def _ping(self, sid: int, channel: int, users: list[str]) -> Job:
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
            view.add_item(GameButton(payload.encode(sid, 0, payload.HAND), tr(lang, "btn.my_tiles"),
                                     discord.ButtonStyle.primary))
            messageable = self.client.get_partial_messageable(channel)
            box = self.box(channel)
            try:
                async with box.sending():
                    message = await messageable.send(
                        "\n".join(lines)[:TEXT_LIMIT], view=view,
                        allowed_mentions=discord.AllowedMentions(
                            users=[discord.Object(int(u)) for u in due if u.isdigit()]))
            except discord.Forbidden as exc:
                await self._lost_permissions(sid, channel, exc)
                return
            # Whoever opened their tiles while the ping was on its way found none to take back
            # (`_follow`): it waits only for the others, and for nobody is deleted at once.
            old = self.pings.pop(sid, None)
            waiting = {u for u in due if self._needs_ping(sid, u)}
            if waiting:
                self.pings[sid] = Ping(message.id, waiting)
            stale = [] if old is None else [old.message_id]
            if not waiting:
                stale.append(message.id)
            for message_id in stale:
                async with box.sending():
                    await quietly(messageable.get_partial_message(message_id).delete())
        return job

    def _needs_ping(self, sid: int, user: str) -> bool:
        hand = self.hands.get((sid, user))
        return hand is not None and not hand.closing and not self._live(hand)

    def _delete(self, channel: int, message_id: int) -> Job:
        async def job() -> None:
            async with self.box(channel).sending():
                await self.delete(channel, message_id)
        return job

    def _hand_job(self, sid: int, user: str) -> Job:
        async def job() -> None:
            hand = self.hands.get((sid, user))
            if hand is None:
                return
            await hand.table_first()
            if hand.screen is None:
                return
            screen = hand.screen
            interaction = hand.interaction
            if interaction is not None and self._live(hand):
                embed, file = await embed_of(screen, "hand.png")
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
                        self.box(table.where).post(self._ping(sid, table.where, [user]))
            else:
                hand.interaction = None
            if hand.closing and hand.screen is screen:
                self.hands.pop((sid, user), None)
        return job

    def _note(self, user: str, channel: int, screen: Screen) -> Job:
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
        creator = next((s for s in session.seats if s.get("user_id") == session.creator_id),
                       session.seats[0])
        user = str(creator.get("platform_id", ""))
        lang = await self.manager.language_of(user, session.chat_id)
        text = tr(lang, key, channel=channel, missing=permission_names(lang, list(NEEDED)))
        self._box_of_user(user).post(self._note(user, channel, Screen(text)))


def _has_moves(hand: Hand) -> bool:
    """The hand's newest screen offers moves: its player's turn is on."""
    return hand.screen is not None and bool(hand.screen.keyboard or hand.screen.choice)
