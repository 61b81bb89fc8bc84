"""The base of every game's hand: one checked way in (:meth:`Hand.act`), events out.

A hand runs every step that needs no decision by itself and stops where a
decision is due: :attr:`Hand.to_act` names the seat and
:meth:`Hand.legal_actions` says what it may do. :meth:`Hand.act` validates
first and only then changes anything, so a rejected action leaves the hand
exactly as it was. Should the engine itself fail while applying an accepted
action, the hand is marked broken and refuses everything after with an
:class:`~pokerhouse.errors.EngineFault` (a table voids such a hand).

Seats are numbered clockwise from 0, the first seat left of the button (the
button is the last seat), so "clockwise from the dealer" is simply seat order.

A viewer follows a hand from a cursor: :meth:`Hand.events_for` gives the
events from an index on, as that viewer may see them, and
:meth:`Hand.view` the state now, without the event list.

>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100], seed=3)
>>> seen = hand.events_for(0)
>>> cursor = len(hand.events)
>>> _ = hand.act(Action.check())
>>> [event.type_name for event in hand.events_for(0, cursor)]
['action_taken']
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action, LegalActions
from pokerhouse.engine.events import Event, HandEnded
from pokerhouse.engine.pots import Pot, build_pots
from pokerhouse.engine.visibility import Holding, Viewer, check_viewer, shown_to
from pokerhouse.errors import EngineFault, IllegalAction, InvalidAction, InvalidSpec, OutOfTurn

NO_ACTIONS = LegalActions(())


@dataclass(slots=True)
class View:
    """What one seat (or a spectator, ``seat=None``) may know about a hand now.

    ``cards[s]`` holds seat ``s``'s cards as this viewer sees them: ``None``
    for a card it may not see. ``bets`` are this betting round's bets (the
    whole hand's, in games without rounds); ``contributed`` is everything
    each seat has put in this hand, from which :attr:`pots` follow. Each game
    adds its own facts as typed fields in a subclass (:class:`RoundView`,
    ``TeenPattiView``, ``CasinoHoldemView``). A view is a snapshot, made for
    its viewer alone: the hand moves on without it and never reads it back.
    (It is not frozen only because a frozen dataclass of this many fields
    costs more to build than the decision it serves.)
    """

    game: str
    seat: int | None
    street: str | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    board: tuple[Card, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    to_act: int | None
    legal: LegalActions
    is_over: bool

    @property
    def pot(self) -> int:
        """Every chip in the middle, this round's bets included."""
        return sum(self.contributed)

    @property
    def pots(self) -> tuple[Pot, ...]:
        """Main and side pots as they stand."""
        return tuple(build_pots(self.contributed, [not folded for folded in self.folded]))

    @property
    def my_cards(self) -> tuple[Card | None, ...]:
        """The viewer's own cards as it sees them (empty for a spectator)."""
        return () if self.seat is None else self.cards[self.seat]

    @property
    def players(self) -> int:
        """Seats in the hand."""
        return len(self.stacks)


@dataclass(slots=True)
class RoundView(View):
    """A view of a betting-round game (3x4 Poker, Razz).

    ``current_bet`` is the bet to match this round; ``bets_and_raises``
    counts the bets, raises and completions made this round (short all-ins
    included); ``face_up[s][i]`` says whether seat ``s``'s card ``i`` was
    dealt face up; ``bring_in`` is the seat that must bring in (Razz, third
    street) or ``None``.
    """

    current_bet: int
    bets_and_raises: int
    face_up: tuple[tuple[bool, ...], ...]
    bring_in: int | None

    @property
    def to_call(self) -> int:
        """Chips the viewer must add to stay in (0 when it may check or is a spectator)."""
        seat = self.seat
        if seat is None:
            return 0
        return max(0, min(self.current_bet - self.bets[seat], self.stacks[seat]))

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The pots of the rounds already closed; this round's bets stay in front of the seats.

        Until a round ends a bet nobody has matched yet is no side pot: only
        an all-in at a closed round splits one off. At the hand's end every
        chip is in the pots.

        >>> from pokerhouse.games import new_hand
        >>> from pokerhouse.engine import Action
        >>> hand = new_hand("3x4", [200, 200, 200], seed=3, options={"ante": 2, "small_bet": 4})
        >>> _ = hand.act(Action.bet(4))
        >>> view = hand.view(None)
        >>> view.bets, [(pot.amount, pot.eligible) for pot in view.pots]
        ((4, 0, 0), [(6, (0, 1, 2))])
        """
        if self.is_over:
            return tuple(build_pots(self.contributed, [not folded for folded in self.folded]))
        collected = [put - bet for put, bet in zip(self.contributed, self.bets, strict=True)]
        return tuple(build_pots(collected, [not folded for folded in self.folded]))


class Hand(ABC):
    """One hand of a game. Subclasses implement the rules; this class the contract.

    The chips are kept here, the same way for every game: ``_stacks`` behind
    each seat, ``contributed`` (what each seat has in the middle this hand),
    ``all_in`` and ``folded``; :meth:`_put_in` is the one way chips go in.
    """

    game: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10

    def __init__(self, stacks: Sequence[int]) -> None:
        if not self.min_players <= len(stacks) <= self.max_players:
            raise InvalidSpec(
                "player_count",
                f"{self.game} takes {self.min_players} to {self.max_players} players, "
                f"not {len(stacks)}",
            )
        for stack in stacks:
            # A seat with no chips cannot be dealt in: the table sits it out.
            if type(stack) is not int or stack < 1:
                raise InvalidSpec(
                    "bad_stack",
                    f"every seat in a hand needs a whole number of chips >= 1, not {stack!r}",
                )
        self.starting_stacks: tuple[int, ...] = tuple(stacks)
        #: Number of seats in the hand.
        self.players = n = len(self.starting_stacks)
        self.to_act: int | None = None
        self.is_over = False
        #: Set when the engine failed inside an accepted action: the hand takes no more.
        self.fault: EngineFault | None = None
        self._events: list[Event] = []
        #: Every accepted action in order, as ``(seat, action)``: with the spec,
        #: the stacks and the dealt cards it replays the hand exactly.
        self.actions: list[tuple[int, Action]] = []
        self._stacks = list(stacks)
        #: Everything each seat has in the middle this hand.
        self.contributed = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        # Each seat's cards and who is shown them: a game deals and shows through
        # ``_hold``, and every view's cards are ``shown_to`` of them, kept for
        # each viewer until a card is dealt or shown (a view costs a lookup).
        self._held = [Holding.owned(seat) for seat in range(n)]
        self._shown: dict[Viewer, tuple[tuple[Card | None, ...], ...]] = {}

    # ------------------------------------------------------------ queries

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, unfiltered (server-side only: hidden cards included)."""
        return tuple(self._events)

    @property
    def event_count(self) -> int:
        """How many events the hand has emitted: a cursor for :meth:`events_for`."""
        return len(self._events)

    def events_from(self, start: int) -> list[Event]:
        """Every event from index ``start`` on, unfiltered (server-side only).

        What a caller following the hand with a cursor reads after each action,
        at the cost of the new events alone.
        """
        return self._events[start:]

    def events_for(self, seat: Viewer, start: int = 0) -> list[Event]:
        """Events from index ``start`` on, as ``seat`` may see them."""
        self._check_viewer(seat)
        shown: list[Event] = []
        for event in self._events[start:]:
            visible = shown_to(event, seat)
            if visible is not None:
                shown.append(visible)
        return shown

    def cards_for(self, viewer: Viewer) -> tuple[tuple[Card | None, ...], ...]:
        """Each seat's cards as ``viewer`` is shown them: one seat, one person's seats
        (a frozenset) or a spectator (``None``); ``None`` for a card it may not see.

        The cards of :meth:`view`, for a viewer holding several seats too.

        >>> from pokerhouse.games import new_hand
        >>> hand = new_hand("casino-holdem", [100, 100, 100], seed=2)
        >>> both = hand.cards_for(frozenset({0, 2}))
        >>> both[0] == hand.view(0).cards[0] and both[2] == hand.view(2).cards[2]
        True
        >>> hand.cards_for(None)[1]
        (None, None)
        """
        self._check_viewer(viewer)
        return self._cards_for(viewer)

    def _cards_for(self, viewer: Viewer) -> tuple[tuple[Card | None, ...], ...]:
        """:meth:`cards_for` of a checked viewer."""
        shown = self._shown.get(viewer)
        if shown is None:
            shown = self._shown[viewer] = shown_to(self._held, viewer)
        return shown

    def _hold(self, seat: int, holding: Holding) -> None:
        """Seat ``seat``'s cards are now ``holding`` (dealt or shown to more viewers)."""
        self._held[seat] = holding
        self._shown.clear()

    def __getstate__(self) -> dict[str, object]:
        # What each viewer is shown is derived: leave it out so equal hands pickle equal.
        state = self.__dict__.copy()
        state["_shown"] = {}
        return state

    def _check_viewer(self, seat: object) -> None:
        """Refuse a viewer that is neither seats of this hand nor ``None``.

        ``True == 1`` and ``1.0 == 1``: such a value would be shown seat 1's cards.
        """
        check_viewer(seat)
        seats: frozenset[int] | tuple[int, ...] = ()
        if isinstance(seat, int):
            seats = (seat,)
        elif isinstance(seat, frozenset):
            seats = seat
        for one in seats:
            if not 0 <= one < self.players:
                raise InvalidAction(
                    "bad_seat", f"{one!r} is not a seat of this hand (0 to {self.players - 1})"
                )

    def setup(self) -> dict[str, Any]:
        """Keyword arguments, beyond spec, stacks and deck, that re-create this hand.

        JSON-ready; hand histories store them so a replay starts the same way.
        """
        return {}

    @abstractmethod
    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (empty when nobody is to act)."""

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now; ``None`` for a spectator."""
        self._check_viewer(seat)
        if type(seat) is not int and seat is not None:
            raise InvalidAction("bad_seat", f"a view is for one seat or a spectator, not {seat!r}")
        return self._view(seat)

    @abstractmethod
    def _view(self, seat: int | None) -> View:
        """The view of a checked viewer."""

    def own_cards(self, seat: int) -> tuple[tuple[Card | None, ...], tuple[Card, ...]]:
        """``seat``'s own cards as it sees them (``None``: one it may not see yet) and the
        board: what names its hand, without the rest of a view.

        The same as ``view(seat).cards[seat]`` and ``view(seat).board``; a room asks it for
        every seat whenever cards fall.

        >>> from pokerhouse.games import new_hand
        >>> hand = new_hand("3x4", [100, 100], seed=1)
        >>> hand.own_cards(0) == (hand.view(0).cards[0], hand.view(0).board)
        True
        """
        self._check_viewer(seat)
        if type(seat) is not int:
            raise InvalidAction("bad_seat", f"own cards are a seat's, not {seat!r}")
        return self._own_cards(seat)

    def _own_cards(self, seat: int) -> tuple[tuple[Card | None, ...], tuple[Card, ...]]:
        """:meth:`own_cards` of a checked seat (a game may answer without a whole view)."""
        view = self._view(seat)
        return view.cards[seat], view.board

    def _legal_for(self, seat: int | None) -> LegalActions:
        """The legal actions a view shows: only to the seat to act."""
        if seat is not None and seat == self.to_act:
            return self.legal_actions()
        return NO_ACTIONS

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind each seat now (not counting what is in the middle)."""
        return tuple(self._stacks)

    @property
    def pot_total(self) -> int:
        """Every chip in the middle now."""
        return sum(self.contributed)

    @property
    def past_first_round(self) -> bool:
        """Whether the hand went past its first betting round (where a room may rake)."""
        return False

    def results(self) -> tuple[int, ...]:
        """Each seat's chip change over the hand (only once it is over)."""
        if not self.is_over:
            raise IllegalAction("hand_not_over", "the hand is not over yet")
        return tuple(a - b for a, b in zip(self._stacks, self.starting_stacks, strict=True))

    # ------------------------------------------------------------ the one way in

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for the seat to act (``seat``, if given, must be it).

        Returns the events it caused. Raises :class:`OutOfTurn`,
        :class:`IllegalAction` or :class:`InvalidAction` and changes nothing
        when the action is not allowed; :class:`EngineFault` when the hand is
        broken.
        """
        if self.fault is not None:
            raise self.fault
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            self._check_viewer(seat)
        if self.is_over:
            raise IllegalAction("hand_over", "the hand is over")
        if seat is not None and seat != self.to_act:
            raise OutOfTurn(
                "out_of_turn", f"it is seat {self.to_act}'s turn to act, not seat {seat}'s"
            )
        checked = self.legal_actions().check(action)
        start = len(self._events)
        acting = self.to_act
        assert acting is not None
        try:
            self._apply(checked)
        except Exception as error:
            # The action was legal, so this is the engine's own failure: the hand
            # may be half-changed and must not go on.
            self.fault = EngineFault(
                "engine_fault",
                f"the engine failed applying seat {acting}'s {checked}: "
                f"{type(error).__name__}: {error}",
            )
            self.to_act = None
            raise self.fault from error
        # Recorded only once applied: the log holds what the hand really did.
        self.actions.append((acting, checked))
        return tuple(self._events[start:])

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a validated action and run on to the next decision."""

    # ------------------------------------------------------------ shared moves

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _put_in(self, seat: int, amount: int) -> int:
        """Move ``amount`` chips from the seat's stack to the middle; returns it."""
        stacks = self._stacks
        stacks[seat] -= amount
        self.contributed[seat] += amount
        if stacks[seat] == 0:
            self.all_in[seat] = True
        return amount

    def _finish(self) -> None:
        """End the hand: nothing is in the middle any more; emit the results."""
        self.to_act = None
        self.is_over = True
        self._before_end()
        self.contributed = [0] * self.players
        self._emit(HandEnded(net=self.results(), stacks=self.stacks))

    def _before_end(self) -> None:  # noqa: B027 - a hook most games leave empty
        """A game's last step before :class:`HandEnded` (the house's result, say)."""
