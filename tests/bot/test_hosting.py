"""Host controls through the session layer: taking over seats, removing players, skipping a turn,
the creator's role passing on, and hearing of new lobbies (docs/architecture.md §4). A command typed
in the chat is answered there, in the chat's language (Ukrainian here); what only one person sees
(their hand, a note) is in theirs."""

from __future__ import annotations

import bot.session.lobby
from bot.present.screens import Actor, Target
from bot.session.commands import Commands
from tests.support.books import check_books
from tests.support.session_helpers import (
    BOB,
    KIM,
    OLENA,
    PLACE,
    SLOW,
    anyone,
    close,
    lobby,
    manager,
    nobody,
    play_out,
)
from words.i18n import tr

ANNA = Actor("4", "Anna", "en")


def seats(session) -> list[dict]:
    return list(session.seats)


async def mover_of(m, rec, people: list[Actor]) -> Actor | None:
    return next((a for a in people if rec.moves(a.platform_id)), None)


async def test_join_in_a_running_game_takes_a_computers_seat(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["dragon", "deals=2", "5"], [OLENA, BOB], computers=1)
        assert tr("uk", "table.free", names="Комп'ютер 1") in rec.table.text
        reply = await m.join(PLACE, KIM)
        assert reply.toast == tr("uk", "host.took_seat", name="Кім")
        session = await m.session(sid)
        kim = seats(session)[2]
        assert (kim["name"], kim["computer"], kim["platform_id"]) == ("Кім", False, "3")
        assert kim["staked"] is None, "a newcomer plays for chips from the next deal on"
        assert "3" in rec.hands, "the newcomer gets their hand"
        assert "/join" not in rec.table.text.split("\n")[-1]
        # A second newcomer finds no free seat.
        refused = await m.join(PLACE, ANNA)
        assert refused.toast == tr("uk", "host.no_seat")
        await play_out(m, rec, [OLENA, BOB, KIM], limit=120)
        kim_deals = await m.storage.db.read(
            "SELECT d.deal_no, s.staked FROM deal_seats s JOIN deals d ON d.id = s.deal_id "
            "JOIN users u ON u.id = s.user_id WHERE u.platform_id = '3' ORDER BY d.deal_no")
        assert [(r["deal_no"], r["staked"]) for r in kim_deals] == [(0, 0), (1, 1)]
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_a_player_who_leaves_gets_their_seat_back_and_stays_at_stake_in_the_deal(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["dragon", "deals=2", "5"], [OLENA, BOB, KIM])
        reply = await m.leave(PLACE, BOB)
        assert reply.toast == tr("uk", "table.left_game", name="Bob")
        assert tr("en", "hand.left_game") in rec.hands["2"].text
        assert rec.hands["2"].keyboard == ()
        session = await m.session(sid)
        bob = seats(session)[1]
        assert bob["gone"] == "left" and bob["staked"] == bob["user_id"]
        assert (await m.storage.tables.held(sid))[bob["user_id"]] == 500, "still at stake"
        # Back, he takes his own seat again (and is still the one at stake in this deal).
        back = await m.join(PLACE, BOB)
        assert back.toast == tr("uk", "host.took_seat", name="Bob")
        session = await m.session(sid)
        assert seats(session)[1]["gone"] == "" and seats(session)[1]["platform_id"] == "2"
        assert seats(session)[1]["staked"] == bob["user_id"]
        assert tr("en", "hand.left_game") not in rec.hands["2"].text
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_a_newcomer_takes_a_computer_before_the_seat_of_someone_who_left(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["dragon", "deals=2"], [OLENA, BOB], computers=1)
        await m.leave(PLACE, BOB)
        await m.join(PLACE, ANNA)
        session = await m.session(sid)
        assert [s["name"] for s in seats(session)] == ["Олена", "Bob", "Anna"]
        assert seats(session)[1]["gone"] == "left"
        # Kim takes Bob's seat, the last free one. Bob, back in this deal, is still at stake on
        # it, so he waits for the deal's end before sitting anywhere.
        await m.join(PLACE, KIM)
        assert seats(await m.session(sid))[1]["name"] == "Кім"
        refused = await m.join(PLACE, BOB)
        assert refused.toast == tr("uk", "host.after_deal")
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_an_away_seat_is_taken_over_and_its_player_told(tmp_path, monkeypatch):
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=8: "5eed" * n)
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["kapten", "deals=2", "3"], [OLENA, BOB])
        mover = await mover_of(m, rec, [OLENA, BOB])
        assert mover is not None
        index = 0 if mover is OLENA else 1
        other = BOB if mover is OLENA else OLENA
        while not seats(await m.session(sid))[index]["away"]:  # two turns run out
            if await mover_of(m, rec, [OLENA, BOB]) is other:
                await m.press(other, rec.moves(other.platform_id)[0].data)
            else:
                await m.timers.due(await m.session(sid))
                await m.idle()
        reply = await m.join(PLACE, KIM)
        assert reply.toast == tr("uk", "host.took_seat", name="Кім")
        seat = seats(await m.session(sid))[index]
        assert seat["name"] == "Кім" and not seat["away"]
        assert tr(mover.language, "host.seat_taken_from_you", name="Кім") in \
            rec.hands[mover.platform_id].text
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_the_host_removes_players_from_a_lobby_and_from_a_game(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        for actor in (BOB, KIM):
            await m.join(PLACE, actor)
        refused = await m.remove(PLACE, BOB, Target(name="Кім"), nobody)
        assert refused.toast == tr("uk", "host.rights")
        unknown = await m.remove(PLACE, OLENA, Target(name="Nobody"), nobody)
        assert unknown.toast == tr("uk", "host.no_such_player", name="Nobody")
        long = await m.remove(PLACE, OLENA, Target(name="x" * 5000), nobody)
        assert long.toast == tr("uk", "host.no_such_player", name="x" * 64)
        self_ = await m.remove(PLACE, OLENA, Target(name="олена"), nobody)
        assert self_.toast == tr("uk", "host.not_yourself")
        done = await m.remove(PLACE, OLENA, Target(name="кім"), nobody)
        assert done.toast == tr("uk", "host.removed", name="Кім")
        assert tuple(u for u, _ in rec.private if u == "3")[-1:] == ("3", )
        session = await m.open_in(PLACE)
        assert [s["name"] for s in seats(session)] == ["Олена", "Bob"]
        await m.press(OLENA, rec.button(rec.table, "!start").data)
        # In a game an admin may do it too, by the player's id (a reply, a user option).
        done = await m.remove(PLACE, KIM, Target(platform_id="2"), anyone)
        assert done.toast == tr("uk", "host.removed", name="Bob")
        session = await m.open_in(PLACE)
        assert seats(session)[1]["gone"] == "removed"
        assert tr("en", "host.removed_you", name="Кім") in rec.hands["2"].text
        again = await m.join(PLACE, BOB)
        assert again.toast == tr("uk", "host.removed_before")
        check_books(tmp_path / "db")
    finally:
        await close(m)


async def test_the_host_skips_a_stuck_turn(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB])
        mover = await mover_of(m, rec, [OLENA, BOB])
        other = BOB if mover is OLENA else OLENA
        before = (await m.session(sid)).version
        refused = await m.skip(PLACE, BOB, nobody)
        assert refused.toast == tr("uk", "host.rights")
        done = await m.skip(PLACE, OLENA, nobody)
        assert done.toast == tr("uk", "host.skipped", name=mover.name)
        session = await m.session(sid)
        assert session.version > before
        index = 0 if mover is OLENA else 1
        assert seats(session)[index]["misses"] == 1, "a skipped turn is a missed turn"
        assert await mover_of(m, rec, [OLENA, BOB]) in (other, None)
    finally:
        await close(m)


async def test_the_creators_role_passes_to_the_next_person(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        for actor in (BOB, KIM):
            await m.join(PLACE, actor)
        assert tr("uk", "table.host", name="Олена") in rec.table.text
        await m.leave(PLACE, OLENA)
        assert tr("uk", "table.host", name="Bob") in rec.table.text
        await m.press(BOB, rec.button(rec.table, "!start").data)
        await m.leave(PLACE, BOB)
        assert tr("uk", "table.host", name="Кім") in rec.table.text
        assert (await m.skip(PLACE, KIM, nobody)).toast != tr("uk", "host.rights")
    finally:
        await close(m)


async def test_notify_tells_once_per_lobby_those_who_asked(tmp_path):
    m, rec = await manager(tmp_path / "db", SLOW)
    try:
        commands = Commands(m)
        # (Bob comes first: the chat speaks his language, and answers in the chat are in it)
        on = await commands.run("notify", PLACE, BOB, [], nobody)
        assert on.answer.text == tr("en", "notify.on")
        await commands.run("notify", PLACE, KIM, [], nobody)
        await m.new_game(PLACE, OLENA, ["tiengow", "2"])
        invites = [r.invites for r in rec.replies if r.invites]
        assert len(invites) == 1
        by_user = dict(invites[0])
        assert set(by_user) == {"2", "3"}
        assert by_user["2"].text.startswith("A new game is open in Test group")
        assert by_user["3"].text.startswith("У чаті Test group")
        assert by_user["2"].keyboard[0][0].link == ("join", (await m.open_in(PLACE)).id)
        off = await commands.run("notify", PLACE, KIM, [], nobody)
        assert off.answer.text == tr("en", "notify.off")
        await m.stop(PLACE, OLENA, anyone)
        await m.new_game(PLACE, BOB, ["tiengow"])
        invites = [r.invites for r in rec.replies if r.invites]
        assert len(invites) == 1, "Bob opened it himself and Kim stopped listening"
    finally:
        await close(m)
