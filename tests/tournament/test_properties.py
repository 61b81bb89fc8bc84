"""Property tests over random tournaments: 2 to 300 entrants, each game.

The director is driven by hands with random results (fast, so many
tournaments), and by whole simulations of bots dealing real hands.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerhouse.games import get_game
from pokerhouse.tournament import Register, TournamentError, TournamentSpec, built_in, simulate
from pokerhouse.tournament.orders import Finished, Placed
from tests.tournament.harness import Harness

GAMES = ("3x4", "razz", "teen-patti")


def check_places(entrants: int, places: list[tuple[int, int]]) -> None:
    """Every entry has exactly one place, and ties cover the places they share."""
    assert len(places) == entrants
    counts = Counter(places)
    place = 1
    while place <= entrants:
        tied = next(t for p, t in counts if p == place)
        assert counts[(place, tied)] == tied
        place += tied
    assert place == entrants + 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    entrants=st.integers(2, 300),
    seats=st.integers(2, 10),
    structure=st.sampled_from(("regular", "turbo", "hyper")),
    late_levels=st.integers(0, 3),
    seed=st.integers(0, 2**32),
)
def test_random_tournaments_keep_their_chips_balance_and_place_everyone(
    game: str, entrants: int, seats: int, structure: str, late_levels: int, seed: int
) -> None:
    seats = min(seats, get_game(game).max_players)
    spec = TournamentSpec(
        "P",
        game,
        "scheduled",
        built_in(structure, game),
        buy_in=50,
        seats=seats,
        late_levels=late_levels,
        reentries=1 if late_levels else 0,
    )
    harness = Harness(spec, seed=seed)
    harness.register(entrants)
    rng = random.Random(seed)
    director = harness.director
    while director.status == "running":
        if director.state.registration_open and rng.random() < 0.2:
            # A newcomer, or a busted player entering again (once).
            busted = [entry.player for entry in director.entries if entry.busted]
            name = rng.choice(busted) if busted and rng.random() < 0.5 else f"n{harness.now}"
            with contextlib.suppress(TournamentError):
                harness.give(Register(name, now=harness.now))
        harness.step(rng, bust_chance=rng.choice((0.05, 0.3)))
        if director.status != "running":
            break
        assert director.chips_in_play() == len(director.entries) * spec.structure.stack
        sizes = director.table_sizes()
        if director.state.breaking is not None:
            sizes.pop(director.state.breaking, None)
        if sizes and max(sizes.values()) - min(sizes.values()) > 1:
            # Only a table still dealing its hand may be left over-full (the move waits).
            fullest = [number for number, size in sizes.items() if size == max(sizes.values())]
            assert all(number in harness.playing for number in fullest)
        assert all(size <= seats for size in sizes.values())
    placed = [order for order in harness.orders if isinstance(order, Placed)]
    entries = len(director.entries)
    check_places(entries, [(order.place, order.tied) for order in placed])
    assert sum(order.prize for order in placed) == director.state.pool == entries * 50
    assert harness.orders[-1] == Finished() and harness.seats == {}


@settings(max_examples=6, deadline=None)
@given(game=st.sampled_from(GAMES), entrants=st.integers(2, 40), seed=st.integers(0, 2**32))
def test_whole_simulations_of_bots_place_everyone_and_pay_the_pool(
    game: str, entrants: int, seed: int
) -> None:
    seats = min(6, get_game(game).max_players)
    spec = TournamentSpec("S", game, "scheduled", built_in("hyper", game), buy_in=100, seats=seats)
    result = simulate(spec, entrants=entrants, seed=seed)
    assert result.chips_conserved
    check_places(entrants, [(s.place, s.tied) for s in result.standings])
    assert sum(s.prize for s in result.standings) == result.pool == 100 * entrants
