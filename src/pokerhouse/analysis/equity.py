"""Equity street by street, from one viewer's copy of a hand.

After a hand, as a chess site shows its analysis after a game: at each
street, what each hand still in play would win at the showdown, on average,
from the cards that viewer knows. The input is the viewer's JSON history
(``pokerhouse-hand/1`` written for a seat or a spectator): a card the viewer
was never shown is ``null`` there and is treated as unknown, that is, as one
of the cards still in the deck. Cards dealt after a street (the turn and
river, Razz's later cards) are unknown at that street too. Folded hands'
known cards are dead.

Each street's shares are counted exactly when there are few ways for the
unknown cards to fall (every board when all hands are known and few board
cards are to come; every deal of a handful of cards), and otherwise sampled
with a seeded generator, so the same copy gives the same answer. A deadline
bounds the work: a street left when it has passed is sampled with fewer deals.

3x4 Poker and Razz split each pot among the best hands (ties share); at
Teen Patti the whole deal is one street; at Casino Hold'em each box plays
the dealer alone, so a box's equity is its share of that duel (a tie is half)
and the dealer's is the rest.

>>> from pokerhouse.cards import parse_cards
>>> import numpy as np
>>> from pokerhouse import evaluate
>>> aces, low = list(parse_cards("As Ad Ah")), list(parse_cards("2c 3d 4h"))
>>> shares, method, deals = showdown_shares(
...     [aces, low], list(parse_cards("Kc Kd 7s")),
...     hole_total=3, board_total=4, evaluate_batch=evaluate.high_batch)
>>> method, deals, [round(s, 3) for s in shares]
('exact', 43, [1.0, 0.0])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from math import comb, perm
from typing import Any

import numpy as np
import numpy.typing as npt

from pokerhouse import evaluate
from pokerhouse.cards import Card
from pokerhouse.evaluate.exhaustive import combinations_array

__all__ = ["StreetEquity", "equity_by_street", "showdown_shares"]

Ints = npt.NDArray[np.int64]
BatchEvaluator = Callable[..., Ints]

#: At most this many hands are scored for one street counted exactly; above it, sampled.
EXACT_ROWS = 120_000
#: Deals sampled for a street when it cannot be counted exactly.
SAMPLES = 6_000
#: Deals sampled at a time (the deadline is looked at between chunks).
CHUNK = 1_500

#: Per game: the evaluator, cards each player ends with, community cards, and the streets
#: by the cards dealt (community cards for board games, each player's cards for Razz).
GAMES: Mapping[str, tuple[BatchEvaluator, int, int, tuple[tuple[str, int], ...]]] = {
    "3x4": (evaluate.high_batch, 3, 4, (("hole", 0), ("flop", 2), ("turn", 3), ("river", 4))),
    "casino-holdem": (
        evaluate.high_batch,
        2,
        5,
        (("hole", 0), ("flop", 3), ("turn", 4), ("river", 5)),
    ),
    "razz": (
        evaluate.low_batch,
        7,
        0,
        (("third", 3), ("fourth", 4), ("fifth", 5), ("sixth", 6), ("seventh", 7)),
    ),
    "teen-patti": (evaluate.teen_patti_batch, 3, 0, (("deal", 3),)),
}

#: Events that only deal or set up: a street's picture is taken at the first other event.
_DEALING = frozenset(
    {
        "hand_started",
        "ante_posted",
        "bonus_posted",
        "street_started",
        "cards_dealt",
        "card_burned",
        "board_dealt",
        "deck_reshuffled",
    }
)


@dataclass(frozen=True)
class StreetEquity:
    """One street's equities: the hands in play (hand seats), their known cards and shares."""

    street: str
    board: tuple[str, ...]
    seats: tuple[int, ...]
    cards: tuple[tuple[str | None, ...], ...]
    equity: tuple[float, ...]
    method: str  # "exact" or "sampled"
    deals: int
    #: Casino Hold'em: the dealer's known cards and, per box, the dealer's share of its duel.
    dealer: tuple[str | None, ...] | None = None
    dealer_equity: tuple[float, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        hands = []
        for index, seat in enumerate(self.seats):
            hand: dict[str, Any] = {
                "hand_seat": seat,
                "cards": list(self.cards[index]),
                "known": all(card is not None for card in self.cards[index]),
                "equity": round(self.equity[index], 6),
            }
            if self.dealer_equity is not None:
                hand["dealer_equity"] = round(self.dealer_equity[index], 6)
            hands.append(hand)
        answer: dict[str, Any] = {
            "street": self.street,
            "board": list(self.board),
            "method": self.method,
            "deals": self.deals,
            "hands": hands,
        }
        if self.dealer is not None:
            answer["dealer"] = {"cards": list(self.dealer)}
        return answer


def _card(text: str | None) -> int | None:
    return None if text is None else int(Card.parse(text))


def showdown_shares(
    hands: Sequence[Sequence[int | None]],
    board: Sequence[int],
    *,
    hole_total: int,
    board_total: int,
    evaluate_batch: BatchEvaluator,
    dead: Sequence[int] = (),
    duel: bool = False,
    rng: np.random.Generator | None = None,
    samples: int = SAMPLES,
    deadline: float | None = None,
) -> tuple[list[float], str, int]:
    """Each hand's expected share at the showdown: ``(shares, method, deals counted)``.

    ``hands`` hold each player's cards so far (``None``: a card dealt but
    unknown); every player ends with ``hole_total`` cards and the board with
    ``board_total``. With ``duel`` the last hand is the house's and every
    other hand plays it alone: each share is that hand's part of its duel.
    """
    known = [card for cards in hands for card in cards if card is not None]
    known += [*board, *dead]
    pool = np.setdiff1d(np.arange(52, dtype=np.int64), np.array(known, dtype=np.int64))
    missing = [hole_total - len(cards) + sum(card is None for card in cards) for cards in hands]
    board_missing = board_total - len(board)
    # Too few cards left (eight at Razz's seventh street): the last cards are shared.
    while board_missing + sum(missing) > len(pool):
        missing = [max(0, n - 1) for n in missing]
        board_missing += 1
    needed = board_missing + sum(missing)
    count = len(pool)
    if needed == 0:
        fills, method = np.zeros((1, 0), dtype=np.int64), "exact"
    elif sum(missing) == 0 and comb(count, needed) * len(hands) <= EXACT_ROWS:
        fills, method = pool[combinations_array(count, needed).astype(np.int64)], "exact"
    elif perm(count, needed) * len(hands) <= EXACT_ROWS:
        fills = pool[np.array(list(permutations(range(count), needed)), dtype=np.int64)]
        method = "exact"
    else:
        fills, method = _sample(pool, needed, rng, samples, deadline), "sampled"
    values = _values(hands, board, missing, board_missing, fills, evaluate_batch)
    deals = values.shape[1]
    if duel:
        house = values[-1]
        shares = [
            float(((row > house).sum() + 0.5 * (row == house).sum()) / deals) for row in values[:-1]
        ]
        return shares, method, deals
    best = values.max(axis=0)
    winners = values == best
    split = winners / winners.sum(axis=0)
    return [float(share) for share in split.mean(axis=1)], method, deals


def _sample(
    pool: Ints, needed: int, rng: np.random.Generator | None, samples: int, deadline: float | None
) -> Ints:
    """``samples`` deals of ``needed`` distinct cards from ``pool``, while time allows."""
    generator = rng if rng is not None else np.random.default_rng(0)
    chunks = []
    drawn = 0
    while drawn < samples:
        size = min(CHUNK, samples - drawn)
        order = np.argsort(generator.random((size, len(pool))), axis=1)[:, :needed]
        chunks.append(pool[order])
        drawn += size
        if deadline is not None and time.monotonic() > deadline:
            break
    return np.concatenate(chunks, axis=0)


def _values(
    hands: Sequence[Sequence[int | None]],
    board: Sequence[int],
    missing: Sequence[int],
    board_missing: int,
    fills: Ints,
    evaluate_batch: BatchEvaluator,
) -> Ints:
    """Every hand's value in every deal: an (hands, deals) array."""
    deals = len(fills)
    shared = np.concatenate(
        [
            np.broadcast_to(np.array(board, dtype=np.int64), (deals, len(board))),
            fills[:, :board_missing],
        ],
        axis=1,
    )
    rows = []
    start = board_missing
    for cards, count in zip(hands, missing, strict=True):
        mine = [card for card in cards if card is not None]
        known = np.broadcast_to(np.array(mine, dtype=np.int64), (deals, len(mine)))
        rows.append(np.concatenate([known, fills[:, start : start + count], shared], axis=1))
        start += count
    values: Ints = evaluate_batch(np.concatenate(rows, axis=0), check=False)
    return values.reshape(len(hands), deals)


@dataclass
class _Spot:
    street: str
    board: int
    dealt: dict[int, int]
    folded: frozenset[int]


def _spots(document: Mapping[str, Any]) -> list[_Spot]:
    """The moment of each street: the cards dealt and the hands folded when its betting began."""
    game = document["game"]
    streets = GAMES[game][3]
    by_board = GAMES[game][2] > 0
    spots: list[_Spot] = []
    pending: list[str] = []
    taken: set[str] = set()
    dealt: dict[int, int] = {}
    board = 0
    folded: set[int] = set()

    def due() -> None:
        for name in pending:
            size = dict(streets)[name]
            spots.append(_Spot(name, size if by_board else board, dict(dealt), frozenset(folded)))
        pending.clear()

    for event in document["events"]:
        kind = event["type"]
        if kind not in _DEALING:
            due()
        if kind == "cards_dealt":
            dealt[event["seat"]] = dealt.get(event["seat"], 0) + len(event["cards"])
        elif kind == "board_dealt":
            board += len(event["cards"])
        elif kind == "action_taken" and event["action"]["kind"] == "fold":
            folded.add(event["seat"])
        elif kind == "sideshow_compared":
            folded.add(event["loser"])
        if kind not in ("cards_dealt", "board_dealt"):
            continue
        # A street is due once its cards are out (a run-out may deal several streets at once).
        most = max((n for seat, n in dealt.items() if seat >= 0), default=0)
        for name, size in streets:
            reached = board >= size if by_board else most >= size
            if reached and name not in taken and dealt:
                taken.add(name)
                pending.append(name)
    due()
    return spots


def equity_by_street(
    document: Mapping[str, Any],
    *,
    seed: int = 0,
    samples: int = SAMPLES,
    deadline: float | None = None,
) -> list[StreetEquity]:
    """Every street's equities for the viewer whose copy ``document`` is.

    Only the copy is read: its ``cards`` (``null`` where the viewer was not
    shown a card) and ``board`` in deal order, and its events for when each
    street began and who had folded by then.
    """
    game = document["game"]
    evaluate_batch, hole_total, board_total, _ = GAMES[game]
    cards = {int(seat): [_card(c) for c in held] for seat, held in document["cards"].items()}
    board_cards = [_card(c) for c in document["board"]]
    if any(card is None for card in board_cards):
        board_cards = [card for card in board_cards if card is not None]
    casino = game == "casino-holdem"
    if game == "razz":
        # A short deck's community card counts for everyone.
        board_total = len(board_cards)
        hole_total -= board_total
    streets: list[StreetEquity] = []
    for index, spot in enumerate(_spots(document)):
        held = {seat: cards.get(seat, [])[:n] for seat, n in spot.dealt.items()}
        players = sorted(seat for seat in held if seat >= 0)
        live = [seat for seat in players if seat not in spot.folded]
        if not live:
            continue
        dead = [
            card
            for seat in players
            if seat in spot.folded
            for card in held[seat]
            if card is not None
        ]
        board = [card for card in board_cards[: spot.board] if card is not None]
        hands = [held[seat] for seat in live]
        if casino:
            hands.append(held.get(-1, [None, None]))
        shares, method, deals = showdown_shares(
            hands,
            board,
            hole_total=hole_total,
            board_total=board_total,
            evaluate_batch=evaluate_batch,
            dead=dead,
            duel=casino,
            rng=np.random.default_rng([seed, index]),
            samples=samples,
            deadline=deadline,
        )
        text = tuple(
            tuple(None if c is None else str(Card(c)) for c in held[seat]) for seat in live
        )
        streets.append(
            StreetEquity(
                street=spot.street,
                board=tuple(str(Card(card)) for card in board),
                seats=tuple(live),
                cards=text,
                equity=tuple(shares),
                method=method,
                deals=deals,
                dealer=tuple(None if c is None else str(Card(c)) for c in held.get(-1, []))
                if casino
                else None,
                dealer_equity=tuple(1.0 - share for share in shares) if casino else None,
            )
        )
    return streets
