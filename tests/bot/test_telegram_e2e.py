"""The Telegram bot end to end: the real python-telegram-bot `Application` against a fake Bot API
server on 127.0.0.1 (docs/architecture.md §9). People are simulated by injected updates: commands in
the group, deep links in private chats, and presses on the buttons the bot really sent.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.present.screens import Place, Post, Reply, Screen
from bot.session.manager import Timing
from bot.session.outbox import Budget
from bot.telegram.telegram_messages import CAPTION_LIMIT
from tests.support.fake_telegram import FakeTelegram, SentMessage, User
from tests.support.telegram_group import (
    BOB,
    GROUP,
    OLENA,
    PEOPLE,
    STRANGER,
    TOKEN,
    Group,
)
from words.i18n import tr


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        for user in (*PEOPLE, STRANGER):
            fake.start_bot(user)
        fake.set_chat(GROUP, title="Доміно по п'ятницях")
        yield fake


async def settle_check(t: Group, sid: int, deals_expected: int | None = None) -> None:
    """Chips in SQLite equal the settlements among the people, and the leaderboard shows
    them."""
    assert t.storage is not None
    deals = await t.storage.db.read("SELECT id FROM deals WHERE session_id = ?", (sid,))
    if deals_expected is not None:
        assert len(deals) == deals_expected
    assert deals
    per_user = await t.storage.db.read(
        "SELECT s.user_id, SUM(s.delta) AS net FROM deal_seats s JOIN deals d ON d.id = "
        "s.deal_id WHERE d.session_id = ? GROUP BY s.user_id", (sid,))
    assert sum(r["net"] for r in per_user) == 0
    session = await t.storage.sessions.get(sid)
    assert session is not None
    for row in per_user:
        balance = await t.storage.db.read_one(
            "SELECT b.balance, u.platform FROM balances b JOIN users u ON u.id = b.user_id "
            "WHERE b.chat_id = ? AND b.user_id = ?", (session.chat_id, row["user_id"]))
        if balance is None:  # a computer: it plays for nothing and holds no chips
            assert row["net"] == 0
            continue
        assert balance["balance"] == 1000 + row["net"]  # what was on the table came back
    top = await t.storage.stats.top(session.chat_id)
    assert {r.name for r in top} == {u.first_name for u in PEOPLE}


def hands_only_to_owners(server: FakeTelegram) -> None:
    """Every private message with a hand went to the seat's own chat: a hand view's seat is
    never someone else's, which the bot would only send by mistake."""
    for user in PEOPLE:
        for message in server.messages(user.id):
            for row in (message.reply_markup or {}).get("inline_keyboard", []):
                for button in row:
                    assert "url" in button or button["callback_data"].startswith("g:")
    private = [c for c in server.calls() if c.chat_id and c.chat_id > 0 and c.ok]
    assert {c.chat_id for c in private} <= {u.id for u in PEOPLE}


def table_shows_the_game(t: Group, server: FakeTelegram, sid: int,
                         posts: list[SentMessage]) -> None:
    """docs/architecture.md §5: one table message per game, above the game's results, edited in
    place to the game's last state, and edited at most once per `spacing`.

    How many edits that takes depends on the pace of the game, not on the bot: a match over
    before the first edit was due has none, since its only send already showed the end.
    What the group sees at the end does not depend on the pace.
    """
    assert t.bot is not None
    calls = server.group_calls(GROUP)
    sent = [c for c in calls if c.method == "sendPhoto" and c.ok]
    assert len(sent) == len(posts) + 1, "the table was sent once, never again"
    live = {m.message_id for m in server.messages(GROUP)} - {m.message_id for m in posts}
    assert len(live) == 1, "the lobby gave way to the table: one message carries the game"
    shown = server.message(GROUP, live.pop())
    assert shown is not None and shown.has_photo
    assert shown.message_id < min(m.message_id for m in posts), "the table comes before results"
    # Edited in place whenever it changed: it shows the last table the game produced.
    last = t.tables[sid][-1]
    assert last.picture is not None
    assert shown.caption == last.text[:CAPTION_LIMIT]
    markup = t.bot.messages.markup(last.keyboard, GROUP)
    assert shown.reply_markup == (markup.to_dict() if markup is not None else None)
    assert shown.photo == last.picture.render("telegram")
    photo_edits = [c for c in calls
                   if c.method in ("editMessageMedia", "editMessageCaption") and c.ok]
    assert [c.params["message_id"] for c in photo_edits] == [shown.message_id] * len(shown.edits)
    # Coalesced: the outbox spaces in-place updates, however fast the table changes.
    if shown.edits:
        played = shown.edits[-1].at - sent[0].at
        assert len(shown.edits) <= 1 + played / t.budget.spacing, "table edits are coalesced"
    print(f"table: {len(t.tables[sid])} screens, {len(shown.edits)} edits")


@pytest.mark.parametrize(("words", "deals"), [("dragon deals=2", 2), ("domino 50", None),
                                              ("tiengow streak deals=2", 2),
                                              ("kaptaishap culin deals=2", 2),
                                              ("threedozen deals=2", 2)])
async def test_three_people_and_a_computer_play_a_match(group: Group, server: FakeTelegram,
                                                        words: str, deals: int | None) -> None:
    sid = await group.open_game(words, PEOPLE, computers=1)
    presses = await group.play(sid, PEOPLE)
    assert await group.status(sid) == "finished"
    assert group.bot is not None
    await group.bot.drain()
    await settle_check(group, sid, deals)
    hands_only_to_owners(server)
    posts = [m for m in server.messages(GROUP) if m.has_photo and "Роздач" in (m.caption or "")]
    assert posts, "every deal's result is posted"
    assert "Матч закінчено" in (posts[-1].caption or "")
    calls = server.group_calls(GROUP)
    per_minute = server.max_per_window(GROUP, 60.0)
    print(f"\n{words}: {presses} presses, {len(calls)} group messages, "
          f"at most {per_minute} in a minute")
    assert per_minute <= 20
    table_shows_the_game(group, server, sid, posts)
    answers = server.answers()
    assert len(answers) == len(server.calls("answerCallbackQuery"))
    presses_made = [u for u in server.calls() if u.method == "getUpdates"]
    assert presses_made


def table_reply(text: str, *, fresh: bool = False, closed: bool = False,
                posts: tuple[str, ...] = ()) -> Reply:
    """What the session layer hands the adapter for game 1 in the group (text tables: which
    call shows them does not matter here, only which message and in what order)."""
    return Reply(session_id=1, place=Place(str(GROUP)), table=Screen(text), table_fresh=fresh,
                 posts=[Post(Screen(p)) for p in posts], closed=closed)


async def test_a_new_table_comes_before_the_results_posted_after_it(
        server: FakeTelegram, tmp_path: Path) -> None:
    """The table that replaces the lobby is a new message, not an edit: it is not held back
    until edits are due again, or a short match's results would appear above it."""
    t = Group(server, tmp_path / "db", budget=Budget(spacing=1.0))
    bot = await t.start()
    try:
        await bot.deliver(table_reply("lobby", fresh=True))
        await server.wait_for(lambda: server.messages(GROUP))
        await bot.deliver(table_reply("deal 1", fresh=True))
        await bot.deliver(table_reply("deal 1 over", posts=("result 1",)))
        await bot.deliver(table_reply("match over", posts=("result 2",), closed=True))
        await bot.drain()
        assert [m.text for m in server.messages(GROUP)] == ["match over", "result 1", "result 2"]
    finally:
        await t.stop()


@pytest.mark.real_time
async def test_the_bot_fetches_its_updates_by_long_polling(server: FakeTelegram, tmp_path: Path
                                                           ) -> None:
    """The other tests hand the updates over on the test's clock; here the bot's own long poll
    fetches them as it does in production."""
    t = Group(server, tmp_path / "db", polling=True)
    await t.start()
    try:
        sid = await t.open_game("dragon deals=1", (OLENA, BOB), computers=2)
        assert await t.play(sid, (OLENA, BOB), until=2) == 2
        polls = server.calls("getUpdates")
        assert polls and all(float(c.params.get("timeout") or 0) == 1 for c in polls[1:])
    finally:
        await t.stop()


async def test_a_game_that_ends_during_an_edit_still_shows_its_end(
        server: FakeTelegram, tmp_path: Path) -> None:
    """The adapter forgets a finished game's table once its last screen is shown, not once any
    edit finishes: the end may arrive while an earlier edit is on its way."""
    t = Group(server, tmp_path / "db", budget=Budget(spacing=0.1))
    bot = await t.start()
    try:
        await bot.deliver(table_reply("deal 1", fresh=True))
        await server.wait_for(lambda: server.messages(GROUP))
        server.hold("editMessageText")
        await bot.deliver(table_reply("deal 1, a move"))
        await server.wait_for(lambda: server.held("editMessageText") == 1)
        await bot.deliver(table_reply("match over", posts=("result",), closed=True))
        server.release("editMessageText")
        await bot.drain()
        assert [m.text for m in server.messages(GROUP)] == ["match over", "result"]
        assert 1 not in bot.tables
    finally:
        await t.stop()


async def test_the_group_budget_holds_under_pressure(server: FakeTelegram, tmp_path: Path
                                                     ) -> None:
    """A tight budget (5 calls per 2 s) is never exceeded however fast the table changes."""
    server.group_limit = None  # a budget of the test's own, faster than Telegram's
    t = Group(server, tmp_path / "db", budget=Budget(cap=5, window=2.0, spacing=0.1))
    await t.start()
    try:
        sid = await t.open_game("dragon deals=1", (OLENA,), computers=3)
        await t.play(sid, (OLENA,))
        assert t.bot is not None
        await t.bot.drain()
        assert server.max_per_window(GROUP, 2.0) <= 5
        assert len(server.group_calls(GROUP)) >= 5
    finally:
        await t.stop()


async def test_a_restart_mid_deal_loses_nothing_and_old_buttons_work(
        server: FakeTelegram, tmp_path: Path) -> None:
    slow = Timing(computer_delay=0.02, deal_pause=0.05, restore_grace=0.0)
    t = Group(server, tmp_path / "db", timing=slow)
    await t.start()
    sid = await t.open_game("dragon deals=1", PEOPLE, computers=1)
    await t.play(sid, PEOPLE, until=5)
    assert t.bot is not None
    await t.bot.drain()
    mover = next(u for u in PEOPLE if t.moves(u))
    hand = t.hand(mover)
    assert hand is not None
    old_button = t.moves(mover)[0]
    await t.stop()

    before = len(server.group_calls(GROUP))
    t2 = Group(server, tmp_path / "db", timing=slow)
    await t2.start()
    try:
        # The restored game's table is shown again, edited in place.
        await server.wait_for(lambda: any(c.method == "editMessageMedia"
                                          for c in server.group_calls(GROUP)[before:]))
        answer = await t2.answer_to(t2.press(mover, hand, old_button))
        assert answer == "", f"the old button was refused: {answer}"
        await t2.play(sid, PEOPLE)
        assert await t2.status(sid) == "finished"
        await settle_check(t2, sid, 1)
    finally:
        await t2.stop()


async def test_stale_forged_and_foreign_presses(group: Group, server: FakeTelegram) -> None:
    sid = await group.open_game("dragon", (OLENA, BOB), computers=0)
    await server.wait_for(lambda: any(group.moves(u) for u in (OLENA, BOB)))
    mover = next(u for u in (OLENA, BOB) if group.moves(u))
    hand = group.hand(mover)
    assert hand is not None and group.storage is not None
    button = group.moves(mover)[0]
    before = await group.storage.sessions.get(sid)

    # A modified client can send any button data, here a player's move under the group's group.
    await server.wait_for(lambda: any(m.has_photo for m in server.messages(GROUP)))
    board = next(m for m in server.messages(GROUP) if m.has_photo)
    foreign = await group.answer_to(group.press(STRANGER, board, button))
    assert foreign == tr("en", "err.not_your_game")  # in the stranger's language
    forged = await group.answer_to(group.press(mover, hand, "g:1:2:play.66a\x00"))
    assert forged
    junk = await group.answer_to(group.press(mover, hand, "hello"))
    assert junk in ("Ця кнопка не моя.", "That button is not one of mine.")
    after = await group.storage.sessions.get(sid)
    assert before is not None and after is not None
    assert (after.version, after.state) == (before.version, before.state)

    assert await group.answer_to(group.press(mover, hand, button)) == ""
    stale = await group.answer_to(group.press(mover, hand, button))
    assert "out of date" in stale or "застаріла" in stale
    for answer in server.answers():
        assert not answer.show_alert


async def test_a_player_who_never_started_the_bot_gets_a_start_me_button(
        server: FakeTelegram, tmp_path: Path) -> None:
    shy = User(105, "Тарас", "uk")
    t = Group(server, tmp_path / "db")
    await t.start()
    try:
        t.say(OLENA, "/newgame dragon")
        await server.wait_for(t._has_lobby)
        t.say(shy, "/join")
        await server.wait_for(lambda: any("Почати розмову" in json.dumps(
            m.reply_markup or {}, ensure_ascii=False) for m in server.messages(GROUP)))
        message = next(m for m in server.messages(GROUP)
                       if "Почати розмову" in json.dumps(m.reply_markup or {},
                                                         ensure_ascii=False))
        url = message.reply_markup["inline_keyboard"][0][0]["url"]
        assert url.startswith("https://t.me/gupai_test_bot?start=h_")
        assert "Тарас" in (message.text or "")
        failed = [c for c in server.calls() if c.chat_id == shy.id and not c.ok]
        assert failed and "initiate" in (failed[0].error or "")
        # Peek works without a private chat.
        answer = await t.answer_to(t.press(OLENA, t.lobby(), t.data(t.lobby(), "!start")))
        assert answer == "Гру почато!"
        await server.wait_for(lambda: any(m.has_photo for m in server.messages(GROUP)))
        board = next(m for m in server.messages(GROUP) if m.has_photo)
        peek = t.press(shy, board, t.data(board, "!peek"))
        await t.answer_to(peek)
        alert = next(a for a in server.answers() if a.callback_query_id == f"cq{peek}")
        assert alert.show_alert and (alert.text or "").startswith("Ваші плитки: A")
        # Once the player starts the bot through the link, the tiles arrive.
        server.start_bot(shy)
        t.say(shy, f"/start {url.split('start=')[1]}", chat=shy.id)
        await server.wait_for(lambda: t.hand(shy) is not None)
    finally:
        await t.stop()


async def test_flood_control_is_retried(group: Group, server: FakeTelegram) -> None:
    server.fail_next("sendMessage", status=429, retry_after=1)
    group.say(OLENA, "/newgame tails")
    await server.wait_for(group._has_lobby, timeout=15)
    refused = [c for c in server.calls("sendMessage") if not c.ok]
    assert refused and "retry after" in (refused[0].error or "").lower()


async def test_an_absent_player_is_replaced_by_the_computer(
        server: FakeTelegram, tmp_path: Path) -> None:
    t = Group(server, tmp_path / "db")
    await t.start()
    try:
        assert t.storage is not None and t.bot is not None
        chat_id = await t.storage.accounts.chat("telegram", GROUP, "")
        await t.storage.accounts.update_settings(chat_id, turn_timeout=1)
        sid = await t.open_game("dragon deals=1", (OLENA, BOB), computers=0)

        async def only_olena_plays() -> None:
            while await t.status(sid) == "active":
                moves, hand = t.moves(OLENA), t.hand(OLENA)
                if moves and hand is not None:
                    await t.answer_to(t.press(OLENA, hand, moves[0]))
                else:
                    await asyncio.sleep(0.02)
        await asyncio.wait_for(only_olena_plays(), 120)
        await t.bot.drain()
        # (in Bob's own language: his client's is English)
        told = [m for m in server.messages(BOB.id) if tr("en", "hand.now_away") in (m.content
                                                                                  or "")]
        assert told, "Bob is told the computer plays for him"
        # He was offered "I'm back" while the match went on; once it is over, no button is left.
        assert any(tr("en", "btn.back") in json.dumps(c.params.get("reply_markup") or {},
                                                      ensure_ascii=False)
                   for c in server.calls() if c.ok and c.chat_id == BOB.id)
        final = t.hand(BOB)
        assert final is not None and final.button_data() == []
        assert tr("en", "table.over") in (final.content or "")
        deals = await t.storage.db.read("SELECT id FROM deals WHERE session_id = ?", (sid,))
        assert len(deals) == 1
    finally:
        await t.stop()


async def test_commands_answer_in_both_languages(group: Group, server: FakeTelegram) -> None:
    assert server.commands("uk") and server.commands("en")
    uk = {c["command"]: c["description"] for c in server.commands("uk") or []}
    assert set(uk) >= {"newgame", "join", "leave", "stop", "games", "rules", "chips", "top",
                       "stats", "lang", "settings", "help"}
    group.say(OLENA, "/games")
    await server.wait_for(lambda: any("dragon" in (m.text or "")
                                      for m in server.messages(GROUP)))
    group.say(OLENA, "/rules domino")
    await server.wait_for(lambda: any("Доміно" in (m.text or "") and "базар" in (m.text or "")
                                      for m in server.messages(GROUP)))
    group.say(STRANGER, "/lang en")
    await server.wait_for(lambda: any("адміністратори" in (m.text or "")
                                      for m in server.messages(GROUP)))
    server.make_admin(GROUP, OLENA)
    group.say(OLENA, "/lang en")
    await server.wait_for(lambda: any(m.text == "Language set to English."
                                      for m in server.messages(GROUP)))
    group.say(BOB, "/chips")
    await server.wait_for(lambda: any(m.text and m.text.startswith("Bob: 1000 chips")
                                      for m in server.messages(GROUP)))
    group.say(BOB, "/top all")
    await server.wait_for(lambda: any(m.has_photo and "Leaderboard" in (m.caption or "")
                                      for m in server.messages(GROUP)))
    group.say(BOB, "/top season")
    await server.wait_for(lambda: any((m.text or "").startswith("Nobody has played in season 1")
                                      for m in server.messages(GROUP)))
    group.say(BOB, "/newgame chess")
    await server.wait_for(lambda: any("chess" in (m.text or "")
                                      for m in server.messages(GROUP)))
    group.say(BOB, "/stop")
    await server.wait_for(lambda: any(m.text == "There is no game here. Start one with /newgame."
                                      for m in server.messages(GROUP)))
    group.say(BOB, "/nonsense", chat=BOB.id)
    await server.wait_for(lambda: any("/help" in (m.text or "")
                                      for m in server.messages(BOB.id)))


async def test_the_token_never_reaches_the_logs(group: Group, server: FakeTelegram,
                                                caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    group.say(OLENA, "/newgame dragon")
    await server.wait_for(group._has_lobby)
    await server.wait_idle()
    assert TOKEN not in caplog.text


# ----- nothing a player should see is lost ------------------------------------------------------

@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_post_refused_past_the_librarys_retries_is_sent_later(
        group: Group, server: FakeTelegram) -> None:
    """Flood control outlasts the library's three retries: the post waits and goes, once."""
    server.fail_next("sendMessage", status=429, retry_after=1, count=5)
    assert group.bot is not None
    await group.bot.deliver(table_reply("the table", posts=("the result",)))
    await group.bot.drain()
    results = [m for m in server.messages(GROUP) if m.text == "the result"]
    assert len(results) == 1
    assert len([c for c in server.calls("sendMessage") if not c.ok]) == 5


async def test_a_huge_page_number_is_answered(group: Group, server: FakeTelegram) -> None:
    group.say(OLENA, "/chips")
    await server.wait_for(lambda: any("1000" in (m.text or "") for m in server.messages(GROUP)))
    group.say(OLENA, "/top all 99999999999999999999")
    await server.wait_for(lambda: any("лише 1 сторінка" in (m.text or "")
                                      for m in server.messages(GROUP)))


async def test_the_leaderboard_turns_its_pages(group: Group, server: FakeTelegram) -> None:
    assert group.storage is not None
    chat_id = await group.storage.accounts.chat("telegram", GROUP, "")
    for n in range(12):
        user = await group.storage.accounts.user("telegram", str(500 + n), f"P{n}")
        await group.storage.accounts.balance(chat_id, user)
    group.say(BOB, "/top all")
    await server.wait_for(lambda: any(m.has_photo for m in server.messages(GROUP)))
    board = next(m for m in server.messages(GROUP) if m.has_photo)
    assert "10. " in (board.content or "") and "11. " not in (board.content or "")
    forward = group.data(board, "!top-all")
    await group.answer_to(group.press(BOB, board, forward))
    await server.wait_for(lambda: "11. P10" in (server.message(GROUP, board.message_id)
                                                 or board).content)
    turned = server.message(GROUP, board.message_id)
    assert turned is not None and turned.edits[-1].method == "editMessageMedia"
    assert group.data(turned, "!top-all").split(":")[2] == "1"  # back to page 1


async def test_the_hand_itself_answers_a_start_link_in_the_private_chat(
        group: Group, server: FakeTelegram) -> None:
    sid = await group.open_game("dragon", (OLENA, BOB), computers=0)
    await server.wait_for(lambda: group.hand(BOB) is not None)
    before = len(server.messages(BOB.id))
    group.say(BOB, f"/start h_{sid}", chat=BOB.id)
    await server.wait_for(lambda: len(server.messages(BOB.id)) > before or any(
        c.chat_id == BOB.id and c.method == "deleteMessages" for c in server.calls()))
    await server.wait_idle()
    sentences = [m.text for m in server.messages(BOB.id) if m.text]
    assert tr("en", "hand.sent") not in sentences  # (Bob's language)
    assert group.hand(BOB) is not None
    group.say(BOB, "/start h_99999999999999999999999", chat=BOB.id)
    await server.wait_for(lambda: any("/newgame" in (m.text or "")
                                      for m in server.messages(BOB.id)))


async def test_a_finished_match_offers_to_play_again(group: Group, server: FakeTelegram) -> None:
    sid = await group.open_game("dragon deals=1", (OLENA,), computers=1)
    await group.play(sid, (OLENA,))
    assert group.bot is not None
    await group.bot.drain()
    result = [m for m in server.messages(GROUP) if m.has_photo and "Матч закінчено"
              in (m.content or "")][-1]
    again = group.data(result, "!again")
    last = group.tables[sid][-1].text
    (board,) = [m for m in server.messages(GROUP) if m.content == last[:CAPTION_LIMIT]]
    assert board.button_data() == [] and "Матч закінчено." in last  # no Peek, no My tiles
    assert await group.answer_to(group.press(OLENA, result, again)) == tr("uk", "again.opened")
    await server.wait_for(lambda: group._has_lobby() and group.lobby().message_id
                          > result.message_id)
    assert "Комп'ютер 1" in (group.lobby().content or "")
