"""The base of every game's hand: one checked way in (:meth:`Hand.act`), events out.

A hand runs every step that needs no decision by itself and stops where a
decision is due: :attr:`Hand.to_act` names the seat and
:meth:`Hand.legal_actions` says what it may do. :meth:`Hand.act` validates
first and only then changes anything, so a rejected action leaves the hand
exactly as it was.

Seats are numbered clockwise from 0, the first seat left of the button (the
button is the last seat), so "clockwise from the dealer" is simply seat order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action, LegalActions
from pokerhouse.engine.events import Event, for_seat
from pokerhouse.engine.pots import Pot
from pokerhouse.errors import IllegalAction, InvalidAction, InvalidSpec, OutOfTurn

NO_ACTIONS = LegalActions(())


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator, ``seat=None``) may know about a hand.

    ``cards[s]`` holds seat ``s``'s cards as this viewer sees them: ``None``
    for a card it may not see. Game-specific facts (Teen Patti's stake, a
    player's blind or seen state) are in ``extra``.
    """

    game: str
    seat: int | None
    street: str | None
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    pot: int
    pots: tuple[Pot, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    board: tuple[Card, ...]
    folded: tuple[bool, ...]
    to_act: int | None
    legal: LegalActions
    is_over: bool
    events: tuple[Event, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def my_cards(self) -> tuple[Card | None, ...]:
        """The viewer's own cards as it sees them (empty for a spectator)."""
        return () if self.seat is None else self.cards[self.seat]


class Hand(ABC):
    """One hand of a game. Subclasses implement the rules; this class the contract."""

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
        self.players = len(self.starting_stacks)
        self.to_act: int | None = None
        self.is_over = False
        self._events: list[Event] = []
        #: Every accepted action in order, as ``(seat, action)``: with the spec,
        #: the stacks and the dealt cards it replays the hand exactly.
        self.actions: list[tuple[int, Action]] = []

    # ------------------------------------------------------------ queries

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event so far, unfiltered (server-side only: hidden cards included)."""
        return tuple(self._events)

    def events_for(self, seat: int | None, start: int = 0) -> list[Event]:
        """Events from index ``start`` as ``seat`` may see them."""
        self._check_viewer(seat)
        shown: list[Event] = []
        for event in self._events[start:]:
            visible = for_seat(event, seat)
            if visible is not None:
                shown.append(visible)
        return shown

    def _check_viewer(self, seat: object) -> None:
        """Refuse a viewer that is neither a seat number of this hand nor ``None``.

        ``True == 1`` and ``1.0 == 1``: such a value would be shown seat 1's cards.
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            raise InvalidAction(
                "bad_seat", f"{seat!r} is not a seat of this hand (0 to {self.players - 1})"
            )

    def setup(self) -> dict[str, Any]:
        """Keyword arguments, beyond spec, stacks and deck, that re-create this hand.

        JSON-ready; hand histories store them so a replay starts the same way.
        """
        return {}

    @abstractmethod
    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (empty when nobody is to act)."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now; ``None`` for a spectator."""

    @property
    @abstractmethod
    def stacks(self) -> tuple[int, ...]:
        """Chips behind each seat now (not counting what is in the middle)."""

    def results(self) -> tuple[int, ...]:
        """Each seat's chip change over the hand (only once it is over)."""
        if not self.is_over:
            raise IllegalAction("hand_not_over", "the hand is not over yet")
        return tuple(a - b for a, b in zip(self.stacks, self.starting_stacks, strict=True))

    # ------------------------------------------------------------ the one way in

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for the seat to act (``seat``, if given, must be it).

        Returns the events it caused. Raises :class:`OutOfTurn`,
        :class:`IllegalAction` or :class:`InvalidAction` and changes nothing
        when the action is not allowed.
        """
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
        self.actions.append((acting, checked))
        self._apply(checked)
        return tuple(self._events[start:])

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a validated action and run on to the next decision."""

    def _emit(self, event: Event) -> None:
        self._events.append(event)
