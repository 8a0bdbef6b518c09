"""`gupai backup FILE`: a consistent copy of the SQLite file while a bot plays on it.

The real test: a child process plays for chips at 20 tables at once on one SQLite file, and
`gupai backup` (the command, in its own process) copies it twice while they play. Each copy opens,
passes `PRAGMA integrity_check`, keeps exact books and holds every deal settled before the backup
began, row for row as the bot wrote it. Then each table's host stops its game (once the table
has settled a deal), so that no chips stay held, rather than it being played to its match's end,
which took as long again as the play around the backups. The refusals and the PostgreSQL
advice are checked in process.
"""

from __future__ import annotations

import os
import select
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

import storage.backup
from bot.cli import main
from storage.backup import backup, without_password
from tests.support.books import check_books

ROOT = Path(__file__).resolve().parents[2]
TABLES = 20
PLAYER = """
import asyncio, random, sqlite3, sys
from contextlib import closing
sys.path.insert(0, {root!r})
from bot.present.screens import Actor, Place
from tests.support.session_helpers import close, manager

GAMES = ["dragon deals=2 7", "kapten deals=3 20", "tails deals=2 9", "domino 50 3"]

async def main():
    m, rec = await manager({path!r})
    tables = {{}}

    async def deliver(reply):
        await rec(reply)
        if reply.table is not None:
            tables[reply.session_id] = reply.table
    m.deliver = deliver
    rng = random.Random({seed})
    stop = asyncio.Event()
    started = set()

    def settled(sid):
        with closing(sqlite3.connect({path!r})) as conn:
            return conn.execute("SELECT 1 FROM deals WHERE session_id = ?",
                                (sid,)).fetchone() is not None

    async def nobody():
        return False

    async def table(i):
        # One chat each, with people of its own: the recorder keeps one hand per person.
        place = Place(f"-{{100 + i}}", "", f"Group {{i}}")
        people = [Actor(str(2 * i + 1), f"Olena {{i}}", "uk"),
                  Actor(str(2 * i + 2), f"Bob {{i}}", "en")]
        round = 0
        while not stop.is_set():
            await m.new_game(place, people[0], GAMES[(i + round) % len(GAMES)].split())
            await m.join(place, people[1])
            sid = (await m.open_in(place)).id
            await m.press(people[0], rec.button(tables[sid], "!add").data)
            reply = await m.press(people[0], rec.button(tables[sid], "!start").data)
            assert reply.toast in ("Гру почато!", "The game begins!"), reply.toast
            if len(started) < {tables}:
                started.add(i)
                if len(started) == {tables}:
                    print("ready", flush=True)
            while await m.open_in(place) is not None:
                if stop.is_set() and (round or settled(sid)):
                    # Asked to stop, a table that has settled a deal is stopped by its host
                    # rather than played to the end of its match.
                    await m.stop(place, people[0], nobody)
                    assert await m.open_in(place) is None
                    break
                pressed = False
                for actor in people:
                    moves = rec.moves(actor.platform_id) or rec.groups(actor.platform_id)
                    if moves:
                        reply = await m.press(actor, rng.choice(moves).data)
                        pressed = pressed or not reply.toast
                await asyncio.sleep(0.002 if pressed else 0.005)
            round += 1

    async def until_stdin_closes():
        await asyncio.to_thread(sys.stdin.read)
        stop.set()

    asyncio.ensure_future(until_stdin_closes())
    await asyncio.gather(*(table(i) for i in range({tables})))
    await close(m)
    print("done", flush=True)

asyncio.run(main())
"""


def deal_ids(path: Path) -> set[int]:
    with closing(sqlite3.connect(path)) as conn, conn:
        return {row[0] for row in conn.execute("SELECT id FROM deals")}


def deal_rows(path: Path, ids: set[int]) -> list[tuple[object, ...]]:
    """The deals and their seats as stored, for the deals `ids`."""
    marks = ",".join("?" * len(ids))
    with closing(sqlite3.connect(path)) as conn, conn:
        return [*conn.execute(f"SELECT * FROM deals WHERE id IN ({marks}) ORDER BY id",
                              sorted(ids)),
                *conn.execute(f"SELECT * FROM deal_seats WHERE deal_id IN ({marks}) "
                              "ORDER BY deal_id, seat", sorted(ids))]


def wait_for_deals(path: Path, at_least: int, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while len(deal_ids(path)) < at_least:
        assert child.poll() is None, "the player stopped"
        assert time.monotonic() < deadline, f"fewer than {at_least} deals in a minute"
        time.sleep(0.05)


def gupai_backup(live: Path, copy: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(live.parent),
           "PYTHONPATH": str(ROOT), "GUPAI_DB": str(live)}
    return subprocess.run([sys.executable, "-m", "bot.cli", "backup", str(copy)],
                          cwd=live.parent, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.real_time
def test_a_backup_taken_while_twenty_tables_play_holds_every_settled_deal(tmp_path):
    live = tmp_path / "live.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", PLAYER.format(root=str(ROOT), path=str(live), seed=7,
                                             tables=TABLES)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    copies: list[tuple[Path, set[int]]] = []
    try:
        assert child.stdout is not None and child.stdin is not None
        ready, _, _ = select.select([child.stdout], [], [], 60)
        assert ready and child.stdout.readline().strip() == "ready"
        for n in (1, 2):
            wait_for_deals(live, 15 * n, child)
            before = deal_ids(live)
            copy = tmp_path / f"backup-{n}.sqlite3"
            done = gupai_backup(live, copy)
            assert done.returncode == 0, done.stderr
            assert child.poll() is None, "the tables were still playing"
            held = deal_ids(copy)
            assert before <= held, "every deal settled before the backup is in it"
            assert done.stdout.startswith(f"{copy}: ok, ")
            assert done.stdout.strip().endswith(f", {len(held)} settled deals")
            with closing(sqlite3.connect(copy)) as conn, conn:
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            check_books(copy)
            assert not [p for p in tmp_path.iterdir() if p.name.startswith(f".{copy.name}")]
            copies.append((copy, held))
        wait_for_deals(live, len(copies[-1][1]) + 5, child)  # and the tables played on
        child.stdin.close()
        assert child.wait(60) == 0
        assert child.stdout.read().strip() == "done"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    check_books(live)
    final = deal_ids(live)
    with closing(sqlite3.connect(live)) as conn, conn:
        assert conn.execute("SELECT COUNT(*) FROM holds").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(DISTINCT chat_id) FROM deals").fetchone()[0] == TABLES
    for copy, held in copies:
        assert held < final
        assert deal_rows(copy, held) == deal_rows(live, held), "as the bot wrote them"


# ----- the refusals, in process -----------------------------------------------------------------


@pytest.fixture
def database(tmp_path, monkeypatch) -> Path:
    """A small gupai database named by GUPAI_DB, in the working folder."""
    path = tmp_path / "gupai.sqlite3"
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE deals (id INTEGER PRIMARY KEY, game TEXT)")
        conn.executemany("INSERT INTO deals (game) VALUES (?)", [("dragon",)] * 3)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GUPAI_DB", str(path))
    return path


def test_a_backup_is_checked_and_described(database, tmp_path, capsys):
    assert main(["backup", "copy.sqlite3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("copy.sqlite3: ok, ") and out.strip().endswith(", 3 settled deals")
    assert deal_ids(tmp_path / "copy.sqlite3") == {1, 2, 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite3", "gupai.sqlite3"]


def test_the_database_is_read_from_the_env_file_too(database, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("GUPAI_DB")
    (tmp_path / ".env").write_text(f"GUPAI_DB={database}\n", encoding="utf-8")
    assert main(["backup", "copy.sqlite3"]) == 0
    assert "3 settled deals" in capsys.readouterr().out


def test_an_existing_file_is_replaced_only_with_force(database, tmp_path, capsys):
    old = tmp_path / "copy.sqlite3"
    old.write_text("an older backup")
    assert main(["backup", str(old)]) == 1
    assert capsys.readouterr().err == f"gupai: {old} already exists; --force replaces it\n"
    assert old.read_text() == "an older backup"
    assert main(["backup", str(old), "--force"]) == 0
    assert deal_ids(old) == {1, 2, 3}


@pytest.mark.parametrize("name", ["gupai.sqlite3", "./gupai.sqlite3", "gupai.sqlite3-wal"])
def test_the_database_itself_is_never_the_backup(database, capsys, name):
    before = database.read_bytes()
    assert main(["backup", name, "--force"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gupai: ") and err.count("\n") == 1
    assert "the database itself" in err or "belongs to the database" in err
    assert database.read_bytes() == before


def test_a_link_to_the_database_is_the_database(database, tmp_path, capsys):
    (tmp_path / "link.sqlite3").symlink_to(database)
    assert main(["backup", "link.sqlite3", "--force"]) == 1
    assert "the database itself" in capsys.readouterr().err


@pytest.mark.parametrize(("setup", "file", "said"), [
    ("missing", "copy.sqlite3", "there is no database at {db} (GUPAI_DB)"),
    ("no folder", "copy.sqlite3", "the folder of the database does not exist"),
    ("not sqlite", "copy.sqlite3", "is not a SQLite database"),
    ("not ours", "copy.sqlite3", "is not a gupai database"),
    ("", "nowhere/copy.sqlite3", "the folder for the backup does not exist: nowhere"),
    ("", ".", "is a folder"),
])
def test_refusals_are_one_clear_line(tmp_path, monkeypatch, capsys, setup, file, said):
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "gupai.sqlite3"
    if setup == "no folder":
        db = tmp_path / "gone" / "gupai.sqlite3"
    elif setup == "not sqlite":
        db.write_text("chips: 1000\n")
    elif setup != "missing":
        with closing(sqlite3.connect(db)) as conn, conn:
            conn.execute("CREATE TABLE deals (id INTEGER PRIMARY KEY)" if setup == ""
                         else "CREATE TABLE other (id INTEGER PRIMARY KEY)")
    monkeypatch.setenv("GUPAI_DB", str(db))
    assert main(["backup", file]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gupai: ") and err.count("\n") == 1, err
    assert said.format(db=db) in err
    assert "copy.sqlite3" not in {p.name for p in tmp_path.rglob("*")}
    assert not [p for p in tmp_path.rglob(".copy*")], "no half-written file is left"


def test_db_names_the_database_to_copy(database, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GUPAI_DB", str(tmp_path / "elsewhere.sqlite3"))
    assert main(["backup", "copy.sqlite3", "--db", str(database)]) == 0
    assert deal_ids(tmp_path / "copy.sqlite3") == {1, 2, 3}
    assert main(["backup", "again.sqlite3", "--db", "gone.sqlite3"]) == 1
    assert "there is no database at gone.sqlite3 (--db)" in capsys.readouterr().err


def test_the_terminals_database_is_found_as_gupai_play_finds_it(database, tmp_path,
                                                                 monkeypatch, capsys):
    """`gupai play` keeps its games in gupai-console.sqlite3 (or $GUPAI_CONSOLE_DB), not in
    GUPAI_DB's file: --terminal copies that one, and a missing bot database points to it."""
    monkeypatch.delenv("GUPAI_DB")
    database.rename(tmp_path / "gupai-console.sqlite3")
    assert main(["backup", "copy.sqlite3"]) == 1
    err = capsys.readouterr().err
    assert "there is no database at gupai.sqlite3 (GUPAI_DB)" in err
    assert "gupai-console.sqlite3: --terminal copies that" in err
    assert main(["backup", "copy.sqlite3", "--terminal"]) == 0
    assert deal_ids(tmp_path / "copy.sqlite3") == {1, 2, 3}
    (tmp_path / "gupai-console.sqlite3").rename(tmp_path / "mine.sqlite3")
    monkeypatch.setenv("GUPAI_CONSOLE_DB", "mine.sqlite3")
    assert main(["backup", "mine-copy.sqlite3", "--terminal"]) == 0
    assert deal_ids(tmp_path / "mine-copy.sqlite3") == {1, 2, 3}


def test_the_default_database_is_gupai_sqlite3(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GUPAI_DB", raising=False)
    assert main(["backup", "copy.sqlite3"]) == 1
    assert "there is no database at gupai.sqlite3" in capsys.readouterr().err


@pytest.mark.parametrize("url", [
    "postgresql://gupai:s3cret-pw@postgres:5432/gupai",
    "postgres://gupai:s3cret-pw@db.example.org/gupai?sslmode=require&password=s3cret-pw",
])
def test_postgresql_gets_pg_dump_advice_without_its_password(tmp_path, monkeypatch, capsys,
                                                             url):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GUPAI_DB", url)
    assert main(["backup", "gupai.dump"]) == 2
    out = capsys.readouterr().out
    assert "s3cret-pw" not in out
    assert 'pg_dump --format=custom --file gupai.dump "$GUPAI_DB"' in out
    assert 'pg_restore --clean --if-exists --dbname "$GUPAI_DB" gupai.dump' in out
    assert without_password(url) in out and "gupai@" in out
    assert not (tmp_path / "gupai.dump").exists()


def test_without_password_keeps_the_rest_of_the_url():
    assert without_password("postgresql://u:p@h:5/d?sslmode=require&password=p") == \
        "postgresql://u@h:5/d?sslmode=require"
    assert without_password("postgresql://h/d") == "postgresql://h/d"
    assert without_password("postgresql://:p@h/d") == "postgresql://h/d"
    assert without_password("postgresql://u@[::1]:5432/d") == "postgresql://u@[::1]:5432/d"


def test_a_copy_the_bot_keeps_writing_to_still_ends_consistent(tmp_path):
    """A writer commits between every step of a copy made one page at a time, so each step
    starts the copy again: after a few restarts the rest is copied in one step, and the copy
    is one committed state of the file."""
    source = tmp_path / "busy.sqlite3"
    with closing(sqlite3.connect(source)) as conn, conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE deals (id INTEGER PRIMARY KEY, body BLOB)")
        conn.executemany("INSERT INTO deals (body) VALUES (randomblob(2000))", [()] * 200)
    writer = sqlite3.connect(source, isolation_level=None)
    written = 0

    def write_between_steps(seconds: float) -> None:
        nonlocal written
        writer.execute("INSERT INTO deals (body) VALUES (randomblob(10))")
        written += 1

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(storage.backup, "_wait", write_between_steps)
            done = backup(source, tmp_path / "copy.sqlite3", pages=1, pause=0.001)
    finally:
        writer.close()
    assert done.check == "ok" and written == storage.backup.RESTARTS + 1
    assert done.deals == 200 + written == len(deal_ids(tmp_path / "copy.sqlite3"))
