"""The session layer end to end, with a recording adapter: lobby, play, timers, stop, restart."""

from __future__ import annotations

import asyncio
import random

import pytest

import bot.session.lobby
from bot.present import payload
from bot.session.manager import Timing
from games import GAMES
from tests.games.test_playouts import player_counts
from tests.support.helpers import short_match
from tests.support.session_helpers import (
    BOB,
    FAST,
    KIM,
    OLENA,
    PLACE,
    close,
    lobby,
    manager,
    play_out,
)
from words.i18n import lang_of, tr


async def books(m, chat_id):
    rows = await m.storage.db.read(
        "SELECT COALESCE(SUM(amount), 0) AS total FROM ledger WHERE chat_id = ? "
        "AND kind = 'settlement'", (chat_id,))
    return rows[0]["total"]


async def test_a_full_match_settles_every_deal(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await lobby(m, rec, ["dragon", "deals=2", "3"], [OLENA, BOB], computers=1)
        await play_out(m, rec, [OLENA, BOB])
        session = await m.storage.sessions.get(sid)
        assert session.status == "finished"
        deals = await m.storage.db.read("SELECT * FROM deals WHERE session_id = ?", (sid,))
        assert len(deals) == 2
        assert await books(m, session.chat_id) == 0
        seats = await m.storage.db.read(
            "SELECT s.delta FROM deal_seats s JOIN deals d ON d.id = s.deal_id "
            "WHERE d.session_id = ?", (sid,))
        assert all(r["delta"] % 3 == 0 for r in seats), "the stake multiplies every payment"
        assert len(rec.posts) == 2 and "Матч закінчено" in rec.posts[-1].text
        assert rec.posts[0].picture is not None and rec.posts[0].picture.kind == "result"
        top = await m.storage.stats.top(session.chat_id)
        assert {r.name for r in top} == {"Олена", "Bob"}
        total = sum(r.balance for r in top)
        computer = await m.storage.db.read(
            "SELECT b.balance FROM balances b JOIN users u ON u.id = b.user_id "
            "WHERE u.platform = 'computer' AND b.chat_id = ?", (session.chat_id,))
        assert total + sum(r["balance"] for r in computer) == 2000
    finally:
        await close(m)


async def test_hands_reach_only_their_owners_and_buttons_only_the_mover(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    try:
        await lobby(m, rec, ["dragon"], [OLENA, BOB, KIM])
        for reply in rec.replies:
            for hand in reply.hands:
                assert hand.screen.picture is not None
                view = hand.screen.picture.view
                owner = {OLENA.platform_id: 0, BOB.platform_id: 1, KIM.platform_id: 2}
                assert view.seat == owner[hand.user]
        movers = [a for a in (OLENA, BOB, KIM) if rec.moves(a.platform_id)]
        assert len(movers) == 1
        assert rec.table.picture.view.seat is None
    finally:
        await close(m)


async def test_stale_forged_and_foreign_presses_change_nothing(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB])
        mover = next(a for a in (OLENA, BOB) if rec.moves(a.platform_id))
        other = BOB if mover is OLENA else OLENA
        button = rec.moves(mover.platform_id)[0]
        before = await m.storage.sessions.get(sid)

        stranger = await m.press(KIM, button.data)
        assert stranger.toast == "Це не ваші плитки."
        wrong_turn = await m.press(other, button.data)
        assert wrong_turn.toast == tr(lang_of(other.language), "err.not_your_turn")
        for forged in ("g:1:0", "x:1:1:play.66a", "g:1:1:" + "a" * 70, "g:¹:1:x", "",
                       f"g:{sid}:{before.version}:!nonsense", f"g:{sid}:{before.version}:zzz",
                       f"g:{sid}:{before.version}:play.11a@9", "g:9999:0:!peek"):
            reply = await m.press(mover, forged)
            assert reply.toast, forged
        after = await m.storage.sessions.get(sid)
        assert after.version == before.version and after.state == before.state

        assert not (await m.press(mover, button.data)).toast
        stale = await m.press(mover, button.data)
        assert stale.toast == tr(lang_of(mover.language), "err.stale")
    finally:
        await close(m)


async def test_peek_is_private_and_short(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    try:
        await lobby(m, rec, ["dragon"], [OLENA, BOB])
        peek = rec.button(rec.table, "!peek").data
        mine = await m.press(BOB, peek)
        assert mine.alert and mine.toast.startswith("Your tiles: A")  # in Bob's language
        assert len(mine.toast) <= 200
        stranger = await m.press(KIM, peek)
        assert not stranger.alert and stranger.toast == "Ви не граєте в цій грі."
    finally:
        await close(m)


async def test_two_missed_turns_hand_the_seat_to_the_computer_until_back(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=5, deal_pause=30))
    try:
        sid = await lobby(m, rec, ["domino"], [OLENA], computers=1)
        session = await m.storage.sessions.get(sid)
        await m.storage.accounts.update_settings(session.chat_id, turn_timeout=10)
        m.forget_settings(session.chat_id)
        await m.language(session.chat_id)
        # Make the person's turn run out twice: move the clock instead of waiting.
        clock = [1000.0]
        m.clock = lambda: clock[0]
        for _ in range(200):
            session = await m.session(sid)
            if session is None or seats(session)[0]["away"]:
                break
            clock[0] = (session.deadline or clock[0]) + 1
            m.timers.arm(session)
            await asyncio.sleep(0.01)
            await m.idle()
        session = await m.session(sid)
        assert session is not None and seats(session)[0]["away"]
        assert any("двічі поспіль" in s.text for _, s in rec.private)
        assert "Я знову тут" in str(rec.table.keyboard)
        reply = await m.press(OLENA, rec.button(rec.table, "!back").data)
        assert reply.toast.startswith("З поверненням")
        session = await m.session(sid)
        assert session is not None and not seats(session)[0]["away"]
        again = await m.press(OLENA, f"g:{sid}:{session.version}:!back")
        assert again.toast == "Ви й так граєте."
    finally:
        await close(m)


def seats(session):
    return session.seats


async def test_lobby_closes_by_itself(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        session = await m.open_in(PLACE)
        await m.storage.sessions.save(session.but(deadline=m.clock() + 0.05), session.version)
        m.requests.cache.clear()
        await m.restore()
        await asyncio.sleep(0.2)
        await m.idle()
        assert await m.open_in(PLACE) is None
        assert rec.table.text == "Гру вчасно не почали: набір закрито."
        assert rec.replies[-1].closed
    finally:
        await close(m)


async def test_stopping_mid_deal_settles_nothing(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB])

        async def no() -> bool:
            return False

        async def yes() -> bool:
            return True
        refused = await m.stop(PLACE, BOB, no)
        assert refused.toast.startswith("Зупинити гру може лише")
        assert (await m.storage.sessions.get(sid)).status == "active"
        assert (await m.stop(PLACE, BOB, yes)).toast == "Зупинено."
        session = await m.storage.sessions.get(sid)
        assert session.status == "abandoned"
        assert not await m.storage.db.read("SELECT * FROM deals")
        assert "не розраховується" in rec.table.text
        after = await m.press(OLENA, rec.button(rec.table, "!peek").data if rec.table.keyboard
                              else f"g:{sid}:{session.version}:!peek")
        assert after.toast == "Ця гра вже закінчилася."
    finally:
        await close(m)


async def test_a_restart_continues_the_game_and_old_buttons_work(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    sid = await lobby(m, rec, ["domino", "50"], [OLENA, BOB])
    mover = next(a for a in (OLENA, BOB) if rec.moves(a.platform_id))
    button = rec.moves(mover.platform_id)[0]
    await close(m)

    m2, rec2 = await manager(tmp_path / "db", FAST)
    try:
        assert await m2.restore() == 1
        reply = await m2.press(mover, button.data)
        assert reply.toast == "", "the button from before the restart still plays"
        await play_out(m2, rec2, [OLENA, BOB])
        session = await m2.storage.sessions.get(sid)
        assert session.status == "finished"
    finally:
        await close(m2)


@pytest.mark.parametrize(("words", "answer"), [
    ([], "Як почати"),
    (["chess"], "Гри «chess» я не знаю"),  # as /rules chess says
    (["dragon", "nonsense"], "Такі налаштування не підходять"),
    (["dragon", "arms=3"], "Такі налаштування не підходять"),
    (["dragon", "deals=x"], "Такі налаштування не підходять"),
    (["dragon", "5000"], "Ставка"),
])
async def test_bad_new_games_are_explained(tmp_path, words, answer):
    m, _ = await manager(tmp_path / "db")
    try:
        reply = await m.new_game(PLACE, OLENA, words)
        assert reply.answer is not None and reply.answer.text.startswith(answer)
        assert await m.open_in(PLACE) is None
    finally:
        await close(m)


async def test_one_game_per_chat_and_lobby_rules(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        await m.new_game(PLACE, OLENA, ["cedeng"])
        second = await m.new_game(PLACE, BOB, ["dragon"])
        assert second.answer.text.startswith("У цьому чаті вже є гра")
        assert (await m.join(PLACE, OLENA)).toast == "Ви вже в цій грі."
        start = rec.button(rec.table, "!start").data
        assert (await m.press(OLENA, start)).toast == "Бракує 3 гравців"
        assert (await m.join(PLACE, BOB)).toast == "Ви в грі."
        assert (await m.press(BOB, start)).toast == tr("en", "err.creator_starts")
        add = rec.button(rec.table, "!add").data
        for _ in range(2):  # (Bob is answered in his language)
            assert not (await m.press(BOB, add)).toast.startswith("The table")
        assert (await m.press(BOB, add)).toast.startswith("The table is full")
        assert (await m.press(KIM, add)).toast == "Ви не граєте в цій грі."
        assert "Комп'ютер 2" in rec.table.text
        await m.press(OLENA, rec.button(rec.table, "!remove").data)
        assert "Комп'ютер 2" not in rec.table.text
        await m.leave(PLACE, OLENA)
        await m.leave(PLACE, BOB)
        assert await m.open_in(PLACE) is None
        assert rec.table.text == "Усі вийшли: набір закрито."
    finally:
        await close(m)


def test_payloads_fit_telegram():
    data = payload.encode(10**11, 10**8, "play.66a@1")
    assert len(data.encode()) <= 64
    assert payload.decode(data) == payload.Press(10**11, 10**8, "play.66a@1")
    with pytest.raises(ValueError):
        payload.encode(1, 1, "x" * 60)


async def test_presses_on_unknown_or_closed_games_leave_nothing_behind(tmp_path):
    m, _ = await manager(tmp_path / "db")
    try:
        for sid in range(500, 700):
            assert (await m.press(OLENA, f"g:{sid}:0:!peek")).toast == "Ця гра вже закінчилася."
        await m.new_game(PLACE, OLENA, ["dragon"])
        await m.leave(PLACE, OLENA)
        assert m.requests.locks == {} and m.requests.cache == {}
    finally:
        await close(m)


def _every_preset() -> list:
    """Every preset of every game (its default options when it has none), two people and
    computers at its table sizes in turn from the smallest up; the first preset's match has
    two deals, the others' one."""
    found = []
    for game, rules in GAMES.items():
        counts = player_counts(rules)
        for n, preset in enumerate(rules.presets or [None]):
            players = counts[n % len(counts)]
            words = [game, *([preset] if preset else []), *short_match(rules, 1 + (n == 0))]
            found.append(pytest.param(words, players - 2, id=f"{game}-{preset}-{players}"))
    return found


async def _play_at_random(m, rec, people, seed: str) -> None:
    """Every person presses one of their moves, chosen at random (the first move every time
    can go round for ever: in classical Kap both seats may take each other's discard back and
    forth), in two taps where the moves come grouped, until the game closes."""
    choice = random.Random(seed)

    async def loop() -> None:
        while await m.open_in(PLACE) is not None:
            pressed = False
            for actor in people:
                moves, groups = rec.moves(actor.platform_id), rec.groups(actor.platform_id)
                if not moves and groups:
                    await m.press(actor, groups[choice.randrange(len(groups))].data)
                    moves = rec.moves(actor.platform_id)
                if moves:
                    reply = await m.press(actor, moves[choice.randrange(len(moves))].data)
                    pressed = pressed or not reply.toast
            if not pressed:
                await asyncio.sleep(0.005)
    await asyncio.wait_for(loop(), 60)


@pytest.mark.parametrize(("words", "computers"), _every_preset())
async def test_every_game_plays_to_the_end(tmp_path, words, computers):
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await lobby(m, rec, words, [OLENA, BOB], computers=computers)
        await _play_at_random(m, rec, [OLENA, BOB], " ".join(words))
        session = await m.storage.sessions.get(sid)
        assert session.status == "finished"
        assert await books(m, session.chat_id) == 0
        assert rec.posts and rec.posts[-1].picture is not None
    finally:
        await close(m)


def test_many_moves_are_chosen_in_two_taps():
    """A hand with more moves than fit on a phone: first the tile, then what to do with it."""
    import dataclasses

    from bot.present.keyboards import MAX_MOVE_BUTTONS, moves_keyboard
    from bot.session.seating import Game
    from games import get
    from games.engine import Action
    from storage import Session

    rules = get("dragon")
    game = Game(rules, rules.options("two-arm"), "two-arm", {}, "seed")
    hand = tuple(range(16))
    legal = tuple(Action("play", (t,), arm) for t in hand for arm in (0, 1))
    assert len(legal) > MAX_MOVE_BUTTONS
    dealt = rules.view(rules.new_deal(game.options, 2, "seed"), 0)
    view = dataclasses.replace(dealt, hand=hand, legal=legal, ends=(6, 1))
    session = Session(7, 1, "", "dragon", {}, [], 1, None, "active", None, 12, None)
    first = [b for row in moves_keyboard(session, view, "en") for b in row]
    assert len(first) == 16 and all(b.data.startswith("g:7:12:!pick-") for b in first)
    picked = first[2].data.split(":", 3)[3].removeprefix("!pick-")
    second = [b for row in moves_keyboard(session, view, "en", picked) for b in row]
    moves = [b for b in second if "!" not in b.data]
    assert [b.data for b in moves] == ["g:7:12:" + a.code(rules.tileset(game.options))
                                       for a in legal if a.tiles == (2,)]
    assert second[-1].data == "g:7:12:!pick"


async def test_options_that_cannot_seat_the_table_refuse_the_start_and_keep_the_lobby(tmp_path):
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    try:
        await m.new_game(PLACE, OLENA, ["kaptaishap", "sets=1"])
        await m.join(PLACE, BOB)
        for _ in range(3):
            await m.press(OLENA, rec.button(rec.table, "!add").data)
        before = await m.open_in(PLACE)
        reply = await m.press(OLENA, rec.button(rec.table, "!start").data)
        assert "5 players need at least 2 sets" in reply.toast
        after = await m.open_in(PLACE)
        assert after.status == "lobby" and after.version == before.version
        assert after.state == before.state
    finally:
        await close(m)


@pytest.mark.parametrize(("words", "people", "seed"), [
    (["threedozen", "deals=2"], [OLENA, BOB, KIM], "0000000000000018"),
    (["kapten", "deals=2"], [OLENA, BOB], "0000000000000051"),
])
async def test_a_deal_won_from_the_deal_is_settled_at_once(tmp_path, monkeypatch, words, people,
                                                           seed):
    """The seed makes the first deal complete as dealt: it is settled and posted when it is
    dealt, and the match goes on to its second deal and stops there."""
    import bot.session.lobby

    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n: seed)
    m, rec = await manager(tmp_path / "db")
    try:
        sid = await lobby(m, rec, words, people)
        assert rec.posts and rec.posts[0].picture.kind == "result"
        await play_out(m, rec, people)
        session = await m.storage.sessions.get(sid)
        assert session.status == "finished"
        deals = await m.storage.db.read(
            "SELECT deal_no FROM deals WHERE session_id = ? ORDER BY deal_no", (sid,))
        assert [d["deal_no"] for d in deals] == [0, 1]
        assert await books(m, session.chat_id) == 0
        assert len(rec.posts) == 2 and "Матч закінчено" in rec.posts[-1].text
    finally:
        await close(m)


@pytest.mark.parametrize("words", [["kapten"], ["threedozen"]])
async def test_one_turn_run_out_is_one_miss_however_many_moves_it_takes(tmp_path, monkeypatch,
                                                                        words):
    """A Culin turn is a take or draw, a discard and another discard: when its time runs out
    the computer plays all of it, and the person has missed one turn, not three."""
    # A fixed seed: with a random one, about one deal in a hundred is won straight from the
    # deal, and then nobody has a turn to miss.
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=8: "5eed" * n)
    m, rec = await manager(tmp_path / "db", Timing(computer_delay=30, deal_pause=30))
    try:
        sid = await lobby(m, rec, words, [OLENA, BOB])
        session = await m.session(sid)
        game_state = session.state
        mover = next(i for i, a in enumerate((OLENA, BOB)) if rec.moves(a.platform_id))
        await m.timers.due(session)
        await m.idle()
        after = await m.session(sid)
        assert after.state != game_state
        assert seats(after)[mover]["misses"] == 1 and not seats(after)[mover]["away"]
        view = rec.table.picture.view
        assert view.to_move != mover or view.outcome is not None, "the whole turn was played"
    finally:
        await close(m)
