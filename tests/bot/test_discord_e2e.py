"""The Discord bot end to end: the real discord.py client, command tree and `DynamicItem` templates,
fed gateway-shaped interactions; HTTP answered and recorded by `tests.support.fake_discord`
(docs/architecture.md §9). People press the buttons the bot really sent, on the messages they see.
"""

from __future__ import annotations

import asyncio
import copy
import io
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

import bot.session.lobby
from bot.discord.discord_components import view_of
from bot.discord.discord_hands import TOKEN_LIFE
from bot.discord.discord_messages import plain
from bot.present.screens import Button, Place
from faces import rules_text
from games import GAMES
from tests.support.discord_server import (
    BOB,
    CHANNEL,
    GUILD,
    JSON,
    KIM,
    OLENA,
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
    User,
    autocomplete,
    permissions_without,
    slash,
)
from tests.support.helpers import short_match
from tests.support.logs import no_errors_logged  # noqa: F401 - autouse
from tests.support.session_helpers import balances
from words.i18n import lang_of, tr

ADMIN = User(105, "Admin", "en-US", permissions=ALL_PERMISSIONS)

pytestmark = pytest.mark.timeout(120)



@pytest.fixture
async def server(tmp_path: Path) -> Any:
    running = Server(tmp_path / "discord.sqlite3")
    await running.start()
    yield running
    await running.stop()
    assert running.fake is not None
    assert running.fake.problems == []  # e.g. an embed's picture neither sent nor kept
    assert running.fake.limited == []  # nothing came too fast for Discord


async def open_game(server: Server, options: dict[str, Any], people: tuple[Any, ...],
                    computers: int) -> None:
    answer = await server.command(people[0], "newgame", options)
    assert "«Приєднатися»" in answer or "“Join”" in answer, answer
    for user in people[1:]:
        toast = await server.press(user, server.table(), server.data(server.table(), "!join"))
        assert toast in (tr("uk", "lobby.joined"), tr("en", "lobby.joined")), toast
    for _ in range(computers):
        await server.press(people[0], server.table(), server.data(server.table(), "!add"))
    toast = await server.press(people[0], server.table(), server.data(server.table(), "!start"))
    assert toast in ("Гру почато!", "The game begins!"), toast


def move_choices(hand: dict[str, Any]) -> list[tuple[str, list[str] | None]]:
    """What a player can do on a hand: (custom id, None) for a button, (custom id, [value])
    for the first option of a moves select."""
    found: list[tuple[str, list[str] | None]] = []
    for component in components(hand):
        custom = component.get("custom_id", "")
        if component["type"] == 2 and "!" not in custom:
            found.append((custom, None))
        elif component["type"] == 3 and ":moves" in custom:
            found.append((custom, [component["options"][0]["value"]]))
    return found


async def play_deal(server: Server, people: tuple[Any, ...], *, use_tiles: bool = False
                    ) -> int:
    """Every person plays the first move offered on their ephemeral hand (a group first when
    the moves are grouped) until the deal's result is posted; returns the presses made."""
    assert server.bot is not None
    place = Place(str(GUILD), str(CHANNEL))
    results = len(server.results())
    presses = 0
    if await server.bot.manager.open_in(place) is None:
        # Won straight from the deal, and the match is over: the result is posted at the
        # channel's pace.
        await server.wait_for(lambda: bool(server.results()))
        return presses
    for user in people:
        shown = [m for m in server.channel() if any(c.endswith("!hand") for c in custom_ids(m))]
        if shown:
            await server.press(user, shown[-1], server.data(shown[-1], "!hand"))
        if server.hand(user) is None:
            # Computers may end a deal before a person looks (a Kap hand complete on their
            # first turns): then there is no hand to show, and the deal's result comes.
            await server.wait_for(lambda: len(server.results()) > results)
            return presses
    for _ in range(600):
        if len(server.results()) > results:
            return presses
        moved = False
        for user in people:
            hand = server.hand(user)
            if hand is None:
                continue
            tiles = next((c for c in components(hand) if c["type"] == 3
                          and c["custom_id"].endswith(":tiles")), None)
            choices = move_choices(hand)
            if use_tiles and tiles is not None:
                letters = [o["value"] for o in tiles["options"][:tiles["min_values"]]]
                await server.choose(user, hand, tiles["custom_id"], letters)
            elif choices:
                custom, values = choices[0]
                if values is None:
                    toast = await server.press(user, hand, custom)
                else:
                    toast = await server.choose(user, hand, custom, values)
                assert toast == "", toast
            else:
                groups = [c for c in custom_ids(hand) if "!pick-" in c]
                if not groups:
                    continue
                await server.press(user, hand, groups[0])
            presses += 1
            moved = True
            break
        if not moved:
            await asyncio.sleep(0.03)
            await server.drain()
    raise AssertionError("the deal did not end: " + text_of(server.table()))




# ----- whole deals by buttons -------------------------------------------------------------------

def _whole_deals() -> list[Any]:
    """Every game of `games.GAMES` at its usual table in a short match: three people and two
    in turn (as many as the table holds), computers in the other seats."""
    found = []
    for n, (game, rules) in enumerate(GAMES.items()):
        people = (OLENA, BOB, KIM)[:min(3 - n % 2, rules.default_players)]
        options = {"game": game, "options": " ".join(short_match(rules))}
        found.append(pytest.param(options, people, rules.default_players - len(people),
                                  id=f"{game}-{len(people)}"))
    return found


@pytest.mark.parametrize("options, people, computers", _whole_deals())
async def test_a_whole_deal_is_played_by_buttons(server: Server, options: dict[str, Any],
                                                 people: tuple[Any, ...],
                                                 computers: int) -> None:
    await open_game(server, options, people, computers)
    await play_deal(server, people)
    assert server.bot is not None
    if await server.bot.manager.open_in(Place(str(GUILD), str(CHANNEL))) is not None:
        # A match to a target goes on: its starter stops it, and what is on the table returns.
        await server.command(people[0], "stop")
    result = server.results()[-1]
    assert "result.png" in attachment_names(result)
    assert server.fake is not None and not server.fake.unhandled
    # Pictures go as Discord keeps them: palette PNGs (rendering.encoding), a third the bytes.
    uploads = [data for call in server.fake.calls for name, data in call.files
               if name.endswith(".png")]
    assert uploads and all(Image.open(io.BytesIO(data)).mode == "P" for data in uploads)
    chips, granted = balances(server.db, "discord")
    assert set(chips) >= {p.name for p in people}
    assert granted == 1000 * len(people)
    assert sum(chips.values()) == granted  # settlements are zero-sum
    assert any(chips[p.name] != 1000 for p in people) or "0" in text_of(result)
    # /top shows the settled chips, with the leaderboard picture.
    top = await server.command(BOB, "top")
    for person in people:
        assert person.name in top
    payload_answers = [m for m in server.fake.messages.values()
                       if "answer.png" in attachment_names(m)]
    assert payload_answers and not any(is_ephemeral(m) for m in payload_answers)


async def test_tiengow_by_the_tile_multiselect(server: Server) -> None:
    """Where the moves are grouped, a multi-select of the hand's tiles plays in one step."""
    await open_game(server, {"game": "tiengow", "options": "deals=1"}, (OLENA, BOB), 2)
    await play_deal(server, (OLENA, BOB), use_tiles=True)
    assert server.results()


# ----- privacy ----------------------------------------------------------------------------------

async def test_hands_are_shown_only_to_their_owners(server: Server) -> None:
    await open_game(server, {"game": "tiengow"}, (OLENA, BOB), 2)
    for user in (OLENA, BOB):
        hand = await server.my_tiles(user)
        assert is_ephemeral(hand) and hand["interaction_user_id"] == user.id
    assert server.fake is not None
    for message in server.fake.messages.values():
        if "hand.png" in attachment_names(message):
            assert message["ephemeral"], text_of(message)
    for message in server.channel():
        assert "hand.png" not in attachment_names(message)
    # A stranger's "My tiles" shows no tiles, only why.
    table = server.table()
    toast = await server.press(STRANGER, table, server.data(table, "!hand"))
    assert toast == tr("en", "err.not_in_game"), toast  # in the stranger's language
    assert server.hand(STRANGER) is None


async def test_a_turn_pings_its_player(server: Server) -> None:
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    pings = [m for m in server.channel() if "<@" in (m.get("content") or "")]
    assert pings, [text_of(m) for m in server.channel()]
    ping = pings[-1]
    assert any(c.endswith("!hand") for c in custom_ids(ping))
    # Opening one's tiles is not a turn: it pings nobody (a new ping would replace the old).
    assert server.fake is not None

    def pinged() -> list[str]:
        """The pings Discord took, in order."""
        return [str((c.json or {}).get("content"))  # type: ignore[union-attr]
                for c in server.fake.calls  # type: ignore[union-attr]
                if c.method == "POST" and c.path == f"/channels/{CHANNEL}/messages"
                and c.status < 300 and "<@" in ((c.json or {}).get("content") or "")]  # type: ignore[union-attr]
    await server.drain()  # (the turn's own ping may still be on its way)
    before = pinged()
    await server.my_tiles(OLENA)
    await server.my_tiles(BOB)
    # (on failure: every call since the game began, to tell which press brought a ping)
    assert pinged() == before, [(c.at, c.method, c.path, c.status, c.json)
                                 for c in server.fake.calls]
    mentioned = {int(u) for u in (ping.get("allowed_mentions") or {}).get("users", [])} or None
    assert mentioned is None or mentioned <= {OLENA.id, BOB.id}


# ----- refusals ---------------------------------------------------------------------------------

async def test_stale_foreign_and_forged_presses_change_nothing(server: Server) -> None:
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    hands = {u.id: await server.my_tiles(u) for u in (OLENA, BOB)}
    mover = next(u for u in (OLENA, BOB) if move_choices(hands[u.id]))
    other = BOB if mover is OLENA else OLENA
    hand = server.hand(mover)
    assert hand is not None
    custom, _ = move_choices(hand)[0]
    assert server.bot is not None
    before = await server.bot.manager.session(1)
    assert before is not None

    # Someone else presses the mover's button (as if the message were shown to them).
    # (each presser is answered in their own language)
    assert await server.press(STRANGER, hand, custom) == tr("en", "err.not_your_game")
    assert await server.press(other, hand, custom) == tr(lang_of(other.locale),
                                                         "err.not_your_turn")
    # A refused press never makes that message follow the presser's own hand.
    followed = server.bot.hands.get((1, str(other.id)))
    assert followed is None or followed.interaction is None or (
        followed.interaction.message is None
        or followed.interaction.message.id != int(hand["id"]))
    # Forged custom ids that match the templates: a version never issued, a move never
    # offered, a game that does not exist.
    for data, key in (("g:1:99999:discard.66a", "err.stale"),
                      (custom.rsplit(":", 1)[0] + ":zz.99", "err.illegal"),
                      ("g:999:1:draw", "err.game_over")):
        forged = dict(hand)
        forged["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "x", "custom_id": data}]}]
        toast = await server.press(mover, forged, data)
        assert toast == tr(lang_of(mover.locale), key), (data, toast)
    after = await server.bot.manager.session(1)
    assert after is not None and after.version == before.version and after.state == before.state

    # "My tiles" pressed again: a second ephemeral. The older one loses its buttons and says
    # where the tiles are; the move is made on the newer one, which is edited in place, and
    # the older buttons, pressed on a client that still shows them, are stale.
    as_shown = copy.deepcopy(hand)  # what a client that has not refreshed still shows
    newer = await server.my_tiles(mover)
    assert newer["id"] != hand["id"] and custom in custom_ids(newer)
    older = server.fake.messages[int(hand["id"])]
    assert custom_ids(older) == [] and text_of(older) == tr(lang_of(mover.locale), "hand.moved")
    assert attachment_names(older) == [] and not older["embeds"]
    assert await server.press(mover, newer, custom) == ""
    edited = server.hand(mover)
    assert edited is not None and edited["id"] == newer["id"]
    assert custom not in custom_ids(edited)
    assert await server.press(mover, as_shown, custom) == tr(lang_of(mover.locale), "err.stale")
    assert server.fake is not None
    for message in server.fake.messages.values():
        if message.get("interaction_user_id") == STRANGER.id:
            assert message["ephemeral"]


async def test_missing_permissions_are_explained_to_the_starter(server: Server) -> None:
    answer = await server.command(
        BOB, "newgame", {"game": "dragon"},
        app_permissions=permissions_without("attach_files", "embed_links"))
    assert "Attach Files" in answer and "Embed Links" in answer
    assert server.channel() == []  # no lobby was opened
    assert server.bot is not None
    assert await server.bot.manager.open_in(Place(str(GUILD), str(CHANNEL))) is None


async def test_commands_outside_a_server_are_explained(server: Server) -> None:
    answer = await server.command(BOB, "newgame", {"game": "dragon"}, guild_id=None)
    assert "server" in answer
    listed = await server.command(BOB, "games", guild_id=None)
    assert all(f"• {game} — " in listed for game in GAMES), listed


async def test_unknown_options_are_refused_in_words(server: Server) -> None:
    answer = await server.command(BOB, "newgame", {"game": "nosuchgame"})
    assert "nosuchgame" in answer
    answer = await server.command(BOB, "newgame", {"game": "dragon", "options": "arms=7"})
    assert "arms" in answer
    assert server.channel() == []


# ----- a restart --------------------------------------------------------------------------------

async def test_old_buttons_work_after_a_restart(tmp_path: Path) -> None:
    first = Server(tmp_path / "discord.sqlite3")
    await first.start()
    await open_game(first, {"game": "threedozen"}, (OLENA, BOB), 0)
    hands = {u.id: await first.my_tiles(u) for u in (OLENA, BOB)}
    mover = next(u for u in (OLENA, BOB) if move_choices(hands[u.id]))
    hand = first.hand(mover)
    assert hand is not None
    custom, _ = move_choices(hand)[0]
    fake = first.fake
    await first.stop()

    second = Server(tmp_path / "discord.sqlite3", fake=fake)
    await second.start()
    try:
        # The old ephemeral hand's button still plays (its custom id is the payload).
        assert await second.press(mover, hand, custom) == ""
        assert second.bot is not None
        session = await second.bot.manager.session(1)
        assert session is not None and session.version > 0
        updated = second.hand(mover)
        assert updated is not None and updated["id"] == hand["id"]  # edited in place
        assert custom not in custom_ids(updated)
    finally:
        await second.stop()


# ----- slash commands ---------------------------------------------------------------------------

async def test_commands_are_synced_with_ukrainian_names(server: Server) -> None:
    assert server.fake is not None
    synced = next(c for c in server.fake.calls if c.method == "PUT"
                  and c.path.endswith("/commands"))
    names = {c["name"]: c for c in synced.json or []}  # type: ignore[union-attr]
    assert set(names) == {"newgame", "join", "leave", "stop", "kick", "skip", "games", "rules",
                          "chips", "top", "stats", "notify", "lang", "settings", "help"}
    assert names["newgame"]["name_localizations"]["uk"] == "нова-гра"
    assert names["top"]["description_localizations"]["uk"]
    game = next(o for o in names["newgame"]["options"] if o["name"] == "game")
    assert game["name_localizations"]["uk"] == "гра" and game["autocomplete"]


async def test_autocomplete_offers_games_presets_and_stakes(server: Server) -> None:
    assert server.fake is not None
    payload = await server.act(autocomplete("newgame", {"game": "kap"}, "game", user=BOB))
    choices = next(d for i, k, d in server.fake.interaction_responses
                   if i == int(payload["id"]))["choices"]
    assert {c["value"] for c in choices} == {"kapten", "kaptaishap"}
    payload = await server.act(autocomplete("newgame", {"game": "kaptaishap", "preset": ""},
                                            "preset", user=BOB))
    choices = next(d for i, k, d in server.fake.interaction_responses
                   if i == int(payload["id"]))["choices"]
    assert {c["value"] for c in choices} == {"culin", "classical"}
    payload = await server.act(autocomplete("newgame", {"game": "dragon", "stake": 5}, "stake",
                                            user=BOB))
    choices = next(d for i, k, d in server.fake.interaction_responses
                   if i == int(payload["id"]))["choices"]
    assert [c["value"] for c in choices] == [5, 50, 500]


async def test_chat_commands_answer(server: Server) -> None:
    listed = await server.command(BOB, "games")
    for game in GAMES:
        assert f"• {game} — " in listed, (game, listed)
        # Each game's rules as its home writes them, shown literally (no markdown).
        answer = await server.command(BOB, "rules", {"game": game})
        assert answer == plain(rules_text(game, "en"), 4096), game
    assert "Bob" in await server.command(BOB, "chips")
    assert "/newgame" in await server.command(BOB, "help")
    answer = await server.command(BOB, "lang", {"language": "en"})
    assert answer == tr("en", "err.admins_only")
    assert await server.command(ADMIN, "lang", {"language": "uk"}) == tr("uk", "lang.set")
    answer = await server.command(ADMIN, "settings", {"setting": "turn", "value": "60"})
    assert answer == tr("uk", "settings.saved")
    assert "60" in await server.command(BOB, "settings")


# ----- components -------------------------------------------------------------------------------

def test_a_full_keyboard_fits_discords_limits() -> None:
    """25 moves with a tile select: one select row plus selects of moves, never more than five
    rows or 25 options a menu; a short keyboard keeps its buttons."""
    from bot.present import payload
    from bot.present.screens import TileChoice

    moves = tuple((Button(f"move {i}", payload.encode(7, 3, f"play.{i}")),)
                  for i in range(24))
    keyboard = (*moves, (Button("« back", payload.encode(7, 3, "!pick")),))
    choice = TileChoice("pick", tuple((chr(65 + i), "6:6") for i in range(8)), 1, 4,
                        payload.encode(7, 3, "!tiles"))
    view = view_of(keyboard, choice)
    assert view is not None
    rows = {item.row for item in view.children}
    assert len(rows) <= 5 and len(view.children) <= 25
    small = view_of(((Button("A", payload.encode(7, 3, "play.1")),),))
    assert small is not None and len(small.children) == 1


async def test_join_by_a_seated_player_shows_the_hand(server: Server) -> None:
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    answer = await server.command(BOB, "join")
    hand = server.hand(BOB)
    assert hand is not None and "hand.png" in attachment_names(hand)
    assert text_of(hand) in answer  # the command's own answer is the hand


async def test_permissions_lost_mid_game_are_explained_to_the_starter(server: Server) -> None:
    """The lobby could be posted, but the table cannot (an admin took the right away): the
    player who started the game is told why, privately."""
    await server.command(OLENA, "newgame", {"game": "threedozen"})
    await server.press(BOB, server.table(), server.data(server.table(), "!join"))
    assert server.fake is not None
    server.fake.fail_next("POST", f"/channels/{CHANNEL}/messages", 403, 50013,
                          "Missing Permissions")
    await server.press(OLENA, server.table(), server.data(server.table(), "!start"))
    notes = [text_of(m) for m in server.fake.ephemerals_for(OLENA.id)]
    assert any("Attach Files" in n or "«Прикріплювати файли»" in n for n in notes), notes
    assert not any("Прикріплювати" in text_of(m) for m in server.fake.ephemerals_for(BOB.id))


async def test_a_deleted_table_comes_back_and_is_remembered(server: Server) -> None:
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    assert server.fake is not None and server.bot is not None
    old = server.table()
    del server.fake.messages[int(old["id"])]  # someone deleted it
    await server.my_tiles(OLENA)
    hand = server.hand(OLENA)
    mover = OLENA if hand is not None and move_choices(hand) else BOB
    hand = await server.my_tiles(mover)
    await server.press(mover, hand, move_choices(hand)[0][0])
    table = server.table()
    assert table["id"] != old["id"]
    session = await server.bot.manager.session(1)
    assert session is not None and session.messages["table"] == {"id": int(table["id"])}


# ----- what players see, live -------------------------------------------------------------------

async def test_names_are_shown_literally(server: Server) -> None:
    """A name is typed by its user: it must not become a link, bold or a spoiler."""
    lure = User(106, "[Free Nitro](https://example.com)", "en-US")
    loud = User(107, "**BIG** ||x|| @everyone", "en-US")
    await server.command(lure, "newgame", {"game": "dragon"})
    await server.press(loud, server.table(), server.data(server.table(), "!join"))
    text = text_of(server.table())
    assert "Free Nitro" in text and "BIG" in text
    assert not re.search(r"(?<!\\)\[[^\]]*\]\(", text), text  # no masked link
    assert not re.search(r"(?<!\\)\*\*", text) and not re.search(r"(?<!\\)\|\|", text), text
    assert "@everyone" not in text  # and nobody would be pinged anyway
    assert server.fake is not None
    assert all((c.json or {}).get("allowed_mentions", {"parse": []}).get("parse") == []
               for c in server.fake.calls if isinstance(c.json, dict) and c.method == "POST"
               and c.path.startswith("/channels/"))


async def test_the_table_counts_down_by_itself(server: Server,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # A table whose first deal is played out: a few Three Dozen deals in a hundred are won
    # the moment they are dealt, and a table with no turn to take counts nothing down.
    monkeypatch.setattr(bot.session.lobby.secrets, "token_hex", lambda n=16: ("5eed" * 8)[:2 * n])
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    assert re.search(r"<t:\d+:R>", text_of(server.table())), text_of(server.table())
    assert server.bot is not None and not server.bot.manager.timers.ticks


async def test_a_text_only_change_keeps_the_tables_picture(server: Server) -> None:
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    assert server.fake is not None
    table = server.table()
    edits = len([c for c in server.fake.calls if c.method == "PATCH"])
    await server.command(BOB, "leave")  # the computer takes Bob's seat: the words change
    patches = [c for c in server.fake.calls if c.method == "PATCH"][edits:]
    # (the computer may move on at once: its moves change the picture)
    patches = [c for c in patches if c.path.endswith(f"/messages/{table['id']}")]
    assert patches and patches[0].files == []  # the picture was not uploaded again
    table = server.fake.messages[int(table["id"])]
    assert attachment_names(table) == ["table.png"]
    assert table["embeds"][0]["image"]["url"] == "attachment://table.png"


async def test_a_game_whose_first_message_is_refused_frees_the_channel(server: Server) -> None:
    assert server.fake is not None and server.bot is not None
    server.fake.fail_next("POST", f"/channels/{CHANNEL}/messages", 403, 50013,
                          "Missing Permissions")
    await server.command(OLENA, "newgame", {"game": "dragon"})
    assert server.channel() == []
    assert await server.bot.manager.open_in(Place(str(GUILD), str(CHANNEL))) is None
    notes = [text_of(m) for m in server.fake.ephemerals_for(OLENA.id)]
    assert any(tr("uk", "discord.first_post_refused", channel=CHANNEL,
                  missing="x").split(":")[0] in n for n in notes), notes
    answer = await server.command(OLENA, "newgame", {"game": "dragon"})
    assert "«Приєднатися»" in answer and server.table() is not None


async def test_a_thread_needs_the_right_to_write_in_threads(server: Server) -> None:
    answer = await server.command(
        BOB, "newgame", {"game": "dragon"}, thread=True,
        app_permissions=permissions_without("send_messages_in_threads"))
    assert "Send Messages in Threads" in answer
    answer = await server.command(BOB, "newgame", {"game": "dragon"}, thread=True,
                                  app_permissions=permissions_without("send_messages"))
    assert "“Join”" in answer


async def test_private_notes_go_to_the_place_of_their_game(server: Server) -> None:
    """Bob plays in one server and then asks something in another: a note about the game is
    not shown in the other server."""
    assert server.storage is not None and server.fake is not None and server.bot is not None
    chat_id = await server.storage.accounts.chat("discord", GUILD, "")
    # Ten seconds, not one: the virtual clock moves as the real one while a picture is drawn
    # or a query runs, and on a busy machine starting the game took two seconds of that.
    await server.storage.accounts.update_settings(chat_id, turn_timeout=10)
    elsewhere = await server.act(slash("chips", user=BOB, guild_id=556, channel_id=888))
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    here = [p["token"] for p in server.fake.registered if int(p["channel_id"]) == CHANNEL
            and p.get("member", {}).get("user", {}).get("id") == str(BOB.id)]
    await server.command(BOB, "games", channel_id=888, guild_id=556)  # the latest: elsewhere

    def told_bob() -> list[Any]:
        return [c for c in server.fake.calls if tr("en", "hand.now_away")[:30] in str(c.json)
                and (any(token in c.path for token in here) or "/channels/9" in c.path
                     or elsewhere["token"] in c.path)]
    await server.wait_for(lambda: bool(told_bob()), timeout=120)
    assert all(elsewhere["token"] not in c.path for c in told_bob())


async def test_commands_are_for_servers_and_settings_for_admins(server: Server) -> None:
    assert server.fake is not None
    synced = next(c for c in server.fake.calls if c.method == "PUT"
                  and c.path.endswith("/commands"))
    names = {c["name"]: c for c in synced.json or []}  # type: ignore[union-attr]
    for name in ("newgame", "join", "leave", "stop", "chips", "top", "stats"):
        assert names[name]["contexts"] == [0] and names[name]["dm_permission"] is False, name
    for name in ("settings", "lang"):
        assert int(names[name]["default_member_permissions"]) == 32, name  # Manage Server
    for name in ("games", "rules", "help"):
        assert names[name]["default_member_permissions"] is None, name


async def test_the_lobby_buttons_are_coloured_and_start_waits(server: Server) -> None:
    await server.command(OLENA, "newgame", {"game": "dragon"})
    by_id = {c.get("custom_id", ""): c for c in components(server.table())}

    def button(ending: str) -> JSON:
        return next(c for i, c in by_id.items() if i.endswith(ending))
    assert button("!join")["style"] == 3 and button("!leave")["style"] == 4
    assert button("!start")["style"] == 1 and button("!start").get("disabled") is True
    await server.press(BOB, server.table(), server.data(server.table(), "!join"))
    start = next(c for c in components(server.table()) if c["custom_id"].endswith("!start"))
    assert not start.get("disabled")


async def test_pings_only_players_whose_tiles_are_not_open(server: Server) -> None:
    assert server.bot is not None and server.fake is not None
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    assert len([m for m in server.channel() if "<@" in (m.get("content") or "")]) == 1
    for user in (OLENA, BOB):
        await server.my_tiles(user)
    await server.drain()  # (the ping is deleted through the channel's queue)
    assert all("<@" not in (m.get("content") or "") for m in server.channel())  # deleted
    # Bob's tiles were opened too long ago: his next turn pings him, and only him.
    mover = next(u for u in (OLENA, BOB) if move_choices(server.hand(u) or {}))
    other = BOB if mover is OLENA else OLENA
    server.bot.hands[(1, str(other.id))].since -= TOKEN_LIFE
    posts = len(server.fake.calls)
    hand = server.hand(mover)
    assert hand is not None
    while server.hand(mover) is not None and move_choices(server.hand(mover) or {}):
        current = server.hand(mover)
        assert current is not None
        assert await server.press(mover, current, move_choices(current)[0][0]) == ""
    pings = [c for c in server.fake.calls[posts:] if c.method == "POST"
             and "<@" in ((c.json or {}).get("content") or "")]  # type: ignore[union-attr]
    assert len(pings) == 1 and f"<@{other.id}>" in pings[0].json["content"]  # type: ignore
    assert pings[0].json["allowed_mentions"]["users"] == [other.id]  # type: ignore


async def test_a_ping_answered_while_it_is_sent_is_taken_back(server: Server,
                                                               monkeypatch) -> None:
    """Both players open their tiles while the game's first ping is on its way (Discord has
    it, the bot has not heard back yet): once the bot hears back, the ping is deleted, as it
    is when they open them after."""
    send = discord.PartialMessageable.send
    opened: list[bool] = []

    async def slow_answer(self: Any, *args: Any, **kwargs: Any) -> Any:
        message = await send(self, *args, **kwargs)
        if "<@" in (args[0] if args else kwargs.get("content") or "") and not opened:
            opened.append(True)
            for user in (OLENA, BOB):  # (their presses' handlers only: the ping's job waits)
                await server.act_now(server.button_of(user, server.table(), "!hand"))
        return message

    monkeypatch.setattr(discord.PartialMessageable, "send", slow_answer)
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    await server.drain()
    assert opened
    assert all("<@" not in (m.get("content") or "") for m in server.channel())  # deleted
    assert server.bot is not None and not server.bot.pings


async def test_admins_can_turn_pings_off(server: Server) -> None:
    admin = User(105, "Admin", "uk", permissions=ALL_PERMISSIONS)
    answer = await server.command(admin, "settings", {"setting": "mentions", "value": "off"})
    assert answer == tr("uk", "settings.saved")
    await open_game(server, {"game": "threedozen"}, (OLENA, BOB), 0)
    assert server.fake is not None
    assert not [c for c in server.fake.calls if c.method == "POST"
                and "<@" in str((c.json or {}).get("content"))]  # type: ignore[union-attr]
    assert re.search(r"(Олена|Bob)", text_of(server.table()))  # the table names the mover


async def test_play_again_opens_a_lobby_with_the_same_players(server: Server) -> None:
    await open_game(server, {"game": "threedozen", "options": "deals=1"}, (OLENA, BOB), 1)
    await play_deal(server, (OLENA, BOB))
    await server.drain()
    result = server.results()[-1]
    again = next(c for c in components(result) if c["custom_id"].endswith("!again"))
    assert again["style"] == 1 and again["label"] == tr("uk", "btn.again")
    toast = await server.press(BOB, result, again["custom_id"])
    assert toast == tr("en", "again.opened")  # in Bob's language
    lobby = server.table()
    assert "Олена" in text_of(lobby) and "Bob" in text_of(lobby)
    assert any(c.endswith("!start") for c in custom_ids(lobby))


async def test_the_leaderboard_turns_its_pages(server: Server) -> None:
    assert server.storage is not None
    chat_id = await server.storage.accounts.chat("discord", GUILD, "")
    for n in range(12):
        user = await server.storage.accounts.user("discord", str(500 + n), f"P{n}")
        await server.storage.accounts.balance(chat_id, user)
    payload = await server.act(slash("top", {"season": "all"}, user=BOB))
    (answer,) = server.answers(payload)
    forward = next(c for c in components(answer) if c["custom_id"].endswith("!top-all"))
    assert "2" in forward["label"]
    await server.press(BOB, answer, forward["custom_id"])
    assert server.fake is not None
    shown = server.fake.messages[int(answer["id"])]
    assert "11. P10" in text_of(shown) and attachment_names(shown) == ["answer.png"]
    # Nobody has played a deal: the season under way is empty, and an earlier one unknown.
    (season,) = server.answers(await server.act(slash("top", user=BOB)))
    assert "season 1" in text_of(season) and "/top all" in text_of(season)
    (unknown,) = server.answers(await server.act(slash("top", {"season": "3"}, user=BOB)))
    assert text_of(unknown) == tr("en", "top.no_seasons_yet", number=3)
