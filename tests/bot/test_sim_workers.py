"""`gupai sim`'s worker processes never outlive it (`bot.commandline.sim_workers`): killed with
SIGKILL, its workers are gone within a second; stopped with Ctrl-C, it prints what was played so far
and leaves nobody behind either."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.bot_process import cpu_seconds

pytestmark = pytest.mark.real_time

ROOT = Path(__file__).resolve().parents[2]
SIM = [sys.executable, "-m", "bot.cli", "sim", "dragon", "--games", "500000", "--jobs", "2",
       "--seed", "workers"]


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid`."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def used(pid: int) -> float:
    """`cpu_seconds` of `pid`, 0 once it is gone."""
    try:
        return cpu_seconds(pid)
    except OSError:
        return 0.0


def playing(workers: set[int], seconds: float = 1.0) -> None:
    """Wait until the workers have used `seconds` of processor time between them: started, and
    some blocks of games played, whatever the machine's speed."""
    deadline = time.monotonic() + 60
    while sum(map(used, workers)) < seconds:
        assert time.monotonic() < deadline, "the workers play nothing"
        time.sleep(0.05)


def started() -> tuple[subprocess.Popen[str], set[int]]:
    # Ctrl-C as a terminal delivers it: whatever the test runner's process ignores, a
    # command started from a shell takes SIGINT as the default does.
    sim = subprocess.Popen(SIM, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while len(workers := children(sim.pid)) < 2:
        assert time.monotonic() < deadline and sim.poll() is None, "no workers started"
        time.sleep(0.05)
    return sim, workers


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_killed_with_sigkill_it_leaves_no_worker_behind() -> None:
    sim, workers = started()
    time.sleep(0.5)
    sim.kill()
    sim.wait()
    killed = time.monotonic()
    while any(alive(w) for w in workers):
        assert time.monotonic() - killed < 1.0, "a worker outlived its parent"
        time.sleep(0.02)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_ctrl_c_prints_what_was_played_and_stops_the_workers() -> None:
    sim, workers = started()
    playing(workers)
    ignored = int(next(line.split()[1] for line in
                       (Path("/proc") / str(sim.pid) / "status").read_text().splitlines()
                       if line.startswith("SigIgn:")), 16)
    assert not ignored & (1 << (signal.SIGINT - 1)), "the command ignores Ctrl-C"
    sim.send_signal(signal.SIGINT)
    try:
        out, err = sim.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        sim.kill()
        out, err = sim.communicate()
        raise AssertionError(f"Ctrl-C did not stop it in 30 s; it printed: {err[-2000:]}"
                             ) from None
    assert sim.returncode == 130, err
    assert "Stopped:" in err and "of 500000 games played" in err
    assert "Traceback" not in err
    assert "games (" in out and "win %" in out
    assert not any(alive(w) for w in workers)
