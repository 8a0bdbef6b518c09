"""`gupai verify`: a deal dealt again from its seed once the fingerprint checks out."""

import pytest

from bot.cli import main
from games import GAMES, get, seeds
from games.engine import Match

SEED = seeds.deal_seed("a table's secret", 4)
MARK = seeds.fingerprint(SEED)


def expected(game, players=None, leader=1, preset=None, **options):
    rules = get(game)
    chosen = rules.options(preset, **options)
    players = players or rules.default_players
    state = rules.new_deal(chosen, players, SEED, Match.start(players, leader - 1))
    hands, stock = rules.dealt(state)
    tiles = rules.tileset(chosen)

    def faces(shown):
        return " ".join(tiles.label(t) for t in shown)

    return [f"seat {s}: {faces(h)}" for s, h in enumerate(hands, 1)], faces(stock)


def printed(capsys, *argv):
    status = main(["verify", *argv])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    seats = [line for line in lines if line.startswith("seat ")]
    stock = [line.removeprefix("stock: ") for line in lines if line.startswith("stock: ")]
    return status, seats, stock, err


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_matching_fingerprint_deals_the_deal_again(game, capsys):
    status, seats, stock, err = printed(capsys, SEED, MARK, game)
    hands, undealt = expected(game)
    assert status == 0 and not err
    assert seats == hands
    assert stock == [undealt or "(none)"]


def test_players_leader_presets_and_options_are_those_of_the_table(capsys):
    status, seats, _, _ = printed(capsys, SEED, MARK.upper(), "kaptaishap", "--players", "5",
                                  "--leader", "3", "--preset", "classical")
    assert status == 0
    assert seats == expected("kaptaishap", 5, 3, "classical")[0]
    assert [len(s.split(": ")[1].split()) for s in seats] == [9, 9, 10, 9, 9]
    for preset in get("tails").presets:
        _, seats, _, _ = printed(capsys, SEED, MARK, "tails", "--players", "3",
                                 "--preset", preset)
        assert seats == expected("tails", 3, 1, preset)[0]


def test_options_that_change_the_deck_change_the_deal(capsys):
    _, plain, plain_stock, _ = printed(capsys, SEED, MARK, "kaptaishap", "--players", "4")
    _, more, more_stock, _ = printed(capsys, SEED, MARK, "kaptaishap", "--players", "4",
                                     "--option", "sets=3")
    assert more == expected("kaptaishap", 4, sets=3)[0] and more != plain
    assert len(more_stock[0].split()) == 3 * 32 - 37 and len(plain_stock[0].split()) == 64 - 37
    _, even, _, _ = printed(capsys, SEED, MARK, "kaptaishap", "--players", "4",
                            "--option", "deal=even")
    assert even == expected("kaptaishap", 4, deal="even")[0] and even != plain


def test_a_wrong_fingerprint_deals_nothing(capsys):
    other = seeds.fingerprint(seeds.deal_seed("a table's secret", 5))
    for mark in (other, MARK[:7], "not-hex!"):
        status, seats, stock, err = printed(capsys, SEED, mark, "dragon")
        assert status == 1 and not seats and not stock
        assert err.startswith("gupai: ") and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ("nogame",), ("dragon", "--players", "5"), ("dragon", "--leader", "0"),
    ("dragon", "--leader", "5"), ("dragon", "--option", "arms=3"),
    ("dragon", "--option", "arms"), ("dragon", "--preset", "nope"),
])
def test_bad_settings_are_usage_errors(argv, capsys):
    status, seats, _, err = printed(capsys, SEED, MARK, *argv)
    assert status == 2 and not seats and err.startswith("gupai: ")
