"""The rules engine: actions, events, pots, betting and the hand contract.

Pure and synchronous: no I/O, clocks or global random state. Games in
:mod:`pokerhouse.games` are built from these parts.
"""

from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions, parse_amount
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.events import Event, event_from_dict, event_to_dict
from pokerhouse.engine.hand import Hand, RoundView, View
from pokerhouse.engine.pots import Pot, build_pots, split_pot
from pokerhouse.engine.visibility import Viewer, shown_to

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
    "Viewer",
    "build_pots",
    "event_from_dict",
    "event_to_dict",
    "parse_amount",
    "shown_to",
    "split_pot",
]
