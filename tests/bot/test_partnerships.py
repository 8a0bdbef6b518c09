"""Partnerships through the session layer (`Rules.teams`, docs/architecture.md §11): the lobby seats
partners opposite and says so, the result names each team with its points, the chips of a deal move
only between people (each person's net is the team's where the opponent it pays is a person), the
match's end names the winning team or a draw, and the leaderboard and the stats count a partnership
deal like any other. Deer Hunt (docs/rules-book.md §2.12) is the game with teams; Dragon is there to
show that a game without them says nothing of them."""

from __future__ import annotations

import re
import sqlite3

from bot.present import presenter
from bot.session.seating import Seat
from games import get
from games.engine import Match
from tests.support.session_helpers import (
    BOB,
    KIM,
    OLENA,
    PLACE,
    balances,
    close,
    fix_seed,
    lobby,
    manager,
    play_out,
)
from words.i18n import tr


def fixed_seed(monkeypatch) -> None:
    fix_seed(monkeypatch, "dee5" * 16)


async def test_the_lobby_seats_partners_opposite_and_says_so(tmp_path, monkeypatch):
    fixed_seed(monkeypatch)
    m, rec = await manager(tmp_path / "db")
    try:
        await m.new_game(PLACE, OLENA, ["deerhunt"])
        for actor in (BOB, KIM):
            await m.join(PLACE, actor)
        text = rec.table.text
        assert tr("uk", "lobby.partners", teams="1 & 3 проти 2 & 4") in text
        assert "1. Олена · команда А" in text and "2. Bob · команда Б" in text
        assert "3. Кім · команда А" in text
    finally:
        await close(m)
    m, rec = await manager(tmp_path / "db2")
    try:
        await m.new_game(PLACE, OLENA, ["dragon"])
        await m.join(PLACE, BOB)
        assert "команда" not in rec.table.text and "навпроти" not in rec.table.text
    finally:
        await close(m)


def chips_of(text: str) -> dict[str, int]:
    """The chips line of a result post: name → chips (a computer's "—" is left out)."""
    line = next(line for line in text.splitlines() if line.startswith("Фішки: "))
    found = {}
    for part in line.removeprefix("Фішки: ").split(" · "):
        name, _, chips = part.rpartition(" ")
        if re.fullmatch(r"[+−]?\d+", chips):
            found[name] = int(chips.replace("−", "-"))
    return found


async def test_a_session_settles_per_team_between_people(tmp_path, monkeypatch):
    """Olena (seat 1, team A) and Bob (seat 2, team B) play against each other with two
    computers as partners: every deal the loser's person pays the winner's person the
    difference (times the stake), and a computer moves nothing. Each result names both teams
    with their red pips; the last one names the winning team or a draw."""
    fixed_seed(monkeypatch)
    path = tmp_path / "db"
    m, rec = await manager(path)
    try:
        await lobby(m, rec, ["deerhunt", "2", "deals=2"], [OLENA, BOB], computers=2)
        await play_out(m, rec, [OLENA, BOB], limit=120)
        results = [post for post in rec.posts if post.text.startswith("Роздачу ")]
        assert len(results) == 2
        net = 0
        for post in results:
            lines = post.text.splitlines()
            teams = [line for line in lines if line.startswith("Команда ")]
            assert len(teams) == 2 and "(Олена, " in teams[0] and "(Bob, " in teams[1]
            pips = [int(re.search(r": (\d+) — черв", line).group(1)) for line in teams]
            chips = chips_of(post.text)
            assert set(chips) == {"Олена", "Bob"}
            assert chips["Олена"] == -chips["Bob"] == 2 * (pips[0] - pips[1])
            net += chips["Олена"]
        last = results[-1].text
        if net:
            winners = "команда А (Олена, " if net > 0 else "команда Б (Bob, "
            assert tr("uk", "result.match_team", team="x", names="y").split("x")[0] + \
                winners in last
        else:
            assert tr("uk", "result.match_drawn") in last
        money, granted = balances(path, "test")
        assert money == {"Олена": 1000 + net, "Bob": 1000 - net} and granted == 2000
        with sqlite3.connect(path) as conn:
            deals = conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
        assert deals == 2
    finally:
        await close(m)


def test_the_end_of_a_match_names_a_team_or_a_draw():
    seats = [Seat(user_id=i, name=name, platform_id=str(i)) for i, name in
             enumerate(["Ann", "Bob", "Carl", "Dana"], start=1)]
    teams = get("deerhunt").teams(4)
    won = Match(players=4, deal=4, winner=1, over=True)
    assert presenter.match_over(seats, teams, won, "en") == (
        "The match is over. Winners: team B (Bob, Dana)")
    drawn = Match(players=4, deal=4, over=True)
    assert presenter.match_over(seats, teams, drawn, "en") == "The match is over: a draw."
    assert presenter.match_over(seats, None, won, "en") == "The match is over. Winner: Bob"
    assert presenter.partners(teams, "en") == [
        "Partners sit opposite: 1 & 3 against 2 & 4."]
    assert presenter.partners(None, "en") == []


async def test_the_stats_count_a_partnership_deal_like_any_other(tmp_path, monkeypatch):
    fixed_seed(monkeypatch)
    path = tmp_path / "db"
    m, rec = await manager(path)
    try:
        await lobby(m, rec, ["deerhunt", "deals=1"], [OLENA, BOB, KIM], computers=1)
        await play_out(m, rec, [OLENA, BOB, KIM], limit=120)
        with sqlite3.connect(path) as conn:
            rows = conn.execute("SELECT COUNT(*), SUM(won) FROM deal_seats").fetchone()
        assert rows[0] == 4 and rows[1] in (0, 2)
    finally:
        await close(m)
