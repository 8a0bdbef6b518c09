"""Logs a host can read (`bot.service.logs`): text as before or one JSON object a line, each line
naming the session and chat it concerns, and never a token: not in a message, its arguments or a
traceback, in either format, and not in what the real `gupai run` writes at DEBUG."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.cli import main
from bot.service import logs
from bot.service.logs import JsonFormatter, LogSettingError, TextFormatter, hide, log_context
from tests.support.bot_process import BotProcess, ProcessGroup
from tests.support.fake_telegram import FakeTelegram
from tests.support.session_helpers import BOB, OLENA, PLACE, close, lobby, manager, play_out
from tests.support.telegram_group import GROUP
from tests.support.telegram_group import OLENA as TG_OLENA
from tests.support.telegram_group import TOKEN as TELEGRAM_TOKEN

ROOT = Path(__file__).resolve().parents[2]
DISCORD_TOKEN = "MTE5ODc2NTQzMjEwOTg3NjU0Mw.GxYzAb.never-a-real-discord-token"
TOKENS = (TELEGRAM_TOKEN, DISCORD_TOKEN)


def record_with_tokens(made_by_factory: bool) -> logging.LogRecord:
    """An error whose message, arguments and traceback all hold both tokens."""
    try:
        raise ConnectionError(f"POST http://127.0.0.1:1/bot{TELEGRAM_TOKEN}/getMe failed "
                              f"(Authorization: Bot {DISCORD_TOKEN})")
    except ConnectionError:
        info = sys.exc_info()
    args = (f"http://127.0.0.1:1/bot{TELEGRAM_TOKEN}/getUpdates", DISCORD_TOKEN)
    message = f"token {TELEGRAM_TOKEN}: calling %s as %s"
    if made_by_factory:
        return logging.getLogger("telegram.ext.ExtBot").makeRecord(
            "telegram.ext.ExtBot", logging.ERROR, __file__, 1, message, args, info)
    # Made without the record factory (a library building its own records): the formatters
    # still redact it.
    return logging.LogRecord("telegram.ext.ExtBot", logging.ERROR, __file__, 1, message, args,
                             info)


@pytest.fixture(autouse=True)
def secrets() -> None:
    for token in TOKENS:
        hide(token)


@pytest.mark.parametrize("formatter", [TextFormatter, JsonFormatter])
@pytest.mark.parametrize("made_by_factory", [True, False])
def test_no_token_in_a_message_its_arguments_or_its_traceback(formatter, made_by_factory):
    record = record_with_tokens(made_by_factory)
    line = formatter().format(record)
    for token in TOKENS:
        assert token not in line
    assert line.count("<token>") >= 5, line  # message, both arguments, both in the traceback
    assert "Traceback" in line and "ConnectionError" in line


def test_a_record_is_redacted_as_it_is_made_for_every_handler():
    """Any handler (a test runner's, a library's own) gets the record without the tokens."""
    record = record_with_tokens(made_by_factory=True)
    assert all(token not in record.getMessage() for token in TOKENS)
    shown = logging.Formatter().format(record)
    assert all(token not in shown for token in TOKENS) and "Traceback" in shown


def test_json_lines_say_when_what_who_and_where():
    record = logging.LogRecord("bot.session.turns", logging.WARNING, __file__, 1,
                               "table %s is slow", (7,), None)
    record.created = 1_700_000_000.25
    entry = json.loads(JsonFormatter().format(record))
    assert entry == {"time": "2023-11-14T22:13:20.250Z", "level": "WARNING",
                     "logger": "bot.session.turns", "message": "table 7 is slow"}
    assert datetime.fromisoformat(entry["time"]).utcoffset().total_seconds() == 0

    record = record_with_tokens(made_by_factory=True)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["exc"].startswith("Traceback") and "\n" in entry["exc"]


def test_a_json_line_is_one_line_whatever_the_message_holds():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "a\nb\u2028c\u0085d «ґ»", (), None)
    line = JsonFormatter().format(record)
    assert len(line.splitlines()) == 1
    assert json.loads(line)["message"] == "a\nb\u2028c\u0085d «ґ»"


def test_text_lines_stay_as_they_were_and_name_the_session_when_there_is_one():
    stream = io.StringIO()
    handler = logs.log_handler("text", stream)
    logger = logging.getLogger("test.logs.text")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("plain %s", "line")
        with log_context(session=12, chat="-100"):
            logger.warning("about a game")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    plain, about = stream.getvalue().splitlines()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARNING test.logs.text: "
                        r"plain line", plain)
    assert about.endswith("WARNING test.logs.text: about a game [session=12 chat=-100]")


def test_context_nests_and_ends_with_its_block():
    assert logs.context() == {}
    with log_context(session=3):
        with log_context(chat="-5"):
            logs.note(chat="-6")
            assert logs.context() == {"session": 3, "chat": "-6"}
        assert logs.context() == {"session": 3}
    assert logs.context() == {}


@pytest.mark.parametrize(("name", "value", "said"), [
    ("GUPAI_LOG_FORMAT", "xml", "GUPAI_LOG_FORMAT must be text or json, not 'xml'"),
    ("GUPAI_LOG_LEVEL", "LOUD", "GUPAI_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, "
                                "CRITICAL, not 'LOUD'"),
])
def test_an_unknown_setting_is_refused_in_one_line(tmp_path, monkeypatch, capsys, name, value,
                                                    said):
    with pytest.raises(LogSettingError, match=said):
        logs.configure_logging({name: value})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TELEGRAM_TOKEN", "x")
    monkeypatch.setenv("GUPAI_DB", str(tmp_path / "x.sqlite3"))
    monkeypatch.setenv(name, value)
    assert main(["run"]) == 2
    assert capsys.readouterr().err == f"gupai: {said}\n"
    assert not (tmp_path / "x.sqlite3").exists(), "nothing started"


def test_settings_choose_the_format_and_level(monkeypatch):
    assert logs.log_settings({}) == (logging.INFO, "text")
    assert logs.log_settings({"GUPAI_LOG_FORMAT": " JSON ", "GUPAI_LOG_LEVEL": "debug"}) == \
        (logging.DEBUG, "json")
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])
    monkeypatch.setattr(root, "level", root.level)
    stream = io.StringIO()
    logs.configure_logging({"GUPAI_LOG_FORMAT": "json", "GUPAI_LOG_LEVEL": "WARNING"}, stream)
    logs.configure_logging({"GUPAI_LOG_FORMAT": "json", "GUPAI_LOG_LEVEL": "WARNING"}, stream)
    assert len(root.handlers) == 1, "a second call replaces the first one's handler"
    logging.getLogger("test.logs.root").info("not shown")
    logging.getLogger("test.logs.root").warning("shown")
    assert [json.loads(line)["message"] for line in stream.getvalue().splitlines()] == ["shown"]


async def test_lines_logged_for_a_game_name_its_session_and_chat(tmp_path, monkeypatch):
    """Presses (`Requests.in_session`) and timers (`Timers.fire`: the computer's moves) name
    the session and the chat on every line logged while they work, a library's lines too."""
    stream = io.StringIO()
    handler = logs.log_handler("json", stream)
    library = logging.getLogger("test.logs.library")
    library.addHandler(handler)
    library.setLevel(logging.DEBUG)
    m, rec = await manager(tmp_path / "logs.sqlite3")
    due = m.timers.due

    async def logged_due(session):
        library.debug("deadline of %s", session.id)
        await due(session)
    monkeypatch.setattr(m.timers, "due", logged_due)

    async def deliver(reply):
        library.debug("showing %s", reply.session_id)
        await rec(reply)
    m.deliver = deliver
    try:
        library.debug("before any game")
        sid = await lobby(m, rec, ["dragon", "deals=1"], [OLENA, BOB], computers=1)
        await play_out(m, rec, [OLENA, BOB])
        await m.idle()
    finally:
        await close(m)
        library.removeHandler(handler)
        library.setLevel(logging.NOTSET)
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert entries[0]["message"] == "before any game"
    assert "session" not in entries[0] and "chat" not in entries[0]
    about = [e for e in entries if e["message"] in (f"showing {sid}", f"deadline of {sid}")]
    assert any(e["message"].startswith("deadline") for e in about), "a timer fired"
    assert len(about) > 10
    for entry in about:
        assert (entry.get("session"), entry.get("chat")) == (sid, PLACE.chat), entry


# ----- the real process ---------------------------------------------------------------------------


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def check_output(out: Path, err: Path) -> list[dict[str, object]]:
    """Neither token anywhere; every line on stderr one JSON object: those objects."""
    for path in (out, err):
        text = path.read_text(encoding="utf-8")
        for token in TOKENS:
            assert token not in text, f"a token in {path.name}"
    entries = []
    for line in read_lines(err):
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= set(entry), line
        entries.append(entry)
    assert entries
    # The Telegram library logs its URLs, token included, at DEBUG: the lines came, redacted.
    assert any("<token>" in str(e["message"]) for e in entries)
    return entries


class LoggedProcess(BotProcess):
    """`gupai run` with its output and its logs in two files (DEBUG logs would fill a pipe
    nobody reads while the test plays)."""

    def __init__(self, server: FakeTelegram, db: Path, env: dict[str, str]) -> None:
        super().__init__(server, db, env, command="run")
        self.out, self.err = db.parent / "stdout.txt", db.parent / "stderr.txt"

    def start(self) -> None:
        with self.out.open("w") as out, self.err.open("w") as err:
            self.child = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", self.command], cwd=self.db.parent,
                env=self.env, stdout=out, stderr=err, text=True)

    async def running(self, timeout: float = 30.0) -> None:
        """Wait until the bot says it runs (its long poll is under way by then)."""
        deadline = time.monotonic() + timeout
        while "Ctrl+C stops it." not in self.out.read_text(encoding="utf-8"):
            assert self.child is not None
            if self.child.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the bot did not start: {self.finish()}")
            await asyncio.sleep(0.05)

    def finish(self) -> str:
        if self.child is not None:
            if self.child.poll() is None:
                self.child.kill()
            self.child.wait()
            self.child = None
        self.output = self.out.read_text(encoding="utf-8")
        return self.output


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.start_bot(TG_OLENA)
        fake.set_chat(GROUP, title="Доміно")
        yield fake


@pytest.mark.real_time
async def test_gupai_run_logs_json_at_debug_without_a_token(server, tmp_path):
    """The real `gupai run`, playing a game in a group at DEBUG: every log line is JSON, the
    game's lines name its session and chat, and the token is nowhere."""
    db = tmp_path / "bot.sqlite3"
    env = {"GUPAI_LOG_FORMAT": "json", "GUPAI_LOG_LEVEL": "DEBUG", "PYTHONUNBUFFERED": "1",
           "GUPAI_COMPUTER_DELAY": "0.1"}  # (the computer's move logs as well after 0.1 s)
    group = ProcessGroup(server, db)
    group.process = LoggedProcess(server, db, env)
    try:
        await group.launch()
        sid = await group.open_game("dragon deals=1", (TG_OLENA,), computers=1)
        await group.play(sid, (TG_OLENA,), until=2)
        code, _ = group.terminate()
        assert code == 0, group.process.output
    finally:
        await group.close()
    entries = check_output(group.process.out, group.process.err)
    about = [e for e in entries if e.get("session") == sid]
    assert about and all(e.get("chat") == str(GROUP) for e in about)
    assert any(str(e["logger"]).startswith("telegram") for e in about), "a library's lines too"


@pytest.mark.real_time
async def test_both_tokens_stay_out_of_a_run_that_fails(server, tmp_path):
    """`gupai run` with both tokens: Telegram starts on the fake Bot API, Discord finds nothing
    listening (its API address is pointed at a closed port) and the run stops, explained."""
    entry = ("import sys, discord.http; discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'; "
             "from bot.cli import main; sys.exit(main(['run']))")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "PYTHONPATH": str(ROOT), "TELEGRAM_TOKEN": TELEGRAM_TOKEN,
           "TELEGRAM_API_URL": server.url, "DISCORD_TOKEN": DISCORD_TOKEN,
           "GUPAI_DB": str(tmp_path / "bot.sqlite3"), "GUPAI_LOG_FORMAT": "json",
           "GUPAI_LOG_LEVEL": "DEBUG"}
    out, err = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", entry, cwd=tmp_path, env=env, stdout=stdout, stderr=stderr)
        code = await asyncio.wait_for(child.wait(), 60)
    assert code == 1
    assert "The network failed" in out.read_text(encoding="utf-8")
    entries = check_output(out, err)
    assert any(str(e["logger"]).startswith("discord") for e in entries)
