"""The image built from this checkout's Dockerfile and run as Docker would run it
(docs/architecture.md §11: the container image built and run by the project's own checks), with
Debian's podman.

The build has no network at all: its Debian base and the wheels of every pinned dependency are
fetched ahead by `tests.support.container_image` (`.ci/run` does), and podman keeps the base
image and the build's layers in a cache folder between runs (`tests.support.podman`). The bot
in the container talks to the fake Bot API in this process on this machine's 127.0.0.1 (podman's
slirp4netns network lets the container reach it as 10.0.2.2) and publishes its HTTP port on
127.0.0.1 only. Without podman, or without what the build needs, the test fails and says what
to run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.support import container_image
from tests.support.container_image import IMAGE, PREPARE
from tests.support.fake_telegram import FakeTelegram, SentMessage
from tests.support.podman import LABEL, Podman, PodmanMissing
from tests.support.scrape import get
from tests.support.telegram_group import BOB, GROUP, OLENA, TOKEN

HOST = "10.0.2.2"
"""This machine's 127.0.0.1, as the container sees it."""
NETWORK = "slirp4netns:allow_host_loopback=true"
STOP = 10.0
"""Seconds `docker stop` (and `podman stop`) waits before it kills the bot."""


@pytest.fixture
def podman() -> Iterator[Podman]:
    """Podman on the test's own storage, held by this test alone; every container and volume
    it made is gone afterwards, whatever happened."""
    try:
        podman = Podman.ready()
    except PodmanMissing as exc:
        missing = str(exc)
    else:
        missing = ""
    if missing:
        pytest.fail(missing, pytrace=False)
    lacking = container_image.unprepared()
    if lacking:
        pytest.fail(f"The container test builds the image with no network and lacks "
                    f"{' and '.join(lacking)}: run `{PREPARE}` (.ci/run does).", pytrace=False)
    with podman.lock():
        try:
            podman.configure()
            podman.clean()
        except AssertionError as exc:
            missing = f"podman cannot run here: {exc}"
        if missing:
            pytest.fail(missing, pytrace=False)
        try:
            yield podman
        finally:
            podman.clean()
            left = podman.processes()
            assert not left, f"podman left processes running: {left}"


def start(podman: Podman, name: str, volume: str, server: FakeTelegram) -> int:
    """Run the image as compose.yaml does, on `volume`; the host port of its 8080."""
    podman.run("run", "--detach", "--name", name, "--label", LABEL, "--network", NETWORK,
               "--publish", "127.0.0.1::8080", "--volume", f"{volume}:/data",
               "--health-interval", "disable",  # (no systemd timer: `healthcheck run` below)
               "--env", f"TELEGRAM_TOKEN={TOKEN}",
               "--env", f"TELEGRAM_API_URL=http://{HOST}:{server.port}", IMAGE)
    published = podman.run("port", name, "8080/tcp").split()
    assert len(published) == 1 and published[0].startswith("127.0.0.1:"), published
    return int(published[0].rpartition(":")[2])


async def healthy(podman: Podman, name: str, port: int, timeout: float = 120) -> None:
    """Wait for GET /healthz on the published port to answer `ok`."""
    deadline = time.monotonic() + timeout
    answer: tuple[int, str] | str = "nothing"
    while time.monotonic() < deadline:
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):
            answer = await get(f"http://127.0.0.1:{port}/healthz")
            if answer == (200, "ok\n"):
                return
        if podman.run("inspect", "--format", "{{.State.Running}}", name).strip() != "true":
            break
        await asyncio.sleep(0.25)
    logs = podman.run("logs", name, check=False)
    raise AssertionError(f"/healthz answered {answer!r}; the bot's log:\n{logs[-4000:]}")


def lobby(server: FakeTelegram) -> SentMessage | None:
    for message in reversed(server.messages(GROUP)):
        if any(data.endswith("!start") for data in message.button_data()):
            return message
    return None


def session_of(message: SentMessage) -> int:
    """The session a lobby's join link names."""
    for row in (message.reply_markup or {}).get("inline_keyboard") or []:
        for button in row:
            found = re.search(r"start=j_(\d+)", button.get("url") or "")
            if found:
                return int(found[1])
    raise AssertionError(f"no join link on {message.content!r}")


def uids(pid: int) -> list[int]:
    """The real, effective, saved and file-system user ids of a process on this machine."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    found = re.search(r"^Uid:\s+(.+)$", status, re.MULTILINE)
    assert found, status
    return [int(uid) for uid in found[1].split()]


def stop(podman: Podman, name: str) -> float:
    """`podman stop` as `docker stop` does it: the seconds it took; it and the bot exit 0."""
    began = time.monotonic()
    done = podman.call("stop", "--time", str(int(STOP)), name, timeout=STOP * 3)
    took = time.monotonic() - began
    assert done.returncode == 0, done.stderr
    code = podman.run("inspect", "--format", "{{.State.ExitCode}}", name).strip()
    assert code == "0", (code, podman.run("logs", name, check=False)[-4000:])
    return took


@pytest.mark.real_time
@pytest.mark.timeout(900)  # a first build on a cold cache, on a busy machine
async def test_the_image_runs_as_a_user_keeps_its_games_and_stops_in_time(
        podman: Podman, server: FakeTelegram) -> None:
    container_image.build(podman)
    tag = f"{LABEL}-{os.getpid()}"
    volume = podman.run("volume", "create", "--label", LABEL, f"{tag}-data").strip()

    first = f"{tag}-first"
    port = start(podman, first, volume, server)
    await healthy(podman, first, port)
    pid = int(podman.run("inspect", "--format", "{{.State.Pid}}", first))
    assert 0 not in uids(pid), uids(pid)  # not root, as seen from outside the container
    checked = podman.call("exec", first, "gupai", "health")
    assert (checked.returncode, checked.stdout) == (0, "ok\n"), checked
    assert podman.call("healthcheck", "run", first).returncode == 0  # the image's HEALTHCHECK

    server.send_text(OLENA, GROUP, "/newgame dragon")
    await server.wait_for(lambda: lobby(server) is not None, timeout=30)
    shown = lobby(server)
    assert shown is not None
    sid = session_of(shown)
    took = stop(podman, first)
    assert took < STOP, f"podman stop took {took:.1f} s"
    podman.run("rm", first)

    second = f"{tag}-second"
    port = start(podman, second, volume, server)
    await healthy(podman, second, port)
    server.send_text(BOB, BOB.id, f"/start j_{sid}")  # joins the game the first one saved

    def joined() -> bool:
        now = server.message(GROUP, shown.message_id)
        return now is not None and BOB.first_name in (now.content or "")
    await server.wait_for(joined, timeout=30)
    assert stop(podman, second) < STOP
