"""Cards, ranks, suits and the deck.

A card is an ``int`` from 0 to 51, ``4 * rank + suit``, with rank 0..12 for
2..A and suit 0..3 for clubs, diamonds, hearts, spades. Being an ``int`` it
drops straight into numpy arrays and lookup tables; being a :class:`Card` it
prints as ``As``.

>>> card = Card.parse("As")
>>> int(card), card.rank, card.suit
(51, <Rank.ACE: 12>, <Suit.SPADES: 3>)
>>> parse_cards("Td 10c 2h")
(Td, Tc, 2h)
>>> format_cards(parse_cards("AsKd"))
'As Kd'
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import ClassVar, Protocol

from pokerhouse.errors import InvalidCards

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"


class Rank(IntEnum):
    """Card ranks, two (0) to ace (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        """The rank's letter: ``Rank.TEN.char == 'T'``."""
        return RANK_CHARS[self]


class Suit(IntEnum):
    """Suits in the rule book's order: clubs < diamonds < hearts < spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """The suit's letter: ``Suit.HEARTS.char == 'h'``."""
        return SUIT_CHARS[self]


class Card(int):
    """One of the 52 cards; an ``int`` equal to ``4 * rank + suit``.

    Instances are interned: ``Card(51) is Card.parse("As")``.

    >>> Card.of(Rank.KING, Suit.SPADES)
    Ks
    >>> Card.parse("Ks") > Card.parse("Kh")
    True
    """

    __slots__ = ()
    _interned: ClassVar[list[Card]] = []

    def __new__(cls, index: int) -> Card:
        if cls._interned:
            if type(index) is not int and not isinstance(index, int):
                raise InvalidCards("bad_card", f"a card index must be an int, not {index!r}")
            if not 0 <= index < 52:
                raise InvalidCards("bad_card", f"card index {index} is outside 0..51")
            return cls._interned[index]
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of a rank (0..12) and suit (0..3)."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise InvalidCards("bad_card", f"no card with rank {rank} and suit {suit}")
        return _CARDS[4 * rank + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card, ``"As"``, ``"td"`` or ``"10d"``."""
        token = text.strip()
        if token[:2] == "10":
            token = "T" + token[2:]
        if len(token) != 2:
            raise InvalidCards(
                "bad_card", f"{text!r} is not a card (expected rank then suit, e.g. 'As')"
            )
        rank = RANK_CHARS.find(token[0].upper())
        suit = SUIT_CHARS.find(token[1].lower())
        if rank < 0:
            raise InvalidCards(
                "bad_rank", f"{text!r}: unknown rank {token[0]!r} (use 23456789TJQKA)"
            )
        if suit < 0:
            raise InvalidCards("bad_suit", f"{text!r}: unknown suit {token[1]!r} (use c, d, h, s)")
        return _CARDS[4 * rank + suit]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANKS[self >> 2]

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return _SUITS[self & 3]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return _NAMES[self]

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_RANKS = tuple(Rank)
_SUITS = tuple(Suit)
_NAMES = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
Card._interned = list(_CARDS)

#: All 52 cards in index order (2c, 2d, 2h, 2s, 3c, ... As).
FULL_DECK: tuple[Card, ...] = _CARDS

_TOKEN = re.compile(r"10[cdhsCDHS]|[2-9TJQKAtjqka][cdhsCDHS]")


def parse_cards(text: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Parse cards from text (``"As Kd"``, ``"AsKd"``, ``"As,Kd"``) or a sequence.

    Duplicates are an error.

    >>> parse_cards("AsKd")
    (As, Kd)
    >>> parse_cards(["2c", 51])
    (2c, As)
    >>> parse_cards("As As")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: duplicate card As
    """
    if isinstance(text, str):
        cards = _parse_text(text)
    else:
        cards = tuple(Card.parse(item) if isinstance(item, str) else Card(item) for item in text)
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise InvalidCards("duplicate_card", f"duplicate card {card}")
        seen.add(card)
    return cards


def _parse_text(text: str) -> tuple[Card, ...]:
    tokens = text.replace(",", " ").strip(" \t\n[]()").split()
    if all(len(token) <= 3 for token in tokens):
        # Separated cards: read each on its own so an error names the bad rank or suit.
        return tuple(Card.parse(token) for token in tokens)
    cards: list[Card] = []
    position = 0
    for match in _TOKEN.finditer(text):
        gap = text[position : match.start()]
        if gap.strip(" ,\t\n[]()"):
            raise InvalidCards("bad_card", f"cannot read {gap.strip()!r} as a card in {text!r}")
        cards.append(Card.parse(match.group()))
        position = match.end()
    rest = text[position:]
    if rest.strip(" ,\t\n[]()"):
        raise InvalidCards("bad_card", f"cannot read {rest.strip()!r} as a card in {text!r}")
    return tuple(cards)


def format_cards(cards: Iterable[int], separator: str = " ") -> str:
    """Format cards as text: ``format_cards([51, 46]) == 'As Kh'``."""
    return separator.join(_NAMES[card] for card in cards)


def or_list(items: Iterable[object]) -> str:
    """Items in words: ``'5, 6 or 7'``; an unbroken run of more than three numbers as a range.

    >>> or_list([3]), or_list([3, 4]), or_list([5, 6, 7]), or_list(range(53))
    ('3', '3 or 4', '5, 6 or 7', '0 to 52')
    """
    words = list(items)
    numbers = [word for word in words if isinstance(word, int)]
    if len(words) > 3 and numbers == list(range(numbers[0], numbers[0] + len(words))):
        return f"{numbers[0]} to {numbers[-1]}"
    text = [str(word) for word in words]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} or {text[-1]}"


def check_cards(cards: Sequence[int], counts: Iterable[int]) -> None:
    """Raise :class:`InvalidCards` unless ``cards`` are distinct valid cards of an allowed count.

    >>> check_cards([0, 1, 2], (3,))
    >>> check_cards([0, 1], (3,))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: expected 3 cards, got 2
    """
    allowed = tuple(counts)
    if len(cards) not in allowed:
        raise InvalidCards("card_count", f"expected {or_list(allowed)} cards, got {len(cards)}")
    seen = 0
    for card in cards:
        if type(card) is not int and not isinstance(card, int):
            raise InvalidCards("bad_card", f"{card!r} is not a card")
        if not 0 <= card < 52:
            raise InvalidCards("bad_card", f"card index {card} is outside 0..51")
        bit = 1 << card
        if seen & bit:
            raise InvalidCards("duplicate_card", f"duplicate card {_NAMES[card]}")
        seen |= bit


class RandomSource(Protocol):
    """What a deck needs from a random number generator."""

    def shuffle(self, x: list[Card]) -> None: ...


class Deck:
    """A deck of cards dealt from the top, shuffled by an injected RNG.

    The default RNG is :class:`secrets.SystemRandom`; tests pass a seeded
    :class:`random.Random` for repeatable deals. ``Deck.stacked`` builds a deck
    whose first cards are given, for worked examples and replays.

    >>> deck = Deck(random.Random(7))
    >>> len(deck), deck.remaining
    (52, 52)
    >>> first = deck.deal()
    >>> deck.remaining
    51
    >>> Deck.stacked("As Kd").deal_many(2)
    (As, Kd)
    """

    __slots__ = ("_burned", "_cards", "_rng")

    def __init__(self, rng: RandomSource | None = None, *, shuffle: bool = True) -> None:
        self._rng: RandomSource = rng if rng is not None else secrets.SystemRandom()
        cards = list(FULL_DECK)
        if shuffle:
            self._rng.shuffle(cards)
        # The top of the deck is the end of the list, so dealing is a pop().
        cards.reverse()
        self._cards = cards
        self._burned: list[Card] = []

    @classmethod
    def stacked(cls, top: str | Iterable[str | int], rng: RandomSource | None = None) -> Deck:
        """A deck whose top cards are ``top`` in order; the rest follow shuffled.

        With ``rng=None`` the rest follow in a fixed order, so the deck is fully
        determined by ``top``.
        """
        first = parse_cards(top)
        deck = cls(rng if rng is not None else random.Random(0))
        chosen = set(first)
        rest = [card for card in reversed(deck._cards) if card not in chosen]
        deck._cards = list(reversed(list(first) + rest))
        return deck

    @classmethod
    def from_order(cls, order: Sequence[int], rng: RandomSource | None = None) -> Deck:
        """A deck in exactly this order (first element on top); all 52 cards.

        ``rng`` shuffles only what a rule reshuffles later (Razz's burned cards
        on a short seventh street); the default is seeded, so a stored order
        and a stored seed re-create a deck exactly.

        >>> order = Deck(random.Random(3)).order()
        >>> Deck.from_order(order).order() == order
        True
        """
        cards = parse_cards(list(order))
        if len(cards) != 52:
            raise InvalidCards("card_count", f"a full deck order has 52 cards, got {len(cards)}")
        deck = cls(rng if rng is not None else random.Random(0), shuffle=False)
        deck._cards = list(reversed(cards))
        return deck

    @classmethod
    def shuffled(cls, rng: RandomSource, reshuffle: RandomSource) -> Deck:
        """A deck shuffled by ``rng`` whose later reshuffles (Razz's short seventh street)
        are ``reshuffle``'s: what a stored order and a stored seed deal again exactly.

        >>> one = Deck.shuffled(random.Random(3), random.Random(9))
        >>> one.order() == Deck.from_order(one.order(), random.Random(9)).order()
        True
        """
        deck = cls(rng)
        deck._rng = reshuffle
        return deck

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return len(self._cards)

    def order(self) -> tuple[Card, ...]:
        """The undealt cards, top first (a secret: never show it to a player)."""
        return tuple(reversed(self._cards))

    def deal(self, seat: int | None = None) -> Card:
        """Take the top card, for ``seat`` (``None``: the board or a burn).

        A plain deck ignores ``seat``; a :class:`ScriptedDeck` uses it to give
        each seat the cards a recorded hand gave it.
        """
        if not self._cards:
            raise InvalidCards("deck_empty", "the deck is empty")
        return self._cards.pop()

    def deal_many(self, count: int, seat: int | None = None) -> tuple[Card, ...]:
        """Take ``count`` cards from the top."""
        return tuple(self.deal(seat) for _ in range(count))

    def burn(self) -> None:
        """Burn the top card: it is never shown, but may be reshuffled later."""
        self._burned.append(self.deal())

    def reshuffle_burned(self) -> None:
        """Shuffle the burned cards into the stub (Razz's short-deck rule)."""
        cards = self._cards + self._burned
        self._burned = []
        self._rng.shuffle(cards)
        self._cards = cards


class ScriptedDeck(Deck):
    """A deck that deals the cards a recorded hand dealt, seat by seat.

    Used to replay a hand history, which records each seat's cards and the
    board but (rightly) not the burned cards or the stub. Burns and any card
    the script does not name come from the cards nobody was recorded with, so
    the count of cards left matches a real deck.

    >>> deck = ScriptedDeck({0: parse_cards("As Kd"), 1: parse_cards("2c 2d")}, board=())
    >>> deck.deal(1), deck.deal(0), deck.remaining
    (2c, As, 50)
    """

    __slots__ = ("_board", "_seats", "_spare")

    def __init__(self, seats: dict[int, Sequence[Card]], board: Sequence[Card] = ()) -> None:
        super().__init__(random.Random(0), shuffle=False)
        named: list[Card] = [card for cards in seats.values() for card in cards] + list(board)
        check_cards(named, range(53))
        self._seats = {seat: list(reversed(cards)) for seat, cards in seats.items()}
        self._board = list(reversed(board))
        used = set(named)
        self._spare = [card for card in reversed(FULL_DECK) if card not in used]
        # A scripted deck's ``_cards`` only counts: it holds the spare cards
        # followed by placeholders for the named ones.
        self._cards = list(self._spare) + [FULL_DECK[0]] * len(named)

    def deal(self, seat: int | None = None) -> Card:
        if not self._cards:
            raise InvalidCards("deck_empty", "the deck is empty")
        queue = self._board if seat is None else self._seats.get(seat, [])
        self._cards.pop()
        if queue:
            return queue.pop()
        if not self._spare:
            raise InvalidCards("deck_empty", "the recorded hand has no card left to deal")
        return self._spare.pop()

    def burn(self) -> None:
        if not self._cards:
            raise InvalidCards("deck_empty", "the deck is empty")
        self._cards.pop()
        self._burned.append(self._spare.pop() if self._spare else FULL_DECK[0])

    def reshuffle_burned(self) -> None:
        self._cards.extend(self._burned)
        self._burned = []
