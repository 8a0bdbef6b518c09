"""`gupai run`: settings from the environment and `.env`, and the advice when no token is set."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.run import read_env_file, run, settings


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "# comment\nTELEGRAM_TOKEN='from-file'\nexport GUPAI_DB=\"x.sqlite3\"\n\nnonsense\n",
        encoding="utf-8")
    assert read_env_file(tmp_path / ".env") == {"TELEGRAM_TOKEN": "from-file",
                                                "GUPAI_DB": "x.sqlite3"}
    merged = settings({"TELEGRAM_TOKEN": "from-env"}, tmp_path)
    assert merged["TELEGRAM_TOKEN"] == "from-env" and merged["GUPAI_DB"] == "x.sqlite3"
    assert read_env_file(tmp_path / "missing") == {}


def test_no_token_says_what_to_set_and_offers_play(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run({}, out, tmp_path) == 2
    text = out.getvalue()
    assert "TELEGRAM_TOKEN" in text and str(tmp_path / ".env") in text
    assert "play dragon" in text


def test_a_discord_token_alone_is_explained(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run({"DISCORD_TOKEN": "x"}, out, tmp_path) == 2
    assert "TELEGRAM_TOKEN" in out.getvalue()


def test_the_command_line_without_a_token(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=tmp_path, env={
        **env, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "No bot token is configured" in done.stdout
    assert "Traceback" not in done.stderr
