"""A tournament's structure: its levels, how long each lasts, breaks and the stack.

A level sets the game's amounts (RULES.md "Tournaments", "Levels"): **3x4**
the ante and the minimum bet; **Razz** the ante (about a fifth of the small
bet), the bring-in (about a quarter), the small bet and the big bet (twice
the small bet); **Teen Patti** the ante (the boot). Each level is built
from one number, its *small bet* (Teen Patti: the boot), by
:func:`level_stakes`. A level lasts ``level_seconds`` of tournament time,
or, with ``level_hands``, that many hands; after every ``break_every``
levels comes a break of ``break_seconds`` that stops every clock. Every
entrant starts with ``starting_stack`` chips (default: 100 small bets of
level 1).

>>> structure = built_in("regular", "razz")
>>> structure.levels[0]
(('ante', 2), ('bring_in', 3), ('small_bet', 10), ('big_bet', 20))
>>> structure.stack, structure.level_seconds, structure.break_every
(1000, 600, 6)
>>> from_mapping("3x4", {"small_bets": [2, 4, 8], "level_seconds": 60}).levels[2]
(('ante', 4), ('small_bet', 8))
>>> from_mapping("3x4", {"small_bets": [2, 1]})
Traceback (most recent call last):
...
pokerhouse.tournament.errors.TournamentError: small_bets must rise from level to level: 2 then 1
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.tournament.errors import TournamentError, whole

#: The games that have tournaments (Casino Hold'em is banked: no tournaments).
TOURNAMENT_GAMES = ("3x4", "razz", "teen-patti")

#: A level's amounts: ``(spec field, chips)`` pairs (what :class:`~pokerhouse.table.SetStakes`
#: takes).
Stakes = tuple[tuple[str, int], ...]

#: The small bets (Teen Patti: boots) of the built-in schedules, in chips. Each step
#: raises the stakes by a quarter to a half, as the usual published schedules do.
SMALL_BETS = (
    10, 15, 20, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800,
    1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000,
    20000, 25000, 30000, 40000, 50000, 60000, 80000, 100000,
)  # fmt: skip

#: Built-in structures: level length, hands per level (none: by time), breaks.
BUILT_IN: dict[str, dict[str, Any]] = {
    "regular": {"level_seconds": 600, "break_every": 6, "break_seconds": 300},
    "turbo": {"level_seconds": 300, "break_every": 0, "break_seconds": 0},
    "hyper": {"level_hands": 6, "break_every": 0, "break_seconds": 0},
}

_KEYS = frozenset(
    (
        "small_bets",
        "level_seconds",
        "level_hands",
        "break_every",
        "break_seconds",
        "starting_stack",
    )
)


def _rounded(value: float) -> int:
    """Half up (``round`` would take 2.5 to 2), at least 1."""
    return max(1, int(value + 0.5))


def level_stakes(game: str, small_bet: int) -> Stakes:
    """The amounts of a level whose small bet (Teen Patti: boot) is ``small_bet``.

    >>> level_stakes("3x4", 10)
    (('ante', 5), ('small_bet', 10))
    >>> level_stakes("razz", 30)
    (('ante', 6), ('bring_in', 8), ('small_bet', 30), ('big_bet', 60))
    >>> level_stakes("teen-patti", 40)
    (('ante', 40),)
    """
    if game == "3x4":
        # 3x4 has no blinds: the ante is what makes a pot, half a small bet as at the cash tables.
        return (("ante", _rounded(small_bet / 2)), ("small_bet", small_bet))
    if game == "razz":
        bring_in = min(_rounded(small_bet / 4), small_bet - 1)
        return (
            ("ante", _rounded(small_bet / 5)),
            ("bring_in", bring_in),
            ("small_bet", small_bet),
            ("big_bet", 2 * small_bet),
        )
    if game == "teen-patti":
        return (("ante", small_bet),)
    raise TournamentError("bad_structure", f"{game!r} has no tournaments (3x4, razz, teen-patti)")


@dataclass(frozen=True, slots=True)
class Structure:
    """A level schedule for one game and the clock it runs on.

    Exactly one of ``level_seconds`` and ``level_hands`` is set. The last
    level goes on for as long as the tournament does.
    """

    game: str
    small_bets: tuple[int, ...]
    level_seconds: int | None = 600
    level_hands: int | None = None
    break_every: int = 0
    break_seconds: int = 0
    starting_stack: int | None = None

    def __post_init__(self) -> None:
        if self.game not in TOURNAMENT_GAMES:
            raise TournamentError(
                "bad_structure", f"{self.game!r} has no tournaments (3x4, razz, teen-patti)"
            )
        bets = self.small_bets
        if not isinstance(bets, tuple) or not bets:
            raise TournamentError("bad_structure", "small_bets must list at least one level")
        least = 2 if self.game == "razz" else 1  # Razz's bring-in is below its small bet
        for value in bets:
            _whole("small_bets", value, least)
        for earlier, later in itertools.pairwise(bets):
            if later <= earlier:
                raise TournamentError(
                    "bad_structure",
                    f"small_bets must rise from level to level: {earlier} then {later}",
                )
        if (self.level_seconds is None) == (self.level_hands is None):
            raise TournamentError(
                "bad_structure", "a level lasts either level_seconds or level_hands, not both"
            )
        if self.level_seconds is not None:
            _whole("level_seconds", self.level_seconds, 1)
        if self.level_hands is not None:
            _whole("level_hands", self.level_hands, 1)
        _whole("break_every", self.break_every, 0)
        _whole("break_seconds", self.break_seconds, 0)
        if (self.break_every == 0) != (self.break_seconds == 0):
            raise TournamentError(
                "bad_structure", "break_every and break_seconds are both set, or neither"
            )
        if self.starting_stack is not None:
            _whole("starting_stack", self.starting_stack, 1)
        else:
            # Filled in, so that a structure read back from as_dict() equals this one.
            object.__setattr__(self, "starting_stack", 100 * bets[0])
        for level in range(len(bets)):
            try:
                get_game(self.game).spec(**dict(self.stakes(level)))
            except InvalidSpec as error:
                raise TournamentError("bad_structure", f"level {level + 1}: {error}") from None

    @property
    def levels(self) -> tuple[Stakes, ...]:
        """Every level's amounts, level 1 first."""
        return tuple(level_stakes(self.game, bet) for bet in self.small_bets)

    def stakes(self, level: int) -> Stakes:
        """The amounts of ``level`` (0 is the first; past the last, the last)."""
        return level_stakes(self.game, self.small_bets[min(level, len(self.small_bets) - 1)])

    @property
    def stack(self) -> int:
        """Every entrant's starting chips."""
        assert self.starting_stack is not None  # filled in by __post_init__
        return self.starting_stack

    def break_after(self, level: int) -> bool:
        """Whether a break follows ``level`` (0 is the first)."""
        return self.break_every > 0 and (level + 1) % self.break_every == 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, what :func:`from_mapping` reads back (with the game)."""
        return {
            "game": self.game,
            "small_bets": list(self.small_bets),
            "level_seconds": self.level_seconds,
            "level_hands": self.level_hands,
            "break_every": self.break_every,
            "break_seconds": self.break_seconds,
            "starting_stack": self.stack,
        }


def _whole(name: str, value: object, least: int) -> None:
    whole(name, value, least, "bad_structure")


def built_in(name: str, game: str) -> Structure:
    """The built-in structure ``name`` (regular, turbo, hyper) for ``game``."""
    settings = BUILT_IN.get(name)
    if settings is None:
        raise TournamentError(
            "unknown_structure",
            f"no structure {name!r} (built in: {', '.join(sorted(BUILT_IN))})",
        )
    return Structure(game, SMALL_BETS, **{"level_seconds": None, **settings})


def from_mapping(game: str, data: Mapping[str, Any]) -> Structure:
    """A structure from settings (a ``room.toml`` table), each checked.

    ``small_bets`` lists each level's small bet (Teen Patti: boot); the rest
    as in :class:`Structure`. ``base`` names a built-in structure to start
    from.
    """
    if not isinstance(data, Mapping):
        raise TournamentError("bad_structure", f"a structure is a table of settings, not {data!r}")
    settings = dict(data)
    base_name = settings.pop("base", None)
    unknown = sorted(set(settings) - _KEYS)
    if unknown:
        raise TournamentError(
            "bad_structure",
            f"unknown structure setting {', '.join(map(repr, unknown))} "
            f"(settings: base, {', '.join(sorted(_KEYS))})",
        )
    if base_name is not None:
        base = built_in(str(base_name), game)
        merged: dict[str, Any] = {
            "small_bets": base.small_bets,
            "level_seconds": base.level_seconds,
            "level_hands": base.level_hands,
            "break_every": base.break_every,
            "break_seconds": base.break_seconds,
            # A built-in's stack follows its first level: 100 small bets of the levels given.
            "starting_stack": None,
        }
        if "level_hands" in settings:
            merged["level_seconds"] = None
        if "level_seconds" in settings:
            merged["level_hands"] = None
        merged.update(settings)
        settings = merged
    bets = settings.pop("small_bets", None)
    if not isinstance(bets, Sequence) or isinstance(bets, str):
        raise TournamentError("bad_structure", "small_bets must list each level's small bet")
    if "level_hands" in settings and "level_seconds" not in settings:
        settings["level_seconds"] = None
    return Structure(game, tuple(bets), **settings)
