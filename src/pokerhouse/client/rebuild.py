"""The engine's :class:`~pokerhouse.engine.hand.View` of a seat, rebuilt from a snapshot.

A room's ``snapshot`` (``pokerhouse.server.table.views.table_view``) is in table
seats and JSON; a house bot decides from the engine's view, in hand seats.
:func:`rebuild_view` turns the one into the other: the hand's seat order
(``hand.hand_seats``), each seat's stack, bet, chips put in, cards and flags,
the game's facts, and the legal actions from the seat's own decision. For a
viewer holding one seat the result equals the engine's ``hand.view(seat)``
field by field (a viewer holding several Casino Hold'em boxes sees each of
its boxes' cards in every box's view: it knows them all).

>>> import random
>>> from pokerhouse.server.table.views import table_view
>>> from pokerhouse.table import Sit, StartHand, Table
>>> table = Table("razz", seats=3, rng=random.Random(4))
>>> _ = table.apply(Sit(0, "Ann", 100)); _ = table.apply(Sit(2, "Bob", 100))
>>> _ = table.apply(StartHand())
>>> snapshot = table_view(table, frozenset({2}))
>>> rebuild_view(snapshot, 2) == table.hand.view(table.hand_seat(2))
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind, LegalAction, LegalActions
from pokerhouse.engine.hand import NO_ACTIONS, RoundView, View
from pokerhouse.errors import InvalidAction
from pokerhouse.games.casino_holdem.hand import CallOrFold
from pokerhouse.games.casino_holdem.view import CasinoHoldemView
from pokerhouse.games.teen_patti.view import TeenPattiView

#: Kinds offered without chips behind them: the engine sets no stack limit for these.
_ANSWERS = frozenset({ActionKind.SHOW_HAND, ActionKind.MUCK, ActionKind.ACCEPT, ActionKind.DECLINE})


def rebuild_view(snapshot: Mapping[str, Any], seat: int | None) -> View:
    """The engine's view of table seat ``seat`` (``None``: a spectator's) from ``snapshot``.

    ``snapshot`` is a ``snapshot`` message's ``view`` as the viewer received
    it; its running hand must include ``seat`` (else ``InvalidAction``
    ``not_in_hand``). The legal actions come from the seat's decision in
    ``hand.mine``: empty unless the seat is to act.
    """
    hand = snapshot.get("hand")
    if not hand:
        raise InvalidAction("no_hand", "the snapshot shows no hand running")
    places: list[int] = list(hand["hand_seats"])
    if seat is not None and seat not in places:
        raise InvalidAction("not_in_hand", f"table seat {seat} is not in the hand")
    index = None if seat is None else places.index(seat)
    entries = [snapshot["seats"][place] for place in places]
    facts = hand["facts"]

    def column(name: str) -> tuple[Any, ...]:
        return tuple(entry[name] for entry in entries)

    to_act = hand["to_act"]
    common: dict[str, Any] = {
        "game": snapshot["game"],
        "seat": index,
        "street": hand["street"],
        "stacks": column("stack"),
        "bets": column("bet"),
        "contributed": column("contributed"),
        "cards": tuple(_cards(entry["cards"]) for entry in entries),
        "board": tuple(Card.parse(text) for text in hand["board"]),
        "folded": column("folded"),
        "all_in": column("all_in"),
        "to_act": None if to_act is None else places.index(to_act),
        "legal": NO_ACTIONS,
        "is_over": False,
    }
    game = snapshot["game"]
    if game == "teen-patti":
        sideshow = facts["sideshow"]
        view: View = TeenPattiView(
            **common,
            stake=facts["stake"],
            seen=column("seen"),
            limit=facts["limit"],
            show_cost=facts["show_cost"],
            sideshow_cost=facts["sideshow_cost"],
            sideshow=None
            if sideshow is None
            else (places.index(sideshow[0]), places.index(sideshow[1])),
            bets_made=column("bets_made"),
            bets_since_seen=column("bets_since_seen"),
        )
    elif game == "casino-holdem":
        antes = column("ante")
        view = CasinoHoldemView(
            **common,
            antes=antes,
            bonuses=column("bonus"),
            called=column("called"),
            dealer_cards=_cards(facts["dealer_cards"]),
            dealer_qualifies=facts["dealer_qualifies"],
            call_amount=None if index is None else 2 * antes[index],
            max_payout=facts["max_payout"],
            house_result=facts["house_result"],
        )
    else:
        bring_in = facts["bring_in"]
        view = RoundView(
            **common,
            current_bet=facts["current_bet"],
            bets_and_raises=facts["bets_and_raises"],
            face_up=tuple(tuple(entry["face_up"]) for entry in entries),
            bring_in=None if bring_in is None else places.index(bring_in),
        )
    if seat is not None:
        own = hand["mine"].get(str(seat)) or {}
        decision = own.get("decision")
        if decision is not None and view.to_act == index:
            view.legal = rebuild_legal(view, decision["actions"])
    return view


def rebuild_legal(view: View, options: Sequence[Mapping[str, Any]]) -> LegalActions:
    """The engine's legal actions for ``view``'s seat from a decision's ``actions`` list.

    The kinds and bounds are the decision's; the stack limit and a call's
    total follow from the view as the engine works them out.
    """
    actions = tuple(
        LegalAction(ActionKind(option["kind"]), option.get("min"), option.get("max"))
        for option in options
    )
    seat = view.seat
    assert seat is not None
    stack = view.stacks[seat]
    if isinstance(view, CasinoHoldemView):
        need = 2 * view.antes[seat]
        return CallOrFold(actions, stack_limit=stack, call_amount=need, stack=stack)
    if not actions or _ANSWERS.issuperset(action.kind for action in actions):
        return LegalActions(actions)
    if isinstance(view, TeenPattiView) or ActionKind.BRING_IN in {a.kind for a in actions}:
        return LegalActions(actions, stack_limit=stack)
    assert isinstance(view, RoundView)
    bet = view.bets[seat]
    to_call = view.current_bet - bet
    call_total = None if to_call <= 0 else bet + min(to_call, stack)
    return LegalActions(actions, stack_limit=bet + stack, call_total=call_total)


def _cards(texts: Sequence[str | None]) -> tuple[Card | None, ...]:
    return tuple(None if text is None else Card.parse(text) for text in texts)
