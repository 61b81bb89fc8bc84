"""What a Teen Patti hand knows and allows: stake, minimums, legal actions, views.

The state is kept apart from the moves (in :mod:`.hand`) so that every
question (what may the seat on turn do, what may a seat see) is answered in
one place, and every change happens in the other.

>>> import random
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games.teen_patti.hand import TeenPattiHand
>>> hand = TeenPattiHand(TeenPattiSpec(ante=5, limit="pot-limit"), [100, 100, 3],
...                      Deck(random.Random(2)))
>>> hand.pot_total, hand.all_in, hand.bet_minimum(0)
(13, [False, False, True], 5)
>>> [str(a) for a in hand.legal_actions()]
['fold', 'look', 'bet 5-13']
>>> hand.view(0).cards[0], hand.view(0).extra["seen_min"]
((None, None, None), 10)
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.events import Event
from pokerhouse.engine.hand import NO_ACTIONS, Hand, View
from pokerhouse.engine.pots import Pot
from pokerhouse.errors import IllegalAction, InvalidSpec
from pokerhouse.games.teen_patti.pots import teen_patti_pots
from pokerhouse.games.teen_patti.spec import TeenPattiSpec

_FOLD = LegalAction(ActionKind.FOLD)
_LOOK = LegalAction(ActionKind.LOOK)
_SHOW = LegalAction(ActionKind.SHOW)
_SIDESHOW = LegalAction(ActionKind.SIDESHOW)
_ANSWERS = LegalActions((LegalAction(ActionKind.ACCEPT), LegalAction(ActionKind.DECLINE)))


class TeenPattiState(Hand):
    """A Teen Patti hand's state and every question about it; no transitions.

    :class:`~pokerhouse.games.teen_patti.hand.TeenPattiHand` adds the moves.
    Seat 0 is the first seat left of the dealer. There are no betting rounds,
    so a view's ``bets`` are what each seat has put in over the whole hand.
    ``view(seat).extra`` holds ``stake``, ``blind_min`` and ``seen_min`` (the
    least a blind and a seen bet), ``seen`` (per seat), ``all_in`` (per seat),
    ``limit``, ``show_cost`` and ``sideshow_cost`` (for the seat to act, ``None``
    when it may not ask) and ``sideshow`` (``(asker, target)`` while one awaits
    an answer).
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
        self._stacks = list(stacks)
        #: Everything each seat has put in this hand, antes included.
        self.contributed = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        #: Whether each seat has looked at its cards (is a seen player).
        self.seen = [False] * n
        #: Whether each seat's cards were shown to everybody (show or showdown).
        self.revealed = [False] * n
        self.cards: list[tuple[Card, ...]] = [() for _ in range(n)]
        #: The current stake: the least a blind player bets (a seen one bets twice it).
        self.stake = spec.ante
        #: ``(asker, target)`` while a sideshow waits for the target's answer.
        self.sideshow: tuple[int, int] | None = None
        # ``(viewer, owner)`` pairs: cards shown privately in an accepted sideshow.
        self._shown_privately: list[tuple[int, int]] = []

    # ---------------------------------------------------------------- queries

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    @property
    def pot_total(self) -> int:
        """All chips in the middle."""
        return sum(self.contributed)

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
        return 2 * self.stake if self.seen[seat] else self.stake

    def show_cost(self, seat: int) -> int:
        """What a show costs ``seat``: the stake blind, twice the stake seen (or all it has)."""
        return min(self.bet_minimum(seat), self._stacks[seat])

    def sideshow_target(self, seat: int) -> int | None:
        """The previous player still taking turns, counter-clockwise from ``seat``."""
        for offset in range(1, self.players):
            other = (seat - offset) % self.players
            if self.can_act(other):
                return other
        return None

    def legal_actions(self) -> LegalActions:
        seat = self.to_act
        if seat is None or self.is_over:
            return NO_ACTIONS
        if self.sideshow is not None:
            return _ANSWERS
        actions = [_FOLD]
        if not self.seen[seat]:
            actions.append(_LOOK)
        actions.append(self._bet_bounds(seat))
        if self._refuse_show(seat) is None:
            actions.append(_SHOW)
        if self._refuse_sideshow(seat) is None:
            actions.append(_SIDESHOW)
        return LegalActions(tuple(actions), stack_limit=self._stacks[seat])

    def _bet_bounds(self, seat: int) -> LegalAction:
        stack = self._stacks[seat]
        low = self.bet_minimum(seat)
        if stack <= low:
            # Short of a minimum: the only bet is all of it.
            return LegalAction(ActionKind.BET, stack, stack)
        high = stack
        if self.spec.limit is Limit.POT_LIMIT:
            # The minimum is always allowed, even in the rare case (short antes)
            # where it is more than the pot.
            high = min(stack, max(low, self.pot_total))
        return LegalAction(ActionKind.BET, low, high)

    def _refuse_show(self, seat: int) -> IllegalAction | None:
        """Why ``seat`` may not ask for a show now, or ``None`` if it may."""
        players = self.in_hand()
        if len(players) != 2:
            return IllegalAction(
                "show_needs_two_players",
                f"a show needs exactly two players left, not {len(players)}",
            )
        other = players[0] if players[1] == seat else players[1]
        if self.seen[seat] and not self.seen[other]:
            return IllegalAction(
                "show_against_blind",
                f"a seen player may not ask blind seat {other} for a show: bet or fold",
            )
        return None

    def _refuse_sideshow(self, seat: int) -> IllegalAction | None:
        """Why ``seat`` may not ask for a sideshow now, or ``None`` if it may."""
        if not self.spec.sideshow:
            return IllegalAction("sideshow_disabled", "sideshows are off at this table")
        if not self.seen[seat]:
            return IllegalAction("sideshow_needs_seen", "only a seen player may ask: look first")
        players = len(self.in_hand())
        if players < 3:
            return IllegalAction(
                "sideshow_needs_three_players",
                f"a sideshow needs three or more players in, not {players}",
            )
        target = self.sideshow_target(seat)
        if target is None or not self.seen[target]:
            return IllegalAction(
                "sideshow_against_blind",
                f"the previous player, seat {target}, is blind: a sideshow needs a seen player",
            )
        return None

    def view(self, seat: int | None) -> View:
        cards = tuple(
            tuple(card if self._sees(seat, owner) else None for card in self.cards[owner])
            for owner in range(self.players)
        )
        legal = self.legal_actions() if seat is not None and seat == self.to_act else NO_ACTIONS
        return View(
            game=self.game,
            seat=seat,
            street=None,
            stacks=self.stacks,
            bets=tuple(self.contributed),
            pot=self.pot_total,
            pots=tuple(self.pots()),
            cards=cards,
            board=(),
            folded=tuple(self.folded),
            to_act=self.to_act,
            legal=legal,
            is_over=self.is_over,
            events=tuple(self.events_for(seat)),
            extra=self._view_extra(),
        )

    def _sees(self, viewer: int | None, owner: int) -> bool:
        if self.revealed[owner]:
            return True
        if viewer is None:
            return False
        return (viewer == owner and self.seen[owner]) or (viewer, owner) in self._shown_privately

    def _view_extra(self) -> dict[str, object]:
        return {
            "stake": self.stake,
            "blind_min": self.stake,
            "seen_min": 2 * self.stake,
            "seen": tuple(self.seen),
            "all_in": tuple(self.all_in),
            "limit": self.spec.limit.value,
            "show_cost": self._cost_if_allowed(ActionKind.SHOW),
            "sideshow_cost": self._cost_if_allowed(ActionKind.SIDESHOW),
            "sideshow": self.sideshow,
        }

    def _cost_if_allowed(self, kind: ActionKind) -> int | None:
        """What a show or sideshow would cost the seat to act, if it may ask for one now."""
        seat = self.to_act
        if seat is None or kind not in self.legal_actions():
            return None
        return self.show_cost(seat)

    # ---------------------------------------------------------------- the one way in

    def act(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for the seat to act; see :meth:`Hand.act`.

        An action the rules name a reason against is refused with that reason's
        code (``show_against_blind``, ``already_seen``, ``sideshow_disabled``...)
        rather than a generic ``action_not_allowed``.
        """
        if not self.is_over and (seat is None or seat == self.to_act):
            refusal = self._refuse(action)
            if refusal is not None:
                raise refusal
        return super().act(action, seat)

    def _refuse(self, action: object) -> IllegalAction | None:
        seat = self.to_act
        if seat is None or not isinstance(action, Action):
            return None
        kind = action.kind
        if kind in self.legal_actions():
            return None
        if self.sideshow is not None:
            return IllegalAction(
                "sideshow_pending",
                f"seat {self.sideshow[0]} asked for a sideshow: accept or decline",
            )
        if kind in (ActionKind.ACCEPT, ActionKind.DECLINE):
            return IllegalAction("no_sideshow", f"there is no sideshow to {kind.value}")
        if kind is ActionKind.LOOK:
            return IllegalAction("already_seen", f"seat {seat} has already looked")
        if kind is ActionKind.SHOW:
            return self._refuse_show(seat)
        if kind is ActionKind.SIDESHOW:
            return self._refuse_sideshow(seat)
        return None
