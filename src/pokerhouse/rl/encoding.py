"""A seat's observation as a fixed-shape vector, built from the engine's view for that seat.

Everything comes from :meth:`~pokerhouse.engine.hand.Hand.view` for the
observing seat, the engine's own filter of what a seat may know, so a card
hidden from the seat (another seat's hole cards, a blind Teen Patti player's
own cards, the dealer's cards before the showdown, the deck) never reaches
the vector. Seats are listed relative to the observer: block ``k`` of a
per-seat feature is the seat ``k`` places clockwise from it (``0`` is itself).

The layout, in order (``n`` seats; :meth:`Encoder.layout` lists it with offsets):

- ``cards``: ``n`` planes of 52 (card index ``4 * rank + suit``), the cards of
  each seat the observer may see: all of its own it may see, the others' up
  cards and cards shown; then the board's plane; Casino Hold'em adds the
  dealer's plane; Razz adds a plane of the observer's own up cards.
- ``seat``: one-hot of the observer's seat (seat ``n - 1`` holds the button).
- ``stacks``, ``bets``, ``contributed``: chips per seat over ``chip_scale``
  (``bets`` are the round's in 3x4 and Razz, the hand's elsewhere).
- ``folded``, ``all_in``: flags per seat.
- ``to_act``: one-hot of the seat to act, relative to the observer.
- ``pot``, ``to_call``: chips over ``chip_scale``.
- Betting-round games: ``current_bet`` (over ``chip_scale``),
  ``bets_and_raises`` (this round's count, over the game's cap of 4) and a
  ``street`` one-hot.
- Teen Patti: ``seen`` flags per seat, ``stake`` and ``show_cost`` (over
  ``chip_scale``, ``0`` when no show is allowed), ``sideshow_asked`` (a
  sideshow waits for the observer's answer).
- Casino Hold'em: ``ante``, ``bonus``, ``call_amount`` (over ``chip_scale``),
  ``called`` flags per box.

>>> from pokerhouse.games import new_hand
>>> encoder = Encoder("3x4", 2, chip_scale=200)
>>> vector = encoder.encode(new_hand("3x4", [100, 100], seed=3), 0)
>>> vector.shape == (encoder.size,), int(vector[:52].sum())  # three hole cards
(True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pokerhouse.cards import Card
from pokerhouse.engine.hand import Hand, RoundView, View
from pokerhouse.games.casino_holdem.view import CasinoHoldemView
from pokerhouse.games.teen_patti.view import TeenPattiView

#: The street names of the betting-round games, for the ``street`` one-hot.
STREETS: dict[str, tuple[str, ...]] = {
    "3x4": ("hole", "flop", "turn", "river"),
    "razz": ("third", "fourth", "fifth", "sixth", "seventh"),
}
#: What ``bets_and_raises`` is divided by: a bet and three raises, the usual cap.
RAISES_SCALE = 4.0


class Encoder:
    """Encodes views of one game with ``players`` seats; chips are divided by ``chip_scale``."""

    def __init__(self, game: str, players: int, chip_scale: int) -> None:
        self.game = game
        self.players = players
        self.chip_scale = float(chip_scale)
        n = players
        planes = n + 1 + (1 if game in ("casino-holdem", "razz") else 0)
        blocks: list[tuple[str, int, bool]] = [
            ("cards", 52 * planes, True),
            ("seat", n, True),
            ("stacks", n, False),
            ("bets", n, False),
            ("contributed", n, False),
            ("folded", n, True),
            ("all_in", n, True),
            ("to_act", n, True),
            ("pot", 1, False),
            ("to_call", 1, False),
        ]
        if game in STREETS:
            blocks += [
                ("current_bet", 1, False),
                ("bets_and_raises", 1, False),
                ("street", len(STREETS[game]), True),
            ]
        elif game == "teen-patti":
            blocks += [("seen", n, True), ("stake", 1, False), ("show_cost", 1, False)]
            blocks += [("sideshow_asked", 1, True)]
        else:
            blocks += [("ante", 1, False), ("bonus", 1, False), ("call_amount", 1, False)]
            blocks += [("called", n, True)]
        self._offsets: dict[str, tuple[int, int]] = {}
        start = 0
        highs: list[float] = []
        for name, length, is_flag in blocks:
            self._offsets[name] = (start, length)
            start += length
            highs += [1.0 if is_flag else np.inf] * length
        #: Length of the vector.
        self.size = start
        # Everything after the card planes is numbers, written in one go.
        self._numbers_at = self._offsets["seat"][0]
        #: Each entry's upper bound (flags 1, amounts unbounded); every lower bound is 0.
        self.high = np.array(highs, dtype=np.float32)

    def layout(self) -> list[tuple[str, int, int]]:
        """Each block's name, offset and length, in order.

        >>> Encoder("casino-holdem", 1, chip_scale=100).layout()[:3]
        [('cards', 0, 156), ('seat', 156, 1), ('stacks', 157, 1)]
        """
        return [(name, start, length) for name, (start, length) in self._offsets.items()]

    def encode(self, hand: Hand, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat``: what its view of ``hand`` shows, nothing more."""
        return self.encode_view(hand.view(seat))

    def encode_view(self, view: View) -> npt.NDArray[np.float32]:
        """The observation of the view's own seat."""
        seat = view.seat
        assert seat is not None
        n = self.players
        order = [(seat + k) % n for k in range(n)]
        # The card planes as a list of entries to set, the rest as values in layout order:
        # one write each into the vector costs less than a write per block.
        marks: list[int] = []
        for plane, other in enumerate(order):
            _mark(marks, 52 * plane, view.cards[other])
        _mark(marks, 52 * n, view.board)
        scale = self.chip_scale
        to_act = view.to_act
        values = [1.0 if s == seat else 0.0 for s in range(n)]
        values += [view.stacks[s] / scale for s in order]
        values += [view.bets[s] / scale for s in order]
        values += [view.contributed[s] / scale for s in order]
        values += [float(view.folded[s]) for s in order]
        values += [float(view.all_in[s]) for s in order]
        values += [1.0 if s == to_act else 0.0 for s in order]
        values.append(view.pot / scale)
        if isinstance(view, RoundView):
            self._round(values, marks, view, seat)
        elif isinstance(view, TeenPattiView):
            self._teen_patti(values, view, order)
        elif isinstance(view, CasinoHoldemView):
            self._casino(values, marks, view, order)
        out = np.zeros(self.size, dtype=np.float32)
        out[marks] = 1.0
        out[self._numbers_at :] = values
        return out

    def _round(self, values: list[float], marks: list[int], view: RoundView, seat: int) -> None:
        scale = self.chip_scale
        values.append(view.to_call / scale)
        values.append(view.current_bet / scale)
        values.append(view.bets_and_raises / RAISES_SCALE)
        values += [1.0 if name == view.street else 0.0 for name in STREETS[self.game]]
        if self.game == "razz":
            up = [
                card
                for card, face_up in zip(view.cards[seat], view.face_up[seat], strict=True)
                if face_up
            ]
            _mark(marks, 52 * (self.players + 1), up)

    def _teen_patti(self, values: list[float], view: TeenPattiView, order: list[int]) -> None:
        scale = self.chip_scale
        seat = order[0]
        least = 2 * view.stake if view.seen[seat] else view.stake
        to_call = min(least, view.stacks[seat]) if view.to_act == seat else 0
        values.append(to_call / scale)
        values += [float(view.seen[s]) for s in order]
        values.append(view.stake / scale)
        values.append((view.show_cost or 0) / scale)
        values.append(float(view.sideshow is not None and view.sideshow[1] == seat))

    def _casino(
        self, values: list[float], marks: list[int], view: CasinoHoldemView, order: list[int]
    ) -> None:
        scale = self.chip_scale
        seat = order[0]
        call = view.call_amount or 0
        values.append(call / scale if view.to_act == seat else 0.0)
        values.append(view.antes[seat] / scale)
        values.append(view.bonuses[seat] / scale)
        values.append(call / scale)
        values += [float(view.called[s]) for s in order]
        _mark(marks, 52 * (self.players + 1), view.dealer_cards)


def _mark(marks: list[int], start: int, cards: Sequence[Card | None]) -> None:
    """Add the plane's entry of every card shown (``None``: a card the seat may not see)."""
    for card in cards:
        if card is not None:
            marks.append(start + card)
