"""What the room shows of a tournament: a lobby line, and the whole page's document.

Plain functions of a tournament's spec and its director's state (and, for
one the room no longer runs, its stored entries), so the API and a live
message build the same thing. Everything here is public: entrants' names,
chips, tables and places, never a card.

>>> from pokerhouse.tournament import Director, Register, sit_and_go
>>> director = Director(sit_and_go("razz", seats=2, buy_in=100, fee=10), seed=1)
>>> _ = director.apply(Register("ann", 1))
>>> line = summary(7, director.spec, director.state, now=0.0)
>>> line["entrants"], line["seats"], line["status"], line["prizes"]
(1, 2, 'registering', [200])
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from pokerhouse.games import get_game
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
) -> dict[str, Any]:
    """The tournament's line in the lobby's Tournaments tab."""
    entrants = len(state.entries)
    left = sum(1 for entry in state.entries if not entry.busted)
    return {
        "id": tournament_id,
        "name": spec.name,
        "game": spec.game,
        "title": get_game(spec.game).title,
        "format": spec.format,
        "status": state.status,
        "buy_in": spec.buy_in,
        "fee": spec.fee,
        "guarantee": spec.guarantee,
        "seats": spec.seats,
        "min_entrants": spec.min_entrants,
        "max_entrants": spec.max_entrants,
        "entrants": entrants,
        "left": left,
        "tables": len(state.tables),
        "registering": state.status == REGISTERING
        or (state.status == "running" and state.registration_open),
        "level": state.level + 1,
        "prizes": list(_prizes(spec, state)),
        **clock(spec, state, now=now),
    }


def _prizes(spec: TournamentSpec, state: State) -> tuple[int, ...]:
    """The prizes: final once registration closed; until then, for the entrants so far
    (at a sit-and-go: for its full table)."""
    if not state.registration_open:
        return tuple(state.prizes)
    entrants = max(len(state.entries), spec.seats if spec.format == "sit-and-go" else 0)
    return prizes(max(entrants * spec.buy_in, spec.guarantee), entrants)


def clock(spec: TournamentSpec, state: State, *, now: float) -> dict[str, Any]:
    """The clock: the level's stakes, seconds left in it (or in the break), the next one."""
    structure = spec.structure
    seconds_left = None
    if state.status == "running":
        # The director's clock stands at its last input: count on from there.
        since = max(0.0, now - state.now)
        if state.break_left is not None:
            seconds_left = max(0.0, state.break_left - since)
        elif structure.level_seconds is not None:
            seconds_left = max(0.0, state.level_left - since)
    return {
        "stakes": dict(structure.stakes(state.level)),
        "next_stakes": dict(structure.stakes(state.level + 1)),
        "on_break": state.break_left is not None,
        "seconds_left": None if seconds_left is None else round(seconds_left, 1),
        "hand_for_hand": state.hand_for_hand,
    }


def document(
    tournament_id: int,
    spec: TournamentSpec,
    state: State,
    *,
    now: float,
    tables: dict[int, int],
    bots: Collection[int] = (),
) -> dict[str, Any]:
    """The tournament's page: the line, the structure, entrants and chips, tables, results.

    ``tables`` maps each of its table numbers to the room's table id (to watch it);
    ``bots`` are the accounts of the entrants that are bots (marked so in the standings).
    """
    structure = spec.structure
    entrants: list[dict[str, Any]] = []
    for entry in state.entries:
        entrants.append(
            {
                "entry": entry.number,
                "player": entry.player,
                "bot": entry.account in bots,
                "chips": 0 if entry.busted else entry.stack,
                "table": None if entry.busted else entry.table,
                "seat": None if entry.busted else entry.seat,
                "busted": entry.busted,
                "place": entry.place,
                "tied": entry.tied if entry.place is not None else None,
                "prize": entry.prize,
            }
        )
    # Chip counts: those still in, biggest first; then the places, best first.
    entrants.sort(key=lambda e: (e["busted"], -e["chips"], e["place"] or 0, e["entry"]))
    live = [e["chips"] for e in entrants if not e["busted"]]
    return {
        **summary(tournament_id, spec, state, now=now),
        "structure": {
            "starting_stack": structure.stack,
            "level_seconds": structure.level_seconds,
            "level_hands": structure.level_hands,
            "break_every": structure.break_every,
            "break_seconds": structure.break_seconds,
            "late_levels": spec.late_levels,
            "reentries": spec.reentries,
            "levels": [dict(stakes) for stakes in structure.levels],
        },
        "average_stack": sum(live) // len(live) if live else 0,
        "standings": entrants,
        "tables_open": [
            {
                "number": number,
                "table_id": tables.get(number),
                "players": len(table.seats),
                "playing": table.playing,
            }
            for number, table in sorted(state.tables.items())
        ],
    }


def news(order: Order, players: dict[int, str], tables: dict[int, int]) -> list[dict[str, Any]]:
    """What a watcher of the tournament is told of ``order`` (nothing for the tables' own
    work): ``players`` names each entry, ``tables`` gives each table number's room id.

    >>> news(LevelUp(2, (("ante", 2), ("small_bet", 20))), {}, {})
    [{'kind': 'level_up', 'level': 3, 'stakes': {'ante': 2, 'small_bet': 20}}]
    """
    match order:
        case Started(entrants, count):
            return [{"kind": "started", "entrants": entrants, "tables": count}]
        case LevelUp(level, stakes):
            return [{"kind": "level_up", "level": level + 1, "stakes": dict(stakes)}]
        case BreakStarted(seconds):
            return [{"kind": "break", "seconds": seconds}]
        case BreakEnded():
            return [{"kind": "break_over"}]
        case HandForHand(on):
            return [{"kind": "hand_for_hand", "on": on}]
        case RegistrationClosed(entrants, pool, won):
            return [
                {"kind": "registration_closed", "entrants": entrants, "pool": pool,
                 "prizes": list(won)}
            ]  # fmt: skip
        case Placed(entry, player, _, place, tied, prize):
            return [
                {"kind": "placed", "entry": entry, "player": player, "place": place,
                 "tied": tied, "prize": prize}
            ]  # fmt: skip
        case OpenTable(number, seats):
            return [_seated(s.entry, s.player, number, tables) for s in seats]
        case SeatPlayer(number, seating):
            return [_seated(seating.entry, seating.player, number, tables)]
        case UnseatPlayer(_, _, entry, "moved", to_table) if to_table is not None:
            return [{**_seated(entry, players.get(entry, ""), to_table, tables), "kind": "moved"}]
        case Finished():
            return [{"kind": "finished"}]
        case Cancelled(reason):
            return [{"kind": "cancelled", "reason": reason}]
    return []


def _seated(entry: int, player: str, number: int, tables: dict[int, int]) -> dict[str, Any]:
    return {
        "kind": "seated",
        "entry": entry,
        "player": player,
        "table": number,
        "table_id": tables.get(number),
    }
