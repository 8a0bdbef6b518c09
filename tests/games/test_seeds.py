"""Deal seeds and their fingerprints (`games/seeds.py`): unpredictable, checkable, refused when
the fingerprint is wrong or too short to prove anything."""

import hashlib
import hmac

from games import GAMES, seeds
from games.engine import Match


def test_a_deal_seed_is_the_hmac_of_its_number():
    secret = "table-secret"
    seed = seeds.deal_seed(secret, 3)
    assert seed == seeds.deal_seed(secret, 3)
    assert len(seed) == 32 and int(seed, 16) >= 0
    expected = hmac.new(secret.encode(), b"deal/3", hashlib.sha256).hexdigest()[:32]
    assert seed == expected
    assert len({seeds.deal_seed(secret, n) for n in range(200)}) == 200
    assert seeds.deal_seed("another-secret", 3) != seed


def test_a_fingerprint_names_its_seed():
    seed = seeds.deal_seed("0f" * 16, 0)
    mark = seeds.fingerprint(seed)
    assert mark == hashlib.sha256(seed.encode()).hexdigest()[:16]
    assert seeds.matches(seed, mark)
    assert seeds.matches(seed, mark.upper())
    assert seeds.matches(seed, mark[:8])
    assert seeds.fingerprint(seed) == mark


def test_a_wrong_seed_or_a_poor_fingerprint_is_refused():
    seed = seeds.deal_seed("s", 1)
    mark = seeds.fingerprint(seed)
    assert not seeds.matches(seeds.deal_seed("s", 2), mark)
    assert not seeds.matches(seed, mark[:7])  # too short to tell seeds apart
    assert not seeds.matches(seed, "")
    assert not seeds.matches(seed, "xyz" + mark[3:])  # not hex
    assert not seeds.matches(seed, mark + "zz")
    assert not seeds.well_formed(mark[:7]) and seeds.well_formed(mark)


def test_a_seed_deals_its_deal_again():
    for rules in GAMES.values():
        options = rules.options()
        players = rules.default_players
        seed = seeds.deal_seed("s", 7)
        for leader in range(players):
            state = rules.new_deal(options, players, seed, Match.start(players, leader))
            assert seeds.deal_again(rules, options, players, seed, leader) == rules.dealt(state)
