"""A table fixed from a Discord channel, end to end: a host removes a player, a newcomer takes
over a seat, a stuck turn is skipped, the host's role passes on, people hear of new lobbies by
direct message, a person short of chips is refused until the daily refill, and a deal's
fingerprint is shown before its tiles and its seed after them (docs/architecture.md §4–§6).

The real discord.py client and command tree are fed gateway-shaped interactions, as in
`test_discord_e2e`; what people see is read from the fake Discord, the chips from the bot's own
storage. Turn timers and the hours until the refill pass on the virtual clock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

import bot.session.lobby
from bot.present.screens import Place
from bot.service.workers import MAX_LEASE
from bot.session.chips import day_of
from bot.session.manager import Timing
from bot.session.seating import Game, Seat, seats_of
from games import seeds
from storage import Session
from tests.bot.test_discord_e2e import move_choices, open_game, play_deal
from tests.support.books import check_books
from tests.support.discord_server import (
    BOB,
    CHANNEL,
    GUILD,
    KIM,
    OLENA,
    QUICK,
    STRANGER,
    Server,
    attachment_names,
    components,
    custom_ids,
    is_ephemeral,
    text_of,
)
from tests.support.fake_discord import (
    ALL_PERMISSIONS,
    MEMBER_PERMISSIONS,
    User,
    button,
    dm_channel_id,
    slash,
)
from tests.support.logs import no_errors_logged  # noqa: F401 - autouse
from words.i18n import tr

pytestmark = pytest.mark.timeout(120)

ADMIN = User(105, "Admin", "en-US", permissions=ALL_PERMISSIONS)
MODERATOR_RIGHTS = str(int(MEMBER_PERMISSIONS) | discord.Permissions(manage_channels=True).value)
"""A member who may manage channels: not the server's admin, but one of the table's hosts."""
PLACE = Place(str(GUILD), str(CHANNEL))
SECRET = "5eed" * 8
"""A table's secret whose deals are all played out (none is won straight from the deal)."""


@dataclass(frozen=True)
class Cast:
    """People on the server whose clients speak one language, which the server speaks too."""

    lang: str
    host: User
    member: User
    newcomer: User
    latecomer: User
    moderator: User


CASTS = {
    "uk": Cast("uk", OLENA, KIM, User(111, "Тарас", "uk"), User(112, "Марта", "uk"),
               User(113, "Модератор", "uk", permissions=MODERATOR_RIGHTS)),
    "en": Cast("en", BOB, STRANGER, User(121, "Dan", "en-US"), User(122, "Eve", "en-US"),
               User(123, "Moderator", "en-US", permissions=MODERATOR_RIGHTS)),
}
LANGS = pytest.mark.parametrize("lang", ["uk", "en"])



@pytest.fixture(autouse=True)
def known_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table's secret is known, so every deal, and the computer's choices that follow
    from it, are the same on every run: what a test sees does not depend on its luck."""
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=16: SECRET[:2 * n])


@asynccontextmanager
async def started(tmp_path: Path, timing: Timing = QUICK) -> AsyncIterator[Server]:
    running = Server(tmp_path / "discord.sqlite3", timing)
    await running.start()
    yield running
    await running.stop()
    assert running.fake is not None
    assert running.fake.problems == [] and running.fake.unhandled == []
    assert running.fake.limited == []


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with started(tmp_path) as running:
        yield running


@pytest.fixture
async def lone_server(tmp_path: Path) -> AsyncIterator[Server]:
    """The bot alone on its database through a night on the virtual clock: the sweep for the
    games of other processes (every third of a lease: 5 s by default) runs as seldom as the
    setting allows, rather than eleven thousand times a night."""
    async with started(tmp_path, dataclasses.replace(QUICK, lease=MAX_LEASE)) as running:
        yield running


async def speak(server: Server, lang: str) -> None:
    """An admin sets the server's language (its tables and posts)."""
    assert await server.command(ADMIN, "lang", {"language": lang}) == tr(lang, "lang.set")


async def open_session(server: Server) -> Session:
    assert server.bot is not None
    session = await server.bot.manager.open_in(PLACE)
    assert session is not None, "no game is open in the channel"
    return session


def seat_of(session: Session, user: User) -> tuple[int, Seat]:
    """The seat the user sits at, or sat at (left, removed)."""
    return next((i, s) for i, s in enumerate(seats_of(session))
                if s.platform_id == str(user.id))


async def user_id(server: Server, user: User) -> int:
    assert server.storage is not None
    return await server.storage.accounts.user("discord", str(user.id), user.name)


async def chat_id(server: Server) -> int:
    assert server.storage is not None
    return await server.storage.accounts.chat("discord", str(GUILD), "")


def words_before(lang: str, key: str, field: str, **others: object) -> str:
    """The words of catalogue entry `key` that come before its field `field`."""
    return tr(lang, key, **{field: "\x00"}, **others).split("\x00")[0]


def line_with(text: str, lang: str, key: str, field: str) -> str | None:
    """The line of `text` made from catalogue entry `key` (found by its words before
    `field`)."""
    start = words_before(lang, key, field)
    return next((line for line in text.splitlines() if line.startswith(start)), None)


async def move(server: Server, user: User) -> bool:
    """The user plays the first move their ephemeral hand offers; False when it offers none."""
    hand = server.hand(user)
    if hand is None:
        return False
    choices = move_choices(hand)
    if not choices:
        groups = [c for c in custom_ids(hand) if "!pick-" in c]
        if not groups:
            return False
        await server.press(user, hand, groups[0])
        return True
    custom, values = choices[0]
    if values is None:
        toast = await server.press(user, hand, custom)
    else:
        toast = await server.choose(user, hand, custom, values)
    assert toast == "", toast
    return True


def deal_of(session: Session) -> int:
    """The number of the deal the session is at."""
    state = Game.of(session).state(session)
    assert state is not None
    return int(state.match.deal)


async def until_turn_of(server: Server, waiting: User, movers: tuple[User, ...]) -> Session:
    """Those in `movers` play until the turn is `waiting`'s; the session then."""
    assert server.bot is not None
    for _ in range(200):
        session = await open_session(server)
        to_move = server.bot.manager.turns.mover(session)
        if to_move is not None and seats_of(session)[to_move].platform_id == str(waiting.id):
            return session
        if not any([await move(server, u) for u in movers]):
            await asyncio.sleep(0.05)
            await server.drain()
    raise AssertionError("the turn never came: " + text_of(server.table()))


# ----- removing a player ------------------------------------------------------------------------

@LANGS
async def test_a_removed_player_is_played_for_no_chips_and_cannot_come_back(server, lang):
    cast = CASTS[lang]
    host, member, kicked = cast.host, cast.member, cast.newcomer
    assert server.storage is not None and server.fake is not None
    await speak(server, lang)
    await open_game(server, {"game": "tiengow", "options": "deals=2"}, (host, member, kicked), 1)
    for user in (host, member, kicked):
        await server.my_tiles(user)
    session = await open_session(server)
    kicked_id, chat = await user_id(server, kicked), await chat_id(server)
    brought = (await server.storage.tables.held(session.id))[kicked_id]
    assert brought > 0

    # Neither the host nor an admin: refused, in the asker's language, and nothing changes.
    refused = await server.command(member, "kick", {"player": kicked})
    assert refused == tr(lang, "host.rights")
    assert seat_of(await open_session(server), kicked)[1].person

    answer = await server.command(host, "kick", {"player": kicked})
    assert answer == tr(lang, "host.removed", name=kicked.name)
    assert all(is_ephemeral(m) for m in server.fake.messages.values()
               if m["interaction_token"] and text_of(m) == answer)
    index, seat = seat_of(await open_session(server), kicked)
    assert seat.gone == "removed" and seat.automatic and not seat.person
    assert seat.staked == kicked_id, "at stake in the deal under way, as a loser could not leave"
    # The table names the seat among those the computer plays; the removed player's own hand
    # says why, in their language, and offers no move.
    free = line_with(text_of(server.table()), lang, "table.free", "names")
    assert free is not None and kicked.name in free, text_of(server.table())
    hand = server.hand(kicked)
    assert hand is not None
    assert tr(lang, "host.removed_you", name=host.name) in text_of(hand)
    assert move_choices(hand) == []
    # They cannot sit down again, not even on the seat they had.
    assert await server.command(kicked, "join") == tr(lang, "host.removed_before")
    assert seat_of(await open_session(server), kicked)[1].gone == "removed"

    # The deal ends: their chips come back off the table, with what the deal paid them.
    await play_deal(server, (host, member))
    held = await server.storage.tables.held(session.id)
    assert kicked_id not in held and set(held) == {await user_id(server, host),
                                                    await user_id(server, member)}
    rows = await server.storage.db.read(
        "SELECT COALESCE(SUM(amount), 0) AS won FROM ledger WHERE user_id = ? AND chat_id = ? "
        "AND kind = 'settlement'", (kicked_id, chat))
    wallet = await server.storage.accounts.wallet(chat, kicked_id)
    assert wallet.held == 0 and wallet.balance == 1000 + rows[0]["won"]
    check_books(server.db)

    # The next deal: the computer plays the seat for nothing.
    for _ in range(100):
        session = await open_session(server)
        if seats_of(session)[index].staked is None:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the second deal did not start")
    await play_deal(server, (host, member))
    deals = await server.storage.db.read(
        "SELECT d.deal_no, s.staked, s.delta FROM deal_seats s JOIN deals d ON d.id = s.deal_id "
        "WHERE s.user_id = ? AND d.session_id = ? ORDER BY d.deal_no", (kicked_id, session.id))
    assert [(r["deal_no"], r["staked"]) for r in deals] == [(0, 1), (1, 0)]
    assert deals[1]["delta"] == 0
    assert (await server.storage.accounts.wallet(chat, kicked_id)).balance == wallet.balance
    assert await server.storage.tables.held(session.id) == {}
    check_books(server.db)


@LANGS
async def test_the_host_or_a_moderator_removes_a_player_from_a_lobby(server, lang):
    cast = CASTS[lang]
    assert server.fake is not None
    await speak(server, lang)
    await server.command(cast.host, "newgame", {"game": "threedozen"})
    for user in (cast.member, cast.newcomer):
        toast = await server.press(user, server.table(), server.data(server.table(), "!join"))
        assert toast == tr(lang, "lobby.joined")
    assert cast.member.name in text_of(server.table())

    refused = await server.command(cast.newcomer, "kick", {"player": cast.member})
    assert refused == tr(lang, "host.rights")
    answer = await server.command(cast.host, "kick", {"player": cast.member})
    assert answer == tr(lang, "host.removed", name=cast.member.name)
    lobby = text_of(server.table())
    assert cast.member.name not in lobby and cast.newcomer.name in lobby
    session = await open_session(server)
    assert str(cast.member.id) not in {s.platform_id for s in seats_of(session)}
    notes = [text_of(m) for m in server.fake.ephemerals_for(cast.member.id)]
    assert tr(lang, "host.removed_you_lobby", name=cast.host.name) in notes, notes
    # Whoever may manage the channel may remove a player too, without sitting at the table.
    answer = await server.command(cast.moderator, "kick", {"player": cast.newcomer})
    assert answer == tr(lang, "host.removed", name=cast.newcomer.name)
    assert [s.platform_id for s in seats_of(await open_session(server))] == [str(cast.host.id)]
    # Someone who is not at the table is not found there.
    missing = await server.command(cast.host, "kick", {"player": cast.latecomer})
    assert missing == tr(lang, "host.no_such_player", name=cast.latecomer.name)


# ----- taking over a seat -----------------------------------------------------------------------

@LANGS
async def test_a_newcomer_takes_over_the_computers_seat(server, lang):
    cast = CASTS[lang]
    await speak(server, lang)
    await open_game(server, {"game": "threedozen"}, (cast.host, cast.member), 1)
    table = server.table()
    free = line_with(text_of(table), lang, "table.free", "names")
    assert free is not None
    assert any(c.endswith("!join") for c in custom_ids(table))
    index = next(i for i, s in enumerate(seats_of(await open_session(server))) if s.computer)

    answer = await server.command(cast.newcomer, "join")
    assert answer == tr(lang, "host.took_seat", name=cast.newcomer.name)
    session = await open_session(server)
    seat = seats_of(session)[index]
    assert (seat.platform_id, seat.name, seat.computer) == (str(cast.newcomer.id),
                                                            cast.newcomer.name, False)
    assert seat.staked is None, "a newcomer plays for chips from the next deal on"
    # Nobody left for the computer: no "take a seat" line and no Join button on the table.
    table = server.table()
    assert line_with(text_of(table), lang, "table.free", "names") is None, text_of(table)
    assert not any(c.endswith("!join") for c in custom_ids(table))
    assert cast.newcomer.name in text_of(table)
    # Their tiles are theirs: "My tiles" shows the hand, and a later newcomer finds no seat.
    hand = await server.my_tiles(cast.newcomer)
    assert "hand.png" in attachment_names(hand) and is_ephemeral(hand)
    assert await server.command(cast.latecomer, "join") == tr(lang, "host.no_seat")


@LANGS
async def test_a_newcomer_takes_over_the_seat_of_a_player_who_is_away(server, lang):
    cast = CASTS[lang]
    host, away, newcomer = cast.host, cast.member, cast.newcomer
    assert server.fake is not None
    await speak(server, lang)
    await open_game(server, {"game": "threedozen"}, (host, away), 0)
    for user in (host, away):
        await server.my_tiles(user)
    loop = asyncio.get_running_loop()
    began = loop.time()
    # The host plays; the other player never does, and misses two turns as the clock runs.
    while not seat_of(await open_session(server), away)[1].away:
        assert loop.time() - began < 10 * 60, "two missed turns take minutes, not ten"
        if not await move(server, host):
            await asyncio.sleep(1.0)
            await server.drain()
    assert loop.time() - began > 2 * 60, "a missed turn waits for its timer"
    notes = [text_of(m) for m in server.fake.ephemerals_for(away.id)]
    assert tr(lang, "hand.now_away") in notes, notes

    answer = await server.command(newcomer, "join")
    assert answer == tr(lang, "host.took_seat", name=newcomer.name)
    session = await open_session(server)
    _, seat = seat_of(session, newcomer)
    assert not seat.away and not seat.gone and seat.person
    assert str(away.id) not in {s.platform_id for s in seats_of(session)}
    assert newcomer.name in text_of(server.table())
    # The player who was away is told, on the hand they had open, in their language.
    hand = server.hand(away)
    assert hand is not None
    assert tr(lang, "host.seat_taken_from_you", name=newcomer.name) in text_of(hand)
    assert move_choices(hand) == []
    check_books(server.db)


# ----- the host's other controls ----------------------------------------------------------------

async def test_the_host_skips_a_stuck_turn_at_once(server):
    assert server.bot is not None
    await speak(server, "uk")
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    for user in (OLENA, BOB):
        await server.my_tiles(user)
    before = await until_turn_of(server, BOB, (OLENA,))
    index, _ = seat_of(before, BOB)
    loop = asyncio.get_running_loop()
    asked = loop.time()
    assert before.deadline is not None

    assert await server.command(BOB, "skip") == tr("en", "host.rights")
    assert (await open_session(server)).version == before.version
    answer = await server.command(OLENA, "skip")
    assert answer == tr("uk", "host.skipped", name="Bob")
    after = await open_session(server)
    assert after.version > before.version
    assert deal_of(after) == deal_of(before)
    assert server.bot.manager.turns.mover(after) != index, "the computer played Bob's turn"
    assert seats_of(after)[index].misses == 1, "a skipped turn counts as a missed one"
    # At once: the clock is nowhere near the turn's deadline.
    assert loop.time() - asked < 5
    assert server.bot.manager.clock() < before.deadline - 60
    hand = server.hand(BOB)
    assert hand is not None and move_choices(hand) == []


async def test_a_creator_who_leaves_hands_the_table_to_the_next_person(server):
    assert server.bot is not None and server.fake is not None
    await speak(server, "en")
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB, KIM), 0)
    table_id = int(server.table()["id"])
    assert tr("en", "table.host", name="Олена") in text_of(server.table())

    assert await server.command(OLENA, "leave") == tr("uk", "table.left_game", name="Олена")
    shown = text_of(server.fake.messages[table_id])
    assert tr("en", "table.host", name="Bob") in shown, shown
    assert tr("en", "table.host", name="Олена") not in shown
    # The role went with the seat: the one who left, and the one after, can no longer skip.
    assert await server.command(OLENA, "skip") == tr("uk", "host.rights")
    assert await server.command(KIM, "skip") == tr("uk", "host.rights")

    for user in (BOB, KIM):
        await server.my_tiles(user)
    session = await until_turn_of(server, KIM, (BOB,))
    assert await server.command(BOB, "skip") == tr("en", "host.skipped", name="Кім")
    assert (await open_session(server)).version > session.version

    assert await server.command(KIM, "stop") == tr("uk", "err.stop_rights")
    assert await server.command(BOB, "stop") == tr("en", "stop.done")
    assert server.bot is not None and await server.bot.manager.open_in(PLACE) is None
    # (the computer's move may have ended the deal: then the match stops between deals)
    shown = text_of(server.fake.messages[table_id])
    assert tr("en", "stop.mid_deal", name="Bob") in shown or \
        tr("en", "stop.between", name="Bob") in shown, shown


# ----- hearing of new lobbies -------------------------------------------------------------------

@LANGS
async def test_notify_brings_one_direct_message_whose_button_joins(server, lang):
    cast = CASTS[lang]
    listener, closed = cast.member, cast.newcomer
    assert server.fake is not None
    await speak(server, lang)
    for user in (listener, closed, cast.host):
        assert await server.command(user, "notify") == tr(lang, "notify.on")
    server.fake.closed_dms.add(closed.id)

    answer = await server.command(cast.host, "newgame", {"game": "threedozen", "stake": 2})
    assert tr(lang, "discord.lobby_open") in answer
    lobby = server.table()
    (dm,) = server.fake.channel_messages(dm_channel_id(listener.id))
    assert text_of(dm).startswith(words_before(lang, "notify.opened", "chat", game="",
                                                stake=2))
    assert "×2" in text_of(dm)
    (join,) = components(dm)
    assert join["label"] == tr(lang, "btn.join") and join["custom_id"].endswith("!join")
    # Whoever opened it is not told, and closed direct messages are no error (the fixtures
    # fail a test whose handlers logged one).
    assert server.fake.channel_messages(dm_channel_id(cast.host.id)) == []
    assert server.fake.channel_messages(dm_channel_id(closed.id)) == []
    refused = [c for c in server.fake.calls
               if c.path == f"/channels/{dm_channel_id(closed.id)}/messages"]
    assert [c.status for c in refused] == [403]

    # The button in the direct message seats its reader in the lobby.
    payload = await server.act(button(join["custom_id"], user=listener, message=dm,
                                      guild_id=None))
    assert server.answer_text(payload) == tr(lang, "lobby.joined")
    session = await open_session(server)
    assert str(listener.id) in {s.platform_id for s in seats_of(session)}
    assert listener.name in text_of(server.fake.messages[int(lobby["id"])])
    # Once per lobby: the lobby changing and starting brings no second message.
    await server.press(closed, server.table(), server.data(server.table(), "!join"))
    await server.press(cast.host, server.table(), server.data(server.table(), "!start"))
    assert len(server.fake.channel_messages(dm_channel_id(listener.id))) == 1
    assert server.fake.channel_messages(dm_channel_id(closed.id)) == []


# ----- the daily refill -------------------------------------------------------------------------

def until_midnight(now: float) -> tuple[int, int]:
    """Hours and minutes (rounded up) from `now` to the next 00:00 UTC."""
    moment = datetime.fromtimestamp(now, UTC)
    midnight = datetime.combine(moment.date() + timedelta(days=1), datetime.min.time(), UTC)
    minutes = math.ceil((midnight - moment).total_seconds() / 60)
    return minutes // 60, minutes % 60


@LANGS
async def test_a_player_short_of_chips_waits_for_the_refill_at_midnight(lone_server, lang):
    server = lone_server
    cast = CASTS[lang]
    host, short = cast.host, cast.member
    assert server.storage is not None and server.bot is not None and server.fake is not None
    clock = server.bot.manager.clock
    await speak(server, lang)
    answer = await server.command(ADMIN, "settings", {"setting": "floor", "value": "200"})
    assert answer == tr(lang, "settings.saved")
    chat, short_id = await chat_id(server), await user_id(server, short)
    assert tr(lang, "chips.balance", 1000, name=short.name) in await server.command(short, "chips")
    await server.storage.accounts.adjust(chat, short_id, -990, "lost-elsewhere")
    chips = await server.command(short, "chips")
    assert tr(lang, "chips.refill_due", floor=200) in chips, chips

    # The first game of the day brings them up to the floor.
    await server.command(host, "newgame", {"game": "threedozen", "stake": 50})
    assert await server.command(short, "join") == tr(lang, "lobby.joined")
    assert tr(lang, "chips.balance", 200, name=short.name) in await server.command(short, "chips")
    assert await server.command(short, "leave") == tr(lang, "lobby.left")

    # Drained again the same day: refused, privately, with the hours left until 00:00 UTC.
    await server.storage.accounts.adjust(chat, short_id, -190, "lost-again")
    early = until_midnight(clock())
    payload = await server.act(slash("join", user=short))
    late = until_midnight(clock())
    (refusal,) = server.answers(payload)
    assert is_ephemeral(refusal)
    expected = {tr(lang, "chips.short_refill", name=short.name, balance=10, need=50, floor=200,
                   hours=h, minutes=m) for h, m in (early, late)}
    assert text_of(refusal) in expected, text_of(refusal)
    assert early[0] >= 1, "the virtual day began in the morning"
    session = await open_session(server)
    assert str(short.id) not in {s.platform_id for s in seats_of(session)}
    assert await server.command(host, "stop") == tr(lang, "stop.done")

    # Past midnight on the virtual clock, their next game brings them up to the floor again.
    today = day_of(clock())
    await asyncio.sleep(late[0] * 3600 + late[1] * 60 + 5)
    assert day_of(clock()) != today
    await server.command(host, "newgame", {"game": "threedozen", "stake": 50})
    assert await server.command(short, "join") == tr(lang, "lobby.joined")
    chips = await server.command(short, "chips")
    assert tr(lang, "chips.balance", 200, name=short.name) in chips, chips
    assert str(short.id) in {s.platform_id for s in seats_of(await open_session(server))}
    check_books(server.db)


# ----- a deal's fingerprint and seed ------------------------------------------------------------

async def test_the_fingerprint_is_shown_before_the_tiles_and_the_seed_after(server):
    assert server.fake is not None
    await speak(server, "uk")
    await open_game(server, {"game": "threedozen", "options": "deals=1"}, (OLENA, BOB), 0)
    assert server.hand(OLENA) is None and server.hand(BOB) is None
    line = line_with(text_of(server.table()), "uk", "table.fingerprint", "fingerprint")
    assert line is not None, text_of(server.table())
    fingerprint = line.rsplit(" ", 1)[-1]
    assert re.fullmatch(r"[0-9a-f]{16}", fingerprint), line
    hand = await server.my_tiles(OLENA)
    assert fingerprint in text_of(hand)
    # The channel had it before any hand was drawn for anyone.
    shown = next(c.index for c in server.fake.calls if fingerprint in str(c.json))
    drawn = next(c.index for c in server.fake.calls if any(n == "hand.png" for n, _ in c.files))
    assert shown < drawn
    assert server.fake.calls[shown].path.startswith(f"/channels/{CHANNEL}/messages")

    await play_deal(server, (OLENA, BOB))
    (result,) = server.results()
    text = text_of(result)
    pattern = re.escape(tr("uk", "result.seed", seed="SEED", fingerprint="PRINT"))
    found = re.search(pattern.replace("SEED", "(?P<seed>[0-9a-f]+)")
                      .replace("PRINT", "(?P<print>[0-9a-f]+)"), text)
    assert found is not None, text
    seed = found["seed"]
    assert found["print"] == fingerprint and seeds.matches(seed, fingerprint)
    assert seed == seeds.deal_seed(SECRET, 0), "the first deal's seed, from the table's secret"
    assert f"gupai verify {seed} {fingerprint} threedozen" in text
    # Nothing before the result named the seed.
    posted = next(c.index for c in server.fake.calls if seed in str(c.json))
    assert posted >= next(c.index for c in server.fake.calls
                          if any(n == "result.png" for n, _ in c.files))
