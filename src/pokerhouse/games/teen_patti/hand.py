"""One hand of Teen Patti: blind and seen players taking turns round and round.

There are no betting rounds and no equalising. Each turn the player on turn
folds, bets, looks at their cards (a blind player; the turn stays with them),
pays for a show (two players left) or asks for a sideshow (an option). The
hand ends when one player is left, at a show, or when at most one player can
still bet (the others all-in): then every remaining hand is shown. What a
player put in above every other seat that an all-in kept anyone from
matching is returned then, as an uncalled bet (``BetReturned``), not won.

The seed's worked example: A, B, C and D (seats 0 to 3, D deals)
ante 1 each.

>>> from pokerhouse.cards import Deck
>>> from pokerhouse.engine.actions import Action
>>> deck = Deck.stacked("As 2c 3c 7h  Kd 2d 3d 7s  9c 5h 8h 2s")
>>> hand = TeenPattiHand(TeenPattiSpec(ante=1), [100] * 4, deck)
>>> for text in ("bet 1", "look", "fold", "bet 1", "look", "bet 2"):  # A, B, B, C, D, D
...     _ = hand.act(Action.parse(text))
>>> hand.stake, hand.pot_total
(1, 8)
>>> _ = hand.act(Action.bet(2))  # A raises the stake blind
>>> hand.stake, hand.to_act, [str(a) for a in hand.legal_actions()]
(2, 2, ['fold', 'look', 'bet 2-98'])
>>> for text in ("look", "fold", "bet 4", "look", "show"):  # C, C, D, A, A
...     _ = hand.act(Action.parse(text))
>>> hand.is_over, hand.results()
(True, (-8, -1, -2, 11))
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse import evaluate
from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind, LegalActions
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    CardsDealt,
    Event,
    HandShown,
    HandStarted,
    PotAwarded,
)
from pokerhouse.engine.hand import Hand
from pokerhouse.engine.pots import Pot, award_pot
from pokerhouse.engine.visibility import Holding, shown_to
from pokerhouse.errors import InvalidSpec
from pokerhouse.games.teen_patti import legal
from pokerhouse.games.teen_patti.events import CardsLooked, SideshowCompared, StakeRaised
from pokerhouse.games.teen_patti.pots import teen_patti_pots
from pokerhouse.games.teen_patti.spec import TeenPattiSpec
from pokerhouse.games.teen_patti.view import TeenPattiView

_SHOW, _SIDESHOW = ActionKind.SHOW, ActionKind.SIDESHOW

HAND_SIZE = 3


class TeenPattiHand(Hand):
    """One hand of 3 Card Poker (Teen Patti): ``TeenPattiHand(spec, stacks, deck)``.

    A bet's amount is the chips it puts in. Every seat needs chips (the table
    sits out an empty stack). The hand is a pure function of the spec, the
    stacks, the deck order and the actions. Seat 0 is the first seat left of
    the dealer; what the seat on turn may do is decided in :mod:`.legal`.
    """

    game = "teen-patti"
    min_players = 2
    max_players = 10

    def __init__(
        self, spec: TeenPattiSpec, stacks: Sequence[int], deck: Deck | None = None
    ) -> None:
        if not isinstance(spec, TeenPattiSpec):
            raise InvalidSpec("bad_spec", f"Teen Patti needs a TeenPattiSpec, not {spec!r}")
        super().__init__(stacks)
        n = self.players
        self.spec = spec
        self.deck = deck if deck is not None else Deck()
        #: Whether each seat has looked at its cards (is a seen player).
        self.seen = [False] * n
        #: Whether each seat's cards were shown to everybody (show or showdown).
        self.revealed = [False] * n
        self.cards: list[tuple[Card, ...]] = [() for _ in range(n)]
        #: The current stake: the least a blind player bets (a seen one bets twice it).
        self.stake = spec.ante
        #: ``(asker, target)`` while a sideshow waits for the target's answer.
        self.sideshow: tuple[int, int] | None = None
        #: Bets each seat has made this hand, and those since it looked.
        self.bets_made = [0] * n
        self.bets_since_seen = [0] * n
        # Nobody, not even the owner, sees a seat's cards until it looks.
        self._held = [Holding(frozenset())] * n
        self._legal: LegalActions | None = None
        self._start()

    # ---------------------------------------------------------------- queries

    @property
    def past_first_round(self) -> bool:
        # No betting rounds: the first round of turns is over once every seat has acted.
        acted = {seat for seat, action in self.actions if action.kind is not ActionKind.LOOK}
        return len(acted) == self.players

    def pots(self) -> list[Pot]:
        """Main and side pots as they stand (side pots only at all-in levels)."""
        return teen_patti_pots(self.contributed, [not f for f in self.folded], self.all_in)

    def in_hand(self) -> list[int]:
        """Seats that have not folded, all-in players included."""
        return [seat for seat in range(self.players) if not self.folded[seat]]

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` still takes turns: neither folded nor all-in."""
        return not self.folded[seat] and not self.all_in[seat]

    def bet_minimum(self, seat: int) -> int:
        """The least ``seat`` must bet: the stake blind, twice the stake seen."""
        return legal.bet_minimum(self, seat)

    def show_cost(self, seat: int) -> int:
        """What a show costs ``seat``: the stake blind, twice the stake seen (or all it has)."""
        return legal.show_cost(self, seat)

    def sideshow_target(self, seat: int) -> int | None:
        """The previous player still taking turns, counter-clockwise from ``seat``."""
        return legal.sideshow_target(self, seat)

    def legal_actions(self) -> LegalActions:
        # Cached per decision point: bots and ``act`` both ask for it.
        cached = self._legal
        if cached is None:
            cached = self._legal = legal.legal_actions(self)
        return cached

    def __getstate__(self) -> dict[str, object]:
        # The caches are derived state: leave them out so equal hands pickle equal.
        state = super().__getstate__()
        state["_legal"] = None
        return state

    def _own_cards(self, seat: int) -> tuple[tuple[Card | None, ...], tuple[Card, ...]]:
        return shown_to(self._held[seat], seat), ()

    def _view(self, seat: int | None) -> TeenPattiView:
        cards = self._cards_for(seat)
        # What a show or a sideshow would cost the seat to act, where it may ask
        # (legal.cost_if_allowed for each, with the legal actions read once).
        show_cost = sideshow_cost = None
        to_act = self.to_act
        if to_act is not None:
            on_offer = self.legal_actions()
            may_show, may_sideshow = _SHOW in on_offer, _SIDESHOW in on_offer
            if may_show or may_sideshow:
                cost = legal.show_cost(self, to_act)
                show_cost = cost if may_show else None
                sideshow_cost = cost if may_sideshow else None
        return TeenPattiView(
            self.game,
            seat,
            None,
            tuple(self._stacks),
            tuple(self.contributed),
            tuple(self.contributed),
            cards,
            (),
            tuple(self.folded),
            tuple(self.all_in),
            self.to_act,
            self._legal_for(seat),
            self.is_over,
            self.stake,
            tuple(self.seen),
            self.spec.limit.value,
            show_cost,
            sideshow_cost,
            self.sideshow,
            tuple(self.bets_made),
            tuple(self.bets_since_seen),
        )

    # ---------------------------------------------------------------- the one way in

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for the seat to act; see :meth:`Hand.act`.

        An action the rules name a reason against is refused with that reason's
        code (``show_against_blind``, ``already_seen``, ``sideshow_disabled``...)
        rather than a generic ``action_not_allowed``.
        """
        if self.fault is None and not self.is_over and (seat is None or seat == self.to_act):
            reason = legal.refusal(self, action)
            if reason is not None:
                raise reason
        return super().act(action, seat)

    def _apply(self, action: Action) -> None:
        self._legal = None
        try:
            self._move(action)
        finally:
            self._legal = None

    def _move(self, action: Action) -> None:
        seat = self.to_act
        assert seat is not None
        kind = action.kind
        if self.sideshow is not None:
            self._answer_sideshow(seat, action)
        elif kind is ActionKind.LOOK:
            # The turn stays with the player, who now acts as a seen player.
            self.seen[seat] = True
            self.bets_since_seen[seat] = 0
            self._hold(seat, self._held[seat].shown(frozenset({seat})))
            self._emit(CardsLooked(seat=seat, cards=self.cards[seat]))
        elif kind is ActionKind.FOLD:
            self.folded[seat] = True
            self._record(seat, action, 0)
            self._advance(seat)
        elif kind is ActionKind.BET:
            assert action.amount is not None
            self._bet(seat, action)
        elif kind is ActionKind.SHOW:
            self._record(seat, action, self._put_in(seat, self.show_cost(seat)))
            self._show(seat)
        else:
            assert kind is ActionKind.SIDESHOW
            target = self.sideshow_target(seat)
            assert target is not None
            # A sideshow is a seen bet of the minimum with a request attached.
            self._record(seat, action, self._put_in(seat, self.show_cost(seat)))
            self.sideshow = (seat, target)
            self.to_act = target

    def _record(self, seat: int, action: Action, added: int) -> None:
        self._emit(
            ActionTaken(
                seat=seat,
                action=action,
                added=added,
                total=self.contributed[seat],
                all_in=self.all_in[seat],
            )
        )

    def _bet(self, seat: int, action: Action) -> None:
        amount = action.amount
        assert amount is not None
        self._record(seat, action, self._put_in(seat, amount))
        self.bets_made[seat] += 1
        self.bets_since_seen[seat] += 1
        # A blind bet sets the stake to itself, a seen bet to half of itself.
        stake = amount // 2 if self.seen[seat] else amount
        if stake > self.stake:
            self.stake = stake
            self._emit(StakeRaised(stake=stake))
        self._advance(seat)

    def _answer_sideshow(self, seat: int, action: Action) -> None:
        assert self.sideshow is not None
        asker, target = self.sideshow
        self.sideshow = None
        self._record(seat, action, 0)
        if action.kind is ActionKind.ACCEPT:
            # The lower hand folds; on equal hands the one who asked folds.
            asker_wins = self._value(asker) > self._value(target)
            loser = target if asker_wins else asker
            self.folded[loser] = True
            pair = frozenset({asker, target})
            self._hold(asker, self._held[asker].shown(pair))
            self._hold(target, self._held[target].shown(pair))
            self._emit(
                SideshowCompared(
                    asker=asker,
                    target=target,
                    asker_cards=self.cards[asker],
                    target_cards=self.cards[target],
                    loser=loser,
                )
            )
        self._advance(asker)

    # ---------------------------------------------------------------- flow

    def _start(self) -> None:
        """Post antes, deal three cards each face down, and run to the first decision."""
        self._emit(HandStarted(game=self.game, stacks=self.starting_stacks))
        dealt = self.in_hand()
        for seat in dealt:
            amount = self._put_in(seat, min(self.spec.ante, self._stacks[seat]))
            self._emit(AntePosted(seat=seat, amount=amount))
        for _ in range(HAND_SIZE):
            for seat in dealt:
                self.cards[seat] += (self.deck.deal(seat),)
        for seat in dealt:
            # Nobody, not even the owner, sees the cards until the owner looks.
            self._hold(seat, self._held[seat].dealt(self.cards[seat], (False,) * HAND_SIZE))
            self._emit(
                CardsDealt(
                    seat=seat,
                    cards=self.cards[seat],
                    face_up=(False,) * HAND_SIZE,
                    owner_sees=False,
                )
            )
        self._advance(self.players - 1)

    def _advance(self, after: int) -> None:
        """End the hand if it is decided, else pass the turn clockwise from ``after``."""
        self.to_act = None
        players = self.in_hand()
        if len(players) <= 1:
            self._award_uncontested(players)
            return
        if sum(1 for seat in players if not self.all_in[seat]) <= 1:
            self._showdown(players)
            return
        for offset in range(1, self.players + 1):
            seat = (after + offset) % self.players
            if self.can_act(seat):
                self.to_act = seat
                return

    def _value(self, seat: int) -> int:
        return evaluate.teen_patti_value(self.cards[seat])

    def _reveal(self, seat: int) -> None:
        self.revealed[seat] = True
        self._hold(seat, self._held[seat].shown())
        cards = self.cards[seat]
        self._emit(
            HandShown(seat=seat, cards=cards, description=evaluate.teen_patti(cards).description)
        )

    def _award_uncontested(self, players: list[int]) -> None:
        amount = self.pot_total
        if players and amount:
            winner = players[0]
            self._stacks[winner] += amount
            self._emit(PotAwarded(pot=0, amount=amount, winners=(winner,), shares=(amount,)))
        self._finish()

    def _show(self, asker: int) -> None:
        """Both hands are shown; the higher wins, equal hands go to the player who did not pay."""
        first, second = self.in_hand()
        other = second if first == asker else first
        # A blind asker looks only now, after paying.
        self.seen[asker] = True
        self._return_uncalled()
        self._reveal(other)
        self._reveal(asker)
        self._award(show_winner=asker if self._value(asker) > self._value(other) else other)

    def _showdown(self, players: list[int]) -> None:
        """Every remaining hand is shown; each pot goes to the best hand eligible for it."""
        self._return_uncalled()
        for seat in players:
            self._reveal(seat)
        self._award(show_winner=None)

    def _return_uncalled(self) -> None:
        """Give back what a live player put in above every other seat, if no one could match it.

        Without equalising, one pot takes every live player's chips; only an
        all-in level splits it, and a pot above it that a single player alone
        may win holds that player's excess, a bet nobody called. At the show or
        showdown its part above every other seat's chips is returned to its
        bettor (as in every game), not won; chips folded players put in at that
        level stay in it, to be won.
        """
        pots = self.pots()
        if not pots or len(pots[-1].eligible) != 1:
            return
        (top,) = pots[-1].eligible
        others = max(self.contributed[seat] for seat in range(self.players) if seat != top)
        excess = self.contributed[top] - others
        if excess > 0:
            self._stacks[top] += excess
            self.contributed[top] -= excess
            self.all_in[top] = self._stacks[top] == 0
            self._emit(BetReturned(seat=top, amount=excess))

    def _award(self, show_winner: int | None) -> None:
        """Award every pot to the best hand eligible for it, equal hands splitting.

        After a show, ``show_winner`` (decided with the show's tie rule) takes
        every pot it is eligible for.
        """
        values = {seat: self._value(seat) for seat in self.in_hand()}
        for index, pot in enumerate(self.pots()):
            if show_winner is not None and show_winner in pot.eligible:
                winners = [show_winner]
            else:
                best = max(values[seat] for seat in pot.eligible)
                winners = [seat for seat in pot.eligible if values[seat] == best]
            description = evaluate.teen_patti(self.cards[winners[0]]).description
            self._emit(award_pot(index, pot.amount, winners, self._stacks, description))
        self._finish()
