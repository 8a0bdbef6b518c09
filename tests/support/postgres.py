"""A throwaway PostgreSQL server for the tests and the benchmarks, and fresh databases on it.

`Cluster.start()` runs Debian's `initdb` and `pg_ctl` (from `/usr/lib/postgresql/*/bin`, or
the PATH) on a data folder in a temporary directory: listening on 127.0.0.1 only, on a free
port, with its unix socket in that directory, trusting every local connection. PostgreSQL
refuses to run as root, so as root both run as the `postgres` user (`runuser`), which owns the
folder. A test cluster skips every flush to disk (`fsync=off`) and lives in memory
(`/dev/shm`, where there is one): it is thrown away anyway, and a new database there costs a
fifth of one on disk.
`stop()` stops it (`pg_ctl stop -m fast`) and removes the folder.

`GUPAI_TEST_POSTGRES=postgresql://…` names an existing server to use instead: each database
the tests create there is dropped again.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

MISSING = ("PostgreSQL server binaries not found: install Debian's postgresql package "
           "(`.ci/run` does)")
ENV = "GUPAI_TEST_POSTGRES"
"""An existing server for the tests (a `postgresql://` URL whose user may create databases)."""
FAST = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
"""Settings of a test cluster: nothing it writes needs to outlive a crash."""
MEMORY = Path("/dev/shm")


class ServerMissing(RuntimeError):
    """No PostgreSQL server binaries on this machine."""


def server_binaries() -> Path | None:
    """The folder holding `initdb` and `pg_ctl`: Debian's newest, else the PATH's."""
    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(p) for p in re.findall(r"\d+", folder.parent.name)) or (0,)

    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True):
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl and Path(initdb).resolve().parent == Path(pg_ctl).resolve().parent:
        return Path(initdb).resolve().parent
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A PostgreSQL server the tests may create databases on."""

    def __init__(self, url: str) -> None:
        self.url = url
        """The URL of its maintenance database (`postgres`)."""
        self._names = itertools.count(1)
        self._prefix = f"test_{os.getpid()}_"

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, ""))

    def create_database(self) -> str:
        """A new empty database; its URL."""
        name = f"{self._prefix}{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """An existing server goes on running."""


class Cluster(Server):
    """A server of our own in a temporary folder, started by `start` and gone after `stop`."""

    def __init__(self, folder: Path, bindir: Path, port: int) -> None:
        super().__init__(f"postgresql://postgres@127.0.0.1:{port}/postgres")
        self.folder = folder
        self.bindir = bindir
        self.port = port
        self.data = folder / "data"
        self.log = folder / "server.log"

    @classmethod
    def start(cls, settings: Sequence[str] = FAST, in_memory: bool = True, attempts: int = 5
              ) -> Cluster:
        """Initialise and start a cluster with these server settings (`name=value`), in
        memory if this machine can (the benchmarks want a disk, and PostgreSQL's own
        settings)."""
        bindir = server_binaries()
        if bindir is None:
            raise ServerMissing(MISSING)
        in_memory = in_memory and MEMORY.is_dir() and os.access(MEMORY, os.W_OK)
        folder = Path(tempfile.mkdtemp(prefix="gupai-pg-", dir=MEMORY if in_memory else None))
        try:
            as_postgres = _as_postgres(folder)
            _run([*as_postgres, str(bindir / "initdb"), "-D", str(folder / "data"), "-U",
                  "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync",
                  "--no-instructions"])
            for attempt in range(attempts):
                cluster = cls(folder, bindir, free_port())
                options = " ".join(f"-c {s}" for s in (
                    "listen_addresses=127.0.0.1", f"port={cluster.port}",
                    f"unix_socket_directories={folder}", "max_connections=200", *settings))
                done = subprocess.run(
                    [*as_postgres, str(bindir / "pg_ctl"), "start", "-D", str(cluster.data),
                     "-l", str(cluster.log), "-w", "-t", "60", "-o", options],
                    capture_output=True, text=True, check=False)
                if done.returncode == 0:
                    return cluster
                log = cluster.log.read_text(errors="replace") if cluster.log.exists() else ""
                if ("could not bind" not in log and "in use" not in log) \
                        or attempt == attempts - 1:
                    raise RuntimeError(f"PostgreSQL did not start: {done.stderr}\n{log[-2000:]}")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        raise AssertionError("unreachable")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, OSError):
            subprocess.run([*_as_postgres(self.folder), str(self.bindir / "pg_ctl"), "stop",
                            "-D", str(self.data), "-m", "fast", "-w", "-t", "30"],
                           capture_output=True, check=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def drop_database(self, url: str) -> None:
        with contextlib.suppress(psycopg.Error):
            super().drop_database(url)


def server() -> Server:
    """The server named by GUPAI_TEST_POSTGRES, else a new throwaway cluster (ServerMissing
    when this machine has no PostgreSQL binaries)."""
    url = os.environ.get(ENV, "").strip()
    if url:
        return Server(url)
    return Cluster.start()


def _as_postgres(folder: Path) -> list[str]:
    """The command prefix that runs the server's programs as a user PostgreSQL accepts: as
    root, the `postgres` user, who is then given the folder."""
    if os.geteuid() != 0:
        return []
    try:
        shutil.chown(folder, "postgres", "postgres")
    except LookupError as exc:
        raise ServerMissing(f"{MISSING} (there is no postgres user)") from exc
    return ["runuser", "-u", "postgres", "--"]


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed: {done.stderr}")


def empty(url: str) -> None:
    """Empty every table of a migrated database but its schema version, and start its ids
    again from 1: as good as a fresh one, in a fraction of the time (a hypothesis example).
    (DELETE, not TRUNCATE: on tables this small it is several times quicker.)"""
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "AND tablename <> 'schema_version'").fetchall()]
        identities = conn.execute(
            "SELECT table_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND column_name = 'id' AND is_identity = 'YES'").fetchall()
        script = ["BEGIN", "SET LOCAL session_replication_role = replica"]
        script += [f"DELETE FROM {table}" for table in tables]
        script += [f"ALTER TABLE {table} ALTER COLUMN id RESTART" for (table,) in identities]
        conn.execute("; ".join([*script, "COMMIT"]))


def wait_gone(url: str, timeout: float = 10.0) -> None:
    """Wait until no other session is connected to the database (a killed client's)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND pid <> pg_backend_pid()").fetchone()
            if row is not None and row[0] == 0:
                return
            time.sleep(0.02)
