"""`gupai backup FILE`: a consistent copy of the SQLite file, taken while the bot runs.

SQLite's online backup API copies the database a few pages at a time, with a short pause between
steps so the bot's own reads and writes go on meanwhile (under WAL a reader never blocks a
writer anyway). When another connection writes to the file during the copy, SQLite starts the
copy again from the first page, so a finished copy is always one committed state of the file;
should a busy bot restart it more than a few times, the rest is copied in one step, which holds
one read snapshot until it is done (writers still go on; only a checkpoint waits).

The copy is written to a hidden file beside FILE and renamed to FILE once it is complete and has
passed `PRAGMA integrity_check`, so a half-written backup never has FILE's name.

A PostgreSQL database is backed up with PostgreSQL's own tools: `postgres_advice` says how.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from storage.db import DEFAULT_PATH
from storage.postgres_sql import without_password

PAGES_PER_STEP = 256
"""Pages copied in one step (1 MB at SQLite's usual 4 KB pages)."""
PAUSE = 0.005
"""Seconds between two steps, when the bot's writers have the file to themselves."""
RESTARTS = 3
"""Times a copy may start again because the bot wrote meanwhile before the rest is copied in
one step."""
BUSY_TIMEOUT_S = 5.0
SQLITE_HEADER = b"SQLite format 3\x00"


class BackupError(Exception):
    """Why no backup was written, in one line; FILE is left as it was."""


@dataclass(frozen=True, slots=True)
class Backup:
    """A finished backup: where, how big, what its integrity check said, its settled deals."""

    path: Path
    size: int
    check: str
    deals: int

    def summary(self) -> str:
        deals = f"{self.deals} settled deal{'' if self.deals == 1 else 's'}"
        return f"{self.path}: {self.check}, {size_text(self.size)}, {deals}"


class _Restarted(Exception):
    """The copy started again too many times: copy the rest in one step."""


def postgres_advice(url: str, file: str) -> str:
    """What to run instead when GUPAI_DB names a PostgreSQL database (never its password)."""
    shown = without_password(url)
    target = shlex.quote(file)
    return "\n".join([
        "GUPAI_DB names a PostgreSQL database; `gupai backup` copies only SQLite files.",
        f"    {shown}   (the password is not shown)",
        "Back it up with pg_dump, which is safe while the bot runs:",
        f'    pg_dump --format=custom --file {target} "$GUPAI_DB"',
        "and restore it with the bot stopped:",
        f'    pg_restore --clean --if-exists --dbname "$GUPAI_DB" {target}',
        '"$GUPAI_DB" is the URL with its password, as the bot reads it; without it in the',
        "shell, give the URL above and the password in PGPASSWORD or ~/.pgpass.",
    ])


def size_text(size: int) -> str:
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


@dataclass(frozen=True, slots=True)
class Source:
    """The database to copy, what named it (for the refusals), and `gupai play`'s database to
    point to when the bot's is missing ("" when the player named the one they meant)."""

    database: str
    named: str = "GUPAI_DB"
    elsewhere: str = ""

    @property
    def path(self) -> Path:
        return Path(self.database).expanduser()


def source_of(asked: str | None, terminal: bool, setting: str, console: str) -> Source:
    """`--db`'s database, the terminal's (`console`, as `gupai play` finds it) for
    `--terminal`, else GUPAI_DB's `setting`: `gupai play` keeps its games apart from the bot's."""
    if terminal:
        return Source(console, "the terminal's, as `gupai play` finds it")
    if asked:
        return Source(asked, "--db")
    return Source(setting.strip() or DEFAULT_PATH, elsewhere=console)


def backup(source: Path, target: Path, *, force: bool = False, pages: int = PAGES_PER_STEP,
           pause: float = PAUSE, named: Source | None = None) -> Backup:
    """Copy the SQLite database `source` to `target` (see the module's note); `force`
    replaces an existing `target`. `named` says where `source` came from, in refusals."""
    _check_source(source, named or Source(str(source)))
    _check_target(source, target, force)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(fd)
    part = Path(name)
    try:
        deals, check = _copy(source, part, pages, pause)
        _sync(part)
        os.replace(part, target)
        _sync(target.parent)
    finally:
        for leftover in (part, Path(f"{part}-journal")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
    return Backup(target, target.stat().st_size, check, deals)


def _check_source(source: Path, named: Source) -> None:
    if not source.parent.is_dir():
        raise BackupError(f"the folder of the database does not exist: {source.parent} "
                          f"({named.named})")
    if not source.is_file():
        hint = (f"; `gupai play` keeps its games in {named.elsewhere}: --terminal copies that"
                if named.elsewhere and Path(named.elsewhere).is_file() else "")
        raise BackupError(f"there is no database at {source} ({named.named}){hint}")
    try:
        with source.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise BackupError(f"the database {source} cannot be read: {exc.strerror}") from None
    if header != SQLITE_HEADER:
        raise BackupError(f"{source} is not a SQLite database ({named.named})")


def _check_target(source: Path, target: Path, force: bool) -> None:
    if not target.parent.is_dir():
        raise BackupError(f"the folder for the backup does not exist: {target.parent}")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; name the backup file inside it")
    real = source.resolve()
    if target.resolve() == real or (target.exists() and os.path.samefile(target, source)):
        raise BackupError(f"{target} is the database itself; name another file")
    if target.resolve() in {Path(f"{real}{end}") for end in ("-wal", "-shm", "-journal")}:
        raise BackupError(f"{target} belongs to the database; name another file")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists; --force replaces it")


def _copy(source: Path, part: Path, pages: int, pause: float) -> tuple[int, str]:
    """Copy into `part` and check the copy: its settled deals and what the check said."""
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True,
                              timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise BackupError(f"the database {source} cannot be opened: {exc}") from None
    try:
        dst = sqlite3.connect(part)
        try:
            _online_copy(src, dst, pages, pause)
            problems = [row[0] for row in dst.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError(f"the copy failed its integrity check: {problems[0]}")
            try:
                (deals,) = dst.execute("SELECT COUNT(*) FROM deals").fetchone()
            except sqlite3.OperationalError:
                raise BackupError(f"{source} is not a gupai database (it has no deals)"
                                  ) from None
        finally:
            dst.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the backup failed: {exc}") from None
    finally:
        src.close()
    return int(deals), "ok"


def _online_copy(src: sqlite3.Connection, dst: sqlite3.Connection, pages: int,
                 pause: float) -> None:
    """`pages` at a time with `pause` between steps; after `RESTARTS` restarts (the bot wrote
    meanwhile), whatever is left in one step."""
    last: int | None = None
    restarts = 0

    def step(status: int, remaining: int, total: int) -> None:
        nonlocal last, restarts
        if last is not None and remaining >= last:  # no nearer the end: it started again
            restarts += 1
            if restarts > RESTARTS:
                raise _Restarted
        last = remaining
        if remaining and pause:
            _wait(pause)

    try:
        src.backup(dst, pages=pages, progress=step, sleep=pause)
    except _Restarted:
        src.backup(dst, pages=-1)


def _wait(seconds: float) -> None:
    """The pause between two steps, in which the bot's writers have the file."""
    time.sleep(seconds)


def _sync(path: Path) -> None:
    """Flush a file (or a folder's entry for it) to the disk, where the system allows."""
    flags = (os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) if path.is_dir() else os.O_RDONLY
    try:
        fd = os.open(path, flags)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
