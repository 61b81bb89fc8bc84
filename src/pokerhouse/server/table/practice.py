"""Casino Hold'em practice: the exact value of calling, for the asking player's own box.

A player who turns on practice mode asks (``call_ev``) what calling is worth
for one of their boxes once its two cards and the flop are out. The answer
comes from :func:`pokerhouse.analysis.casino_holdem.advise` on that box's own
hole cards and the flop, the cards the player already sees; nothing of
another box or of the dealer goes in. The count takes a fraction of a second,
so it runs in a worker thread and the table does not wait for it.

>>> from pokerhouse.cards import parse_cards
>>> spec = CasinoHoldemSpec()
>>> answer = call_value(spec, parse_cards("As Kd"), parse_cards("Qh 7c 2d"), ante=10)
>>> answer["action"], answer["call_ev"], answer["call_ev_chips"]
('call', -0.0787, -0.79)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from pokerhouse.analysis.casino_holdem import advise
from pokerhouse.cards import Card, format_cards
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.games.casino_holdem.view import CasinoHoldemView
from pokerhouse.server.errors import RoomError
from pokerhouse.table import Table


def own_box(table: Table, seat: int) -> tuple[tuple[Card, ...], tuple[Card, ...], int]:
    """Seat ``seat``'s own hole cards, the flop and its ante, from that seat's own view.

    :class:`RoomError` ``no_call_decision`` unless the box is in the running
    round with its cards and the flop dealt and has not decided yet.
    """
    hand = table.hand
    if hand is None or seat not in table.hand_seats:
        raise RoomError("no_call_decision", f"seat {seat} is not in a round now")
    index = table.hand_seats.index(seat)
    view = hand.view(index)
    if not isinstance(view, CasinoHoldemView):
        raise RoomError("bad_request", "the call's value is for Casino Hold'em boxes")
    hole = tuple(card for card in view.cards[index] if card is not None)
    flop = tuple(view.board[:3])
    if len(hole) != 2 or len(flop) != 3 or view.folded[index] or view.called[index]:
        raise RoomError("no_call_decision", f"seat {seat} has no call to decide now")
    return hole, flop, view.antes[index]


@lru_cache(maxsize=256)
def _advice(
    hole: tuple[Card, ...], flop: tuple[Card, ...], spec: CasinoHoldemSpec, ante: int
) -> dict[str, Any]:
    advice = advise(
        hole,
        flop,
        spec.ante_pays,
        max_payout=Fraction(spec.max_payout, ante),
        bonus_pays=spec.bonus_pays,
    )
    exact = advice.call_ev
    return {
        "hole": format_cards(hole),
        "flop": format_cards(flop),
        "action": advice.action,
        "call_ev": round(float(exact), 4),
        "fold_ev": -1.0,
        "call_ev_exact": str(exact),
        "call_ev_chips": round(float(exact * ante), 2),
        "fold_ev_chips": -ante,
        "ante": ante,
        "ways": advice.outcomes.ways,
    }


def call_value(
    spec: CasinoHoldemSpec, hole: Sequence[Card], flop: Sequence[Card], ante: int
) -> dict[str, Any]:
    """The ``call_ev`` message's body: calling's and folding's values, in antes and in chips."""
    return dict(_advice(tuple(hole), tuple(flop), spec, ante))
