"""A hand's play figures, seat by seat: what a player's statistics are summed from.

:func:`hand_figures` reads one finished hand's event log and counts, for each
hand seat, the things the room's statistics are made of (VPIP, PFR,
aggression, showdowns, Teen Patti's blind and seen play, Casino Hold'em's
calls). The room sums these counters as each hand settles, so a player's page
never reads their hands again; chips won or lost come from the settlement,
not from here.

The definitions, game by game (``docs/stats.md`` has them for players):

- **VPIP** (money put in voluntarily): 3x4, a call, bet or raise on the first
  betting round (there are no blinds: every chip past the ante is
  voluntary); Razz, a call, completion or raise on third street (a bring-in
  alone is forced, not voluntary); Teen Patti, any bet or a paid show past
  the ante; Casino Hold'em, the Call.
- **PFR** (first-round raise): 3x4, a bet or raise on the first round; Razz,
  a completion or raise on third street. Teen Patti and Casino Hold'em have
  none.
- **Aggression**: bets, raises and completions against calls (a bring-in is
  neither); in Teen Patti a bet (or a sideshow's seen bet) that raises the
  current stake is aggressive, one that does not (the least bet, "chaal") and
  a paid show are calls. Casino Hold'em has none.
- **Showdown**: the seat had not folded when the hand ended with two or more
  seats in (a sideshow's loser has folded); **won** when it took a share of
  a pot there. Casino Hold'em: every called box goes to showdown against the
  dealer and wins when its Ante and Call settle above zero (its AA Bonus aside).
- **Blind / seen** (Teen Patti): the seat never looked at its cards / looked
  (a blind player who pays for a show looks then).

>>> from pokerhouse.engine import Action
>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100, 100], seed=3)
>>> for action in (Action.bet(4), Action.call(), Action.fold()):
...     _ = hand.act(action)
>>> while not hand.is_over:
...     _ = hand.act(Action.check())
>>> [(f.vpip, f.pfr, f.aggressive, f.calls, f.showdown) for f in hand_figures(hand.events)]
[(1, 1, 1, 0, 1), (1, 0, 0, 1, 1), (0, 0, 0, 0, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import (
    ActionTaken,
    Event,
    HandEnded,
    HandStarted,
    PotAwarded,
    StreetStarted,
)
from pokerhouse.games.casino_holdem.events import BoxSettled
from pokerhouse.games.teen_patti.events import CardsLooked, SideshowCompared, StakeRaised

__all__ = ["FIELDS", "SeatFigures", "hand_figures"]

_AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
_VOLUNTARY = frozenset({ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
# Teen Patti's paying actions: a bet, a sideshow (a seen bet with a request), a show.
_TEEN_PATTI_PAYS = frozenset({ActionKind.BET, ActionKind.SIDESHOW, ActionKind.SHOW})


class SeatFigures(NamedTuple):
    """One seat's counters in one hand (each 0 or 1, but ``aggressive`` and ``calls``)."""

    vpip: int = 0
    pfr: int = 0
    aggressive: int = 0
    calls: int = 0
    showdown: int = 0
    showdown_won: int = 0
    blind: int = 0
    seen: int = 0
    called: int = 0


#: The counters' names, in :class:`SeatFigures` order (the store's columns).
FIELDS: tuple[str, ...] = SeatFigures._fields


def hand_figures(events: Iterable[Event]) -> tuple[SeatFigures, ...]:
    """Each hand seat's figures in a finished hand, from its full event log.

    The game is read from the log's first event; a log that has not ended
    gives its figures so far (no showdown yet).
    """
    log = list(events)
    if not log or not isinstance(log[0], HandStarted):
        raise ValueError("a hand's event log starts with hand_started")
    start = log[0]
    seats = len(start.stacks)
    if start.game == "teen-patti":
        return _teen_patti(log, seats)
    if start.game == "casino-holdem":
        return _casino_holdem(log, seats)
    return _betting_rounds(log, seats)


def _betting_rounds(log: list[Event], seats: int) -> tuple[SeatFigures, ...]:
    """3x4 and Razz: rounds of betting, the first of them counted for VPIP and PFR."""
    vpip, pfr, aggressive, calls = [0] * seats, [0] * seats, [0] * seats, [0] * seats
    folded = [False] * seats
    streets = 0
    for event in log:
        if isinstance(event, StreetStarted):
            streets += 1
        elif isinstance(event, ActionTaken):
            seat, kind = event.seat, event.action.kind
            if kind is ActionKind.FOLD:
                folded[seat] = True
            elif kind in _AGGRESSIVE:
                aggressive[seat] += 1
            elif kind is ActionKind.CALL:
                calls[seat] += 1
            if streets <= 1 and kind in _VOLUNTARY:
                vpip[seat] = 1
                pfr[seat] |= kind in _AGGRESSIVE
    showdown, won = _showdowns(log, folded)
    return tuple(
        SeatFigures(vpip[s], pfr[s], aggressive[s], calls[s], showdown[s], won[s])
        for s in range(seats)
    )


def _teen_patti(log: list[Event], seats: int) -> tuple[SeatFigures, ...]:
    """Teen Patti: no rounds; a bet is aggressive when the stake goes up with it."""
    vpip, aggressive, calls = [0] * seats, [0] * seats, [0] * seats
    looked, folded = [False] * seats, [False] * seats
    paying: int | None = None  # the seat whose bet may raise the stake next
    for event in log:
        if isinstance(event, StakeRaised) and paying is not None:
            aggressive[paying] += 1
            calls[paying] -= 1  # counted as a call below until the stake moved
        paying = None
        if isinstance(event, CardsLooked):
            looked[event.seat] = True
        elif isinstance(event, SideshowCompared):
            folded[event.loser] = True
        elif isinstance(event, ActionTaken):
            seat, kind = event.seat, event.action.kind
            if kind is ActionKind.FOLD:
                folded[seat] = True
            elif kind in _TEEN_PATTI_PAYS:
                vpip[seat] = 1
                calls[seat] += 1
                paying = seat if kind is not ActionKind.SHOW else None
                if kind is ActionKind.SHOW:
                    looked[seat] = True  # a blind player who pays for a show looks then
    showdown, won = _showdowns(log, folded)
    return tuple(
        SeatFigures(
            vpip=vpip[s],
            aggressive=aggressive[s],
            calls=calls[s],
            showdown=showdown[s],
            showdown_won=won[s],
            blind=int(not looked[s]),
            seen=int(looked[s]),
        )
        for s in range(seats)
    )


def _casino_holdem(log: list[Event], seats: int) -> tuple[SeatFigures, ...]:
    """Casino Hold'em: each box calls or folds, and a called box meets the dealer (won:
    its Ante and Call settled above zero, whatever its AA Bonus did)."""
    called = [0] * seats
    net = [0] * seats
    for event in log:
        if isinstance(event, ActionTaken) and event.action.kind is ActionKind.CALL:
            called[event.seat] = 1
        elif isinstance(event, BoxSettled) and 0 <= event.seat < seats:
            net[event.seat] = event.net
    return tuple(
        SeatFigures(
            vpip=called[s],
            calls=called[s],
            showdown=called[s],
            showdown_won=int(called[s] and net[s] > 0),
            called=called[s],
        )
        for s in range(seats)
    )


def _showdowns(log: list[Event], folded: list[bool]) -> tuple[list[int], list[int]]:
    """Who went to showdown (in, with another seat in, at the end) and who won there."""
    seats = len(folded)
    ended = any(isinstance(event, HandEnded) for event in log)
    if not ended or sum(not out for out in folded) < 2:
        return [0] * seats, [0] * seats
    showdown = [int(not out) for out in folded]
    won = [0] * seats
    for event in log:
        if isinstance(event, PotAwarded):
            for seat, share in zip(event.winners, event.shares, strict=True):
                if share and 0 <= seat < seats and showdown[seat]:
                    won[seat] = 1
    return showdown, won
