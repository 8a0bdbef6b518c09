"""A spectator's web table tells nothing of the tiles the table does not show, in every game and
preset (watching; docs/architecture.md §1 invariant 4).

The playouts' leak check (`tests/games/test_playouts.py`, its machinery in
`tests/support/hidden.py`) deals every tile the public may not know anew among the places such
tiles hold, and asks for the same view. Here the same twins are asked for everything a
spectator's page fetches: the table's JSON (`bot.web.web_table.table_json`, as `GET api/table`
sends it), and the board it draws (`GET api/board`: the picture requested, and for one position
a game its PNG bytes). The event stream sends versions and how many watch, nothing of a game.
Positions are taken from a deal played to its end by random moves; the game is a stored session
of the real session layer, its deal replaced by each position in turn.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

import games
from bot.present.screens import Actor
from bot.session.seating import Seat, computer_label
from bot.session.turns import with_last
from bot.web.web_table import Opened, table_json, table_screen
from games.engine import Rules
from storage import Session
from tests.support.hidden import Deal
from tests.support.session_helpers import close, lobby, manager

OLENA = Actor("1", "Олена", "uk")
BOB = Actor("2", "Bob", "en")
CASES = [(rules.id, preset) for rules in games.GAMES.values() for preset in rules.presets]
POSITIONS = 3
"""Positions checked in each deal: its first, one in the middle and its last before the end."""
TWINS = 2


def players_for(rules: Rules[Any, Any]) -> int:
    return max(rules.min_players, min(rules.default_players, rules.max_players))


def seats(players: int) -> list[dict[str, Any]]:
    """People in every seat but the first, which a computer plays (so a spectator may join)."""
    found = [Seat(100, computer_label(1), computer=True).to_json()]
    found += [Seat(101 + i, f"Player {i + 2}", platform_id=str(900 + i)).to_json()
              for i in range(players - 1)]
    return found


async def page(m: Any, session: Session, lang: str) -> tuple[str, Any]:
    """What a spectator's page fetches: the table's JSON, and the board's picture request."""
    seen = Opened(session, None, lang)
    assert seen.spectator
    body = await table_json(m, seen, "dark")
    assert body["hand"] is None and body["spectator"]
    screen, deal = await table_screen(m, seen)
    assert deal is not None and deal.own is None
    return json.dumps(body, sort_keys=True, ensure_ascii=False), screen.picture


@pytest.mark.parametrize(("game", "preset"), CASES)
async def test_a_spectators_page_shows_no_hidden_tile(tmp_path: Path, game: str,
                                                      preset: str) -> None:
    m, rec = await manager(tmp_path / "bot.sqlite3")
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB], 1)
        stored = await m.storage.sessions.get(sid)
        assert stored is not None
        rules = games.GAMES[game]
        players = players_for(rules)
        options = rules.options(preset=preset)
        state = rules.new_deal(options, players, f"watch/{game}/{preset}")
        chooser = random.Random(f"{game}/{preset}")
        deal = Deal(rules, state, lambda s, _: chooser.choice(rules.legal_actions(s)))
        last = len(deal.positions) - 2
        chosen = sorted({0, last // 2, last})[:POSITIONS]
        base = stored.but(game=game, options={"preset": preset, "values": {},
                                              "seed": "watch"}, seats=seats(players))
        now = m.clock()
        m.clock = lambda: now  # the countdown shows the same time left on both pages
        for n in chosen:
            position = deal.positions[n]
            events: tuple[Any, ...] = ()
            if n:
                before = deal.positions[n - 1]
                assert before.action is not None
                _, events = rules.apply(before.state, before.action)

            def at(state: Any, n: int = n, events: tuple[Any, ...] = events) -> Session:
                return dataclasses.replace(base, state=rules.dumps(state), version=10 + n,
                                           messages=with_last(base, events))
            for lang in ("uk", "en"):
                body, picture = await page(m, at(position.state), lang)
                assert '"join": true' in body, "a free seat is offered to a spectator"
                for twin_number in range(TWINS):
                    twin = deal.twin(position, None, f"{game}/{preset}/{n}/{twin_number}")
                    twin_body, twin_picture = await page(m, at(twin), lang)
                    assert twin_body == body, f"{game} {preset}: the page shows hidden tiles"
                    assert twin_picture == picture, f"{game} {preset}: the board does"
                    if n == chosen[len(chosen) // 2] and lang == "en" and twin_number == 0:
                        assert twin_picture.render("lossless") == picture.render("lossless")
    finally:
        await close(m)


async def test_the_check_catches_a_page_that_shows_a_hand(tmp_path: Path) -> None:
    """A twin's page differs wherever a hidden tile is shown: a seat's hand on the spectator's
    table, as a leaking page would show it, is caught."""
    m, rec = await manager(tmp_path / "bot.sqlite3")
    try:
        sid = await lobby(m, rec, ["dragon"], [OLENA, BOB], 1)
        stored = await m.storage.sessions.get(sid)
        assert stored is not None
        rules = games.GAMES["dragon"]
        state = rules.new_deal(rules.options(), 4, "watch/leak")
        deal = Deal(rules, state, lambda s, _: rules.legal_actions(s)[0])
        base = stored.but(seats=seats(4))
        position = deal.positions[0]
        twin = deal.twin(position, None, "x")
        shown = []
        for each in (position.state, twin):
            session = dataclasses.replace(base, state=rules.dumps(each))
            seen = Opened(session, 1, "en")  # as if the page showed seat 1's hand
            shown.append(json.dumps(await table_json(m, seen, "dark"), sort_keys=True))
        assert shown[0] != shown[1]
    finally:
        await close(m)
