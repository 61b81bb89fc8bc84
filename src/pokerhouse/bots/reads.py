"""What a bot learns of each opponent at the table: how often they fold to a bet, how often
their bets were bluffs, and how hard they are pushing in the hand at hand.

A :class:`Reads` follows one seat's views through a hand (every view the
seat is shown when it acts, and the last one when the hand is over) and
keeps, per opponent:

- **fold to a bet**: after this seat bets or raises, whether each opponent
  still in folds before the seat acts again (or the hand ends);
- **bluffs shown**: at a showdown, whether an opponent who bet or raised in
  the hand showed a weak hand (below :data:`BLUFF_STRENGTH` of hands);
- **pressure** in the current hand: the bets and raises each opponent has
  made, as far as the seat's views tell them apart (heads-up exactly; with
  more players a bet everyone matched counts half for each; at Teen Patti,
  half a bet for each bet a seen player made since looking).

Opponents are known by the names the host gives for each hand
(:meth:`Reads.new_hand`), so what one showed follows them from seat to
seat; without names they are known by seat. Rates start from a prior worth
a few observations, so one hand moves them a little, not all the way.

>>> reads = Reads()
>>> round(reads.fold_rate(1), 2), round(reads.bluff_rate(1), 2)
(0.4, 0.2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pokerhouse.engine.actions import SIZED_KINDS, Action, ActionKind
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.games.teen_patti.view import TeenPattiView

#: Priors: (rate, observations it is worth).
FOLD_PRIOR = (0.4, 4.0)
BLUFF_PRIOR = (0.2, 4.0)
#: A call of this seat's bet tells of a hand, less than a bet does.
CALL_PRESSURE = 0.4
#: A hand that bet and showed less than this share of hands beaten was a bluff.
BLUFF_STRENGTH = 0.4

#: Scores a showdown hand seen in full: the share of hands it beats (0 to 1).
Strength = Callable[[View, int], float | None]


@dataclass(slots=True)
class Record:
    """One opponent's observed counts."""

    faced: int = 0
    folded: int = 0
    shown: int = 0
    bluffs: int = 0


@dataclass(slots=True)
class _Hand:
    """What this hand has shown so far."""

    cards: tuple[object, ...] = ()
    names: tuple[str, ...] = ()
    pressure: dict[int, float] = field(default_factory=dict)
    marked: set[tuple[object, ...]] = field(default_factory=set)
    #: After this seat's bet: the opponents who then had to answer it.
    answering: tuple[int, ...] = ()


class Reads:
    """Per-opponent counts, and the hand at hand (see the module's docstring)."""

    def __init__(self) -> None:
        self.records: dict[str, Record] = {}
        self._hand = _Hand()
        #: The names the host gave for the next hand (``None``: none given since).
        self._next_names: tuple[str, ...] | None = None
        #: Whether a host tells of each hand (then only it starts one).
        self._told = False
        #: Bettors' hands shown at the last showdown, to score at the next decision.
        self._shown: list[tuple[Record, View, int, Strength]] = []

    # ------------------------------------------------------------ what the host says

    def new_hand(self, names: Sequence[str]) -> None:
        """The hand about to start seats ``names`` (one per seat of its views)."""
        self._next_names = tuple(names)
        self._told = True

    # ------------------------------------------------------------ rates

    def record(self, seat: int) -> Record:
        """The counts of the opponent at ``seat`` in this hand."""
        key = self._key(seat)
        found = self.records.get(key)
        if found is None:
            found = self.records[key] = Record()
        return found

    def fold_rate(self, seat: int) -> float:
        """How often the opponent at ``seat`` folds to a bet (the prior pulled along)."""
        record = self.record(seat)
        rate, weight = FOLD_PRIOR
        return (record.folded + rate * weight) / (record.faced + weight)

    def bluff_rate(self, seat: int) -> float:
        """How often the opponent's shown bets were bluffs (the prior pulled along)."""
        record = self.record(seat)
        rate, weight = BLUFF_PRIOR
        return (record.bluffs + rate * weight) / (record.shown + weight)

    def pressure(self, seat: int) -> float:
        """Bets and raises the opponent at ``seat`` has made in this hand."""
        return self._hand.pressure.get(seat, 0.0)

    # ------------------------------------------------------------ following a hand

    def seen(self, view: View, *, last: bool = False) -> None:
        """The seat is shown ``view`` (to act, or the hand's ``last``)."""
        if not last:  # the last view of a hand is of the hand followed so far
            self._score_shown()
            self._start_if_new(view)
        hand = self._hand
        if hand.answering:
            for seat in hand.answering:
                record = self.record(seat)
                record.faced += 1
                record.folded += view.folded[seat]
                if not view.folded[seat]:  # called (or raised): a hand worth paying for
                    hand.pressure[seat] = hand.pressure.get(seat, 0.0) + CALL_PRESSURE
            hand.answering = ()
        self._mark_pressure(view)

    def acted(self, view: View, action: Action) -> None:
        """The seat answered ``view`` with ``action``."""
        if action.kind in SIZED_KINDS or (
            isinstance(view, TeenPattiView)
            and action.kind is ActionKind.BET
            and action.amount is not None
            and action.amount > (view.seen_min if _seen(view) else view.blind_min)
        ):
            self._hand.answering = tuple(
                seat
                for seat, folded in enumerate(view.folded)
                if not folded and seat != view.seat and not view.all_in[seat]
            )

    def hand_over(self, view: View, strength: Strength) -> None:
        """The hand ended: its last view, and how to score a hand shown in full.

        The hands shown are scored later, at the seat's next decision (a host
        calls this where time is short: the room's loop; decisions are made
        off it).
        """
        self.seen(view, last=True)
        self._score_shown()
        for seat, pushed in self._hand.pressure.items():
            if pushed >= 1 and not view.folded[seat]:
                self._shown.append((self.record(seat), view, seat, strength))
        self._hand = _Hand()

    def _score_shown(self) -> None:
        """Count the bluffs among the bettors' hands shown at the last showdown."""
        for record, view, seat, strength in self._shown:
            score = strength(view, seat)
            if score is not None:
                record.shown += 1
                record.bluffs += score < BLUFF_STRENGTH
        self._shown.clear()

    # ------------------------------------------------------------ inside

    def _key(self, seat: int) -> str:
        names = self._hand.names
        return names[seat] if seat < len(names) else f"seat {seat}"

    def _start_if_new(self, view: View) -> None:
        """A view of another hand than the one followed starts a new one: the host said
        so (:meth:`new_hand`), or (no host) a card known before is not there now."""
        cards = tuple(view.my_cards)
        hand = self._hand
        if self._next_names is not None:
            fresh = True
        elif self._told:
            fresh = not hand.cards
        else:
            known = hand.cards
            fresh = (
                not known
                or len(cards) < len(known)
                or any(
                    old is not None and old != new for old, new in zip(known, cards, strict=False)
                )
            )
        if fresh:
            names = self._next_names or ()
            self._hand = _Hand(names=names if len(names) == view.players else ())
            self._next_names = None
        self._hand.cards = cards

    def _mark_pressure(self, view: View) -> None:
        """Credit the bets the view shows to whoever made them, once each."""
        hand = self._hand
        if isinstance(view, RoundView):
            if view.current_bet <= 0 or view.bets_and_raises == 0:
                return
            key: tuple[object, ...] = (view.street, view.bets_and_raises)
            makers = [
                seat
                for seat, bet in enumerate(view.bets)
                if seat != view.seat and bet >= view.current_bet and not view.folded[seat]
            ]
        elif isinstance(view, TeenPattiView):
            # No rounds to tell bets apart: a seen player who keeps betting has a hand
            # (half a bet's worth each time); a blind one knows nothing of theirs.
            for seat in range(view.players):
                if seat != view.seat and view.seen[seat]:
                    hand.pressure[seat] = 0.5 * view.bets_since_seen[seat]
            return
        else:
            return
        if key in hand.marked or not makers:
            return
        hand.marked.add(key)
        share = 1.0 if len(makers) == 1 else 0.5
        for seat in makers:
            hand.pressure[seat] = hand.pressure.get(seat, 0.0) + share


def _seen(view: TeenPattiView) -> bool:
    assert view.seat is not None
    return view.seen[view.seat]
