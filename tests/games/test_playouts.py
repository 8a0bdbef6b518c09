"""Random playouts of every game × preset × player count (docs/architecture.md §9).

Each checks, after every move: tiles conserved, exact JSON round trip, action codes that decode
to the same move, illegal moves refused, no view that shows another seat's hidden tiles; and at
the end: zero-sum chips whose payments net to the deltas, termination, the same seed giving the
same game.

The hidden-tile check names no field, of a state or of a view:

- **Where the tiles are** is read from the deal's states (`tile_places`, in
  `tests/support/hidden.py` with the rest of the machinery). Every whole number a
  state holds has a path (field names and tuple indices, through dataclasses and tuples at any
  depth); its *column* is that path with every index into a sequence written `*`
  (`hands.*.*`, `history.*.plays.*.tiles.*`), so a column is a place whatever its length. An
  index into a *record* is kept instead: a tuple that is an item of a sequence and, there,
  holds numbers only and always as many (a line's `(tile, left, right, seat)`, a pile's
  `(tile, seat)`), so that its tile and its seat are two columns. (Seen in one state only, the
  hands of a fresh deal are all as long, so each hand's first tile is a column of its own: a
  finer cut of the same places, harmless.) Counts, seats, pips, scores and options are
  numbers too, and a tile id is a small number: what tells the tiles apart is conservation.
  The deck is every number a *collection* holds in any state of the deal: a column that never
  holds a number twice (scores do) nor one beyond the tile set, and holds two or more at once
  in some state (a turn, a leader, a setting never do); it must hold every tile the
  conservation check counts. The tile columns are the one set of columns whose numbers, in
  *every* state, are the deck once each (an exact cover, solved over all the deal's states
  together). A column that ever holds a number twice, or one outside the deck, is not one; a
  column that ever holds a number a tile column holds at the same time is not in the cover;
  and a seat or a count that equals some tile's id in one state cannot follow the tiles
  through a whole deal.
  The cover must be unique, or the check fails and names the columns it cannot tell apart:
  the places are found, never guessed, and a game that keeps tiles under a new name is
  checked without being named here.
- **What a seat may know** is not read from the views under test (a view that showed a hidden
  tile would then declare it seen): it is what the table has been shown, by the engine's
  contract. The events of every move are public (`Event`: "hidden tiles are never named
  here"), so every tile an event named is known to all; a seat also knows its own hand (the
  view's `hand`) and every tile it has moved itself (its actions' tiles: a face-down discard or
  follow of its own). The public view (seat None) may know only what the events named, and
  so may a spectator's (`Rules.spectator_view`), checked against the same re-deal.
- **Where a tile lies** a seat that saw it knows while it stays in its *container* (the path
  up to the index into the sequence holding it: a hand, the stock, the pile), or moves named
  by an event, or moved by the seat itself. A tile it saw that a move takes unnamed into a
  container that ever holds a tile it does not know (a stock, a hand; not a finished trick of
  face-up tiles) is out of its sight (`out_of_sight`) until an event names it again: the
  discards a stock is reshuffled from were all named face up, but not where each one went,
  nor which of them a seat drew. The seat knows they are among the places they went to, not
  which one is where.
- **The check** deals every tile a seat may not know anew among the places such tiles hold in
  the state (`redealt`: each place keeps its one tile, so every hand, stock and face-down play
  keeps its size), and every tile out of its sight anew among the places of the tiles it lost
  sight of at the same move, and asks for the same view. A view that shows, counts or sums a
  tile it may not know, or where a tile out of its sight went, under any field name, then
  differs.
"""

import dataclasses

import pytest

from games import GAMES
from games.domino import Domino, DominoState, DominoView
from games.engine import MAX_CODE_BYTES, Action, IllegalAction, rng
from games.settlement import deltas_of
from games.threedozen_deal import ThreeDozenView
from tests.support.hidden import (
    Deal,
    Position,
    known_to,
    leaves,
    out_of_sight,
    plan_of,
    redealt,
    tile_places,
)


def player_counts(rules):
    """Every player count a game allows, or 2, 5, 10 and 20 for a game of up to twenty."""
    counts = range(rules.min_players, rules.max_players + 1)
    if len(counts) <= 4:
        return list(counts)
    return sorted({rules.min_players, 5, 10, rules.max_players})


CASES = [
    (rules.id, preset, players)
    for rules in GAMES.values()
    for preset in rules.presets
    for players in player_counts(rules)
]
SEEDS = 6
SEAT_DEALS = 24
"""Deals a case plays: `SEEDS`, or fewer at a big table, where each deal follows every seat's
view through it, as long as `SEAT_DEALS` seats' views are (and two deals at least)."""
MAX_STEPS = 500


def tiles_of(state):
    """Every tile id the state holds, in any place."""
    found = [t for hand in state.hands for t in hand]
    found += [p[0] for p in getattr(state, "line", ())]
    found += [p[0] for p in getattr(state, "pile", ())]
    found += [t for seat in getattr(state, "melds", ()) for pair in seat for t in pair]
    plays = list(getattr(state, "trick", ()))
    plays += [p for trick in getattr(state, "history", ()) for p in trick.plays]
    found += [t for play in plays for t in play.tiles]
    for name in ("discards",):
        found += [t for seat in getattr(state, name, ()) for t in seat]
    for name in ("unused", "stock"):
        found += list(getattr(state, name, ()))
    return found


def reshuffle_hidden(rules, state, seat, places, public, moved, seed):
    """The same table as `seat` may know it, with every other tile dealt differently."""
    known = known_to(rules.view(state, seat), public, moved)
    return redealt(state, places.tiles(state), known, seed)


def forged_actions(rules, state, seat):
    """Moves a button could carry that are mostly not legal now."""
    hand = state.hands[seat]
    others = [t for t in tiles_of(state) if t not in hand][:4]
    for verb in sorted(rules.verbs):
        for tile in list(hand[:3]) + others:
            for arg in (None, 0, 1, 3, 6):
                yield Action(verb, (tile,), arg)
        yield Action(verb, (), None)


def playout(rules, preset, players, seed, check=True):
    options = rules.options(preset=preset)
    match = rules.start_match(options, players, seed)
    state = rules.new_deal(options, players, seed, match)
    deck = sorted(tiles_of(state))
    chooser = rng(seed, "test")
    steps = 0
    seen = []  # each position checked, with what the events had named and each seat had moved
    public, moved = frozenset(), (frozenset(),) * players
    while (seat := rules.to_move(state)) is not None:
        legal = rules.legal_actions(state)
        assert legal, "a seat to move always has a move"
        if check:
            assert sorted(tiles_of(state)) == deck
            assert rules.loads(rules.dumps(state)) == state
            view = rules.view(state, seat)
            assert view.legal == legal
            for action in legal:
                code = rules.encode(state, action)
                assert len(code.encode()) <= MAX_CODE_BYTES and ":" not in code
                assert rules.decode(state, code) == action
            if steps % 5 == 0:
                for action in forged_actions(rules, state, seat):
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction):
                        rules.apply(state, action)
        action = legal[chooser.randrange(len(legal))]
        before = state
        state, events = rules.apply(state, action)
        assert all(e.kind for e in events)
        named = frozenset(t for event in events for t in event.tiles)
        if check:
            seen.append(Position(before, public, moved, action, seat, named))
        public |= named
        moved = (*moved[:seat], moved[seat] | set(action.tiles), *moved[seat + 1:])
        steps += 1
        assert steps < MAX_STEPS, "the deal did not end"
    result = rules.outcome(state)
    assert result is not None and sum(result.deltas) == 0
    assert deltas_of(players, result.payments) == result.deltas
    assert len(result.points) == players
    assert sorted(tiles_of(state)) == deck
    assert rules.loads(rules.dumps(state)) == state
    assert rules.next_match(state).deal == match.deal + 1
    if check:
        # The tiles' places are read from the whole deal, so the views are checked once it ends.
        size = rules.view(state, None).tiles.size
        seen.append(Position(state, public, moved))
        places = tile_places([p.state for p in seen], size)
        assert places.deck >= set(deck), "a tile the conservation check counts is not found"
        placed_in = [places.tiles(p.state) for p in seen]
        lost_in = out_of_sight(places, seen, placed_in)
        for steps, position in enumerate(seen[:-1]):
            before, public, moved = position.state, position.public, position.moved
            placed, lost = placed_in[steps], lost_in[steps]
            plan = plan_of(before, placed)
            for other in [None, *range(players)]:
                view = rules.view(before, other)
                known = known_to(view, public, moved, lost[other])
                twin = redealt(before, placed, known, seed + str(steps), plan, lost[other])
                assert rules.view(twin, other) == view, f"view of seat {other} shows hidden tiles"
                if other is None:
                    # A spectator may know what the public may: the events' tiles alone.
                    watched = rules.spectator_view(before)
                    assert watched.seat is None and not watched.hand and not watched.legal
                    assert rules.spectator_view(twin) == watched, "a spectator sees hidden tiles"
    return state


@pytest.mark.parametrize(("game", "preset", "players"), CASES)
def test_random_playouts(game, preset, players):
    rules = GAMES[game]
    for n in range(deals_for(players)):
        playout(rules, preset, players, f"{game}/{preset}/{n}")


def deals_for(players):
    """How many deals a case of `players` plays (`SEAT_DEALS`)."""
    return min(SEEDS, max(2, -(-SEAT_DEALS // players)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_game(game):
    rules = GAMES[game]
    preset = next(iter(rules.presets))
    for n in range(3):
        a = playout(rules, preset, rules.max_players, f"det{n}", check=False)
        b = playout(rules, preset, rules.max_players, f"det{n}", check=False)
        assert a == b
    c = playout(rules, preset, rules.max_players, "other", check=False)
    assert c != a


def fresh(rules, players, seed):
    """A fresh deal, the places of its tiles read from it, and what nobody has seen yet."""
    state = rules.new_deal(rules.options(), players, seed)
    size = rules.view(state, None).tiles.size
    return state, tile_places([state], size), frozenset(), (frozenset(),) * players


def test_reshuffling_hidden_tiles_would_reveal_a_leak():
    rules = GAMES["dragon"]
    state, places, public, moved = fresh(rules, 4, "leak")
    assert {col[0] for col in places.columns} == {"hands"}  # one state: hands look alike
    twin = reshuffle_hidden(rules, state, 0, places, public, moved, "x")
    assert twin.hands[0] == state.hands[0] and twin.hands[1:] != state.hands[1:]
    assert rules.view(twin, 0) == rules.view(state, 0)
    assert rules.view(twin, 1) != rules.view(state, 1)


@dataclasses.dataclass(frozen=True, slots=True)
class SpareState(DominoState):
    spare: tuple[int, ...] = ()
    """Tiles set aside face down, out of the deal, under a name the checks never knew."""


class SetAside(Domino):
    """The draw game with the stock's last two tiles set aside face down (test only)."""

    def new_deal(self, options, players, seed, match=None):
        state = super().new_deal(options, players, seed, match)
        fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(state)}
        fields["stock"] = state.stock[:-2]
        return SpareState(**fields, spare=state.stock[-2:])


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class PeekingView(DominoView):
    glance: tuple[int, ...]
    """The set-aside tiles, under a name no check knows either."""


class Peeking(SetAside):
    """`SetAside` whose views show the set-aside tiles (test only)."""

    def view(self, state, seat, legal=None):
        view = super().view(state, seat, legal)
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
        return PeekingView(**fields, glance=state.spare)


def test_a_hidden_place_under_any_name_is_dealt_anew():
    """The old check dealt anew only `hands`, `discards`, `stock` and `unused` by name: a view
    telling about tiles kept elsewhere passed it. Found by conservation, the set-aside tiles
    are dealt anew too, and the leak shows."""
    honest, leaky = SetAside(), Peeking()
    state, places, public, moved = fresh(honest, 2, "leak")
    assert ("spare", "*") in places.columns
    by_names = {t for name in ("hands", "stock") for _, t in leaves(getattr(state, name))}
    assert not by_names & set(state.spare), "no field the old check named holds them"
    for seat in (None, 0, 1):
        twins = [reshuffle_hidden(honest, state, seat, places, public, moved, f"x{n}")
                 for n in range(8)]
        assert all(honest.view(twin, seat) == honest.view(state, seat) for twin in twins)
        assert any(leaky.view(twin, seat) != leaky.view(state, seat) for twin in twins), (
            f"the view of seat {seat} tells of the set-aside tiles and is not caught")


class Snooping(type(GAMES["dragon"])):
    """Dragon, whose spectators are shown the first seat's hand (test only)."""

    def spectator_view(self, state):
        return self.view(state, 0)


def test_a_spectator_shown_a_hand_is_caught():
    honest, leaky = GAMES["dragon"], Snooping()
    state, places, public, moved = fresh(honest, 4, "watch")
    twins = [reshuffle_hidden(honest, state, None, places, public, moved, f"x{n}")
             for n in range(8)]
    assert all(honest.spectator_view(twin) == honest.spectator_view(state) for twin in twins)
    assert any(leaky.spectator_view(twin) != leaky.spectator_view(state) for twin in twins)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GlancingView(ThreeDozenView):
    glance: tuple[int, ...]
    """Tiles of the reshuffled stock, under a name no check knows."""


class StockOrder(type(GAMES["threedozen"])):
    """Three Dozen whose views show the stock in the order it is drawn once it has been
    reshuffled (test only)."""

    def glance(self, state, seat):
        return state.stock if state.reshuffles else ()

    def view(self, state, seat, legal=None):
        view = super().view(state, seat, legal)
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
        return GlancingView(**fields, glance=self.glance(state, seat))


class DrawnRestocked(StockOrder):
    """Three Dozen whose views show which of the reshuffled tiles the other seats drew (test
    only)."""

    def glance(self, state, seat):
        return tuple(t for other, hand in enumerate(state.hands) if other != seat
                     for t in hand if t in state.restocked)


RESHUFFLED = "reshuffled/1"
"""A seed whose deal of Three Dozen at four seats reshuffles its stock, random moves or not."""


@pytest.mark.parametrize("leaky", [StockOrder, DrawnRestocked])
def test_a_reshuffled_stock_is_dealt_anew(leaky):
    """Every tile shuffled into a new stock had been named face up on the pile, so the old
    check knew them all and kept each in its place: a view telling the stock's order, or
    which of them another seat drew, passed it. Gone unnamed where unseen tiles lie, they are
    out of sight (`out_of_sight`) and dealt anew among the places they went to: caught."""
    honest = GAMES["threedozen"]
    assert playout(honest, "standard", 4, RESHUFFLED, check=False).reshuffles >= 1
    with pytest.raises(AssertionError, match="shows hidden tiles"):
        playout(leaky(), "standard", 4, RESHUFFLED)


def test_a_twin_after_a_reshuffle_keeps_what_the_table_saw():
    """`Deal.twin`, which the pictures', the pages' and the computer players' checks deal
    anew by, follows the tiles out of sight as well: the stock's order changes, its tiles stay
    ones the table saw shuffled in, and every view is the same."""
    rules = GAMES["threedozen"]
    chooser = rng(RESHUFFLED, "pick")
    deal = Deal(rules, rules.new_deal(rules.options(), 4, RESHUFFLED),
                lambda state, _: chooser.choice(rules.legal_actions(state)))
    position = next(p for p in deal.positions if p.state.reshuffles and len(p.state.stock) > 2)
    state = position.state
    assert set(state.stock) <= position.public, "the table saw every tile of the stock"
    for seat in (None, *range(4)):
        twins = [deal.twin(position, seat, f"x{n}") for n in range(8)]
        assert all(rules.view(twin, seat) == rules.view(state, seat) for twin in twins)
        assert all(set(twin.stock) <= set(state.restocked) for twin in twins)
        assert any(twin.stock != state.stock for twin in twins), f"seat {seat} knows the order"
