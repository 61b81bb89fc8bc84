"""The rules engine: actions, events, pots, betting and the hand contract.

Pure and synchronous: no I/O, clocks or global random state. Games in
:mod:`pokerhouse.games` are built from these parts.
"""

from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions, parse_amount
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.events import Event, event_from_dict, event_to_dict, for_seat
from pokerhouse.engine.hand import Hand, RoundView, View
from pokerhouse.engine.pots import Pot, build_pots, split_pot

__all__ = [
    "Action",
    "ActionKind",
    "Event",
    "Hand",
    "LegalAction",
    "LegalActions",
    "Limit",
    "Pot",
    "RoundView",
    "View",
    "build_pots",
    "event_from_dict",
    "event_to_dict",
    "for_seat",
    "parse_amount",
    "split_pot",
]
