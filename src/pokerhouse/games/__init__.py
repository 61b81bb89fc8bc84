"""The games, by name: a registry of specs and hand classes.

>>> {"3x4", "razz", "teen-patti"} <= set(GAMES)
True
>>> hand = new_hand("3x4", [100, 100], seed=3)
>>> hand.game, hand.players
('3x4', 2)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pokerhouse.cards import Deck
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import InvalidSpec
from pokerhouse.games.casino_holdem import CasinoHoldemHand, CasinoHoldemSpec
from pokerhouse.games.razz import RazzHand, RazzSpec
from pokerhouse.games.teen_patti import TeenPattiHand, TeenPattiSpec
from pokerhouse.games.three_by_four import ThreeByFourHand, ThreeByFourSpec


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's name, title, spec type and how to start a hand of it."""

    name: str
    title: str
    spec_type: type[Any]
    hand_type: Callable[..., Hand]
    min_players: int
    max_players: int
    banked: bool = False

    def spec(self, **options: Any) -> Any:
        """A spec from keyword options, with a clear error for unknown ones."""
        known = {field.name for field in dataclasses.fields(self.spec_type)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidSpec(
                "unknown_option",
                f"{self.name} has no option {', '.join(unknown)} "
                f"(options: {', '.join(sorted(known))})",
            )
        try:
            return self.spec_type(**options)
        except TypeError as error:
            raise InvalidSpec("bad_spec", f"bad {self.name} options: {error}") from None


class WagerRules(Protocol):
    """What a banked game's spec says about a box's bets (Casino Hold'em's ante and bonus)."""

    @property
    def default_ante(self) -> int:
        """The ante a new box bets."""
        ...

    def check_wager(self, ante: object, bonus: object) -> None:
        """Raise :class:`InvalidSpec` unless a box may bet this ante and bonus."""
        ...

    def stake_needed(self, ante: int, bonus: int) -> int:
        """Chips a box needs to be dealt in with these bets."""
        ...


GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    """Add a game to the registry."""
    GAMES[info.name] = info


register(GameInfo("3x4", "3x4 Poker", ThreeByFourSpec, ThreeByFourHand, 2, 10))
register(GameInfo("razz", "Razz", RazzSpec, RazzHand, 2, 8))
register(GameInfo("teen-patti", "3 Card Poker (Teen Patti)", TeenPattiSpec, TeenPattiHand, 2, 10))
register(
    GameInfo(
        "casino-holdem", "Casino Hold'em", CasinoHoldemSpec, CasinoHoldemHand, 1, 7, banked=True
    )
)

_ALIASES = {
    "3x4-poker": "3x4",
    "threebyfour": "3x4",
    "teenpatti": "teen-patti",
    "casino-hold'em": "casino-holdem",
    "casinoholdem": "casino-holdem",
}


def get_game(name: str) -> GameInfo:
    """The game registered under ``name``; raises :class:`InvalidSpec` if unknown."""
    key = name.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    info = GAMES.get(key)
    if info is None:
        raise InvalidSpec(
            "unknown_game", f"unknown game {name!r} (games: {', '.join(sorted(GAMES))})"
        )
    return info


def new_hand(
    game: str,
    stacks: Sequence[int],
    *,
    spec: Any = None,
    deck: Deck | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Hand:
    """Start a hand of ``game``: spec (or ``options`` for one), stacks and a deck.

    ``seed`` shuffles with a seeded :class:`random.Random` (for tests and
    replays); with neither ``deck`` nor ``seed`` the deck is shuffled by the
    system's secure RNG.
    """
    info = get_game(game)
    if spec is None:
        spec = info.spec(**dict(options or {}))
    elif not isinstance(spec, info.spec_type):
        raise InvalidSpec("bad_spec", f"{info.name} needs a {info.spec_type.__name__}")
    if deck is None:
        deck = Deck(random.Random(seed)) if seed is not None else Deck()
    return info.hand_type(spec, stacks, deck, **kwargs)
