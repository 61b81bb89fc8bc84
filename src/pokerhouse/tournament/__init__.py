"""Tournaments: sit-and-gos and scheduled multi-table tournaments (RULES.md "Tournaments").

A :class:`Director` owns one tournament's state and decides everything
from it: the draw, levels, moves and broken tables, hand for hand, places
and prizes. It is pure like a table (inputs in, orders out; no clocks, no
I/O), so a runner drives it: the room with live tables, or
:func:`~pokerhouse.tournament.simulate.simulate` with bots and a simulated
clock.

>>> result = simulate(sit_and_go("razz", seats=4, buy_in=100, fee=10), seed=3)
>>> [standing.place for standing in result.standings]
[1, 2, 3, 4]
>>> sum(standing.prize for standing in result.standings) == result.pool == 400
True
"""

from pokerhouse.tournament.director import Director
from pokerhouse.tournament.errors import TournamentError
from pokerhouse.tournament.orders import (
    Cancel,
    HandReport,
    Register,
    Resume,
    SeatResult,
    Start,
    Tick,
    Unregister,
)
from pokerhouse.tournament.payouts import places_paid, prizes, shares
from pokerhouse.tournament.simulate import SimulatedTournament, Standing, simulate
from pokerhouse.tournament.spec import TournamentSpec, sit_and_go
from pokerhouse.tournament.state import State, dump, load
from pokerhouse.tournament.structure import Structure, built_in, from_mapping, level_stakes

__all__ = [
    "Cancel",
    "Director",
    "HandReport",
    "Register",
    "Resume",
    "SeatResult",
    "SimulatedTournament",
    "Standing",
    "Start",
    "State",
    "Structure",
    "Tick",
    "TournamentError",
    "TournamentSpec",
    "Unregister",
    "built_in",
    "dump",
    "from_mapping",
    "level_stakes",
    "load",
    "places_paid",
    "prizes",
    "shares",
    "simulate",
    "sit_and_go",
]
