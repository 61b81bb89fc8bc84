"""Hands played in betting rounds (streets): the shared engine of 3x4 Poker and Razz.

A game subclass says what each street deals, who opens it, how big the bets
are and how hands compare; this class runs antes, dealing, betting (with
all-in, short all-ins that do not reopen, caps and returned bets), side pots,
the showdown in the rule book's order and the awards.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.betting import Limit, raise_bounds
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BoardDealt,
    CardBurned,
    CardsDealt,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    StreetStarted,
)
from pokerhouse.engine.hand import NO_ACTIONS, Hand, RoundView
from pokerhouse.engine.pots import Pot, award_pot, build_pots
from pokerhouse.errors import InvalidSpec

_FOLD = LegalAction(ActionKind.FOLD)
_CHECK = LegalAction(ActionKind.CHECK)
_CALL = LegalAction(ActionKind.CALL)
_SHOWDOWN_CHOICE = LegalActions((LegalAction(ActionKind.SHOW_HAND), LegalAction(ActionKind.MUCK)))
# Enum members read once: a class attribute lookup costs more than a global's.
_K_FOLD, _K_CHECK, _K_CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_K_BET, _K_RAISE, _K_SHOW_HAND = ActionKind.BET, ActionKind.RAISE, ActionKind.SHOW_HAND
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


def _check_showdown_settings(
    always_show: Iterable[int], manual_showdown: bool, players: int
) -> frozenset[int]:
    """The seats that always show, once checked; ``manual_showdown`` must be a bool."""
    if type(manual_showdown) is not bool:
        raise InvalidSpec(
            "bad_option", f"manual_showdown must be true or false, not {manual_showdown!r}"
        )
    try:
        seats = None if isinstance(always_show, str) else frozenset(always_show)
    except TypeError:  # not a collection, or one of unhashable things
        seats = None
    if seats is None or any(type(s) is not int or not 0 <= s < players for s in seats):
        raise InvalidSpec(
            "bad_option",
            f"always_show must hold seat numbers 0 to {players - 1}, not {always_show!r}",
        )
    return seats


#: The view's tuples of what everybody may see of the cards, and the street's name.
DealtCards = tuple[
    tuple[tuple[Card | None, ...], ...], tuple[Card, ...], tuple[tuple[bool, ...], ...], str | None
]


@dataclass(frozen=True, slots=True)
class Street:
    """What one street deals before its betting round."""

    name: str
    down: int = 0
    up: int = 0
    board: int = 0
    burn: bool = False
    big_bet: bool = False


class RoundHand(Hand):
    """A hand of betting rounds. Subclasses fill in the game's specifics."""

    streets: tuple[Street, ...] = ()

    def __init__(
        self,
        stacks: Sequence[int],
        deck: Deck,
        *,
        ante: int,
        limit: Limit,
        always_show: Iterable[int] = frozenset(),
        manual_showdown: bool = False,
    ) -> None:
        super().__init__(stacks)
        n = len(stacks)
        self.deck = deck
        self.ante = ante
        self.limit = limit
        self.always_show = _check_showdown_settings(always_show, manual_showdown, n)
        self.manual_showdown = manual_showdown
        #: This round's bet of each seat.
        self.bets = [0] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        #: Which of each seat's cards were dealt face up.
        self.face_up: list[tuple[bool, ...]] = [() for _ in range(n)]
        # Each seat's cards as everybody may see them, kept as they are dealt and
        # shown so that a view costs a copy, not a pass over every card.
        self._public: list[tuple[Card | None, ...]] = [() for _ in range(n)]
        self.board: list[Card] = []
        self.revealed = [False] * n
        self.street_index = -1
        # Betting-round state.
        #: The bet to match this round.
        self.current_bet = 0
        self.last_raise = 0
        #: The minimum (no/pot-limit) or fixed (fixed-limit) bet this round.
        self.bet_size = 0
        #: Full bets and raises this round (what a cap counts).
        self.raises = 0
        #: Every bet, raise and completion this round, short all-ins included.
        self.bets_and_raises = 0
        self.needs_action = [False] * n
        self.can_raise = [False] * n
        # The bet each seat last acted facing: short all-ins that together make
        # a full raise over it reopen the betting for that seat.
        self.bet_faced = [0] * n
        self.last_aggressor: int | None = None
        # Showdown state (only while a manual show-or-muck decision is pending).
        self._showdown_queue: list[int] = []
        self._shown_values: dict[int, int] = {}
        self._values: dict[int, int] = {}
        self._everyone_shows = False
        self._pots: list[Pot] = []
        self._legal: LegalActions | None = None
        # What the cards show everybody (public cards, board, face up, street name):
        # the same tuples for every view until a card is dealt or shown.
        self._dealt: DealtCards | None = None

    # ---------------------------------------------------------------- hooks

    @abstractmethod
    def _bet_size(self) -> int:
        """Minimum (no/pot-limit) or fixed (fixed-limit) bet this street."""

    @abstractmethod
    def _first_to_act(self) -> int:
        """Seat that opens this street's betting (it may be unable to act)."""

    @abstractmethod
    def _hand_value(self, seat: int) -> int:
        """The seat's showdown value: higher wins."""

    @abstractmethod
    def _describe(self, seat: int) -> str:
        """The seat's showdown hand in words."""

    def _max_raises(self) -> int | None:
        """Bets plus raises allowed this street (``None``: no cap)."""
        return None

    def _open_street(self) -> bool:
        """Start this street's betting; return False to let a subclass act first."""
        return True

    def _deal_street(self, street: Street) -> None:
        if street.burn:
            self.deck.burn()
            self._emit(CardBurned())
        folded = self.folded
        live = [seat for seat in range(self.players) if not folded[seat]]
        dealt = street.down + street.up
        if dealt:
            self._dealt = None
            deck, held, face_up = self.deck, self.cards, self.face_up
            public, revealed = self._public, self.revealed
            down = street.down
            # One card at a time round the live seats: the down cards, then the up ones.
            for _ in range(dealt):
                for seat in live:
                    held[seat].append(deck.deal(seat))
            # So each seat's new cards are ``down`` down cards then the up ones.
            pattern = (False,) * down + (True,) * street.up
            hidden = (None,) * down
            emit = self._events.append
            for seat in live:
                new = tuple(held[seat][-dealt:])
                face_up[seat] += pattern
                public[seat] += new if revealed[seat] else hidden + new[down:]
                # Positional: seat, cards, face_up.
                emit(CardsDealt(seat, new, pattern))
        if street.board:
            cards = self.deck.deal_many(street.board)
            self._dealt = None
            self.board.extend(cards)
            self._emit(BoardDealt(cards=cards))

    # ---------------------------------------------------------------- queries

    def setup(self) -> dict[str, object]:
        return {
            "always_show": sorted(self.always_show),
            "manual_showdown": self.manual_showdown,
        }

    @property
    def street(self) -> Street | None:
        """The street being played, ``None`` before the deal."""
        if self.street_index < 0:
            return None
        return self.streets[min(self.street_index, len(self.streets) - 1)]

    @property
    def past_first_round(self) -> bool:
        # The second street was dealt: by betting, or because all-ins ran the board out.
        return self.street_index >= 1

    def pots(self) -> list[Pot]:
        """Main and side pots as they stand (this round's bets included)."""
        return build_pots(self.contributed, [not f for f in self.folded])

    def legal_actions(self) -> LegalActions:
        # Cached per decision point: bots and ``act`` both ask for it.
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def __getstate__(self) -> dict[str, object]:
        # The cache is derived state: leave it out so equal hands pickle equal.
        state = self.__dict__.copy()
        state["_legal"] = None
        state["_dealt"] = None
        return state

    def _compute_legal(self) -> LegalActions:
        seat = self.to_act
        if seat is None or self.is_over:
            return NO_ACTIONS
        if self._showdown_queue:
            return _SHOWDOWN_CHOICE
        return self._betting_actions(seat)

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

    def _view(self, seat: int | None) -> RoundView:
        dealt = self._dealt
        if dealt is None:
            street = self.street
            dealt = self._dealt = (
                tuple(self._public),
                tuple(self.board),
                tuple(self.face_up),
                street.name if street is not None else None,
            )
        public, board, face_up, street_name = dealt
        if seat is None:
            cards = public
        else:
            mine = list(public)
            mine[seat] = tuple(self.cards[seat])
            cards = tuple(mine)
        return RoundView(
            self.game,
            seat,
            street_name,
            tuple(self._stacks),
            tuple(self.bets),
            tuple(self.contributed),
            cards,
            board,
            tuple(self.folded),
            tuple(self.all_in),
            self.to_act,
            self.legal_actions() if seat is not None and seat == self.to_act else NO_ACTIONS,
            self.is_over,
            self.current_bet,
            self.bets_and_raises,
            face_up,
            self._bring_in_seat(),
        )

    def _bring_in_seat(self) -> int | None:
        """The seat that must bring in now, if the game has a bring-in."""
        return None

    # ---------------------------------------------------------------- flow

    def _start(self) -> None:
        """Post antes, then deal and play on to the first decision."""
        self._emit(HandStarted(game=self.game, stacks=self.starting_stacks))
        if self.ante:
            for seat in range(self.players):
                amount = min(self.ante, self._stacks[seat])
                if amount:
                    self._put_in(seat, amount)
                    self._emit(AntePosted(seat, amount))
            # Antes are dead money, not this round's bets.
            self.bets = [0] * self.players
        self._next_street()

    def _put_in(self, seat: int, amount: int) -> int:
        self.bets[seat] += amount
        return Hand._put_in(self, seat, amount)

    def _live(self) -> list[int]:
        return [seat for seat in range(self.players) if not self.folded[seat]]

    def _can_act(self, seat: int) -> bool:
        return not self.folded[seat] and not self.all_in[seat]

    def _next_street(self) -> None:
        """Deal the next street and open its betting, or go to the showdown."""
        while True:
            self.street_index += 1
            if self.street_index >= len(self.streets):
                self._showdown()
                return
            street = self.streets[self.street_index]
            self._dealt = None
            self._emit(StreetStarted(street.name))
            self._deal_street(street)
            self._reset_round()
            if not self._open_street():
                return
            if self._begin_betting(self._first_to_act()):
                return

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

    def _apply(self, action: Action) -> None:
        self._legal = None
        if self._showdown_queue:
            self._showdown_choice(action.kind is _K_SHOW_HAND)
            return
        seat = self.to_act
        assert seat is not None
        self._apply_bet(seat, action)
        self._after_action(seat)

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

    def _after_action(self, seat: int) -> None:
        if self.folded.count(False) == 1:
            self._end_round()
            self._award_uncontested(self.folded.index(False))
            return
        following = self._seat_from((seat + 1) % self.players)
        if following is not None:
            self.to_act = following
            return
        self._end_round()
        self._next_street()

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

    # ---------------------------------------------------------------- showdown

    def _award_uncontested(self, winner: int) -> None:
        amount = self.pot_total
        self._stacks[winner] += amount
        self._emit(PotAwarded(pot=0, amount=amount, winners=(winner,), shares=(amount,)))
        self._finish()

    def _showdown_order(self) -> list[int]:
        live = self._live()
        first = self.last_aggressor if self.last_aggressor in live else live[0]
        start = live.index(first)
        return live[start:] + live[:start]

    def _showdown(self) -> None:
        self.to_act = None
        self._pots = self.pots()
        everyone_shows = sum(1 for seat in self._live() if not self.all_in[seat]) <= 1
        self._showdown_queue = self._showdown_order()
        self._values = {seat: self._hand_value(seat) for seat in self._showdown_queue}
        self._shown_values = {}
        self._everyone_shows = everyone_shows
        self._continue_showdown()

    def _continue_showdown(self) -> None:
        while self._showdown_queue:
            seat = self._showdown_queue[0]
            value = self._values[seat]
            if self._everyone_shows or self._can_win(seat, value) or seat in self.always_show:
                self._reveal(seat)
                continue
            if self.manual_showdown:
                self.to_act = seat
                return
            self._muck(seat)
        self.to_act = None
        self._award_pots()

    def _showdown_choice(self, show: bool) -> None:
        seat = self._showdown_queue[0]
        if show:
            self._reveal(seat)
        else:
            self._muck(seat)
        self._continue_showdown()

    def _can_win(self, seat: int, value: int) -> bool:
        for pot in self._pots:
            if seat not in pot.eligible:
                continue
            best = max(
                (self._shown_values[s] for s in pot.eligible if s in self._shown_values),
                default=None,
            )
            if best is None or value >= best:
                return True
        return False

    def _reveal(self, seat: int) -> None:
        self._showdown_queue.pop(0)
        self._shown_values[seat] = self._values[seat]
        self.revealed[seat] = True
        self._dealt = None
        self._public[seat] = tuple(self.cards[seat])
        self._emit(
            HandShown(seat=seat, cards=tuple(self.cards[seat]), description=self._describe(seat))
        )

    def _muck(self, seat: int) -> None:
        self._showdown_queue.pop(0)
        self._emit(HandMucked(seat=seat))

    def _award_pots(self) -> None:
        for index, pot in enumerate(self._pots):
            contenders = [s for s in pot.eligible if s in self._shown_values]
            best = max(self._shown_values[s] for s in contenders)
            winners = [s for s in contenders if self._shown_values[s] == best]
            self._emit(
                award_pot(index, pot.amount, winners, self._stacks, self._describe(winners[0]))
            )
        self._finish()

    def _before_end(self) -> None:
        self.bets = [0] * self.players
