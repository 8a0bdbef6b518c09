"""Chips, ledger, leaderboards and saved games in one SQLite file (DESIGN.md §6)."""
