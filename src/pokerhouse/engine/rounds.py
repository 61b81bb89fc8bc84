"""Hands played in betting rounds (streets): the shared engine of 3x4 Poker and Razz.

A game subclass says what each street deals, who opens it, how big the bets
are and how hands compare; this class runs antes, dealing, betting (with
all-in, short all-ins that do not reopen, caps and returned bets), side pots,
the showdown in the rule book's order and the awards.

The betting round itself (the legal bets, applying one, the round's end) is
:class:`~pokerhouse.engine.betting_round.BettingRound`, this class's base;
here are the streets, the cards, the views and the showdown.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.betting_round import BettingRound, Sized, betting_legal
from pokerhouse.engine.events import (
    AntePosted,
    BoardDealt,
    CardBurned,
    CardsDealt,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    StreetStarted,
)
from pokerhouse.engine.hand import NO_ACTIONS, RoundView
from pokerhouse.engine.pots import Pot, award_pot, build_pots
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import InvalidSpec

__all__ = ["DealtCards", "RoundHand", "Sized", "Street", "betting_legal"]

_SHOWDOWN_CHOICE = LegalActions((LegalAction(ActionKind.SHOW_HAND), LegalAction(ActionKind.MUCK)))
# An enum member read once: a class attribute lookup costs more than a global's.
_K_SHOW_HAND = ActionKind.SHOW_HAND


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


#: The view's tuples of the board, which cards are face up, and the street's name.
DealtCards = tuple[tuple[Card, ...], tuple[tuple[bool, ...], ...], str | None]


@dataclass(frozen=True, slots=True)
class Street:
    """What one street deals before its betting round."""

    name: str
    down: int = 0
    up: int = 0
    board: int = 0
    burn: bool = False
    big_bet: bool = False


class RoundHand(BettingRound):
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
        self.bets = [0] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.revealed = [False] * n
        self.street_index = -1
        # Betting-round state (what each field means: BettingRound).
        self.current_bet = 0
        self.last_raise = 0
        self.bet_size = 0
        self.raises = 0
        self.bets_and_raises = 0
        self.needs_action = [False] * n
        self.can_raise = [False] * n
        self.bet_faced = [0] * n
        self.last_aggressor: int | None = None
        # Showdown state (only while a manual show-or-muck decision is pending).
        self._showdown_queue: list[int] = []
        self._shown_values: dict[int, int] = {}
        self._values: dict[int, int] = {}
        self._everyone_shows = False
        self._pots: list[Pot] = []
        self._legal: LegalActions | None = None
        # The board, which cards are face up and the street's name: the same
        # tuples for every view until a card is dealt.
        self._dealt: DealtCards | None = None

    # ---------------------------------------------------------------- hooks
    # (and BettingRound's: the bet size and the cap)

    @abstractmethod
    def _first_to_act(self) -> int:
        """Seat that opens this street's betting (it may be unable to act)."""

    @abstractmethod
    def _hand_value(self, seat: int) -> int:
        """The seat's showdown value: higher wins."""

    @abstractmethod
    def _describe(self, seat: int) -> str:
        """The seat's showdown hand in words."""

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
            deck, held, holdings, hold = self.deck, self.cards, self._held, self._hold
            down = street.down
            # One card at a time round the live seats: the down cards, then the up ones.
            for _ in range(dealt):
                for seat in live:
                    held[seat].append(deck.deal(seat))
            # So each seat's new cards are ``down`` down cards then the up ones.
            pattern = (False,) * down + (True,) * street.up
            emit = self._events.append
            for seat in live:
                new = tuple(held[seat][-dealt:])
                hold(seat, holdings[seat].dealt(new, pattern))
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
    def face_up(self) -> tuple[tuple[bool, ...], ...]:
        """Which of each seat's cards were dealt face up.

        >>> from pokerhouse.games import new_hand
        >>> new_hand("razz", [50, 50], seed=1).face_up
        ((False, False, True), (False, False, True))
        """
        return tuple([held.face_up for held in self._held])

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
        # The caches are derived state: leave them out so equal hands pickle equal.
        state = super().__getstate__()
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

    def _view(self, seat: int | None) -> RoundView:
        dealt = self._dealt
        if dealt is None:
            street = self.street
            dealt = self._dealt = (
                tuple(self.board),
                self.face_up,
                street.name if street is not None else None,
            )
        board, face_up, street_name = dealt
        cards = self._cards_for(seat)
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

    def _own_cards(self, seat: int) -> tuple[tuple[Card | None, ...], tuple[Card, ...]]:
        # The seat's own holding alone; the board is the view's (shared, cached) one.
        dealt = self._dealt
        board = dealt[0] if dealt is not None else tuple(self.board)
        return shown_to(self._held[seat], seat), board

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

    def _live(self) -> list[int]:
        return [seat for seat in range(self.players) if not self.folded[seat]]

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

    def _apply(self, action: Action) -> None:
        self._legal = None
        if self._showdown_queue:
            self._showdown_choice(action.kind is _K_SHOW_HAND)
            return
        seat = self.to_act
        assert seat is not None
        self._apply_bet(seat, action)
        self._after_action(seat)

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
        self._hold(seat, self._held[seat].shown())
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
