"""What the room shows of a tournament: a lobby line, and the whole page's document.

Plain functions of a tournament's spec and its director's state (and, for
one the room no longer runs, its stored entries), so the API and a live
message build the same thing. Everything here is public: entrants' names,
chips, tables and places, never a card.

>>> from pokerhouse.tournament import Director, Register, sit_and_go
>>> director = Director(sit_and_go("razz", seats=2, buy_in=100, fee=10), seed=1)
>>> _ = director.apply(Register("ann", 1))
>>> line = summary(7, director.spec, director.state, now=0.0)
>>> line.entrants, line.seats, line.status, line.prizes
(1, 2, 'registering', [200])
"""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from pokerhouse.games import get_game
from pokerhouse.server.tournaments.lines import (
    BreakNews,
    BreakOverNews,
    CancelledNews,
    EntrantLine,
    FinishedNews,
    HandForHandNews,
    LevelUpNews,
    MovedNews,
    OpenTableLine,
    PlacedNews,
    RegistrationClosedNews,
    SeatedNews,
    StartedNews,
    TournamentLine,
    TournamentNewsKind,
    TournamentPage,
    TournamentStructure,
)
from pokerhouse.tournament.orders import (
    BreakEnded,
    BreakStarted,
    Cancelled,
    Finished,
    HandForHand,
    LevelUp,
    OpenTable,
    Order,
    Placed,
    RegistrationClosed,
    SeatPlayer,
    Started,
    UnseatPlayer,
)
from pokerhouse.tournament.payouts import prizes
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.state import REGISTERING, State


def summary(
    tournament_id: int, spec: TournamentSpec, state: State, *, now: float
) -> TournamentLine:
    """The tournament's line in the lobby's Tournaments tab."""
    entrants = len(state.entries)
    left = sum(1 for entry in state.entries if not entry.busted)
    structure = spec.structure
    return TournamentLine(
        id=tournament_id,
        name=spec.name,
        game=spec.game,
        title=get_game(spec.game).title,
        format=spec.format,
        status=state.status,
        buy_in=spec.buy_in,
        fee=spec.fee,
        guarantee=spec.guarantee,
        seats=spec.seats,
        min_entrants=spec.min_entrants,
        max_entrants=spec.max_entrants,
        entrants=entrants,
        left=left,
        tables=len(state.tables),
        registering=state.status == REGISTERING
        or (state.status == "running" and state.registration_open),
        level=state.level + 1,
        prizes=list(_prizes(spec, state)),
        stakes=dict(structure.stakes(state.level)),
        next_stakes=dict(structure.stakes(state.level + 1)),
        on_break=state.break_left is not None,
        seconds_left=seconds_left(spec, state, now=now),
        hand_for_hand=state.hand_for_hand,
    )


def _prizes(spec: TournamentSpec, state: State) -> tuple[int, ...]:
    """The prizes: final once registration closed; until then, for the entrants so far
    (at a sit-and-go: for its full table)."""
    if not state.registration_open:
        return tuple(state.prizes)
    entrants = max(len(state.entries), spec.seats if spec.format == "sit-and-go" else 0)
    return prizes(max(entrants * spec.buy_in, spec.guarantee), entrants)


def seconds_left(spec: TournamentSpec, state: State, *, now: float) -> float | None:
    """The seconds left in the level (or in the break), rounded to a tenth; ``None``
    unless the tournament runs, on a clock."""
    if state.status != "running":
        return None
    # The director's clock stands at its last input: count on from there.
    since = max(0.0, now - state.now)
    if state.break_left is not None:
        return round(max(0.0, state.break_left - since), 1)
    if spec.structure.level_seconds is not None:
        return round(max(0.0, state.level_left - since), 1)
    return None


def document(
    tournament_id: int,
    spec: TournamentSpec,
    state: State,
    *,
    now: float,
    tables: dict[int, int],
    bots: Collection[int] = (),
) -> TournamentPage:
    """The tournament's page: the line, the structure, entrants and chips, tables, results.

    ``tables`` maps each of its table numbers to the room's table id (to watch it);
    ``bots`` are the accounts of the entrants that are bots (marked so in the standings).
    """
    structure = spec.structure
    entrants = [
        EntrantLine(
            entry=entry.number,
            player=entry.player,
            bot=entry.account in bots,
            chips=0 if entry.busted else entry.stack,
            table=None if entry.busted else entry.table,
            seat=None if entry.busted else entry.seat,
            busted=entry.busted,
            place=entry.place,
            tied=entry.tied if entry.place is not None else None,
            prize=entry.prize,
        )
        for entry in state.entries
    ]
    # Chip counts: those still in, biggest first; then the places, best first.
    entrants.sort(key=lambda e: (e.busted, -e.chips, e.place or 0, e.entry))
    live = [e.chips for e in entrants if not e.busted]
    return TournamentPage(
        **msgspec.structs.asdict(summary(tournament_id, spec, state, now=now)),
        structure=TournamentStructure(
            starting_stack=structure.stack,
            level_seconds=structure.level_seconds,
            level_hands=structure.level_hands,
            break_every=structure.break_every,
            break_seconds=structure.break_seconds,
            late_levels=spec.late_levels,
            reentries=spec.reentries,
            levels=[dict(stakes) for stakes in structure.levels],
        ),
        average_stack=sum(live) // len(live) if live else 0,
        standings=entrants,
        tables_open=[
            OpenTableLine(number, tables.get(number), len(table.seats), table.playing)
            for number, table in sorted(state.tables.items())
        ],
    )


def news(order: Order, players: dict[int, str], tables: dict[int, int]) -> list[TournamentNewsKind]:
    """What a watcher of the tournament is told of ``order`` (nothing for the tables' own
    work): ``players`` names each entry, ``tables`` gives each table number's room id.

    >>> news(LevelUp(2, (("ante", 2), ("small_bet", 20))), {}, {})
    [LevelUpNews(level=3, stakes={'ante': 2, 'small_bet': 20})]
    """
    match order:
        case Started(entrants, count):
            return [StartedNews(entrants, count)]
        case LevelUp(level, stakes):
            return [LevelUpNews(level + 1, dict(stakes))]
        case BreakStarted(seconds):
            return [BreakNews(seconds)]
        case BreakEnded():
            return [BreakOverNews()]
        case HandForHand(on):
            return [HandForHandNews(on)]
        case RegistrationClosed(entrants, pool, won):
            return [RegistrationClosedNews(entrants, pool, list(won))]
        case Placed(entry, player, _, place, tied, prize):
            return [PlacedNews(entry, player, place, tied, prize)]
        case OpenTable(number, seats):
            return [SeatedNews(s.entry, s.player, number, tables.get(number)) for s in seats]
        case SeatPlayer(number, seating):
            return [SeatedNews(seating.entry, seating.player, number, tables.get(number))]
        case UnseatPlayer(_, _, entry, "moved", to_table) if to_table is not None:
            return [MovedNews(entry, players.get(entry, ""), to_table, tables.get(to_table))]
        case Finished():
            return [FinishedNews()]
        case Cancelled(reason):
            return [CancelledNews(reason)]
    return []
