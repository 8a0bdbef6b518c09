"""The chips' books as any database must keep them, read with plain sqlite3 (DESIGN.md §6)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def check_books(path: Path) -> None:
    """The invariants every database must keep, read with plain sqlite3: no balance or hold
    below zero; a chat's balances plus its held chips are its grants, refills and adjustments;
    a person's balance plus their chips on tables is the sum of their ledger rows but those
    that move chips between the two; a hold is what its person brought to that table, won and
    lost there, less what came back; a deal is zero-sum, with one ledger row per seat at
    stake."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT COUNT(*) FROM balances WHERE balance < 0").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM holds WHERE amount < 0").fetchone()[0] == 0
        per_chat = conn.execute(
            "SELECT c.id, (SELECT COALESCE(SUM(balance), 0) FROM balances b WHERE b.chat_id = "
            "c.id) + (SELECT COALESCE(SUM(amount), 0) FROM holds h WHERE h.chat_id = c.id), "
            "(SELECT COALESCE(SUM(amount), 0) FROM ledger l WHERE l.chat_id = c.id AND kind IN "
            "('grant', 'refill', 'adjustment')) FROM chats c").fetchall()
        for chat, chips, issued in per_chat:
            assert chips == issued, chat
        mismatched = conn.execute(
            "SELECT b.chat_id, b.user_id FROM balances b WHERE b.balance + (SELECT "
            "COALESCE(SUM(amount), 0) FROM holds h WHERE h.chat_id = b.chat_id AND h.user_id = "
            "b.user_id) != (SELECT COALESCE(SUM(amount), 0) FROM ledger l WHERE l.chat_id = "
            "b.chat_id AND l.user_id = b.user_id AND kind NOT IN ('hold', 'return'))").fetchall()
        assert mismatched == []
        for session, user, amount in conn.execute(
                "SELECT session_id, user_id, amount FROM holds").fetchall():
            brought = conn.execute(
                "SELECT COALESCE(-SUM(amount), 0) FROM ledger WHERE user_id = ? AND kind IN "
                "('hold', 'return') AND ref LIKE ?", (user, f"session:{session}/%")).fetchone()[0]
            won = conn.execute(
                "SELECT COALESCE(SUM(l.amount), 0) FROM ledger l JOIN deals d ON l.ref = "
                "'deal:' || d.id WHERE l.user_id = ? AND l.kind = 'settlement' AND "
                "d.session_id = ?", (user, session)).fetchone()[0]
            assert amount == brought + won, (session, user)
        for (deal,) in conn.execute("SELECT id FROM deals").fetchall():
            seats = conn.execute("SELECT COUNT(*), SUM(delta), SUM(staked) FROM deal_seats "
                                 "WHERE deal_id = ?", (deal,)).fetchone()
            moves = conn.execute("SELECT COUNT(*) FROM ledger WHERE kind = 'settlement' "
                                 "AND ref = ?", (f"deal:{deal}",)).fetchone()
            # (a deal settled before table stakes has a row for every seat)
            assert seats[0] >= 2 and seats[1] == 0 and moves[0] in (seats[2], seats[0]), deal
    finally:
        conn.close()
