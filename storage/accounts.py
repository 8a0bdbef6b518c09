"""People, chats, their settings and chip balances: every chip that enters a chat comes in here.

docs/architecture.md §1.7 and §6. A person's first appearance in a chat grants the chat's starting
chips, and once a day a person below the chat's floor is brought back up to it (a `refill`), both as
ledger rows. Chips leave a balance only for a table (`storage.tables`), and a deal's settlement
moves only chips already on tables, so no balance ever goes below zero (the schema refuses it too).
Computer seats are users of the `computer` platform: they sit at tables but hold no chips.

What each write locks on PostgreSQL, where processes write at once (`storage.locks`): a write
that is one statement (`user`, `chat`, a ledger row and its balance in `book`) needs nothing, as
`INSERT … ON CONFLICT` and `UPDATE … SET balance = balance + ?` act on the newest row; one that
decides on what it read (a correction's balance, a refill's shortfall, the settings it writes
back, whether a person is listening) locks that person's account or the chat first, or a
concurrent write could slip in between the read and the write and be lost.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.db import Connection, Database, IntegrityError, StorageError
from storage.locks import Lock
from storage.moves import DealMoves

COMPUTER = "computer"
"""The platform of computer seats: they play for no chips and are not on leaderboards."""
DEFAULT_GRANT = 1000
DEFAULT_FLOOR = 100
DEFAULT_MAX_STAKE = 100
DEFAULT_BUY_IN = 100
"""Stakes a person brings to a table of a game that cannot say what its worst deal costs."""
DEFAULT_MIN_DEALS = 10
TURN_TIMEOUT = 90
LOBBY_TIMEOUT = 600
DEFAULT_LEVEL = "normal"
"""The level a chat's computer players play at until its admins choose another."""
SEASONS = ("week", "month", "off")
"""How long a chat's seasons may run (`storage.seasons`)."""
DEFAULT_SEASON = "month"
"""How long a chat's seasons run until its admins choose otherwise."""


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """Per-chat preferences; unknown keys in the stored JSON are kept but ignored."""

    language: str | None = None
    turn_timeout: int = TURN_TIMEOUT
    """Seconds a person has for a move before the computer moves for them."""
    lobby_timeout: int = LOBBY_TIMEOUT
    defaults: dict[str, Any] = field(default_factory=dict)
    """Default preset and stake per game id: {"dragon": {"preset": "two-arm", "stake": 2}}."""
    mentions: bool = True
    """Whether the chat may be pinged for a player whose private hand is not open."""
    level: str = DEFAULT_LEVEL
    """The level of a computer added without naming one (`/settings level`); the session
    layer knows which levels there are."""
    grant: int = DEFAULT_GRANT
    """The chips a person gets on their first appearance in the chat."""
    floor: int = DEFAULT_FLOOR
    """Once a day, a person with fewer chips than this (on tables included) is brought up
    to it."""
    max_stake: int = DEFAULT_MAX_STAKE
    """The largest stake a game in the chat may be played for."""
    buy_in: int = DEFAULT_BUY_IN
    """Stakes a person brings to a table of a game that cannot say its worst deal."""
    min_deals: int = DEFAULT_MIN_DEALS
    """Deals at stake a person needs to be ranked by chips won per deal."""
    season: str = DEFAULT_SEASON
    """How long a season runs: "week", "month", or "off" (no seasons)."""
    season_since: float = 0.0
    """When `season` was last changed (the season under way then ended there)."""


@dataclass(frozen=True, slots=True)
class PersonLanguage:
    """A person's languages as stored: the one they chose (`/lang` in the private chat) and
    their client's, as it was when they last typed a command or took a seat."""

    chosen: str | None = None
    client: str | None = None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line of a settlement: chips already multiplied by the session's stake and
    covered by what is on the table. A seat not `staked` (a computer, a person with nothing on
    the table) moves no chips."""

    user_id: int
    points: int
    delta: int
    won: bool
    staked: bool = True


@dataclass(frozen=True, slots=True)
class Wallet:
    """A person's chips in a chat: in hand, on tables, and what today's refill just added."""

    balance: int
    held: int
    refilled: int = 0

    @property
    def total(self) -> int:
        return self.balance + self.held


@dataclass(frozen=True, slots=True)
class Settlement:
    session_id: int
    deal_no: int
    chat_id: int
    game: str
    reason: str
    seats: tuple[SeatResult, ...]
    moves: DealMoves | None = None
    """The deal's moves, kept with it (`storage.moves`); None for a deal begun before."""

    def __post_init__(self) -> None:
        if sum(s.delta for s in self.seats) != 0:
            raise ValueError(f"a settlement must be zero-sum: {[s.delta for s in self.seats]}")
        if len({s.user_id for s in self.seats}) != len(self.seats):
            raise ValueError("one user can hold only one seat in a deal")
        if any(s.delta and not s.staked for s in self.seats):
            raise ValueError("a seat that is not at stake moves no chips")


class Accounts:
    def __init__(self, db: Database, grant: int = DEFAULT_GRANT) -> None:
        self.db = db
        self.grant = grant

    # ----- people and chats ------------------------------------------------------------------

    async def user(self, platform: str, platform_id: str | int, name: str,
                   language: str | None = None) -> int:
        """The user's id, creating the user or refreshing the name and language."""
        async with self.db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO users (platform, platform_id, name, language, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, platform_id) DO UPDATE SET "
                "name = excluded.name, language = COALESCE(excluded.language, users.language) "
                "RETURNING id",
                (platform, str(platform_id), name, language, self.db.clock()))
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def choose_language(self, platform: str, platform_id: str | int, name: str,
                              language: str | None) -> int:
        """Keep the language a person chose for themselves (None: follow their client's)."""
        async with self.db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO users (platform, platform_id, name, chosen_language, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, platform_id) DO UPDATE SET "
                "name = excluded.name, chosen_language = excluded.chosen_language RETURNING id",
                (platform, str(platform_id), name, language, self.db.clock()))
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def languages(self, platform: str, platform_ids: Sequence[str]
                        ) -> dict[str, PersonLanguage]:
        """The chosen and client languages of these people, in one read (people never seen
        are left out)."""
        if not platform_ids:
            return {}
        marks = ", ".join("?" * len(platform_ids))
        rows = await self.db.read(
            "SELECT platform_id, chosen_language, language FROM users "
            f"WHERE platform = ? AND platform_id IN ({marks})", (platform, *platform_ids))
        return {str(r["platform_id"]): PersonLanguage(r["chosen_language"], r["language"])
                for r in rows}

    async def computer(self, label: str) -> int:
        """The user id of a computer seat (one per label, e.g. "heuristic-2")."""
        return await self.user(COMPUTER, label, label)

    async def chat(self, platform: str, platform_id: str | int, title: str = "") -> int:
        async with self.db.write() as conn:
            cursor = await conn.execute(
                "INSERT INTO chats (platform, platform_id, title, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, platform_id) DO UPDATE SET "
                "title = CASE WHEN excluded.title = '' THEN chats.title ELSE excluded.title END "
                "RETURNING id",
                (platform, str(platform_id), title, self.db.clock()))
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0])

    async def chat_platform(self, chat_id: int) -> str | None:
        """The platform a chat belongs to (None for a chat that does not exist)."""
        row = await self.db.read_one("SELECT platform FROM chats WHERE id = ?", (chat_id,))
        return None if row is None else str(row["platform"])

    async def settings(self, chat_id: int) -> ChatSettings:
        row = await self.db.read_one("SELECT language, settings FROM chats WHERE id = ?",
                                     (chat_id,))
        if row is None:
            raise StorageError(f"no chat {chat_id}")
        stored = json.loads(row["settings"])
        return ChatSettings(
            language=row["language"],
            turn_timeout=int(stored.get("turn_timeout", TURN_TIMEOUT)),
            lobby_timeout=int(stored.get("lobby_timeout", LOBBY_TIMEOUT)),
            defaults=dict(stored.get("defaults", {})),
            mentions=bool(stored.get("mentions", True)),
            level=str(stored.get("level", DEFAULT_LEVEL)),
            grant=int(stored.get("grant", self.grant)),
            floor=int(stored.get("floor", DEFAULT_FLOOR)),
            max_stake=int(stored.get("max_stake", DEFAULT_MAX_STAKE)),
            buy_in=int(stored.get("buy_in", DEFAULT_BUY_IN)),
            min_deals=int(stored.get("min_deals", DEFAULT_MIN_DEALS)),
            season=_season(stored.get("season")),
            season_since=float(stored.get("season_since", 0.0)),
        )

    async def update_settings(self, chat_id: int, **changes: Any) -> ChatSettings:
        """Change some settings (`language` and the fields of `ChatSettings`)."""
        allowed = set(ChatSettings.__dataclass_fields__)
        unknown = set(changes) - allowed
        if unknown:
            raise ValueError(f"unknown chat settings: {', '.join(sorted(unknown))}")
        # (the chat's lock: the JSON read here is written back whole)
        async with self.db.write(Lock.chat(chat_id)) as conn:
            rows = list(await conn.execute_fetchall(
                "SELECT settings FROM chats WHERE id = ?", (chat_id,)))
            if not rows:
                raise StorageError(f"no chat {chat_id}")
            stored = json.loads(rows[0][0])
            for key, value in changes.items():
                if key != "language":
                    stored[key] = value
            if "language" in changes:
                await conn.execute("UPDATE chats SET language = ? WHERE id = ?",
                                   (changes["language"], chat_id))
            await conn.execute("UPDATE chats SET settings = ? WHERE id = ?",
                               (json.dumps(stored, sort_keys=True), chat_id))
        return await self.settings(chat_id)

    async def toggle_notify(self, chat_id: int, user_id: int) -> bool:
        """Start or stop telling the person of the chat's new lobbies; True: they are told."""
        # (the person's lock: two toggles at once must not both find nothing to delete)
        async with self.db.write(Lock.account(chat_id, user_id)) as conn:
            cursor = await conn.execute(
                "DELETE FROM notify WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
            removed = cursor.rowcount
            await cursor.close()
            if removed:
                return False
            await conn.execute("INSERT INTO notify (chat_id, user_id) VALUES (?, ?)",
                               (chat_id, user_id))
        return True

    async def listeners(self, chat_id: int) -> list[str]:
        """The platform ids of the people who asked to hear of the chat's new lobbies."""
        rows = await self.db.read(
            "SELECT u.platform_id FROM notify n JOIN users u ON u.id = n.user_id "
            "WHERE n.chat_id = ? ORDER BY n.user_id", (chat_id,))
        return [str(r["platform_id"]) for r in rows]

    # ----- chips -----------------------------------------------------------------------------

    async def balance(self, chat_id: int, user_id: int) -> int:
        """The balance, granting the starting chips on the user's first appearance in the chat."""
        return (await self.wallet(chat_id, user_id)).balance

    async def wallet(self, chat_id: int, user_id: int, floor: int = 0, day: str = "") -> Wallet:
        """The person's chips in the chat, granting the starting chips on their first
        appearance; with a `day` (UTC, "2026-11-26"), also that day's refill when their chips,
        on tables included, are below `floor` (once a day per chat: the refill's ledger row is
        unique per day)."""
        # (the person's lock: the refill is decided on the chips read here)
        async with self.db.write(Lock.account(chat_id, user_id)) as conn:
            await self._join(conn, chat_id, user_id)
            balance, held = await self._chips(conn, chat_id, user_id)
            if not day or balance + held >= floor:
                return Wallet(balance, held)
            short = floor - balance - held
            if await self.book(conn, chat_id, user_id, "refill", f"day:{day}", short, ""):
                return Wallet(balance + short, held, short)
        return Wallet(balance, held)

    async def balances(self, chat_id: int, users: Sequence[int]) -> dict[int, int]:
        """The balances of these people in the chat (0 for someone who has none yet)."""
        if not users:
            return {}
        marks = ", ".join("?" * len(users))
        rows = await self.db.read(
            f"SELECT user_id, balance FROM balances WHERE chat_id = ? AND user_id IN ({marks})",
            (chat_id, *users))
        found = {int(r["user_id"]): int(r["balance"]) for r in rows}
        return {u: found.get(u, 0) for u in users}

    async def refilled(self, chat_id: int, user_id: int, day: str) -> bool:
        """Whether the person had `day`'s refill in this chat."""
        row = await self.db.read_one(
            "SELECT 1 FROM ledger WHERE chat_id = ? AND user_id = ? AND kind = 'refill' "
            "AND ref = ?", (chat_id, user_id, f"day:{day}"))
        return row is not None

    async def _chips(self, conn: Connection, chat_id: int, user_id: int
                     ) -> tuple[int, int]:
        rows = list(await conn.execute_fetchall(
            "SELECT balance, (SELECT COALESCE(SUM(amount), 0) FROM holds h WHERE h.chat_id = "
            "b.chat_id AND h.user_id = b.user_id) FROM balances b WHERE chat_id = ? AND "
            "user_id = ?", (chat_id, user_id)))
        return int(rows[0][0]), int(rows[0][1])

    async def settle(self, settlement: Settlement) -> bool:
        """Apply a deal's settlement once; False (and nothing changed) if it was applied before."""
        async with self.db.write(Lock.session(settlement.session_id)) as conn:
            return await self.apply_settlement(conn, settlement)

    async def apply_settlement(self, conn: Connection, s: Settlement) -> bool:
        """The settlement inside a caller's transaction (a session save brings its own): the
        staked seats' chips move on the session's table; a table that lacks them (a caller
        that did not cover the deal by what is held) fails the whole transaction. The caller
        holds the session's lock (`storage.locks`): the table's holds are its."""
        kept = s.moves
        cursor = await conn.execute(
            "INSERT INTO deals (session_id, deal_no, chat_id, game, reason, at, seed, setup, "
            "moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (session_id, deal_no) DO NOTHING RETURNING id",
            (s.session_id, s.deal_no, s.chat_id, s.game, s.reason, self.db.clock(),
             *((None,) * 3 if kept is None else (kept.seed, kept.setup_text(), kept.moves))))
        row = await cursor.fetchone()
        await cursor.close()
        if row is None:
            return False
        deal_id = int(row[0])
        now, ref = self.db.clock(), f"deal:{deal_id}"
        staked = [r for r in s.seats if r.staked]
        # One statement per table, whatever the number of seats: each is one hop to the
        # database (SQLite's thread, PostgreSQL's server).
        if s.seats:
            await conn.execute(
                "INSERT INTO deal_seats (deal_id, seat, user_id, points, delta, won, staked) "
                f"VALUES {_rows(len(s.seats), '(?, ?, ?, ?, ?, ?, ?)')}",
                [v for i, r in enumerate(s.seats) for v in (
                    deal_id, i, r.user_id, r.points, r.delta, int(r.won), int(r.staked))])
        if not staked:
            return True
        ledger_rows = _rows(len(staked), "(?, ?, 'settlement', ?, ?, '', ?)")
        await conn.execute(
            f"INSERT INTO ledger (chat_id, user_id, kind, ref, amount, note, at) "
            f"VALUES {ledger_rows}",
            [v for r in staked for v in (s.chat_id, r.user_id, ref, r.delta, now)])
        deltas = _rows(len(staked), "WHEN ? THEN ?", " ")
        try:
            cursor = await conn.execute(
                f"UPDATE holds SET amount = amount + CASE user_id {deltas} END "
                f"WHERE session_id = ? AND user_id IN ({_rows(len(staked), '?')})",
                [*(v for r in staked for v in (r.user_id, r.delta)), s.session_id,
                 *(r.user_id for r in staked)])
        except IntegrityError as exc:
            raise StorageError(f"deal {s.deal_no} of session {s.session_id} takes more "
                               "chips than its table holds") from exc
        updated = cursor.rowcount
        await cursor.close()
        if updated != len(staked):
            raise StorageError(f"deal {s.deal_no} of session {s.session_id} is settled for "
                               "someone with no chips on its table")
        return True

    async def adjust(self, chat_id: int, user_id: int, amount: int, ref: str, note: str = ""
                     ) -> bool:
        """An admin's correction, applied once per `ref`; never below zero (ValueError)."""
        # (the person's lock: the balance checked here is the one corrected)
        async with self.db.write(Lock.account(chat_id, user_id)) as conn:
            await self._join(conn, chat_id, user_id)
            balance, _ = await self._chips(conn, chat_id, user_id)
            if balance + amount < 0:
                raise ValueError(f"a correction of {amount} would leave {balance + amount} chips")
            return await self.book(conn, chat_id, user_id, "adjustment", ref, amount, note)

    async def _join(self, conn: Connection, chat_id: int, user_id: int) -> None:
        """The person's balance in the chat and their starting chips, on their first
        appearance. Their place (`joined`) is the chat's largest so far plus one, read under
        the chat's members lock, which every join holds to its commit, so no two people get
        one place; a person already there (nearly always) takes no lock."""
        found = await conn.execute_fetchall(
            "SELECT 1 FROM balances WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
        if found:
            return
        await conn.lock(Lock.members(chat_id))
        cursor = await conn.execute(
            "INSERT INTO balances (chat_id, user_id, balance, joined) VALUES (?, ?, 0, "
            "(SELECT COALESCE(MAX(joined), 0) + 1 FROM balances WHERE chat_id = ?)) "
            "ON CONFLICT DO NOTHING RETURNING user_id",
            (chat_id, user_id, chat_id))
        created = await cursor.fetchone()
        await cursor.close()
        if created is None:
            return
        rows = list(await conn.execute_fetchall(
            "SELECT u.platform, c.settings FROM users u, chats c WHERE u.id = ? AND c.id = ?",
            (user_id, chat_id)))
        if not rows or rows[0][0] == COMPUTER:
            return
        grant = int(json.loads(rows[0][1]).get("grant", self.grant))
        if grant:
            await self.book(conn, chat_id, user_id, "grant", "start", grant, "")

    async def book(self, conn: Connection, chat_id: int, user_id: int, kind: str,
                    ref: str, amount: int, note: str) -> bool:
        """One ledger row and the balance it changes, once per (chat, user, kind, ref). The
        caller holds the person's account lock (`storage.locks`): the row and the balance are
        written in single statements that need none, but every transaction that changes a
        balance takes its lock first, in order, so none waits for a balance's row while
        holding another's (a save moves several people's chips)."""
        await self._join(conn, chat_id, user_id)
        cursor = await conn.execute(
            "INSERT INTO ledger (chat_id, user_id, kind, ref, amount, note, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            (chat_id, user_id, kind, ref, amount, note, self.db.clock()))
        row = await cursor.fetchone()
        await cursor.close()
        if row is None:
            return False
        await conn.execute(
            "UPDATE balances SET balance = balance + ? WHERE chat_id = ? AND user_id = ?",
            (amount, chat_id, user_id))
        return True


def _season(stored: Any) -> str:
    """A chat's season setting as stored (anything else is the default)."""
    return stored if stored in SEASONS else DEFAULT_SEASON


def _rows(count: int, row: str, between: str = ", ") -> str:
    """`row` `count` times: the rows of a multi-row statement."""
    return between.join([row] * count)


def seat_results(user_ids: Sequence[int], points: Sequence[int], chips: Sequence[int],
                 winners: Sequence[int], staked: Sequence[bool]) -> tuple[SeatResult, ...]:
    """A settlement's seat lines from per-seat tuples (chips as paid, stake included)."""
    return tuple(SeatResult(u, p, c, s in winners, k) for s, (u, p, c, k) in
                 enumerate(zip(user_ids, points, chips, staked, strict=True)))
