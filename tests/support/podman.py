"""Debian's podman for the container test (docs/architecture.md §11: the image built and run by the
project's own checks, with podman where no Docker engine runs), on storage of its own.

Everything it keeps lives in one cache folder, so that the base image is imported and the
build's layers are made once and reused by every later run: GUPAI_TEST_CONTAINER_CACHE, else
`gupai-container` in XDG_CACHE_HOME (`~/.cache`). Podman reads only the configuration written
there, never the machine's `/etc/containers` nor `/var/lib/containers`: its images, layers and
volumes under `podman/storage`, its file locks and run state in a folder of `/run` (which must be
wiped at boot, as podman's own is). It runs as root with runc and cgroupfs (no systemd here), no
default ulimits (the machine's may be above what this kernel allows a container), and the
storage driver podman picks itself on first use (overlay where the kernel allows it, else
vfs), written down for every later command.

The test's containers and volumes carry the label `LABEL`; `clean()` removes every one of them,
whatever run left it. One run at a time uses the folder (`lock()`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

CACHE = Path(os.environ.get("GUPAI_TEST_CONTAINER_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
             / "gupai-container")
"""The container test's cache folder (kept between runs; not in the repository)."""
LABEL = "gupai-test"
PROGRAMS = ("podman", "runc", "slirp4netns")
MISSING = ("the container test runs the image with Debian's podman, runc and slirp4netns "
           "(`apt-get install podman runc slirp4netns`; .ci/run installs them, as root)")


def program(name: str) -> str | None:
    """Where a program is, on the PATH or in the system folders root's PATH holds (Debian's
    runc and debootstrap are in /usr/sbin)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/bin", "/sbin"])
    return shutil.which(name, path=path)


class PodmanMissing(RuntimeError):
    """Podman cannot run containers on this machine."""


class Podman:
    """`podman` on the cache folder's storage and configuration."""

    def __init__(self, cache: Path = CACHE) -> None:
        self.cache = cache
        self.folder = cache / "podman"
        self.storage = self.folder / "storage"
        digest = hashlib.sha256(str(cache.resolve()).encode()).hexdigest()[:12]
        self.runtime = Path("/run") / f"gupai-container-{digest}"
        """Podman's run state and locks: gone at the next boot, as podman expects."""
        self.env = {**os.environ,
                    "CONTAINERS_CONF": str(self.folder / "containers.conf"),
                    "CONTAINERS_STORAGE_CONF": str(self.folder / "storage.conf"),
                    "CONTAINERS_REGISTRIES_CONF": str(self.folder / "registries.conf")}

    @classmethod
    def ready(cls, cache: Path = CACHE) -> Podman:
        """Podman configured on `cache`, or PodmanMissing saying what is missing."""
        absent = [name for name in PROGRAMS if program(name) is None]
        if absent:
            raise PodmanMissing(f"{', '.join(absent)} not found: {MISSING}")
        if os.geteuid() != 0:
            raise PodmanMissing(f"the container test runs podman as root: {MISSING}")
        return cls(cache)

    def configure(self) -> None:
        """Write podman's configuration (under `lock()`); on first use, let podman pick its
        storage driver and keep that choice."""
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "containers.conf").write_text(
            "[containers]\n"
            "default_ulimits = []\n"
            "[engine]\n"
            'cgroup_manager = "cgroupfs"\n'
            'runtime = "runc"\n'
            'events_logger = "file"\n'
            f'events_logfile_path = "{self.folder / "events.log"}"\n'
            'lock_type = "file"\n'
            f'tmp_dir = "{self.runtime / "libpod"}"\n'
            f'static_dir = "{self.storage / "libpod"}"\n'
            f'volume_path = "{self.storage / "volumes"}"\n'
            "[network]\n"
            f'network_config_dir = "{self.folder / "networks"}"\n', encoding="utf-8")
        (self.folder / "registries.conf").write_text(
            "# The test's images are all built here: no registry is asked for any.\n"
            "unqualified-search-registries = []\n", encoding="utf-8")
        driver_file = self.folder / "driver"
        if not driver_file.exists():
            self._storage_conf("")
            driver = self.run("info", "--format", "{{.Store.GraphDriverName}}").strip()
            driver_file.write_text(driver + "\n", encoding="utf-8")
        self._storage_conf(driver_file.read_text(encoding="utf-8").strip())

    def _storage_conf(self, driver: str) -> None:
        (self.folder / "storage.conf").write_text(
            "[storage]\n"
            f'driver = "{driver}"\n'
            f'graphroot = "{self.storage}"\n'
            f'runroot = "{self.runtime / "storage"}"\n', encoding="utf-8")

    def run(self, *args: str, timeout: float = 120, check: bool = True) -> str:
        """What `podman ARGS` printed; AssertionError with its output when it fails."""
        done = self.call(*args, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"podman {' '.join(args)} exited {done.returncode}:\n"
                                 f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
        return done.stdout

    def call(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        try:
            return subprocess.run(["podman", *args], env=self.env, capture_output=True,
                                  text=True, timeout=timeout, check=False)
        except FileNotFoundError as exc:
            raise PodmanMissing(f"podman not found: {MISSING}") from exc

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """One container test at a time on this cache (another worktree's run waits)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / "lock", "w", encoding="utf-8") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(held, fcntl.LOCK_UN)

    def clean(self) -> None:
        """Remove every container and volume the test made (this run's, or one that died)."""
        label = f"label={LABEL}"
        for name in self.run("ps", "--all", "--quiet", "--filter", label).split():
            self.run("rm", "--force", "--time", "0", name, check=False)
        for name in self.run("volume", "ls", "--quiet", "--filter", label).split():
            self.run("volume", "rm", "--force", name, check=False)

    def processes(self) -> list[str]:
        """Processes still working for this storage (a container's conmon, say)."""
        marks = (str(self.storage), str(self.runtime))
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                        errors="replace")
                    if any(mark in line for mark in marks):
                        found.append(f"{entry.name}: {line[:300]}")
        return found
