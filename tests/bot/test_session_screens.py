"""What players see through the session layer is never lost or stale: the last move stays on the
table through countdown refreshes, every hand shows a deal's result, a finished or stopped game
leaves no button, a deal's result survives a crash, and the buttons say what they do."""

from __future__ import annotations

import re

import pytest

from bot.present import payload, presenter
from bot.present.screens import Actor, Button, Place, Screen
from bot.session.commands import Commands
from tests.support.session_helpers import (
    BOB,
    FAST,
    KIM,
    OLENA,
    PLACE,
    SLOW,
    Recorder,
    anyone,
    close,
    fix_seed,
    lobby,
    manager,
    nobody,
    play_out,
)
from words.i18n import tr


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    # A fixed seed: a random one now and then deals a hand won before anybody presses.
    fix_seed(monkeypatch, "5eed" * 16)


def buttons(screen: Screen | None) -> list[Button]:
    return [] if screen is None else [b for row in screen.keyboard for b in row]


async def first_move(m, rec: Recorder, people: list[Actor]) -> Actor:
    mover = next(a for a in people if rec.moves(a.platform_id))
    assert (await m.press(mover, rec.moves(mover.platform_id)[0].data)).toast == ""
    return mover


async def test_a_countdown_refresh_keeps_the_last_move(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB])
        await first_move(m, rec, [OLENA, BOB])
        moved = rec.table
        assert moved is not None and moved.picture is not None and moved.picture.frame.footer
        session = await m.session(sid)
        await m.timers.tick(sid, session.deadline)  # the 60-, 30- and 10-second refreshes
        refreshed = rec.table
        assert refreshed is not moved
        assert refreshed.picture.frame.footer == moved.picture.frame.footer
        assert refreshed.picture.frame.last == moved.picture.frame.last
        assert moved.picture.frame.footer in refreshed.text
        # ... and a restart shows it too.
        await close(m)
        m, rec = await manager(tmp_path / "db", SLOW)
        await m.restore()
        assert rec.table.picture.frame.footer == moved.picture.frame.footer
    finally:
        await close(m)


async def test_a_countdown_is_marked_for_platforms_that_count_by_themselves(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    live, live_rec = await manager(tmp_path / "live", SLOW)
    live.requests.live_countdown = True
    try:
        await lobby(m, rec, ["dragon"], [OLENA, BOB])
        await lobby(live, live_rec, ["dragon"], [OLENA, BOB])
        for screen in (rec.table, live_rec.table):
            assert screen is not None and screen.countdown is not None
            shown = screen.text[screen.countdown.start:screen.countdown.end]
            assert re.fullmatch(r"за \d+ (с|хв)", shown), shown
            session = await m.open_in(PLACE)
            assert screen.countdown.deadline == pytest.approx(session.deadline, abs=1.0)
        # The table is refreshed to count down only where the platform cannot count.
        assert m.timers.ticks and not live.timers.ticks
    finally:
        await close(m)
        await close(live)


async def test_every_hand_shows_the_deals_result_and_a_finished_match_leaves_no_button(
        tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        await lobby(m, rec, ["dragon", "deals=1", "2"], [OLENA, BOB], computers=1)
        await play_out(m, rec, [OLENA, BOB])
        post = rec.posts[-1]
        for actor, lang in ((OLENA, "uk"), (BOB, "en")):  # each in their own language
            hand = rec.hands[actor.platform_id]
            assert tr(lang, "result.line", winners="\x00", reason="").split("\x00")[0] \
                in hand.text and tr(lang, "hand.chips", chips="") in hand.text
            assert tr(lang, "table.over") in hand.text and hand.keyboard == ()
        assert rec.table is not None and rec.table.keyboard == ()
        assert tr("uk", "table.over") in rec.table.text
        assert rec.table.picture is not None  # the final board stays to be looked at
        (again,) = buttons(post)
        assert again.data.endswith(payload.AGAIN) and again.tone == "main"
    finally:
        await close(m)


async def test_a_stopped_game_tells_every_hand_and_leaves_no_button(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await lobby(m, rec, ["dragon"], [OLENA, BOB])
        assert (await m.stop(PLACE, OLENA, nobody)).toast == "Зупинено."  # the creator
        said = tr("uk", "stop.mid_deal", name=OLENA.name)
        assert rec.table.text == said and rec.table.keyboard == ()
        for actor, lang in ((OLENA, "uk"), (BOB, "en")):  # each in their own language
            hand = rec.hands[actor.platform_id]
            assert tr(lang, "stop.mid_deal", name=OLENA.name) in hand.text
            assert hand.keyboard == ()
            assert tr(lang, "hand.waiting", name="").split()[0] not in hand.text
    finally:
        await close(m)


async def test_a_deals_result_survives_a_crash_and_comes_once(tmp_path):
    m, rec = await manager(tmp_path / "db")
    lost: list[int] = []

    async def crashing(reply) -> None:
        # The process dies right after the save that settled the deal: nothing is shown.
        if reply.posts:
            lost.extend(p.key for p in reply.posts)
            return
        await rec(reply)
    m.deliver = crashing
    try:
        sid = await lobby(m, rec, ["dragon", "deals=1"], [OLENA, BOB], computers=1)
        await play_out(m, rec, [OLENA, BOB])
        assert lost and all(key is not None for key in lost) and rec.posts == []
        assert len(await m.storage.db.read("SELECT * FROM deals WHERE session_id = ?",
                                           (sid,))) == 1
    finally:
        await close(m)
    again, shown = await manager(tmp_path / "db")
    try:
        await again.restore()
        (post,) = [p for r in shown.replies for p in r.posts]
        assert post.key == lost[0] and "Роздачу 1 закінчено" in post.screen.text
        await again.delivered(post.key)
    finally:
        await close(again)
    third, nothing = await manager(tmp_path / "db")
    try:
        await third.restore()
        assert [p for r in nothing.replies for p in r.posts] == []
    finally:
        await close(third)


async def test_play_again_opens_a_lobby_with_the_same_players_options_and_stake(tmp_path):
    m, rec = await manager(tmp_path / "db")
    try:
        first = await lobby(m, rec, ["dragon", "two-arm", "deals=1", "3"], [OLENA, BOB],
                            computers=1)
        await play_out(m, rec, [OLENA, BOB])
        (again,) = buttons(rec.posts[-1])
        assert (await m.press(KIM, again.data)).toast == tr("uk", "again.not_player")
        assert await m.open_in(PLACE) is None
        assert (await m.press(BOB, again.data)).toast == tr("en", "again.opened")
        opened = await m.open_in(PLACE)
        old = await m.storage.sessions.get(first)
        assert opened is not None and opened.id != first and opened.status == "lobby"
        assert [(s["name"], s["computer"]) for s in opened.seats] == [
            (s["name"], s["computer"]) for s in old.seats]
        assert opened.stake == 3 and opened.options["preset"] == "two-arm"
        assert opened.options["values"] == {"deals": 1}
        assert opened.options["seed"] == old.options["seed"]  # (the test's fixed seed)
        assert opened.creator_id == old.seats[1]["user_id"]  # Bob pressed: Bob starts it
        assert (await m.press(OLENA, again.data)).toast == tr("uk", "err.game_exists")
        start = rec.button(rec.table, "!start").data
        assert (await m.press(BOB, start)).toast == tr("en", "lobby.started")
    finally:
        await close(m)


async def test_whoever_starts_a_game_its_opener_left_may_stop_it(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        await m.join(PLACE, BOB)
        await m.join(PLACE, KIM)
        await m.leave(PLACE, OLENA)
        assert (await m.press(BOB, rec.button(rec.table, "!start").data)).toast == tr(
            "en", "lobby.started")
        assert (await m.stop(PLACE, KIM, nobody)).toast.startswith("Зупинити гру може лише")
        assert (await m.stop(PLACE, BOB, nobody)).toast == "Зупинено."
    finally:
        await close(m)


async def test_a_pick_of_no_group_is_refused_in_words(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB])
        mover = next(a for a in (OLENA, BOB) if rec.moves(a.platform_id))
        session = await m.session(sid)
        for code in ("!pick-zz", "!pick-=Q-R"):
            reply = await m.press(mover, payload.encode(sid, session.version, code))
            assert reply.toast == tr("uk", "err.forged"), code
        assert (await m.session(sid)).version == session.version
    finally:
        await close(m)


async def test_peek_puts_a_space_between_a_letter_and_its_tile(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await lobby(m, rec, ["dragon"], [OLENA, BOB])
        peek = await m.press(BOB, rec.button(rec.table, "!peek").data)
        tiles = peek.toast.split("\n")[0].removeprefix("Your tiles: ").split(" · ")
        assert len(tiles) > 3 and all(re.fullmatch(r"[A-Z] \[?\d:\d\]?", t) for t in tiles), tiles
    finally:
        await close(m)


async def test_the_lobby_buttons_say_what_they_do_and_start_waits_for_players(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["tails"])
        join, leave, _easy, _normal, _strong, _remove, start = buttons(rec.table)
        assert (join.tone, leave.tone, start.tone) == ("go", "stop", "main")
        assert join.link == ("join", 1) and not start.enabled
        assert start.label == tr("uk", "btn.start_need", 1)
        assert (await m.press(OLENA, start.data)).toast == tr("uk", "lobby.need", 1)
        await m.join(PLACE, BOB)
        start = buttons(rec.table)[-1]
        assert start.enabled and start.label == tr("uk", "btn.start")
    finally:
        await close(m)


# ----- the chat commands ------------------------------------------------------------------------

async def test_top_counts_deals_pages_and_bounds_what_is_typed(tmp_path):
    m, rec = await manager(tmp_path / "db", FAST)
    commands = Commands(m)
    try:
        chat_id, _ = await m.chat_of(PLACE, OLENA)
        await m.storage.accounts.update_settings(chat_id, language="en")
        m.forget_settings(chat_id)
        for n in range(12):
            user = await m.user_of(Actor(str(100 + n), f"P{n}"))
            await m.storage.accounts.balance(chat_id, user)
        page = (await commands.run("top", PLACE, OLENA, ["all"], anyone)).answer
        assert page is not None and "0 deals" in page.text
        forward, switch, season = buttons(page)
        assert payload.decode(forward.data) == payload.Press(0, 2, "!top-all")
        assert payload.decode(switch.data) == payload.Press(0, 1, "!top-deal-all")
        assert payload.decode(season.data) == payload.Press(0, 1, payload.TOP)
        second = (await commands.run("top", PLACE, OLENA, ["all", "2"], anyone)).answer
        back, _, _ = buttons(second)
        assert payload.decode(back.data).version == 1 and "11. P10" in second.text
        for typed in ("3", "99999999999999999999"):
            past = (await commands.run("top", PLACE, OLENA, ["all", typed], anyone)).answer
            assert past is not None and past.text == "The leaderboard has only 2 pages."
        # A deal against computers alone is practice: no chips, and no deal on the board.
        await lobby(m, rec, ["dragon", "deals=1"], [OLENA], computers=1)
        await play_out(m, rec, [OLENA])
        pages = [(await commands.run("top", PLACE, OLENA, ["all", n], anyone)).answer
                 for n in "12"]
        text = "\n".join(p.text for p in pages if p is not None)
        assert re.search(r"Олена — 1000 chips, 0 deals$", text, re.M), text
    finally:
        await close(m)


async def test_stats_name_computers_as_the_table_does(tmp_path):
    m, rec = await manager(tmp_path / "db", FAST)
    try:
        await lobby(m, rec, ["dragon", "deals=1"], [OLENA], computers=1)
        await play_out(m, rec, [OLENA])
        stats = (await Commands(m).run("stats", PLACE, OLENA, [], anyone)).answer
        assert stats is not None and "Комп'ютер 1" in stats.text
        assert "computer-1" not in stats.text
    finally:
        await close(m)


async def test_admins_turn_mentions_off_in_settings(tmp_path):
    m, _ = await manager(tmp_path / "db", FAST)
    commands = Commands(m)
    admin, member = anyone, nobody
    try:
        shown = (await commands.run("settings", PLACE, OLENA, [], member)).answer
        assert shown is not None and "згадки гравців, чиї плитки не відкрито: увімкнено" \
            in shown.text
        refused = (await commands.run("settings", PLACE, OLENA, ["mentions", "off"], member))
        assert refused.answer.text == tr("uk", "err.admins_only")
        saved = (await commands.run("settings", PLACE, OLENA, ["mentions", "off"], admin))
        assert saved.answer.text == tr("uk", "settings.saved")
        chat_id, _ = await m.chat_of(PLACE)
        assert not (await m.chat_settings(chat_id)).mentions
        bad = (await commands.run("settings", PLACE, OLENA, ["mentions", "maybe"], admin))
        assert bad.answer.text == tr("uk", "settings.usage")
    finally:
        await close(m)


def test_a_screen_keeps_where_its_countdown_is():
    lines = presenter.Lines("title")
    lines.add_timed("en", "table.to_move", presenter.Clock(100.0, 145.0), name="[x](y)")
    screen = lines.screen()
    before, after, deadline = screen.split_at_countdown() or ("", "", 0.0)
    assert screen.text == "title\nTo move: [x](y) · time runs out in 60 s"
    assert (before, after, deadline) == ("title\nTo move: [x](y) · time runs out ", "", 145.0)
    assert Place("1") and Screen("plain").split_at_countdown() is None


def test_a_tables_title_names_its_preset_in_the_chats_language() -> None:
    import games
    from bot.present.presenter import title
    from bot.session.seating import Game

    rules = games.get("kapten")
    game = Game(rules, rules.options("culin"), "culin", {}, "t")
    assert title(game, "uk") == "Тягни десятки · правила Куліна"
    assert title(game, "en").startswith("Kap Ten · ") and "culin" not in title(game, "uk")
