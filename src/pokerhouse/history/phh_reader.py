"""Reading a PHH file: the TOML parsed and checked into a :class:`PhhHand`, and PHH cards.

:func:`read_phh` takes the fields a Razz (``FR``) history needs, checks each
one and keeps the others as metadata; each action keeps the line it stands
on in the file, so that a replay can point at it. A variant of the PHH
standard that is not played here is refused by name.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.games.razz import RazzSpec

#: The PHH variant code of Razz.
RAZZ = "FR"

#: Every variant code of the PHH standard, to name the ones we do not play.
VARIANTS: Mapping[str, str] = {
    "FT": "fixed-limit Texas hold'em",
    "NT": "no-limit Texas hold'em",
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha hold'em",
    "FO/8": "fixed-limit Omaha hold'em high/low-split eight or better",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud high/low-split eight or better",
    "FR": "fixed-limit razz",
    "N2L1D": "no-limit deuce-to-seven lowball single draw",
    "F2L3D": "fixed-limit deuce-to-seven lowball triple draw",
    "FB": "fixed-limit badugi",
}

_REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of a PHH ``actions`` list, with where it stands in the file."""

    index: int
    line: int
    text: str

    @property
    def where(self) -> str:
        """``line 12, action 5 'p2 cc'`` (the line is left out when unknown)."""
        line = f"line {self.line}, " if self.line else ""
        return f"{line}action {self.index} {self.text!r}"


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A Razz hand history read from PHH (fields as the standard names them)."""

    variant: str
    antes: tuple[int, ...]
    bring_in: int
    small_bet: int
    big_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    ante_trimming_status: bool = False
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def spec(self) -> RazzSpec:
        """Our Razz spec for these amounts (one bet and three raises per street)."""
        try:
            return RazzSpec(
                ante=self.antes[0],
                bring_in=self.bring_in,
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )
        except PokerError as error:
            raise HistoryError("bad_spec", f"PHH amounts: {error}") from None


# ---------------------------------------------------------------- reading


def read_phh(source: str | bytes) -> PhhHand:
    """Parse and check a PHH document; raises :class:`HistoryError` naming the problem.

    >>> try:
    ...     read_phh("variant = 'F7S'")
    ... except HistoryError as error:
    ...     print(error.code, "-", error)  # doctest: +ELLIPSIS
    unknown_variant - variant 'F7S' (fixed-limit seven card stud) is not played here: ...
    """
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError("bad_phh", f"not valid TOML: {error}") from None
    except RecursionError:
        raise HistoryError("bad_phh", "not a hand history: TOML nested too deeply") from None
    except ValueError:
        # The only other refusal: an integer past Python's digit limit for conversion.
        raise HistoryError("bad_phh", "not a hand history: TOML with a number too long") from None
    variant = data.get("variant")
    if variant != RAZZ:
        if variant is None:
            raise HistoryError("bad_phh", "the PHH has no 'variant'")
        if isinstance(variant, str) and variant in VARIANTS:
            raise HistoryError(
                "unknown_variant",
                f"variant {variant!r} ({VARIANTS[variant]}) is not played here: "
                f"pokerhouse reads PHH for razz ({RAZZ!r}) only",
            )
        raise HistoryError("unknown_variant", f"unknown PHH variant {variant!r}")
    missing = [name for name in _REQUIRED if name not in data]
    if missing:
        raise HistoryError("truncated_history", f"the PHH has no {', '.join(missing)}")
    stacks = _ints(data, "starting_stacks")
    players = len(stacks)
    if not 2 <= players <= 8:
        raise HistoryError("player_count", f"razz takes 2 to 8 players, not {players}")
    if any(stack <= 0 for stack in stacks):
        raise HistoryError("bad_phh", f"starting_stacks must be positive: {list(stacks)}")
    antes = _ints(data, "antes")
    if len(antes) != players:
        raise HistoryError("bad_phh", f"{len(antes)} antes for {players} players")
    if len(set(antes)) != 1:
        raise HistoryError(
            "unsupported", f"razz here has one ante for every seat; the antes {list(antes)} differ"
        )
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(item, str) for item in actions):
        raise HistoryError("bad_phh", "'actions' must be a list of strings")
    finishing = _ints(data, "finishing_stacks") if "finishing_stacks" in data else None
    if finishing is not None and len(finishing) != players:
        raise HistoryError("bad_phh", f"{len(finishing)} finishing stacks for {players} players")
    names = data.get("players")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(name, str) for name in names)
    ):
        raise HistoryError("bad_phh", f"'players' must be {players} names")
    trimming = data.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise HistoryError("bad_phh", "'ante_trimming_status' must be true or false")
    known = {*_REQUIRED, "finishing_stacks", "players", "ante_trimming_status"}
    return PhhHand(
        variant=variant,
        antes=antes,
        bring_in=_int(data, "bring_in"),
        small_bet=_int(data, "small_bet"),
        big_bet=_int(data, "big_bet"),
        starting_stacks=stacks,
        actions=tuple(_locate(text, actions)),
        ante_trimming_status=trimming,
        players=None if names is None else tuple(names),
        finishing_stacks=finishing,
        metadata={key: value for key, value in data.items() if key not in known},
    )


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data[name]
    if type(value) is not int or value < 0:
        raise HistoryError("bad_phh", f"{name!r} must be a whole number of chips, not {value!r}")
    return value


def _ints(data: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = data[name]
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise HistoryError("bad_phh", f"{name!r} must be a list of whole numbers, not {value!r}")
    return tuple(value)


def _locate(text: str, actions: Sequence[str]) -> Iterable[PhhAction]:
    """Number the actions and find the line of each in the file (0 when not found)."""
    key = re.search(r"^\s*actions\s*=", text, re.MULTILINE)
    position = key.end() if key else 0
    for index, action in enumerate(actions):
        found = [
            spot
            for quote in ("'", '"')
            if (spot := text.find(f"{quote}{action}{quote}", position)) >= 0
        ]
        line = 0
        if found:
            position = min(found)
            line = text.count("\n", 0, position) + 1
            position += len(action) + 2
        yield PhhAction(index, line, action)


def parse_phh_cards(text: str) -> tuple[Card | None, ...]:
    """PHH cards, ``7c3hKc``; ``??`` is a card nobody saw (``None``).

    >>> parse_phh_cards("7c??Kc")
    (7c, None, Kc)
    """
    compact = "".join(text.split())
    if len(compact) % 2:
        raise HistoryError("bad_cards", f"{text!r} is not a list of two-letter cards")
    cards: list[Card | None] = []
    for start in range(0, len(compact), 2):
        chunk = compact[start : start + 2]
        if chunk == "??":
            cards.append(None)
            continue
        try:
            cards.append(Card.parse(chunk))
        except PokerError as error:
            raise HistoryError("bad_cards", f"{text!r}: {error}") from None
    return tuple(cards)
