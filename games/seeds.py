"""Deal seeds nobody can predict and anybody can check (docs/architecture.md §1 invariant 3).

Rules source: docs/architecture.md §1.3 (a deal is a function of its options, players and seed
string) and docs/rules-book.md §2 (every game's deal: who is dealt what, and the stock). A table
keeps one secret; each deal's seed is derived from it, and only the seed's fingerprint is shown
while the deal is played. Once the deal is over the seed may be named: anyone can then check that it
has the fingerprint shown before the first move and deal it again (`gupai verify`), which shows the
tiles were not chosen after the fact. The seed is an HMAC of the deal's number keyed by the secret,
so naming one deal's seed tells nothing about the secret nor about any other deal.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from games.engine import Match, Rules

SEED_CHARS = 32
"""Hex characters of a deal's seed: 128 bits, too many to guess."""
FINGERPRINT_CHARS = 16
"""Hex characters of a fingerprint: 64 bits, short enough to read out, too many to forge."""
MIN_FINGERPRINT_CHARS = 8
"""The fewest hex characters a fingerprint is checked with: fewer would match too many seeds
to show anything."""
_HEX = frozenset("0123456789abcdef")


def deal_seed(secret: str, deal: int) -> str:
    """The seed of deal number `deal` at the table whose secret this is."""
    mac = hmac.new(secret.encode(), f"deal/{deal}".encode(), hashlib.sha256)
    return mac.hexdigest()[:SEED_CHARS]


def fingerprint(seed: str) -> str:
    """What is shown of a seed before its deal is over: it names the seed without revealing it."""
    return hashlib.sha256(seed.encode()).hexdigest()[:FINGERPRINT_CHARS]


def well_formed(fingerprint: str) -> bool:
    """Whether the text can be a fingerprint at all: enough hex characters, nothing else."""
    text = fingerprint.strip().lower()
    return len(text) >= MIN_FINGERPRINT_CHARS and set(text) <= _HEX


def matches(seed: str, fingerprint: str) -> bool:
    """Whether `seed` has this fingerprint, in either case. A fingerprint too short to tell
    seeds apart (or not hex) is refused rather than matched."""
    if not well_formed(fingerprint):
        return False
    text = fingerprint.strip().lower()
    return hashlib.sha256(seed.encode()).hexdigest().startswith(text)


def deal_again(rules: Rules[Any, Any], options: Any, players: int, seed: str, leader: int
               ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The hands and the undealt tiles (in drawing order) that `seed` deals with `leader`
    (a seat index) leading: what a table dealt, dealt again by anyone who has the seed. Only
    the leader carries from the match into which tiles are dealt, so a fresh match stands in
    for the table's."""
    return rules.dealt(rules.new_deal(options, players, seed, Match.start(players, leader)))
