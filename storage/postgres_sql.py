"""What PostgreSQL needs on top of the SQL the storage code shares with SQLite.

- Placeholders: the storage code writes `?`; psycopg takes `%s` (and so a literal `%` must be
  doubled). `to_postgres` rewrites a statement once and remembers it. A `?` inside a quoted
  literal, a quoted name or a comment is refused rather than guessed at: none is written today.
- Rows: `PgRow` answers `row["name"]` and `row[0]` like `sqlite3.Row`.
- Values: PostgreSQL's `SUM` of a BIGINT is a NUMERIC, which psycopg would give as a `Decimal`;
  a whole one comes back as an `int`, as from SQLite. A text value cannot hold the NUL
  character on PostgreSQL, so a string parameter has it written as `NUL_MARK` (and a
  `NUL_MARK` as two) and text read back has them turned back: what is stored comes back as it
  was given, on either backend.
- URLs: `without_password` is what may be shown or logged of a URL.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from psycopg import AsyncCursor
from psycopg.adapt import Buffer
from psycopg.rows import RowMaker
from psycopg.types.numeric import NumericLoader
from psycopg.types.string import TextLoader

NUL_MARK = "\U0010ffff"
"""A Unicode noncharacter, which no name or title a platform sends contains in practice."""
_NUL_ESCAPES = re.compile(f"{NUL_MARK}[{NUL_MARK}0]")


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """`sql` with its `?` placeholders as psycopg's `%s` and every `%` doubled."""
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(sql):
        char = sql[i]
        if quote:
            if char == "?":
                raise ValueError(f"a ? inside a quoted literal or name is not supported: {sql}")
            if char == quote:  # (a comment's "quote" is the end of its line)
                quote = ""
        elif char in "'\"":
            quote = char
        elif sql.startswith("--", i):
            quote = "\n"
        elif char == "?":
            out.append("%s")
            i += 1
            continue
        out.append("%%" if char == "%" else char)
        i += 1
    return "".join(out)


def params(values: Sequence[Any]) -> tuple[Any, ...]:
    """Parameters as PostgreSQL can store them (see the module's note on NUL)."""
    return tuple(_encode(v) if isinstance(v, str) and ("\x00" in v or NUL_MARK in v) else v
                 for v in values)


def _encode(text: str) -> str:
    return text.replace(NUL_MARK, NUL_MARK * 2).replace("\x00", NUL_MARK + "0")


def _decode(text: str) -> str:
    return _NUL_ESCAPES.sub(lambda m: "\x00" if m.group()[1] == "0" else NUL_MARK, text)


class PgRow:
    """A result row, by column name or position."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: tuple[Any, ...]) -> None:
        self._names = names
        self._values = values

    def __getitem__(self, key: int | str, /) -> Any:
        if isinstance(key, str):
            return self._values[self._names[key]]
        return self._values[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._names)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PgRow):
            return self._values == other._values and self._names == other._names
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        return f"PgRow({dict(zip(self._names, self._values, strict=False))!r})"


def pg_row(cursor: AsyncCursor[Any]) -> RowMaker[PgRow]:
    """psycopg's row factory for `PgRow`."""
    names = {column.name: i for i, column in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> PgRow:
        return PgRow(names, tuple(values))
    return make


class WholeNumericLoader(NumericLoader):
    """NUMERIC as `int` when it is whole (a SUM of BIGINTs), else as `Decimal`."""

    def load(self, data: Buffer) -> Decimal | int:  # type: ignore[override]
        text = bytes(data)
        if text.lstrip(b"-").isdigit():
            return int(text)
        return super().load(data)


class NulTextLoader(TextLoader):
    """Text with the NUL characters it was given back (see the module's note)."""

    def load(self, data: Buffer) -> bytes | str:
        text = super().load(data)
        if isinstance(text, str) and NUL_MARK in text:
            return _decode(text)
        return text


def without_password(url: str) -> str:
    """The URL with its password left out (of the user part and of a `password=` parameter)."""
    parts = urlsplit(url.strip())
    userinfo, at, hostport = parts.netloc.rpartition("@")
    user = userinfo.partition(":")[0]
    netloc = f"{user}@{hostport}" if at and user else hostport
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if k.lower() != "password"])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def password_of(url: str) -> str:
    """The URL's password, if it has one (to be scrubbed from any message)."""
    parts = urlsplit(url.strip())
    found = parts.password or ""
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key.lower() == "password":
            found = value
    return found
