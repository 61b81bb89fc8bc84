"""Bots: the random bot's odds, the equity rule, the registry, and what bots may see."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerhouse import evaluate
from pokerhouse.bots import (
    Bot,
    RandomBot,
    RazzBot,
    TeenPattiBot,
    ThreeByFourBot,
    decide_by_equity,
    get,
    hand_strength,
)
from pokerhouse.bots.equity import monte_carlo_equity
from pokerhouse.cards import FULL_DECK, Deck, parse_cards
from pokerhouse.engine import Action, ActionKind, Hand
from pokerhouse.errors import IllegalAction, InvalidSpec, PokerError
from pokerhouse.games import new_hand


def play_with(hand: Hand, bots: dict[int, Bot], limit: int = 3000) -> list[tuple[int, Action]]:
    """Let the bots finish the hand; every action must be accepted."""
    taken = []
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        action = bots[seat].choose(hand.view(seat))
        hand.act(action, seat)
        taken.append((seat, action))
        assert len(taken) < limit
    return taken


# ---------------------------------------------------------------- the random bot


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_random_bot_plays_only_legal_actions(game: str) -> None:
    rng = random.Random(game)
    for deal in range(60):
        players = rng.randint(2, 6)
        hand = new_hand(game, [rng.randint(1, 120) for _ in range(players)], seed=deal)
        bots: dict[int, Bot] = {
            seat: RandomBot(fold=0.1, raise_=0.5, rng=random.Random(deal * 10 + seat))
            for seat in range(players)
        }
        play_with(hand, bots)
        assert sum(hand.results()) == 0


def test_random_bot_never_folds_a_free_check() -> None:
    bot = RandomBot(fold=1.0, raise_=0.0, rng=random.Random(1))
    for seed in range(30):
        hand = new_hand("3x4", [100, 100, 100], seed=seed)
        view = hand.view(hand.to_act)
        assert ActionKind.CHECK in view.legal
        assert bot.choose(view) == Action.check()


def test_random_bot_folds_raises_and_calls_by_its_odds() -> None:
    hand = new_hand("3x4", [100, 100], seed=1)
    hand.act(Action.bet(10))
    view = hand.view(hand.to_act)
    folds = RandomBot(fold=1.0, raise_=0.0, rng=random.Random(2))
    raises = RandomBot(fold=0.0, raise_=1.0, rng=random.Random(2))
    calls = RandomBot(fold=0.0, raise_=0.0, rng=random.Random(2))
    assert folds.choose(view) == Action.fold()
    assert calls.choose(view) == Action.call()
    raised = raises.choose(view)
    assert raised.kind is ActionKind.RAISE and raised.amount is not None
    assert 20 <= raised.amount <= 99
    mixed = RandomBot(fold=0.12, raise_=0.15, rng=random.Random(3))
    kinds = [mixed.choose(view).kind for _ in range(4000)]
    assert kinds.count(ActionKind.FOLD) / 4000 == pytest.approx(0.12, abs=0.02)
    assert kinds.count(ActionKind.RAISE) / 4000 == pytest.approx(0.15, abs=0.02)


def test_random_bot_checks_its_probabilities() -> None:
    for kwargs in ({"fold": -0.1}, {"raise_": 1.5}, {"fold": 0.6, "raise_": 0.6}, {"look": 2.0}):
        with pytest.raises(InvalidSpec) as error:
            RandomBot(**kwargs)  # type: ignore[arg-type]
        assert error.value.code == "bad_probability"


def test_a_bot_asked_out_of_turn_says_so() -> None:
    hand = new_hand("razz", [50, 50, 50], seed=3)
    idle = next(seat for seat in range(3) if seat != hand.to_act)
    for bot in (RandomBot(), RazzBot(samples=20)):
        with pytest.raises(IllegalAction) as error:
            bot.choose(hand.view(idle))
        assert error.value.code == "no_decision"


# ---------------------------------------------------------------- what a bot sees


def test_a_bot_decides_from_the_view_alone() -> None:
    """Two deals that differ only in the opponents' hidden cards look the same to seat 0."""
    mine = parse_cards("Ah Kd 7c")
    others_a = parse_cards("2c 3d 4h 9s 9h 5c")
    others_b = parse_cards("Qs Qh Qc 8d 6s Tc")
    # Three players deal one card at a time: seat 0, 1, 2, then again.
    order_a = [
        mine[0],
        others_a[0],
        others_a[1],
        mine[1],
        others_a[2],
        others_a[3],
        mine[2],
        others_a[4],
        others_a[5],
    ]
    order_b = [
        mine[0],
        others_b[0],
        others_b[1],
        mine[1],
        others_b[2],
        others_b[3],
        mine[2],
        others_b[4],
        others_b[5],
    ]
    views = []
    for order in (order_a, order_b):
        used = set(order_a) | set(order_b)
        rest = [card for card in FULL_DECK if card not in used]
        hand = new_hand("3x4", [100, 100, 100], deck=Deck.stacked([*order, *rest]))
        views.append(hand.view(0))
    assert views[0] == views[1]
    first = ThreeByFourBot(samples=50, rng=random.Random(5)).choose(views[0])
    second = ThreeByFourBot(samples=50, rng=random.Random(5)).choose(views[1])
    assert first == second


# ---------------------------------------------------------------- equity and the rule


def test_monte_carlo_equity_agrees_with_exact_enumeration_on_the_river() -> None:
    mine, board = parse_cards("Qs Jd 4c"), parse_cards("Qh 9c 4d 2s")
    unseen = [card for card in FULL_DECK if card not in set(mine) | set(board)]
    arrays = np.array(
        [list(mine + board)]
        + [
            [a, b, c, *board]
            for i, a in enumerate(unseen)
            for j, b in enumerate(unseen[i + 1 :])
            for c in unseen[i + j + 2 :]
        ],
        dtype=np.int64,
    )
    values = evaluate.high_batch(arrays)
    me, others = values[0], values[1:]
    exact = float(np.mean((others < me) + 0.5 * (others == me)))
    estimate = monte_carlo_equity(
        mine,
        [()],
        board,
        hole_total=3,
        board_total=4,
        evaluate_batch=evaluate.high_batch,
        samples=4000,
        rng=np.random.default_rng(8),
    )
    assert estimate == pytest.approx(exact, abs=0.025)


def test_razz_equity_counts_the_opponents_up_cards() -> None:
    mine = parse_cards("Ac 2d 3h 4s 5c")  # a made wheel on sixth street... plus one to come
    rough = parse_cards("Kd Qd Jd Td")
    smooth = parse_cards("As 2s 3c 4d")
    rng = np.random.default_rng(3)
    against_rough = monte_carlo_equity(
        mine,
        [rough],
        hole_total=7,
        board_total=0,
        evaluate_batch=evaluate.low_batch,
        samples=500,
        rng=rng,
    )
    against_smooth = monte_carlo_equity(
        mine,
        [smooth],
        hole_total=7,
        board_total=0,
        evaluate_batch=evaluate.low_batch,
        samples=500,
        rng=rng,
    )
    assert against_rough == 1.0
    assert 0.5 < against_smooth < 1.0


def test_equity_shares_the_last_card_when_the_deck_runs_short() -> None:
    # Eight razz players to seventh street need 56 cards: the last one is shared.
    rng = np.random.default_rng(1)
    deck = list(FULL_DECK)
    mine = tuple(deck[:6])
    opponents = [tuple(deck[6 + 4 * i : 10 + 4 * i]) for i in range(7)]
    equity = monte_carlo_equity(
        mine,
        opponents,
        hole_total=7,
        board_total=0,
        evaluate_batch=evaluate.low_batch,
        samples=200,
        rng=rng,
    )
    assert 0.0 <= equity <= 1.0


def test_decide_by_equity_bets_strength_calls_odds_and_folds_the_rest() -> None:
    hand = new_hand("3x4", [200, 200], seed=2)
    first = hand.view(hand.to_act)
    assert decide_by_equity(first, 0.3) == Action.check()
    assert decide_by_equity(first, 0.8).kind is ActionKind.BET
    hand.act(Action.bet(20))  # pot 22 after the antes and this bet; 20 to call
    facing = hand.view(hand.to_act)
    price = 20 / (22 + 20)
    assert decide_by_equity(facing, price - 0.05) == Action.fold()
    assert decide_by_equity(facing, price + 0.1) == Action.call()
    assert decide_by_equity(facing, 0.9).kind is ActionKind.RAISE


def test_teen_patti_strength_orders_hands() -> None:
    order = [
        "5c 3d 2h",
        "Kc Jd 9h",
        "8c 8d 2h",
        "2c 5c 9c",
        "4c 5d 6h",
        "Qh Kh Ah",
        "2c 2d 2h",
        "Ac Ad Ah",
    ]
    strengths = [hand_strength(parse_cards(text)) for text in order]
    assert strengths == sorted(strengths)
    assert strengths[0] < 0.01 and strengths[-1] > 0.9999


# ---------------------------------------------------------------- the registry


@pytest.mark.parametrize(
    ("game", "kind"), [("3x4", ThreeByFourBot), ("razz", RazzBot), ("teen-patti", TeenPattiBot)]
)
def test_registry_gives_each_game_its_smart_bot(game: str, kind: type) -> None:
    bot = get("smart", game=game, rng=random.Random(1))
    assert isinstance(bot, kind) and isinstance(bot, Bot) and bot.name == "smart"


def test_registry_errors() -> None:
    cases = [
        (lambda: get("genius"), "unknown_bot"),
        (lambda: get("smart"), "game_required"),
        (lambda: get("smart", game="go-fish"), "unknown_game"),
        (lambda: get("random", fold=3.0), "bad_probability"),
    ]
    for request, code in cases:
        with pytest.raises(PokerError) as error:
            request()
        assert error.value.code == code
    assert isinstance(get("Random", fold=0.5), RandomBot)
