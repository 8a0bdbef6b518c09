"""A game in play: moves, a deal's end, the next deal, and the screens each change shows.

docs/architecture.md §4 and §1 invariants 4–7. A move goes through the rules core's `play` only; the
state it makes is saved with the next turn's deadline, or, once the deal is over, with its
settlement and the result post the chat is owed, in one transaction. Then the table and every hand
that changed are shown, built from views (the presenter never sees a state). A seat whose player
went away is played by the computer until they come back; the deal's last move is kept with the
session so that a countdown refresh, a restart or a seat change shows it as the move itself did.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from bot.deals.move_record import KEY, kept, recorded, replay_link
from bot.present import keyboards, payload, presenter
from bot.present.screens import Actor, HandUpdate, Post, Reply, Screen
from bot.present.season_words import podium_post
from bot.service.metrics import PlatformMetrics
from bot.session.chips import Chips, Dealt, keep
from bot.session.requests import Refusal, Requests, bump, seat_of
from bot.session.seating import Game, Seat, seats_of, with_seats
from bot.session.stakes import Paid
from games.engine import Action, Event, GameError, NotYourTurn, View, play
from storage import ChatSettings, Session, Settlement, TableChips
from storage import Post as StoredPost
from storage.accounts import seat_results
from storage.seasons import POST_KIND
from words.i18n import tr


@dataclasses.dataclass(frozen=True, slots=True)
class Seen:
    """A deal as one reader sees it, in their language: the group's table, the public view,
    and for a seated reader their own view and hand (what the web table shows)."""

    table: Screen
    public: View[Any]
    own: View[Any] | None = None
    hand: Screen | None = None


class Turns:
    def __init__(self, requests: Requests, metrics: PlatformMetrics) -> None:
        self.r = requests
        self.chips = Chips(requests)
        self.metrics = metrics

    # ----- moves --------------------------------------------------------------------------------

    async def move_press(self, session: Session, actor: Actor, press: payload.Press) -> Reply:
        """A move button: the presser's own, of the current version, on their turn."""
        index = seat_of(session, actor, "err.not_your_game", started=True)
        if press.version != session.version:
            raise Refusal("err.stale")
        seats = seats_of(session)
        if seats[index].away:
            raise Refusal("err.away")
        game = Game.of(session)
        if seats[index].misses:
            seats[index] = dataclasses.replace(seats[index], misses=0)
        try:
            await self.apply(session, seats, game, game.state(session), index, press.code)
        except NotYourTurn:
            raise Refusal("err.not_your_turn") from None
        except GameError:
            raise Refusal("err.illegal") from None
        return Reply()

    async def apply(self, session: Session, seats: list[Seat], game: Game, state: Any,
                    seat: int, action: Action | str) -> Session:
        """One move through the rules core, saved, with the deal's end handled."""
        new_state, events = play(game.rules, state, seat, action)
        reply = self.r.reply(session)
        messages = recorded(with_last(session, events), game, state, seats, seat, action)
        updated = bump(with_seats(session, seats)).but(state=game.dumps(new_state),
                                                        messages=messages)
        saved = await self.step(updated, session.version, game, seats, new_state, reply)
        self.metrics.moved(session.game)
        reply.hands = await self.hands(saved, state, new_state, ended=ended(reply))
        await self.r.show(reply)
        return saved

    async def step(self, session: Session, expected: int, game: Game, seats: list[Seat],
                   state: Any, reply: Reply, dealt: Dealt | None = None) -> Session:
        """Save a state and show what follows it on the table: the next turn's deadline while
        the deal goes on; once it is over (after a move, or straight from the deal when a hand
        is dealt complete) its settlement, what leaves the table and the result post in the
        same save, and the next deal's pause or the match's end. `dealt`: the deal was just
        dealt, and its chips come to the table in this save."""
        rules = game.rules
        outcome = rules.outcome(state)
        settlement: Settlement | None = None
        posts: list[dict[str, Any]] = []
        chips = dealt.chips if dealt is not None else None
        if outcome is None:
            session = session.but(deadline=self.deadline(session, seats, state))
        else:
            paid, ends, held = await self.chips.deal_ends(
                session, seats, outcome, dealt.held if dealt is not None else None)
            chips = TableChips(ends.keep, chips.bring if chips is not None else ())
            settlement = Settlement(
                session.id, state.match.deal, session.chat_id, session.game, outcome.reason,
                seat_results(Chips.paid_users(seats), outcome.points, paid.chips,
                             outcome.winners, paid.staked), kept(session, game, state, held))
            session = session.but(messages={**session.messages, "paid": paid.to_json()})
            after = rules.next_match(state)
            everyone_away = all(s.automatic for s in seats)
            if after.over or everyone_away:
                session = session.but(status="finished", deadline=None)
                reply.closed = True
            else:
                session = session.but(deadline=self.r.clock() + self.r.timing.deal_pause)
            posts.append({"kind": "result", "state": session.state, "paid": paid.to_json(),
                          "seats": [s.to_json() for s in seats], "next_at": session.deadline,
                          "replay": settlement.moves is not None})
            if everyone_away and not after.over:
                posts.append({"kind": "note", "key": "table.everyone_away"})
        saved, keys = await self.r.save(session, expected, settlement, posts, chips)
        if dealt is not None:
            self.metrics.dealt(session.game)
        if settlement is not None:
            self.metrics.settled(session.game)
        reply.posts.extend(await self.posts(saved, [StoredPost(key, saved.id, body)
                                                    for key, body in zip(keys, posts,
                                                                         strict=True)]))
        reply.table = await self.table_screen(saved, state, last(saved), closed=reply.closed)
        return saved

    async def next_deal(self, session: Session, game: Game, seats: list[Seat],
                        state: Any) -> None:
        rules = game.rules
        match = rules.next_match(state)
        new_state = rules.new_deal(game.options, len(seats), game.deal_seed(match.deal), match)
        reply = self.r.reply(session)
        reply.deal_starts = True
        dealt = await self.chips.deal_starts(session, game, seats)
        updated = bump(with_seats(session, dealt.seats)).but(state=game.dumps(new_state),
                                                             messages=dealing(session))
        saved = await self.step(updated, session.version, game, dealt.seats, new_state, reply,
                                dealt)
        reply.hands = await self.hands(saved, None, new_state, fresh=True, ended=ended(reply))
        await self.r.show(reply)

    def deadline(self, session: Session, seats: list[Seat], state: Any) -> float:
        """When the seat to move must have moved: soon for the computer, the chat's turn time
        for a person."""
        game = Game.of(session)
        mover = game.rules.to_move(state)
        if mover is not None and seats[mover].automatic:
            return self.r.clock() + self.r.timing.computer_delay
        # (the chat's settings are cached by every request's `language`)
        turn = self.r.settings.get(session.chat_id, ChatSettings()).turn_timeout
        return self.r.clock() + float(turn)

    # ----- presses that only show ---------------------------------------------------------------

    async def peek(self, session: Session, actor: Actor) -> Reply:
        """The presser's tiles as an alert only they see, in their language."""
        lang = self.r.answering(await self.r.language(session.chat_id))
        index = seat_of(session, actor, started=True)
        game = Game.of(session)
        return Reply(toast=presenter.peek(game.rules.view(game.state(session), index), lang),
                     alert=True)

    async def show_hand(self, session: Session, actor: Actor) -> Reply:
        """The player's hand again, as a new private message."""
        lang = self.r.answering(await self.r.language(session.chat_id))
        index = seat_of(session, actor, started=True)
        game = Game.of(session)
        reply = self.r.reply(session)
        reply.hands = [HandUpdate(actor.platform_id, await self.hand_screen(
            session, game.state(session), index), fresh=True)]
        await self.r.show(reply)
        return Reply(toast=tr(lang, "hand.sent"))

    async def pick(self, session: Session, actor: Actor, press: payload.Press,
                   picked: str) -> Reply:
        """The first of two taps: show the moves of one tile (nothing changes in the game)."""
        index = current_seat(session, actor, press)
        game = Game.of(session)
        view = game.rules.view(game.state(session), index)
        langs = await self.r.seat_languages(session)
        if picked and not keyboards.picks(view, picked, langs[index]):
            raise Refusal("err.forged")
        reply = self.r.reply(session)
        reply.hands = [HandUpdate(actor.platform_id, await self.hand_screen(
            session, game.state(session), index, picked or None))]
        await self.r.show(reply)
        return Reply()

    async def by_tiles(self, session: Session, actor: Actor, press: payload.Press,
                       letters: str) -> Reply:
        """A play chosen by its tiles (a multi-select): made at once when the tiles name one
        move; when they name several (beat or fold with the same tiles), those are shown."""
        index = current_seat(session, actor, press)
        game = Game.of(session)
        view = game.rules.view(game.state(session), index)
        chosen = keyboards.moves_by_letters(view, letters.split("-"))
        if not chosen:
            raise Refusal("err.no_such_play")
        if len(chosen) > 1:
            return await self.pick(session, actor, press, f"={letters}")
        code = chosen[0].code(view.tiles)
        return await self.move_press(session, actor, payload.Press(press.session_id,
                                                                   press.version, code))

    # ----- away and back ------------------------------------------------------------------------

    async def back(self, session: Session, actor: Actor) -> Reply:
        lang = self.r.answering(await self.r.language(session.chat_id))
        index = seat_of(session, actor)
        seats = seats_of(session)
        if not seats[index].away and not seats[index].misses:
            raise Refusal("err.not_away")
        seats[index] = dataclasses.replace(seats[index], away=False, misses=0)
        await self.seats_changed(session, seats, index, "table.back", actor.name)
        return Reply(toast=tr(lang, "hand.welcome_back"))

    async def seats_changed(self, session: Session, seats: list[Seat], changed: int, key: str,
                            name: str, *, creator_id: int | None = None,
                            departed: Departed | None = None, arrived: bool = False) -> Reply:
        """Seats changed in a game (away or back, left, removed, taken over): the deadline
        follows (a person gets a full turn, the computer moves soon), the chips of people no
        longer at the table leave it (at the deal's end if they are at stake in it), the
        table and the hands concerned are shown again, and whoever `departed` gets a last hand
        that says why and keeps no button; a person who `arrived` at the changed seat gets
        their hand as a new message. The answer says `key` of `name`."""
        lang = self.r.answering(await self.r.language(session.chat_id))
        updated = with_seats(session, seats)
        if creator_id is not None:
            updated = updated.but(creator_id=creator_id)
        game = Game.of(session)
        state = game.state(session)
        in_progress = self.in_progress(session)
        if in_progress:
            updated = updated.but(deadline=self.deadline(updated, seats, state))
        # The version moves on: buttons drawn for the computer's turn are no longer valid.
        saved, _ = await self.r.save(bump(updated), session.version,
                                     chips=TableChips(keep(seats, in_progress)))
        reply = self.r.reply(saved)
        if state is not None:
            reply.table = await self.table_screen(saved, state, last(saved))
            reply.hands = await self.hands(saved, state, state, only_to_move=True,
                                           also=changed)
            if arrived:
                reply.hands = [dataclasses.replace(h, fresh=True)
                               if h.user == seats[changed].platform_id else h
                               for h in reply.hands]
            if departed is not None:
                user, seat, why = departed
                hand_lang = await self.r.language_of(user, saved.chat_id)
                reply.hands.append(HandUpdate(user, await self.hand_screen(
                    saved, state, seat, ended=why, lang=hand_lang)))
        await self.r.show(reply)
        return Reply(toast=tr(lang, key, name=name))

    def in_progress(self, session: Session) -> bool:
        """A deal is being played (dealt and not over)."""
        game = Game.of(session)
        state = game.state(session)
        return state is not None and game.rules.outcome(state) is None

    def mover(self, session: Session) -> int | None:
        """The seat to move in the deal being played (None between deals)."""
        game = Game.of(session)
        state = game.state(session)
        return None if state is None else game.rules.to_move(state)

    # ----- screens ------------------------------------------------------------------------------

    async def table_screen(self, session: Session, state: Any, events: Sequence[Event],
                           closed: bool = False, lang: str | None = None) -> Screen:
        """The group's table, in the chat's language (`lang`: in one reader's)."""
        lang = lang or await self.r.language(session.chat_id)
        game = Game.of(session)
        return presenter.table(session, game, seats_of(session), game.rules.view(state, None),
                               lang, list(events), self.r.clock_of(session), self.r.theme,
                               closed, app=self.r.web_table, watch=self.r.watching)

    async def seen(self, session: Session, seat: int | None, lang: str, closed: bool
                   ) -> Seen | None:
        """The deal as the reader at `seat` (None: not seated) sees it; None before the first
        deal. `closed`: the match is over, and the screens say so."""
        game = Game.of(session)
        state = game.state(session)
        if state is None:
            return None
        table = await self.table_screen(session, state, last(session), closed=closed, lang=lang)
        if seat is None:
            return Seen(table, game.rules.spectator_view(state))
        over = tr(lang, "table.over")
        hand = await self.hand_screen(session, state, seat, lang=lang,
                                      ended=(lambda _: over) if closed else None)
        return Seen(table, game.rules.view(state, None), game.rules.view(state, seat), hand)

    async def hand_screen(self, session: Session, state: Any, seat: int,
                          picked: str | None = None, ended: Ended | None = None,
                          lang: str | None = None) -> Screen:
        """A seat's hand in its player's language (`lang` when the caller knows it)."""
        if lang is None:
            lang = (await self.r.seat_languages(session))[seat]
        game = Game.of(session)
        return presenter.hand(session, game, seats_of(session), game.rules.view(state, seat),
                              lang, self.r.clock_of(session), picked, self.r.theme,
                              ended(lang) if ended is not None else "", app=self.r.web_table)

    async def hands(self, session: Session, before: Any, after: Any, fresh: bool = False,
                    only_to_move: bool = False, also: int | None = None,
                    ended: Ended | None = None, everyone: bool = False) -> list[HandUpdate]:
        """Private hands that changed: the tiles, whose turn it is, or the buttons' version
        (`also`: a seat whose own screen changed, e.g. its "I'm back" button went away;
        `everyone` when the game ended, `ended` saying how), each in its player's language."""
        rules = Game.of(session).rules
        langs = await self.r.seat_languages(session)
        updates: list[HandUpdate] = []
        now_moving = rules.to_move(after)
        was_moving = None if before is None else rules.to_move(before)
        for index, seat in enumerate(seats_of(session)):
            if not seat.person:
                continue
            mine_now = now_moving == index
            if only_to_move and not mine_now and index != also:
                continue
            changed = (fresh or everyone or before is None or mine_now or was_moving == index
                       or index == also
                       or rules.view(before, index).hand != rules.view(after, index).hand
                       or rules.outcome(after) is not None)
            if not changed:
                continue
            turn_starts = mine_now and was_moving != index and not seat.away and not ended
            updates.append(HandUpdate(seat.platform_id,
                                      await self.hand_screen(session, after, index,
                                                             ended=ended, lang=langs[index]),
                                      fresh=fresh or turn_starts))
        return updates

    async def posts(self, session: Session, posts: Sequence[StoredPost]) -> list[Post]:
        """The screens of kept posts, built again from what was kept (after a restart too)."""
        lang = await self.r.language(session.chat_id)
        built: list[Post] = []
        for post in posts:
            body = post.body
            if body.get("kind") == POST_KIND:  # (the chat's, kept with its latest game)
                screen = await podium_post(self.r.storage, session.chat_id,
                                           int(body["season"]), lang, self.r.theme)
            elif body.get("kind") == "result":
                game = Game.of(session)
                state = game.rules.loads(body["state"])
                seats = [Seat.from_json(s) for s in body["seats"]]
                view = game.rules.view(state, None)
                screen = presenter.result(session, game, seats, view, lang,
                                          game.rules.next_match(state),
                                          presenter.Clock(self.r.clock(), body.get("next_at")),
                                          paid_of(body, view, session.stake), self.r.theme,
                                          replay_link(self.r.replay_url, session, game, view,
                                                      lang) if body.get("replay") else "")
            else:
                screen = Screen(tr(lang, str(body.get("key", "table.everyone_away"))))
            built.append(Post(screen, post.id))
        return built

    async def refresh(self, session: Session, posts: Sequence[StoredPost]) -> None:
        """Show a restored game's table and the mover's hand again, with the posts it still
        owes: whatever was queued when the last process stopped reaches the chat now (the same
        version: buttons already on screen stay valid)."""
        async with self.r.lock(session.id):
            reply = self.r.reply(session)
            state = Game.of(session).state(session)
            reply.table = await self.table_screen(session, state, last(session))
            reply.hands = await self.hands(session, state, state, only_to_move=True)
            reply.posts = await self.posts(session, posts)
            await self.r.show(reply)


def paid_of(body: dict[str, Any], view: View[Any], stake: int) -> Paid:
    """The chips a kept result post shows (one kept before chips were covered by tables shows
    the outcome's, times the stake)."""
    if "paid" in body:
        return Paid.from_json(body["paid"])
    assert view.outcome is not None
    return Paid.as_dealt(view.outcome.deltas, stake)


def current_seat(session: Session, actor: Actor, press: payload.Press) -> int:
    """The presser's seat, for a press that only shows a screen of the current version."""
    index = seat_of(session, actor, "err.not_your_game")
    if press.version != session.version or session.state is None:
        raise Refusal("err.stale")
    return index


def last(session: Session) -> tuple[Event, ...]:
    """What the last move did, kept with the session so that a countdown refresh, a restart or
    a player coming back shows it as the move itself did."""
    return tuple(Event(str(e["kind"]), e.get("seat"), tuple(e.get("tiles", ())), e.get("value"))
                 for e in session.messages.get("last", ()))


def dealing(session: Session) -> dict[str, Any]:
    """A new deal's messages: no last move, no chips paid yet, no moves kept yet."""
    return {**{k: v for k, v in with_last(session, ()).items() if k != "paid"}, KEY: ""}


def with_last(session: Session, events: Sequence[Event]) -> dict[str, Any]:
    kept = [{"kind": e.kind, "seat": e.seat, "tiles": list(e.tiles), "value": e.value}
            for e in events]
    return {**session.messages, "last": kept}


Ended = Callable[[str], str]
"""What a hand says once its game is over, in the hand's language (it then keeps no button)."""
Departed = tuple[str, int, Ended]
"""A person who no longer plays a seat: their platform id, the seat, and what their last hand
says."""


def ended(reply: Reply) -> Ended | None:
    """Once the match is over, every hand says so."""
    return (lambda lang: tr(lang, "table.over")) if reply.closed else None
