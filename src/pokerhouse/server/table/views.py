"""A table as one viewer may see it, in table seats, ready for JSON.

The engine's views are in hand seats and for one seat at a time; a client
sees the whole table and may hold several seats (Casino Hold'em boxes).
:func:`table_view` takes every card it shows from the engine's one rule
(:meth:`Hand.cards_for <pokerhouse.engine.hand.Hand.cards_for>`, that is
:func:`~pokerhouse.engine.visibility.shown_to` of each seat's cards, for
all the viewer's seats at once) and everything else from the spectator's
view and the viewer's own seats' views, so it can hold no card that rule
would not show that viewer. :func:`decision` is what the
seat to act may do, with the cost of each action and bet presets.

>>> import random
>>> from pokerhouse.table import Sit, StartHand, Table
>>> table = Table("3x4", seats=3, rng=random.Random(2))
>>> _ = table.apply(Sit(0, "Ann", 100)); _ = table.apply(Sit(2, "Bob", 100))
>>> _ = table.apply(StartHand())
>>> view = table_view(table, frozenset({0}))
>>> [seat["player"] if seat else None for seat in view["seats"]]
['Ann', None, 'Bob']
>>> mine, theirs = view["seats"][0]["cards"], view["seats"][2]["cards"]
>>> all(mine), any(theirs)
(True, False)
"""

from __future__ import annotations

import functools
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind, LegalAction
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.games.casino_holdem.view import CasinoHoldemView
from pokerhouse.games.naming import hand_name
from pokerhouse.games.teen_patti.view import TeenPattiView
from pokerhouse.table import Table

#: Kinds whose cost is fixed by the state: the button shows it.
_FIXED_COST = frozenset(
    {ActionKind.CALL, ActionKind.SHOW, ActionKind.SIDESHOW, ActionKind.BRING_IN}
)


def _cards(cards: tuple[Any, ...]) -> list[str | None]:
    return [None if card is None else str(card) for card in cards]


def table_view(table: Table, viewer: frozenset[int]) -> dict[str, Any]:
    """The table for a viewer holding ``viewer`` seats (empty: a spectator)."""
    hand = table.hand
    seats: list[dict[str, Any] | None] = []
    for info in table.seats:
        if info is None:
            seats.append(None)
            continue
        seats.append(
            {
                "seat": info.seat,
                "player": info.player,
                "stack": info.stack,
                "in_hand": info.in_hand,
                "sitting_out": info.sitting_out,
                "leaving": info.leaving,
                "busted": info.busted,
                "ante": info.ante,
                "bonus": info.bonus,
                "bet": 0,
                "contributed": 0,
                "cards": [],
                "face_up": [],
                "folded": False,
                "all_in": False,
            }
        )
    result: dict[str, Any] = {
        "game": table.game,
        "size": table.size,
        "seq": table.seq,
        "hands_played": table.hands_played,
        "button": table.button if not table.banked else None,
        "seats": seats,
        "hand": None,
    }
    if hand is None:
        return result
    places = table.hand_seats
    public = hand.view(None)
    own = {seat: hand.view(index) for index, seat in enumerate(places) if seat in viewer}
    held = frozenset([index for index, seat in enumerate(places) if seat in viewer])
    cards = hand.cards_for(held or None)
    for index, seat in enumerate(places):
        entry = seats[seat]
        assert entry is not None
        entry.update(
            {
                "stack": public.stacks[index],
                "bet": public.bets[index],
                "contributed": public.contributed[index],
                "cards": _cards(cards[index]),
                "folded": public.folded[index],
                "all_in": public.all_in[index],
            }
        )
        if isinstance(public, RoundView):
            entry["face_up"] = list(public.face_up[index])
        if isinstance(public, TeenPattiView):
            entry.update(
                seen=public.seen[index],
                bets_made=public.bets_made[index],
                bets_since_seen=public.bets_since_seen[index],
            )
        if isinstance(public, CasinoHoldemView):
            entry.update(
                ante=public.antes[index], bonus=public.bonuses[index], called=public.called[index]
            )
    to_act = public.to_act
    result["hand"] = {
        "number": table.hand_number,
        "hand_seats": list(places),
        "street": public.street,
        "board": _cards(public.board),
        "pot": public.pot,
        "pots": [
            {"amount": pot.amount, "eligible": [places[s] for s in pot.eligible]}
            for pot in public.pots
        ],
        "to_act": None if to_act is None else places[to_act],
        "facts": _facts(public, places),
        "mine": {
            str(seat): _own(view, places.index(seat), table.spec) for seat, view in own.items()
        },
    }
    return result


def mine(table: Table, viewer: frozenset[int]) -> dict[str, Any]:
    """Only the viewer's own facts in the running hand: ``{seat: {hand_name, decision}}``."""
    hand = table.hand
    if hand is None:
        return {}
    places = table.hand_seats
    to_act = hand.to_act
    game = hand.game
    mine: dict[str, Any] = {}
    for index, seat in enumerate(places):
        if seat not in viewer:
            continue
        if index == to_act:
            mine[str(seat)] = _own(hand.view(index), index, table.spec)
        else:
            # No decision to offer: the hand's name needs only the seat's cards and the board.
            held, board = hand.own_cards(index)
            mine[str(seat)] = {"hand_name": _held_name(game, held, board), "decision": None}
    return mine


def _facts(view: View, places: tuple[int, ...]) -> dict[str, Any]:
    """The game's public facts, seats in table numbers."""
    if isinstance(view, RoundView):
        return {
            "current_bet": view.current_bet,
            "bets_and_raises": view.bets_and_raises,
            "bring_in": None if view.bring_in is None else places[view.bring_in],
        }
    if isinstance(view, TeenPattiView):
        return {
            "stake": view.stake,
            "blind_min": view.blind_min,
            "seen_min": view.seen_min,
            "limit": view.limit,
            "sideshow": None if view.sideshow is None else [places[s] for s in view.sideshow],
            "show_cost": view.show_cost,
            "sideshow_cost": view.sideshow_cost,
        }
    if isinstance(view, CasinoHoldemView):
        return {
            "dealer_cards": _cards(view.dealer_cards),
            "dealer_qualifies": view.dealer_qualifies,
            "max_payout": view.max_payout,
            "house_result": view.house_result,
        }
    return {}


@functools.lru_cache(maxsize=8192)
def _name(game: str, cards: tuple[Card, ...], board: tuple[Card, ...]) -> str | None:
    # A seat's private message repeats its hand's name at every decision: evaluate once.
    return hand_name(game, cards, board)


def _own(view: View, index: int, spec: Any = None) -> dict[str, Any]:
    """What only the seat's owner is told: its hand's name and its decision, if any."""
    name = _held_name(view.game, view.cards[index], view.board)
    chosen = decision(view, spec) if view.to_act == index else None
    return {"hand_name": name, "decision": chosen}


def _held_name(game: str, held: tuple[Card | None, ...], board: tuple[Card, ...]) -> str | None:
    """The name of the cards a seat sees of its own (``None``: it sees none)."""
    cards = tuple(card for card in held if card is not None)
    return _name(game, cards, tuple(board)) if cards else None


def decision(view: View, spec: Any = None) -> dict[str, Any] | None:
    """The seat to act's choices: each legal action with its bounds, its cost and presets.

    ``spec`` (the table's) names what the view does not hold: Razz's bring-in.
    """
    legal = view.legal
    if not legal.actions or view.seat is None:
        return None
    seat = view.seat
    mine = view.bets[seat]
    options = [_option(view, action, mine, spec) for action in legal.actions]
    return {"hand_seat": seat, "actions": options, "stack": view.stacks[seat]}


def _option(view: View, action: LegalAction, mine: int, spec: Any = None) -> dict[str, Any]:
    option: dict[str, Any] = {"kind": action.kind.value}
    if action.min_amount is not None:
        option["min"] = action.min_amount
        option["max"] = action.max_amount
        presets = _presets(view, action)
        if presets:
            option["presets"] = presets
    if action.kind in _FIXED_COST or action.kind is ActionKind.COMPLETE:
        cost = _cost(view, action, mine, spec)
        if cost is not None:
            option["cost"] = cost
    return option


def _cost(view: View, action: LegalAction, mine: int, spec: Any = None) -> int | None:
    seat = view.seat
    assert seat is not None
    if isinstance(view, RoundView):
        if action.kind is ActionKind.CALL:
            return view.to_call
        bring_in = getattr(spec, "bring_in", None)
        if action.kind is ActionKind.BRING_IN and isinstance(bring_in, int):
            # The bring-in is the spec's amount, or what is left of a short stack.
            return min(bring_in, view.stacks[seat])
        if action.kind is ActionKind.COMPLETE and action.min_amount is not None:
            return action.min_amount - mine
        return None
    if isinstance(view, TeenPattiView):
        if action.kind is ActionKind.SHOW:
            return view.show_cost
        if action.kind is ActionKind.SIDESHOW:
            return view.sideshow_cost
        return None
    if isinstance(view, CasinoHoldemView) and action.kind is ActionKind.CALL:
        return view.call_amount
    return None


def _presets(view: View, action: LegalAction) -> list[dict[str, Any]]:
    """Min, half pot, pot and all-in amounts, where they lie within the bounds."""
    low, high = action.min_amount, action.max_amount
    assert low is not None and high is not None
    if low == high:
        return []
    seat = view.seat
    assert seat is not None
    if isinstance(view, RoundView):
        # "Raise to" amounts: the call first, then a share of the pot after it.
        after_call = view.pot + view.to_call
        base = view.current_bet if action.kind is ActionKind.RAISE else 0
        wanted = {"half_pot": base + after_call // 2, "pot": base + after_call}
    else:
        wanted = {"half_pot": view.pot // 2, "pot": view.pot}
    presets = [{"name": "min", "amount": low}]
    for name, amount in wanted.items():
        if low < amount < high:
            presets.append({"name": name, "amount": amount})
    everything = (
        view.bets[seat] + view.stacks[seat] if isinstance(view, RoundView) else view.stacks[seat]
    )
    presets.append({"name": "all_in" if high == everything else "max", "amount": high})
    return presets
