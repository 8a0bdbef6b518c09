"""`gupai play`: a person against computer seats in the terminal, through the session layer.

The console loop takes an async line source and a text stream, so whole games run in-process
with scripted answers; one test runs the real command with piped stdin.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import games
from bot.console.console import play
from bot.console.console_input import EMPTY, Unclear, choose
from bot.console.console_options import PlayOptions
from bot.present.screens import Button
from faces.presets import game_title
from tests.support.helpers import read, short_match
from tests.support.screens import taught
from tests.support.session_helpers import balances, fix_seed

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]


def options(tmp_path: Path, **changes: object) -> PlayOptions:
    """Without pictures unless a test asks for them (`pictures=True`): drawing them is two
    thirds of what these games cost, and only the tests about the pictures look at them."""
    base = PlayOptions(game="dragon", players=3, options=("deals=1",), lang="en",
                       name="Tester", player_id="tester", out=tmp_path / "pics",
                       db=str(tmp_path / "x.sqlite3"), computer_delay=0.0, deal_pause=0.0,
                       pictures=False)
    return dataclasses.replace(base, **changes)


class Script:
    """Answers prompts: the scripted lines first, then `then(transcript)` for every later one."""

    def __init__(self, lines: list[str | None], then: Callable[[str], str | None]) -> None:
        self.lines = list(lines)
        self.then = then
        self.out = io.StringIO()
        self.asked = 0

    async def __call__(self) -> str | None:
        self.asked += 1
        if self.lines:
            return self.lines.pop(0)
        # A script that keeps typing what the console refuses would loop forever: end the
        # input instead, so the test fails on its transcript rather than by a timeout.
        assert self.asked < MAX_ANSWERS, self.out.getvalue()[-3000:]
        return self.then(self.out.getvalue()[-6000:])


MAX_ANSWERS = 3000


def first_move(_: str) -> str:
    return "1"


def first_letter(transcript: str) -> str:
    """The first move listed, typed as its tile letter(s) (lower case, then the open number of
    its end) when that names it alone, as a player would; else its number."""
    listing = [(int(n), label) for n, label in re.findall(r"^\s+(\d+)\. (.*)$", transcript, re.M)]
    start = max(i for i, (n, _) in enumerate(listing) if n == 1)
    moves = [read(label, f"move-{n}") for n, label in listing[start:]]
    assert moves[0].move is not None
    letters = "".join(moves[0].move.letters).lower()
    typed = letters + moves[0].move.end
    return typed if letters and choose(typed, moves) == moves[0] else "1"


async def run(tmp_path: Path, script: Script, **changes: object) -> tuple[int, str]:
    code = await asyncio.wait_for(
        play(options(tmp_path, **changes), script, script.out, echo=True), 30)
    return code, script.out.getvalue()




def match_standing(db: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Each seat's points and chips (times the stake) in the match of the last game, as its
    last settled deal left them (the deal's outcome, or the next deal's match when one has
    begun), by the name the board shows."""
    with sqlite3.connect(db) as conn:
        game, seats, stake, state = conn.execute(
            "SELECT game, seats, stake, state FROM sessions ORDER BY id DESC").fetchone()
    rules = games.get(game)
    final = rules.loads(state)
    outcome = rules.outcome(final)
    points, chips = (final.match.totals(outcome) if outcome is not None
                     else (final.match.scores, final.match.chips))
    names = [("Tester" if not s["computer"] else f"Computer {s['platform_id'][-1]}")
             for s in json.loads(seats)]
    return (dict(zip(names, points, strict=True)),
            {name: c * stake for name, c in zip(names, chips, strict=True)})


def settled(db: Path) -> tuple[int, dict[str, int], int]:
    """Deals settled, each user's net settlement, and the chips that changed hands (none at
    the terminal's practice table)."""
    with sqlite3.connect(db) as conn:
        deals = conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
        rows = conn.execute(
            "SELECT u.name, SUM(l.amount), SUM(ABS(l.amount)) FROM ledger l "
            "JOIN users u ON u.id = l.user_id WHERE l.kind = 'settlement' "
            "GROUP BY u.name").fetchall()
    return deals, {name: net for name, net, _ in rows}, sum(moved for _, _, moved in rows)


# ----- whole games ------------------------------------------------------------------------------

async def test_a_game_is_played_to_its_end(tmp_path):
    script = Script([], first_move)
    code, text = await run(tmp_path, script, pictures=True)
    assert code == 0
    assert "Traceback" not in text
    assert "Deal 1 is over" in text and "The match is over" in text
    assert "Final standings" in text and "Chips are kept in" in text
    assert re.search(r"^Line: \[\d:\d\]", text, re.M)
    assert "▶ Tester" in text and "(you)" in text
    assert script.asked >= 3
    folder, = (tmp_path / "pics").iterdir()  # the game's own folder
    for name in ("table.png", "hand.png", "result-1.png"):
        path = folder / name
        assert f"Picture: {path}" in text
        with Image.open(path) as image:
            assert image.mode == "P"  # encoded as the terminal keeps it: a palette PNG
            image.verify()
    assert not list(folder.glob("*.part"))
    # A person alone with computers plays a practice table: the deal is played and recorded,
    # and the terminal says so, but no chip moves and computers hold none.
    assert "A practice table" in text and "Practice: no chips moved." in text
    chips, granted = balances(tmp_path / "x.sqlite3", "console")
    assert granted == 1000 and chips == {"Tester": 1000}
    deals, net, moved = settled(tmp_path / "x.sqlite3")
    assert deals == 1 and net == {} and moved == 0
    assert "Tester: 1000 chips" in text


async def test_each_game_draws_its_pictures_in_a_folder_of_its_own(tmp_path):
    """Two games with one --out: the second writes no file where the first's are, and each
    printed path names the file written."""
    shown: list[list[Path]] = []
    for game, players in (("dragon", 3), ("tails", 2)):
        code, text = await run(tmp_path, Script([], first_move), game=game, players=players,
                               pictures=True)
        assert code == 0 and "Deal 1 is over" in text
        shown.append([Path(p) for p in re.findall(r"^Picture: (.*)$", text, re.M)])
    (first,), (second,) = ({path.parent for path in paths} for paths in shown)
    assert first.name.startswith("dragon-1-") and second.name.startswith("tails-2-")
    for paths in shown:
        assert {p.name for p in paths} >= {"table.png", "hand.png", "result-1.png"}
        assert all(p.exists() for p in paths)
    assert sorted(first.iterdir()) == sorted(shown[0])  # nothing of the second game's


async def test_letters_choose_moves_and_chips_carry_over(tmp_path):
    code, text = await run(tmp_path, Script([], first_letter))
    assert code == 0 and "Deal 1 is over" in text
    # A second run in Ukrainian, on the same file: the chips go on from where they were.
    code, text = await run(tmp_path, Script([], first_move), lang="uk", players=2)
    assert code == 0 and "Роздачу 1 закінчено" in text and "Ряд:" in text
    chips, granted = balances(tmp_path / "x.sqlite3", "console")
    assert granted == 1000 and chips == {"Tester": 1000}
    deals, net, _ = settled(tmp_path / "x.sqlite3")
    assert deals == 2 and net == {}


async def test_bad_input_is_explained_and_the_game_goes_on(tmp_path):
    script = Script(["zzz", "99", "", "help", "p"], first_move)
    code, text = await run(tmp_path, script)
    assert code == 0
    assert "“zzz” is not one of the moves" in text
    assert "There is no move 99" in text
    assert "Type a move's number" in text  # the help
    assert "Your tiles: A" in text  # the peek
    assert "Deal 1 is over" in text and "Traceback" not in text


async def test_quit_leaves_the_game_saved_and_moves_no_chips(tmp_path):
    code, text = await run(tmp_path, Script(["q", "y"], first_move))
    assert code == 0
    assert "Quit? The game is saved. [y/N] y" in text
    assert "The game is saved: `gupai play` goes on with it." in text
    assert "No deal was finished" in text and "Tester: 1000 chips" in text
    with sqlite3.connect(tmp_path / "x.sqlite3") as conn:
        assert conn.execute("SELECT status FROM sessions").fetchall() == [("active",)]


async def test_the_end_of_input_leaves_the_game_saved_as_quit_does(tmp_path):
    """Ctrl-D (the end of input) is a way out like q and Ctrl-C: the game goes on next run."""
    code, text = await run(tmp_path, Script(["1", None], first_move))
    assert code == 0
    assert "The input has ended. The game is saved" in text
    assert "stopped the game" not in text
    with sqlite3.connect(tmp_path / "x.sqlite3") as conn:
        assert conn.execute("SELECT status FROM sessions").fetchall() == [("active",)]


async def test_an_interrupted_game_goes_on_at_the_next_run(tmp_path):
    prompted = asyncio.Event()

    async def wait_forever() -> str | None:
        prompted.set()
        await asyncio.Event().wait()
        return None

    async def interrupt() -> None:
        """A run stopped while the player thinks (Ctrl-C cancels the main task)."""
        prompted.clear()
        task = asyncio.ensure_future(play(options(tmp_path), wait_forever, io.StringIO()))
        await asyncio.wait_for(prompted.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    await interrupt()
    code, text = await run(tmp_path, Script(["y"], first_move), game="tails")
    assert code == 0
    assert "An unfinished game of Dragon" in text and "Deal 1 is over" in text
    await interrupt()
    code, text = await run(tmp_path, Script([None], first_move), new=True, game="tails")
    assert code == 0 and "An unfinished game" not in text and "Tails · deal 1" in text
    with sqlite3.connect(tmp_path / "x.sqlite3") as conn:
        statuses = conn.execute("SELECT game, status FROM sessions ORDER BY id").fetchall()
    # The tails game's input ended (None, Ctrl-D): it stays saved for the next run, as q leaves it.
    assert statuses == [("dragon", "finished"), ("dragon", "abandoned"), ("tails", "active")]


async def test_a_table_of_the_wrong_size_is_refused(tmp_path):
    code, text = await run(tmp_path, Script([], first_move), game="cedeng", players=3)
    assert code == 2 and "cedeng is played by 4 players" in text
    code, text = await run(tmp_path, Script([], first_move), options=("arms=7",))
    assert code == 2 and "options don't work" in text


# ----- reading a choice -------------------------------------------------------------------------

MOVES = [read("A 6:1 on 1", "g:1:1:a0"), read("A 6:1 on 6", "g:1:1:a1"),
         read("B 6:0 on 6", "g:1:1:b"), read("H 4:4", "g:1:1:h"),
         read("C 3:3 D 2:2", "g:1:1:cd"), read("Draw", "g:1:1:draw")]


@pytest.mark.parametrize(("typed", "data"), [
    ("1", "g:1:1:a0"), (" 6 ", "g:1:1:draw"), ("b", "g:1:1:b"), ("B", "g:1:1:b"),
    ("a1", "g:1:1:a0"), ("a 1", "g:1:1:a0"), ("A6", "g:1:1:a1"), ("a on 6", "g:1:1:a1"),
    ("cd", "g:1:1:cd"), ("h", "g:1:1:h"), ("draw", "g:1:1:draw"), ("dr", "g:1:1:draw"),
    ("a 6:1 on 6", "g:1:1:a1"), ("6:1@1", "g:1:1:a0"), ("b", "g:1:1:b"), ("b6", "g:1:1:b"),
])
def test_a_typed_move(typed, data):
    choice = choose(typed, MOVES)
    assert isinstance(choice, Button) and choice.data == data


@pytest.mark.parametrize(("typed", "meaning"), [
    ("q", "quit"), ("QUIT", "quit"), ("help", "help"), ("?", "help"), ("p", "peek"),
    ("peek", "peek"),
])
def test_a_typed_command(typed, meaning):
    assert choose(typed, MOVES) == meaning


def test_what_is_not_understood():
    assert choose("   ", MOVES) is EMPTY
    assert choose("0", MOVES) == Unclear("console.bad_number", {"text": "0", "most": 6})
    assert choose("a", MOVES) == Unclear("console.ambiguous", {"text": "a", "numbers": "1, 2"})
    assert choose("zzz", MOVES) == Unclear("console.bad_choice", {"text": "zzz", "most": 6})
    assert choose("d", MOVES) == Unclear("console.bad_choice", {"text": "d", "most": 6})
    # B goes only on the 6: an end it cannot go to is no answer.
    assert choose("b1", MOVES) == Unclear("console.bad_choice", {"text": "b1", "most": 6})


# ----- the command ------------------------------------------------------------------------------

def piped(folder: Path, *args: str, answers: int) -> str:
    """Run `gupai play` as a terminal user would, answering "1" to every question; the
    console's own output, which must end cleanly and without a traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GUPAI_CONSOLE_DB", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", *args, "--fast", "--lang", "en",
         "--name", "Piped"],
        input="1\n" * answers, capture_output=True, text=True, cwd=folder, env=env,
        timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    return done.stdout


def test_the_command_with_piped_input(tmp_path):
    out = piped(tmp_path, "dragon", "--players", "3", "--option", "deals=1", "--out", "pics",
                answers=40)
    assert "Deal 1 is over" in out and "Piped: " in out
    assert (tmp_path / "gupai-console.sqlite3").exists()  # the default file
    assert len(list((tmp_path / "pics").glob("dragon-1-*/result-1.png"))) == 1


def test_a_kap_match_from_piped_input_scores_with_a_real_minus(tmp_path):
    out = piped(tmp_path, "kapten", "--preset", "culin", "--option", "deals=1", "--no-pictures",
                answers=200)
    assert "Picture:" not in out and not (tmp_path / "gupai-play").exists()
    standings = out.split("Final standings")[1].splitlines()[1:3]
    assert all(line.startswith(("1. ", "2. ")) for line in standings), standings
    assert not re.search(r"-\d", "\n".join(standings)), standings


# ----- a console that teaches --------------------------------------------------------------------

def moves_now(transcript: str) -> list[str]:
    """The labels of the move list printed last."""
    listing = [(int(n), label) for n, label in re.findall(r"^\s+(\d+)\. (.*)$", transcript, re.M)]
    start = max(i for i, (n, _) in enumerate(listing) if n == 1)
    return [label for _, label in listing[start:]]


def tiles_now(transcript: str) -> dict[str, str]:
    """The hand printed last: letter -> face."""
    line = [x for x in transcript.splitlines() if x.startswith("Tiles: ")][-1]
    return dict(re.findall(r"([A-Z]\d*) (\d:\d)", line))


async def interrupted(tmp_path: Path, **changes: object) -> None:
    """A run stopped while the player thinks (Ctrl-C), leaving its game saved."""
    prompted = asyncio.Event()

    async def wait_forever() -> str | None:
        prompted.set()
        await asyncio.Event().wait()
        return None

    task = asyncio.ensure_future(play(options(tmp_path, **changes), wait_forever,
                                      io.StringIO()))
    # (the pictures are written in worker threads, meanwhile the clock runs as the real one:
    # on a busy machine the first prompt can take seconds)
    await asyncio.wait_for(prompted.wait(), 60)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def sessions(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game, status FROM sessions ORDER BY id").fetchall()


async def test_play_game_asks_before_resuming_another_saved_game(tmp_path):
    await interrupted(tmp_path, game="cedeng", players=4)
    code, text = await run(tmp_path, Script(["n"], first_move), game="tails")
    assert code == 0
    assert "You have a saved Ce Deng game — resume it? [Y/n] n" in text
    assert "The saved Ce Deng game is stopped" in text
    assert "Tails · deal 1" in text and "Deal 1 is over" in text
    assert sessions(tmp_path / "x.sqlite3") == [("cedeng", "abandoned"), ("tails", "finished")]
    chips, granted = balances(tmp_path / "x.sqlite3", "console")
    assert chips == {"Tester": granted}  # practice: neither deal moved a chip
    deals, net, _ = settled(tmp_path / "x.sqlite3")
    assert deals == 1 and net == {}


async def test_enter_at_the_resume_question_resumes_the_saved_game(tmp_path):
    """The question's default (Enter, as its capital Y shows) keeps the saved game."""
    await interrupted(tmp_path, game="cedeng", players=4)
    code, text = await run(tmp_path, Script([""], first_move), game="tails")
    assert code == 0
    assert "You have a saved Ce Deng game — resume it? [Y/n] \n" in text
    assert "An unfinished game of Ce Deng" in text and "is stopped" not in text
    assert sessions(tmp_path / "x.sqlite3") == [("cedeng", "finished")]


async def test_other_settings_are_asked_about_and_the_same_game_resumes_at_once(tmp_path):
    await interrupted(tmp_path)
    code, text = await run(tmp_path, Script([], first_move))  # the same game and settings
    assert code == 0 and "resume it?" not in text and "An unfinished game of Dragon" in text
    await interrupted(tmp_path)
    code, text = await run(tmp_path, Script(["n"], first_move), players=2)
    assert code == 0
    assert ("You have a saved Dragon game with other settings (deals=1, 3 players, stake ×1) "
            "— resume it? [Y/n] n") in text
    assert "Computer 2" not in text.split("resume it?")[1]  # two players now
    assert [status for _, status in sessions(tmp_path / "x.sqlite3")] == [
        "finished", "abandoned", "finished"]


def seat_levels(db: Path) -> list[list[str]]:
    """Per session, the level of each computer seat."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seats FROM sessions ORDER BY id").fetchall()
    return [[s["level"] for s in json.loads(seats) if s["computer"]] for seats, in rows]


async def test_the_computers_play_at_the_level_asked_for(tmp_path):
    code, text = await run(tmp_path, Script([], first_move), level="strong")
    assert code == 0 and "Deal 1 is over" in text and "Traceback" not in text
    code, text = await run(tmp_path, Script([], first_move))
    assert code == 0 and "Deal 1 is over" in text
    assert seat_levels(tmp_path / "x.sqlite3") == [["strong", "strong"], ["normal", "normal"]]
    chips, granted = balances(tmp_path / "x.sqlite3", "console")
    assert chips == {"Tester": granted}  # practice: the computers play for nothing


async def test_another_level_is_asked_about_and_the_same_one_resumes_at_once(tmp_path):
    await interrupted(tmp_path, level="easy")
    code, text = await run(tmp_path, Script([], first_move), level="easy")
    assert code == 0 and "resume it?" not in text and "An unfinished game of Dragon" in text
    await interrupted(tmp_path, level="easy")
    code, text = await run(tmp_path, Script([], first_move))  # no level named: resumed as it is
    assert code == 0 and "resume it?" not in text
    await interrupted(tmp_path, level="easy")
    code, text = await run(tmp_path, Script(["n"], first_move), level="strong")
    assert ("You have a saved Dragon game with other settings (deals=1, 3 players, stake ×1, "
            "computers: easy) — resume it? [Y/n] n") in text
    assert seat_levels(tmp_path / "x.sqlite3")[-1] == ["strong", "strong"]


async def test_a_level_the_game_does_not_offer_gives_the_strongest_it_does(tmp_path,
                                                                          monkeypatch):
    """`--level strong` for a game without a strong level: its computers play at normal, and
    the saved game is resumed without asking about the level. (The deal is fixed: a game of
    Kap may be won before the player's first turn, once in a hundred deals, and leave nothing
    to resume.)"""
    fix_seed(monkeypatch, "level")
    game = next(g for g, rules in games.GAMES.items() if "strong" not in rules.levels)
    await interrupted(tmp_path, game=game, players=2, level="strong")
    code, text = await run(tmp_path, Script([], first_move), game=game, players=2,
                           level="strong")
    assert code == 0 and "resume it?" not in text and "Traceback" not in text
    assert "Deal 1 is over" in text
    assert seat_levels(tmp_path / "x.sqlite3") == [["normal"]]


async def test_play_without_a_game_resumes_or_says_what_to_type(tmp_path):
    code, text = await run(tmp_path, Script([], first_move), game="")
    assert code == 2 and "There is no saved game to resume" in text and "dragon" in text
    await interrupted(tmp_path, game="tails")
    code, text = await run(tmp_path, Script([], first_move), game="")
    assert code == 0 and "An unfinished game of Tails" in text and "Deal 1 is over" in text


def _reversed(face: str) -> str:
    high, low = face.split(":")
    return f"{low}:{high}"


def _pile_games() -> list:
    """Every preset of every game whose discards lie face up to be taken, at three seats (or
    as many as it seats)."""
    found = []
    for game, rules in games.GAMES.items():
        view = rules.view(rules.new_deal(rules.options(), rules.default_players, "probe"), None)
        if "pile" in {f.name for f in dataclasses.fields(view)}:
            players = min(3, rules.max_players)
            found += [pytest.param(game, players, preset, f"face/{game}/{preset}",
                                   id=f"{game}-{players}-{preset}") for preset in rules.presets]
    return found


@pytest.mark.parametrize(("game", "players", "preset", "seed"), _pile_games())
async def test_a_discard_is_taken_by_its_face_either_way_round(tmp_path, monkeypatch, game,
                                                                players, preset, seed):
    fix_seed(monkeypatch, seed)
    typed: dict[str, str] = {}

    def answer(transcript: str) -> str:
        moves = moves_now(transcript)
        takes = [m.split()[1] for m in moves if m.startswith("⤴")]
        lone = [face for face in takes if takes.count(face) == 1]
        discards = [x for x in transcript.splitlines() if x.startswith("Discards")]
        if lone and "unknown" not in typed:
            typed["unknown"] = "9:9"
            return "9:9"
        if lone and "old" not in typed and discards and preset != "culin":
            old = [f for f in re.findall(r"(?<![⤴\d])(\d:\d)", discards[-1].split(":", 1)[1])
                   if f not in takes and f not in tiles_now(transcript).values()]
            if old:
                typed["old"] = old[0]
                return _reversed(old[0])
        if lone and "take" not in typed:
            typed["take"] = lone[0]
            return _reversed(lone[0])
        return "1"

    code, text = await run(tmp_path, Script([], answer), game=game, players=players,
                           preset=preset, options=("deals=3",))
    assert code == 0 and "Traceback" not in text
    face = typed["take"]
    assert f"): {_reversed(face)}\n  Tester: took [{face}]" in text
    assert "There is no such tile as [9:9] in this game's set." in text
    if preset != "culin":
        assert "old" in typed, "no older discard was on the table"
        assert "Only the last discard may be taken: [" in text
        assert f"not [{_reversed(typed['old'])}]" in text
    assert "is not one of the moves" not in text


@pytest.mark.parametrize("game", list(games.GAMES))
async def test_the_seat_lines_count_the_match_as_the_picture_does(tmp_path, monkeypatch, game):
    """A game's first deal at its default options and table, in a short match (one deal, or
    the least target): at its end every seat line counts the match as the match does, its
    points toward the target where the match counts points (`Rules.match_target`), else the
    chips won or paid. The input ends with the deal."""
    fix_seed(monkeypatch, f"seats/{game}")  # the same deals: a later one may end unprompted
    rules = games.get(game)
    over: list[bool] = []

    def answer(transcript: str) -> str | None:
        if "Deal 1 is over" in transcript:
            over.append(True)
        return None if over else "1"

    code, text = await run(tmp_path, Script([], answer), game=game,
                           players=rules.default_players, options=tuple(short_match(rules)))
    assert code == 0 and "score" not in text
    assert not re.search(r"match [+−]?\d", text.split("Deal 1 is over")[0].split(
        "The game begins!")[1].rsplit("\n\n", 2)[0]), "no chips before a deal has settled"
    # The board printed at the deal's end: every seat's chips as the match counts them, this
    # deal included (a practice table moves none of the player's own), or its points.
    final = text.split("Deal 1 is over")[0].rstrip().rsplit("\n\n", 1)[-1]
    points, chips = match_standing(tmp_path / "x.sqlite3")
    if rules.match_target(rules.options()) is not None:
        shown = dict(re.findall(r"^[▶ ] (\S+(?: \d)?)\s.*points (\d+)/\d+", final, re.M))
        assert {name: int(v) for name, v in shown.items()} == points
    else:
        shown = dict(re.findall(r"^[▶ ] (\S+(?: \d)?)\s.*match ([+−]?\d+)", final, re.M))
        assert {name: int(v.replace("−", "-")) for name, v in shown.items()} == chips


async def test_domino_seat_lines_count_points_toward_the_target(tmp_path):
    code, text = await run(tmp_path, Script([None], first_move), game="domino", players=2,
                           preset="50", options=())
    assert code == 0 and "points 0/50" in text and "score" not in text


async def test_a_tile_typed_for_an_end_it_does_not_fit_is_refused_with_the_reason(
        tmp_path, monkeypatch):
    fix_seed(monkeypatch, "ends")
    tried: dict[str, str] = {}

    def answer(transcript: str) -> str:
        moves = moves_now(transcript)
        sides = [m for m in moves if re.fullmatch(r"[A-Z]\d* \d:\d on \d", m)]
        ends = re.findall(r"^open: (\d) · (\d)", transcript, re.M)
        for move in sides:
            letter, _, _, end = move.split()
            other = [e for e in ends[-1] if e != end] if ends else []
            if other and sum(m.startswith(f"{letter} ") for m in sides) == 1 \
                    and "end" not in tried:
                tried["end"], tried["other"] = move, other[0]
                return f"{letter.lower()}{other[0]}"
        playable = set(re.findall(r"\d:\d", " ".join(moves)))
        idle = [x for x, face in tiles_now(transcript).items() if face not in playable]
        if sides and idle and "none" not in tried:
            tried["none"] = idle[0]
            return idle[0].lower()
        return "1"

    code, text = await run(tmp_path, Script([], answer), players=2, preset="two-arm")
    assert code == 0 and "end" in tried and "none" in tried
    letter, face = tried["end"].split()[:2]
    typed = f"{letter.lower()}{tried['other']}"
    refusal = text.split(f"): {typed}\n", 1)[1].split("\n")
    assert refusal[0] == (f"[{face}] does not fit the {tried['other']} end: touching ends must "
                          "be equal."), refusal[0]
    assert refusal[1].startswith(f"Moves with {letter}: ") and tried["end"] in refusal[1]
    assert f"Tester: played [{face}]" not in text.split(f"): {typed}\n", 1)[1].split(
        "Your move")[0]
    none = text.split(f"): {tried['none'].lower()}\n", 1)[1].split("\n")[0]
    assert "fits neither open end" in none and "it must be played" in none


async def test_one_open_end_takes_no_end_mark(tmp_path):
    typed: list[str] = []

    def answer(transcript: str) -> str:
        moves = moves_now(transcript)
        attach = [m for m in moves if re.fullmatch(r"[A-Z]\d* \d:\d", m)]
        if attach and not typed and re.search(r"^open: \d( ·|$)", transcript, re.M):
            typed.append(attach[0].split()[0].lower() + attach[0][-1])
            return typed[0]
        return "1"

    code, text = await run(tmp_path, Script([], answer), players=2)
    assert code == 0 and typed
    said = text.split(f"): {typed[0]}\n", 1)[1].split("\n")[0]
    assert re.fullmatch(r"The line has one open end \(\d\): type the letter alone, with no "
                        r"end\.", said), said


async def test_your_draw_names_the_tiles_only_to_you(tmp_path, monkeypatch):
    # The same deal every run: in about one deal in forty the computer wins on its first draw,
    # before the person has drawn at all.
    fix_seed(monkeypatch, "draw")

    def draw(transcript: str) -> str:
        moves = moves_now(transcript)
        words = [i for i, m in enumerate(moves, start=1) if m == "Draw from the stock"]
        return str(words[0]) if words else "1"

    code, text = await run(tmp_path, Script([], draw), game="kapten", players=2,
                           preset="classical")
    assert code == 0
    drawn = re.findall(r"^  You drew \[(\d:\d)\]\.$", text, re.M)
    assert drawn and len(drawn) == text.count("Tester: drew from the stock")
    after = text.split(f"You drew [{drawn[0]}].", 1)[1]
    assert drawn[0] in tiles_now(after.split("Your move")[0] + "\n").values()
    assert not re.search(r"Computer \d: drew \[", text)  # theirs stay unnamed


@pytest.mark.parametrize("game", list(games.GAMES))
async def test_help_explains_the_game_own_moves_and_marks(tmp_path, game):
    """`?` shows the game's title, then its home's lines on its own moves and marks (each
    home's tests hold what they say), then how to type a move."""
    rules = games.get(game)
    code, text = await run(tmp_path, Script(["?", None], first_move), game=game,
                           players=rules.default_players, options=())
    assert code == 0
    title, taught_here = text.split(" — what the moves mean:\n", 1)
    assert title.endswith(game_title(game, None, "en")), title[-40:]
    lines = taught(game, None, rules.default_players)
    assert lines and taught_here.split("Type a move's number")[0] == "".join(
        f"  {line}\n" for line in lines)


@pytest.mark.parametrize(("game", "takes"), [("dingniu", False), ("dragon", False),
                                           ("kapten", True), ("threedozen", True)])
async def test_help_tells_how_to_take_a_discard_only_where_the_game_has_one(tmp_path, game,
                                                                             takes):
    rules = games.get(game)
    code, text = await run(tmp_path, Script(["?", None], first_move), game=game,
                           players=rules.default_players, options=())
    assert code == 0
    typing = text.split("Type a move's number", 1)[1].split("p (peek)", 1)[0]
    assert ("a discard to take (⤴)" in typing) is takes, typing


async def test_the_end_of_a_deal_waits_for_enter(tmp_path):
    code, text = await run(tmp_path, Script([], first_move), options=("deals=2",), wait=True)
    assert code == 0
    assert text.count("Press Enter for the next deal.") == 1
    assert "Next deal" not in text  # no time is true where Enter decides
    rest = text.split("Deal 1 is over", 1)[1]
    waited, next_deal = rest.split("Press Enter for the next deal.", 1)
    assert "Dragon · deal 2" not in waited and "Dragon · deal 2" in next_deal
    assert "Deal 2 is over" in next_deal and "The match is over" in next_deal


async def test_quit_asks_first_and_the_game_goes_on_after_no(tmp_path):
    code, text = await run(tmp_path, Script(["q", "n", "q", "y"], first_move))
    assert code == 0
    assert "Quit? The game is saved. [y/N] n\nThe game goes on." in text
    assert sessions(tmp_path / "x.sqlite3") == [("dragon", "active")]
    code, text = await run(tmp_path, Script([], first_move), game="")
    assert code == 0 and "An unfinished game of Dragon" in text and "Deal 1 is over" in text


async def test_a_game_left_saved_shows_its_standings_so_far_not_final_ones(tmp_path):
    answers = iter(["q", "y"])

    def quit_in_deal_2(transcript: str) -> str | None:
        return next(answers) if "Dragon · deal 2" in transcript else "1"

    code, text = await run(tmp_path, Script([], quit_in_deal_2), options=("deals=2",))
    assert code == 0 and "Deal 1 is over" in text and "The game is saved" in text
    assert sessions(tmp_path / "x.sqlite3") == [("dragon", "active")]
    assert "Final standings" not in text
    assert "Standings so far; the game is saved and `gupai play` goes on with it" in text
    assert re.search(r"^1\. .*: chips .*, points", text, re.M)


async def test_tiles_typed_by_letter_play_when_the_moves_come_in_groups(tmp_path, monkeypatch):
    # Groups (two taps) come with more than 24 moves, as in a Tien Gow follow of four tiles;
    # a limit of two makes every turn grouped.
    monkeypatch.setattr("bot.present.keyboards.MAX_MOVE_BUTTONS", 2)
    # One table secret, so one deal: in some deals the person never leads a trick.
    fix_seed(monkeypatch, "5eed" * 8)
    typed: list[str] = []

    def answer(transcript: str) -> str:
        turn = transcript[transcript.rfind("Your turn"):]
        if not typed and "Lead one tile" in turn:
            typed.append(min(tiles_now(transcript)).lower())
            return typed[0]
        return "1"

    code, text = await run(tmp_path, Script([], answer), game="tiengow", players=4)
    assert code == 0 and typed
    after = text.split(f"): {typed[0]}\n", 1)[1].split("\n")[0]
    assert after.startswith("  Tester: led ["), after


# ----- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["run", "telegram", "discord", "games", "sim", "play",
                                     "gallery"])
def test_every_subcommand_describes_itself(command, capsys):
    from bot.cli import build_parser, main

    sub = next(a for a in build_parser()._subparsers._group_actions  # type: ignore[union-attr]
               if a.dest == "command").choices[command]
    assert sub.description and len(sub.description) > 40
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert " ".join(sub.description.split()) in shown


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "uk_UA.UTF-8"}, "uk"), ({"LC_ALL": "uk_UA.UTF-8", "LANG": "en_US.UTF-8"}, "uk"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "C"}, "en"), ({}, "en"),
])
def test_play_and_gallery_default_to_the_system_language(env, lang, monkeypatch, tmp_path):
    from bot import cli
    from bot.commandline import gallery
    from bot.console import console

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    asked: dict[str, str] = {}
    monkeypatch.setattr(console, "run", lambda o: asked.setdefault("play", o.lang) and 0)
    monkeypatch.setattr(gallery, "render_gallery",
                        lambda folder, lang, theme_name: asked.setdefault("gallery", lang) and [])
    assert cli.main(["play", "dragon"]) == 0
    assert cli.main(["gallery", str(tmp_path)]) == 0
    assert asked == {"play": lang, "gallery": lang}
    assert cli.main(["gallery", str(tmp_path / "b"), "--lang", "en"]) == 0


def test_play_hands_the_console_its_game_and_the_wait(monkeypatch):
    from bot import cli
    from bot.console import console

    asked = []
    monkeypatch.setattr(console, "run", lambda o: (asked.append(o), 0)[1])
    assert cli.main(["play"]) == 0 and cli.main(["play", "tails", "--fast"]) == 0
    assert cli.main(["play", "дракон"]) == 0
    assert [(o.game, o.wait) for o in asked] == [("", True), ("tails", False), ("dragon", True)]


def test_play_takes_the_computers_level(monkeypatch, capsys):
    from bot import cli
    from bot.console import console

    asked = []
    monkeypatch.setattr(console, "run", lambda o: (asked.append(o), 0)[1])
    assert cli.main(["play", "tails", "--level", "strong"]) == 0
    assert cli.main(["play", "tails"]) == 0
    assert [o.level for o in asked] == ["strong", None]
    with pytest.raises(SystemExit) as refused:
        cli.main(["play", "tails", "--level", "hard"])
    assert refused.value.code == 2 and len(asked) == 2
    said = capsys.readouterr().err
    assert "argument --level: invalid choice: 'hard'" in said
    assert all(level in said for level in ("easy", "normal", "strong"))
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--level {easy,normal,strong}" in shown
    assert "how well the computer players play (default normal)" in shown


# ----- refusals in the rules' words, from scripted deals ----------------------------------------

def _letter(view, tile: int) -> str:
    from rendering import hand_labels

    return hand_labels(len(view.hand))[view.hand.index(tile)].lower()


def test_kap_refuses_the_tile_just_taken_and_a_discard_before_the_draw():
    from bot.console.console_text import refusal
    from tests.support.helpers import ids

    rules = games.get("kapten")
    opts = rules.options(preset="classical")
    tiles = rules.tileset(opts)
    h0 = ids(tiles, "66", "55", "44", "33", "22", "11", "65", "64")
    h1 = ids(tiles, "63", "62", "61", "54", "53", "52", "51")
    stock = ids(tiles, "43", "42", "41", "32", "31", "21")
    state = rules.deal_from(opts, [h0, h1], stock=stock)
    state, _ = rules.apply(state, next(a for a in rules.legal_actions(state)
                                       if a.tiles == (h0[6],)))
    view = rules.view(state, 1)
    assert refusal(_letter(view, h1[0]), view, [], "en") == (
        "First take a discard (⤴) or draw from the stock; then discard.")
    assert refusal("4:4", view, [], "en") == "There is no [4:4] among the discards."
    state, _ = rules.apply(state, next(a for a in rules.legal_actions(state)
                                       if a.verb == "take"))
    view = rules.view(state, 1)
    assert refusal(_letter(view, h0[6]), view, [], "en").startswith(
        "[6:5] was just taken: it (or its twin) may not go straight back.")
    assert refusal("ab", view, [], "uk") == "Відкидають одну плитку: напишіть одну літеру."


@pytest.mark.parametrize("game", ["kapten", "dragon", "tiengow"])
def test_a_face_no_tile_of_the_set_shows_is_no_such_tile(game):
    """"9:9" (and the Chinese sets' "0:0") is told apart from a tile that exists but lies
    elsewhere: it is no tile at all, in either language."""
    from bot.console.console_text import refusal

    rules = games.get(game)
    state = rules.new_deal(rules.options(), rules.default_players, "no-such-tile")
    view = rules.view(state, 0)
    faces = {k.label.strip("[]") for k in view.tiles.kinds}
    for face in ("9:9", "0:0", "7:1"):
        if face not in faces:
            assert refusal(face, view, [], "en") == (
                f"There is no such tile as [{face}] in this game's set.")
            assert refusal(face, view, [], "uk") == f"Плитки [{face}] у наборі цієї гри немає."
    assert refusal("1:6", view, [], "en") != "There is no such tile as [1:6] in this game's set."


def test_tien_gow_refuses_a_lead_that_is_no_combination_and_a_follow_of_another_size():
    from bot.console.console_text import refusal
    from tests.support.helpers import ids

    rules = games.get("tiengow")
    opts = rules.options()
    tiles = rules.tileset(opts)
    first = ids(tiles, "66", "62", "44", "44")
    rest = [t for t in range(tiles.size) if t not in first]
    hands = [first + rest[:4], rest[4:12], rest[12:20], rest[20:28]]
    state = rules.deal_from(opts, hands)
    view = rules.view(state, 0)
    typed = _letter(view, first[0]) + _letter(view, first[1])
    assert refusal(typed, view, [], "en").startswith("[6:6] [6:2] is no lead: lead one tile")
    pair = next(a for a in rules.legal_actions(state) if sorted(a.tiles) == sorted(first[2:]))
    state, _ = rules.apply(state, pair)
    view = rules.view(state, 1)
    assert refusal("a", view, [], "en") == (
        "The trick was led with 2 tiles: play 2 (you typed 1).")


def test_domino_says_which_double_opens():
    from bot.console.console_text import refusal
    from tests.support.helpers import ids

    rules = games.get("domino")
    opts = rules.options()
    tiles = rules.tileset(opts)
    hands = [ids(tiles, "66", "65", "64", "63", "62", "61", "60"),
             ids(tiles, "55", "54", "53", "52", "51", "50", "44")]
    state = rules.deal_from(opts, hands, stock=ids(tiles, "43", "42", "41"))
    view = rules.view(state, 0)
    assert refusal(_letter(view, hands[0][1]), view, [], "en") == (
        "The highest double opens the line: [6:6].")
