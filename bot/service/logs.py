"""Logs a host can read: plain text, or one JSON object a line; never a token.

`configure_logging(env)` reads `GUPAI_LOG_LEVEL` (default INFO) and `GUPAI_LOG_FORMAT`: `text`
(the default: `time LEVEL logger: message`) or `json`, one object a line with `time` (ISO 8601,
UTC), `level`, `logger`, `message`, `exc` (the traceback, when there is one) and, when the line
concerns one, `session` (the game's id) and `chat` (the platform's id of the chat the game is
played in).

The session layer names the session and chat it works on with `log_context` (and `note`, once
it has read the chat from the session): a request (`Requests.in_place`, `in_session`), a timer
(`Timers.fire`, `tick`), and a reply handed to the adapter (`Requests.show`). They live in a
context variable, so every line logged meanwhile, by the bot or by a library, carries them,
including lines of the worker threads it waits for; a message queued for a chat is sent naming
the session that queued it (`carrying`, in the outbox). A filter on the handler copies them onto
each record.

Secrets (the bot tokens, `hide`) are replaced by `<token>` in every record as it is made
(its message, arguments and traceback), whichever handler writes it, and again in every line
these formatters write.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, Concatenate, ParamSpec, TextIO, TypeVar

FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "<token>"
FIELDS = ("session", "chat")
"""What a line may say it concerns, in the order they are written."""

_EMPTY: Mapping[str, object] = MappingProxyType({})
_CONTEXT: ContextVar[Mapping[str, object]] = ContextVar("log_context", default=_EMPTY)
_SECRETS: set[str] = set()
_OURS = "gupai"
"""The name of the handler `configure_logging` installs (replaced when called again)."""

S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")


class LogSettingError(ValueError):
    """A logging setting that names no level or format; the message says what would."""


# ----- what a line concerns ----------------------------------------------------------------------


@contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Lines logged inside name these fields (None leaves a field as it was)."""
    token = _CONTEXT.set(_merged(fields))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


def note(**fields: object) -> None:
    """Add fields for the rest of the enclosing `log_context` (or of the current task)."""
    _CONTEXT.set(_merged(fields))


def context() -> Mapping[str, object]:
    """The fields lines logged here would carry."""
    return _CONTEXT.get()


def about_session(work: Callable[Concatenate[S, int, P], Coroutine[Any, Any, R]]
                  ) -> Callable[Concatenate[S, int, P], Coroutine[Any, Any, R]]:
    """A method whose first argument is a session id: everything logged while it runs names
    that session."""
    @functools.wraps(work)
    async def logged(self: S, session_id: int, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with log_context(session=session_id):
            return await work(self, session_id, *args, **kwargs)
    return logged


@contextmanager
def detached() -> Iterator[None]:
    """Inside, lines concern nothing in particular: for a task started here that outlives the
    request starting it, and works for others after."""
    token = _CONTEXT.set(_EMPTY)
    try:
        yield
    finally:
        _CONTEXT.reset(token)


def carrying(job: Callable[[], Awaitable[R]]) -> Callable[[], Coroutine[Any, Any, R]]:
    """`job`, to be run later by another task, logging what it logs with the fields of here
    and now (a message queued for a session is sent naming that session)."""
    fields = _CONTEXT.get()

    async def run() -> R:
        token = _CONTEXT.set(fields)
        try:
            return await job()
        finally:
            _CONTEXT.reset(token)
    return run


def _merged(fields: Mapping[str, object]) -> Mapping[str, object]:
    current = _CONTEXT.get()
    return MappingProxyType({**current, **{k: v for k, v in fields.items() if v is not None}})


class ContextFilter(logging.Filter):
    """Copies the current session and chat onto each record (None when not set)."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _CONTEXT.get()
        for name in FIELDS:
            if not hasattr(record, name):
                setattr(record, name, fields.get(name))
        return True


# ----- secrets ---------------------------------------------------------------------------------


def hide(secret: str) -> None:
    """Never log `secret`: it is replaced by `<token>` in every record from now on."""
    if not secret or secret in _SECRETS:
        return
    if not _SECRETS:
        make = logging.getLogRecordFactory()

        def redacting(*args: Any, **kwargs: Any) -> logging.LogRecord:
            return _redact_record(make(*args, **kwargs))
        logging.setLogRecordFactory(redacting)
    _SECRETS.add(secret)


def redact(text: str) -> str:
    for secret in _SECRETS:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def _redact_record(record: logging.LogRecord) -> logging.LogRecord:
    """The message with its arguments, the traceback and the stack, without a secret."""
    if not _SECRETS:
        return record
    text = record.getMessage()
    if redact(text) != text:
        record.msg, record.args = redact(text), ()
    if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
        shown = logging.Formatter().formatException(record.exc_info)
        if redact(shown) != shown:
            record.exc_text = redact(shown)  # formatters print this instead of the exception
    if record.stack_info:
        record.stack_info = redact(record.stack_info)
    return record


# ----- formats ---------------------------------------------------------------------------------


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message [session=… chat=…]`, then the traceback."""

    def __init__(self) -> None:
        super().__init__(TEXT)

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        shown = [f"{name}={value}" for name in FIELDS
                 if (value := getattr(record, name, None)) is not None]
        return f"{line} [{' '.join(shown)}]" if shown else line

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        trace = []
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            trace.append(record.exc_text)
        if record.stack_info:
            trace.append(self.formatStack(record.stack_info))
        if trace:
            entry["exc"] = redact("\n".join(trace))
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        line = json.dumps(entry, ensure_ascii=False, default=str)
        # One line, whatever a reader counts as a line break.
        for breaker in ("\u0085", "\u2028", "\u2029"):
            line = line.replace(breaker, f"\\u{ord(breaker):04x}")
        return redact(line)


# ----- settings --------------------------------------------------------------------------------


def log_settings(env: Mapping[str, str]) -> tuple[int, str]:
    """The level and format the settings name; `LogSettingError` for anything else."""
    name = (env.get("GUPAI_LOG_LEVEL") or "INFO").strip().upper()
    level = logging.getLevelName(name)
    if not isinstance(level, int):
        raise LogSettingError(f"GUPAI_LOG_LEVEL must be one of {', '.join(LEVELS)}, "
                              f"not {env.get('GUPAI_LOG_LEVEL')!r}")
    form = (env.get("GUPAI_LOG_FORMAT") or "text").strip().lower()
    if form not in FORMATS:
        raise LogSettingError(f"GUPAI_LOG_FORMAT must be text or json, "
                              f"not {env.get('GUPAI_LOG_FORMAT')!r}")
    return level, form


def log_handler(form: str, stream: TextIO | None = None) -> logging.Handler:
    """A handler writing `form` lines (`text` or `json`) to `stream` (stderr)."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if form == "json" else TextFormatter())
    handler.addFilter(ContextFilter())
    handler.set_name(_OURS)
    return handler


def configure_logging(env: Mapping[str, str], stream: TextIO | None = None) -> None:
    """Log as the settings say, to stderr. As `logging.basicConfig` does, leave alone a root
    logger someone else set up (a test runner's), but replace what an earlier call set."""
    level, form = log_settings(env)
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _OURS]:
        root.removeHandler(old)
    if root.handlers:
        return
    root.addHandler(log_handler(form, stream))
    root.setLevel(level)
