"""The chips' books as any database must keep them, read with plain sqlite3 or psycopg
(docs/architecture.md §6)."""

from __future__ import annotations

from pathlib import Path

from storage.db import is_postgres
from tests.support.databases import reading


def check_books(target: Path | str) -> None:
    """The invariants every database must keep, read directly (a SQLite file's path, or a
    PostgreSQL URL): the file is sound (SQLite), no balance or hold
    below zero; a chat's balances plus its held chips are its grants, refills and adjustments;
    a person's balance plus their chips on tables is the sum of their ledger rows but those
    that move chips between the two; a hold is what its person brought to that table, won and
    lost there, less what came back; a deal is zero-sum, with one ledger row per seat at
    stake."""
    with reading(target) as run:
        if not is_postgres(target):
            assert run("PRAGMA integrity_check")[0][0] == "ok"
            assert run("PRAGMA foreign_key_check") == []
        assert run("SELECT COUNT(*) FROM balances WHERE balance < 0")[0][0] == 0
        assert run("SELECT COUNT(*) FROM holds WHERE amount < 0")[0][0] == 0
        per_chat = run(
            "SELECT c.id, (SELECT COALESCE(SUM(balance), 0) FROM balances b WHERE b.chat_id = "
            "c.id) + (SELECT COALESCE(SUM(amount), 0) FROM holds h WHERE h.chat_id = c.id), "
            "(SELECT COALESCE(SUM(amount), 0) FROM ledger l WHERE l.chat_id = c.id AND kind IN "
            "('grant', 'refill', 'adjustment')) FROM chats c")
        for chat, chips, issued in per_chat:
            assert chips == issued, chat
        mismatched = run(
            "SELECT b.chat_id, b.user_id FROM balances b WHERE b.balance + (SELECT "
            "COALESCE(SUM(amount), 0) FROM holds h WHERE h.chat_id = b.chat_id AND h.user_id = "
            "b.user_id) != (SELECT COALESCE(SUM(amount), 0) FROM ledger l WHERE l.chat_id = "
            "b.chat_id AND l.user_id = b.user_id AND kind NOT IN ('hold', 'return'))")
        assert mismatched == []
        for session, user, amount in run("SELECT session_id, user_id, amount FROM holds"):
            brought = run(
                "SELECT COALESCE(-SUM(amount), 0) FROM ledger WHERE user_id = ? AND kind IN "
                "('hold', 'return') AND ref LIKE ?", (user, f"session:{session}/%"))[0][0]
            won = run(
                "SELECT COALESCE(SUM(l.amount), 0) FROM ledger l JOIN deals d ON l.ref = "
                "'deal:' || d.id WHERE l.user_id = ? AND l.kind = 'settlement' AND "
                "d.session_id = ?", (user, session))[0][0]
            assert amount == brought + won, (session, user)
        for (deal,) in run("SELECT id FROM deals"):
            seats = run("SELECT COUNT(*), SUM(delta), SUM(staked) FROM deal_seats "
                        "WHERE deal_id = ?", (deal,))[0]
            moves = run("SELECT COUNT(*) FROM ledger WHERE kind = 'settlement' "
                        "AND ref = ?", (f"deal:{deal}",))[0]
            # (a deal settled before table stakes has a row for every seat)
            assert seats[0] >= 2 and seats[1] == 0 and moves[0] in (seats[2], seats[0]), deal
