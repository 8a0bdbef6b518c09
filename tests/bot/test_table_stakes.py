"""Chips through the session layer: people pay people, within what each brought to the table.

docs/architecture.md §1.7 and §6. Random tables of every game (one to three people, computers,
stakes up to the chat's largest), played with random moves and restarted at random moments, keep the
books: no balance or hold below zero, balances plus held chips equal what was granted and refilled,
every chip on a table comes back once the table closes, and a person alone with computers ends where
they began. Then the rules one by one: covering a deal that costs more than a table holds, the
buy-in, the refill, refusals for want of chips, and a deal's fingerprint.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import random
import sqlite3
from pathlib import Path

import pytest

import games
from bot.present.screens import Actor
from bot.session.chips import day_of
from games import seeds
from tests.support.books import check_books
from tests.support.session_helpers import (
    BOB,
    KIM,
    OLENA,
    PLACE,
    close,
    lobby,
    manager,
    play_out,
)
from words.i18n import tr

DAY = 86_400


def finite(rules: games.engine.Rules) -> list[str]:  # type: ignore[name-defined]
    """Words that make a match of the game end after a deal or two."""
    fields = {f.name for f in dataclasses.fields(rules.options_type)}
    if "deals" in fields:
        return ["deals=2"]
    return ["50"] if "50" in rules.presets else []


def held(path: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT session_id, user_id, amount FROM holds").fetchall()


def balances(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT u.name, b.balance FROM balances b JOIN users u ON "
                            "u.id = b.user_id").fetchall()
    return dict(rows)


async def play_with_restarts(path: Path, words: list[str], people: list[Actor], computers: int,
                             rng: random.Random) -> None:
    """Random moves by the people; now and then the process stops dead between two presses
    (its timers cancelled, nothing drained) and a new one takes over from the database."""
    m, rec = await manager(path)
    sid = await lobby(m, rec, words, people, computers)
    try:
        for _ in range(5000):
            session = await m.storage.sessions.get(sid)
            assert session is not None
            if session.status not in ("lobby", "active"):
                return
            check_books(path)
            if rng.random() < 0.04:
                await close(m)
                m, rec = await manager(path)
                await m.restore()
                continue
            pressed = False
            for actor in people:
                moves = rec.moves(actor.platform_id)
                groups = rec.groups(actor.platform_id)
                if not moves and groups:
                    await m.press(actor, rng.choice(groups).data)
                    moves = rec.moves(actor.platform_id)
                if moves:
                    reply = await m.press(actor, rng.choice(moves).data)
                    pressed = pressed or not reply.toast
            if not pressed:
                await asyncio.sleep(0.005)
        raise AssertionError("the game did not end")
    finally:
        await close(m)


@pytest.mark.parametrize("seed", range(8))
async def test_random_tables_keep_the_books_through_restarts(tmp_path, seed):
    rng = random.Random(seed)
    rules = games.GAMES[sorted(games.GAMES)[seed % len(games.GAMES)]]
    count = rng.randint(1, min(3, rules.max_players))
    people = [OLENA, BOB, KIM][:count]
    computers = max(rules.min_players - count, rng.randint(0, 1))
    computers = min(computers, rules.max_players - count)
    stake = rng.choice([1, 2, 5, 100])
    path = tmp_path / "db"
    await play_with_restarts(path, [rules.id, str(stake), *finite(rules)], people, computers,
                             rng)
    check_books(path)
    assert held(path) == [], "every chip on the table came back"
    chips = balances(path)
    assert set(chips) == {a.name for a in people}, "computers hold no chips"
    if count == 1:
        assert chips == {people[0].name: 1000}, "computers alone cannot raise or lower a balance"
    assert sum(chips.values()) == 1000 * count


async def test_people_settle_among_themselves_and_computers_play_for_nothing(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await lobby(m, rec, ["dragon", "deals=2", "3"], [OLENA, BOB], computers=1)
        # Each brings the chat's cap for a game that cannot say its worst deal: 100 stakes.
        assert await m.storage.tables.held(sid) == {1: 300, 2: 300}
        await play_out(m, rec, [OLENA, BOB])
        rows = await m.storage.db.read(
            "SELECT u.platform, s.delta, s.staked FROM deal_seats s JOIN users u ON "
            "u.id = s.user_id JOIN deals d ON d.id = s.deal_id WHERE d.session_id = ?", (sid,))
        assert {(r["platform"], r["staked"]) for r in rows} == {("test", 1), ("computer", 0)}
        assert all(r["delta"] == 0 for r in rows if r["platform"] == "computer")
        assert sum(r["delta"] for r in rows) == 0
        assert await m.storage.tables.held(sid) == {}
        assert sum(balances(tmp_path / "db").values()) == 2000
        # The result card's chips column says what the words say: the people's chips as
        # paid, and nothing for the computer.
        seats = await m.storage.db.read(
            "SELECT d.deal_no, s.seat, s.delta, s.staked FROM deal_seats s JOIN deals d ON "
            "d.id = s.deal_id WHERE d.session_id = ? ORDER BY d.deal_no, s.seat", (sid,))
        for deal, post in enumerate(rec.posts):
            paid = tuple(r["delta"] if r["staked"] else None for r in seats
                         if r["deal_no"] == deal)
            assert post.picture.frame.chips == paid and paid[2] is None
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_a_person_alone_with_computers_plays_a_practice_table(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        await m.new_game(PLACE, OLENA, ["kapten", "deals=3", "50"])
        assert tr("uk", "lobby.practice") in rec.table.text
        await m.press(OLENA, rec.button(rec.table, "!add").data)
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        await play_out(m, rec, [OLENA])
        assert len(rec.posts) == 3
        assert all(tr("uk", "result.practice") in p.text for p in rec.posts)
        assert balances(tmp_path / "db") == {"Олена": 1000}
        assert held(tmp_path / "db") == []
    finally:
        await close(m)


async def test_a_one_deal_match_won_as_it_is_dealt_settles_and_returns_the_chips(tmp_path,
                                                                                monkeypatch):
    """The save that starts the match also ends it: the chips come to the table, the deal is
    settled on it, and what is left goes back, all in that one save."""
    import bot.session.lobby

    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=16: "0" * 30 + "54")
    m, rec = await manager(tmp_path / "db")
    try:
        await m.new_game(PLACE, OLENA, ["threedozen", "deals=1", "4"])
        await m.join(PLACE, BOB)
        sid = (await m.open_in(PLACE)).id
        started = await m.press(OLENA, rec.button(rec.table, "!start").data)
        assert started.toast == tr("uk", "lobby.started")
        session = await m.storage.sessions.get(sid)
        assert session is not None and session.status == "finished"
        (result,) = rec.posts
        stake = games.get("threedozen").options().stake * 4
        assert f"+{stake}" in result.text and f"−{stake}" in result.text
        assert sorted(balances(tmp_path / "db").values()) == [1000 - stake, 1000 + stake]
        assert held(tmp_path / "db") == []
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_a_game_that_knows_its_worst_deal_holds_just_that(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await lobby(m, rec, ["kapten", "7"], [OLENA, BOB])
        ante = games.get("kapten").options().ante
        # What each brought (a deal dealt out at once may already have moved chips between
        # the two holds).
        brought = await m.storage.db.read(
            "SELECT user_id, -amount FROM ledger WHERE kind = 'hold' ORDER BY user_id")
        assert [tuple(row) for row in brought] == [(1, 7 * ante), (2, 7 * ante)]
        assert sum((await m.storage.tables.held(sid)).values()) == 2 * 7 * ante
        assert tr("uk", "lobby.buy_in", 7 * ante) in rec.replies[1].table.text
    finally:
        await close(m)


async def test_a_loser_who_cannot_cover_a_deal_pays_what_is_on_the_table(tmp_path):
    """One stake on the table each (the chat's cap) and Dragon's pairwise payments, which
    often cost more: the losers pay what they have, and the winners share it."""
    m, rec = await manager(tmp_path / "db")
    try:
        chat_id, _ = await m.chat_of(PLACE, OLENA)
        await m.update_settings(chat_id, buy_in=1)
        sid = await lobby(m, rec, ["dragon", "deals=3", "10"], [OLENA, BOB, KIM])
        await play_out(m, rec, [OLENA, BOB, KIM])
        shorts = [p.text for p in rec.posts if "had only" in p.text or "лише" in p.text]
        assert shorts, "some deal cost a loser more than their 10 chips"
        rows = await m.storage.db.read(
            "SELECT d.deal_no, s.delta FROM deal_seats s JOIN deals d ON d.id = s.deal_id "
            "WHERE d.session_id = ?", (sid,))
        # The first deal is played with 10 each on the table (later ones with what each won).
        assert min(r["delta"] for r in rows if r["deal_no"] == 0) >= -10
        for deal in {r["deal_no"] for r in rows}:
            assert sum(r["delta"] for r in rows if r["deal_no"] == deal) == 0
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_without_a_stakes_worth_nobody_sits_down_and_hears_of_the_next_refill(tmp_path):
    m, rec = await manager(tmp_path / "db")
    now = [1_800_000_000.0]  # 2027-01-15 08:00 UTC
    m.clock = lambda: now[0]
    try:
        chat_id, _ = await m.chat_of(PLACE, OLENA)
        await m.update_settings(chat_id, floor=50, language="en")
        olena = await m.user_of(OLENA)
        await m.storage.accounts.adjust(chat_id, olena, -960, "test")  # 40 left
        # Her first game of the day brings her up to the floor: 50, enough for ×50.
        await m.new_game(PLACE, OLENA, ["kapten", "50"])
        assert (await m.storage.accounts.wallet(chat_id, olena)).balance == 50
        await m.press(OLENA, rec.button(rec.table, "!leave").data)
        # The refill is once a day: with 5 left she cannot open a ×10 table until tomorrow.
        await m.storage.accounts.adjust(chat_id, olena, -45, "test-2")
        reply = await m.new_game(PLACE, OLENA, ["kapten", "10"])
        assert reply.answer is not None
        assert reply.answer.text == tr("en", "chips.short_refill", name="Олена", balance=5,
                                       need=10, floor=50, hours=16, minutes=0)
        assert await m.open_in(PLACE) is None
        # Bob opens one; she cannot join it either, and is told so.
        await m.new_game(PLACE, BOB, ["kapten", "10"])
        refused = await m.join(PLACE, OLENA)
        assert "16 h 0 min" in refused.toast
        # The next day she is brought up to the floor at her next game.
        now[0] += 16 * 3600
        assert day_of(now[0]) == "2027-01-16"
        joined = await m.join(PLACE, OLENA)
        assert joined.toast == tr("en", "lobby.joined")
        assert (await m.storage.accounts.wallet(chat_id, olena)).balance == 50
        # A stake above the chat's largest is refused before anything else.
        await m.update_settings(chat_id, max_stake=20)
        reply = await m.new_game(Place2, BOB, ["kapten", "21"])
        assert reply.answer is not None and reply.answer.text == tr("en", "err.stake", most=20)
        check_books(tmp_path / "db")
    finally:
        await close(m)


Place2 = dataclasses.replace(PLACE, topic="7")


SECRET = "5eed5eed5eed5eed5eed5eed5eed5eed"
"""A table's secret whose deal does not end on its first move, when a dealt hand of Kap Ten
wins at once and the table shows the result, not the tiles (a random secret did, about once in
a hundred runs)."""


async def test_the_fingerprint_comes_before_the_tiles_and_the_seed_after_the_deal(tmp_path,
                                                                                 monkeypatch):
    asked: list[int] = []

    def token_hex(nbytes: int) -> str:
        asked.append(nbytes)
        return SECRET

    monkeypatch.setattr("bot.session.lobby.secrets.token_hex", token_hex)
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await lobby(m, rec, ["kapten", "deals=1"], [OLENA, BOB])
        session = await m.session(sid)
        secret = session.options["seed"]
        assert asked == [16] and secret == SECRET, "128 bits from `secrets`"
        seed = seeds.deal_seed(secret, 0)
        fingerprint = hashlib.sha256(seed.encode()).hexdigest()[:16]
        start = next(r for r in rec.replies if r.hands)
        assert start.table is not None and fingerprint in start.table.text
        assert all(fingerprint in h.screen.text for h in start.hands)
        shown_before_end = [r for r in rec.replies if not r.posts]
        assert all(seed not in (r.table.text if r.table else "") for r in shown_before_end)
        assert all(seed not in h.screen.text for r in shown_before_end for h in r.hands)
        await play_out(m, rec, [OLENA, BOB])
        (result,) = rec.posts
        assert seed in result.text and fingerprint in result.text
        command = next(line for line in result.text.splitlines() if "gupai verify" in line)
        # As the README's install leaves it: `gupai` alone is not on PATH.
        assert f" .venv/bin/gupai verify {seed} " in command
        assert command.endswith(f"gupai verify {seed} {fingerprint} kapten --players 2 "
                                f"--leader {result.picture.view.match.leader + 1} "
                                "--option deals=1")
        assert secret not in result.text
    finally:
        await close(m)


async def test_a_new_process_restores_tables_with_their_chips(tmp_path):
    path = tmp_path / "db"
    m, rec = await manager(path)
    sid = await lobby(m, rec, ["dragon", "deals=2", "2"], [OLENA, BOB])
    before = await m.storage.tables.held(sid)
    await close(m)
    again, recorder = await manager(path)
    try:
        await again.restore()
        assert await again.storage.tables.held(sid) == before == {1: 200, 2: 200}
        await play_out(again, recorder, [OLENA, BOB])
        assert await again.storage.tables.held(sid) == {}
        check_books(path)
    finally:
        await close(again)
