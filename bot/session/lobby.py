"""A table's life outside the moves: the lobby, its seats, the start, a stop, playing again.

docs/architecture.md §0 and §4. `/newgame` opens a lobby with its creator seated, and tells the
people who asked to hear of the chat's new lobbies (`/notify`); people join and leave, computers are
added and removed, and the creator starts the first deal. When the creator leaves, the role passes
to the next person at the table. Sitting down needs chips: at least one stake's worth, after the
day's refill (`bot.session.chips`); the largest stake is the chat's to set. The creator or a chat
admin may stop a game at any time: an unfinished deal settles nothing, and the table and every hand
say so and lose their buttons. A finished match offers to play again: a new lobby with the same
players, options and stake.

A computer is added at the level the press names (`easy`, `normal`, `strong`), or at the chat's
level (`/settings level`) when it names none, and keeps it for the whole game and the games
played again. A game offers only the levels that play better than the one below them
(`Rules.levels`): the lobby has no button for another, a press that names one is refused, and
the chat's level is taken down to the strongest level the game offers.
"""

from __future__ import annotations

import secrets
from typing import Any

import games
from bot.present import presenter
from bot.present.screens import Actor, Button, Place, Reply, Screen
from bot.session.chips import buy_in, practice
from bot.session.requests import (
    IsAdmin,
    Refusal,
    Requests,
    bump,
    is_open,
    refused,
    seat_of,
    storage_answer,
)
from bot.session.seating import (
    Game,
    Seat,
    computer_label,
    people,
    seat_index,
    seats_of,
    successor,
    with_seats,
)
from bot.session.turns import Turns, dealing, ended
from games.engine import InvalidOptions
from games.players import LEVELS, offered
from storage import ChatSettings, Session, SessionExists, StorageError
from storage.accounts import DEFAULT_LEVEL
from words.i18n import lang_of, tr

MAX_STAKE = 1000


def chat_level(settings: ChatSettings) -> str:
    """The chat's level for computers added without naming one (the usual level when the
    stored one is not a level this release knows)."""
    return settings.level if settings.level in LEVELS else DEFAULT_LEVEL


class Lobby:
    def __init__(self, requests: Requests, turns: Turns) -> None:
        self.r = requests
        self.turns = turns

    # ----- a new table --------------------------------------------------------------------------

    async def new_game(self, place: Place, actor: Actor, words: list[str], *,
                       alone: bool = False) -> Reply:
        """`/newgame GAME [PRESET] [STAKE] [option=value ...]`: a lobby with its creator seated.
        `alone`: the answer is seen by the actor alone, so it is in their language."""
        try:
            chat_id, lang = await self.r.chat_of(place, actor)
            if alone:
                lang = await self.r.person_language(actor, lang)
        except StorageError as exc:
            return storage_answer(exc, lang_of(actor.language))
        try:
            rules, preset, stake, values = await self.parse(chat_id, words)
        except Refusal as no:
            return no.reply(lang)
        except InvalidOptions as exc:
            return Reply(answer=Screen(tr(lang, "err.options", detail=str(exc))))
        try:
            user_id = await self.r.user_of(actor)
            await self.turns.chips.ready(chat_id, user_id, actor.name, stake)
            game = Game(rules, rules.options(preset, **values), preset, values,
                        secrets.token_hex(16))
            await self.open(place, chat_id, game, [Seat(user_id, actor.name,
                                                         actor.platform_id)], stake, user_id,
                            actor)
        except Refusal as no:
            return no.reply(lang)
        except SessionExists:
            return Reply(answer=Screen(tr(lang, "err.game_exists")))
        except StorageError as exc:
            return storage_answer(exc, lang)
        return Reply()

    async def parse(self, chat_id: int, words: list[str]
                    ) -> tuple[Any, str | None, int, dict[str, Any]]:
        """The game, preset, stake and options a `/newgame` names (the chat's defaults first)."""
        if not words:
            raise Refusal("err.newgame_usage", games=", ".join(games.GAMES))
        try:
            rules = games.get(words[0])
        except InvalidOptions:
            raise Refusal("err.unknown_game", name=words[0],
                          games=", ".join(games.GAMES)) from None
        settings = await self.r.chat_settings(chat_id)
        defaults = settings.defaults.get(rules.id, {})
        preset: str | None = defaults.get("preset")
        stake = int(defaults.get("stake", 1))
        pairs: dict[str, str] = {}
        for word in words[1:]:
            if "=" in word:
                key, _, value = word.partition("=")
                pairs[key.strip()] = value.strip()
            elif word.isascii() and word.isdigit() and word not in rules.presets:
                stake = int(word)
            elif word.lstrip("x×").isdigit() and word[0] in "x×":
                stake = int(word[1:])
            else:
                preset = word
        most = min(settings.max_stake, MAX_STAKE)
        if not 1 <= stake <= most:
            raise Refusal("err.stake", most=most)
        options = rules.parse_options(preset, pairs)
        values = {k: getattr(options, k) for k in pairs}
        return rules, preset, stake, values

    async def open(self, place: Place, chat_id: int, game: Game, seats: list[Seat],
                   stake: int, creator_id: int, actor: Actor) -> Session:
        """A new lobby in `place`, shown as a new message; the actor is told privately, in
        their language."""
        settings = await self.r.chat_settings(chat_id)
        lang = await self.r.person_language(actor, await self.r.language(chat_id))
        session = await self.r.storage.sessions.create(
            chat_id, game.rules.id, game.stored(), [s.to_json() for s in seats], stake=stake,
            creator_id=creator_id, topic=place.topic,
            deadline=self.r.clock() + settings.lobby_timeout, owner=self.r.worker.id)
        async with self.r.lock(session.id):
            session = session.but(messages={"place": {"chat": place.chat, "topic": place.topic,
                                                      "title": place.title}})
            session, _ = await self.r.save(session, session.version)
            reply = self.r.reply(session)
            reply.table = await self.screen(session)
            reply.table_fresh = True
            reply.private.append((actor.platform_id, Screen(tr(lang, "lobby.joined_you",
                                                               game=presenter.title(game, lang)))))
            reply.invites = await self.invites(session, game, seats, place)
            await self.r.show(reply)
        return session

    async def invites(self, session: Session, game: Game, seats: list[Seat], place: Place
                      ) -> list[tuple[str, Screen]]:
        """A note to each person who asked to hear of the chat's new lobbies (`/notify`) and
        is not seated already, in their language, with a button to join: sent once, when the
        lobby opens."""
        seated = {s.platform_id for s in seats}
        notes = []
        for user in await self.r.storage.accounts.listeners(session.chat_id):
            if user in seated:
                continue
            lang = await self.r.language_of(user, session.chat_id)
            join = Button(tr(lang, "btn.join"), link=("join", session.id), tone="go")
            notes.append((user, Screen(tr(lang, "notify.opened", game=presenter.title(game, lang),
                                          chat=place.title or "—", stake=session.stake),
                                       keyboard=((join,),))))
        return notes

    async def play_again(self, session_id: int, actor: Actor) -> Reply:
        """"Play again" on a match's end: a lobby in the same place with the same players
        (people and computers), options and stake, opened by the player who pressed."""
        lang = lang_of(actor.language)
        try:
            lang = await self.r.person_language(actor, lang)
            old = await self.r.storage.sessions.get(session_id)
            if old is None or not await self.r.ours(old):
                return refused(lang, "err.forged")
            lang = await self.r.person_language(actor, await self.r.language(old.chat_id))
            if is_open(old):
                return refused(lang, "err.game_exists")
            index = seat_index(old, actor.platform_id)
            if index is None:
                return refused(lang, "again.not_player")
            place = old.messages.get("place", {})
            previous = Game.of(old)
            game = Game(previous.rules, previous.options, previous.preset, previous.values,
                        secrets.token_hex(16))
            mine = seats_of(old)[index]
            await self.turns.chips.ready(old.chat_id, mine.user_id, actor.name, old.stake)
            seats = [Seat(s.user_id, s.name, s.platform_id, computer=s.computer,
                          level=offered(game.rules, s.plays_at) if s.computer else s.level)
                     for s in seats_of(old) if not s.gone]
            await self.open(Place(str(place.get("chat", "")), str(place.get("topic", "")),
                                  str(place.get("title", ""))),
                            old.chat_id, game, seats, old.stake, mine.user_id, actor)
        except Refusal as no:
            return no.reply(lang)
        except SessionExists:
            return refused(lang, "err.game_exists")
        except StorageError as exc:
            return storage_answer(exc, lang)
        return Reply(toast=tr(lang, "again.opened"))

    async def screen(self, session: Session, lang: str | None = None) -> Screen:
        """The lobby, in the chat's language (`lang`: in one reader's)."""
        lang = lang or await self.r.language(session.chat_id)
        settings = await self.r.chat_settings(session.chat_id)
        game, seats = Game.of(session), seats_of(session)
        players = max(len(seats), game.rules.min_players)
        stakes = 0 if practice(seats) else buy_in(game, players, session.stake, settings)
        return presenter.lobby(session, game, seats, lang, self.r.clock_of(session),
                               offered(game.rules, chat_level(settings)), stakes,
                               app=self.r.web_table)

    # ----- seats --------------------------------------------------------------------------------

    async def changed(self, session: Session, seats: list[Seat], toast: str,
                      private: tuple[str, Screen] | None = None, name: str = "") -> Reply:
        """Save the lobby's new seats and show the lobby again; the answer says `toast` (of
        `name`)."""
        lang = self.r.answering(await self.r.language(session.chat_id))
        saved, _ = await self.r.save(bump(with_seats(session, seats)), session.version)
        reply = self.r.reply(saved)
        reply.table = await self.screen(saved)
        if private is not None:
            reply.private.append(private)
        await self.r.show(reply)
        return Reply(toast=tr(lang, toast, name=name))

    async def join(self, session: Session, actor: Actor) -> Reply:
        """A seat in the lobby, for a person with a stake's worth of chips (after the day's
        refill)."""
        lang = await self.r.person_language(actor, await self.r.language(session.chat_id))
        game = Game.of(session)
        seats = seats_of(session)
        if seat_index(session, actor.platform_id) is not None:
            raise Refusal("err.already_in")
        if len(seats) >= game.rules.max_players:
            raise Refusal("err.full", most=game.rules.max_players)
        user_id = await self.r.user_of(actor)
        await self.turns.chips.ready(session.chat_id, user_id, actor.name, session.stake)
        seats.append(Seat(user_id, actor.name, actor.platform_id))
        welcome = (actor.platform_id, Screen(tr(lang, "lobby.joined_you",
                                                game=presenter.title(game, lang))))
        return await self.changed(session, seats, "lobby.joined", welcome)

    async def leave(self, session: Session, actor: Actor) -> Reply:
        """Leave the lobby (the creator's role passes on; the last person out closes it)."""
        return await self.unseat(session, seat_of(session, actor), "lobby.left")

    async def unseat(self, session: Session, index: int, toast: str,
                     private: tuple[str, Screen] | None = None, name: str = "") -> Reply:
        """A person's seat in the lobby goes (they left, or the host removed them): the
        creator's role passes to the next person, and a lobby with nobody left closes."""
        chat = await self.r.language(session.chat_id)
        seats = seats_of(session)
        leaving = seats.pop(index)
        if not people(seats):
            session, _ = await self.r.save(bump(with_seats(session, seats)).but(
                status="abandoned", deadline=None), session.version)
            reply = self.r.reply(session)
            reply.table = Screen(tr(chat, "lobby.closed_empty"))
            reply.closed = True
            if private is not None:
                reply.private.append(private)
            await self.r.show(reply)
            return Reply(toast=tr(self.r.answering(chat), toast, name=name))
        if leaving.user_id == session.creator_id:
            session = session.but(creator_id=successor(seats, index))
        return await self.changed(session, seats, toast, private, name)

    async def add_computer(self, session: Session, actor: Actor, level: str | None = None
                           ) -> Reply:
        """A computer player at `level`, or at the chat's level when the press names none (the
        strongest level the game offers, if not that one)."""
        game = Game.of(session)
        if level is None:
            level = offered(game.rules, chat_level(await self.r.chat_settings(session.chat_id)))
        elif level not in LEVELS:
            raise Refusal("err.forged")
        elif level not in game.rules.levels:
            raise Refusal("err.level_not_offered")
        lang = await self.r.language(session.chat_id)
        seats = seats_of(session)
        seat_of(session, actor)
        if len(seats) >= game.rules.max_players:
            raise Refusal("err.full", most=game.rules.max_players)
        taken = {s.platform_id for s in seats if s.computer}
        number = next(n for n in range(1, 100) if computer_label(n) not in taken)
        label = computer_label(number)
        user_id = await self.r.storage.accounts.computer(label)
        seats.append(Seat(user_id, tr(lang, "computer.name", number=number), label,
                          computer=True, level=level))
        return await self.changed(session, seats, "lobby.added")

    async def remove_computer(self, session: Session, actor: Actor) -> Reply:
        seats = seats_of(session)
        seat_of(session, actor)
        computers = [i for i, s in enumerate(seats) if s.computer]
        if not computers:
            raise Refusal("err.no_computer")
        del seats[computers[-1]]
        return await self.changed(session, seats, "lobby.removed")

    # ----- start and stop -----------------------------------------------------------------------

    async def start(self, session: Session, actor: Actor) -> Reply:
        lang = self.r.answering(await self.r.language(session.chat_id))
        game = Game.of(session)
        seats = seats_of(session)
        index = seat_of(session, actor)
        creator_seated = any(s.user_id == session.creator_id for s in seats)
        if creator_seated and seats[index].user_id != session.creator_id:
            raise Refusal("err.creator_starts")
        if len(seats) < game.rules.min_players:
            raise Refusal("lobby.need", game.rules.min_players - len(seats))
        if not creator_seated:  # who starts a game its opener left may also stop it
            session = session.but(creator_id=seats[index].user_id)
        match = game.rules.start_match(game.options, len(seats), game.seed)
        try:
            state = game.rules.new_deal(game.options, len(seats), game.deal_seed(match.deal),
                                        match)
        except InvalidOptions as exc:
            # Options that suit some tables but not this many players (too few sets).
            raise Refusal("err.options", detail=str(exc)) from None
        await self.turns.chips.refill(session.chat_id, people(seats))
        dealt = await self.turns.chips.deal_starts(session, game, seats)
        reply = self.r.reply(session)
        reply.deal_starts = True
        session = bump(with_seats(session, dealt.seats)).but(
            status="active", state=game.dumps(state), messages=dealing(session))
        session = await self.turns.step(session, session.version - 1, game, dealt.seats, state,
                                        reply, dealt)
        reply.table_fresh = True
        reply.hands = await self.turns.hands(session, None, state, fresh=True,
                                             ended=ended(reply))
        await self.r.show(reply)
        return Reply(toast=tr(lang, "lobby.started"))

    async def stop(self, session: Session, actor: Actor, is_admin: IsAdmin) -> Reply:
        lang = await self.r.language(session.chat_id)
        user_id = await self.r.user_of(actor)
        if user_id != session.creator_id and not await is_admin():
            raise Refusal("err.stop_rights")
        game = Game.of(session)
        state = game.state(session)
        between = state is not None and game.rules.outcome(state) is not None
        status = "finished" if between else "abandoned"
        saved, _ = await self.r.save(bump(session).but(status=status, deadline=None),
                                     session.version)
        reply = self.r.reply(saved)
        key = ("stop.lobby" if state is None else "stop.between" if between else "stop.mid_deal")
        reply.table = Screen(tr(lang, key, name=actor.name))
        reply.closed = True
        if state is not None:  # every hand says so, in its language, and keeps no button
            reply.hands = await self.turns.hands(
                saved, state, state, fresh=False, everyone=True,
                ended=lambda hand_lang: tr(hand_lang, key, name=actor.name))
        await self.r.show(reply)
        return Reply(toast=tr(self.r.answering(lang), "stop.done"))

    async def abandon(self, session_id: int) -> None:
        """The platform cannot show the game at all (its first message was refused): close
        it, so that the place is free for a game that can be shown. Settles nothing."""
        async with self.r.lock(session_id):
            session = await self.r.current(session_id)
            if session is None or not is_open(session):
                return
            await self.r.save(bump(session).but(status="abandoned", deadline=None),
                              session.version)

    async def timed_out(self, session: Session) -> None:
        """Nobody started the game in time: the lobby closes."""
        lang = await self.r.language(session.chat_id)
        saved, _ = await self.r.save(bump(session).but(status="abandoned", deadline=None),
                                     session.version)
        reply = self.r.reply(saved)
        reply.table = Screen(tr(lang, "lobby.timed_out"))
        reply.closed = True
        await self.r.show(reply)
