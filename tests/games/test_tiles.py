from collections import Counter

from games.tiles import CHINESE, WESTERN, chinese


def test_chinese_set_composition_ts01():
    kinds = Counter(CHINESE.kind_of)
    civil = [k for k in kinds if CHINESE.kinds[k].civil]
    military = [k for k in kinds if not CHINESE.kinds[k].civil]
    assert CHINESE.size == 32
    assert len(civil) == 11 and all(kinds[k] == 2 for k in civil)
    assert len(military) == 10 and all(kinds[k] == 1 for k in military)
    assert sum(CHINESE.pips) == 227


def test_ends_per_number_ts02():
    ends = Counter()
    for t in range(CHINESE.size):
        ends[CHINESE.a[t]] += 1
        ends[CHINESE.b[t]] += 1
    assert dict(ends) == {1: 12, 2: 9, 3: 10, 4: 10, 5: 11, 6: 12}
    assert sorted(n for n, c in ends.items() if c % 2) == [2, 5]


def test_western_set_ts03():
    assert WESTERN.size == 28
    assert sum(WESTERN.pips) == 168
    for number in range(7):
        assert sum(1 for t in range(28) if number in (WESTERN.a[t], WESTERN.b[t])) == 7


def test_suits_ts04():
    suit = {spec: CHINESE.kind(CHINESE.one(spec)).civil for spec in ("42", "21", "31", "51", "63")}
    assert suit == {"42": False, "21": False, "31": True, "51": True, "63": False}


def test_civil_and_military_orders():
    civil = [k.label for k in CHINESE.kinds if k.civil]
    assert civil == ["[6:6]", "[1:1]", "[4:4]", "[3:1]", "[5:5]", "[3:3]", "[2:2]", "[6:5]",
                     "[6:4]", "[6:1]", "[5:1]"]
    ranks = {k.label: k.rank for k in CHINESE.kinds if not k.civil}
    assert ranks["[6:3]"] == ranks["[5:4]"] > ranks["[6:2]"] == ranks["[5:3]"]
    assert ranks["[4:2]"] == 6 and ranks["[2:1]"] == 3 and ranks["[4:1]"] == ranks["[3:2]"]


def test_names_in_three_languages():
    heaven = CHINESE.kind(CHINESE.one("66"))
    assert (heaven.uk, heaven.en, heaven.zh) == ("Небо", "Heaven", "天")
    assert all(k.uk and k.en and k.zh for k in CHINESE.kinds)


def test_tokens_round_trip_and_name_the_copy():
    for tiles in (CHINESE, WESTERN, chinese(4)):
        tokens = [tiles.token(t) for t in range(tiles.size)]
        assert len(set(tokens)) == tiles.size
        assert all(tiles.parse(tok) == t for t, tok in enumerate(tokens))
    a, b = CHINESE.ids_of(6, 6)
    assert (CHINESE.token(a), CHINESE.token(b)) == ("66a", "66b")
    assert CHINESE.parse("66c") is None and CHINESE.parse("x") is None
    assert CHINESE.parse("00a") is None and WESTERN.parse("00a") is not None


def test_several_sets_repeat_every_kind():
    four = chinese(4)
    assert four.size == 128
    assert len(four.ids_of(6, 3)) == 4 and len(four.ids_of(6, 6)) == 8


def test_number_counts_and_showing():
    hand = [CHINESE.one(s) for s in ("66", "63", "21")]
    assert CHINESE.number_counts(hand) == [0, 1, 1, 1, 0, 0, 2]
    assert CHINESE.showing(hand, 6) == 2 and CHINESE.showing(hand, 4) == 0
