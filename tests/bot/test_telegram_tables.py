"""A table fixed from a Telegram group, end to end: a host removes a player (replying to their
message, or naming them), a newcomer takes over a seat (by the table's Join link or by /join), a
stuck turn is skipped, the host's role passes on, people hear of new lobbies in their private
chat, a person short of chips is refused until the daily refill, and a deal's fingerprint is
shown before its tiles and its seed after them (docs/architecture.md §4–§6).

The real python-telegram-bot `Application` runs against the fake Bot API server, driven as
`test_telegram_e2e` drives it: people type in the group (a `/kick` is a real reply, whose update
quotes the player's message), open deep links in their private chats and press the buttons the
bot sent. What people see is read from the fake server; chips from the bot's own storage. Turn
timers and the hours until the refill pass on the virtual clock. A command typed in the group is
answered there in the chat's language; what one person sees alone is in theirs, so each cast
below speaks the chat's language, and the tests without a cast mix languages on purpose.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import bot.session.lobby
from bot.present.screens import Place
from bot.service.workers import MAX_LEASE
from bot.session.chips import day_of
from bot.session.seating import Seat, seats_of
from faces.presets import game_title
from games import seeds
from storage import Session
from tests.support.books import check_books
from tests.support.fake_telegram import BOT_USERNAME, Call, FakeTelegram, SentMessage, User
from tests.support.human_pace import THINK, Pace
from tests.support.logs import no_errors_logged  # noqa: F401 - autouse
from tests.support.telegram_group import BOB, GROUP, KIM, OLENA, QUICK, STRANGER, Group
from words.i18n import tr

pytestmark = pytest.mark.timeout(120)

TITLE = "Доміно по п'ятницях"
ADMIN = User(105, "Admin", "en")
"""A chat admin who does not play (the fake reports them as an administrator)."""
PLACE = Place(str(GROUP))
SECRET = "5eed" * 8


@dataclass(frozen=True)
class Cast:
    """People in the group whose clients speak one language, which the chat speaks too."""

    lang: str
    host: User
    member: User
    newcomer: User
    latecomer: User
    shy: User
    """Never opened a private chat with the bot: the fake answers 403 for them."""


CASTS = {
    "uk": Cast("uk", OLENA, KIM, User(111, "Тарас", "uk"), User(112, "Марта", "uk"),
               User(113, "Тихон", "uk")),
    "en": Cast("en", BOB, STRANGER, User(121, "Dan", "en"), User(122, "Eve", "en"),
               User(123, "Quinn", "en")),
}
LANGS = pytest.mark.parametrize("lang", ["uk", "en"])


@pytest.fixture(autouse=True)
def known_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table's secret is known, so every deal is the same on every run: a test sees the
    deals it means to play (a few threedozen deals in a hundred are decided the moment they
    are dealt, before anyone could be removed or skipped), not its luck."""
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=16: SECRET[:2 * n])


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for cast in CASTS.values():
            for user in (cast.host, cast.member, cast.newcomer, cast.latecomer):
                fake.start_bot(user)
        fake.start_bot(ADMIN)
        fake.make_admin(GROUP, ADMIN)
        fake.set_chat(GROUP, title=TITLE)
        yield fake


# ----- what people see --------------------------------------------------------------------------

async def ask(group: Group, user: User, text: str, reply_to: int | None = None) -> str:
    """What the bot answers `text` typed by `user` in the group: its next plain sentence there
    (no picture, no buttons)."""
    server = group.server
    before = max((m.message_id for m in server.messages(GROUP)), default=0)
    group.say(user, text, reply_to=reply_to)
    found: list[SentMessage] = []

    def answered() -> bool:
        found.extend(m for m in server.messages(GROUP) if m.message_id > before
                     and not m.has_photo and not m.reply_markup)
        return bool(found)
    await server.wait_for(answered, timeout=120)
    return found[0].text or ""


async def told(server: FakeTelegram, user: User, text: str) -> SentMessage:
    """The message in `user`'s private chat that says `text`, once it does."""
    found: list[SentMessage] = []

    def seen() -> bool:
        found.extend(m for m in server.messages(user.id) if text in (m.content or ""))
        return bool(found)
    await server.wait_for(seen, timeout=120)
    return found[0]


def table_now(group: Group) -> SentMessage | None:
    """The game's table in the group, once it is there: the picture with "Peek" under it."""
    for message in reversed(group.server.messages(GROUP)):
        if message.has_photo and any(d.endswith("!peek") for d in message.button_data()):
            return message
    return None


def table(group: Group) -> SentMessage:
    found = table_now(group)
    assert found is not None, group.server.summary()
    return found


def caption(group: Group) -> str:
    """What the table says ("" before it is there)."""
    found = table_now(group)
    return "" if found is None else found.content or ""


def hand_text(group: Group, user: User) -> str:
    """What the newest hand in `user`'s private chat says."""
    hand = group.hand(user)
    return "" if hand is None else hand.content or ""


def join_url(message: SentMessage) -> str | None:
    """The URL of the message's Join link, if it has one."""
    for row in (message.reply_markup or {}).get("inline_keyboard", []):
        for button in row:
            if "start=j_" in button.get("url", ""):
                return str(button["url"])
    return None


def before(lang: str, key: str, field: str, **others: object) -> str:
    """The words of catalogue entry `key` that come before its field `field`."""
    return tr(lang, key, **{field: "\x00"}, **others).split("\x00")[0]


def line_with(text: str, lang: str, key: str, field: str, **others: object) -> str | None:
    """The line of `text` made from catalogue entry `key` (found by its words before
    `field`, the `others` filled in)."""
    start = before(lang, key, field, **others)
    return next((line for line in text.splitlines() if line.startswith(start)), None)


# ----- what the bot keeps -----------------------------------------------------------------------

async def open_session(group: Group) -> Session:
    assert group.bot is not None
    session = await group.bot.manager.open_in(PLACE)
    assert session is not None, "no game is open in the group"
    return session


def seat_of(session: Session, user: User) -> tuple[int, Seat]:
    """The seat the user sits at, or sat at (left, removed)."""
    return next((i, s) for i, s in enumerate(seats_of(session))
                if s.platform_id == str(user.id))


async def user_id(group: Group, user: User) -> int:
    assert group.storage is not None
    row = await group.storage.db.read_one(
        "SELECT id FROM users WHERE platform = 'telegram' AND platform_id = ?", (str(user.id),))
    assert row is not None, f"{user.first_name} never came to the bot"
    return int(row["id"])


async def chat_id(group: Group) -> int:
    assert group.storage is not None
    return await group.storage.accounts.chat("telegram", GROUP)


async def deals(group: Group, sid: int) -> int:
    """Deals of the game settled so far."""
    assert group.storage is not None
    rows = await group.storage.db.read("SELECT id FROM deals WHERE session_id = ?", (sid,))
    return len(rows)


async def turn_of(group: Group, user: User) -> bool:
    """Whether the turn due now is `user`'s."""
    assert group.bot is not None
    session = await open_session(group)
    mover = group.bot.manager.turns.mover(session)
    return mover is not None and seats_of(session)[mover].platform_id == str(user.id)


async def speak(group: Group, lang: str) -> None:
    """An admin sets the chat's language (its tables, posts and answers)."""
    assert await ask(group, ADMIN, f"/lang {lang}") == tr(lang, "lang.set")


# ----- removing a player ------------------------------------------------------------------------

@LANGS
async def test_the_host_removes_a_player_by_replying_to_their_message(
        group: Group, server: FakeTelegram, lang: str) -> None:
    cast = CASTS[lang]
    host, member, kicked = cast.host, cast.member, cast.newcomer
    assert group.storage is not None
    await speak(group, lang)
    sid = await group.open_game("threedozen deals=2 5", (host, member, kicked), computers=0)
    await server.wait_for(lambda: group.hand(kicked) is not None)
    chat, kicked_id = await chat_id(group), await user_id(group, kicked)
    assert (await group.storage.tables.held(sid))[kicked_id] > 0, "they brought chips"
    said = group.say(kicked, "one moment" if lang == "en" else "хвилинку")

    # Neither the host nor an admin: refused in the group, and nothing changes.
    assert await ask(group, member, "/kick", reply_to=said) == tr(lang, "host.rights")
    assert seat_of(await open_session(group), kicked)[1].person

    answer = await ask(group, host, "/kick", reply_to=said)
    assert answer == tr(lang, "host.removed", name=kicked.first_name)
    index, seat = seat_of(await open_session(group), kicked)
    assert seat.gone == "removed" and seat.automatic and not seat.person
    assert seat.staked == kicked_id, "at stake in the deal under way, as a loser could not leave"
    # The table names the seat among those the computer plays, and offers it by its Join link.
    await server.wait_for(lambda: kicked.first_name in (
        line_with(caption(group), lang, "table.free", "names") or ""), timeout=60)
    assert join_url(table(group)) == f"https://t.me/{BOT_USERNAME}?start=j_{sid}"
    # The removed player's hand says why, in their language, and offers no move.
    removed_you = tr(lang, "host.removed_you", name=host.first_name)
    await server.wait_for(lambda: removed_you in hand_text(group, kicked), timeout=60)
    assert group.moves(kicked) == []
    hands_sent = len([c for c in server.calls("sendPhoto") if c.chat_id == kicked.id])
    # They cannot sit down again: not by /join, not by the table's link, not on their own seat.
    assert await ask(group, kicked, "/join") == tr(lang, "host.removed_before")
    group.say(kicked, f"/start j_{sid}", chat=kicked.id)
    await told(server, kicked, tr(lang, "host.removed_before"))
    assert seat_of(await open_session(group), kicked)[1].gone == "removed"

    async def first_deal_over() -> bool:
        return await deals(group, sid) >= 1

    # The deal ends: their chips come back off the table, with what the deal paid them.
    await group.play(sid, (host, member), done=first_deal_over)
    held = await group.storage.tables.held(sid)
    assert kicked_id not in held
    assert set(held) == {await user_id(group, host), await user_id(group, member)}
    won = await group.storage.db.read_one(
        "SELECT COALESCE(SUM(amount), 0) AS won FROM ledger WHERE user_id = ? AND chat_id = ? "
        "AND kind = 'settlement'", (kicked_id, chat))
    assert won is not None
    wallet = await group.storage.accounts.wallet(chat, kicked_id)
    assert wallet.held == 0 and wallet.balance == 1000 + won["won"]
    check_books(group.db)

    # The next deal: the computer plays the seat for nothing, and deals them no more tiles.
    await group.play(sid, (host, member))
    assert await group.status(sid) == "finished"
    rows = await group.storage.db.read(
        "SELECT d.deal_no, s.staked, s.delta FROM deal_seats s JOIN deals d ON d.id = s.deal_id "
        "WHERE s.user_id = ? AND d.session_id = ? ORDER BY d.deal_no", (kicked_id, sid))
    assert [(r["deal_no"], r["staked"]) for r in rows] == [(0, 1), (1, 0)]
    assert rows[1]["delta"] == 0
    assert (await group.storage.accounts.wallet(chat, kicked_id)).balance == wallet.balance
    assert await group.storage.tables.held(sid) == {}
    assert len([c for c in server.calls("sendPhoto") if c.chat_id == kicked.id]) == hands_sent
    assert seats_of(await group.storage.sessions.get(sid))[index].name == kicked.first_name
    check_books(group.db)


@LANGS
async def test_the_host_or_an_admin_removes_a_player_from_a_lobby_by_name(
        group: Group, server: FakeTelegram, lang: str) -> None:
    cast = CASTS[lang]
    host, member, newcomer = cast.host, cast.member, cast.newcomer
    await speak(group, lang)
    group.say(host, "/newgame threedozen")
    await server.wait_for(group._has_lobby)
    link = group.join_link()
    for user in (member, newcomer):
        group.say(user, f"/start {link}", chat=user.id)
    await server.wait_for(lambda: all(u.first_name in (group.lobby().content or "")
                                      for u in (member, newcomer)), timeout=60)

    refused = await ask(group, newcomer, f"/kick {member.first_name}")
    assert refused == tr(lang, "host.rights")
    answer = await ask(group, host, f"/kick {member.first_name}")
    assert answer == tr(lang, "host.removed", name=member.first_name)
    await server.wait_for(lambda: member.first_name not in (group.lobby().content or ""),
                          timeout=60)
    assert newcomer.first_name in (group.lobby().content or "")
    await told(server, member, tr(lang, "host.removed_you_lobby", name=host.first_name))
    # An admin may remove a player without sitting at the table, naming them in any case; the
    # answer is in the chat's language whatever the admin's own.
    answer = await ask(group, ADMIN, f"/kick {newcomer.first_name.upper()}")
    assert answer == tr(lang, "host.removed", name=newcomer.first_name)
    assert [s.platform_id for s in seats_of(await open_session(group))] == [str(host.id)]
    # Someone who is not at the table is not found there.
    missing = await ask(group, host, f"/kick {cast.latecomer.first_name}")
    assert missing == tr(lang, "host.no_such_player", name=cast.latecomer.first_name)


# ----- taking over a seat -----------------------------------------------------------------------

@LANGS
async def test_a_newcomer_takes_over_the_computers_seat_by_the_tables_join_link(
        group: Group, server: FakeTelegram, lang: str) -> None:
    cast = CASTS[lang]
    newcomer = cast.newcomer
    await speak(group, lang)
    sid = await group.open_game("threedozen", (cast.host, cast.member), computers=1)
    computer = next(i for i, s in enumerate(seats_of(await open_session(group))) if s.computer)
    await server.wait_for(lambda: line_with(caption(group), lang, "table.free", "names")
                          is not None)
    url = join_url(table(group))
    assert url == f"https://t.me/{BOT_USERNAME}?start=j_{sid}"

    # The newcomer presses the link: Telegram opens the private chat and sends its start code.
    group.say(newcomer, f"/start {url.split('start=')[1]}", chat=newcomer.id)
    await told(server, newcomer, tr(lang, "host.took_seat", name=newcomer.first_name))
    session = await open_session(group)
    seat = seats_of(session)[computer]
    assert (seat.platform_id, seat.name, seat.computer) == (str(newcomer.id),
                                                            newcomer.first_name, False)
    assert seat.staked is None, "a newcomer plays for chips from the next deal on"
    # Their tiles come to them, and the table no longer offers a seat.
    await server.wait_for(lambda: group.hand(newcomer) is not None)
    await server.wait_for(lambda: join_url(table(group)) is None, timeout=60)
    shown = caption(group)
    assert line_with(shown, lang, "table.free", "names") is None, shown
    assert newcomer.first_name in shown
    # A later newcomer finds every seat taken by a person.
    assert await ask(group, cast.latecomer, "/join") == tr(lang, "host.no_seat")


@LANGS
async def test_a_newcomer_takes_over_the_seat_of_a_player_who_is_away(
        group: Group, server: FakeTelegram, lang: str) -> None:
    cast = CASTS[lang]
    host, away, newcomer = cast.host, cast.member, cast.newcomer
    await speak(group, lang)
    sid = await group.open_game("threedozen", (host, away), computers=0)
    loop = asyncio.get_running_loop()
    began = loop.time()

    async def is_away() -> bool:
        return seat_of(await open_session(group), away)[1].away

    # The host plays; the other player never does, and misses two turns as the clock runs.
    await group.play(sid, (host,), limit=600, done=is_away)
    assert loop.time() - began > 2 * 60, "a missed turn waits for its timer"
    await told(server, away, tr(lang, "hand.now_away"))

    assert await ask(group, newcomer, "/join") == tr(lang, "host.took_seat",
                                                      name=newcomer.first_name)
    session = await open_session(group)
    _, seat = seat_of(session, newcomer)
    assert seat.person and not seat.away and not seat.gone
    assert str(away.id) not in {s.platform_id for s in seats_of(session)}
    await server.wait_for(lambda: newcomer.first_name in caption(group), timeout=60)
    await server.wait_for(lambda: group.hand(newcomer) is not None)
    # The player who was away is told on their hand, in their language, and keeps no move.
    taken = tr(lang, "host.seat_taken_from_you", name=newcomer.first_name)
    await server.wait_for(lambda: taken in hand_text(group, away), timeout=60)
    assert group.moves(away) == []
    check_books(group.db)


# ----- the host's other controls ----------------------------------------------------------------

async def test_the_host_skips_a_stuck_turn_at_once(group: Group, server: FakeTelegram) -> None:
    """In a Ukrainian chat: Bob's client is English, but the group reads the chat's language."""
    assert group.bot is not None
    sid = await group.open_game("threedozen", (OLENA, BOB), computers=0)

    async def bobs_turn() -> bool:
        return await turn_of(group, BOB)
    await group.play(sid, (OLENA,), done=bobs_turn)
    stuck = await open_session(group)
    index, _ = seat_of(stuck, BOB)
    assert stuck.deadline is not None
    # The group sees whose turn it is before anyone skips it.
    await server.wait_for(lambda: caption(group) == group.tables[sid][-1].text[:1024],
                          timeout=60)
    waiting = caption(group)
    assert line_with(waiting, "uk", "table.to_move", "left", name="Bob") is not None, waiting
    await server.wait_for(lambda: group.moves(BOB) != [])

    loop = asyncio.get_running_loop()
    asked = loop.time()
    assert await ask(group, BOB, "/skip") == tr("uk", "host.rights")
    assert (await open_session(group)).version == stuck.version
    assert await ask(group, OLENA, "/skip") == tr("uk", "host.skipped", name="Bob")
    after = await open_session(group)
    assert after.version > stuck.version
    assert group.bot.manager.turns.mover(after) != index, "the computer played Bob's turn"
    assert seats_of(after)[index].misses == 1, "a skipped turn counts as a missed one"
    # At once: the clock is nowhere near the turn's deadline, and the table moved on.
    await server.wait_for(lambda: caption(group) != waiting, timeout=30)
    assert loop.time() - asked < 30
    assert group.bot.manager.clock() < stuck.deadline - 30
    await server.wait_for(lambda: group.moves(BOB) == [])


async def test_a_creator_who_leaves_hands_the_table_to_the_next_person(
        group: Group, server: FakeTelegram) -> None:
    """In an English chat, with two Ukrainian players: the group reads English, Олена's own
    hand her language."""
    await speak(group, "en")
    sid = await group.open_game("threedozen", (OLENA, BOB, KIM), computers=0)
    await server.wait_for(lambda: tr("en", "table.host", name="Олена") in caption(group))
    table_id = table(group).message_id

    assert await ask(group, OLENA, "/leave") == tr("en", "table.left_game", name="Олена")
    await server.wait_for(lambda: tr("en", "table.host", name="Bob") in caption(group),
                          timeout=60)
    assert table(group).message_id == table_id, "the same table, edited in place"
    assert tr("en", "table.host", name="Олена") not in caption(group)
    await server.wait_for(lambda: tr("uk", "hand.left_game") in hand_text(group, OLENA),
                          timeout=60)
    # The role went to Bob alone: neither the one who left nor Кім, after Bob, may skip.
    assert await ask(group, OLENA, "/skip") == tr("en", "host.rights")
    assert await ask(group, KIM, "/skip") == tr("en", "host.rights")

    async def kims_turn() -> bool:
        return await turn_of(group, KIM)
    await group.play(sid, (BOB,), done=kims_turn)
    session = await open_session(group)
    assert await ask(group, BOB, "/skip") == tr("en", "host.skipped", name="Кім")
    assert (await open_session(group)).version > session.version

    assert await ask(group, KIM, "/stop") == tr("en", "err.stop_rights")
    assert await ask(group, BOB, "/stop") == tr("en", "stop.done")
    assert group.bot is not None and await group.bot.manager.open_in(PLACE) is None
    stopped = tr("en", "stop.mid_deal", name="Bob")

    def shows_the_stop() -> bool:
        message = server.message(GROUP, table_id)
        return message is not None and not message.deleted and stopped in (message.content or "")
    await server.wait_for(shows_the_stop, timeout=60)


# ----- hearing of new lobbies -------------------------------------------------------------------

@LANGS
async def test_notify_brings_one_private_message_whose_button_joins(
        group: Group, server: FakeTelegram, lang: str) -> None:
    cast = CASTS[lang]
    host, listener, shy = cast.host, cast.member, cast.shy
    await speak(group, lang)
    # The shy member never opened a private chat with the bot; they ask all the same.
    for user in (listener, shy, host):
        assert await ask(group, user, "/notify") == tr(lang, "notify.on")
    group_before = {m.message_id for m in server.messages(GROUP)}

    group.say(host, "/newgame threedozen 2")
    await server.wait_for(group._has_lobby)
    sid = int(group.join_link().removeprefix("j_"))
    await server.wait_for(lambda: server.messages(listener.id) != [])
    await server.wait_idle()
    (note,) = server.messages(listener.id)
    game = game_title("threedozen", None, lang)
    opened = tr(lang, "notify.opened", game=game, chat=TITLE, stake=2)
    assert note.text == opened and note.reply_markup is not None
    ((button,),) = note.reply_markup["inline_keyboard"]
    assert button["text"] == tr(lang, "btn.join")
    assert button["url"] == f"https://t.me/{BOT_USERNAME}?start=j_{sid}"
    # Whoever opened the lobby is not told of it; the shy member's 403 is no error, and the
    # group sees nothing of it (no "Start me" link): only the lobby is new there.
    assert opened not in [m.text for m in server.messages(host.id)]
    refused = [c for c in server.calls("sendMessage") if c.chat_id == shy.id]
    assert [c.ok for c in refused] == [False] and "initiate" in (refused[0].error or "")
    assert server.messages(shy.id) == []
    new = [m for m in server.messages(GROUP) if m.message_id not in group_before]
    assert [m.message_id for m in new] == [group.lobby().message_id]
    assert shy.first_name not in (new[0].content or "")

    # The button opens the private chat with its start code, which seats its reader.
    group.say(listener, f"/start {button['url'].split('start=')[1]}", chat=listener.id)
    await told(server, listener, tr(lang, "lobby.joined"))
    await server.wait_for(lambda: listener.first_name in (group.lobby().content or ""),
                          timeout=60)
    assert str(listener.id) in {s.platform_id for s in seats_of(await open_session(group))}
    # Once per lobby: the lobby changing and starting brings no second note.
    answer = await group.answer_to(group.press(host, group.lobby(),
                                               group.data(group.lobby(), "!start")))
    assert answer == tr(lang, "lobby.started")
    await server.wait_for(lambda: group.hand(listener) is not None)
    await server.wait_idle()
    assert [m.text for m in server.messages(listener.id)].count(opened) == 1
    assert [c.chat_id for c in server.calls() if c.chat_id == shy.id] == [shy.id]


# ----- the daily refill -------------------------------------------------------------------------

def first_line(text: str) -> str:
    """A person's chips, the first line of `/chips` (their place on the leaderboard follows)."""
    return text.splitlines()[0]


def until_midnight(now: float) -> tuple[int, int]:
    """Hours and minutes (rounded up) from `now` to the next 00:00 UTC."""
    moment = datetime.fromtimestamp(now, UTC)
    midnight = datetime.combine(moment.date() + timedelta(days=1), datetime.min.time(), UTC)
    minutes = math.ceil((midnight - moment).total_seconds() / 60)
    return minutes // 60, minutes % 60


@pytest.fixture
async def lone_group(server: FakeTelegram, tmp_path: Path) -> AsyncIterator[Group]:
    """The bot alone on its database through a night on the virtual clock: the sweep for the
    games of other processes (every third of a lease: 5 s by default) runs as seldom as the
    setting allows, rather than eleven thousand times a night."""
    group = Group(server, tmp_path / "gupai.sqlite3",
                  timing=dataclasses.replace(QUICK, lease=MAX_LEASE))
    await group.start()
    yield group
    await group.stop()


@LANGS
async def test_a_player_short_of_chips_waits_for_the_refill_at_midnight(
        lone_group: Group, server: FakeTelegram, lang: str) -> None:
    group = lone_group
    cast = CASTS[lang]
    host, short = cast.host, cast.member
    assert group.storage is not None and group.bot is not None
    clock = group.bot.manager.clock
    await speak(group, lang)
    # Only an admin (as Telegram reports them) changes the chat's chips.
    assert await ask(group, host, "/settings floor 200") == tr(lang, "err.admins_only")
    assert await ask(group, ADMIN, "/settings grant 300") == tr(lang, "settings.saved")
    assert await ask(group, ADMIN, "/settings floor 200") == tr(lang, "settings.saved")
    name = short.first_name
    assert first_line(await ask(group, short, "/chips")) == tr(lang, "chips.balance", 300,
                                                                name=name)
    chat, short_id = await chat_id(group), await user_id(group, short)
    await group.storage.accounts.adjust(chat, short_id, -290, "lost-elsewhere")
    chips = (await ask(group, short, "/chips")).splitlines()
    assert chips[0] == tr(lang, "chips.balance", 10, name=name), chips
    assert tr(lang, "chips.refill_due", floor=200) in chips, chips

    # The first game of the day brings them up to the floor.
    group.say(host, "/newgame threedozen 50")
    await server.wait_for(group._has_lobby)
    assert await ask(group, short, "/join") == tr(lang, "lobby.joined")
    assert first_line(await ask(group, short, "/chips")) == tr(lang, "chips.balance", 200,
                                                                name=name)
    assert await ask(group, short, "/leave") == tr(lang, "lobby.left")

    # Drained again the same day: refused, with the hours left until 00:00 UTC.
    await group.storage.accounts.adjust(chat, short_id, -190, "lost-again")
    early = until_midnight(clock())
    refusal = await ask(group, short, "/join")
    late = until_midnight(clock())
    assert early[0] >= 1, "the virtual day began in the morning"
    expected = {tr(lang, "chips.short_refill", name=name, balance=10, need=50, floor=200,
                   hours=h, minutes=m) for h, m in (early, late)}
    assert refusal in expected, refusal
    assert str(short.id) not in {s.platform_id for s in seats_of(await open_session(group))}
    # The lobby's link, in the private chat, says the same in their language.
    group.say(short, f"/start {group.join_link()}", chat=short.id)
    note = await told(server, short, before(lang, "chips.short_refill", "hours", name=name,
                                            balance=10, need=50, floor=200, minutes=0))
    expected.add(tr(lang, "chips.short_refill", name=name, balance=10, need=50, floor=200,
                    hours=until_midnight(clock())[0], minutes=until_midnight(clock())[1]))
    assert note.text in expected, note.text
    stopped = group.lobby().message_id
    assert await ask(group, host, "/stop") == tr(lang, "stop.done")

    # Nobody writes overnight; past midnight their next game brings them up to the floor.
    today = day_of(clock())
    await group.quiet(late[0] * 3600 + late[1] * 60 + 5)
    assert day_of(clock()) != today
    group.say(host, "/newgame threedozen 50")
    await server.wait_for(lambda: group._has_lobby() and group.lobby().message_id > stopped)
    assert await ask(group, short, "/join") == tr(lang, "lobby.joined")
    chips = (await ask(group, short, "/chips")).splitlines()
    assert chips[0] == tr(lang, "chips.balance", 200, name=name), chips
    assert not any(line.startswith(before(lang, "chips.refill_due", "floor")) for line in chips)
    assert str(short.id) in {s.platform_id for s in seats_of(await open_session(group))}
    refills = await group.storage.db.read(
        "SELECT amount FROM ledger WHERE chat_id = ? AND user_id = ? AND kind = 'refill' "
        "ORDER BY id", (chat, short_id))
    assert [r["amount"] for r in refills] == [190, 190]
    check_books(group.db)


# ----- a deal's fingerprint and seed ------------------------------------------------------------

SLOW_THINK = (THINK[1], THINK[1] + 3.0)
"""Seconds a person thinks over a move, here: the slow end of a human pace."""
SEED = re.compile(re.escape(tr("uk", "result.seed", seed="SEED", fingerprint="PRINT"))
                  .replace("SEED", "(?P<seed>[0-9a-f]+)")
                  .replace("PRINT", "(?P<print>[0-9a-f]+)"))


def dealt(server: FakeTelegram) -> list[tuple[SentMessage, str, str]]:
    """Each deal's result post in the group, with the seed and fingerprint it names."""
    found = []
    for message in server.messages(GROUP):
        named = SEED.search(message.content or "") if message.has_photo else None
        if named is not None:
            found.append((message, named["seed"], named["print"]))
    return found


def first(calls: list[Call], wanted: str, *, group: bool) -> int | None:
    """The place in `calls` (in the order the server answered them) of the first successful
    call in the group (or, with `group` False, in a private chat) that shows `wanted`."""
    return next((i for i, c in enumerate(calls) if c.ok and c.chat_id is not None
                 and (c.chat_id < 0) == group and wanted in c.caption), None)


async def test_each_deals_seed_is_posted_after_it_and_matches_the_fingerprint_it_showed(
        group: Group, server: FakeTelegram) -> None:
    sid = await group.open_game("threedozen deals=2", (OLENA, BOB), computers=0)
    await group.play(sid, (OLENA, BOB))
    assert group.bot is not None
    await group.bot.drain()
    results = dealt(server)
    assert len(results) == 2, server.summary()
    assert len({seed for _, seed, _ in results}) == 2, "every deal has its own seed"
    calls = server.calls()
    for number, (result, seed, fingerprint) in enumerate(results, 1):
        text = result.content or ""
        assert tr("uk", "result.title", deal=number) in text
        assert re.fullmatch(r"[0-9a-f]{16}", fingerprint) and seeds.matches(seed, fingerprint)
        lines = text.splitlines()
        assert tr("uk", "result.seed", seed=seed, fingerprint=fingerprint) in lines
        command = f".venv/bin/gupai verify {seed} {fingerprint} threedozen"
        verify = tr("uk", "result.verify", command=command)
        assert any(line.startswith(f"{verify} --players 2") for line in lines), text
        # The fingerprint was shown while the deal was played (on the table, on the hands);
        # nothing named the seed until the deal's result did.
        line = tr("uk", "table.fingerprint", fingerprint=fingerprint)
        shown = next(i for i, c in enumerate(calls) if c.ok and line in c.caption)
        posted = next(i for i, c in enumerate(calls) if c.ok and seed in c.caption)
        assert shown < posted, (number, server.summary())
        assert (calls[posted].chat_id, calls[posted].method) == (GROUP, "sendPhoto")
        assert calls[posted].params["caption"] == text


async def test_each_deals_fingerprint_is_on_the_table_before_any_of_its_tiles_are_sent(
        group: Group, server: FakeTelegram) -> None:
    """Two deals at a person's pace: each move takes a little longer than the group's table
    waits between two edits, so every move is shown at once, and the next deal comes while
    the table waits for its next edit. The new deal's hands must not overtake its table: the
    group sees the fingerprint before anyone sees a tile."""
    sid = await group.open_game("threedozen deals=2", (OLENA, BOB), computers=0)
    assert group.budget.spacing < SLOW_THINK[0]
    pace = Pace(7)
    await group.play(sid, (OLENA, BOB), limit=1200, think=lambda: pace.think(SLOW_THINK))
    assert group.bot is not None
    await group.bot.drain()
    results = dealt(server)
    assert len(results) == 2, server.summary()
    calls = server.calls()
    late = []
    for number, (_, _, fingerprint) in enumerate(results, 1):
        shown = first(calls, tr("uk", "table.fingerprint", fingerprint=fingerprint), group=True)
        hand = first(calls, fingerprint, group=False)
        assert shown is not None and hand is not None, (number, server.summary())
        # The table was up (its call answered) before the first hand was even asked for.
        if not calls[shown].answered <= calls[hand].at:
            late.append(f"deal {number}: the table showed {fingerprint} at "
                        f"{calls[shown].answered:.3f}, a hand was sent at {calls[hand].at:.3f}")
    assert late == [], late
