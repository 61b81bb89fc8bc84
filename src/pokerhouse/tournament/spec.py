"""A tournament's settings: its game and format, money, seats, entry rules, structure.

>>> spec = sit_and_go("razz", seats=6, buy_in=100, fee=10)
>>> spec.format, spec.min_entrants, spec.max_entrants, spec.structure.stack
('sit-and-go', 6, 6, 1000)
>>> TournamentSpec("Hourly", "3x4", "scheduled", built_in("turbo", "3x4"), buy_in=-1)
Traceback (most recent call last):
...
pokerhouse.tournament.errors.TournamentError: buy_in must be a whole number >= 0, not -1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from pokerhouse.games import get_game
from pokerhouse.tournament.errors import TournamentError, whole
from pokerhouse.tournament.structure import Structure, built_in, from_mapping

FORMATS = ("sit-and-go", "scheduled")


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What a tournament is: ``name``, ``game``, ``format`` (``sit-and-go``: one table that
    starts when full; ``scheduled``: starts at its time on as many tables as it
    needs), its ``structure``; ``buy_in`` to the pool and ``fee`` to the room
    (chips); ``guarantee`` (the least pool, the room funds the rest);
    ``seats`` per table; ``min_entrants`` and ``max_entrants`` (``None``: no
    cap); ``late_levels`` (registration stays open through the first N
    levels) and ``reentries`` (how many times a busted player may enter again
    during late registration).
    """

    name: str
    game: str
    format: str
    structure: Structure
    buy_in: int = 0
    fee: int = 0
    guarantee: int = 0
    seats: int = 0
    min_entrants: int = 2
    max_entrants: int | None = None
    late_levels: int = 0
    reentries: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 80:
            raise TournamentError("bad_tournament", f"a tournament needs a name, not {self.name!r}")
        if self.format not in FORMATS:
            raise TournamentError(
                "bad_tournament", f"format must be sit-and-go or scheduled, not {self.format!r}"
            )
        if not isinstance(self.structure, Structure) or self.structure.game != self.game:
            raise TournamentError("bad_tournament", f"the structure must be one for {self.game}")
        info = get_game(self.game)
        seats = self.seats or info.max_players
        if type(seats) is not int or not 2 <= seats <= info.max_players:
            raise TournamentError(
                "bad_tournament",
                f"a {info.title} table seats 2 to {info.max_players}, not {self.seats!r}",
            )
        object.__setattr__(self, "seats", seats)
        for name in ("buy_in", "fee", "guarantee", "late_levels", "reentries"):
            _whole(name, getattr(self, name), 0)
        _whole("min_entrants", self.min_entrants, 2)
        if self.max_entrants is not None:
            _whole("max_entrants", self.max_entrants, self.min_entrants)
        if self.buy_in == 0 and self.guarantee == 0:
            raise TournamentError("bad_tournament", "a tournament needs a buy-in or a guarantee")
        if self.format == "sit-and-go":
            if (self.min_entrants, self.max_entrants) != (seats, seats):
                raise TournamentError(
                    "bad_tournament", f"a sit-and-go takes exactly its {seats} seats' entrants"
                )
            if self.late_levels or self.reentries:
                raise TournamentError(
                    "bad_tournament", "a sit-and-go has no late registration or re-entry"
                )
        if self.reentries and not self.late_levels:
            raise TournamentError(
                "bad_tournament", "re-entry is only during late registration (late_levels)"
            )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "name": self.name,
            "game": self.game,
            "format": self.format,
            "structure": self.structure.as_dict(),
            "buy_in": self.buy_in,
            "fee": self.fee,
            "guarantee": self.guarantee,
            "seats": self.seats,
            "min_entrants": self.min_entrants,
            "max_entrants": self.max_entrants,
            "late_levels": self.late_levels,
            "reentries": self.reentries,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> TournamentSpec:
        """A spec from :meth:`as_dict`'s JSON, checked again in full.

        >>> spec = sit_and_go("3x4", seats=4)
        >>> TournamentSpec.from_dict(spec.as_dict()) == spec
        True
        """
        if not isinstance(data, Mapping):
            raise TournamentError("bad_tournament", f"a tournament is a table of settings: {data}")
        settings = dict(data)
        unknown = sorted(set(settings) - _FIELDS)
        missing = sorted({"name", "game", "format", "structure"} - set(settings))
        if unknown or missing:
            raise TournamentError(
                "bad_tournament", f"unknown settings {unknown}" if unknown else f"missing {missing}"
            )
        game = settings["game"]
        structure = settings.pop("structure")
        if not isinstance(structure, Mapping):
            raise TournamentError("bad_tournament", "a tournament's structure is a table")
        structure = {key: value for key, value in structure.items() if key != "game"}
        return TournamentSpec(structure=from_mapping(game, structure), **settings)


_FIELDS = frozenset(field.name for field in fields(TournamentSpec))


def _whole(name: str, value: object, least: int) -> None:
    whole(name, value, least, "bad_tournament")


def sit_and_go(
    game: str,
    *,
    seats: int = 0,
    buy_in: int = 100,
    fee: int = 10,
    structure: Structure | None = None,
    name: str = "",
) -> TournamentSpec:
    """A sit-and-go of one full table (default: the game's largest, the turbo structure)."""
    seats = seats or get_game(game).max_players
    return TournamentSpec(
        name or f"{get_game(game).title} sit-and-go",
        game,
        "sit-and-go",
        structure if structure is not None else built_in("turbo", game),
        buy_in=buy_in,
        fee=fee,
        seats=seats,
        min_entrants=seats,
        max_entrants=seats,
    )
