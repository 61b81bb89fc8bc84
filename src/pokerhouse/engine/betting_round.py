"""The betting round of a street: what a seat may bet, what a bet does, and the round's end.

:class:`BettingRound` is the betting half of
:class:`~pokerhouse.engine.rounds.RoundHand` (the streets, the dealing and
the showdown are there). It keeps the round's state (every seat's bet, the
bet to match, the last full raise, the cap's count, who still needs to act
and who may raise), offers the legal bets, applies one, and at the round's
end returns the part of the top bet that nobody called. All-ins, short
all-ins that do not reopen the betting, and caps are handled here.
"""

from __future__ import annotations

from abc import abstractmethod

from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.betting import Limit, raise_bounds
from pokerhouse.engine.events import ActionTaken, BetReturned
from pokerhouse.engine.hand import Hand

_FOLD = LegalAction(ActionKind.FOLD)
_CHECK = LegalAction(ActionKind.CHECK)
_CALL = LegalAction(ActionKind.CALL)
# Enum members read once: a class attribute lookup costs more than a global's.
_K_FOLD, _K_CHECK, _K_CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_K_BET, _K_RAISE = ActionKind.BET, ActionKind.RAISE
_FIXED_LIMIT, _POT_LIMIT = Limit.FIXED_LIMIT, Limit.POT_LIMIT

#: A sized option as ``(kind, smallest, largest)``: a bet, raise or completion.
Sized = tuple[ActionKind, int, int]


def betting_legal(call_total: int | None, stack_limit: int, sized: Sized | None) -> LegalActions:
    """Fold, check (``call_total`` None) or call, and the ``sized`` option if any.

    >>> betting_legal(None, 100, (ActionKind.BET, 2, 100)).kinds
    (<ActionKind.FOLD: 'fold'>, <ActionKind.CHECK: 'check'>, <ActionKind.BET: 'bet'>)
    """
    # Built directly: a memo of them paid at a table only while the stacks were
    # equal, and cost more than it saved once they drifted apart. The sized
    # option alone repeats (fixed-limit bets), so that is made once per value.
    passive = _CHECK if call_total is None else _CALL
    if sized is None:
        return LegalActions((_FOLD, passive), stack_limit, call_total)
    option = _SIZED.get(sized)
    if option is None:
        if len(_SIZED) >= _SIZED_MEMO:
            _SIZED.clear()
        option = _SIZED[sized] = LegalAction(*sized)
    return LegalActions((_FOLD, passive, option), stack_limit, call_total)


_SIZED: dict[Sized, LegalAction] = {}
_SIZED_MEMO = 1024


class BettingRound(Hand):
    """A hand's betting rounds: the machinery :class:`~pokerhouse.engine.rounds.RoundHand` runs.

    The state below is set up by ``RoundHand.__init__`` and reset for each
    street by :meth:`_reset_round`.
    """

    limit: Limit
    #: This round's bet of each seat.
    bets: list[int]
    #: The bet to match this round.
    current_bet: int
    last_raise: int
    #: The minimum (no/pot-limit) or fixed (fixed-limit) bet this round.
    bet_size: int
    #: Full bets and raises this round (what a cap counts).
    raises: int
    #: Every bet, raise and completion this round, short all-ins included.
    bets_and_raises: int
    needs_action: list[bool]
    can_raise: list[bool]
    # The bet each seat last acted facing: short all-ins that together make
    # a full raise over it reopen the betting for that seat.
    bet_faced: list[int]
    last_aggressor: int | None

    # ---------------------------------------------------------------- hooks

    @abstractmethod
    def _bet_size(self) -> int:
        """Minimum (no/pot-limit) or fixed (fixed-limit) bet this street."""

    def _max_raises(self) -> int | None:
        """Bets plus raises allowed this street (``None``: no cap)."""
        return None

    # ---------------------------------------------------------------- legal bets

    def _betting_actions(self, seat: int) -> LegalActions:
        stack = self._stacks[seat]
        bet = self.bets[seat]
        to_call = self.current_bet - bet
        call_total = None if to_call <= 0 else bet + min(to_call, stack)
        return betting_legal(call_total, bet + stack, self._sized_action(seat, stack, to_call))

    def _sized_action(self, seat: int, stack: int, to_call: int) -> Sized | None:
        """The bet or raise ``seat`` may make, as ``(kind, smallest, largest)``, if any."""
        if stack <= to_call or not self.can_raise[seat]:
            return None
        cap = self._max_raises()
        if cap is not None and self.raises >= cap:
            return None
        if not self._another_can_bet(seat):
            return None
        current = self.current_bet
        limit = self.limit
        # Positional: limit, current, last_raise, bet_size, pot (only pot-limit
        # reads it), to_call, bet, stack.
        low, high = raise_bounds(
            limit,
            current,
            self.last_raise,
            self.bet_size,
            self.pot_total if limit is _POT_LIMIT else 0,
            to_call,
            self.bets[seat],
            stack,
        )
        return (_K_BET if current == 0 else _K_RAISE, low, high)

    def _another_can_bet(self, seat: int) -> bool:
        """Whether a seat other than ``seat`` can still put chips in (else raising is moot)."""
        folded, all_in = self.folded, self.all_in
        for other in range(self.players):
            if other != seat and not folded[other] and not all_in[other]:
                return True
        return False

    # ---------------------------------------------------------------- the round

    def _put_in(self, seat: int, amount: int) -> int:
        self.bets[seat] += amount
        return Hand._put_in(self, seat, amount)

    def _can_act(self, seat: int) -> bool:
        return not self.folded[seat] and not self.all_in[seat]

    def _reset_round(self) -> None:
        n = self.players
        self.bets = [0] * n
        self.current_bet = 0
        self.bet_size = self._bet_size()
        self.last_raise = self.bet_size
        self.raises = 0
        self.bets_and_raises = 0
        self.last_aggressor = None
        # Who can act: neither folded nor all in.
        self.needs_action = [
            not folded and not all_in
            for folded, all_in in zip(self.folded, self.all_in, strict=True)
        ]
        self.can_raise = list(self.needs_action)
        self.bet_faced = [0] * n

    def _begin_betting(self, first: int) -> bool:
        """Set the first seat to act; False when no betting can happen this street."""
        able = sum(self.needs_action)
        # Bets are never negative: with no bet to match nobody owes (every new street).
        owes = self.current_bet > 0 and any(
            self._can_act(seat) and self.bets[seat] < self.current_bet
            for seat in range(self.players)
        )
        if able < 2 and not owes:
            self.needs_action = [False] * self.players
            self.to_act = None
            return False
        self.to_act = self._seat_from(first)
        return self.to_act is not None

    def _seat_from(self, start: int) -> int | None:
        """First seat, clockwise from ``start`` inclusive, that still needs to act."""
        n = self.players
        for offset in range(n):
            seat = (start + offset) % n
            if self.needs_action[seat]:
                return seat
        return None

    def _apply_bet(self, seat: int, action: Action) -> None:
        kind = action.kind
        before = self.bets[seat]
        if kind is _K_FOLD:
            self.folded[seat] = True
        elif kind is _K_CALL:
            self._put_in(seat, min(self.current_bet - before, self._stacks[seat]))
            if action.amount is not None:
                action = Action(kind)
        elif kind is not _K_CHECK:
            assert action.amount is not None
            self._raise_to(seat, action.amount, kind)
        self.needs_action[seat] = False
        self.can_raise[seat] = False
        self.bet_faced[seat] = self.current_bet
        total = self.bets[seat]
        # Positional: seat, action, added, total, all_in (the commonest event).
        self._events.append(ActionTaken(seat, action, total - before, total, self.all_in[seat]))

    def _raise_to(self, seat: int, total: int, kind: ActionKind) -> None:
        """Bet, raise or complete to ``total``.

        A short all-in does not reopen the betting for seats that have acted,
        unless, with the short all-ins before it, it leaves a seat facing at
        least a full raise over the bet it last acted on.
        """
        self._put_in(seat, total - self.bets[seat])
        increment = total - self.current_bet
        full = increment >= self._full_raise(kind)
        if full:
            self.last_raise = increment
            self.raises += 1
        self.bets_and_raises += 1
        self.current_bet = current = max(self.current_bet, total)
        self.last_aggressor = seat
        reopen_at = current - self._full_raise(_K_RAISE)
        for other in range(self.players):
            if other != seat and self._can_act(other) and self.bets[other] < current:
                self.needs_action[other] = True
                if full or self.bet_faced[other] <= reopen_at:
                    self.can_raise[other] = True

    def _full_raise(self, kind: ActionKind) -> int:
        """The smallest increment that counts as a full bet or raise."""
        if self.limit is _FIXED_LIMIT or self.current_bet == 0:
            return self.bet_size
        return max(self.last_raise, self.bet_size)

    def _end_round(self) -> None:
        """Return the part of the top bet that nobody called."""
        self.to_act = None
        bets = self.bets
        # Only a top bet above every other bet has a part nobody called.
        top_bet = max(bets)
        if bets.count(top_bet) == 1:
            top = bets.index(top_bet)
            excess = top_bet - sorted(bets)[-2]
        else:
            top, excess = -1, 0
        if excess > 0:
            self._stacks[top] += excess
            self.bets[top] -= excess
            self.contributed[top] -= excess
            self.all_in[top] = self._stacks[top] == 0
            self._emit(BetReturned(seat=top, amount=excess))
