"""Casino Hold'em pay tables: the Ante's and the AA Bonus's, and the hand classes they pay on.

A hand's class comes from its value under :func:`pokerhouse.evaluate.high_value`
compared with the value of the weakest hand of each class, so the game and the
analysis agree with the evaluator by construction.

>>> from pokerhouse.cards import parse_cards
>>> from pokerhouse.evaluate import high_value
>>> ante_category(high_value(parse_cards("As Ks Qs Js Ts 2c 2d")))
<AnteCategory.ROYAL_FLUSH: 5>
>>> bonus_category(high_value(parse_cards("As Ad 7c 4h 2s")))
<BonusCategory.PAIR_OF_ACES: 1>
>>> AntePays().odds(AnteCategory.FULL_HOUSE), BonusPays.named("common").odds(BonusCategory.FLUSH)
(3, 20)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Any

from pokerhouse.cards import parse_cards
from pokerhouse.errors import InvalidSpec


class AnteCategory(IntEnum):
    """The classes the Ante pay table tells apart, weakest first."""

    STRAIGHT_OR_LESS = 0
    FLUSH = 1
    FULL_HOUSE = 2
    FOUR_OF_A_KIND = 3
    STRAIGHT_FLUSH = 4
    ROYAL_FLUSH = 5


class BonusCategory(IntEnum):
    """The classes the AA Bonus pays on (``LOSES``: below a pair of aces), weakest first."""

    LOSES = 0
    PAIR_OF_ACES = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


#: The weakest five-card hand of each class; their values are the class thresholds.
_WEAKEST = {
    "pair_of_fours": "4c 4d 5h 3s 2c",
    "pair_of_aces": "Ac Ad 4h 3s 2c",
    "two_pair": "3c 3d 2h 2s 4c",
    "three_of_a_kind": "2c 2d 2h 4s 3c",
    "straight": "5c 4d 3h 2s Ac",
    "flush": "7s 5s 4s 3s 2s",
    "full_house": "2c 2d 2h 3s 3c",
    "four_of_a_kind": "2c 2d 2h 2s 3c",
    "straight_flush": "5s 4s 3s 2s As",
    "royal_flush": "As Ks Qs Js Ts",
}


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The :func:`~pokerhouse.evaluate.high_value` of the weakest hand of each class."""

    pair_of_fours: int
    pair_of_aces: int
    two_pair: int
    three_of_a_kind: int
    straight: int
    flush: int
    full_house: int
    four_of_a_kind: int
    straight_flush: int
    royal_flush: int


@lru_cache(maxsize=1)
def thresholds() -> Thresholds:
    """Class thresholds in the evaluator's own values (computed once).

    >>> thresholds().flush > thresholds().straight > thresholds().pair_of_fours
    True
    """
    from pokerhouse.evaluate import high_value

    return Thresholds(**{name: high_value(parse_cards(text)) for name, text in _WEAKEST.items()})


def dealer_qualifies(value: int) -> bool:
    """Whether a hand of this value is a pair of fours or better.

    >>> from pokerhouse.evaluate import high_value
    >>> dealer_qualifies(high_value(parse_cards("4s 4h Ac Kd 9s 7h 2c")))
    True
    >>> dealer_qualifies(high_value(parse_cards("3s 3h Ac Kd 9s 7h 2c")))
    False
    """
    return value >= thresholds().pair_of_fours


def ante_category(value: int) -> AnteCategory:
    """The Ante pay-table class of a hand of this value."""
    limits = thresholds()
    for category, limit in (
        (AnteCategory.ROYAL_FLUSH, limits.royal_flush),
        (AnteCategory.STRAIGHT_FLUSH, limits.straight_flush),
        (AnteCategory.FOUR_OF_A_KIND, limits.four_of_a_kind),
        (AnteCategory.FULL_HOUSE, limits.full_house),
        (AnteCategory.FLUSH, limits.flush),
    ):
        if value >= limit:
            return category
    return AnteCategory.STRAIGHT_OR_LESS


def bonus_category(value: int) -> BonusCategory:
    """The AA Bonus class of a five-card hand of this value."""
    limits = thresholds()
    for category in reversed(BonusCategory):
        if category is BonusCategory.LOSES:
            break
        if value >= getattr(limits, category.name.lower()):
            return category
    return BonusCategory.LOSES


def _check_odds(table: str, name: str, value: object, minimum: int) -> None:
    if type(value) is not int or value < minimum:
        raise InvalidSpec(
            "bad_pay_table",
            f"{table} pay for {name.replace('_', ' ')} must be a whole number >= {minimum}, "
            f"not {value!r}",
        )


def _parse_table(cls: type[Any], text: str) -> Any:
    """``"100,20,10,3,2,1"`` (strongest first) or ``"flush=3,full_house=4"``."""
    names = [field.name for field in dataclasses.fields(cls)]
    parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    if parts and all("=" not in part for part in parts):
        if len(parts) != len(names):
            raise InvalidSpec(
                "bad_pay_table",
                f"a pay table lists {len(names)} odds ({', '.join(names)}), got {len(parts)}",
            )
        pairs = list(zip(names, parts, strict=True))
    else:
        pairs = []
        for part in parts:
            name, _, number = part.partition("=")
            pairs.append((name.strip().lower().replace("-", "_").replace(" ", "_"), number))
    values: dict[str, object] = {}
    for name, number in pairs:
        if name not in names:
            raise InvalidSpec(
                "bad_pay_table", f"no hand {name!r} in the pay table (hands: {', '.join(names)})"
            )
        text_number = number.strip().removesuffix(":1")
        if not text_number.isdigit():
            raise InvalidSpec(
                "bad_pay_table", f"odds {number.strip()!r} for {name} is not a number"
            )
        values[name] = int(text_number)
    return cls(**values)


@dataclass(frozen=True, slots=True)
class AntePays:
    """Odds (to 1) paid on a winning Ante by the box's hand; the default is the rule book's.

    >>> AntePays.parse("royal_flush=200, flush=3").as_tuple()  # weakest class first
    (1, 3, 3, 10, 20, 200)
    >>> AntePays(flush=0)
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidSpec: ante pay for flush must be a whole number >= 1, not 0
    """

    royal_flush: int = 100
    straight_flush: int = 20
    four_of_a_kind: int = 10
    full_house: int = 3
    flush: int = 2
    straight_or_less: int = 1

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_odds("ante", field.name, getattr(self, field.name), 1)

    def odds(self, category: AnteCategory) -> int:
        """The odds paid for a hand of ``category``."""
        return int(getattr(self, category.name.lower()))

    def as_tuple(self) -> tuple[int, ...]:
        """Odds by :class:`AnteCategory` value, weakest first."""
        return tuple(self.odds(category) for category in AnteCategory)

    @classmethod
    def parse(cls, text: str) -> AntePays:
        """Read ``"100,20,10,3,2,1"`` (royal flush first) or ``"name=odds, ..."``."""
        table: AntePays = _parse_table(cls, text)
        return table

    @classmethod
    def coerce(cls, value: object) -> AntePays:
        """An :class:`AntePays` from itself, text (see :meth:`parse`) or a mapping."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, Mapping):
            return cls.parse(",".join(f"{key}={odds}" for key, odds in value.items()))
        raise InvalidSpec("bad_pay_table", f"{value!r} is not an ante pay table")

    def describe(self) -> str:
        """The table in words, strongest hand first."""
        return ", ".join(
            f"{field.name.replace('_', ' ')} {getattr(self, field.name)}:1"
            for field in dataclasses.fields(self)
        )


#: The AA Bonus tables known by name.
BONUS_TABLE_NAMES = ("flat", "common")


@dataclass(frozen=True, slots=True)
class BonusPays:
    """Odds (to 1) paid on the AA Bonus by the box's five-card hand after the flop.

    The default pays 7:1 on every hand from a pair of aces up, as the seed
    says; ``BonusPays.named("common")`` is the common AA Bonus table.

    >>> BonusPays().flat_odds
    7
    >>> BonusPays.named("common").describe()[:60]
    'royal flush 100:1, straight flush 50:1, four of a kind 40:1,'
    """

    royal_flush: int = 7
    straight_flush: int = 7
    four_of_a_kind: int = 7
    full_house: int = 7
    flush: int = 7
    straight: int = 7
    three_of_a_kind: int = 7
    two_pair: int = 7
    pair_of_aces: int = 7

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            _check_odds("bonus", field.name, getattr(self, field.name), 0)

    @classmethod
    def flat(cls, odds: int = 7) -> BonusPays:
        """The same odds on every winning hand."""
        names = [field.name for field in dataclasses.fields(cls)]
        return cls(**dict.fromkeys(names, odds))

    @classmethod
    def named(cls, name: str) -> BonusPays:
        """``"flat"`` (7:1 on everything, the seed's) or ``"common"`` (100/50/40/30/20/7...)."""
        key = name.strip().lower()
        if key in ("flat", "seed", "7"):
            return cls.flat(7)
        if key in ("common", "aa", "aa-bonus"):
            return cls(100, 50, 40, 30, 20, 7, 7, 7, 7)
        raise InvalidSpec(
            "bad_pay_table",
            f"unknown bonus table {name!r} (named tables: {', '.join(BONUS_TABLE_NAMES)}, "
            "or odds like '100,50,40,30,20,7,7,7,7')",
        )

    @classmethod
    def coerce(cls, value: object) -> BonusPays:
        """A :class:`BonusPays` from itself, a table name, odds text or a mapping."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            if any(ch in value for ch in ",="):
                table: BonusPays = _parse_table(cls, value)
                return table
            return cls.named(value)
        if isinstance(value, Mapping):
            parsed: BonusPays = _parse_table(
                cls, ",".join(f"{key}={odds}" for key, odds in value.items())
            )
            return parsed
        raise InvalidSpec("bad_pay_table", f"{value!r} is not a bonus pay table")

    @property
    def flat_odds(self) -> int | None:
        """The single odds paid on every winning hand, if the table is flat."""
        odds = set(self.as_tuple()[1:])
        return odds.pop() if len(odds) == 1 else None

    def odds(self, category: BonusCategory) -> int:
        """The odds paid for ``category`` (0 when it loses)."""
        if category is BonusCategory.LOSES:
            return 0
        return int(getattr(self, category.name.lower()))

    def as_tuple(self) -> tuple[int, ...]:
        """Odds by :class:`BonusCategory` value, ``LOSES`` (0) first."""
        return tuple(self.odds(category) for category in BonusCategory)

    def describe(self) -> str:
        """The table in words, strongest hand first."""
        return ", ".join(
            f"{field.name.replace('_', ' ')} {getattr(self, field.name)}:1"
            for field in dataclasses.fields(self)
        )
