"""What a bot is fed when one of its seats must act: :class:`Decision`.

A decision holds what a person's browser gets at the same moment: the
table, the hand's number, the table seat to act, the server's decision
(``options``: each legal action with its ``kind`` and, as fits, ``min``,
``max``, ``cost`` and ``presets``; docs/protocol.md, ``private``) and the
whole table as the seat's owner sees it (``table_view``: the ``snapshot``'s
``view``). :attr:`Decision.legal` gives the engine's legal actions and
:meth:`Decision.view` the engine's exact view of the seat, so a house bot's
``choose(view)`` works on it unchanged.

>>> import random
>>> from pokerhouse.server.table.views import table_view
>>> from pokerhouse.table import Sit, StartHand, Table
>>> table = Table("3x4", seats=2, rng=random.Random(1))
>>> _ = table.apply(Sit(0, "Ann", 100)); _ = table.apply(Sit(1, "Bob", 100))
>>> _ = table.apply(StartHand())
>>> seat = table.to_act()
>>> snapshot = table_view(table, frozenset({seat}))
>>> decision = Decision.from_snapshot(1, 1, snapshot, seat)
>>> decision.kinds
('fold', 'check', 'bet')
>>> decision.option("bet")["min"], decision.legal.get(ActionKind.BET).min_amount
(2, 2)
>>> decision.view() == table.view(seat)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pokerhouse.client.rebuild import rebuild_legal, rebuild_view
from pokerhouse.engine.actions import ActionKind, LegalActions
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidAction

__all__ = ["ActionKind", "Decision"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one seat: ``table``, ``hand`` (its number), ``seat`` (table seat),
    ``options`` (the server's decision dict) and ``table_view`` (the snapshot's view).

    ``seq`` is the snapshot's sequence number: every later step of the table
    has a higher one.
    """

    table: int
    hand: int
    seat: int
    options: Mapping[str, Any]
    table_view: Mapping[str, Any]
    seq: int = 0

    @staticmethod
    def from_snapshot(table: int, seq: int, view: Mapping[str, Any], seat: int) -> Decision:
        """The decision ``view`` (a snapshot's) shows for table seat ``seat``.

        ``InvalidAction`` ``no_decision`` when the seat has none in it.
        """
        hand = view.get("hand") or {}
        own = (hand.get("mine") or {}).get(str(seat)) or {}
        options = own.get("decision")
        if options is None or hand.get("to_act") != seat:
            raise InvalidAction("no_decision", f"seat {seat} has no decision in this snapshot")
        return Decision(table, int(hand["number"]), seat, options, view, seq)

    @property
    def game(self) -> str:
        """The game's name: ``3x4``, ``razz``, ``teen-patti`` or ``casino-holdem``."""
        return str(self.table_view["game"])

    @property
    def actions(self) -> list[Mapping[str, Any]]:
        """The legal actions as the server lists them (``kind``, ``min``, ``max``, ``cost``,
        ``presets``)."""
        return list(self.options["actions"])

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of action allowed, in the server's order."""
        return tuple(str(option["kind"]) for option in self.actions)

    @property
    def stack(self) -> int:
        """The seat's chips behind."""
        return int(self.options["stack"])

    def option(self, kind: str) -> Mapping[str, Any] | None:
        """The server's entry for ``kind`` (``None``: not allowed now)."""
        for option in self.actions:
            if option["kind"] == kind:
                return option
        return None

    @property
    def legal(self) -> LegalActions:
        """The engine's legal actions (their ``check`` validates an action)."""
        return rebuild_legal(self.view(), self.actions)

    def view(self) -> View:
        """The engine's view of the seat (hand seats, the game's own subclass)."""
        return rebuild_view(self.table_view, self.seat)
