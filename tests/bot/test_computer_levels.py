"""Computer players' levels at a table: chosen in the lobby, a chat's default in `/settings`,
kept with the seat, and played by the timers (a strong seat off the event loop)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

import bot.session.timers
from bot.present import payload
from bot.session.commands import Commands
from bot.session.seating import Game, Seat
from games import GAMES
from games.engine import rng
from games.players import LEVELS, make_player
from tests.support.session_helpers import (
    BOB,
    FAST,
    OLENA,
    PLACE,
    SLOW,
    Recorder,
    anyone,
    close,
    fix_seed,
    manager,
    nobody,
    play_out,
)
from words.catalogue import CATALOGUE
from words.i18n import tr


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    fix_seed(monkeypatch, "1e7e1" * 16)


def lobby_buttons(rec: Recorder) -> list[tuple[str, str]]:
    assert rec.table is not None
    return [(b.label, b.data.split(":", 3)[3]) for row in rec.table.keyboard for b in row
            if b.data]


async def write(m, sql: str, params: tuple[Any, ...]) -> None:
    async with m.storage.db.write() as conn:
        await conn.execute(sql, params)


async def stored_levels(m, sid: int) -> list[tuple[bool, str]]:
    session = await m.storage.sessions.get(sid)
    return [(s["computer"], s["level"]) for s in session.seats]


# ----- the lobby ----------------------------------------------------------------------------------

async def test_each_level_is_one_tap_and_the_lobby_names_every_computers_level(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        sid = (await m.open_in(PLACE)).id
        rows = [[b.data.split(":", 3)[3] for b in row if b.data] for row in rec.table.keyboard]
        assert ["!add-easy", "!add", "!add-strong"] in rows, "one row, the chat's level plain"
        labels = dict((code, label) for label, code in lobby_buttons(rec))
        assert (labels["!add-easy"], labels["!add"], labels["!add-strong"]) == (
            "+🤖 Легкий", "+🤖 Звичайний", "+🤖 Сильний")
        toast = (await m.press(OLENA, rec.button(rec.table, "!add-strong").data)).toast
        assert toast == tr("uk", "lobby.added")
        await m.press(OLENA, rec.button(rec.table, "!add-easy").data)
        await m.press(OLENA, rec.button(rec.table, "!add").data)
        lines = rec.table.text.splitlines()
        assert "2. Комп'ютер 1 (сильний)" in lines and "3. Комп'ютер 2 (легкий)" in lines
        assert "4. Комп'ютер 3 (звичайний)" in lines and "1. Олена" in lines
        assert await stored_levels(m, sid) == [(False, "normal"), (True, "strong"),
                                               (True, "easy"), (True, "normal")]
        # Removing takes the last one added; the others keep their levels.
        await m.press(OLENA, rec.button(rec.table, "!remove").data)
        assert await stored_levels(m, sid) == [(False, "normal"), (True, "strong"),
                                               (True, "easy")]
    finally:
        await close(m)


async def test_the_lobby_names_levels_in_the_chats_language(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, BOB, ["tails"])
        await m.press(BOB, rec.button(rec.table, "!add-strong").data)
        assert "2. Computer 1 (strong)" in rec.table.text.splitlines()
        assert [label for label, code in lobby_buttons(rec) if code.startswith("!add")] == [
            "+🤖 Easy", "+🤖 Normal", "+🤖 Strong"]
    finally:
        await close(m)


async def test_forged_and_stale_level_presses_are_refused_and_change_nothing(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        before = await m.open_in(PLACE)
        for code in ("!add-mighty", "!add-", "!add-normal-strong", "!add-heuristic",
                     "!add-random", "!add-STRONG"):
            reply = await m.press(OLENA, f"g:{before.id}:{before.version}:{code}")
            assert reply.toast == tr("uk", "err.forged"), code
        after = await m.open_in(PLACE)
        assert (after.version, after.seats) == (before.version, before.seats)
        # A level press from someone not at the table: refused, nothing added.
        foreign = await m.press(BOB, rec.button(rec.table, "!add-strong").data)
        assert foreign.toast == tr("en", "err.not_in_game")
        # Stale: the lobby's buttons once the game has begun.
        add = rec.button(rec.table, "!add-strong").data
        await m.press(OLENA, add)
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        started = await m.open_in(PLACE)
        assert (await m.press(OLENA, add)).toast == tr("uk", "err.started")
        again = await m.open_in(PLACE)
        assert (again.version, again.seats, again.state) == (
            started.version, started.seats, started.state)
    finally:
        await close(m)


async def test_a_session_saved_before_levels_loads_and_its_computers_play_normal(tmp_path,
                                                                                 monkeypatch):
    """Seats saved by an earlier release have no level: they load, show and play as `normal`,
    the only level there was."""
    assert Seat.from_json({"user_id": 3, "name": "Комп'ютер 1", "platform_id": "computer-1",
                           "computer": True, "away": False, "misses": 0}).level == "normal"
    m, rec = await manager(tmp_path / "db", SLOW)
    await m.new_game(PLACE, OLENA, ["dragon", "deals=1"])
    await m.press(OLENA, rec.button(rec.table, "!add-strong").data)
    sid = (await m.open_in(PLACE)).id
    old = [{k: v for k, v in seat.items() if k != "level"}
           for seat in (await m.storage.sessions.get(sid)).seats]
    await write(m, "UPDATE sessions SET seats = ? WHERE id = ?", (json.dumps(old), sid))
    await close(m)
    chosen = record_levels(monkeypatch)
    m, rec = await manager(tmp_path / "db", FAST)  # a restart finds the old seats
    try:
        await m.restore()
        assert "2. Комп'ютер 1 (звичайний)" in rec.table.text.splitlines()
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        await play_out(m, rec, [OLENA])
        assert (await m.storage.sessions.get(sid)).status == "finished"
        assert chosen and {c.level for c in chosen} == {"normal"}
    finally:
        await close(m)


async def test_play_again_keeps_each_computers_level(tmp_path):
    m, rec = await manager(tmp_path / "db", FAST)
    try:
        await m.new_game(PLACE, OLENA, ["tails", "deals=1"])
        await m.press(OLENA, rec.button(rec.table, "!add-easy").data)
        await m.press(OLENA, rec.button(rec.table, "!add-strong").data)
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        await play_out(m, rec, [OLENA])
        again = rec.button(rec.posts[-1], payload.AGAIN).data
        assert (await m.press(OLENA, again)).toast == tr("uk", "again.opened")
        lines = rec.table.text.splitlines()
        assert "2. Комп'ютер 1 (легкий)" in lines and "3. Комп'ютер 2 (сильний)" in lines
    finally:
        await close(m)


# ----- the chat's level in /settings --------------------------------------------------------------

async def test_admins_choose_the_chats_level_and_a_plain_add_uses_it(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    commands = Commands(m)
    try:
        shown = (await commands.run("settings", PLACE, OLENA, [], nobody)).answer.text
        assert "рівень комп'ютерів: звичайний (/settings level easy|normal|strong)" in shown
        refused = await commands.run("settings", PLACE, OLENA, ["level", "strong"], nobody)
        assert refused.answer.text == tr("uk", "err.admins_only")
        chat_id, _ = await m.chat_of(PLACE)
        assert (await m.chat_settings(chat_id)).level == "normal"
        for words in (["level", "hard"], ["level", "сильний"], ["level", "heuristic"]):
            bad = (await commands.run("settings", PLACE, OLENA, words, anyone)).answer.text
            assert bad == tr("uk", "settings.bad_level", level=words[1],
                             levels="easy, normal, strong")
        for words in (["level"], ["level", "easy", "strong"]):
            usage = (await commands.run("settings", PLACE, OLENA, words, anyone)).answer.text
            assert usage == tr("uk", "settings.usage") and "level easy|normal|strong" in usage
        assert (await m.chat_settings(chat_id)).level == "normal"
        saved = await commands.run("settings", PLACE, OLENA, ["level", "Strong"], anyone)
        assert saved.answer.text == tr("uk", "settings.saved")
        assert (await m.chat_settings(chat_id)).level == "strong"
        shown = (await commands.run("settings", PLACE, OLENA, [], nobody)).answer.text
        assert "рівень комп'ютерів: сильний" in shown

        await m.new_game(PLACE, OLENA, ["dragon"])
        codes = [code for _, code in lobby_buttons(rec) if code.startswith("!add")]
        assert codes == ["!add-easy", "!add-normal", "!add"]
        await m.press(OLENA, rec.button(rec.table, "!add").data)
        await m.press(OLENA, rec.button(rec.table, "!add-normal").data)
        sid = (await m.open_in(PLACE)).id
        assert await stored_levels(m, sid) == [(False, "normal"), (True, "strong"),
                                               (True, "normal")]
    finally:
        await close(m)


async def test_a_database_from_before_levels_reads_the_usual_level(tmp_path):
    """Chat settings are one JSON text: an older database's has no level, and reads as
    `normal` with everything else kept; a stored level this release does not know is taken
    as `normal` too, never an error."""
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        chat_id, _ = await m.chat_of(PLACE, OLENA)
        await write(m, "UPDATE chats SET settings = ? WHERE id = ?",
                    (json.dumps({"turn_timeout": 45, "mentions": False}), chat_id))
        m.forget_settings(chat_id)
        settings = await m.chat_settings(chat_id)
        assert (settings.level, settings.turn_timeout, settings.mentions) == ("normal", 45, False)
        updated = await m.storage.accounts.update_settings(chat_id, level="easy")
        assert (updated.level, updated.turn_timeout, updated.mentions) == ("easy", 45, False)
        await write(m, "UPDATE chats SET settings = ? WHERE id = ?",
                    (json.dumps({"level": "grandmaster"}), chat_id))
        m.forget_settings(chat_id)
        await m.new_game(PLACE, OLENA, ["dragon"])
        await m.press(OLENA, rec.button(rec.table, "!add").data)
        assert "2. Комп'ютер 1 (звичайний)" in rec.table.text.splitlines()
        shown = (await Commands(m).run("settings", PLACE, OLENA, [], nobody)).answer.text
        assert "рівень комп'ютерів: звичайний" in shown
    finally:
        await close(m)


# ----- a game whose strong player plays no better than its normal one ---------------------------

WITHOUT_STRONG = [game for game, rules in GAMES.items() if "strong" not in rules.levels]


def test_some_game_offers_no_strong_level():
    """The tests below need one (`Rules.levels`, docs/playing.md: the games and their levels)."""
    assert WITHOUT_STRONG


@pytest.mark.parametrize("game", WITHOUT_STRONG)
async def test_a_game_without_a_stronger_strong_has_no_strong_button_and_refuses_one(
        tmp_path, game):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, BOB, [game])
        assert [label for label, code in lobby_buttons(rec) if code.startswith("!add")] == [
            "+🤖 Easy", "+🤖 Normal"]
        assert "Strong" not in " ".join(label for label, _ in lobby_buttons(rec))
        before = await m.open_in(PLACE)
        reply = await m.press(BOB, f"g:{before.id}:{before.version}:!add-strong")
        assert reply.toast == tr("en", "err.level_not_offered")
        assert reply.toast == ("This game has no computer at that level: it would play no "
                               "better than at the level below.")
        after = await m.open_in(PLACE)
        assert (after.version, after.seats) == (before.version, before.seats)
        await m.press(BOB, rec.button(rec.table, "!add-easy").data)
        assert await stored_levels(m, before.id) == [(False, "normal"), (True, "easy")]
    finally:
        await close(m)


async def test_a_chat_whose_level_is_strong_gets_the_strongest_level_such_a_game_offers(
        tmp_path):
    game = WITHOUT_STRONG[0]
    m, rec = await manager(tmp_path / "db", SLOW)
    commands = Commands(m)
    try:
        saved = await commands.run("settings", PLACE, OLENA, ["level", "strong"], anyone)
        assert saved.answer.text == tr("uk", "settings.saved")
        await m.new_game(PLACE, OLENA, [game])
        codes = [code for _, code in lobby_buttons(rec) if code.startswith("!add")]
        assert codes == ["!add-easy", "!add"], "the plain add: the strongest level offered"
        reply = await m.press(OLENA, rec.button(rec.table, "!add").data)
        assert reply.toast == tr("uk", "lobby.added")
        sid = (await m.open_in(PLACE)).id
        assert await stored_levels(m, sid) == [(False, "normal"), (True, "normal")]
        assert "2. Комп'ютер 1 (звичайний)" in rec.table.text.splitlines()
        # The other games still offer strong, and the chat's plain add gives it there.
        await m.press(OLENA, rec.button(rec.table, "!leave").data)
        await m.new_game(PLACE, OLENA, ["dragon"])
        codes = [code for _, code in lobby_buttons(rec) if code.startswith("!add")]
        assert codes == ["!add-easy", "!add-normal", "!add"]
    finally:
        await close(m)


async def test_play_again_seats_a_computer_at_a_level_the_game_offers(tmp_path):
    """A seat kept at a level its game no longer offers (a table from an earlier release)
    comes back at the strongest level the game offers."""
    game = WITHOUT_STRONG[0]
    m, rec = await manager(tmp_path / "db", FAST)
    try:
        await m.new_game(PLACE, OLENA, [game, "deals=1"])
        await m.press(OLENA, rec.button(rec.table, "!add").data)
        sid = (await m.open_in(PLACE)).id
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        await play_out(m, rec, [OLENA])
        seats = (await m.storage.sessions.get(sid)).seats
        older = [dict(seat, level="strong") if seat["computer"] else seat for seat in seats]
        await write(m, "UPDATE sessions SET seats = ? WHERE id = ?", (json.dumps(older), sid))
        again = rec.button(rec.posts[-1], payload.AGAIN).data
        assert (await m.press(OLENA, again)).toast == tr("uk", "again.opened")
        assert "2. Комп'ютер 1 (звичайний)" in rec.table.text.splitlines()
        new = (await m.open_in(PLACE)).id
        assert await stored_levels(m, new) == [(False, "normal"), (True, "normal")]
    finally:
        await close(m)


# ----- the move is made by the seat's level -------------------------------------------------------

@dataclass(frozen=True)
class Choice:
    level: str
    off_loop: bool
    """Made in another thread than the event loop's."""
    rng_state: Any
    """The generator's state it was handed."""


def record_levels(monkeypatch, hold: float = 0.0) -> list[Choice]:
    """Every computer choice from now on. `hold`: each choice also takes this long (a
    thinking player, made slow)."""
    chosen: list[Choice] = []
    loop_thread = threading.get_ident()
    real = bot.session.timers.make_player

    class Watched:
        def __init__(self, game: str, level: str) -> None:
            self.level = level
            self.inner = real(game, level)

        def choose(self, view: Any, choice_rng: Any) -> Any:
            chosen.append(Choice(self.level, threading.get_ident() != loop_thread,
                                 choice_rng.getstate()))
            if hold:
                time.sleep(hold)
            return self.inner.choose(view, choice_rng)

    monkeypatch.setattr(bot.session.timers, "make_player", Watched)
    return chosen


async def test_computers_move_at_their_level_and_an_away_person_at_the_usual_one(
        tmp_path, monkeypatch):
    chosen = record_levels(monkeypatch)
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        await m.join(PLACE, BOB)
        await m.press(OLENA, rec.button(rec.table, "!add-strong").data)
        await m.press(OLENA, rec.button(rec.table, "!add-easy").data)
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        sid = (await m.open_in(PLACE)).id
        await m.leave(PLACE, BOB)  # Bob's seat is now played by the computer
        seen: dict[int, set[str]] = {}
        for _ in range(40):
            session = await m.session(sid)
            if session is None or session.state is None:
                break
            game = Game.of(session)
            state = game.state(session)
            if game.rules.outcome(state) is not None:
                break
            mover = game.rules.to_move(state)
            before = len(chosen)
            await m.timers.due(session)  # the mover's time is up, whoever it is
            seen.setdefault(mover, set()).update(c.level for c in chosen[before:])
        assert seen.get(1) == {"normal"}, "Bob is away: played at the usual level"
        assert seen.get(2) == {"strong"} and seen.get(3) == {"easy"}
        assert seen.get(0) == {"normal"}, "Olena's time ran out: the usual level"
        assert all(c.off_loop for c in chosen if c.level == "strong")
        assert not any(c.off_loop for c in chosen if c.level != "strong")
    finally:
        await close(m)


async def test_a_strong_choice_keeps_the_tables_seeded_tie_breaks(tmp_path, monkeypatch):
    """The strong seat's move is the one its search makes from the session's own generator
    (as every computer's is): the same table plays the same game on any machine."""
    chosen = record_levels(monkeypatch)
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["tails"])
        await m.press(OLENA, rec.button(rec.table, "!add-strong").data)
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        sid = (await m.open_in(PLACE)).id
        strong = 0
        for _ in range(30):
            session = await m.session(sid)
            game = Game.of(session)
            state = game.state(session)
            if game.rules.outcome(state) is not None:
                break
            mover = game.rules.to_move(state)
            await m.timers.due(session)
            if mover != 1:
                continue
            strong += 1
            seeded = rng(game.seed, f"computer/{state.match.deal}/{state.version}")
            assert chosen[-1].level == "strong"
            assert chosen[-1].rng_state == seeded.getstate()
            seeded = rng(game.seed, f"computer/{state.match.deal}/{state.version}")
            expected = make_player("tails", "strong").choose(game.rules.view(state, 1), seeded)
            replayed, _ = game.rules.apply(state, expected)
            after = await m.session(sid)
            assert game.rules.dumps(replayed) == after.state
        assert strong >= 2
    finally:
        await close(m)


async def test_the_event_loop_answers_while_a_strong_computer_thinks(tmp_path, monkeypatch):
    chosen = record_levels(monkeypatch, hold=0.4)
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["tails"])
        await m.press(OLENA, rec.button(rec.table, "!add-strong").data)
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        sid = (await m.open_in(PLACE)).id
        session = await m.session(sid)
        game = Game.of(session)
        while game.rules.to_move(game.state(session)) != 1:
            await m.timers.due(session)
            session = await m.session(sid)
            # (the fixed seed deals a hand that reaches the computer's turn)
            assert game.rules.outcome(game.state(session)) is None
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.ensure_future(ticker())
        started = time.monotonic()
        await m.timers.due(session)
        took = time.monotonic() - started
        task.cancel()
        assert (chosen[-1].level, chosen[-1].off_loop) == ("strong", True)
        assert took >= 0.4 and ticks >= 10, "the loop ran while the computer thought"
    finally:
        await close(m)


# ----- the catalogue ------------------------------------------------------------------------------

def test_every_level_has_a_name_and_a_button_in_both_languages():
    for lang in ("uk", "en"):
        for level in LEVELS:
            assert f"level.{level}" in CATALOGUE[lang] and f"btn.add_{level}" in CATALOGUE[lang]
        assert len({CATALOGUE[lang][f"btn.add_{level}"] for level in LEVELS}) == len(LEVELS)


def test_the_level_buttons_fit_a_payload_and_a_discord_row():
    assert all(len(payload.encode(10**11, 10**8, f"!add-{level}").encode()) <= 64
               for level in LEVELS)
    assert len(LEVELS) <= 5



# ----- both platforms, end to end -----------------------------------------------------------------

async def test_a_strong_computer_plays_a_telegram_game_to_its_end(tmp_path, monkeypatch):
    from tests.support.fake_telegram import FakeTelegram
    from tests.support.telegram_group import BOB as TG_BOB
    from tests.support.telegram_group import GROUP, Group
    from tests.support.telegram_group import OLENA as TG_OLENA

    chosen = record_levels(monkeypatch)
    people = (TG_OLENA, TG_BOB)
    async with FakeTelegram() as server:
        for user in people:
            server.start_bot(user)
        server.set_chat(GROUP, title="Рівні")
        t = Group(server, tmp_path / "gupai.sqlite3")
        await t.start()
        try:
            t.say(TG_OLENA, "/newgame dragon deals=1")
            await server.wait_for(t._has_lobby)
            link = t.join_link()
            sid = int(link.removeprefix("j_"))
            t.say(TG_BOB, f"/start {link}", chat=TG_BOB.id)
            await server.wait_for(lambda: "Bob" in t.lobby().content)
            lobby = t.lobby()
            row = next(r for r in lobby.reply_markup["inline_keyboard"]
                       if any(b.get("callback_data", "").endswith("!add") for b in r))
            assert [b["text"] for b in row] == ["+🤖 Легкий", "+🤖 Звичайний", "+🤖 Сильний"]
            answer = await t.answer_to(t.press(TG_OLENA, lobby, t.data(lobby, "!add-strong")))
            assert answer == tr("uk", "lobby.added")
            await server.wait_for(lambda: "Комп'ютер 1 (сильний)" in t.lobby().content)
            answer = await t.answer_to(t.press(TG_OLENA, t.lobby(), t.data(t.lobby(), "!start")))
            assert answer == tr("uk", "lobby.started")
            await t.play(sid, people)
            assert await t.status(sid) == "finished"
            assert t.storage is not None
            seats = await t.storage.db.read(
                "SELECT s.user_id, s.delta, u.platform FROM deal_seats s JOIN deals d "
                "ON d.id = s.deal_id JOIN users u ON u.id = s.user_id WHERE d.session_id = ?",
                (sid,))
            assert len(seats) == 3 and sum(r["delta"] for r in seats) == 0
            session = await t.storage.sessions.get(sid)
            for row in seats:
                balance = await t.storage.db.read_one(
                    "SELECT balance FROM balances WHERE chat_id = ? AND user_id = ?",
                    (session.chat_id, row["user_id"]))
                if row["platform"] == "computer":  # it plays for nothing
                    assert balance is None and row["delta"] == 0
                else:
                    assert balance["balance"] == 1000 + row["delta"]
        finally:
            await t.stop()
    strong = [c for c in chosen if c.level == "strong"]
    assert len(strong) >= 3 and all(c.off_loop for c in strong)


async def test_discord_lobbies_offer_the_levels_in_one_row_and_settings_take_one(tmp_path):
    from tests.support.discord_server import BOB as DC_BOB
    from tests.support.discord_server import OLENA as DC_OLENA
    from tests.support.discord_server import Server, components, text_of
    from tests.support.fake_discord import ALL_PERMISSIONS
    from tests.support.fake_discord import User as DiscordUser

    admin = DiscordUser(105, "Admin", "en-US", permissions=ALL_PERMISSIONS)
    server = Server(tmp_path / "discord.sqlite3")
    await server.start()
    try:
        assert "рівень комп'ютерів: звичайний" in await server.command(DC_OLENA, "settings")
        answer = await server.command(admin, "settings", {"setting": "level", "value": "easy"})
        assert answer == tr("uk", "settings.saved")
        answer = await server.command(DC_BOB, "settings", {"setting": "level", "value": "easy"})
        assert answer == tr("uk", "err.admins_only")
        assert "рівень комп'ютерів: легкий" in await server.command(DC_OLENA, "settings")
        await server.command(DC_OLENA, "newgame", {"game": "tails"})
        lobby = server.table()
        rows = [[c.get("custom_id", "").split(":", 3)[-1] for c in row["components"]]
                for row in lobby["components"]]
        assert ["!add", "!add-normal", "!add-strong"] in rows
        assert all(len(row) <= 5 for row in rows) and len(rows) <= 5
        labels = [c["label"] for c in components(lobby) if "!add" in c.get("custom_id", "")]
        assert labels == ["+🤖 Легкий", "+🤖 Звичайний", "+🤖 Сильний"]
        await server.press(DC_OLENA, lobby, server.data(lobby, "!add-strong"))
        await server.press(DC_OLENA, server.table(), server.data(server.table(), "!add"))
        text = text_of(server.table())
        assert "Комп'ютер 1 (сильний)" in text and "Комп'ютер 2 (легкий)" in text
        forged = server.data(server.table(), "!add-strong").replace("!add-strong", "!add-mega")
        shown = dict(server.table())
        shown["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "x", "custom_id": forged}]}]
        assert await server.press(DC_OLENA, shown, forged) == tr("uk", "err.forged")
        assert "Комп'ютер 3" not in text_of(server.table())
    finally:
        await server.stop()
    assert server.fake is not None and server.fake.problems == [] and server.fake.limited == []
