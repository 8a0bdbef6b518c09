"""Pillow images of tiles, tables, hands and the leaderboard, from public views (DESIGN.md §7)."""
